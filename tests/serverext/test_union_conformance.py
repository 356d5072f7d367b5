"""The official MCP conformance suite through ``<jupyter url>/mcp``: a real ``jupyter lab`` process, the
fixtures in a notebook named ``test.ipynb``, so that its prefix ``test`` gives them their names back.

The suite calls fixed names. At ``/mcp`` a notebook's tool ``X`` is ``<prefix>_X``: the fixtures are
registered without their ``test_`` (``simple_text``) and served as ``test_simple_text``; prompts the
same. What cannot be named that way is in the baselines, with the reason: resource URIs
(``test://static-text`` is ``test://test/static-text`` at ``/mcp``) and fixtures whose names do not
start with ``test_`` (``json_schema_2020_12_tool``, the tasks fixtures ``greet``, ``slow_compute``…).
Each run fails on anything else that fails, and on a baseline entry that passes.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.bearer_proxy import bearer_proxy
from tests.browser.lab import JupyterLab
from tests.harness import Kernel
from tests.kernel.test_conformance import FIXTURES, PACKAGES, passes_suite

pytestmark = [pytest.mark.conformance, pytest.mark.timeout(900)]
UNPREFIXED = """
import dataclasses, jupyter_mcp
_server = jupyter_mcp.get_server()
for _registry in (_server.registry, _server.prompt_registry):
    for _name, _item in list(_registry.all().items()):
        if _name.startswith("test_"):
            _registry.remove(_name)
            _registry.add(dataclasses.replace(_item, name=_name.removeprefix("test_")))
"""
RUNS = {
    "2026-07-28": (("--requirements", "2026-07-28"), "conformance-baseline-union-2026-07-28.yml"),
    "2025-11-25": (("--suite", "all", "--spec-version", "2025-11-25"), "conformance-baseline-union-2025-11-25.yml"),
}
MUST_PASS = {
    "2026-07-28": (
        "server-stateless",
        "tools-call-with-progress",
        "input-required-result-basic-elicitation",
        "input-required-result-request-state",
        "input-required-result-multi-round",
        "input-required-result-tampered-state",
        "http-header-validation",
        "http-custom-header-server-validation",
        "caching",
        "completion-complete",
        "prompts-get-embedded-resource",
        "dns-rebinding-protection",
    ),
    "2025-11-25": (
        "server-session-lifecycle",
        "tools-call-sampling",
        "tools-call-elicitation",
        "tools-call-with-logging",
        "logging-set-level",
        "dns-rebinding-protection",
    ),
}


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[JupyterLab]:
    with JupyterLab.started(tmp_path_factory.mktemp("lab"), base_url="/conformance-lab/") as running:
        running.write_notebook("test.ipynb", [])
        body = {"path": "test.ipynb", "name": "test.ipynb", "type": "notebook", "kernel": {"name": "python3"}}
        reply = running.api("POST", "api/sessions", json=body)
        assert reply.status_code == 201, reply.text
        kernel = Kernel.attach(str(running.runtime_dir / f"kernel-{reply.json()['kernel']['id']}.json"))
        try:
            kernel.run("%load_ext jupyter_mcp")
            for cell in FIXTURES:
                kernel.run(cell.read_text())
            kernel.run(UNPREFIXED)
            yield running
        finally:
            kernel.client.stop_channels()


@pytest.mark.parametrize("revision", list(RUNS))
def test_conformance_suite_through_the_union(lab: JupyterLab, tmp_path: Path, revision: str) -> None:
    arguments, baseline_name = RUNS[revision]
    suite = PACKAGES / "conformance-next" / "dist/index.js"
    assert suite.exists(), "run ./dev.sh test: it installs tests/node (the suites)"
    # Several 2026-era scenarios send raw requests without the URL's query: the proxy adds the token.
    with bearer_proxy(lab.url("mcp", token=False), lab.token) as address:
        output, _, _ = passes_suite(suite, address, arguments, baseline_name, MUST_PASS[revision], tmp_path)
    if revision == "2025-11-25":  # the kernel ended the stream early; /mcp resumed it and the result arrived
        assert re.search(r"✓ server-sse-polling: 0 passed, 0 failed", output), "the resumed call failed"
