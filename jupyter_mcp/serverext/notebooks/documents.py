"""The notebooks the tools work on: the live shared document JupyterLab has open, or the file on disk.

Edits and outputs go only through the shared document of jupyter-server-ydoc (the one real-time
collaboration serves to every open tab), found or opened with its public ``get_document``: a room per
file id (``json:notebook:<file id>``), created when no tab has the notebook open, so a write to the file
behind an open document never happens. Without the collaboration extension, ``read`` reads the file
through the contents manager, and ``live`` refuses with what to install.

A room the tools opened has no tab whose leaving would close it (jupyter-server-ydoc closes a room
``document_cleanup_delay`` seconds after its last browser left): ``IdleRooms`` closes it that long after
the tools last used it, unless a browser joined (which cancels the room's ``cleaner``, as for its own) or
a run still writes to it.

jupyter-server-ydoc saves a document ``document_save_delay`` seconds after its last change and, when the
server stops, neither saves nor stops those pending saves: a change from the last second before a stop
never reaches the file, or is saved while the server is stopping, and a save still running when the
server's loop stops leaves the process waiting for ever on that save's worker thread. ``flush`` closes
that gap for the documents the tools changed: it stops their rooms (no save left pending) and saves
each one before the extension's stop returns, while the loop still runs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import posixpath
import weakref
from collections import Counter
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from jupyter_core.utils import ensure_async

from jupyter_mcp.serverext.notebooks.cells import Cells
from jupyter_mcp.tools.errors import ToolError

logger = logging.getLogger(__name__)

YDOC_EXTENSION = "jupyter_server_ydoc"
NO_COLLABORATION = (
    "Editing and running cells needs JupyterLab's real-time collaboration, so the change goes through the "
    "document an open tab shows: install it into the Jupyter server's environment "
    '(pip install "jupyter-live-mcp[collaboration]", which brings jupyter-collaboration) and restart Jupyter.'
)


@dataclass(frozen=True)
class Read:
    """A notebook's cells and where they came from."""

    cells: Cells
    live: bool


