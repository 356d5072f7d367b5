"""Each setting is said once (``ServerSettings``, ``NotebookSettings``) and every front is built from it or
checked against it here: the ``ToolServer`` keywords, the ``JupyterMCP`` traitlets, the tool options and
the magic flags that override a server setting."""

from __future__ import annotations

import argparse
import typing

import pytest
from traitlets.config import Config

from jupyter_mcp.kernel.config import JupyterMCP, NotebookSettings, load_settings
from jupyter_mcp.syntax.flags import TOOL_FLAGS
from jupyter_mcp.tools import ToolServer
from jupyter_mcp.tools.components.options import OPTION_HELP
from jupyter_mcp.tools.errors import ToolDefinitionError
from jupyter_mcp.tools.settings import ServerOptions, ServerSettings


def test_the_server_keywords_are_the_settings() -> None:
    assert list(typing.get_type_hints(ServerOptions)) == list(ServerSettings.model_fields)


def test_every_setting_has_one_sentence_of_help() -> None:
    for record in (ServerSettings, NotebookSettings):
        for name in record.model_fields:
            assert record.help(name).endswith((".", ")")), name


def test_the_traitlets_are_generated_from_the_record() -> None:
    traits = JupyterMCP.class_traits(config=True)
    assert sorted(traits) == sorted(NotebookSettings.model_fields)
    for name, trait in traits.items():
        assert trait.help == NotebookSettings.help(name)
        assert trait.default_value == NotebookSettings.model_fields[name].default


def test_config_and_environment_reach_the_record(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("JUPYTER_MCP_PORT", "9123")
    config = Config()
    config.JupyterMCP.result_budget = "2MB"
    config.JupyterMCP.confirm = "destructive"
    monkeypatch.setattr("jupyter_mcp.kernel.config._ipython_config", lambda: config)
    settings = load_settings(history_size=5)
    assert (settings.port, settings.result_budget, settings.confirm, settings.history_size) == (
        9123,
        2_000_000,
        "destructive",
        5,
    )
    assert "token" not in repr(settings)


def test_a_bad_configured_value_is_one_sentence(monkeypatch: pytest.MonkeyPatch) -> None:
    config = Config()
    config.JupyterMCP.result_budget = "lots"
    monkeypatch.setattr("jupyter_mcp.kernel.config._ipython_config", lambda: config)
    with pytest.raises(ToolDefinitionError, match=r"^result_budget must be a size of at least 4,096 bytes"):
        load_settings()


def test_tool_options_that_override_a_setting_share_its_help() -> None:
    for name in ("strict", "result_budget"):
        assert OPTION_HELP[name].startswith(ServerSettings.help(name))
    parser = TOOL_FLAGS.add_to(argparse.ArgumentParser())
    helps = {action.dest: action.help for action in parser._actions}
    assert (helps["strict"], helps["result_budget"]) == (OPTION_HELP["strict"], OPTION_HELP["result_budget"])


def test_a_change_applies_at_once_and_a_bad_one_is_refused() -> None:
    server = ToolServer("x", page_size=2)
    server.settings.result_budget = "1MB"
    assert server.calls.budget.settings.result_budget == 1_000_000
    with pytest.raises(ValueError, match=r"^page_size: Input should be greater than or equal to 1 \(got 0\)$"):
        server.settings.page_size = 0
    with pytest.raises(ValueError, match=r"^max_workers is fixed when the server is built$"):
        server.settings.max_workers = 2
    with pytest.raises(ToolDefinitionError, match=r"^unknown setting 'budget'; the settings are: on_duplicate, "):
        ToolServer("x", budget=1)  # type: ignore[call-arg]
