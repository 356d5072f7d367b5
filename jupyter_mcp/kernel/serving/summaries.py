"""What the discovery file says about each component: the ``discovery`` summaries of a notebook's server."""

from __future__ import annotations

from jupyter_mcp.discovery import PromptSummary, ResourceSummary, ToolSummary
from jupyter_mcp.tools.components.prompts import Prompt
from jupyter_mcp.tools.components.resources import AnyResource
from jupyter_mcp.tools.components.tool import Tool


def tool_summary(tool: Tool, visible: bool) -> ToolSummary:
    return ToolSummary(tool.name, tool.title, tool.description, visible, tool.run_on, sorted(tool.tags))


def resource_summary(item: AnyResource, visible: bool) -> ResourceSummary:
    return ResourceSummary(
        item.key, item.name, item.title, item.description, item.mime_type, item.is_template, visible, sorted(item.tags)
    )


def prompt_summary(prompt: Prompt, visible: bool) -> PromptSummary:
    arguments = [argument.name for argument in prompt.arguments]
    return PromptSummary(prompt.name, prompt.title, prompt.description, arguments, visible, sorted(prompt.tags))
