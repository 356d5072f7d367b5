"""Browser-test fixtures: a real JupyterLab and a headless Debian Chromium driven by Playwright.

Fixtures (see tests/browser/README.md):

``lab``        one JupyterLab server for the whole session (isolated dirs, token, base URL
               ``/lab-under-test/``); ``lab.write_notebook(...)``, ``lab.url(...)``, ``lab.api(...)``.
``lab_page``   a fresh browser page per test, wrapped in ``LabPage`` (open a notebook, run all
               cells, switch theme, take screenshots). On failure a screenshot, the page's
               console and the server log are saved as artifacts.
``artifacts``  ``.ci/artifacts/browser/<test name>/`` for screenshots a test wants to keep.
"""

from __future__ import annotations

import os
import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from playwright.async_api import async_playwright

from tests.browser.lab import JupyterLab
from tests.browser.ui import CHROMIUM, CHROMIUM_ARGS, LabPage

ARTIFACTS = Path(__file__).resolve().parents[2] / ".ci" / "artifacts" / "browser"
BASE_URL = "/lab-under-test/"


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    report = yield
    setattr(item, f"report_{report.when}", report)  # lets fixtures see whether the test failed
    return report


@pytest.fixture(scope="session")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[JupyterLab]:
    """A JupyterLab server shared by the session's browser tests."""
    with JupyterLab.started(tmp_path_factory.mktemp("jupyterlab"), base_url=BASE_URL) as server:
        yield server


@pytest.fixture
def artifacts(request: pytest.FixtureRequest) -> Path:
    """This test's artifact directory (emptied first)."""
    directory = ARTIFACTS / re.sub(r"[^\w.-]+", "_", request.node.name)
    directory.mkdir(parents=True, exist_ok=True)
    for old in directory.iterdir():
        old.unlink()
    return directory


@pytest.fixture
async def lab_page(lab: JupyterLab, artifacts: Path, request: pytest.FixtureRequest) -> AsyncIterator[LabPage]:
    """A new headless Chromium page on ``lab``; evidence is saved if the test fails."""
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} is missing: run ./dev.sh test, or apt-get install -y chromium chromium-driver")
    console: list[str] = []
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = await browser.new_context(viewport={"width": 1280, "height": 1000})
        page = await context.new_page()
        page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
        page.on("pageerror", lambda error: console.append(f"pageerror: {error}"))
        try:
            yield LabPage(page, lab)
        finally:
            if getattr(request.node, "report_call", None) is None or request.node.report_call.failed:
                await page.screenshot(path=artifacts / "failure.png", full_page=True)
                (artifacts / "console.log").write_text("\n".join(console))
                (artifacts / "jupyterlab.log").write_text(lab.log())
            await browser.close()
