"""Tables at an 80-column terminal: no number is cut (``24,2…``), no header is broken into
fragments; piped, one plain line per row.  Run through a pseudo-terminal of 80 columns."""

from __future__ import annotations

import re

from tests.cli.terminal import at_terminal, piped

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
MATMUL = ["isasim.cli", "run", "docs/worked-example/matmul8.s", "--cores", "8"]


def _lines(text: str) -> list[str]:
    return ANSI.sub("", text).split("\n")


def _header_cells(lines: list[str]) -> list[str]:
    """The column names of every table (rich's heavy header row)."""
    return [cell.strip() for line in lines if line.startswith("┃")
            for cell in line.strip("┃").split("┃")]


def test_isasim_run_fits_80_columns_without_cutting_numbers():
    code, text = at_terminal(MATMUL, 80)
    assert code == 0, text
    lines = _lines(text)
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    assert "…" not in text
    headers = _header_cells(lines)
    for name in ("core", "cycles", "instr", "IPC", "tcdm_conflict", "barrier", "dma_wait"):
        assert name in headers, headers
    assert any("22,506" in line for line in lines)     # whole cycle counts


def test_isasim_run_piped_prints_plain_rows():
    done = piped(MATMUL)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().split("\n")
    assert lines[0] == "isasim run: exited, 22,506 cycles"
    assert lines[1].split() == ["core", "cycles", "instr", "IPC", "tcdm_conflict", "ext_mem",
                                "branch", "jump", "barrier", "dma_wait", "idle", "imiss"]
    assert len(lines) == 2 + 8 and all(len(line) < 120 for line in lines)
    assert not any(ch in done.stdout for ch in "┃│━─…")
    assert done.stderr == ""


def test_trainlib_train_headers_stay_whole_at_80_columns():
    code, text = at_terminal(["trainlib.cli", "train", "examples/pulp_trainlib_net0.toml",
                              "--steps", "1", "--cores", "8"], 80)
    assert code == 0, text
    lines = _lines(text)
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    assert "…" not in text
    headers = _header_cells(lines)
    for name in ("layer", "step", "kernel", "plan", "cycles", "MACs", "MAC/cyc", "instr %",
                 "barrier %", "phases (cycles)"):
        assert name in headers, headers
    # every header cell is a whole column name: none is a fragment of a longer one
    known = {"layer", "step", "kernel", "plan", "cycles", "MACs", "MAC/cyc", "phases (cycles)"}
    assert all(h in known or h.endswith(" %") for h in headers if h), headers
