"""Geometry and contrast checks of a rendered view (``layout_checks.js``), for every browser test of a view.

``await layout_problems(locator)`` runs the checks on the element and returns what is wrong, one
line per problem: cells not under their headers, overflowing or overlapping elements, wrapped button
labels, words broken mid-token, placeholders cut off, text below WCAG AA contrast (4.5:1).
"""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import Locator

CHECKS = (Path(__file__).with_name("layout_checks.js")).read_text()


async def layout_problems(view: Locator) -> list[str]:
    """Every geometry and contrast problem of ``view`` (an element on screen)."""
    problems: list[str] = await view.evaluate(CHECKS)
    return problems


async def assert_clean(view: Locator, where: str) -> None:
    """Fail with every problem of ``view`` at once; ``where`` says which view, theme and width."""
    problems = await layout_problems(view)
    assert not problems, f"{where}:\n  " + "\n  ".join(problems)
