"""The notebook tools: an agent reads, edits and runs cells in this Jupyter server's notebooks, live.

A tool server of the extension's own, a member of ``<jupyter url>/mcp`` (see ``host``). Lowest first:
``modes`` (what agents may do, what waits for approval), ``identity`` (who a client is), ``cells``
(cells in one plain form, versions, selections), ``documents`` (the live shared documents of
jupyter-server-ydoc, or the files), ``outputs`` (outputs as MCP content), ``edits`` (ops checked and
applied in one transaction), ``writer`` and ``runs`` (cells run on the notebook's kernel, outputs into
the document), ``agents`` (presence and each agent's undo), ``listing`` (``jupyter_notebooks``),
``tools`` (the five tools), ``host`` (the server, its carrier, its place among the servers) and
``rest`` (what the sidebar reads and switches).

It may import the tool layer's public API and rooms, ``jupyter_mcp.shapes``, ``prefixes``,
``discovery``, the carriers and the directory; never the union (which the app wires it into), nor
the REST and proxy fronts of the extension (``tests/test_layers.py``).
"""
