"""Any token works on the command line: dash-led, with "=" inside, as ``--token V``, ``--token=V`` or
``$JUPYTER_MCP_TOKEN``, for ``connect`` and ``serve``, end to end with real kernels and clients."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest

from jupyter_mcp.cli import build_parser
from jupyter_mcp.cli.token_option import join_values
from tests.cli.conftest import (
    ADD_TOOL,
    ODD_TOKENS,
    cli,
    start_notebook_kernel,
    stdio_client,
    write_notebook,
)
from tests.cli.test_serve import serving_http
from tests.conftest import http_client
from tests.harness import Kernel

FORMS = ["separate", "equals", "env"]


def token_args(form: str, token: str) -> tuple[list[str], dict[str, str]]:
    """``--token`` as ``form`` gives it: command-line arguments and environment."""
    if form == "separate":
        return ["--token", token], {}
    if form == "equals":
        return [f"--token={token}"], {}
    return [], {"JUPYTER_MCP_TOKEN": token}


# ---- parsing ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "joined"),
    [
        (["connect", "--url", "u", "--token", "-abc"], ["connect", "--url", "u", "--token=-abc"]),
        (["serve", "n.ipynb", "--token", "--x", "--port", "1"], ["serve", "n.ipynb", "--token=--x", "--port", "1"]),
        (["connect", "--token=-a=b"], ["connect", "--token=-a=b"]),
        (["connect", "--token"], ["connect", "--token"]),  # no value: argparse says so
        (["serve", "--", "--token", "-x"], ["serve", "--", "--token", "-x"]),  # after --, nothing is an option
    ],
)
def test_token_values_are_joined_before_parsing(argv: list[str], joined: list[str]) -> None:
    assert join_values(argv) == joined


@pytest.mark.parametrize("token", ODD_TOKENS)
@pytest.mark.parametrize("form", ["separate", "equals"])
def test_both_commands_parse_any_token(token: str, form: str) -> None:
    args, _ = token_args(form, token)
    parser = build_parser()
    assert parser.parse_args(join_values(["connect", "--url", "http://h/mcp", *args])).token == token
    assert parser.parse_args(join_values(["serve", "n.ipynb", "--transport", "http", *args])).token == token


BAD = "printable ASCII without spaces (an HTTP header carries it)"
CONNECT = ["connect", "--url", "http://127.0.0.1:9/mcp"]
SERVE_HTTP = ["serve", "n.ipynb", "--transport", "http"]


@pytest.mark.parametrize("command", [CONNECT, SERVE_HTTP], ids=["connect", "serve"])
def test_unusable_tokens_get_one_sentence(runtime_dir: Path, command: list[str]) -> None:
    given = cli(*command, "--token", "two words", runtime=runtime_dir)
    assert given.returncode == 2
    assert given.stderr.endswith(f"error: argument --token: the token must be {BAD}\n")
    from_env = cli(*command, runtime=runtime_dir, env={"JUPYTER_MCP_TOKEN": "tök"}, input="")
    assert (from_env.returncode, from_env.stderr) == (1, f"jupyter-mcp: $JUPYTER_MCP_TOKEN must be {BAD}\n")


def test_the_variable_is_ignored_where_no_token_is_taken(runtime_dir: Path, tmp_path: Path) -> None:
    """A shell that exports JUPYTER_MCP_TOKEN (to pin its kernels' token) still runs ``connect TARGET``."""
    env = {"JUPYTER_MCP_TOKEN": "-pinned"}
    waited = cli("connect", str(tmp_path / "nb.ipynb"), runtime=runtime_dir, env=env, input="")
    assert waited.returncode == 0, waited.stderr
    explicit = cli("connect", str(tmp_path / "nb.ipynb"), "--token", "-t", runtime=runtime_dir, env=env)
    assert (explicit.returncode, explicit.stderr) == (
        1,
        "jupyter-mcp: --token goes with --url (a TARGET's token comes from its discovery file)\n",
    )


# ---- connect ------------------------------------------------------------------------------------------


@pytest.fixture(params=ODD_TOKENS)
def pinned_kernel(request: pytest.FixtureRequest, runtime_dir: Path, notebook_path: str) -> Iterator[Kernel]:
    """A notebook kernel serving ``add`` whose token is pinned (JUPYTER_MCP_TOKEN) to an odd one."""
    kernel = start_notebook_kernel(runtime_dir, notebook_path, [ADD_TOOL], {"JUPYTER_MCP_TOKEN": request.param})
    try:
        yield kernel
    finally:
        kernel.shutdown()


async def test_connect_and_http_clients_take_any_token_every_way(pinned_kernel: Kernel, runtime_dir: Path) -> None:
    url, token = pinned_kernel.value("(server.url, server.token)")
    assert token in ODD_TOKENS
    for form in FORMS:
        args, env = token_args(form, token)
        async with stdio_client(["connect", "--url", url, *args], runtime_dir, "legacy", env) as client:
            assert [t.name for t in (await client.list_tools()).tools] == ["add"], form
            assert (await client.call_tool("add", {"a": 1, "b": 2})).structured_content == {"result": 3}, form
    # and HTTP clients present it as a header or (URL-encoded) as ?token=
    async with http_client(url, token, mode="auto") as by_header:
        assert [t.name for t in (await by_header.list_tools()).tools] == ["add"]
    async with http_client(f"{url}?token={quote(token, safe='')}", None, mode="legacy") as by_query:
        assert [t.name for t in (await by_query.list_tools()).tools] == ["add"]


# ---- serve --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("token", "form"), list(zip(ODD_TOKENS, FORMS, strict=True)))
async def test_serve_takes_any_token(runtime_dir: Path, tmp_path: Path, token: str, form: str) -> None:
    notebook = write_notebook(tmp_path / "nb.ipynb", [("%load_ext jupyter_mcp", []), (ADD_TOOL, [])])
    args, env = token_args(form, token)
    with serving_http(notebook, runtime_dir, *args, env=env) as (_process, url, announced):
        assert announced == token
        async with http_client(url, token, mode="auto") as client:
            assert (await client.call_tool("add", {"a": 2, "b": 3})).structured_content == {"result": 5}


@pytest.mark.parametrize("token", ODD_TOKENS)
def test_serve_stdio_parses_any_token_then_refuses_it(runtime_dir: Path, token: str) -> None:
    for form in ("separate", "equals"):
        args, _ = token_args(form, token)
        result = cli("serve", "nb.ipynb", *args, runtime=runtime_dir)
        assert (result.returncode, result.stderr) == (1, "jupyter-mcp: --token only apply to --transport http\n")
