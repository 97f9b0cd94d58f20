"""Terminal tables (rich) for run results."""

from __future__ import annotations

import sys

from rich.console import Console
from rich.table import Table

from isasim.result import RunResult

PIPE_WIDTH = 200     # columns when the output is not a terminal (a file, a pipe, CI logs)


def console(stderr: bool = False) -> Console:
    """A rich console that never truncates numbers in wide tables when its output is piped:
    rich assumes 80 columns without a terminal, and a cut-off cycle count is worse than a
    long line."""
    stream = sys.stderr if stderr else sys.stdout
    return Console(stderr=stderr, width=None if stream.isatty() else PIPE_WIDTH)


def per_core_table(result: RunResult, title: str | None = None) -> Table:
    """Cycles, instructions, IPC and every non-empty stall category, one row per core."""
    shown = [i for i, name in enumerate(result.category_names)
             if name != "instr" and result.categories[:, i].any()]
    table = Table(title=title or f"isasim run: {result.status}, {result.total_cycles} cycles")
    table.add_column("core", justify="right")
    table.add_column("cycles", justify="right")
    table.add_column("instr", justify="right")
    table.add_column("IPC", justify="right")
    for i in shown:
        table.add_column(result.category_names[i], justify="right")
    for c in range(result.ncores):
        cyc = int(result.cycles[c])
        ins = int(result.instret[c])
        row = [str(c), f"{cyc:,}", f"{ins:,}", f"{ins / cyc:.2f}" if cyc else "-"]
        row += [f"{int(result.categories[c, i]):,}" for i in shown]
        table.add_row(*row)
    return table
