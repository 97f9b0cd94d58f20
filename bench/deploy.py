"""Cycles of one deployed training step beside the sum of the step-by-step runs, by category.

``trainlib train`` runs every phase of a step as its own program (the host passes the tensors
between them); ``trainlib deploy`` runs them all in one program.  For every example model
(and the update order of ``--order``) this prints the cycles of one step both ways and where
the difference goes: per stall category, the core-cycles of the deployed program's run (one
step) minus those of all the separate runs, and divided by the core count the cluster cycles
they stand for.  The deployed program pays, per phase, the copy of its argument block from L2
into TCDM (a DMA transfer, core 0 waiting for it: ``dma_wait`` on core 0, ``barrier`` on the
others), one more barrier, the call and the bookkeeping of the phase (``instr``, ``ext_mem``
for its stores to L2); the separate runs pay each program's start and exit instead.

16-bit and mixed-precision models run the same work items both ways (16-bit kernels, the
conversions between formats, master-weight updates); a phase that pads matmul rows also copies
its zero constant into TCDM with its arguments, which a separate run gets written by the host.
A summary table closes the run: per model its precisions and the cycles per step both ways.

Usage: python bench/deploy.py [MODEL.toml ...] [--order conventional|reordered] [--cores 8]
                              [--config ...] [--stack 512]
(default: every model in examples/).  Exit status 1 when the deployed losses differ from the
step-by-step ones.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

from isasim.layout import CATEGORIES
from trainlib.deploy import deploy, deploy_config, run_deployed
from trainlib.driver import STACK_BYTES
from trainlib.memplan import ORDERS, plan_memory
from trainlib.model import Model
from trainlib.train import train

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def auto_plan_memory(model: Model, cfg, args) -> str:
    """How the whole-step plan places the tensors (tcdm, l2 or mixed)."""
    return plan_memory(model, cfg, None, args.order).memory


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("models", nargs="*", type=Path, help="model files (default: examples/)")
    ap.add_argument("--order", choices=ORDERS, default="conventional")
    ap.add_argument("--cores", type=int, default=8)
    ap.add_argument("--config", default="pulp-open")
    ap.add_argument("--stack", type=int, default=STACK_BYTES,
                    help="stack bytes per core of the deployed program")
    args = ap.parse_args()
    cfg = deploy_config(args.config, args.cores).replace(stack_size=args.stack)
    console = Console(width=None if sys.stdout.isatty() else 160)
    failed = False
    summary = Table(title=f"cycles per training step: separate step runs (trainlib train) vs "
                          f"one deployed program ({args.order} updates, {args.cores} cores, "
                          f"{args.stack} B stacks)")
    for col in ("model", "precision", "phases", "separate runs", "deployed", "vs separate",
                "whole-step plan", "cycles", "vs separate ", "losses equal"):
        summary.add_column(col, justify="left" if col in ("model", "precision",
                                                           "whole-step plan") else "right")
    for path in args.models or sorted(EXAMPLES.glob("*.toml")):
        model = Model.load(path)
        res = train(model, 1, cores=args.cores, config=args.config)
        dep = deploy(model, 1, config=cfg, order=args.order, memory=res.plan.memory)
        run = run_deployed(dep)
        auto = run_deployed(deploy(model, 1, config=cfg, order=args.order))
        same = np.array_equal(np.float32(run.losses), np.float32(res.losses))
        failed |= not same
        separate = int(res.cycles_per_step()[0])
        auto_cyc, auto_mem = int(auto.step_cycles()[0]), auto_plan_memory(model, cfg, args)
        deployed = int(run.step_cycles()[0])
        whole = int(run.result.total_cycles)
        cat_sep = np.sum([s.categories for s in res.stats[0]], axis=0)
        cat_dep = run.result.categories.sum(axis=0)
        n_sep, n_ph = len(res.stats[0]), len(dep.plan.phases)
        t = Table(title=f"{model.name}: one training step, {n_sep} separate runs vs one "
                        f"deployed program ({n_ph} phases, {args.order} updates)")
        for col in ("category", "separate runs (core-cycles)", "deployed (core-cycles)",
                    "difference", "= cluster cycles"):
            t.add_column(col, justify="left" if col == "category" else "right")
        for i, name in enumerate(CATEGORIES):
            a, b = int(cat_sep[i]), int(cat_dep[i])
            if a or b:
                t.add_row(name, f"{a:,}", f"{b:,}", f"{b - a:+,}",
                          f"{(b - a) / args.cores:+,.0f}")
        a, b = int(cat_sep.sum()), int(cat_dep.sum())
        t.add_row("total", f"{a:,}", f"{b:,}", f"{b - a:+,}", f"{(b - a) / args.cores:+,.0f}",
                  style="bold")
        console.print(t)
        console.print(
            f"{model.name}: step cycles {separate:,} as separate runs (their sum), {deployed:,} "
            f"deployed ({deployed - separate:+,}, {100 * (deployed - separate) / separate:+.1f}"
            f" %; {(deployed - separate) / n_ph:+,.0f} per phase); the deployed run takes "
            f"{whole:,} cycles with its start and exit; planned as a whole step ({auto_mem}) "
            f"it takes {auto_cyc:,} ({100 * (auto_cyc - separate) / separate:+.1f} %)",
            highlight=False)
        tilings = sum(a.plan != b.plan.describe() for a, b in zip(res.stats[0], dep.plan.phases,
                                                                 strict=False))
        if tilings:
            console.print(f"  ({tilings} phase(s) planned differently from the step runs)")
        summary.add_row(model.name, "+".join(sorted(model.precisions)), str(n_ph),
                        f"{separate:,}", f"{deployed:,}",
                        f"{100 * (deployed - separate) / separate:+.1f} %", auto_mem,
                        f"{auto_cyc:,}", f"{100 * (auto_cyc - separate) / separate:+.1f} %",
                        "yes" if same else "NO")
    console.print(summary)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
