"""``CallList``: the history's clickable call list, as a front-end view (an anywidget ES module).

The kernel sets ``rows`` (``CallRow`` dicts, one message per refresh however many rows moved);
the browser draws them (``calllist.js``) and writes a clicked row's call id into ``selected``.
"""

from __future__ import annotations

from pathlib import Path

import anywidget
import traitlets

from jupyter_mcp.widgets.format import STATUS_ICONS
from jupyter_mcp.widgets.model import CallRow


class CallList(anywidget.AnyWidget):
    """Rows newest first; ``selected`` is the clicked call's id (``None``: nothing selected)."""

    _esm = Path(__file__).with_name("calllist.js")
    rows: traitlets.List[CallRow] = traitlets.List().tag(sync=True)
    selected = traitlets.Unicode(None, allow_none=True).tag(sync=True)
    icons = traitlets.Dict(dict(STATUS_ICONS)).tag(sync=True)
