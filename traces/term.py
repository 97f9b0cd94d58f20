"""Tables of the command line: one description, four formats, any terminal width.

A ``Tabular`` holds the raw values (numbers stay numbers); ``show`` prints it as

* ``table``: at a terminal, rich tables that fit its width: columns that do not fit go to a
  second table stacked under the first, which repeats the key columns (``--wide``: one table
  with every column, as wide as it needs); piped or redirected, plain aligned rows, one line
  per row and no box drawing, never wrapped;
* ``json``, ``csv``, ``markdown``: for scripts and notes.

Numbers are never cut: a column is always as wide as its widest number.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import shutil
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TextIO

from rich.console import Console
from rich.live import Live
from rich.table import Table
from rich.text import Text

from isasim.result import RunResult

FORMATS = ("table", "json", "csv", "markdown")


@dataclass
class Column:
    name: str
    number: bool = False       # right-aligned; ints shown with thousands separators
    key: bool = False          # repeated in each part of a stacked table
    digits: int | None = None  # decimals of a float


@dataclass
class Tabular:
    title: str
    columns: list[Column]
    rows: list[list] = field(default_factory=list)
    bold_rows: set[int] = field(default_factory=set)    # totals

    def add(self, *cells, bold: bool = False) -> None:
        if bold:
            self.bold_rows.add(len(self.rows))
        self.rows.append(list(cells))

    def text(self, row: int, col: int) -> str:
        return _cell_text(self.rows[row][col], self.columns[col])


def _cell_text(value, col: Column) -> str:
    if value is None:
        return "-" if col.number else ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:.{col.digits if col.digits is not None else 2}f}"
    return str(value)


def add_table_options(parser: argparse.ArgumentParser) -> None:
    """``--format`` and ``--wide``, for every command that prints tables."""
    parser.add_argument("--format", choices=FORMATS, default="table",
                        help="how tables are printed: table (fits the terminal; plain rows "
                             "when piped), json, csv or markdown (default: table)")
    parser.add_argument("--wide", action="store_true",
                        help="one table with every column, however wide, instead of stacking "
                             "the columns that do not fit the terminal")


def terminal_width(stream: TextIO) -> int | None:
    """Columns of the terminal ``stream`` writes to ($COLUMNS first, as rich), None when it is
    not a terminal."""
    if not stream.isatty():
        return None
    if os.environ.get("COLUMNS", "").isdigit():
        return int(os.environ["COLUMNS"])
    return shutil.get_terminal_size().columns


def show(tables: list[Tabular], fmt: str = "table", wide: bool = False,
         stream: TextIO | None = None, width: int | None = None) -> None:
    """Print ``tables`` in ``fmt`` (see the module docstring).  ``width``: the terminal's
    columns, or None for plain rows (default: from ``stream``)."""
    stream = stream or sys.stdout
    if fmt == "json":
        data = [{"title": t.title, "rows": [dict(zip([c.name for c in t.columns], r,
                                                      strict=True)) for r in t.rows]}
                for t in tables]
        stream.write(json.dumps(data[0] if len(data) == 1 else data, indent=1) + "\n")
        return
    if fmt == "csv":
        for i, t in enumerate(tables):
            if i:
                stream.write("\n")
            w = csv.writer(stream, lineterminator="\n")
            w.writerow([c.name for c in t.columns])
            w.writerows([["" if v is None else v for v in r] for r in t.rows])
        return
    if fmt == "markdown":
        for t in tables:
            stream.write(_markdown(t) + "\n")
        return
    if width is None and stream is not None:
        width = terminal_width(stream)
    for t in tables:
        if width is None:
            stream.write(_plain(t) + "\n")
        else:
            console = Console(file=stream, width=max(width, _natural_width(t)) if wide
                              else width, highlight=False)
            for part in _stacked(t, None if wide else width):
                console.print(part)


def _widths(t: Tabular) -> list[int]:
    return [max([len(c.name)] + [len(t.text(r, i)) for r in range(len(t.rows))])
            for i, c in enumerate(t.columns)]


def _natural_width(t: Tabular, cols: list[int] | None = None) -> int:
    """Width of the rich table of columns ``cols`` (all): cells, padding and rules."""
    w = _widths(t)
    cols = range(len(t.columns)) if cols is None else cols
    return sum(w[i] + 3 for i in cols) + 1


def _stacked(t: Tabular, width: int | None) -> list[Table]:
    """The rich tables showing ``t`` within ``width`` columns (None: one table)."""
    keys = [i for i, c in enumerate(t.columns) if c.key]
    rest = [i for i, c in enumerate(t.columns) if not c.key]
    parts: list[list[int]] = []
    current: list[int] = []
    for i in rest:
        if width is not None and current and _natural_width(t, keys + current + [i]) > width:
            parts.append(current)
            current = []
        current.append(i)
    parts.append(current)
    w = _widths(t)
    out = []
    for k, part in enumerate(parts):
        title = t.title if k == 0 else "(continued)" if t.title else None
        table = Table(title=title, title_justify="left")
        for i in keys + part:
            c = t.columns[i]
            if c.number:
                table.add_column(c.name, justify="right", no_wrap=True, min_width=w[i])
            else:
                table.add_column(c.name, overflow="fold",
                                 min_width=min(w[i], max(len(c.name), 8)))
        for r in range(len(t.rows)):
            table.add_row(*[t.text(r, i) for i in keys + part],
                          style="bold" if r in t.bold_rows else None)
        out.append(table)
    return out


def _plain(t: Tabular) -> str:
    """Aligned rows without box drawing, one line each, for files and pipes."""
    w = _widths(t)

    def line(cells: list[str]) -> str:
        return "  ".join(s.rjust(w[i]) if t.columns[i].number else s.ljust(w[i])
                         for i, s in enumerate(cells)).rstrip()
    lines = [t.title] if t.title else []
    lines.append(line([c.name for c in t.columns]))
    lines += [line([t.text(r, i) for i in range(len(t.columns))]) for r in range(len(t.rows))]
    return "\n".join(lines)


def _markdown(t: Tabular) -> str:
    out = io.StringIO()
    if t.title:
        out.write(f"**{t.title}**\n\n")
    out.write("| " + " | ".join(c.name for c in t.columns) + " |\n")
    out.write("|" + "|".join("---:" if c.number else "---" for c in t.columns) + "|\n")
    for r in range(len(t.rows)):
        out.write("| " + " | ".join(t.text(r, i).replace("|", "\\|")
                                    for i in range(len(t.columns))) + " |\n")
    return out.getvalue()


def console(stderr: bool = False) -> Console:
    """A rich console for messages and the views not yet described as ``Tabular``: at a
    terminal its width, piped wide enough that numbers are not cut."""
    stream = sys.stderr if stderr else sys.stdout
    return Console(stderr=stderr, width=None if stream.isatty() else 200)


def per_core_table(result: RunResult, title: str | None = None) -> Tabular:
    """Cycles, instructions, IPC and every non-empty stall category, one row per core."""
    shown = [i for i, name in enumerate(result.category_names)
             if name != "instr" and result.categories[:, i].any()]
    table = Tabular(title or f"isasim run: {result.status}, {result.total_cycles:,} cycles",
                    [Column("core", number=True, key=True), Column("cycles", number=True),
                     Column("instr", number=True), Column("IPC", number=True, digits=2)]
                    + [Column(result.category_names[i], number=True) for i in shown])
    for c in range(result.ncores):
        cyc = int(result.cycles[c])
        ins = int(result.instret[c])
        table.add(c, cyc, ins, ins / cyc if cyc else None,
                  *[int(result.categories[c, i]) for i in shown])
    return table


class StatusLine:
    """A live ``cycle, instructions, MIPS`` line on stderr while a run takes longer than
    ``delay`` seconds, at a terminal only; called between the run's slices."""

    def __init__(self, what: str = "running", delay: float = 2.0) -> None:
        self.what = what
        self.delay = delay
        self.started = time.perf_counter()
        self.enabled = sys.stderr.isatty()
        self._live: Live | None = None

    def __call__(self, cycle: int, instructions: int) -> None:
        elapsed = time.perf_counter() - self.started
        if not self.enabled or elapsed < self.delay:
            return
        if self._live is None:
            self._live = Live(console=Console(stderr=True), transient=True, auto_refresh=False)
            self._live.start()
        self._live.update(Text(f"{self.what}: cycle {cycle:,}, {instructions / 1e6:,.1f} M "
                               f"instructions, {instructions / elapsed / 1e6:.1f} MIPS, "
                               f"{elapsed:.0f} s", style="dim", no_wrap=True, overflow="crop"),
                          refresh=True)

    def close(self) -> None:
        if self._live is not None:
            self._live.stop()
            self._live = None


@contextmanager
def notice_if_slow(message: str, after: float = 1.0) -> Iterator[None]:
    """Print ``message`` on stderr if the block is still running after ``after`` seconds (a
    compile that is cached usually is not), and how long it took."""
    started = time.perf_counter()
    shown = threading.Event()

    def say() -> None:
        shown.set()
        print(message, file=sys.stderr, flush=True)
    timer = threading.Timer(after, say)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        if shown.is_set():
            print(f"  done in {time.perf_counter() - started:.0f} s", file=sys.stderr)


_CONTROL = {c: f"\\x{c:02x}" for c in [*range(0x20), 0x7F] if c not in (0x09, 0x0A)}
_CONTROL.update({c: f"\\x{c:02x}" for c in range(0x80, 0xA0)})     # C1 controls


def printable(text: str) -> str:
    """``text`` with control characters (but tab and newline) shown as ``\\xNN``: a message
    that echoes a binary file's bytes must not move the cursor or recolour the terminal."""
    return text.translate(_CONTROL)
