"""The shapes that cross a process boundary, each defined once.

- ``status``: what a kernel's tool server says about itself (``GET /status``), and so what the REST
  API lists per component, client and waiting call;
- ``rest``: the server extension's REST replies (``/api/mcp/servers``, ``/api/mcp/config``);
- ``answers``: what JupyterLab sends to answer the notebook user's side (approvals, questions, the
  pause, read-only limits) and what it gets back;
- ``views``: what the notebook widgets send to the browser.

They import nothing of the package's processes, so the kernel, the server extension and the widgets
all stand on them. ``labextension/src/types.ts`` (status, rest, answers) and
``labextension/src/ui/shapes.ts`` (views) are generated from these modules by
``scripts/labextension_types.py``; a test fails when they differ, others check real replies against
them, and ``docs/openapi.json`` is built from them.
"""
