"""Export a notebook's tools as a standalone MCP server project, and its kept calls as tests.

The exported ``server.py`` is the notebook's code cells in order, as Python a person maintains:
``%%mcp_tool`` cells become ``@server.tool(...)`` functions, ``%mcp_tool fn`` becomes
``server.add_tool(fn, ...)``, and what only IPython can run is reported with its cell and line.
It runs on ``jupyter_mcp.tools`` alone (``jupyter_mcp.tools.run``).

Example::

    from jupyter_mcp.export import export_notebook
    from jupyter_mcp.notebookfile import read

    result = export_notebook(read(Path("analysis.ipynb"), tagged=False), Path("analysis-server"))
    print(result.summary())
"""

from jupyter_mcp.export.check import CheckError
from jupyter_mcp.export.exporter import ExportResult, export_notebook
from jupyter_mcp.export.recorded import RecordedCall, read_sidecar, sidecar_path, write_sidecar
from jupyter_mcp.export.translate.findings import ExportError, Finding

__all__ = [
    "CheckError",
    "ExportError",
    "ExportResult",
    "Finding",
    "RecordedCall",
    "export_notebook",
    "read_sidecar",
    "sidecar_path",
    "write_sidecar",
]
