"""README.md works from a fresh clone: it starts with the two commands, and its links, repository
paths and ``./dev.sh`` commands all exist in the repository (nothing outside it)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
TOP_LEVEL = {path.name for path in ROOT.iterdir()} - {".git", ".venv"}


def test_it_starts_with_the_two_commands() -> None:
    first_block = README.split("```bash\n", 1)[1].split("```", 1)[0]
    assert [line.split()[:2] for line in first_block.splitlines()] == [["./dev.sh", "run"], ["./dev.sh", "test"]]


def test_relative_links_and_images_exist() -> None:
    targets = [t for t in re.findall(r"\]\(([^)\s]+)\)", README) if not re.match(r"[a-z]+://", t)]
    assert targets, "no relative link found: the pattern is wrong"
    assert [t for t in targets if not (ROOT / t.split("#")[0]).exists()] == []
    assert ".." not in "".join(targets)
    assert "../" not in README


def test_repository_paths_exist() -> None:
    quoted = re.findall(r"`([\w./-]+)`", README)
    paths = [q for q in quoted if "/" in q and q.split("/")[0] in TOP_LEVEL and "<" not in q]
    assert len(paths) >= 5, paths
    assert [p for p in paths if not (ROOT / p).exists()] == []


def test_dev_sh_commands_exist() -> None:
    known = set(re.findall(r"^\s+(\w+)\) shift; cmd_", (ROOT / "dev.sh").read_text(), re.M))
    used = set(re.findall(r"\./dev\.sh (\w+)", README))
    assert used <= known, used - known


def test_it_stays_short() -> None:
    """A README that starts a user; the reference lives in docs/."""
    assert len(README.splitlines()) <= 200


def test_it_links_to_the_docs_index() -> None:
    assert "](docs/index.md)" in README


DOCS = ROOT / "docs"


def toctree_entries(page: Path) -> set[str]:
    """The documents a page's toctrees name (a ``:glob:`` entry expanded against docs/)."""
    entries: set[str] = set()
    for block in re.findall(r"```\{toctree\}\n(.*?)```", page.read_text(), re.S):
        lines = [line.strip() for line in block.splitlines() if line.strip() and not line.startswith(":")]
        for line in lines:
            if "*" in line:
                entries.update(str(p.relative_to(DOCS).with_suffix("")) for p in DOCS.glob(line + ".*"))
            else:
                entries.add(line)
    return entries


def test_every_docs_page_is_in_a_toctree() -> None:
    """Sphinx warns about a page in no toctree (and the docs build fails); this says it in a second."""
    listed = set().union(*(toctree_entries(page) for page in DOCS.glob("*.md")))
    pages = {str(p.relative_to(DOCS).with_suffix("")) for p in [*DOCS.glob("*.md"), *DOCS.glob("notebooks/*.ipynb")]}
    assert len(pages) > 20
    assert sorted(pages - listed - {"index"}) == []
    assert sorted(listed - pages) == []