class Documents:
    """Finds a notebook's shared document (or its file) for the tools; paths are the server's API paths."""

    def __init__(self, serverapp: Any) -> None:
        self.serverapp = serverapp
        self.idle = IdleRooms(self)
        self._watched: dict[str, tuple[weakref.ref[Any], Any]] = {}
        """Per path, the shared document the tools last used (weakly: a room closed by its last tab's leaving
        takes its document along) and the subscription that sees it change."""
        self._changed: set[str] = set()
        """Paths whose document changed while the tools had it (by them or anyone) since ``flush``."""

    # ---- the collaboration extension -------------------------------------------------------------

    @property
    def ydoc(self) -> Any | None:
        """jupyter-server-ydoc's extension app, when it is installed and enabled (and RTC not disabled)."""
        apps = self.serverapp.extension_manager.extension_apps.get(YDOC_EXTENSION)
        app = next(iter(apps), None) if apps else None
        if app is None or getattr(app, "disable_rtc", False) or not hasattr(app, "get_document"):
            return None
        return app

    @property
    def collaboration(self) -> bool:
        return self.ydoc is not None

    def room_id(self, path: str) -> str:
        from jupyter_server_ydoc.utils import encode_file_path, room_id_from_encoded_path

        file_id = self.serverapp.web_app.settings["file_id_manager"].index(path)
        return str(room_id_from_encoded_path(encode_file_path("json", "notebook", file_id)))

    def room(self, path: str) -> Any | None:
        """The document's room if it is open now (a tab, or an agent), else ``None``."""
        ydoc = self.ydoc
        if ydoc is None:
            return None
        server = ydoc.ywebsocket_server
        room_id = self.room_id(path)
        return server.rooms.get(room_id) if server.room_exists(room_id) else None

    def open_in_lab(self) -> set[str]:
        """The notebooks a browser has open now (their rooms have a client)."""
        ydoc = self.ydoc
        if ydoc is None:
            return set()
        from jupyter_server_ydoc.utils import decode_file_path

        ids = self.serverapp.web_app.settings["file_id_manager"]
        found = set()
        for room_id, room in list(ydoc.ywebsocket_server.rooms.items()):
            if room_id.count(":") >= 2 and room.clients:
                path = ids.get_path(decode_file_path(room_id)[2])
                if path:
                    found.add(str(path).lstrip("/"))
        return found

    # ---- documents -------------------------------------------------------------------------------

    async def live(self, path: str) -> Any:
        """The notebook's shared document (a ``jupyter_ydoc.YNotebook``), opened if no one has it open."""
        ydoc = self.ydoc
        if ydoc is None:
            raise ToolError(NO_COLLABORATION)
        await self.check_notebook(path)
        return await self.document(path)

    async def document(self, path: str) -> Any:
        """``live`` without checking the path again (a run writing its outputs, many times a second)."""
        ydoc = self.ydoc
        if ydoc is None:
            raise ToolError(NO_COLLABORATION)
        async with self.idle.lock(path):
            document = await ydoc.get_document(
                path=path, content_type="notebook", file_format="json", copy=False, create=True
            )
        if document is None:
            raise ToolError(f"could not open the shared document of {path!r}")
        self._watch(path, document)
        await self.idle.used(path)
        return document

    def _watch(self, path: str, document: Any) -> None:
        known = self._watched.get(path)
        if known is not None and known[0]() is document:
            return
        if known is not None:
            self.forget(path)
        subscription = document.ydoc.observe(lambda _event: self._changed.add(path))
        self._watched[path] = (weakref.ref(document), subscription)

    def forget(self, path: str) -> None:
        """Stop watching ``path``'s document (its room closed)."""
        known = self._watched.pop(path, None)
        self._changed.discard(path)
        document = known[0]() if known is not None else None
        if known is not None and document is not None:
            with contextlib.suppress(Exception):  # already dropped with its document
                document.ydoc.unobserve(known[1])

    async def flush(self) -> None:
        """Save now every open document the tools used that changed, its room stopped first (the server stops)."""
        ydoc = self.ydoc
        if ydoc is None:
            return
        loaders = ydoc.file_loaders
        from jupyter_server_ydoc.utils import decode_file_path

        pending = []  # taken before any await: jupyter-server-ydoc's own stop clears its loaders meanwhile
        for path in sorted(self._changed):
            known = self._watched.get(path)
            room, document = self.room(path), known[0]() if known is not None else None
            if room is None or document is None or room.ydoc is not document.ydoc:
                continue  # closed since (and saved by its room), or reopened with a document of its own
            file_id = decode_file_path(room.room_id)[2]
            if file_id in loaders:
                pending.append((path, room, loaders[file_id], document))
        self._changed.clear()
        for path, room, loader, document in pending:
            try:
                await room.stop()  # cancels its pending save; a running one finishes under the loader's lock
                model = {"format": "json", "type": "notebook", "content": document.get()}
                await loader.maybe_save_content(model)
                logger.info("saved %s as the notebook tools left it before the server stopped", path)
            except Exception:  # the file changed on disk meanwhile, or is gone: say so, save the others
                logger.warning("could not save %s before the server stopped", path, exc_info=True)

    async def read(self, path: str) -> Read:
        """The notebook's cells: from its shared document when there is collaboration, else from the file."""
        if self.collaboration:
            return Read(Cells.live(await self.live(path)), live=True)
        await self.check_notebook(path)
        model = await self._contents(path)
        return Read(Cells.of(list(model["content"].get("cells", []))), live=False)

    async def check_notebook(self, path: str) -> None:
        """A ``ToolError`` that says what is wrong when ``path`` is not a notebook here."""
        if not path.endswith(".ipynb"):
            raise ToolError(f"{path!r} is not a notebook: give the path of an .ipynb file, as jupyter_notebooks lists")
        manager = self.serverapp.contents_manager
        if not await ensure_async(manager.file_exists(path)):
            raise ToolError(f"no notebook at {path!r} (paths are relative to the server's root; see jupyter_notebooks)")

    async def _contents(self, path: str) -> dict[str, Any]:
        return dict(await ensure_async(self.serverapp.contents_manager.get(path, content=True, type="notebook")))


