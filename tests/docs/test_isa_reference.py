"""The instruction reference in docs/isa/ is what the table and presets generate today.

The pages are committed so that they can be read on the web; this test regenerates them and
fails, naming the stale pages and the command that rewrites them, when a table file or a preset
changed without the pages.
"""

from __future__ import annotations

from pathlib import Path

from isasim import isadoc

DOCS = Path(__file__).resolve().parents[2] / "docs" / "isa"


def test_committed_pages_are_current():
    pages = isadoc.generate()
    committed = {p.name: p.read_text() for p in DOCS.glob("*.md")}
    stale = sorted(n for n in pages if committed.get(n) != pages[n])
    extra = sorted(set(committed) - set(pages))
    assert not stale and not extra, (
        f"docs/isa is out of date (stale: {stale}, no longer generated: {extra}); "
        f"regenerate with `{isadoc.REGENERATE}` and commit the pages")


def test_every_extension_file_gets_a_page_with_every_encoding():
    pages = isadoc.generate()
    for ext, entries in isadoc.entries_by_extension().items():
        page = pages[f"{ext}.md"]
        for e in entries:
            assert f"| `{e.name}` |" in page
            digits = 2 * e.length
            assert f"`{e.match:#0{digits + 2}x}` / `{e.mask:#0{digits + 2}x}`" in page


def test_encoding_names_fields_and_fixed_bits_from_the_top_bit():
    isa_entry = next(e for e in isadoc.entries_by_extension()["rv32i"] if e.name == "beq")
    assert (isadoc.encoding(isa_entry, "14..12=0 6..0=0x63")
            == "bimm[12] bimm[10:5] rs2 rs1 000 bimm[4:1] bimm[11] 1100011")


def test_a_new_extension_file_is_documented_without_code_changes(monkeypatch):
    """Extensions are found by listing the table's files: a file another change adds appears in
    the index and gets its own page (simulated here by renaming one)."""
    files = isadoc.table_files()
    exts = isadoc.entries_by_extension()
    files["xnew"] = files.pop("m")
    exts["xnew"] = exts.pop("m")
    monkeypatch.setattr(isadoc, "table_files", lambda: files)
    monkeypatch.setattr(isadoc, "entries_by_extension", lambda: exts)
    pages = isadoc.generate()
    assert "xnew.md" in pages and "m.md" not in pages
    assert "[`xnew`](xnew.md)" in pages["README.md"]
    assert "| `mulhu` |" in pages["xnew.md"]


def test_every_timing_class_of_the_table_has_its_cycles_documented():
    from toolchain.table import TIMING_CLASSES

    assert set(isadoc.TIMING) == set(TIMING_CLASSES)
