"""What a training run shows: the per-layer, per-step table (rich) and the HTML report.

The table has one row per simulated step run of a training step: the kernel, how it ran (plan),
cycles, useful MACs and MAC/cycle, then where the core-cycles went (share of all cores' cycles
per stall category, only categories that occurred), and the cluster cycles of each phase (the
im2row, the matmul, the bias, the DMA waits) from the driver's time stamps.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from isasim.result import RunResult
from traces.term import Column, Tabular
from trainlib.train import StepStat

SHORT = {"instr": "instr", "load_use": "ld-use", "tcdm_conflict": "tcdm", "ext_mem": "L2",
         "branch": "branch", "jump": "jump", "fpu_dep": "fpu-dep", "fpu_struct": "fpu",
         "muldiv": "muldiv", "misaligned": "misal", "barrier": "barrier", "dma_wait": "dma",
         "idle": "idle"}


def step_table(stats: list[StepStat], names: tuple[str, ...], title: str) -> Tabular:
    """One row per step run; stall columns are % of all core-cycles of that run."""
    cats = np.stack([s.categories for s in stats])
    shown = [i for i in range(len(names)) if cats[:, i].any()]
    t = Tabular(title, [Column("layer", key=True), Column("step", key=True), Column("kernel"),
                        Column("plan"), Column("cycles", number=True),
                        Column("MACs", number=True), Column("MAC/cyc", number=True, digits=2)]
                + [Column(SHORT.get(names[i], names[i]) + " %", number=True, digits=0)
                   for i in shown]
                + [Column("phases (cycles)")])
    for s in stats:
        total = int(s.categories.sum()) or 1
        t.add(s.layer, s.step, s.kernel or "-", _short_plan(s.plan), s.cycles,
              s.macs or None, s.mac_per_cycle if s.macs else None,
              *[100 * float(s.categories[i]) / total for i in shown],
              " ".join(f"{k}={v:,}" for k, v in s.phases.items()))
    cyc = sum(s.cycles for s in stats)
    macs = sum(s.macs for s in stats)
    tot = cats.sum(axis=0)
    t.add("total", "", "", "", cyc, macs, macs / cyc if cyc else None,
          *[100 * float(tot[i]) / max(1, int(tot.sum())) for i in shown], "", bold=True)
    return t


def _short_plan(plan: str) -> str:
    head = plan.split(";")[0]
    return head.replace("resident in TCDM", "TCDM").replace("from L2, ", "L2 ")


def write_report(runs: list[tuple[str, RunResult, object]], path: str | Path, title: str,
                 initial: int = 0) -> str:
    """The traces package's HTML report of the runs ``(label, result, event log)`` of a
    training step, one page with a selector, or a message saying why there is none."""
    try:
        from traces.html import write_html_runs
    except ImportError as e:
        return f"no HTML report: traces.html is not available ({e})"
    write_html_runs(runs, path, title, initial)
    return (f"HTML report of {title} ({len(runs)} layer steps, opening on "
            f"{runs[initial][0]}): {path}")
