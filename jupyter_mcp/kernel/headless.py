"""What ``jupyter-mcp serve`` asks of the kernel it starts, as typed functions (imports nothing heavy).

The CLI runs each in the kernel with ``HeadlessKernel.call(function, ...)``, which checks the
arguments against the signature here; nothing else of the kernel's server is reached from outside.
"""

from __future__ import annotations

from typing import Literal

Unattended = Literal["refuse", "run"]


def prepare_headless(*, load: bool, host: str | None, unattended: Unattended) -> None:
    """Before the notebook's cells run: load the extension (``load``), set where the server listens
    (``host``; None keeps loopback), and what happens to calls that need an approval nobody can give."""
    import jupyter_mcp
    from jupyter_mcp.tools.transports.http.serving import is_loopback

    if load:
        from IPython import get_ipython

        get_ipython().run_line_magic("load_ext", "jupyter_mcp")
    server = jupyter_mcp.get_server()
    server.approvals.unattended = unattended
    if host is not None:
        server.settings.host = host
        server.settings.allow_remote = not is_loopback(host)


def tools_needing_approval() -> list[str]:
    """The listed tools whose client calls would wait for the notebook user's approval."""
    import jupyter_mcp

    return jupyter_mcp.get_server().tools_needing_approval()
