"""Sign-in's store on its own: secrets kept as digests, expiry, and a revocation that holds at once, even when
the token's check was remembered and another process revokes it."""

from __future__ import annotations

import time
from pathlib import Path

from jupyter_mcp.serverext.oauth.store import Choices, Grant, Store

ROUTE = "http://127.0.0.1:8888/mcp"


def grant(grant_id: str = "g1", expires_at: float | None = None) -> Grant:
    return Grant(
        grant_id, "client", "Client", False, "127.0.0.1:9", "me", ROUTE, Choices(False), time.time(), expires_at
    )


def test_a_remembered_token_is_refused_once_another_process_revokes_it(tmp_path: Path) -> None:
    here, there = Store(tmp_path / "oauth.sqlite"), Store(tmp_path / "oauth.sqlite")
    try:
        here.add_grant(grant())
        token = here.issue("access", "g1", time.time() + 60)
        assert here.find(token, "access") is not None
        assert here.find(token, "access") is not None  # remembered: no query this time
        assert there.revoke("g1")  # another Jupyter server sharing the file
        assert here.find(token, "access") is None
    finally:
        here.close()
        there.close()


def test_a_remembered_token_expires_with_itself_and_with_its_grant(tmp_path: Path) -> None:
    store = Store(tmp_path / "oauth.sqlite")
    try:
        store.add_grant(grant("short", expires_at=time.time() + 0.3))
        token = store.issue("access", "short", time.time() + 60)
        assert store.find(token, "access") is not None
        time.sleep(0.4)
        assert store.find(token, "access") is None
        store.add_grant(grant("long"))
        brief = store.issue("access", "long", time.time() + 0.3)
        assert store.find(brief, "access") is not None
        time.sleep(0.4)
        assert store.find(brief, "access") is None
    finally:
        store.close()


def test_the_file_holds_digests_only_and_is_private(tmp_path: Path) -> None:
    path = tmp_path / "jupyter_mcp" / "oauth.sqlite"
    store = Store(path)
    try:
        store.add_grant(grant())
        secrets = [store.issue(kind, "g1", time.time() + 60) for kind in ("code", "access", "refresh")]
        store.save_client("client", {"client_name": "Client"}, "client-secret-value")
    finally:
        store.close()
    on_disk = b"".join(file.read_bytes() for file in path.parent.iterdir())
    assert all(secret.encode() not in on_disk for secret in [*secrets, "client-secret-value"])
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    assert oct(path.parent.stat().st_mode & 0o777) == "0o700"
