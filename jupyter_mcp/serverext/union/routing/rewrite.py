"""Names on the way through: a client's request in its kernel's names, a kernel's answer in the union's.

What carries a name or URI the union namespaced: ``resource_link`` blocks of tool results, task
results and prompt messages (``result://`` links among them), the URIs of read contents and of
``resources/updated``, task ids. Everything else (progress, logs, input requests, ``requestState``,
structured content) passes as the kernel sent it. A message that cannot hold any of these
(``might_carry_names`` is false) is relayed as its bytes, without a parse.
"""

from __future__ import annotations

from typing import Any

from jupyter_mcp.prefixes import namespaced_uri, split_task_id, split_uri, task_id
from jupyter_mcp.serverext.union.live.members import Member

LIST_CHANGED = frozenset(
    {"notifications/tools/list_changed", "notifications/resources/list_changed", "notifications/prompts/list_changed"}
)
"""A kernel's own list changes: the union tells its clients about the union's, so these stay here."""
_MARKERS = (b'"method"', b'"resource_link"', b'"taskId"', b'"uri"')
_LINK_WEB_SCHEMES = ("http://", "https://")


def might_carry_names(data: bytes) -> bool:
    """Whether a kernel's message may need rewriting (or is a request or notification to look at)."""
    return any(marker in data for marker in _MARKERS)


def result_to_client(member: Member, method: str, result: dict[str, Any]) -> dict[str, Any]:
    """A kernel's result for ``method`` with the union's names."""
    if method == "resources/read":
        return {**result, "contents": [_content_uri(member, c) for c in result.get("contents") or []]}
    if method == "prompts/get":
        return {**result, "messages": [_message(member, m) for m in result.get("messages") or []]}
    if method in ("tools/call", "tasks/get", "tasks/update", "tasks/cancel"):
        return _call_result(member, result)
    return result


def notification_to_client(member: Member, message: dict[str, Any]) -> dict[str, Any] | None:
    """A kernel's notification with the union's names; ``None`` for what the union says itself."""
    method = message.get("method")
    if method in LIST_CHANGED:
        return None
    params = message.get("params")
    if not isinstance(params, dict):
        return message
    if method == "notifications/resources/updated" and isinstance(params.get("uri"), str):
        return {**message, "params": {**params, "uri": namespaced_uri(member.prefix, params["uri"])}}
    if isinstance(params.get("taskId"), str):
        return {**message, "params": _call_result(member, params)}
    return message


def _call_result(member: Member, result: dict[str, Any]) -> dict[str, Any]:
    named = dict(result)
    if isinstance(result.get("taskId"), str):
        named["taskId"] = task_id(member.prefix, result["taskId"])
    if isinstance(result.get("content"), list):
        named["content"] = [_block(member, block) for block in result["content"]]
    inner = result.get("result")
    if isinstance(inner, dict) and isinstance(inner.get("content"), list):
        named["result"] = {**inner, "content": [_block(member, block) for block in inner["content"]]}
    return named


def _message(member: Member, message: Any) -> Any:
    if isinstance(message, dict) and isinstance(message.get("content"), dict):
        return {**message, "content": _block(member, message["content"])}
    return message


def _block(member: Member, block: Any) -> Any:
    """A ``resource_link`` points at something to read here: its URI is the notebook's, namespaced."""
    if not isinstance(block, dict) or block.get("type") != "resource_link" or not isinstance(block.get("uri"), str):
        return block
    if block["uri"].startswith(_LINK_WEB_SCHEMES):
        return block  # a web address the client fetches itself
    return {**block, "uri": namespaced_uri(member.prefix, block["uri"])}


def _content_uri(member: Member, content: Any) -> Any:
    if isinstance(content, dict) and isinstance(content.get("uri"), str):
        return {**content, "uri": namespaced_uri(member.prefix, content["uri"])}
    return content


# ---- towards a kernel ------------------------------------------------------------------------------


def uri_in(member: Member, uri: str) -> str | None:
    """A namespaced URI as the member's kernel knows it, if it is the member's."""
    found = split_uri(uri)
    return found[1] if found is not None and found[0] == member.prefix else None


def task_in(member: Member, task: str) -> str | None:
    found = split_task_id(task)
    return found[1] if found is not None and found[0] == member.prefix else None
