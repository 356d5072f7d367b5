"""``TryItForm``: inputs generated from a JSON schema and a Run button, for a tool, a template or a prompt.

A ``TryTarget`` says what Run does: call a tool (``server.call_in_background``), read a template's
URI (``read_in_background``) or get a prompt (``get_prompt_in_background``) — each the path a
client's request takes, so it is validated the same way and lands in the history (source ``notebook``).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import ipywidgets as widgets
import mcp_types as mt
import traitlets

from jupyter_mcp.tools.calls.history import outcome_parts
from jupyter_mcp.widgets._html import esc, span
from jupyter_mcp.widgets.form import FieldSpec, collect, field_specs
from jupyter_mcp.widgets.format import format_duration
from jupyter_mcp.widgets.render import outcome_html

if TYPE_CHECKING:
    from jupyter_mcp.tools.components.prompts import Prompt
    from jupyter_mcp.tools.components.resources import ResourceTemplate
    from jupyter_mcp.tools.components.tool import Tool
    from jupyter_mcp.widgets.host import ServerHost


@dataclass(frozen=True)
class TryTarget:
    """What a try-it form runs: the schema of its inputs and how to start it with their values."""

    name: str
    schema: dict[str, Any]
    start: Callable[[dict[str, Any]], Future[Any]]


def tool_target(server: ServerHost, tool: Tool) -> TryTarget:
    schema = tool.to_mcp(dereference_schemas=True).input_schema
    return TryTarget(tool.name, schema, lambda arguments: server.call_in_background(tool.name, arguments))


def template_target(server: ServerHost, template: ResourceTemplate) -> TryTarget:
    """Run reads the URI the values expand to (so the values are sent as text, as a client would)."""
    schema = _only(template.parsed.input_schema, template.variables)

    def start(values: dict[str, Any]) -> Future[Any]:
        return server.read_in_background(template.expand({k: _text(v) for k, v in values.items()}))

    return TryTarget(template.key, schema, start)


def prompt_target(server: ServerHost, prompt: Prompt) -> TryTarget:
    schema = prompt.parsed.input_schema
    return TryTarget(prompt.name, schema, lambda arguments: server.get_prompt_in_background(prompt.name, arguments))


def _only(schema: dict[str, Any], names: list[str]) -> dict[str, Any]:
    properties = {name: value for name, value in schema.get("properties", {}).items() if name in names}
    required = [name for name in schema.get("required", []) if name in names]
    return {**schema, "properties": properties, "required": required}


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


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

        form = TryItForm(tool_target(server, server.tools["add"]))
        form.inputs["a"].value = 2
        form.run()          # what clicking Run does; returns the call's Future
    """

    running = traitlets.Bool(False)
    active = traitlets.Bool(True)
    """False once the tool (template, prompt) is disabled, replaced or removed: Run is greyed out."""
    outcome = traitlets.Unicode("")
    """``""`` before the first run, then ``ok``, ``error`` or ``invalid`` (the form could not be read)."""

    def __init__(self, target: TryTarget) -> None:
        self.target = target
        self.specs = field_specs(target.schema)
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

    def run(self, _button: Any = None) -> Future[Any] | None:
        """Run the target with the form's arguments; ``None`` when the form has errors or is busy."""
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
        future = self.target.start(arguments)
        future.add_done_callback(lambda done: self._finished(done, time.perf_counter() - started))
        return future

    def _show_invalid(self, errors: dict[str, str]) -> None:
        items = "".join(f"<li><code>{esc(name)}</code>: {esc(message)}</li>" for name, message in errors.items())
        self.result.value = f'<div class="jmcp-error">Cannot run: <ul>{items}</ul></div>'
        self.outcome = "invalid"

    def _finished(self, future: Future[Any], elapsed: float) -> None:
        # Runs on the server's loop thread; ipykernel queues widget messages from any thread.
        try:
            result = future.result()
        except Exception as exc:  # a failed read or prompt get, or the server stopped: say so here
            self.result.value = _failure_html(exc, elapsed)
            self.outcome = "error"
        else:
            self.result.value = result_html(result, elapsed)
            self.outcome = "error" if getattr(result, "is_error", False) else "ok"
        finally:
            self.running = False

    @traitlets.observe("running", "active")
    def _update_button(self, change: dict[str, Any]) -> None:
        self.run_button.disabled = self.running or not self.active
        self.run_button.tooltip = (
            "" if self.active else "Only a live one can be tried: enable it, or use the newest card"
        )


def result_html(result: mt.CallToolResult | mt.ReadResourceResult | mt.GetPromptResult, elapsed: float) -> str:
    """A finished run: its status, how long it took, and what came back (as the history shows it)."""
    structured, blocks = outcome_parts(result)
    is_error = bool(getattr(result, "is_error", False))
    return _status_line(is_error, elapsed) + outcome_html(structured, blocks, is_error=is_error)


def _failure_html(exc: Exception, elapsed: float) -> str:
    return _status_line(True, elapsed) + f'<div class="jmcp-error">{esc(type(exc).__name__)}: {esc(exc)}</div>'


def _status_line(is_error: bool, elapsed: float) -> str:
    status = "error" if is_error else "ok"
    head = f'<span class="jmcp-status-{status}">{"✗" if is_error else "✓"} {status}</span>'
    note = span(f" in {format_duration(elapsed)} · recorded in the call history", "jmcp-muted")
    return f"<div>{head}{note}</div>"
