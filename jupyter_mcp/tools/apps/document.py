"""The app document: one self-contained HTML5 page per tool, served by ``resources/read`` of its ``ui://`` URI.

The page is the component set's app bundle (``labextension/src/app``, built by
``labextension/build-widgets.mjs`` into ``jupyter_mcp/widgets/static/app.js``, its stylesheet inside)
inlined in a ``<script>``, plus the tool's definition as JSON: hosts apply a Content-Security-Policy
that allows nothing but inline script and style by default, so nothing may be loaded from elsewhere.
The tool's result never goes into the document (hosts may cache it by URI): it arrives through the
host protocol, so the document stays the same size whatever the tool returns.
"""

from __future__ import annotations

import functools
import html
import json
import logging
from importlib.resources import files
from typing import Any

import mcp_types as mt

logger = logging.getLogger(__name__)

URI_PREFIX = "ui://jupyter-mcp/tool/"
"""A tool's app is at ``ui://jupyter-mcp/tool/<tool name>``."""
BUNDLE = ("widgets", "static", "app.js")
"""Where the built app bundle is, inside the ``jupyter_mcp`` package (shipped in the wheel)."""


def app_uri(tool_name: str) -> str:
    return URI_PREFIX + tool_name


def tool_of(uri: str) -> str | None:
    """The tool whose app ``uri`` is, or ``None`` when it is not one of ours."""
    if not uri.startswith(URI_PREFIX):
        return None
    return uri.removeprefix(URI_PREFIX) or None


@functools.cache
def bundle() -> str | None:
    """The app bundle's JavaScript, or ``None`` (logged once) when it was not built: no apps then."""
    path = files("jupyter_mcp").joinpath(*BUNDLE)
    try:
        source = path.read_text(encoding="utf-8")
    except OSError:
        logger.warning("no MCP App bundle at %s (build the labextension): tools are served without apps", path)
        return None
    if "</script" in source.lower():  # it goes inside a <script> element as it is
        logger.warning("the MCP App bundle at %s holds '</script': tools are served without apps", path)
        return None
    return source


def document(tool: mt.Tool, companions: dict[str, str], script: str) -> str:
    """The HTML of ``tool``'s app: ``script`` (the bundle) and the data it draws from.

    ``companions`` names the app-only tools the page calls (``{"status": ..., "read": ...}``).
    """
    data = {"tool": tool.model_dump(mode="json", by_alias=True, exclude_none=True), "companions": companions}
    title = html.escape(tool.title or tool.name)
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        '<meta name="color-scheme" content="light dark">\n'
        f"<title>{title}</title>\n</head>\n<body>\n"
        '<main id="jmcp-app"></main>\n'
        f'<script type="application/json" id="jmcp-app-data">{_script_json(data)}</script>\n'
        f"<script>{script}</script>\n</body>\n</html>\n"
    )


def _script_json(value: Any) -> str:
    """JSON that cannot end its ``<script>`` element early (``<`` written as ``\\u003c``)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
