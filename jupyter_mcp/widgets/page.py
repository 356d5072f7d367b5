"""``PageProbe``: what the browser showing the notebook knows and the kernel does not (an anywidget).

Under JupyterHub the kernel cannot tell the hub's public address (the proxy sits in front of the
user's server), but the page can: ``page.js`` writes ``location.origin`` and JupyterLab's
``serverRoot`` into the traits once the widget is shown.
"""

from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets

from jupyter_mcp.hubenv import BrowserPage


class PageProbe(anywidget.AnyWidget):
    """Invisible; ``page()`` is ``None`` until a browser has shown it."""

    _esm = Path(__file__).with_name("page.js")
    origin = traitlets.Unicode("").tag(sync=True)
    server_root = traitlets.Unicode("").tag(sync=True)

    def page(self) -> BrowserPage | None:
        return BrowserPage(self.origin, self.server_root) if self.origin else None
