"""TARGET: notebook paths, kernel id prefixes, or nothing, matched against live servers."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from jupyter_mcp.cli.errors import CLIError
from jupyter_mcp.cli.targets import TargetSpec, parse_target, same_notebook, select
from jupyter_mcp.discovery import ServerInfo


def server(kernel_id: str, notebook: str | None, started: float = 0.0) -> ServerInfo:
    return ServerInfo(f"http://127.0.0.1:1/{kernel_id}", "t", os.getpid(), kernel_id, notebook, [], started)


@pytest.mark.parametrize(
    ("text", "spec"),
    [
        (None, TargetSpec("only")),
        ("", TargetSpec("only")),
        ("analysis.ipynb", TargetSpec("notebook", "analysis.ipynb")),
        ("work/analysis.ipynb", TargetSpec("notebook", "work/analysis.ipynb")),
        ("1a2b", TargetSpec("kernel", "1a2b")),
    ],
)
def test_parse_target(text: str | None, spec: TargetSpec) -> None:
    assert parse_target(text) == spec


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("work/analysis.txt", "'work/analysis.txt' is not a notebook: a notebook target ends in .ipynb"),
        ("two words", "'two words' is neither a notebook path (.ipynb) nor a kernel id"),
    ],
)
def test_parse_target_refuses_what_it_cannot_be(text: str, message: str) -> None:
    with pytest.raises(CLIError) as caught:
        parse_target(text)
    assert str(caught.value) == message


@pytest.mark.parametrize(
    ("wanted", "served", "same"),
    [
        ("analysis.ipynb", "/home/me/project/analysis.ipynb", True),
        ("project/analysis.ipynb", "/home/me/project/analysis.ipynb", True),
        ("other/analysis.ipynb", "/home/me/project/analysis.ipynb", False),
        ("/home/me/project/analysis.ipynb", "/home/me/project/analysis.ipynb", True),
        ("/elsewhere/analysis.ipynb", "/home/me/project/analysis.ipynb", False),
        ("/home/me/project/analysis.ipynb", "project/analysis.ipynb", True),
        ("analysis.ipynb", "project/analysis.ipynb", True),
        ("analysis.ipynb", "/home/me/project/analysis2.ipynb", False),
    ],
)
def test_same_notebook(wanted: str, served: str, same: bool) -> None:
    assert same_notebook(wanted, served) is same


def test_relative_target_matches_through_the_working_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    assert same_notebook("../analysis.ipynb", str(tmp_path / "analysis.ipynb"))


def test_select_picks_the_newest_kernel_of_a_notebook() -> None:
    old, new = server("aaaa", "/n/a.ipynb", 1.0), server("bbbb", "/n/a.ipynb", 2.0)
    assert select(TargetSpec("notebook", "a.ipynb"), [new, old]) is new


def test_select_by_kernel_prefix_and_exact_id() -> None:
    one, two = server("abc123", None), server("abc999", None)
    assert select(TargetSpec("kernel", "abc1"), [one, two]) is one
    assert select(TargetSpec("kernel", "abc123"), [one, two]) is one


def test_select_errors_list_the_choices() -> None:
    one, two = server("abc123", "/n/a.ipynb"), server("abc999", None)
    with pytest.raises(CLIError) as ambiguous:
        select(TargetSpec("kernel", "abc"), [one, two])
    assert str(ambiguous.value) == (
        "kernel abc is ambiguous; name one of these:\n"
        "  /n/a.ipynb (kernel abc123)  http://127.0.0.1:1/abc123\n"
        "  kernel abc999  http://127.0.0.1:1/abc999"
    )
    with pytest.raises(CLIError) as several:
        select(TargetSpec("only"), [one, two])
    assert str(several.value).startswith("2 notebooks serve tools; name one as TARGET:\n  /n/a.ipynb")
    with pytest.raises(CLIError) as unknown:
        select(TargetSpec("notebook", "b.ipynb"), [one, two])
    assert str(unknown.value).startswith("no live server matches notebook b.ipynb. Live servers:\n  /n/a.ipynb")
    with pytest.raises(CLIError) as nothing:
        select(TargetSpec("only"), [])
    assert str(nothing.value).startswith("no notebook is serving MCP tools right now")
