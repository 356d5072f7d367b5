"""What crosses the proxy upstream: every MCP header, none of Jupyter's credentials."""

from __future__ import annotations

from tornado.httputil import HTTPHeaders

from jupyter_mcp.discovery import ServerInfo
from jupyter_mcp.serverext.proxy import jsonrpc_error, upstream_headers

KERNEL = ServerInfo("http://127.0.0.1:4321/mcp", "kernel-token", 1, "k", None)


def test_mcp_headers_pass_and_jupyter_credentials_stay() -> None:
    incoming = HTTPHeaders()
    for name, value in [
        ("Host", "jupyter.example.org"),
        ("Authorization", "token jupyter-token"),
        ("Cookie", "_xsrf=1; username-x=2"),
        ("Origin", "https://jupyter.example.org"),
        ("Referer", "https://jupyter.example.org/lab"),
        ("X-XSRFToken", "1"),
        ("Connection", "keep-alive"),
        ("Transfer-Encoding", "chunked"),
        ("Accept", "application/json, text/event-stream"),
        ("Content-Type", "application/json"),
        ("Mcp-Session-Id", "s-1"),
        ("Mcp-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "tools/call"),
        ("Mcp-Name", "add"),
        ("Mcp-Param-Region", "north"),
        ("Last-Event-ID", "42"),
    ]:
        incoming.add(name, value)
    assert list(upstream_headers(incoming, KERNEL).get_all()) == [
        ("Accept", "application/json, text/event-stream"),
        ("Content-Type", "application/json"),
        ("Mcp-Session-Id", "s-1"),
        ("Mcp-Protocol-Version", "2026-07-28"),
        ("Mcp-Method", "tools/call"),
        ("Mcp-Name", "add"),
        ("Mcp-Param-Region", "north"),
        ("Last-Event-Id", "42"),
        ("Host", "127.0.0.1:4321"),
        ("Authorization", "Bearer kernel-token"),
    ]


def test_error_bodies_are_jsonrpc_errors() -> None:
    assert jsonrpc_error(503, "run a %%mcp_tool cell") == (
        '{"jsonrpc": "2.0", "id": null, "error": {"code": -32000, "message": "run a %%mcp_tool cell", '
        '"data": {"status": 503}}}'
    )
