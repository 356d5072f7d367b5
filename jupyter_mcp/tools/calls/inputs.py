"""What a running tool asks its client for: elicitation, sampling, roots, as typed input requests.

One ``InputRequest`` serves both protocol eras: in the 2025 era it goes to the client as a
server-to-client request; in the 2026 era (and inside a task) it waits in the call's
``InputGate`` until the client answers it. Either way the client must have declared the
capability, or the call fails with the spec's MissingRequiredClientCapability error (-32021).
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, Self

import mcp_types as mt
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel, ValidationError

from jupyter_mcp.tools.errors import ToolError

Capability = Literal["elicitation", "sampling", "roots"]


@dataclass(frozen=True)
class InputRequest:
    """One question for the client: its key, the request, and the answer's type."""

    key: str
    request: mt.ElicitRequest | mt.CreateMessageRequest | mt.ListRootsRequest
    answer_type: type[mt.ElicitResult] | type[mt.CreateMessageResult] | type[mt.ListRootsResult]
    capability: Capability

    @property
    def method(self) -> str:
        return self.request.method

    def wire(self) -> dict[str, Any]:
        """The entry of an ``inputRequests`` map (``{"method": ..., "params": ...}``)."""
        return self.request.model_dump(by_alias=True, mode="json", exclude_none=True)

    def read_answer(self, answer: Any) -> BaseModel:
        """The client's answer as ``answer_type``; ``InvalidAnswer`` says what is wrong with it."""
        data = (
            answer.model_dump(by_alias=True, mode="json", exclude_none=True)
            if isinstance(answer, BaseModel)
            else answer
        )
        try:
            return self.answer_type.model_validate(data, by_name=False)
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            where = ".".join(str(part) for part in first["loc"]) or "(answer)"
            raise InvalidAnswer(
                f"inputResponses[{self.key!r}] is not a valid answer to {self.method}: {where}: {first['msg']}"
            ) from None


class InvalidAnswer(ValueError):
    """An input response that does not match the request it answers."""


def elicitation(key: str, message: str, schema: Mapping[str, Any] | type[BaseModel]) -> InputRequest:
    """A form elicitation; ``schema`` is a flat JSON object schema or a pydantic model."""
    requested = schema.model_json_schema() if isinstance(schema, type) else dict(schema)
    params = mt.ElicitRequestFormParams(message=message, requested_schema=requested)
    return InputRequest(key, mt.ElicitRequest(params=params), mt.ElicitResult, "elicitation")


def sampling(
    key: str,
    messages: str | Sequence[str | mt.SamplingMessage],
    *,
    max_tokens: int,
    system_prompt: str | None = None,
    temperature: float | None = None,
    model_preferences: mt.ModelPreferences | None = None,
) -> InputRequest:
    """A ``sampling/createMessage`` request; plain strings become user text messages."""
    params = mt.CreateMessageRequestParams(
        messages=_sampling_messages(messages),
        max_tokens=max_tokens,
        system_prompt=system_prompt,
        temperature=temperature,
        model_preferences=model_preferences,
    )
    return InputRequest(key, mt.CreateMessageRequest(params=params), mt.CreateMessageResult, "sampling")


def roots(key: str) -> InputRequest:
    """A ``roots/list`` request."""
    return InputRequest(key, mt.ListRootsRequest(), mt.ListRootsResult, "roots")


def _sampling_messages(messages: str | Sequence[str | mt.SamplingMessage]) -> list[mt.SamplingMessage]:
    items = [messages] if isinstance(messages, str) else list(messages)
    return [
        m
        if isinstance(m, mt.SamplingMessage)
        else mt.SamplingMessage(role="user", content=mt.TextContent(type="text", text=m))
        for m in items
    ]


def has_capability(capabilities: mt.ClientCapabilities | None, capability: Capability) -> bool:
    """Whether the client declared ``capability`` (for this request, in the 2026 era)."""
    return capabilities is not None and getattr(capabilities, capability) is not None


def missing_capability(capability: Capability) -> MCPError:
    """The spec's MissingRequiredClientCapability error (-32021), naming what is missing."""
    return MCPError(
        code=mt.MISSING_REQUIRED_CLIENT_CAPABILITY,
        message=f"Missing required client capability: {capability} (the client did not declare it)",
        data={"requiredCapabilities": {capability: {}}},
    )


def no_client(capability: Capability) -> ToolError:
    return ToolError(f"{capability} needs an MCP client; this call came from the notebook")


class _Answer(BaseModel):
    """Mixin: an answer that can also be awaited, giving itself back.

    ``ctx.elicit`` and friends return the answer directly to sync tools and an awaitable to async
    ones; typing the result as an awaitable answer lets both spellings check.
    """

    def __await__(self) -> Generator[Any, None, Self]:
        return self
        yield  # pragma: no cover - makes this a generator


class ElicitAnswer(mt.ElicitResult, _Answer):
    """What ``ctx.elicit`` gives: ``action`` (accept/decline/cancel) and ``content``."""


class SampleAnswer(mt.CreateMessageResult, _Answer):
    """What ``ctx.sample`` gives: the client LLM's ``content``, ``model`` and ``stop_reason``."""


class RootsAnswer(mt.ListRootsResult, _Answer):
    """What ``ctx.list_roots`` gives: the client's ``roots``."""
