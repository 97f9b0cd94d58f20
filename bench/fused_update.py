"""Cycles of the reordered order's fused weight-gradient/update phases: tiled as their weight
gradient, and with their own tuned ``wg+update`` choice-table entry, in one deployed program
each.

For every model: ``trainlib tune`` (its cache makes a rerun cheap) gives the choice table;
``trainlib deploy --order reordered`` builds the program once from the table without its
``wg+update`` entries (the fused phases tiled as their weight gradients, what a table tuned
before those entries existed does) and once from the whole table; both run ``--steps`` steps on
the simulator.  Per fused phase, the tiling and the cycles of the last step in either program
(``__deploy_stamps``), the whole step's cycles, and whether the two programs' losses and final
parameters are bit-identical (only the tiling differs: they must be).

Usage: python bench/fused_update.py [MODEL.toml ...] [--memory l2|auto] [--steps 2]
                                    [--cores 8] [--config pulp-open]
(default: the example models that deploy reordered with fused phases).  Exit status 1 when
the two programs of a model differ in a loss or a parameter bit.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

from trainlib.choices import FUSED_STEP, ChoiceTable
from trainlib.deploy import DeployRun, deploy, run_deployed
from trainlib.memplan import Phase
from trainlib.model import Model
from trainlib.tune.tuner import TuneOptions, tune_model

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
MODELS = ("ds_cnn_kws", "ds_cnn_kws_fp16", "resnet8_like", "resnet8_like_fp16",
          "pulp_trainlib_net0")


def tiling(ph: Phase) -> str:
    p = ph.plan
    return f"{p.tiles}x{p.tiling.tile}" + (" db" if p.tiling.double_buffer and p.tiles > 1
                                           else "")


def same_bits(a: DeployRun, b: DeployRun) -> bool:
    return a.loss_bits == b.loss_bits and all(
        np.array_equal(np.asarray(a.params[la][p]).view(np.uint8),
                       np.asarray(b.params[la][p]).view(np.uint8))
        for la in a.params for p in a.params[la])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("models", nargs="*", type=Path, help="model files (default: examples)")
    ap.add_argument("--memory", choices=("l2", "auto"), default="l2")
    ap.add_argument("--steps", type=int, default=2)
    ap.add_argument("--cores", type=int, default=8)
    ap.add_argument("--config", default="pulp-open")
    args = ap.parse_args()
    console = Console(width=None if sys.stdout.isatty() else 160)
    paths = args.models or [EXAMPLES / f"{m}.toml" for m in MODELS]
    t = Table(title=f"fused wg+update phases, reordered updates, memory {args.memory}, "
                    f"{args.cores} cores ({args.config}): cycles of step {args.steps}")
    for col in ("model", "phase", "as its wg", "cycles", "own entry", "cycles ", "change"):
        t.add_column(col, justify="right" if col.startswith(("cycles", "change")) else "left")
    failed = False
    for path in paths:
        model = Model.load(path)
        table = tune_model(model, TuneOptions(cores=args.cores, config=args.config)
                           ).choice_table()
        as_wg = ChoiceTable({k: c for k, c in table.entries.items() if k[1] != FUSED_STEP})
        deps = [deploy(model, args.steps, cores=args.cores, config=args.config,
                       memory=None if args.memory == "auto" else args.memory,
                       order="reordered", choices=c) for c in (as_wg, table)]
        (d0, r0), (d1, r1) = [(d, run_deployed(d)) for d in deps]
        c0, c1 = r0.phase_cycles()[-1], r1.phase_cycles()[-1]
        for i, (p0, p1) in enumerate(zip(d0.plan.phases, d1.plan.phases, strict=True)):
            if p0.work.kind == "wg+update":
                t.add_row(model.name, p0.title, tiling(p0), f"{c0[i]:,}", tiling(p1),
                          f"{c1[i]:,}", f"{100 * (c1[i] - c0[i]) / c0[i]:+.1f} %")
        s0, s1 = int(r0.step_cycles()[-1]), int(r1.step_cycles()[-1])
        same = same_bits(r0, r1)
        failed |= not same
        t.add_row(model.name, f"whole step ({d1.plan.memory})", "", f"{s0:,}", "",
                  f"{s1:,}", f"{100 * (s1 - s0) / s0:+.1f} %"
                  + ("" if same else " NOT BIT-IDENTICAL"), end_section=True)
    console.print(t)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
