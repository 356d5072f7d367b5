"""Exceptions a tool (or the tool layer) raises, and how they reach a client."""

from __future__ import annotations


class ToolError(Exception):
    """An error whose message is always sent to the client, even with masking on.

    Example::

        @server.tool
        def divide(a: float, b: float) -> float:
            if b == 0:
                raise ToolError("Division by zero is not allowed.")
            return a / b
    """


class ToolDefinitionError(TypeError):
    """A function cannot become a tool; the message says which part and why."""


class ToolArgumentsError(ToolError):
    """Arguments failed validation; the message names each bad parameter."""


class ToolTimeoutError(ToolError):
    """A call ran longer than the tool's ``timeout``."""


class ToolOutputError(ToolError):
    """A return value did not match the tool's declared output schema."""


class UnknownToolError(ToolError):
    """No enabled tool has the requested name."""


class ResourceError(ToolError):
    """Raised by a resource function: the client gets its message (even with masking on).

    Example::

        @server.resource("data://tables/{name}")
        def table(name: str) -> str:
            if name not in tables:
                raise ResourceError(f"No table named {name!r}")
            return tables[name].to_csv()
    """


class PromptError(ToolError):
    """Raised by a prompt function: the client gets its message (even with masking on)."""


class ResourceNotFoundError(ResourceError):
    """No enabled resource or template answers the URI (the spec's resource-not-found error)."""

    def __init__(self, uri: str, message: str) -> None:
        super().__init__(message)
        self.uri = uri


class UnknownPromptError(PromptError):
    """No enabled prompt has the requested name."""
