"""``import jupyter_mcp`` (and the tool layer and core CLI) stays light: no IPython, ipywidgets or
jupyter_server; without the ``notebook`` extra, the notebook side says in one sentence what to install."""

import json
import subprocess
import sys

import pytest

HEAVY = ("IPython", "ipywidgets", "anywidget", "jupyter_server", "ipykernel", "tornado", "jupyter_client", "nbformat")
NOTEBOOK_EXTRA = 'pip install "jupyter-live-mcp[notebook]"'
CORE_ONLY = "import sys\nfor name in ('IPython', 'ipykernel', 'ipywidgets', 'anywidget', 'jupyter_client', 'nbformat'):\n    sys.modules[name] = None\n"
"""Run first in a subprocess: these modules now fail to import, as in ``pip install jupyter-live-mcp``."""


def run_python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=60)


@pytest.mark.parametrize(
    "statement",
    [
        "import jupyter_mcp",
        "import jupyter_mcp.tools",
        "from jupyter_mcp.tools import ToolServer, Tool, Context",
        "from jupyter_mcp.cli import build_parser, listing, connect, config, serve; build_parser()",
        "from jupyter_mcp.cli.bridge import run_stdio, DiscoveryLocator; from jupyter_mcp import discovery",
    ],
)
def test_light_imports(statement: str) -> None:
    code = f"{statement}\nimport sys, json\nprint(json.dumps(sorted({{m.split('.')[0] for m in sys.modules}})))"
    done = run_python(code)
    assert done.returncode == 0, done.stderr
    assert not set(HEAVY) & set(json.loads(done.stdout))


@pytest.mark.parametrize(
    "statement", ["import jupyter_mcp.kernel.magics", "from jupyter_mcp.tools import ToolServer, Tool"]
)
def test_jsonschema_waits_for_a_schema_given_by_hand(statement: str) -> None:
    """Importing jsonschema builds rfc3987-syntax's grammars (Jupyter's stack installs it): seconds of CPU
    that ``%load_ext jupyter_mcp`` paid before any tool existed (bench/bench_load.py)."""
    done = run_python(f"{statement}\nimport sys\nprint('jsonschema' in sys.modules)")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"


def test_public_names() -> None:
    import jupyter_mcp

    names = ("Context", "ToolError", "ToolResult", "Image", "Audio", "File", "get_server", "tool", "__version__")
    for name in (*names, "resource", "prompt", "Message", "ResourceError", "PromptError"):
        assert hasattr(jupyter_mcp, name)
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        jupyter_mcp.nope  # noqa: B018


KERNEL_SENTENCE = (
    "ModuleNotFoundError: jupyter_mcp's notebook side (%load_ext jupyter_mcp, jupyter_mcp.get_server()) "
    f"needs IPython, ipykernel, ipywidgets, anywidget, which the core install leaves out: {NOTEBOOK_EXTRA}"
)


@pytest.mark.parametrize(
    "entry",
    [
        "jupyter_mcp.get_server()",
        "jupyter_mcp.load_ipython_extension(None)",
        "jupyter_mcp.tool(lambda: 1)",
        "jupyter_mcp.resource('data://x')",
        "jupyter_mcp.prompt(lambda: 1)",
    ],
)
def test_the_kernel_side_without_the_extra_says_what_to_install(entry: str) -> None:
    done = run_python(f"{CORE_ONLY}import jupyter_mcp\n{entry}")
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == KERNEL_SENTENCE


def test_serve_without_the_extra_says_what_to_install() -> None:
    done = run_python(f"{CORE_ONLY}from jupyter_mcp.cli import main\nsys.exit(main(['serve', 'any.ipynb']))")
    assert (done.returncode, done.stderr) == (
        1,
        "jupyter-mcp: serve needs jupyter_client, nbformat, IPython, ipykernel, ipywidgets, anywidget, "
        f"which the core install leaves out: {NOTEBOOK_EXTRA}\n",
    )
    # A named kernelspec brings its own kernel side; serve itself still needs jupyter_client and nbformat.
    named = run_python(
        f"{CORE_ONLY}from jupyter_mcp.cli import main\nsys.exit(main(['serve', 'x.ipynb', '--kernel', 'k']))"
    )
    assert (
        named.stderr
        == f"jupyter-mcp: serve needs jupyter_client, nbformat, which the core install leaves out: {NOTEBOOK_EXTRA}\n"
    )


def test_the_wire_layer_stands_alone() -> None:
    """``jupyter_mcp._wire`` is under both the server extension and the CLI: it imports neither (nor
    tornado, nor anything outside the standard library)."""
    code = (
        "import sys, json\nimport jupyter_mcp._wire.client, jupyter_mcp._wire.http, jupyter_mcp._wire.sse\n"
        "print(json.dumps(sorted(sys.modules)))"
    )
    done = run_python(code)
    assert done.returncode == 0, done.stderr
    modules = json.loads(done.stdout)
    ours = {m for m in modules if m.startswith("jupyter_mcp")}
    assert ours - {"jupyter_mcp", "jupyter_mcp._version"} == {m for m in ours if m.startswith("jupyter_mcp._wire")}
    third_party = {m.split(".")[0] for m in modules} - set(sys.stdlib_module_names) - {"jupyter_mcp"}
    assert {m for m in third_party if not m.startswith("_")} == set()
