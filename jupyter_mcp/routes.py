"""The server extension's stable routes: every notebook's tools, a kernel's, a notebook's.

Shared by the server extension (which serves them) and the kernel (whose server panel, under
JupyterHub, points clients at them); standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from urllib.parse import quote


def url_join(*pieces: str) -> str:
    """Join URL path pieces with single slashes, keeping a leading and a trailing one (as Jupyter does)."""
    initial = pieces[0].startswith("/")
    final = pieces[-1].endswith("/")
    joined = "/".join(piece.strip("/") for piece in pieces if piece.strip("/"))
    if initial:
        joined = "/" + joined
    if final and joined != "/":
        joined += "/"
    return joined


def kernel_route(base_url: str, kernel_id: str) -> str:
    return url_join(base_url, "mcp/kernels", quote(kernel_id, safe=""))


def notebook_route(base_url: str, path: str) -> str:
    return url_join(base_url, "mcp/notebooks", quote(path, safe="/"))


def union_route(base_url: str, notebooks: Sequence[str] = ()) -> str:
    """``<base_url>/mcp``, every notebook's tools; ``notebooks`` (paths, folders) scope it: ``?notebooks=a,dir/``."""
    route = url_join(base_url, "mcp")
    if not notebooks:
        return route
    return route + "?notebooks=" + ",".join(quote(path.lstrip("/"), safe="/") for path in notebooks)


def notebook_under(notebook_path: str, root: Path) -> str | None:
    """A notebook file's path as the Jupyter server serving ``root`` names it, or ``None`` outside it."""
    notebook = Path(notebook_path)
    if notebook.is_absolute() and notebook.is_relative_to(root):
        return notebook.relative_to(root).as_posix()
    return None