class IdleRooms:
    """Closes the rooms the tools opened (no browser in them) once the tools stopped using them."""

    def __init__(self, documents: Documents) -> None:
        self.documents = documents
        self._held: Counter[str] = Counter()
        self._locks: dict[str, asyncio.Lock] = {}
        self._closers: dict[str, asyncio.Task[None]] = {}

    def lock(self, path: str) -> asyncio.Lock:
        """Held while a room of ``path`` is opened or closed (neither sees the other half done)."""
        return self._locks.setdefault(path, asyncio.Lock())

    @property
    def delay(self) -> float | None:
        """Seconds of no use before closing: jupyter-server-ydoc's own ``document_cleanup_delay`` (``None``:
        never), and never before a change it still has to save is saved (``document_save_delay``)."""
        ydoc = self.documents.ydoc
        cleanup = getattr(ydoc, "document_cleanup_delay", 60.0)
        if cleanup is None:
            return None
        save = getattr(ydoc, "document_save_delay", 1.0) or 0.0
        return max(float(cleanup), float(save) + 2.0)

    @contextlib.asynccontextmanager
    async def holding(self, path: str) -> AsyncIterator[None]:
        """Keep ``path``'s room open while the block runs (a run writes its outputs there)."""
        self._held[path] += 1
        try:
            yield
        finally:
            self._held[path] -= 1
            if not self._held[path]:
                del self._held[path]
                await self.used(path)

    async def used(self, path: str) -> None:
        """The tools just used ``path``'s room: close it ``delay`` seconds from now if nobody else does."""
        delay = self.delay
        room = self.documents.room(path)
        if delay is None or room is None or room.clients:
            return  # open in a tab: jupyter-server-ydoc closes it when the last one leaves
        earlier = self._closers.pop(path, None)
        theirs = room.cleaner
        if theirs is not None and theirs is not earlier and not theirs.done():
            return  # its last tab just left: jupyter-server-ydoc's cleaner closes it (and a browser cancels that)
        if earlier is not None:
            earlier.cancel()
        closer = asyncio.create_task(self._close_later(path, room, delay))
        self._closers[path] = closer
        room.cleaner = closer  # a browser joining cancels it, as it cancels jupyter-server-ydoc's own

    async def _close_later(self, path: str, room: Any, delay: float) -> None:
        await asyncio.sleep(delay)
        async with self.lock(path):
            if self._closers.get(path) is not asyncio.current_task():
                return
            del self._closers[path]
            if self._held[path] or room.clients or self.documents.room(path) is not room:
                return
            await self._close(path, room)

    async def _close(self, path: str, room: Any) -> None:
        ydoc = self.documents.ydoc
        if ydoc is None:
            return
        from jupyter_server_ydoc.utils import decode_file_path

        await ydoc.ywebsocket_server.delete_room(room=room)
        self.documents.forget(path)
        file_id = decode_file_path(room.room_id)[2]
        loaders = ydoc.file_loaders
        if file_id in loaders and loaders[file_id].number_of_subscriptions == 0:
            await loaders.remove(file_id)
        logger.debug("closed the shared document the notebook tools opened: %s", room.room_id)

    def close(self) -> None:
        for closer in self._closers.values():
            closer.cancel()
        self._closers.clear()


def normalized(path: str) -> str:
    """A notebook path as the server's API writes it (no leading slash, no ``..``); ``ToolError`` if it escapes."""
    given = path.strip().replace("\\", "/")
    clean = posixpath.normpath("/" + given).lstrip("/")
    if not clean or clean == "." or ".." in given.split("/"):
        raise ToolError(f"{path!r} is not a path under the server's root (no '..')")
    return clean
