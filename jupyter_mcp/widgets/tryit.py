"""``TryItForm``: inputs generated from a tool's input schema and a Run button.

Run calls the tool through ``server.call_in_background``, the path a client's call takes, so the
call is validated the same way and lands in the history (source ``notebook``).
"""

from __future__ import annotations

import threading
import time
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets
import traitlets

from jupyter_mcp.widgets._html import esc, span
from jupyter_mcp.widgets.form import FieldSpec, collect, field_specs
from jupyter_mcp.widgets.format import format_duration
from jupyter_mcp.widgets.render import outcome_html

if TYPE_CHECKING:
    import mcp_types as mt

    from jupyter_mcp.tools.tool import Tool
    from jupyter_mcp.widgets.host import ServerHost


def build_input(spec: FieldSpec) -> widgets.Widget:
    """The ipywidget for one field, starting at ``spec.initial``."""
    if spec.kind == "checkbox":
        return widgets.Checkbox(value=bool(spec.initial), indent=False)
    if spec.kind == "integer":
        return widgets.IntText(value=spec.initial)
    if spec.kind == "number":
        return widgets.FloatText(value=spec.initial)
    if spec.kind == "dropdown":
        values = [value for _, value in spec.choices]
        start = spec.initial if any(spec.initial is v or spec.initial == v for v in values) else values[0]
        return widgets.Dropdown(options=list(spec.choices), value=start)
    if spec.kind == "json":
        return widgets.Textarea(value=spec.initial, placeholder=f"JSON: {spec.type_label}", rows=3)
    return widgets.Text(value=spec.initial, placeholder=_placeholder(spec))


def _placeholder(spec: FieldSpec) -> str:
    if not spec.required:
        return "(empty: default)"
    return "(empty: None)" if spec.nullable else ""


def _label(spec: FieldSpec) -> widgets.HTML:
    star = '<span class="jmcp-required" title="required">*</span>' if spec.required else ""
    return widgets.HTML(f"<code>{esc(spec.name)}</code>{star} {span(spec.type_label, 'jmcp-muted')}")


def _hint(spec: FieldSpec) -> widgets.HTML:
    text = " · ".join(part for part in (spec.hint, spec.description) if part)
    return widgets.HTML(span(text, "jmcp-muted"))


class TryItForm(widgets.VBox):  # type: ignore[misc]  # ipywidgets is untyped
    """Inputs for every parameter, a Run button, and the result below it.

    Example::

        form = TryItForm(server, server.tools["add"])
        form.inputs["a"].value = 2
        form.run()          # what clicking Run does; returns the call's Future
    """

    running = traitlets.Bool(False)
    active = traitlets.Bool(True)
    """False once the tool is disabled, replaced or removed: Run is greyed out."""
    outcome = traitlets.Unicode("")
    """``""`` before the first run, then ``ok``, ``error`` or ``invalid`` (the form could not be read)."""

    def __init__(self, server: ServerHost, tool: Tool) -> None:
        self.server, self.tool = server, tool
        self.specs = field_specs(tool.to_mcp(dereference_schemas=True).input_schema)
        self.inputs: dict[str, widgets.Widget] = {spec.name: build_input(spec) for spec in self.specs}
        self.run_button = widgets.Button(description="Run", icon="play", button_style="primary")
        self.run_button.on_click(self.run)
        self.result = widgets.HTML()
        self._lock = threading.Lock()
        rows = [self._row(spec) for spec in self.specs] or [widgets.HTML(span("No parameters.", "jmcp-muted"))]
        super().__init__([*rows, self.run_button, self.result])
        self.add_class("jmcp-tryit")

    def _row(self, spec: FieldSpec) -> widgets.HBox:
        label = _label(spec)
        label.add_class("jmcp-field-label")
        row = widgets.HBox([label, self.inputs[spec.name], _hint(spec)])
        row.add_class("jmcp-field")
        return row

    def arguments(self) -> tuple[dict[str, Any], dict[str, str]]:
        """The arguments the form holds now, and the fields that cannot be read (with why)."""
        return collect(self.specs, {name: widget.value for name, widget in self.inputs.items()})

    def run(self, _button: Any = None) -> Future[mt.CallToolResult] | None:
        """Call the tool with the form's arguments; ``None`` when the form has errors or is busy."""
        arguments, errors = self.arguments()
        if errors:
            self._show_invalid(errors)
            return None
        with self._lock:
            if self.running or not self.active:
                return None
            self.running = True
        self.result.value = '<span class="jmcp-spinner"></span> ' + span("running…", "jmcp-muted")
        started = time.perf_counter()
        future: Future[mt.CallToolResult] = self.server.call_in_background(self.tool.name, arguments)
        future.add_done_callback(lambda done: self._finished(done, time.perf_counter() - started))
        return future

    def _show_invalid(self, errors: dict[str, str]) -> None:
        items = "".join(f"<li><code>{esc(name)}</code>: {esc(message)}</li>" for name, message in errors.items())
        self.result.value = f'<div class="jmcp-error">Cannot run: <ul>{items}</ul></div>'
        self.outcome = "invalid"

    def _finished(self, future: Future[mt.CallToolResult], elapsed: float) -> None:
        # Runs on the server's loop thread; ipykernel queues widget messages from any thread.
        try:
            result = future.result()
        except Exception as exc:  # the call path itself failed (server stopped): say so here
            self.result.value = f'<div class="jmcp-error">{esc(type(exc).__name__)}: {esc(exc)}</div>'
            self.outcome = "error"
        else:
            self.result.value = _result_html(result, elapsed)
            self.outcome = "error" if result.is_error else "ok"
        finally:
            self.running = False

    @traitlets.observe("running", "active")
    def _update_button(self, change: dict[str, Any]) -> None:
        self.run_button.disabled = self.running or not self.active
        self.run_button.tooltip = (
            "" if self.active else "Only a live tool can be tried: enable it, or use the newest card"
        )


def _result_html(result: mt.CallToolResult, elapsed: float) -> str:
    blocks = [block.model_dump(by_alias=True, mode="json", exclude_none=True) for block in result.content]
    status = "error" if result.is_error else "ok"
    head = f'<span class="jmcp-status-{status}">{"✗" if result.is_error else "✓"} {status}</span>'
    note = span(f" in {format_duration(elapsed)} · recorded in the call history", "jmcp-muted")
    return f"<div>{head}{note}</div>" + outcome_html(result.structured_content, blocks, is_error=bool(result.is_error))
