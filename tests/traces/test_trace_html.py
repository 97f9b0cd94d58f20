"""HTML report, loaded in headless Chromium: no console errors, and the numbers are the run's."""

from __future__ import annotations

import pytest
from trace_browser import cells, load, needs_chromium

from isasim import layout as L
from traces.html import write_html

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def page(mm, tmp_path_factory):
    path = tmp_path_factory.mktemp("html") / "mm.html"
    write_html(mm[0], mm[1], path, "mm <test>")
    dom, console = load(path.as_uri())
    return path, dom, console


def test_loads_without_console_messages(page):
    _, dom, console = page
    assert console == []
    assert 'data-ready="1"' in dom
    assert "mm &lt;test&gt;" in dom


def test_stall_table_equals_the_counters(mm, page):
    result, _ = mm
    found = {}
    for attrs, _text in cells(page[1]):
        if "data-cat" in attrs and "data-core" in attrs and "data-value" in attrs:
            found[(int(attrs["data-core"]), attrs["data-cat"])] = int(attrs["data-value"])
    for c in range(result.ncores):
        assert found[(c, "cycles")] == result.cycles[c]
        for k, name in enumerate(L.CATEGORIES):
            assert found.get((c, name), 0) == result.categories[c, k], (c, name)


def test_heat_map_equals_the_conflict_matrix(mm, page):
    result, _ = mm
    seen = 0
    for attrs, _text in cells(page[1]):
        if "data-bank" in attrs and attrs["data-bank"] != "total":
            c, b = int(attrs["data-core"]), int(attrs["data-bank"])
            assert int(attrs["data-value"]) == result.conflicts[c, b]
            seen += 1
    assert seen == result.conflicts.size
    total = next(int(a["data-value"]) for a, _ in cells(page[1]) if a.get("id") ==
                 "conflicts-total")
    assert total == result.conflicts.sum()


def test_listing_and_hot_spots_show_the_conflicting_loads(page):
    dom = page[1]
    assert "matmul_rows" in dom and "flw ft2,0(t0)" in dom
    assert "tcdm_conflict" in dom and "bank" in dom
    assert '<section id="s-timeline">' in dom


def test_console_errors_are_caught(tmp_path):
    """The console check can fail: a page whose script throws is reported."""
    bad = tmp_path / "bad.html"
    bad.write_text("<html><body><script>null.x;</script></body></html>")
    _, console = load(bad.as_uri())
    assert any("Uncaught TypeError" in line for line in console)


def test_report_without_event_log(mm, tmp_path):
    """A run saved without a trace still gives a page: no timeline, and it says why."""
    path = tmp_path / "nolog.html"
    write_html(mm[0], None, path)
    dom, console = load(path.as_uri())
    assert console == []
    assert "without an event log" in dom
    assert '<section id="s-timeline" hidden="">' in dom
