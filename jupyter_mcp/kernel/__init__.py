"""The notebook side: magics, this kernel's ``NotebookServer``, capture, history (the ``notebook`` extra)."""

from jupyter_mcp._extras import KERNEL_MODULES, require

require("jupyter_mcp's notebook side (%load_ext jupyter_mcp, jupyter_mcp.get_server())", KERNEL_MODULES)
