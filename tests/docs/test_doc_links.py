"""The documentation points at things that exist: relative links, and the tests it cites.

docs/cycle-model.md names, for every timing rule, the test that checks it; a renamed or deleted
test would leave the page claiming a check that no longer runs.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", ROOT / "examples" / "cluster" / "README.md",
         *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "docs" / "isa").glob("*.md"))]


def page_id(p: Path) -> str:
    return str(p.relative_to(ROOT))


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_relative_links_resolve(page):
    text = page.read_text()
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        assert (page.parent / target).exists(), f"{page_id(page)}: broken link {target}"


@pytest.mark.parametrize("page", PAGES, ids=page_id)
def test_cited_tests_exist(page):
    """``tests/x/test_y.py`` and ``test_y.py::test_name`` citations name real files and tests;
    a bare ``test_y.py::name`` refers to the file cited last before it."""
    text = page.read_text()
    files = {p.name: p for p in (ROOT / "tests").rglob("test_*.py")}
    last = None
    for m in re.finditer(r"`((?:tests/[\w/]+/)?test_\w+\.py)?(?:::(\w+))?`", text):
        path, name = m.groups()
        if path:
            last = ROOT / path if path.startswith("tests/") else files.get(path)
            assert last is not None and last.exists(), f"{page_id(page)}: no test file {path}"
        if name:
            assert last is not None and re.search(rf"^def {name}\(", last.read_text(), re.M), \
                f"{page_id(page)}: no test {name} in {last}"
