"""What the notebook tools may do, and which of their calls wait for the notebook user.

Two settings of the Jupyter server, ``MCPExtensionApp.notebook_tools`` (``"off"``, ``"read"``,
``"edit"``, ``"run"``: each allows what the one before it does, and more) and
``MCPExtensionApp.notebook_tools_confirm`` (``"edits_and_runs"``, ``"runs"``, ``"never"``), held in
one ``NotebookModes`` that the sidebar can switch at any time; every call reads them when it starts.
A refusal names the setting and the value that would allow the call.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal, get_args

from jupyter_mcp.shapes.notebooks import NotebookToolsConfirm as Confirm
from jupyter_mcp.shapes.notebooks import NotebookToolsMode as Mode
from jupyter_mcp.tools import signedin
from jupyter_mcp.tools.errors import ToolError

Action = Literal["read", "edit", "run"]

MODES: tuple[Mode, ...] = get_args(Mode)
CONFIRMS: tuple[Confirm, ...] = get_args(Confirm)

MODE_HELP = (
    "What MCP clients of <base_url>/mcp may do in this server's notebooks with the notebook tools: 'off' (no "
    "notebook tools), 'read' (jupyter_notebooks and jupyter_read), 'edit' (also jupyter_edit and jupyter_create) "
    "or 'run' (also jupyter_run). Switchable from the MCP sidebar while the server runs."
)
CONFIRM_HELP = (
    "Which calls of the notebook tools wait for the notebook user's approval (shown with the edit's diff or the "
    "code to run, in JupyterLab's notifications and the MCP sidebar): 'edits_and_runs', 'runs' or 'never'. "
    "Switchable from the MCP sidebar while the server runs."
)

_RANK: dict[Mode, int] = {"off": 0, "read": 1, "edit": 2, "run": 3}
_NEEDS: dict[Action, Mode] = {"read": "read", "edit": "edit", "run": "run"}

ModesListener = Callable[["NotebookModes"], None]


@dataclass
class NotebookModes:
    """The two settings as they are now; ``set`` checks a value and tells the listeners."""

    mode: Mode = "read"
    confirm: Confirm = "edits_and_runs"
    listeners: list[ModesListener] = field(default_factory=list)

    def set(self, *, mode: str | None = None, confirm: str | None = None) -> None:
        """Change either setting (``ValueError`` naming the setting and its values for one that is not one)."""
        if mode is not None and mode not in MODES:
            raise ValueError(f"notebook_tools must be one of {', '.join(MODES)}, got {mode!r}")
        if confirm is not None and confirm not in CONFIRMS:
            raise ValueError(f"notebook_tools_confirm must be one of {', '.join(CONFIRMS)}, got {confirm!r}")
        before = (self.mode, self.confirm)
        self.mode = mode or self.mode
        self.confirm = confirm or self.confirm
        if (self.mode, self.confirm) != before:
            for listener in list(self.listeners):
                listener(self)

    def allows(self, action: Action) -> bool:
        return _RANK[self.mode] >= _RANK[_NEEDS[action]]

    def check(self, action: Action, tool: str) -> None:
        """A ``ToolError`` that says how to enable ``action`` when the mode does not allow it (the server's mode,
        and for a client signed in with Jupyter, the mode its grant has)."""
        needed = _NEEDS[action]
        if self.allows(action):
            _check_grant(needed, tool)
            return
        raise ToolError(
            f"{tool} is not allowed here: the notebook tools are in {self.mode!r} mode "
            f"(MCPExtensionApp.notebook_tools = {self.mode!r}). The notebook user can allow it by switching "
            f"them to {needed!r}{' or run' if needed == 'edit' else ''} in JupyterLab's MCP sidebar, or by "
            f"starting Jupyter with --MCPExtensionApp.notebook_tools={needed}."
        )

    def effective(self) -> Mode:
        """The mode for the client of the current call: the server's, capped for a signed-in client by its grant
        (its notebook tools mode; read-only access allows reading only)."""
        grant = signedin.current.get()
        if grant is None:
            return self.mode
        caps: list[Mode] = [self.mode, "read" if grant["read_only"] else "run"]
        caps += [mode for mode in MODES if mode == grant["notebook_tools"]]
        return min(caps, key=_RANK.__getitem__)

    def needs_approval(self, action: Action) -> bool:
        """Whether a client's call doing ``action`` waits for the notebook user."""
        if action == "run":
            return self.confirm != "never"
        return action == "edit" and self.confirm == "edits_and_runs"


def _check_grant(needed: Mode, tool: str) -> None:
    """Refuse a signed-in client what its grant does not allow, even where the server's mode would."""
    grant = signedin.current.get()
    granted = grant["notebook_tools"] if grant is not None else None
    if grant is None or granted not in _RANK or _RANK[granted] >= _RANK[needed]:
        return
    raise ToolError(
        f"{tool} is not allowed for {grant['client']!r}: it signed in with Jupyter for the notebook tools in "
        f"{granted!r} mode. The notebook user can allow more by signing it in again (revoke it in JupyterLab's MCP "
        "sidebar, under Connected apps, and connect again)."
    )
