"""Registry: duplicates, enable/disable by names and tags, allow-list mode, change events."""

import logging

import pytest

from jupyter_mcp.tools import Tool
from jupyter_mcp.tools.components.registry import DuplicateToolError, RegistryChange, ToolRegistry


def make(name: str, *tags: str) -> Tool:
    def fn() -> None:
        """A tool."""

    return Tool.from_function(fn, name=name, tags=set(tags))


def names(registry: ToolRegistry) -> list[str]:
    return [t.name for t in registry.visible()]


def test_duplicate_policies(caplog: pytest.LogCaptureFixture) -> None:
    first, second = make("t"), make("t")
    for policy, kept in [("replace", second), ("ignore", first), ("warn", second)]:
        registry = ToolRegistry(policy)  # type: ignore[arg-type]
        registry.add(first)
        with caplog.at_level(logging.WARNING):
            assert registry.add(second) is kept
        assert registry.get("t") is kept
    assert "replaced" in caplog.text
    strict = ToolRegistry("error")
    strict.add(first)
    with pytest.raises(DuplicateToolError, match="'t' is already registered"):
        strict.add(second)
    with pytest.raises(ValueError, match="on_duplicate must be"):
        ToolRegistry("overwrite")  # type: ignore[arg-type]


def test_enable_disable_by_name_and_tag() -> None:
    registry = ToolRegistry()
    for tool in (make("a", "admin"), make("b", "public"), make("c", "public", "admin")):
        registry.add(tool)
    registry.disable(names={"a"})
    assert names(registry) == ["b", "c"]
    assert registry.get("a") is None
    registry.disable(tags={"admin"})
    assert names(registry) == ["b"]
    registry.enable(tags={"admin"})
    registry.enable(names={"a"})
    assert names(registry) == ["a", "b", "c"]


def test_allow_list_mode() -> None:
    registry = ToolRegistry()
    for tool in (make("a", "admin"), make("b", "public"), make("c")):
        registry.add(tool)
    registry.enable(tags={"public"}, only=True)
    assert names(registry) == ["b"]
    registry.enable(names={"c"})
    assert names(registry) == ["b", "c"]


def test_unknown_names_are_specific_errors() -> None:
    registry = ToolRegistry()
    registry.add(make("a"))
    with pytest.raises(KeyError, match=r"no tool named 'zz' \(registered: a\)"):
        registry.disable(names={"zz"})
    with pytest.raises(KeyError, match="no tool named 'zz'"):
        registry.remove("zz")


def test_every_change_is_an_event() -> None:
    registry = ToolRegistry("replace")
    events: list[RegistryChange] = []
    unsubscribe = registry.subscribe(events.append)
    registry.add(make("a", "x"))
    registry.add(make("a", "x"))
    registry.disable(tags={"x"})
    registry.enable(tags={"x"})
    registry.remove("a")
    unsubscribe()
    registry.add(make("b"))
    assert [e.kind for e in events] == ["added", "replaced", "disabled", "enabled", "removed"]
    assert events[0].keys == ("a",)


def test_a_failing_listener_does_not_stop_the_others() -> None:
    registry = ToolRegistry()
    seen: list[str] = []

    def broken(change: RegistryChange) -> None:
        raise RuntimeError("boom")

    registry.subscribe(broken)
    registry.subscribe(lambda change: seen.append(change.kind))
    registry.add(make("a"))
    assert seen == ["added"]
