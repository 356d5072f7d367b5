"""What the core install (``pip install jupyter-live-mcp``) leaves out, and the one line that adds it.

The core is the tool layer, ``ToolServer`` and the CLI's ``connect``/``list``/``config``; the
notebook side (magics, the kernel's server, widgets, the server extension, ``serve``) needs the
``notebook`` extra. Its entry points call ``require`` first, so a missing piece is one sentence.
"""

from __future__ import annotations

import importlib.util

NOTEBOOK_INSTALL = 'pip install "jupyter-live-mcp[notebook]"'
KERNEL_MODULES = ("IPython", "ipykernel", "ipywidgets", "anywidget")
"""What a kernel needs to serve tools (``%load_ext jupyter_mcp``, ``jupyter_mcp.get_server()``)."""


def require(feature: str, modules: tuple[str, ...]) -> None:
    """Raise ``ModuleNotFoundError`` saying what ``feature`` lacks and how to install it.

    Example::

        require("jupyter_mcp.kernel", ("IPython", "ipykernel"))
    """
    missing = [name for name in modules if importlib.util.find_spec(name) is None]
    if missing:
        raise ModuleNotFoundError(
            f"{feature} needs {', '.join(missing)}, which the core install leaves out: {NOTEBOOK_INSTALL}",
            name=missing[0],
        )
