"""Autotuner benchmark: tuning time, tuned vs fixed kernels per layer step, whole-model MAC/cycle.

For each example model (``examples/*.toml``):

1. tune with a cold cache (a fresh directory), then again warm (same directory): wall time,
   candidates measured / cached / pruned, the machine's load average around the runs;
2. measure every fixed kernel ("one-size-fits-all") at each step's reference tiling (the
   tuner's exhaustive kernel phase; what step 1 measured comes from the cache), and check that
   every tuned choice is at least as fast as every fixed kernel;
3. train one step with the default kernels and with the tuned choice table, both checked
   against the golden model: whole-model cycles and MAC/cycle.

The choice tables are written to ``--out-dir`` (``bench/train.py --choices MODEL=TABLE`` reads
them).  Usage: python bench/tune.py [--models net0,ds_cnn] [--workers 2] [--out-dir DIR]
[--json out.json].  Exit status 1 when a tuned choice loses to a fixed kernel or a training
step does not match its golden model.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from trainlib.choices import FUSED_STEP
from trainlib.cli import matches
from trainlib.model import Model
from trainlib.train import train
from trainlib.tune.cache import ResultCache
from trainlib.tune.search import SearchOptions
from trainlib.tune.tuner import TuneOptions, Tuning, tune_model

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def timed_tune(model: Model, opts: TuneOptions, cache: Path) -> tuple[Tuning, float, tuple]:
    load0 = os.getloadavg()[0]
    t0 = time.perf_counter()
    tuning = tune_model(model, opts, cache=ResultCache(cache))
    return tuning, time.perf_counter() - t0, (load0, os.getloadavg()[0])


def fixed_kernels(model: Model, opts: TuneOptions, cache: Path) -> dict:
    """(layer, step) -> {kernel: cycles} of every kernel at the reference tiling."""
    full = dataclasses.replace(opts, search=SearchOptions(exhaustive=True, top_kernels=0))
    sweep = tune_model(model, full, cache=ResultCache(cache))
    out = {}
    for s in sweep.steps:
        ref = s.search.reference
        out[(s.layer, s.step)] = {c.kernel: c.cycles for c in s.search.candidates
                                  if c.option == ref and c.result is not None and c.result.ok}
    return out


def one_size_fits_all(fixed: dict) -> tuple[str, int]:
    """The best single matmul kernel (and depthwise variant) used for every step."""
    mm = {k for v in fixed.values() for k in v if not k.startswith("mm_dw")}
    mm_steps = [v for v in fixed.values() if not any(k.startswith("mm_dw") for k in v)]
    dw_steps = [v for v in fixed.values() if any(k.startswith("mm_dw") for k in v)]
    best_mm = min(mm, key=lambda k: sum(v.get(k, 10**12) for v in mm_steps))
    total = sum(v[best_mm] for v in mm_steps)
    name = best_mm
    if dw_steps:
        suffixes = {k.replace("mm_dw_in_grad", "").replace("mm_dw", "")
                    for v in dw_steps for k in v}

        def dw_cost(sfx: str) -> int:
            return sum(min(c for k, c in v.items()
                           if k.replace("mm_dw_in_grad", "").replace("mm_dw", "") == sfx)
                       for v in dw_steps)
        sfx = min(suffixes, key=dw_cost)
        total += dw_cost(sfx)
        name += f" + mm_dw{sfx}"
    return name, total


def bench_model(path: Path, opts: TuneOptions, out_dir: Path, console: Console) -> dict:
    model = Model.load(path)
    with tempfile.TemporaryDirectory(prefix="tune-cache-") as tmp:
        cache = Path(tmp)
        cold, cold_s, cold_load = timed_tune(model, opts, cache)
        warm, warm_s, warm_load = timed_tune(model, opts, cache)
        fixed = fixed_kernels(model, opts, cache)
    table_path = out_dir / f"{path.stem}.choices.toml"
    table_path.write_text(cold.dumps())
    choices = cold.choice_table()
    t = Table(title=f"{model.name}: tuned vs fixed kernels, per layer step")
    for col in ("layer", "step", "default", "best fixed (at ref tiling)", "tuned",
                "cycles", "MAC/cyc", "vs default", "vs best fixed", "check"):
        t.add_column(col, justify="right" if col in ("cycles", "MAC/cyc", "vs default",
                                                     "vs best fixed") else "left")
    violations, rows = [], []
    for s in cold.steps:
        if s.step == FUSED_STEP:    # the weight gradient's kernel: bench/fused_update.py
            continue
        w = s.winner
        fx = fixed[(s.layer, s.step)]
        assert w is not None and w.result is not None and s.default is not None
        bk = min(fx, key=fx.get)
        ok = w.cycles <= min(fx.values())
        if not ok:
            violations.append(f"{s.layer} {s.step}")
        t.add_row(s.layer, s.step, f"{s.default.cycles:,} ({s.default.kernel})",
                  f"{fx[bk]:,} ({bk})", f"{w.kernel} @ {w.option.describe()}",
                  f"{w.cycles:,}", f"{w.result.mac_per_cycle:.2f}", f"{s.speedup:.2f}x",
                  f"{fx[bk] / w.cycles:.2f}x", "ok" if ok else "[red]LOSES[/red]")
        rows.append({"layer": s.layer, "step": s.step, "default": s.default.cycles,
                     "default_kernel": s.default.kernel, "best_fixed": fx[bk],
                     "best_fixed_kernel": bk, "tuned": w.cycles, "kernel": w.kernel,
                     "tile": w.option.run_tile, "mac_per_cycle": w.result.mac_per_cycle,
                     "speedup": s.speedup, "fixed": fx})
    console.print(t)
    osfa_name, osfa = one_size_fits_all(fixed)
    tuned_sum = sum(r["tuned"] for r in rows)
    default_sum = sum(r["default"] for r in rows)
    base = train(model, 1)
    tuned = train(model, 1, choices=choices)
    macs = base.macs_per_step()
    bc, tc = base.cycles_per_step()[-1], tuned.cycles_per_step()[-1]
    golden = not matches(base) and not matches(tuned)
    cands = sum(len(s.search.candidates) for s in cold.steps)
    pruned = sum(c.status == "pruned" for s in cold.steps for c in s.search.candidates)
    skipped = sum(c.status == "skipped" for s in cold.steps for c in s.search.candidates)
    lines = [
        f"tuning time: cold {cold_s:.1f} s ({cold.stats.measured} measured, {pruned} of "
        f"{cands} candidates pruned by their bound, {skipped} skipped by their estimate, load "
        f"average {cold_load[0]:.1f} -> {cold_load[1]:.1f}); "
        f"warm {warm_s:.1f} s ({warm.stats.measured} measured, {warm.stats.cached} cached)",
        f"tuned steps: default kernels {default_sum:,} cycles, best one-size-fits-all "
        f"({osfa_name}) {osfa:,}, tuned {tuned_sum:,}: {default_sum / tuned_sum:.2f}x over "
        f"default, {osfa / tuned_sum:.2f}x over one-size-fits-all; max per-step speed-up "
        f"{max(r['speedup'] for r in rows):.2f}x",
        f"training step ({macs:,} MACs): default {bc:,} cycles = {macs / bc:.2f} MAC/cycle, "
        f"tuned {tc:,} cycles = {macs / tc:.2f} MAC/cycle ({bc / tc:.2f}x); golden model "
        f"{'matches' if golden else 'MISMATCH'}",
        f"choice table: {table_path}",
    ]
    if violations:
        lines.append("TUNED LOSES TO A FIXED KERNEL: " + ", ".join(violations))
    for ln in lines:
        console.print(ln, highlight=False, soft_wrap=True)
    return {"model": model.name, "steps": rows, "cold_seconds": cold_s,
            "warm_seconds": warm_s, "cold_load": cold_load, "warm_load": warm_load,
            "measured": cold.stats.measured, "pruned": pruned, "skipped": skipped,
            "candidates": cands,
            "one_size_fits_all": {"kernels": osfa_name, "cycles": osfa},
            "tuned_steps_cycles": tuned_sum, "default_steps_cycles": default_sum,
            "train": {"macs": macs, "default_cycles": bc, "tuned_cycles": tc,
                      "default_mac_per_cycle": macs / bc, "tuned_mac_per_cycle": macs / tc,
                      "golden_match": golden},
            "choice_table": str(table_path), "ok": golden and not violations}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", default="pulp_trainlib_net0,ds_cnn_kws",
                    help="example model stems, comma-separated")
    ap.add_argument("--cores", type=int, default=8)
    ap.add_argument("--config", default="pulp-open")
    ap.add_argument("--workers", type=int, help="local worker processes (default: CPUs)")
    ap.add_argument("--out-dir", default=str(Path(tempfile.gettempdir()) / "isasim-tune"),
                    help="where the choice tables go")
    ap.add_argument("--json", help="write the numbers here")
    args = ap.parse_args()
    console = Console(width=None if sys.stdout.isatty() else 200)
    out_dir = Path(args.out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    opts = TuneOptions(cores=args.cores, config=args.config, workers=args.workers)
    console.print(f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at start",
                  highlight=False)
    results = [bench_model(EXAMPLES / f"{m.strip()}.toml", opts, out_dir, console)
               for m in args.models.split(",")]
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1, default=str))
    return 0 if all(r["ok"] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
