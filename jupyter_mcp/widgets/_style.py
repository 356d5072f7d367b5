"""The panels' stylesheet: JupyterLab CSS variables only, so light and dark themes both read well.

ipywidgets 8 renders an ``HTML`` widget's value as-is, so a ``<style>`` element inside one styles
every panel without a JavaScript bundle. Every rule is scoped under ``.jmcp``.
"""

from __future__ import annotations

import threading

import ipywidgets as widgets

CSS = """
.jmcp { color: var(--jp-ui-font-color1); font-family: var(--jp-ui-font-family);
  font-size: var(--jp-ui-font-size1); max-width: 1000px; }
.jmcp .jupyter-widgets, .jmcp .widget-html, .jmcp .widget-inline-hbox { margin: 0; }
.jmcp .widget-html-content { line-height: 1.45; }
.jmcp.jmcp-frame { border: var(--jp-border-width) solid var(--jp-border-color2); border-radius: 4px;
  padding: 8px 12px; background: var(--jp-layout-color1); gap: 4px; box-sizing: border-box; }
.jmcp code, .jmcp pre, .jmcp .jmcp-mono { font-family: var(--jp-code-font-family);
  font-size: var(--jp-code-font-size); }
.jmcp-muted { color: var(--jp-ui-font-color2); }
.jmcp-error, .jmcp-status-error { color: var(--jp-error-color1); }
.jmcp-status-ok { color: var(--jp-success-color1); }
.jmcp-status-timeout { color: var(--jp-warn-color1); }
.jmcp-status-cancelled { color: var(--jp-ui-font-color2); }
.jmcp-status-running { color: var(--jp-brand-color1); }
.jmcp-status-waiting { color: var(--jp-warn-color1); }
.jmcp-status-expired { color: var(--jp-ui-font-color2); }
.jmcp-head { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; }
.jmcp-name { font-family: var(--jp-code-font-family); font-weight: 600; font-size: var(--jp-ui-font-size2); }
.jmcp-title { font-size: var(--jp-ui-font-size2); }
.jmcp-badge { display: inline-block; padding: 0 7px; border-radius: 9px; line-height: 17px;
  font-size: var(--jp-ui-font-size0); border: 1px solid var(--jp-border-color1);
  background: var(--jp-layout-color2); color: var(--jp-ui-font-color1); white-space: nowrap; }
.jmcp-badge-live { background: var(--jp-success-color1); border-color: var(--jp-success-color1);
  color: var(--jp-ui-inverse-font-color1); }
.jmcp-badge-replaced, .jmcp-badge-removed { background: var(--jp-warn-color1);
  border-color: var(--jp-warn-color1); color: var(--jp-ui-inverse-font-color1); }
.jmcp-badge-disabled { background: var(--jp-layout-color3); }
.jmcp-badge-destructive { border-color: var(--jp-error-color1); color: var(--jp-error-color1); }
.jmcp-badge-tag { border-style: dashed; }
.jmcp-badge-task { border-color: var(--jp-brand-color1); color: var(--jp-brand-color1); }
.jmcp-description { margin: 4px 0; white-space: pre-wrap; }
.jmcp h4 { margin: 10px 0 3px; font-size: var(--jp-ui-font-size0); font-weight: 600;
  color: var(--jp-ui-font-color2); text-transform: uppercase; letter-spacing: 0.05em; }
.jmcp-table { border-collapse: collapse; width: 100%; }
.jmcp-table th { text-align: left; font-weight: 600; color: var(--jp-ui-font-color2);
  border-bottom: 1px solid var(--jp-border-color2); padding: 2px 10px 2px 0; white-space: nowrap; }
.jmcp-table td { padding: 3px 10px 3px 0; border-bottom: 1px solid var(--jp-border-color3); vertical-align: top; }
.jmcp-pre { background: var(--jp-cell-editor-background); border: 1px solid var(--jp-cell-editor-border-color);
  color: var(--jp-content-font-color1); padding: 4px 6px; margin: 2px 0; max-height: 260px; overflow: auto;
  white-space: pre-wrap; word-break: break-word; }
.jmcp-pre.jmcp-stderr, .jmcp-pre.jmcp-traceback { background: var(--jp-rendermime-error-background); }
.jmcp details > summary { cursor: pointer; color: var(--jp-ui-font-color2); }
.jmcp-img { max-width: 100%; max-height: 320px; border: 1px solid var(--jp-border-color2); }
.jmcp-json { font-family: var(--jp-code-font-family); font-size: var(--jp-code-font-size); }
.jmcp-json ul { list-style: none; margin: 0; padding-left: 16px; border-left: 1px dotted var(--jp-border-color2); }
.jmcp-json summary { display: list-item; }
.jmcp-json .jmcp-k { color: var(--jp-mirror-editor-property-color); }
.jmcp-json .jmcp-s { color: var(--jp-mirror-editor-string-color); }
.jmcp-json .jmcp-n { color: var(--jp-mirror-editor-number-color); }
.jmcp-json .jmcp-b { color: var(--jp-mirror-editor-keyword-color); }
.jmcp-callrow { display: grid; gap: 8px; align-items: center; padding: 3px 6px;
  grid-template-columns: 62px 84px minmax(70px, 150px) minmax(70px, 150px) minmax(0, 1fr) 70px;
  border-bottom: 1px solid var(--jp-border-color3); border-left: 3px solid transparent; }
.jmcp-callrow > span, .jmcp-args > div { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.jmcp-progress-line { display: flex; align-items: center; gap: 6px; }
.jmcp-progress-line > .jmcp-progress { flex: 0 0 90px; margin-top: 0; }
.jmcp-callrow.jmcp-header { font-weight: 600; color: var(--jp-ui-font-color2);
  border-bottom: 1px solid var(--jp-border-color2); }
.jmcp-callrow .jmcp-num, .jmcp-toolrow .jmcp-num { text-align: right; }
.jmcp-callrow.jmcp-selected { background: var(--jp-layout-color2); border-left-color: var(--jp-brand-color1); }
.jmcp-callrow[role="button"] { cursor: pointer; }
.jmcp-callrow[role="button"]:hover { background: var(--jp-layout-color2); }
.jmcp-callrow[role="button"]:focus-visible { outline: 1px solid var(--jp-brand-color1); outline-offset: -1px; }
.jmcp-progress { height: 4px; background: var(--jp-layout-color3); border-radius: 2px; overflow: hidden;
  margin-top: 2px; }
.jmcp-progress > div { height: 100%; background: var(--jp-brand-color1); }
.jmcp-spinner { display: inline-block; width: 9px; height: 9px; border-radius: 50%; vertical-align: -1px;
  border: 2px solid var(--jp-border-color2); border-top-color: var(--jp-brand-color1);
  animation: jmcp-spin 0.9s linear infinite; }
@keyframes jmcp-spin { to { transform: rotate(360deg); } }
.jmcp-detail { border: 1px solid var(--jp-border-color2); border-left: 3px solid var(--jp-brand-color1);
  padding: 4px 10px 8px; margin-top: 6px; background: var(--jp-layout-color0); }
.jmcp-toolrow { display: grid; gap: 8px; align-items: center; padding: 2px 6px;
  grid-template-columns: minmax(120px, 1fr) minmax(0, 150px) 60px 60px 60px 90px; }
.jmcp-toolrow > span { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.jmcp-kind { display: inline-block; font-size: var(--jp-ui-font-size0); color: var(--jp-ui-font-color2);
  border: 1px solid var(--jp-border-color2); border-radius: 3px; padding: 0 4px; margin-right: 4px; }
.jmcp-role { font-size: var(--jp-ui-font-size0); font-weight: 600; color: var(--jp-ui-font-color2);
  text-transform: uppercase; letter-spacing: 0.05em; margin-top: 6px; }
.jmcp-message { border-left: 3px solid var(--jp-border-color2); padding-left: 8px; margin: 2px 0 6px; }
.jmcp-message.jmcp-assistant { border-left-color: var(--jp-brand-color1); }
.jmcp-preview { max-height: 360px; overflow: auto; }
.jmcp-tools-header { border-bottom: 1px solid var(--jp-border-color2); font-weight: 600;
  color: var(--jp-ui-font-color2); padding: 2px 0; }
.jmcp-tool-line { border-bottom: 1px solid var(--jp-border-color3); align-items: center; }
.jmcp-section-toggle.jupyter-button { background: transparent; box-shadow: none; width: auto; padding: 0 4px 0 0;
  font-weight: 600; color: var(--jp-ui-font-color1); text-align: left; }
.jmcp-section-toggle.jupyter-button.mod-active { background: transparent; box-shadow: none; }
.jmcp-section-toggle.jupyter-button:hover { color: var(--jp-brand-color1); }
.jmcp-section { border-top: 1px solid var(--jp-border-color3); padding-top: 4px; margin-top: 4px; }
.jmcp-field { align-items: center; gap: 8px; }
.jmcp-field-label { width: 200px; flex: 0 0 auto; }
.jmcp-field .widget-text, .jmcp-field .widget-textarea, .jmcp-field .widget-dropdown { width: 320px; }
.jmcp-field textarea { font-family: var(--jp-code-font-family); font-size: var(--jp-code-font-size); }
.jmcp-required { color: var(--jp-error-color1); }
.jmcp-copy { font-size: var(--jp-ui-font-size0); padding: 1px 8px; margin-left: 6px; border-radius: 2px;
  border: 1px solid var(--jp-border-color1); background: var(--jp-layout-color2); color: var(--jp-ui-font-color1);
  cursor: pointer; }
.jmcp-copy:hover { background: var(--jp-layout-color3); }
.jmcp-config pre { user-select: all; }
.jmcp-toolbar { align-items: center; gap: 6px; }
.jmcp-toolbar .widget-dropdown { width: 170px; }
.jmcp-dot { display: inline-block; width: 8px; height: 8px; border-radius: 50%; background: var(--jp-layout-color3); }
.jmcp-dot.jmcp-on { background: var(--jp-success-color1); }
"""

_widget: widgets.HTML | None = None
_lock = threading.Lock()


def style_widget() -> widgets.HTML:
    """One shared (invisible) widget carrying the stylesheet; every panel includes it."""
    global _widget  # noqa: PLW0603 - one model shown in every panel
    with _lock:
        if _widget is None or _widget.comm is None:  # closed (e.g. by Widget.close_all()): make another
            _widget = widgets.HTML(f"<style>{CSS}</style>", layout=widgets.Layout(display="none"))
        return _widget
