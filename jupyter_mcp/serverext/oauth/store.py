"""``Store``: what sign-in with Jupyter must remember, in one SQLite file that survives restarts.

Three tables: the clients that registered (RFC 7591), the grants users gave on the consent page
(who, which client, which route, what it may do, until when), and the secrets issued for grants
(authorization codes, access and refresh tokens). A secret is kept only as its SHA-256 digest: a
copy of the file lets nobody in. A client's secret, too. The file is created with mode 0600 in a
folder of mode 0700 (the user's Jupyter data dir by default; under JupyterHub, each user's own).

Expiry is enforced on every read; expired rows are swept on writes. A spent secret (a code that was
exchanged, a refresh token that was rotated) stays until it expires, so that presenting it again
can be recognised as a replay and revoke its grant. Access tokens found lately are remembered (by
digest) so that a call's check needs no query; every write of this store that could end one forgets
them, and so does a commit by another connection (SQLite's ``data_version``), so a revocation holds
at once, whoever makes it.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import sqlite3
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal

SecretKind = Literal["code", "access", "refresh"]

SECRET_PREFIX = "jmcp_"  # noqa: S105 - a prefix, not a secret
"""Every secret this server issues starts so: the MCP routes tell it from a Jupyter or hub token."""
_KIND_TAGS: dict[SecretKind, str] = {"code": "ac", "access": "at", "refresh": "rt"}

_SCHEMA = """
CREATE TABLE IF NOT EXISTS clients (
    client_id TEXT PRIMARY KEY,
    secret_digest TEXT,
    metadata TEXT NOT NULL,
    created REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS grants (
    grant_id TEXT PRIMARY KEY,
    record TEXT NOT NULL,
    expires_at REAL,
    last_used REAL
);
CREATE TABLE IF NOT EXISTS secrets (
    digest TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    grant_id TEXT NOT NULL,
    expires_at REAL NOT NULL,
    spent INTEGER NOT NULL DEFAULT 0,
    detail TEXT
);
CREATE INDEX IF NOT EXISTS secrets_by_grant ON secrets (grant_id);
"""


def new_secret(kind: SecretKind) -> str:
    """A fresh secret (256 random bits) of ``kind``, with the prefix that names it ours."""
    return f"{SECRET_PREFIX}{_KIND_TAGS[kind]}_{secrets.token_urlsafe(32)}"


def digest(secret: str) -> str:
    """What the store keeps of a secret."""
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True)
class Choices:
    """What the user let a client do, on the consent page."""

    read_only: bool
    """Only tools marked read-only (``readOnlyHint``) may be called."""
    notebooks: tuple[str, ...] = ()
    """Notebooks and folders (as ``?notebooks=`` names them) the client sees; empty: all the route reaches."""
    notebook_tools: str | None = None
    """The agent notebook tools' mode for this client, where the server offers them (``None``: the server's)."""


@dataclass(frozen=True)
class Grant:
    """One client's authorization on one route, given by one user."""

    grant_id: str
    client_id: str
    client_name: str
    verified: bool
    """The client's identity comes from a metadata document at its ``client_id`` URL (else it registered itself)."""
    redirect_host: str
    subject: str
    """The Jupyter user who allowed it (their username)."""
    resource: str
    """The MCP route (RFC 8707 resource) its tokens are good for."""
    choices: Choices
    created: float
    expires_at: float | None
    """``None``: until revoked."""
    last_used: float | None = None
    subject_name: str = ""
    """The user's display name, as the consent page showed it."""

    @property
    def scopes(self) -> list[str]:
        return scopes_of(self.choices)


READ_SCOPE = "mcp:read"
WRITE_SCOPE = "mcp:write"
SCOPES = [READ_SCOPE, WRITE_SCOPE]
"""``mcp:read``: read-only tools, resources and prompts; ``mcp:write``: every tool."""


def scopes_of(choices: Choices) -> list[str]:
    return [READ_SCOPE] if choices.read_only else list(SCOPES)


