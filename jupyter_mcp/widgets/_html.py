"""Small HTML builders; every piece of text passes through ``esc``."""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence

from jupyter_mcp.widgets.format import STATUS_ICONS

# Inline handler, not a JS bundle: copy ``data-copy``; where the clipboard API is unavailable
# (plain http on a remote host), select the neighbouring <pre> so Ctrl+C works.
_COPY_JS = (
    "const b=this,t=b.dataset.copy,done=m=>{b.textContent=m;setTimeout(()=>{b.textContent='Copy'},1500)};"
    "(navigator.clipboard?navigator.clipboard.writeText(t):Promise.reject()).then(()=>done('Copied'),()=>{"
    "const p=b.parentElement.querySelector('pre');if(p){const r=document.createRange();r.selectNodeContents(p);"
    "const s=getSelection();s.removeAllRanges();s.addRange(r);}done('Press Ctrl+C')})"
)


def esc(value: object) -> str:
    return html.escape(str(value), quote=True)


def span(text: object, cls: str = "", title: str = "") -> str:
    attrs = (f' class="{cls}"' if cls else "") + (f' title="{esc(title)}"' if title else "")
    return f"<span{attrs}>{esc(text)}</span>"


def badge(text: str, kind: str = "", title: str = "") -> str:
    return span(text, f"jmcp-badge jmcp-badge-{kind}" if kind else "jmcp-badge", title)


def pre(text: str, cls: str = "") -> str:
    return f'<pre class="jmcp-pre {cls}">{esc(text)}</pre>'


def heading(text: str) -> str:
    return f"<h4>{esc(text)}</h4>"


def table(headers: Sequence[str], rows: Iterable[Sequence[str]], cls: str = "") -> str:
    """A table; ``rows`` hold ready HTML cells (escape them first)."""
    head = "".join(f"<th>{esc(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f'<table class="jmcp-table {cls}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def copy_button(text: str, label: str = "Copy") -> str:
    return f'<button class="jmcp-copy" data-copy="{esc(text)}" onclick="{esc(_COPY_JS)}">{esc(label)}</button>'


def status_html(status: str) -> str:
    """An icon and the status word, coloured by status (a spinner while running)."""
    icon = '<span class="jmcp-spinner"></span>' if status == "running" else esc(STATUS_ICONS.get(status, "?"))
    return f'<span class="jmcp-status jmcp-status-{esc(status)}">{icon} {esc(status)}</span>'


def progress_bar(fraction: float) -> str:
    return f'<div class="jmcp-progress"><div style="width:{fraction * 100:.0f}%"></div></div>'


def frame(body: str, cls: str = "") -> str:
    """Wrap fallback HTML the way the widgets are framed (also readable with no stylesheet)."""
    return f'<div class="jmcp jmcp-frame {cls}">{body}</div>'
