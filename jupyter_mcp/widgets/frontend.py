"""The notebook widgets' front end, sent once per kernel: ``FrontEnd``, the model every view names.

A view (a card, the server panel) is an anywidget whose ``_esm`` is a small loader
(``static/loader.js``, about 1 kB). Where the page offers a front end of its own, the JupyterLab
extension's (JupyterLab, Notebook 7), the loader draws with it; elsewhere (VS Code, Colab, a page
without the extension, a notebook reopened from its saved widget state) it imports the bundle
(``static/widgets.js``, about 57 kB) from this kernel's one ``FrontEnd`` model, once per page. So 20
cards move the bundle once, not 20 times, over the websocket and into the saved widget state.
"""

from __future__ import annotations

import functools
import hashlib
import threading
from pathlib import Path

import ipywidgets
import traitlets

from jupyter_mcp.shapes.views import VERSION, FrontEndState

STATIC = Path(__file__).with_name("static")
BUNDLE = STATIC / "widgets.js"
"""The front end: built from labextension/ by ``pip install`` (``jlpm build:widgets``), shipped in the wheel."""
LOADER = STATIC / "loader.js"
"""What every view carries: it finds the page's front end or imports the kernel's (built with ``BUNDLE``)."""


class FrontEndMissingError(RuntimeError):
    """The widgets' front end was never built (a source checkout without ``pip install -e .``)."""


@functools.cache
def _built(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise FrontEndMissingError(
            f"{path} is missing: the widgets' front end is built with the package "
            "(pip install -e . in a checkout, or: jlpm --cwd labextension build:widgets)"
        ) from None


def bundle() -> str:
    """The ES module that draws every view (read once)."""
    return _built(BUNDLE)


def loader() -> str:
    """The ES module each view carries as its ``_esm`` (read once)."""
    return _built(LOADER)


class FrontEnd(ipywidgets.Widget):  # type: ignore[misc]
    """The kernel's front-end model (``FrontEndState``): a plain ipywidgets model every widget manager
    knows, with no view. Use ``front_end()``, which keeps one per kernel."""

    bundle = traitlets.Unicode().tag(sync=True)
    version = traitlets.Unicode().tag(sync=True)
    digest = traitlets.Unicode().tag(sync=True)

    def __init__(self) -> None:
        code = bundle()
        state = FrontEndState(bundle=code, version=VERSION, digest=hashlib.sha256(code.encode()).hexdigest()[:16])
        super().__init__(**state)


_front_end: FrontEnd | None = None
_lock = threading.Lock()


def front_end() -> FrontEnd:
    """This kernel's ``FrontEnd``, made with its first view (again if ``Widget.close_all()`` closed it)."""
    global _front_end  # noqa: PLW0603 - one per kernel process
    with _lock:
        if _front_end is None or _front_end.comm is None:
            _front_end = FrontEnd()
        return _front_end
