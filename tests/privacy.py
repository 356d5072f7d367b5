"""Other libraries' private parts made invisible to ``jupyter_mcp``, as a release that renamed them would make them.

``hidden()`` (a context manager) or ``install()`` (for a whole process: ``tests/privacy_site/sitecustomize.py``
calls it in every Python process the tests start when ``HIDE_ENV`` is ``1``) put a guard where each
private part is: the library's own code, and everything else, reach it as before; code of
``jupyter_mcp`` gets ``AttributeError``, as it would once the library renamed it. The adapters'
self-checks must see that and fall back (``jupyter_mcp/adapters``), and nothing else in the package
may touch those parts at all (``tests/test_private_names.py``).
"""

from __future__ import annotations

import contextlib
import importlib
import sys
import types
from collections.abc import Iterator
from typing import Any

HIDE_ENV = "JUPYTER_MCP_TEST_HIDE_PRIVATE"
SITE = __file__.rsplit("/", 1)[0] + "/privacy_site"
"""Put this on ``PYTHONPATH`` (with ``HIDE_ENV=1``) for the guard in subprocesses too."""

ATTRIBUTES: list[tuple[str, str, str]] = [
    ("mcp.server.session", "ServerSession", "_connection"),
    ("mcp.server.connection", "Connection", "_client_params"),
    ("mcp.server.streamable_http_manager", "StreamableHTTPSessionManager", "_server_instances"),
    ("mcp.server.streamable_http_manager", "StreamableHTTPSessionManager", "_session_owners"),
    ("mcp.server.streamable_http_manager", "StreamableHTTPSessionManager", "_discard_session"),
    ("mcp.server.streamable_http", "StreamableHTTPServerTransport", "_idle_timeout"),
    ("mcp.server.streamable_http", "StreamableHTTPServerTransport", "_requests_in_flight"),
    ("mcp.server.streamable_http", "StreamableHTTPServerTransport", "_request_streams"),
    ("mcp.server.streamable_http", "StreamableHTTPServerTransport", "_write_stream"),
    ("mcp.shared.jsonrpc_dispatcher", "JSONRPCDispatcher", "_closed"),
    ("mcp.shared.jsonrpc_dispatcher", "JSONRPCDispatcher", "_transport_builder"),
    ("mcp.shared.jsonrpc_dispatcher", "JSONRPCDispatcher", "_in_flight"),
    ("mcp.shared.jsonrpc_dispatcher", "JSONRPCDispatcher", "_write"),
    ("mcp.server.runner", "ServerRunner", "_serialize"),
    ("contextlib", "_BaseExitStack", "_exit_callbacks"),
    ("ipykernel.kernelbase", "Kernel", "_publish_status"),
    ("jupyter_client.session", "Session", "_add_digest"),
    ("jupyter_client.multikernelmanager", "MultiKernelManager", "_pending_kernels"),
]
"""(module, class, attribute): every private attribute an adapter reaches."""
MODULE_NAMES: list[tuple[str, str]] = [
    ("mcp.shared.jsonrpc_dispatcher", "_InFlight"),
    ("mcp.shared.jsonrpc_dispatcher", "_JSONRPCDispatchContext"),
    ("asyncio.events", "_get_running_loop"),
    ("asyncio.events", "_set_running_loop"),
]
"""(module, name): every private module-level name an adapter reaches."""
FALLS_BACK = {"mcp", "stdlib", "ipykernel", "jupyter_client", "jupyter_server"}
"""The adapters whose checks fail with all of the above hidden (each says so once)."""

_ABSENT = object()


def _ours(depth: int) -> bool:
    """Whether the code ``depth`` frames up is ``jupyter_mcp``'s."""
    frame = sys._getframe(depth + 1)
    return str(frame.f_globals.get("__name__", "")).split(".")[0] == "jupyter_mcp"


class _Guard:
    """Stands where a private attribute was: ``jupyter_mcp`` cannot see it, everyone else can."""

    def __init__(self, name: str, original: Any) -> None:
        self.name = name
        self.original = original
        self.slot = f"_privacy_{name}"

    def _key(self, obj: Any) -> str:
        """Where an instance keeps the value: under its own name if it had it before the guard came."""
        return self.name if self.name in getattr(obj, "__dict__", {}) else self.slot

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        if _ours(1):
            raise AttributeError(self.name)
        if obj is not None and self._key(obj) in getattr(obj, "__dict__", {}):
            return obj.__dict__[self._key(obj)]
        if self.original is _ABSENT:
            raise AttributeError(self.name)
        getter = getattr(type(self.original), "__get__", None)
        return getter(self.original, obj, owner) if getter is not None else self.original

    def __set__(self, obj: Any, value: Any) -> None:
        if _ours(1):
            raise AttributeError(self.name)
        setter = getattr(type(self.original), "__set__", None)
        if setter is not None:
            setter(self.original, obj, value)
        else:
            obj.__dict__[self._key(obj)] = value

    def __delete__(self, obj: Any) -> None:
        if _ours(1):
            raise AttributeError(self.name)
        deleter = getattr(type(self.original), "__delete__", None)
        if deleter is not None:
            deleter(self.original, obj)
        else:
            del obj.__dict__[self._key(obj)]


class _GuardedModule(types.ModuleType):
    """A module whose private names ``jupyter_mcp`` cannot see (the module's own code reads its globals)."""

    def __getattribute__(self, name: str) -> Any:
        if name in types.ModuleType.__getattribute__(self, "__dict__").get("__privacy_hidden__", ()) and _ours(1):
            raise AttributeError(name)
        return types.ModuleType.__getattribute__(self, name)


def install() -> list[tuple[Any, str, Any]]:
    """Guard every private part listed above (for good); returns what ``uninstall`` puts back."""
    undo: list[tuple[Any, str, Any]] = []
    for module_name, class_name, name in ATTRIBUTES:
        owner = _import(module_name, class_name)
        if owner is None or isinstance(owner.__dict__.get(name), _Guard):
            continue
        original = owner.__dict__.get(name, _ABSENT)
        setattr(owner, name, _Guard(name, original))
        undo.append((owner, name, original))
    for module_name, name in MODULE_NAMES:
        module = _import(module_name, None)
        if module is None:
            continue
        hidden = set(module.__dict__.get("__privacy_hidden__", ())) | {name}
        module.__dict__["__privacy_hidden__"] = hidden
        if type(module) is types.ModuleType:
            module.__class__ = _GuardedModule
            undo.append((module, "__class__", types.ModuleType))
    return undo


def uninstall(undo: list[tuple[Any, str, Any]]) -> None:
    for owner, name, original in reversed(undo):
        if name == "__class__":
            owner.__class__ = original
            owner.__dict__.pop("__privacy_hidden__", None)
        elif original is _ABSENT:
            delattr(owner, name)
        else:
            setattr(owner, name, original)


@contextlib.contextmanager
def hidden() -> Iterator[None]:
    """Every private part above guarded while the body runs (objects made meanwhile keep working after)."""
    undo = install()
    try:
        yield
    finally:
        uninstall(undo)


def _import(module_name: str, class_name: str | None) -> Any:
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        return None
    return getattr(module, class_name) if class_name is not None else module
