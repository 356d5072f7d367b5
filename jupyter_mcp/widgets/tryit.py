"""A card's try-it form, as behaviour: run a tool, read a template's URI or render a prompt with values.

The browser draws the form from the target's JSON schema and sends the values it read
(``labextension/src/ui/form.ts``); ``TryIt.run`` starts the target through the path a client's
request takes, so it is validated the same way and lands in the history (source ``notebook``).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from jupyter_mcp.shapes.views import TryResult, TryState
from jupyter_mcp.widgets.format import format_duration
from jupyter_mcp.widgets.model import outcome, result_outcome

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
    schema = template_schema(template)

    def start(values: dict[str, Any]) -> Future[Any]:
        return server.read_in_background(template.expand({k: _text(v) for k, v in values.items()}))

    return TryTarget(template.key, schema, start)


def template_schema(template: ResourceTemplate) -> dict[str, Any]:
    """The template's variables as an input schema (the function may take more parameters)."""
    schema = template.parsed.input_schema
    names = template.variables
    properties = {name: value for name, value in schema.get("properties", {}).items() if name in names}
    required = [name for name in schema.get("required", []) if name in names]
    return {**schema, "properties": properties, "required": required}


def prompt_target(server: ServerHost, prompt: Prompt) -> TryTarget:
    schema = prompt.parsed.input_schema
    return TryTarget(prompt.name, schema, lambda arguments: server.get_prompt_in_background(prompt.name, arguments))


def _text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


class TryIt:
    """Runs a target with values from the form; ``state`` (a ``TryState``) is what the card shows.

    Example::

        card.try_it.run({"a": 2})      # what clicking Run does; returns the call's Future
        card.try_it.outcome            # "" before the first run, then "ok" or "error"
    """

    def __init__(self, target: TryTarget, on_change: Callable[[TryState], None]) -> None:
        self.target = target
        self.active = True
        """False once the component is disabled, replaced or removed: Run is greyed out and refused."""
        self.running = False
        self.outcome = ""
        self.result: TryResult | None = None
        self._on_change = on_change
        self._lock = threading.Lock()

    @property
    def state(self) -> TryState:
        return TryState(running=self.running, result=self.result)

    def run(self, arguments: Mapping[str, Any] | None = None) -> Future[Any] | None:
        """Start the target with ``arguments``; ``None`` while a run is going on or when inactive."""
        with self._lock:
            if self.running or not self.active:
                return None
            self.running = True
        self._on_change(self.state)
        started = time.perf_counter()
        future = self.target.start(dict(arguments or {}))
        future.add_done_callback(lambda done: self._finished(done, time.perf_counter() - started))
        return future

    def _finished(self, future: Future[Any], elapsed: float) -> None:
        # Runs on the server's loop thread; ipykernel queues widget messages from any thread.
        try:
            result = future.result()
        except Exception as exc:  # a failed read or prompt get, or the server stopped: say so here
            shown = outcome(None, [], is_error=True, error=f"{type(exc).__name__}: {exc}")
        else:
            shown = result_outcome(result)
        status: Literal["ok", "error"] = "error" if shown["is_error"] else "ok"
        self.result = TryResult(status=status, elapsed=format_duration(elapsed), outcome=shown)
        self.outcome = status
        self.running = False
        self._on_change(self.state)
