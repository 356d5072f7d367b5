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
