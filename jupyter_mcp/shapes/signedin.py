"""The ``Jupyter-MCP-Signed-In`` header: the Jupyter server telling a kernel which signed-in client a request
is from, and what its grant allows.

A client that signed in with Jupyter (OAuth) is named by its grant, not by what it says in
``initialize``; the kernel names it so in its history, approvals and client list, and refuses its
calls of tools not marked read-only when the grant is read-only. Only the Jupyter server sends the
header (it drops any a client sends), and a kernel reads it only on requests that carry the kernel's
own token, which clients never hold.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from typing_extensions import TypedDict

HEADER = "jupyter-mcp-signed-in"
_MAX = 8192
"""Longer is refused (a kernel's HTTP server bounds its headers; the consent page bounds what a grant names)."""


class SignedIn(TypedDict):
    client: str
    """The client's name as its grant has it (what it registered, or its metadata document says)."""
    read_only: bool
    """The Jupyter user allowed it read-only tools only."""
    notebook_tools: str | None
    """The most the notebook tools may do for it (``"off"`` … ``"run"``), as the user chose; ``None``: the server's."""
    notebooks: list[str]
    """The notebooks and folders the user allowed it (``sales.ipynb``, ``reports/``); empty: every notebook."""


def encode(signed_in: SignedIn) -> str:
    """The header's value: compact JSON, ASCII only (a header cannot carry more)."""
    return json.dumps(signed_in, ensure_ascii=True, separators=(",", ":"))


def decode(value: str | None) -> SignedIn | None:
    """The header's value read back; ``None`` when absent or malformed."""
    if not value or len(value) > _MAX:
        return None
    try:
        found = json.loads(value)
    except ValueError:
        return None
    if not isinstance(found, dict) or not isinstance(found.get("client"), str):
        return None
    if not isinstance(found.get("read_only"), bool):
        return None
    mode = found.get("notebook_tools")
    notebooks = found.get("notebooks", [])
    if not isinstance(notebooks, list) or not all(isinstance(entry, str) and entry for entry in notebooks):
        return None
    return SignedIn(
        client=found["client"],
        read_only=found["read_only"],
        notebook_tools=mode if isinstance(mode, str) else None,
        notebooks=notebooks,
    )


def covers(entries: Sequence[str], notebook: str) -> bool:
    """Whether ``notebook`` (a path under the server's root) is one of ``entries`` or in one of its folders;
    no entries: every notebook."""
    return not entries or any(notebook == entry or notebook.startswith(entry.rstrip("/") + "/") for entry in entries)
