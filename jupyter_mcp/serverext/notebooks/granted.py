"""Which notebooks the notebook tools reach for the client of the call being served.

A client signed in with Jupyter for some notebooks (``sales.ipynb``, ``reports/``) is held to them: the
Jupyter server passes its grant's notebooks in the signed-in header (``tools.signedin.current``), and
every tool checks the path it is given here before it opens anything (``jupyter_notebooks`` lists
only those). Every other client (the Jupyter token, a hub API token, a grant for every notebook)
reaches every notebook.
"""

from __future__ import annotations

from jupyter_mcp.shapes.signedin import covers
from jupyter_mcp.tools import signedin
from jupyter_mcp.tools.errors import ToolError


def bound() -> list[str]:
    """The notebooks and folders the current client's grant names (empty: no such bound)."""
    grant = signedin.current.get()
    return grant["notebooks"] if grant is not None else []


def reaches(path: str) -> bool:
    """Whether the current client may work on ``path`` (a normalized notebook path)."""
    return covers(bound(), path)


def check(path: str, tool: str) -> None:
    """A ``ToolError`` when ``path`` is outside the current client's grant (nothing is opened or created)."""
    grant = signedin.current.get()
    if grant is None or covers(grant["notebooks"], path):
        return
    raise ToolError(
        f"{tool}: {path!r} is not among the notebooks {grant['client']!r} signed in with Jupyter for "
        f"({', '.join(grant['notebooks'])}). The notebook user can allow more by signing it in again (revoke it "
        "in JupyterLab's MCP sidebar, under Connected apps, and connect again)."
    )
