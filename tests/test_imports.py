"""``import jupyter_mcp`` (and the tool layer) stays light: no IPython, ipywidgets or jupyter_server."""

import json
import subprocess
import sys

import pytest

HEAVY = ("IPython", "ipywidgets", "jupyter_server", "ipykernel", "tornado")


@pytest.mark.parametrize("statement", ["import jupyter_mcp", "from jupyter_mcp.tools import ToolServer, Tool, Context"])
def test_light_imports(statement: str) -> None:
    code = f"{statement}\nimport sys, json\nprint(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}})))"
    loaded = json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
    assert not set(HEAVY) & set(loaded)


def test_public_names() -> None:
    import jupyter_mcp

    for name in ("Context", "ToolError", "ToolResult", "Image", "Audio", "File", "get_server", "tool", "__version__"):
        assert hasattr(jupyter_mcp, name)
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        jupyter_mcp.nope  # noqa: B018
