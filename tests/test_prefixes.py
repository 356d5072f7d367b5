"""Prefixes at ``<jupyter url>/mcp``: from file stems, collisions resolved the same way every time."""

from __future__ import annotations

import itertools

import pytest

from jupyter_mcp.prefixes import (
    Assignment,
    Claim,
    assign,
    check_prefix,
    namespaced_uri,
    split_task_id,
    split_uri,
    stem_prefix,
    task_id,
    tool_name,
)


@pytest.mark.parametrize(
    ("path", "prefix"),
    [
        ("sales.ipynb", "sales"),
        ("ops/Sales report (2024).ipynb", "Sales_report_2024"),
        ("ünïcode.ipynb", "n_code"),
        ("...ipynb", "notebook"),
        ("a" * 80 + ".ipynb", "a" * 64),
    ],
)
def test_a_notebook_s_file_stem_is_made_a_valid_tool_name(path: str, prefix: str) -> None:
    assert stem_prefix(path) == prefix
    assert check_prefix(prefix) == prefix
    assert tool_name(prefix, "forecast") == f"{prefix}_forecast"


@pytest.mark.parametrize("bad", ["", "sales.q3", "a/b", "two words", "x" * 65])
def test_a_prefix_that_would_break_names_is_refused_with_what_is_allowed(bad: str) -> None:
    with pytest.raises(ValueError, match="letters, digits, '_' or '-'"):
        check_prefix(bad)


def test_notebooks_of_the_same_name_take_their_folders_and_the_rest_are_numbered() -> None:
    claims = [
        Claim("sales.ipynb"),
        Claim("archive/sales.ipynb"),
        Claim("x/team/plan.ipynb"),
        Claim("y/team/plan.ipynb"),
        Claim("my nb.ipynb"),
        Claim("my_nb.ipynb"),
        Claim("forecasting.ipynb", "ops"),
        Claim("ops.ipynb"),
    ]
    assert assign(claims) == {
        "sales.ipynb": Assignment("sales"),
        "archive/sales.ipynb": Assignment("archive_sales", "'sales' is also wanted by sales.ipynb"),
        "x/team/plan.ipynb": Assignment("x_team_plan", "'plan' is also wanted by y/team/plan.ipynb"),
        "y/team/plan.ipynb": Assignment("y_team_plan", "'plan' is also wanted by x/team/plan.ipynb"),
        "my nb.ipynb": Assignment("my_nb"),
        "my_nb.ipynb": Assignment("my_nb_2", "'my_nb' is also wanted by my nb.ipynb"),
        "forecasting.ipynb": Assignment("ops"),
        "ops.ipynb": Assignment("ops_2", "'ops' is also wanted by forecasting.ipynb"),
    }


def test_the_outcome_depends_on_the_notebooks_not_on_their_order() -> None:
    claims = [Claim("a/s.ipynb"), Claim("b/s.ipynb"), Claim("s.ipynb"), Claim("t.ipynb", "s"), Claim("s_2.ipynb")]
    outcomes = {tuple(sorted(assign(order).items())) for order in itertools.permutations(claims)}
    assert len(outcomes) == 1
    (outcome,) = outcomes
    prefixes = [assignment.prefix for _, assignment in outcome]
    assert len(set(prefixes)) == len(prefixes)


@pytest.mark.parametrize(
    ("uri", "namespaced"),
    [
        ("data://table", "data://sales/table"),
        ("test://template/{id}/data", "test://sales/template/{id}/data"),
        ("file:///abs/path.csv", "file://sales//abs/path.csv"),
        ("urn:isbn:123", "urn:sales/isbn:123"),
        ("result://c1", "result://sales/c1"),
    ],
)
def test_a_uri_carries_the_prefix_as_its_first_segment_and_gives_it_back(uri: str, namespaced: str) -> None:
    assert namespaced_uri("sales", uri) == namespaced
    assert split_uri(namespaced) == ("sales", uri)


def test_task_ids_route_back() -> None:
    assert split_task_id(task_id("ops_2", "Zx.9-y")) == ("ops_2", "Zx.9-y")
    assert split_task_id("no-prefix") is None
    assert split_uri("data://not a prefix/x") is None
