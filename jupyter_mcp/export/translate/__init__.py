"""Translating a notebook's cells into the exported module's Python: IPython syntax, magics, tool
cells and registrations, with what was found on the way (``findings``). Imports nothing of the
project writer around it (``jupyter_mcp.export``)."""
