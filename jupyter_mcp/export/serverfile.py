"""``server.py``: a ``ToolServer`` named ``server``, the notebook's cells in order, and ``main()``."""

from __future__ import annotations

from jupyter_mcp.export.project import Names
from jupyter_mcp.export.translate.cells import Translation
from jupyter_mcp.export.translate.literals import literal
from jupyter_mcp.export.translate.registration import SERVER

MARKER = "by jupyter-mcp export"
"""In every generated server.py's first line: a directory holding one may be exported into again."""

_HEADER = '''"""MCP tools from {notebook}, exported {marker}.

The notebook's code cells in order ("# %% cell N" marks each), as Python: %%mcp_tool cells are
functions registered with @{server}.tool. Serve with `{script}` (stdio) or
`{script} --transport http --port 8000 --token TOKEN` (streamable HTTP).
"""
'''

_MAIN = f'''

def main() -> None:
    """Serve the tools: stdio, or --transport http [--host H] [--port P] [--token T]."""
    raise SystemExit(jupyter_mcp.tools.run({SERVER}))


if __name__ == "__main__":
    main()
'''


def module_source(names: Names, notebook: str, translation: Translation) -> str:
    """The whole of server.py."""
    parts = [_HEADER.format(notebook=notebook, marker=MARKER, server=SERVER, script=names.script)]
    if translation.futures:
        parts.append(f"from __future__ import {', '.join(sorted(translation.futures))}\n")
    parts.append(f"import jupyter_mcp.tools\n\n{SERVER} = jupyter_mcp.tools.ToolServer({literal(names.base)})\n")
    for translated in translation.cells:
        code = "\n".join(line.rstrip() for line in translated.code.strip("\n").splitlines())
        parts.append(f"\n\n# %% cell {translated.cell.number}\n{code}\n")
    parts.append(_MAIN)
    return "\n".join(parts).replace("\n\n\n\n", "\n\n\n")
