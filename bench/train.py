"""Cycles per training step and MAC/cycle of the example models on the simulated cluster.

Each model in ``examples/*.toml`` trains ``--steps`` steps (one sample, PULP-TrainLib's online
setting) with the default kernels (PULP-TrainLib's one-size-fits-all naive matmuls and mm_dw),
checked against the golden model; the last step's cycles and MACs are reported.  A choice table
per model (``--choices net0=path.toml``, e.g. the autotuner's output) adds a tuned column.

Usage: python bench/train.py [--steps 1] [--cores 8] [--config pulp-open] [--layers]
                             [--choices MODEL=TABLE ...] [--json out.json]
Exit status 1 when a model's training does not match its golden model.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from trainlib.choices import ChoiceTable
from trainlib.cli import matches
from trainlib.model import Model
from trainlib.report import step_table
from trainlib.train import TrainResult, train

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(model: Model, steps: int, cores: int, config: str,
        choices: ChoiceTable | None) -> tuple[TrainResult, float]:
    t0 = time.perf_counter()
    res = train(model, steps, cores=cores, config=config, choices=choices)
    return res, time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=1)
    ap.add_argument("--cores", type=int, default=8)
    ap.add_argument("--config", default="pulp-open")
    ap.add_argument("--layers", action="store_true", help="also print the per-layer tables")
    ap.add_argument("--choices", nargs="*", default=[], metavar="MODEL=TABLE",
                    help="choice table for a model (stem of its example file)")
    ap.add_argument("--json", help="write the numbers here")
    args = ap.parse_args()
    tables = dict(c.split("=", 1) for c in args.choices)
    console = Console(width=None if sys.stdout.isatty() else 220)
    summary = Table(title=f"training step on {args.cores} cores ({args.config}), "
                          f"after {args.steps} step(s)")
    for col in ("model", "memory", "MACs/step", "cycles/step (default)", "MAC/cycle (default)",
                "cycles/step (tuned)", "MAC/cycle (tuned)", "golden", "host s"):
        summary.add_column(col, justify="right" if col != "model" else "left")
    out, failed = {}, False
    for path in sorted(EXAMPLES.glob("*.toml")):
        model = Model.load(path)
        res, secs = run(model, args.steps, args.cores, args.config, None)
        bad = matches(res)
        failed |= bool(bad)
        cyc, macs = res.cycles_per_step()[-1], res.macs_per_step()
        row = {"memory": res.plan.memory, "macs": macs, "cycles": cyc,
               "mac_per_cycle": macs / cyc, "golden_match": not bad, "host_seconds": secs}
        tuned = ["-", "-"]
        if path.stem in tables:
            tres, _ = run(model, args.steps, args.cores, args.config,
                          ChoiceTable.load(tables[path.stem]))
            tcyc = tres.cycles_per_step()[-1]
            tuned = [f"{tcyc:,}", f"{macs / tcyc:.2f}"]
            row.update(tuned_cycles=tcyc, tuned_mac_per_cycle=macs / tcyc)
            failed |= bool(matches(tres))
        summary.add_row(model.name, res.plan.memory, f"{macs:,}", f"{cyc:,}",
                        f"{macs / cyc:.2f}", *tuned, "match" if not bad else "MISMATCH",
                        f"{secs:.0f}")
        out[model.name] = row
        if args.layers:
            console.print(step_table(res.stats[-1], res.last_runs[0].result.category_names,
                                     f"{model.name}: default kernels"))
    console.print(summary)
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
