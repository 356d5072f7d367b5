"""The hub context a single-user server reads from its environment (the real hub runs in tests/hub)."""

from __future__ import annotations

from jupyter_mcp.hubenv import Hub, current_hub


def test_outside_a_hub_there_is_none() -> None:
    assert current_hub({}) is None
    assert current_hub({"JUPYTERHUB_USER": "alice"}) is None


def test_the_public_origin_prefers_the_hubs_setting_then_the_proxys_headers() -> None:
    env = {"JUPYTERHUB_USER": "alice", "JUPYTERHUB_SERVICE_PREFIX": "/user/alice/"}
    hub = current_hub(env)
    assert hub == Hub("alice", "/user/alice/", "/", None)
    assert hub.origin("https", "hub.example.org", "http://127.0.0.1:9") == "https://hub.example.org"
    assert hub.origin("https,http", "a.example, b", "x") == "https://a.example"
    assert hub.origin(None, None, "http://127.0.0.1:9") == "http://127.0.0.1:9"
    public = current_hub(
        {**env, "JUPYTERHUB_PUBLIC_URL": "https://hub.example.org/user/alice/", "JUPYTERHUB_BASE_URL": "/jh/"}
    )
    assert public is not None
    assert public.origin("http", "internal:8000", "x") == "https://hub.example.org"
    assert public.token_placeholder("https://hub.example.org") == (
        "<a JupyterHub token from https://hub.example.org/jh/hub/token with the scope access:servers!user=alice>"
    )
