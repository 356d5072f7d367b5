"""Which notebooks one client sees: ``/mcp?notebooks=sales.ipynb,ops/`` or ``/mcp/scope/sales.ipynb,ops/``.

An entry names a notebook (its path, as JupyterLab shows it) or a folder (every notebook under it,
with or without the trailing ``/``). Entries are separated by commas; a comma inside a path is
written ``%2C``. No entries: every notebook. A client signed in with a grant for some notebooks is
held to them too, whatever its URL asks (``within``).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import unquote

from jupyter_mcp.serverext.union.live.members import Member
from jupyter_mcp.shapes.signedin import covers


class BadScope(ValueError):
    """A scope that names nothing usable (HTTP 400)."""


@dataclass(frozen=True)
class Scope:
    """The notebooks a client may see; empty means all of them."""

    entries: tuple[str, ...] = ()
    within: tuple[str, ...] = ()
    """The notebooks and folders a sign-in grant allows (empty: no such bound)."""

    @classmethod
    def parse(cls, query: str, path: str | None = None) -> Scope:
        """From the raw query string (``notebooks=`` may repeat) and the ``/mcp/scope/<entries>`` path form."""
        raw = [value for name, _, value in (part.partition("=") for part in query.split("&")) if name == "notebooks"]
        if path is not None:
            raw.append(path)
        entries = [_entry(piece) for value in raw for piece in value.split(",")]
        entries = [entry for entry in entries if entry]
        if (raw and not entries) or any(".." in entry.split("/") for entry in entries):
            raise BadScope("notebooks= names notebooks or folders by their paths, separated by commas (no '..')")
        return cls(tuple(sorted(set(entries))))

    def bounded(self, within: tuple[str, ...]) -> Scope:
        """This scope, held to ``within`` as well (a grant's notebooks)."""
        return Scope(self.entries, within)

    @property
    def everything(self) -> bool:
        return not self.entries and not self.within

    def includes(self, member: Member) -> bool:
        """Whether a client with this scope sees ``member``. The notebook tools reach every notebook: a client
        whose URL names some notebooks gets none; a signed-in client held to some by its grant gets them, and
        they hold it there themselves (the grant's notebooks reach them in the signed-in header)."""
        if member.bare:
            return not self.entries
        return self.everything or (member.notebook is not None and self.covers(member.notebook))

    def sees(self, key: str, *, bare: bool) -> bool:
        """Whether the member with ``key`` is in view (``bare``: a server the Jupyter server runs itself, which a
        signed-in client held to some notebooks sees too; see ``includes``)."""
        return not self.entries if bare else self.covers(key)

    def covers(self, key: str) -> bool:
        """Whether a member key (a notebook's path) is in scope."""
        return covers(self.entries, key) and covers(self.within, key)

    def describe(self) -> str:
        if self.everything:
            return "every notebook"
        shown = ", ".join(self.entries or ("every notebook",))
        return shown + (f" (of {', '.join(self.within)}, as signed in)" if self.within else "")


def _entry(piece: str) -> str:
    return unquote(piece.replace("+", " ")).strip().lstrip("/")
