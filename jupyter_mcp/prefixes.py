"""A notebook's prefix at ``<jupyter url>/mcp``, and how the names clients see there are made.

The Jupyter server extension serves every notebook's tools, resources and prompts as one MCP
server; each notebook contributes under a prefix: its file stem made a valid tool name
(``sales.ipynb`` -> ``sales``), or the name set in the notebook (``%mcp name PREFIX``,
``JupyterMCP.name``). A tool ``forecast`` of ``sales.ipynb`` is ``sales_forecast``, its prompt
``summary`` is ``sales_summary``, its resource ``data://table`` is ``data://sales/table`` (the
prefix becomes the URI's first path segment, so templates stay templates), its task ``X`` is
``sales.X``.

Two notebooks wanting one prefix (``a/sales.ipynb`` and ``b/sales.ipynb``) both take their
folders in front (``a_sales``, ``b_sales``), as many folders as it takes; what still collides
(``my nb.ipynb`` and ``my_nb.ipynb``) is numbered in path order (``my_nb``, ``my_nb_2``). The
outcome depends only on the set of notebooks, never on who came first.

Standard library only: the kernel checks ``%mcp name`` with it, the CLI and the server extension
name things with it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath

PREFIX_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
"""What a prefix may be: letters, digits, ``_`` and ``-`` (never ``.`` or ``/``: they separate task ids and URIs)."""
_INVALID = re.compile(r"[^A-Za-z0-9_-]+")
_MAX_PREFIX = 64


def check_prefix(text: str) -> str:
    """``text`` if it is a usable prefix, else a ``ValueError`` that says what is allowed."""
    if not PREFIX_PATTERN.match(text):
        raise ValueError(
            f"{text!r} cannot be a prefix: use 1 to {_MAX_PREFIX} letters, digits, '_' or '-' "
            "(it starts every tool name of the notebook, e.g. PREFIX_forecast)"
        )
    return text


def sanitize(text: str) -> str:
    """``text`` made a valid prefix: every run of other characters becomes one ``_``."""
    cleaned = _INVALID.sub("_", text).strip("_")[:_MAX_PREFIX].strip("_")
    return cleaned or "notebook"


def stem_prefix(path: str) -> str:
    """The prefix a notebook gets from its file name: ``ops/Sales report.ipynb`` -> ``Sales_report``."""
    return sanitize(PurePosixPath(path).stem)


@dataclass(frozen=True)
class Claim:
    """A notebook asking for a prefix: its path (the key) and its own name for itself, if set."""

    path: str
    name: str | None = None

    @property
    def wanted(self) -> str:
        return self.name or stem_prefix(self.path)


@dataclass(frozen=True)
class Assignment:
    """The prefix a notebook got, and why it is not the one it wanted (``None`` when it is)."""

    prefix: str
    collision: str | None = None


def assign(claims: Iterable[Claim], reserved: Mapping[str, str] | None = None) -> dict[str, Assignment]:
    """Each notebook's prefix, by path; deterministic for a given set of claims. ``reserved``: prefixes no
    notebook gets (prefix -> who holds it); a notebook wanting one is numbered, as for a collision."""
    held = dict(reserved or {})
    wanted = {claim.path: claim.wanted for claim in claims}
    chosen = dict(wanted)
    for group in _groups(wanted).values():
        if len(group) > 1:
            chosen.update(_qualified(group, wanted))
    numbered = _numbered(chosen, set(held))
    return {path: Assignment(prefix, _why(path, prefix, wanted, held)) for path, prefix in numbered.items()}


def _groups(names: Mapping[str, str]) -> dict[str, list[str]]:
    groups: dict[str, list[str]] = {}
    for path in sorted(names):
        groups.setdefault(names[path], []).append(path)
    return groups


def _qualified(paths: list[str], wanted: Mapping[str, str]) -> dict[str, str]:
    """Folders in front of each colliding name, one more level until they differ (or the paths run out)."""
    depth, names = 1, {}
    while True:
        names = {path: _with_folders(path, wanted[path], depth) for path in paths}
        distinct = len(set(names.values())) == len(names)
        deepest = max(len(PurePosixPath(path).parent.parts) for path in paths)
        if distinct or depth >= deepest:
            return names
        depth += 1


def _with_folders(path: str, name: str, depth: int) -> str:
    folders = [part for part in PurePosixPath(path).parent.parts if part not in ("/", ".")][-depth:]
    return sanitize("_".join([*folders, name])) if folders else name


def _numbered(chosen: Mapping[str, str], taken: set[str]) -> dict[str, str]:
    """What still collides gets ``_2``, ``_3``… in path order (the first keeps the name; ``taken`` is held)."""
    result: dict[str, str] = {}
    for path in sorted(chosen):
        name, count = chosen[path], 1
        while name in taken:
            count += 1
            name = f"{chosen[path]}_{count}"
        taken.add(name)
        result[path] = name
    return result


def _why(path: str, prefix: str, wanted: Mapping[str, str], held: Mapping[str, str]) -> str | None:
    if prefix == wanted[path]:
        return None
    if wanted[path] in held:
        return f"{wanted[path]!r} is reserved for {held[wanted[path]]}"
    others = sorted(other for other, name in wanted.items() if other != path and name == wanted[path])
    shared = ", ".join(others) if others else "another notebook's prefix"
    return f"{wanted[path]!r} is also wanted by {shared}"


def tool_name(prefix: str, name: str) -> str:
    """The name clients see for a notebook's tool or prompt: ``sales`` + ``forecast`` -> ``sales_forecast``."""
    return f"{prefix}_{name}"


def namespaced_uri(prefix: str, uri: str) -> str:
    """``data://table`` -> ``data://sales/table``; ``urn:x`` -> ``urn:sales/x`` (templates stay templates)."""
    scheme, separator, rest = _split_scheme(uri)
    return f"{scheme}{separator}{prefix}/{rest}"


def split_uri(uri: str) -> tuple[str, str] | None:
    """``data://sales/table`` -> (``sales``, ``data://table``); ``None`` when it carries no prefix."""
    scheme, separator, rest = _split_scheme(uri)
    prefix, slash, original = rest.partition("/")
    if not slash or not PREFIX_PATTERN.match(prefix):
        return None
    return prefix, f"{scheme}{separator}{original}"


def _split_scheme(uri: str) -> tuple[str, str, str]:
    if "://" in uri:
        scheme, _, rest = uri.partition("://")
        return scheme, "://", rest
    scheme, colon, rest = uri.partition(":")
    return (scheme, ":", rest) if colon else ("", "", uri)


def task_id(prefix: str, original: str) -> str:
    """A task id that routes back to its notebook: ``sales.<the kernel's id>``."""
    return f"{prefix}.{original}"


def split_task_id(task: str) -> tuple[str, str] | None:
    prefix, dot, original = task.partition(".")
    return (prefix, original) if dot and original and PREFIX_PATTERN.match(prefix) else None