@dataclass(frozen=True)
class Issued:
    """A secret as the store knows it, with its grant."""

    kind: SecretKind
    grant: Grant
    expires_at: float
    spent: bool
    detail: dict[str, Any]


class Store:
    """The SQLite file behind sign-in (one per Jupyter server; safe to share between its restarts)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        _private_file(path)
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(_SCHEMA)
        self._recent = _Recent(self._db)

    def close(self) -> None:
        self._db.close()

    # ---- clients -------------------------------------------------------------------------------------

    def save_client(self, client_id: str, metadata: dict[str, Any], secret: str | None) -> None:
        """Keep a registration; ``metadata`` must not hold the secret (only its digest is kept)."""
        row = (client_id, digest(secret) if secret else None, json.dumps(metadata), time.time())
        self._db.execute("INSERT OR REPLACE INTO clients VALUES (?, ?, ?, ?)", row)

    def client(self, client_id: str) -> tuple[dict[str, Any], str | None] | None:
        """A registration's metadata and its secret's digest (``None``: a public client)."""
        row = self._db.execute(
            "SELECT metadata, secret_digest FROM clients WHERE client_id = ?", (client_id,)
        ).fetchone()
        return (json.loads(row[0]), row[1]) if row is not None else None

    def forget_idle_clients(self, older_than: float, keep: int) -> None:
        """Drop registrations without a grant made before ``older_than``, and any beyond the newest ``keep``."""
        idle = "client_id NOT IN (SELECT json_extract(record, '$.client_id') FROM grants)"
        self._db.execute(f"DELETE FROM clients WHERE created < ? AND {idle}", (older_than,))  # noqa: S608
        self._db.execute(
            f"DELETE FROM clients WHERE {idle} AND client_id NOT IN "  # noqa: S608
            "(SELECT client_id FROM clients ORDER BY created DESC LIMIT ?)",
            (keep,),
        )

    # ---- grants --------------------------------------------------------------------------------------

    def add_grant(self, grant: Grant) -> None:
        """Keep ``grant``; it replaces the same client's earlier grant by the same user on the same route."""
        with self._transaction():
            for old in self.grants():
                if (old.client_id, old.subject, old.resource) == (grant.client_id, grant.subject, grant.resource):
                    self._drop_grant(old.grant_id)
            row = (grant.grant_id, json.dumps(asdict(grant)), grant.expires_at, grant.last_used)
            self._db.execute("INSERT INTO grants VALUES (?, ?, ?, ?)", row)

    def grants(self) -> list[Grant]:
        """Every grant in force, oldest first."""
        rows = self._db.execute(
            "SELECT record, last_used FROM grants WHERE expires_at IS NULL OR expires_at > ?", (time.time(),)
        ).fetchall()
        found = [_grant(record, last_used) for record, last_used in rows]
        return sorted(found, key=lambda grant: grant.created)

    def grant(self, grant_id: str) -> Grant | None:
        row = self._db.execute(
            "SELECT record, last_used FROM grants WHERE grant_id = ? AND (expires_at IS NULL OR expires_at > ?)",
            (grant_id, time.time()),
        ).fetchone()
        return _grant(*row) if row is not None else None

    def used(self, grant_id: str, when: float) -> None:
        self._recent.clear()
        self._db.execute("UPDATE grants SET last_used = ? WHERE grant_id = ?", (when, grant_id))

    def revoke(self, grant_id: str) -> bool:
        """End a grant and every secret issued for it; whether there was one."""
        with self._transaction():
            return self._drop_grant(grant_id)

    def _drop_grant(self, grant_id: str) -> bool:
        self._recent.clear()
        self._db.execute("DELETE FROM secrets WHERE grant_id = ?", (grant_id,))
        return self._db.execute("DELETE FROM grants WHERE grant_id = ?", (grant_id,)).rowcount > 0

    # ---- secrets -------------------------------------------------------------------------------------

    def issue(self, kind: SecretKind, grant_id: str, expires_at: float, detail: dict[str, Any] | None = None) -> str:
        """A new secret for ``grant_id``; the store keeps only its digest."""
        secret = new_secret(kind)
        row = (digest(secret), kind, grant_id, expires_at, json.dumps(detail or {}))
        self._db.execute("INSERT INTO secrets (digest, kind, grant_id, expires_at, detail) VALUES (?, ?, ?, ?, ?)", row)
        self._sweep()
        return secret

    def find(self, secret: str, kind: SecretKind) -> Issued | None:
        """The unexpired secret of ``kind`` whose grant is in force (spent ones too: the caller decides)."""
        now, key = time.time(), digest(secret)
        if kind == "access" and (recent := self._recent.get(key, now)) is not None:
            return recent
        row = self._db.execute(
            "SELECT s.expires_at, s.spent, s.detail, g.record, g.last_used FROM secrets s "
            "JOIN grants g ON g.grant_id = s.grant_id "
            "WHERE s.digest = ? AND s.kind = ? AND s.expires_at > ? AND (g.expires_at IS NULL OR g.expires_at > ?)",
            (key, kind, now, now),
        ).fetchone()
        if row is None:
            return None
        expires_at, spent, detail, record, last_used = row
        issued = Issued(kind, _grant(record, last_used), expires_at, bool(spent), json.loads(detail or "{}"))
        if kind == "access":
            self._recent.keep(key, issued)
        return issued

    def spend(self, secret: str) -> bool:
        """Mark a code or refresh token used; whether it was unspent (only one caller ever wins)."""
        self._recent.clear()
        cursor = self._db.execute("UPDATE secrets SET spent = 1 WHERE digest = ? AND spent = 0", (digest(secret),))
        return cursor.rowcount == 1

    def forget(self, secret: str) -> None:
        self._recent.clear()
        self._db.execute("DELETE FROM secrets WHERE digest = ?", (digest(secret),))

    def _sweep(self) -> None:
        """Drop expired secrets and grants, and grants left with no secret (a code never exchanged)."""
        now = time.time()
        self._recent.clear()
        with self._transaction():
            self._db.execute("DELETE FROM secrets WHERE expires_at <= ?", (now,))
            self._db.execute("DELETE FROM grants WHERE expires_at IS NOT NULL AND expires_at <= ?", (now,))
            self._db.execute("DELETE FROM grants WHERE grant_id NOT IN (SELECT grant_id FROM secrets)")

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)


