"""Terminal report of a saved run (``isasim report run.json``), with rich.

Three tables: the stall breakdown (cycles per category per core, with shares), the hot spots
(instructions with the most cycles and why), and the worst (instruction, bank) conflict pairs.
The pairs need the run's event log; without one the report says how to get it and shows the
per-bank totals the run result does have.
"""

from __future__ import annotations

import numpy as np
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from isasim import layout as L
from isasim.result import RunResult
from traces.eventlog import EventLog
from traces.events import conflict_pairs
from traces.symbols import function_of_pcs


def stall_table(result: RunResult) -> Table:
    """Cycles per category per core, each with its share of the core's cycles."""
    shown = [k for k in range(L.NCAT) if result.categories[:, k].any()]
    t = Table(title=f"stall breakdown: {result.status}, {result.total_cycles:,} cycles, "
                    f"{result.ncores} cores")
    t.add_column("core", justify="right")
    t.add_column("cycles", justify="right")
    t.add_column("IPC", justify="right")
    for k in shown:
        t.add_column(L.CATEGORIES[k], justify="right")
    for c in range(result.ncores):
        cyc = int(result.cycles[c])
        row = [str(c), f"{cyc:,}", f"{int(result.instret[c]) / cyc:.2f}" if cyc else "-"]
        row += [_share(int(result.categories[c, k]), cyc) for k in shown]
        t.add_row(*row)
    tot = int(result.cycles.sum())
    t.add_row("all", f"{tot:,}", "", *[_share(int(result.categories[:, k].sum()), tot)
                                       for k in shown], style="bold")
    return t


def _share(v: int, total: int) -> str:
    return f"{v:,} ({100 * v / total:.0f}%)" if v and total else "0"


def _functions(result: RunResult, log: EventLog | None) -> list[str]:
    pcs = result.profile_pc.tolist()
    if log is not None and log.code.slot_pc == pcs:
        return [log.code.function(i) for i in range(len(pcs))]
    return function_of_pcs(result.symbols, pcs)


def hot_spot_table(result: RunResult, log: EventLog | None, top: int) -> Table:
    functions = _functions(result, log)
    index = {pc: i for i, pc in enumerate(result.profile_pc.tolist())}
    all_cycles = int(result.cycles.sum())
    t = Table(title=f"top {top} hot spots (all cores)")
    for name, justify in (("pc", "left"), ("function", "left"), ("instruction", "left"),
                          ("cycles", "right"), ("%", "right"), ("issued", "right"),
                          ("stall cycles by reason", "left")):
        t.add_column(name, justify=justify)
    for h in result.hot_spots(top):
        stalls = ", ".join(f"{k} {v:,}" for k, v in sorted(h["stalls"].items(),
                                                          key=lambda kv: -kv[1]))
        t.add_row(f"{h['pc']:#010x}", functions[index[h["pc"]]], h["text"], f"{h['cycles']:,}",
                  f"{100 * h['cycles'] / all_cycles:.1f}" if all_cycles else "-",
                  f"{h['count']:,}", stalls)
    return t


def pairs_table(log: EventLog, top: int) -> Table:
    """The (instruction, bank) pairs that lost the most cycles to conflicts."""
    pairs = conflict_pairs(log)
    total = int(pairs.sum())
    t = Table(title=f"top conflicting (pc, bank) pairs ({total:,} conflict cycles)")
    for name, justify in (("pc", "left"), ("function", "left"), ("instruction", "left"),
                          ("bank", "right"), ("cycles", "right"), ("% of conflicts", "right")):
        t.add_column(name, justify=justify)
    for k in np.argsort(-pairs, axis=None, kind="stable")[:top]:
        slot, bank = divmod(int(k), pairs.shape[1])
        v = int(pairs[slot, bank])
        if not v:
            break
        t.add_row(f"{log.code.slot_pc[slot]:#010x}", log.code.function(slot),
                  log.code.slot_text[slot], str(bank), f"{v:,}", f"{100 * v / total:.1f}")
    return t


def bank_table(result: RunResult) -> Table:
    """Conflict cycles per victim core and bank (what a run result has without a log)."""
    t = Table(title="conflict cycles per bank (victim core x bank)")
    t.add_column("core", justify="right")
    for b in range(result.conflicts.shape[1]):
        t.add_column(str(b), justify="right")
    for c, row in enumerate(result.conflicts):
        t.add_row(str(c), *[f"{int(v):,}" for v in row])
    t.add_row("all", *[f"{int(v):,}" for v in result.conflicts.sum(axis=0)], style="bold")
    return t


def print_report(result: RunResult, log: EventLog | None, console: Console,
                 top: int = 10, log_note: str | None = None) -> None:
    """Print the three sections; ``log_note`` explains a missing event log."""
    parts = [stall_table(result), hot_spot_table(result, log, top)]
    if log is not None:
        parts.append(pairs_table(log, top))
    else:
        if result.conflicts.any():
            parts.append(bank_table(result))
        parts.append(Text(log_note or "no event log for this run", style="yellow"))
    console.print(Group(*parts))
