"""Terminal report of a saved run (``isasim report run.json``), with rich.

Three tables: the stall breakdown (cycles per category per core, with shares), the hot spots
(instructions with the most cycles, why, and their instruction-cache misses), and the worst
(instruction, bank) conflict pairs.
The pairs need the run's event log; without one the report says how to get it and shows the
per-bank totals the run result does have.
"""

from __future__ import annotations

import numpy as np

from isasim import layout as L
from isasim.result import RunResult
from traces.eventlog import EventLog
from traces.events import conflict_pairs
from traces.symbols import function_of_pcs
from traces.term import Column, Tabular


def stall_table(result: RunResult) -> Tabular:
    """Cycles per category per core, each with its share of the core's cycles."""
    shown = [k for k in range(L.NCAT) if result.categories[:, k].any()]
    t = Tabular(f"stall breakdown: {result.status}, {result.total_cycles:,} cycles, "
                f"{result.ncores} cores",
                [Column("core", key=True), Column("cycles", number=True),
                 Column("IPC", number=True, digits=2)]
                + [Column(L.CATEGORIES[k], number=True) for k in shown])
    for c in range(result.ncores):
        cyc = int(result.cycles[c])
        t.add(str(c), cyc, int(result.instret[c]) / cyc if cyc else None,
              *[_share(int(result.categories[c, k]), cyc) for k in shown])
    tot = int(result.cycles.sum())
    t.add("all", tot, None, *[_share(int(result.categories[:, k].sum()), tot) for k in shown],
          bold=True)
    return t


def _share(v: int, total: int) -> str:
    return f"{v:,} ({100 * v / total:.0f}%)" if v and total else "0"


def _functions(result: RunResult, log: EventLog | None) -> list[str]:
    pcs = result.profile_pc.tolist()
    if log is not None and log.code.slot_pc == pcs:
        return [log.code.function(i) for i in range(len(pcs))]
    return function_of_pcs(result.symbols, pcs)


def hot_spot_table(result: RunResult, log: EventLog | None, top: int) -> Tabular:
    functions = _functions(result, log)
    index = {pc: i for i, pc in enumerate(result.profile_pc.tolist())}
    all_cycles = int(result.cycles.sum())
    t = Tabular(f"top {top} hot spots (all cores)",
                [Column("pc", key=True), Column("function"), Column("instruction"),
                 Column("cycles", number=True), Column("%", number=True, digits=1),
                 Column("issued", number=True), Column("icache misses", number=True),
                 Column("stall cycles by reason")])
    for h in result.hot_spots(top):
        stalls = ", ".join(f"{k} {v:,}" for k, v in sorted(h["stalls"].items(),
                                                          key=lambda kv: -kv[1]))
        t.add(f"{h['pc']:#010x}", functions[index[h["pc"]]], h["text"], h["cycles"],
              100 * h["cycles"] / all_cycles if all_cycles else None, h["count"], h["imiss"],
              stalls)
    return t


def pairs_table(log: EventLog, top: int) -> Tabular:
    """The (instruction, bank) pairs that lost the most cycles to conflicts."""
    pairs = conflict_pairs(log)
    total = int(pairs.sum())
    t = Tabular(f"top conflicting (pc, bank) pairs ({total:,} conflict cycles)",
                [Column("pc", key=True), Column("function"), Column("instruction"),
                 Column("bank", number=True), Column("cycles", number=True),
                 Column("% of conflicts", number=True, digits=1)])
    for k in np.argsort(-pairs, axis=None, kind="stable")[:top]:
        slot, bank = divmod(int(k), pairs.shape[1])
        v = int(pairs[slot, bank])
        if not v:
            break
        t.add(f"{log.code.slot_pc[slot]:#010x}", log.code.function(slot),
              log.code.slot_text[slot], bank, v, 100 * v / total)
    return t


def bank_table(result: RunResult) -> Tabular:
    """Conflict cycles per victim core and bank (what a run result has without a log)."""
    t = Tabular("conflict cycles per bank (victim core x bank)",
                [Column("core", key=True)]
                + [Column(str(b), number=True) for b in range(result.conflicts.shape[1])])
    for c, row in enumerate(result.conflicts):
        t.add(str(c), *[int(v) for v in row])
    t.add("all", *[int(v) for v in result.conflicts.sum(axis=0)], bold=True)
    return t


def report_tables(result: RunResult, log: EventLog | None, top: int = 10) -> list[Tabular]:
    """The report's tables: stalls, hot spots, then the conflict pairs (or, without an event
    log, the per-bank totals when there were conflicts)."""
    tables = [stall_table(result), hot_spot_table(result, log, top)]
    if log is not None:
        tables.append(pairs_table(log, top))
    elif result.conflicts.any():
        tables.append(bank_table(result))
    return tables
