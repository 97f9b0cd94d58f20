"""What a training run shows: the per-layer, per-step table (rich) and the HTML report.

The table has one row per simulated step run of a training step: the kernel, how it ran (plan),
cycles, useful MACs and MAC/cycle, then where the core-cycles went (share of all cores' cycles
per stall category, only categories that occurred), and the cluster cycles of each phase (the
im2row, the matmul, the bias, the DMA waits) from the driver's time stamps.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from rich.table import Table

from isasim.result import RunResult
from trainlib.train import StepStat

SHORT = {"instr": "instr", "load_use": "ld-use", "tcdm_conflict": "tcdm", "ext_mem": "L2",
         "branch": "branch", "jump": "jump", "fpu_dep": "fpu-dep", "fpu_struct": "fpu",
         "muldiv": "muldiv", "misaligned": "misal", "barrier": "barrier", "dma_wait": "dma",
         "idle": "idle"}


def step_table(stats: list[StepStat], names: tuple[str, ...], title: str) -> Table:
    """One row per step run; stall columns are % of all core-cycles of that run."""
    cats = np.stack([s.categories for s in stats])
    shown = [i for i in range(len(names)) if cats[:, i].any()]
    t = Table(title=title)
    for col in ("layer", "step", "kernel", "plan"):
        t.add_column(col, overflow="fold")
    for col in ("cycles", "MACs", "MAC/cyc"):
        t.add_column(col, justify="right")
    for i in shown:
        t.add_column(SHORT.get(names[i], names[i]) + " %", justify="right")
    t.add_column("phases (cycles)", overflow="fold")
    for s in stats:
        total = int(s.categories.sum()) or 1
        row = [s.layer, s.step, s.kernel or "-", _short_plan(s.plan), f"{s.cycles:,}",
               f"{s.macs:,}" if s.macs else "-", f"{s.mac_per_cycle:.2f}" if s.macs else "-"]
        row += [f"{100 * s.categories[i] / total:.0f}" for i in shown]
        row.append(" ".join(f"{k}={v:,}" for k, v in s.phases.items()))
        t.add_row(*row)
    cyc = sum(s.cycles for s in stats)
    macs = sum(s.macs for s in stats)
    tot = cats.sum(axis=0)
    row = ["total", "", "", "", f"{cyc:,}", f"{macs:,}", f"{macs / cyc:.2f}" if cyc else "-"]
    row += [f"{100 * tot[i] / max(1, tot.sum()):.0f}" for i in shown]
    t.add_row(*row, "", style="bold")
    return t


def _short_plan(plan: str) -> str:
    head = plan.split(";")[0]
    return head.replace("resident in TCDM", "TCDM").replace("from L2, ", "L2 ")


def write_report(result: RunResult, log, path: str | Path, title: str) -> str:
    """The traces package's HTML report of one run, or a message saying why there is none."""
    try:
        from traces.html import write_html
    except ImportError as e:
        return f"no HTML report: traces.html is not available ({e})"
    write_html(result, log, path, title)
    return f"HTML report of {title}: {path}"