class _Recent:
    """Access tokens looked up lately, by digest (at most ``_RECENT``), while no other connection has written."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db
        self._found: dict[str, Issued] = {}
        self._version = self._data_version()

    def get(self, key: str, now: float) -> Issued | None:
        version = self._data_version()
        if version != self._version:  # another process committed: it may have revoked one
            self._found.clear()
            self._version = version
        found = self._found.get(key)
        if found is None or found.expires_at <= now or (found.grant.expires_at or float("inf")) <= now:
            return None
        return found

    def keep(self, key: str, issued: Issued) -> None:
        if len(self._found) >= _RECENT:
            self._found.clear()
        self._found[key] = issued

    def clear(self) -> None:
        self._found.clear()

    def _data_version(self) -> int:
        return int(self._db.execute("PRAGMA data_version").fetchone()[0])


_RECENT = 1024


class _Transaction:
    """``BEGIN IMMEDIATE`` … ``COMMIT`` (or ``ROLLBACK``), nestable (an inner one joins the outer)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db
        self._outer = False

    def __enter__(self) -> None:
        self._outer = not self._db.in_transaction
        if self._outer:
            self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: object, *_: object) -> None:
        if self._outer:
            self._db.execute("ROLLBACK" if kind is not None else "COMMIT")


def _grant(record: str, last_used: float | None) -> Grant:
    fields = json.loads(record)
    choices = fields.pop("choices")
    fields["last_used"] = last_used
    choices["notebooks"] = tuple(choices["notebooks"])
    return Grant(choices=Choices(**choices), **fields)


def _private_file(path: Path) -> None:
    """Create the folder (0700) and the file (0600) before SQLite opens it, and keep them so."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    os.close(descriptor)
    os.chmod(path, 0o600)
