"""The standard library's private parts this package reaches (asyncio, contextlib); ``ADAPTER.check()`` tests them.

Each reach, why, and the public API that would end it:

- ``asyncio.events._get_running_loop`` and ``._set_running_loop``: a sync tool proven quick runs
  on the serving loop's thread with the loop out of its sight, as in a worker thread (``asyncio.run``
  works in it, ``asyncio.get_running_loop`` raises), without the ~60 µs hand-off to a worker
  (``loop_hidden``). asyncio exports both for event loop implementations; no public API runs a
  function "outside" the loop on its thread.
- ``AsyncExitStack._exit_callbacks``: whether anything was pushed on a 2026-era request's exit
  stack, so an empty one is not unwound under a shielded scope with a deadline (``nothing_to_unwind``).
  Public alternative: an ``AsyncExitStack`` that says whether it is empty.

When the check fails, or the fast paths are off: sync tools always run in worker threads, and
every request's exit stack is unwound as the SDK unwinds it.
"""

from __future__ import annotations

import asyncio
import asyncio.events
import contextlib
import threading
from collections.abc import Iterator
from contextlib import AsyncExitStack

from jupyter_mcp.adapters.fastpaths import Adapter

LIBRARY = "stdlib"


@contextlib.contextmanager
def loop_hidden() -> Iterator[None]:
    """Run the body with no running loop in sight on this thread (the loop goes on after it)."""
    loop = asyncio.events._get_running_loop()
    asyncio.events._set_running_loop(None)
    try:
        yield
    finally:
        asyncio.events._set_running_loop(loop)


def nothing_to_unwind(stack: AsyncExitStack) -> bool:
    """Whether ``stack`` holds no callbacks (an empty stack needs no unwinding)."""
    return not stack._exit_callbacks  # type: ignore[attr-defined]


def check() -> str | None:
    """``None`` when both reaches hold in this Python, else the first that does not."""
    return _check_loop_slot() or _check_exit_stack()


def _check_loop_slot() -> str | None:
    outcome: list[str | None] = []

    def probe() -> None:
        loop = asyncio.new_event_loop()
        try:
            outcome.append(loop.run_until_complete(_hidden_inside()))
        except Exception as exc:  # said in the verdict, not as a thread's traceback
            outcome.append(f"hiding the running loop raised {type(exc).__name__}: {exc}")
        finally:
            loop.close()

    thread = threading.Thread(target=probe, name="jupyter-mcp-probe")  # a thread of its own: no loop is disturbed
    thread.start()
    thread.join()
    return outcome[0] if outcome else "asyncio's running-loop slot could not be probed"


async def _hidden_inside() -> str | None:
    running = asyncio.get_running_loop()
    with loop_hidden():
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            pass
        else:
            return "asyncio.events._set_running_loop(None) did not hide the running loop"
    if asyncio.get_running_loop() is not running:
        return "asyncio.events._set_running_loop did not give the loop back"
    return None


def _check_exit_stack() -> str | None:
    stack = AsyncExitStack()
    empty = nothing_to_unwind(stack)
    stack.callback(lambda: None)
    if not empty or nothing_to_unwind(stack):
        return "AsyncExitStack._exit_callbacks no longer says whether the stack is empty"
    return None


ADAPTER = Adapter(LIBRARY, check, "worker threads for every sync tool and the SDK's unwinding of each exit stack")
