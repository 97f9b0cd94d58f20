"""Peak memory and cycles per training step of the deployed program, per update form.

For every example model (``examples/*.toml``): the whole-step memory plan
(``trainlib.memplan``) under the conventional update order (all gradients, then all updates),
the reordered one (each layer's weight gradient fused with its in-place update), and the sparse
forms (a fraction of the output channels, bias only, only the last k updated layers) with
either order; for each, the peak TCDM (L1) and L2 bytes, the change of the total peak against
the conventional plan, and the cycles of one training step of the deployed program run on the
simulator (``--steps``; its first loss checked against the golden model in the same form).

Usage: python bench/memory.py [--steps 1] [--cores 8] [--config pulp-open] [--no-run]
                              [--json out.json]
Exit status 1 when the reordered plan raises the peak of some model, or a deployed loss misses
the golden model (within ``trainlib.cli.rtol`` of the model's least precise format).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

from trainlib import golden
from trainlib.cli import rtol
from trainlib.deploy import deploy, deploy_config, run_deployed
from trainlib.memplan import ORDERS, plan_memory, sparse_forms
from trainlib.model import Model

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def forms(model: Model) -> list[tuple[str, Model, str]]:
    out = [("full update", model, order) for order in ORDERS]
    for label, m in sparse_forms(model):
        out += [(label, m, order) for order in ORDERS]
    return out


def golden_losses(model: Model, steps: int) -> list[float]:
    x, t = model.sample()
    p = model.initial_params()
    out = []
    for _ in range(steps):
        # summing in binary32 where the 16-bit kernels do (vfdotpex), as trainlib train checks
        loss, p = golden.train_step(model, p, x, t, wide_acc=True)
        out.append(loss)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=1)
    ap.add_argument("--cores", type=int, default=8)
    ap.add_argument("--config", default="pulp-open")
    ap.add_argument("--no-run", action="store_true", help="plans only, no simulation")
    ap.add_argument("--json", help="write the numbers here")
    args = ap.parse_args()
    cfg = deploy_config(args.config, args.cores)
    console = Console(width=None if sys.stdout.isatty() else 200)
    failed, out = False, {}
    for path in sorted(EXAMPLES.glob("*.toml")):
        base = Model.load(path)
        t = Table(title=f"{base.name}: whole-step memory per update form "
                        f"({args.cores} cores, {args.config}; peaks in bytes)")
        for col in ("form", "order", "tensors", "peak L1", "peak L2", "L1 + L2",
                    "vs conventional", "cycles/step", "golden", "host s"):
            t.add_column(col, justify="left" if col in ("form", "order", "tensors")
                         else "right")
        ref = None
        rows = []
        for label, m, order in forms(base):
            plan = plan_memory(m, cfg, None, order)
            total = plan.l1_peak + plan.l2_peak
            ref = total if ref is None else ref
            row = {"form": label, "order": order, "memory": plan.memory,
                   "l1": plan.l1_peak, "l2": plan.l2_peak, "total": total}
            cells = ["-", "-", "-"]
            if not args.no_run:
                t0 = time.perf_counter()
                run = run_deployed(deploy(m, args.steps, config=cfg, order=order))
                secs = time.perf_counter() - t0
                tol = max(rtol(f) for f in m.precisions)     # the model's least precise format
                ok = bool(np.allclose(run.losses, golden_losses(m, args.steps), rtol=tol))
                failed |= not ok
                cyc = int(run.step_cycles()[-1])
                cells = [f"{cyc:,}", "match" if ok else "MISMATCH", f"{secs:.1f}"]
                row.update(cycles=cyc, golden_match=ok, host_seconds=secs)
            change = 100.0 * (total - ref) / ref
            t.add_row(label, order, plan.memory, f"{plan.l1_peak:,}", f"{plan.l2_peak:,}",
                      f"{total:,}", f"{change:+.1f} %", *cells)
            rows.append(row)
        conv, reord = rows[0]["total"], rows[1]["total"]
        if reord > conv:
            failed = True
            console.print(f"[red]{base.name}: the reordered plan raises the peak "
                          f"({reord:,} vs {conv:,} bytes)[/red]")
        elif reord == conv:
            console.print(f"{base.name}: the reordered plan has the same peak ({conv:,} bytes)")
        console.print(t)
        console.print(f"{base.name}: reordered updates lower the peak from {conv:,} to "
                      f"{reord:,} bytes ({100.0 * (conv - reord) / conv:.1f} % less)",
                      highlight=False)
        out[base.name] = rows
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
