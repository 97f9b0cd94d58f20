"""Cycles per training step and MAC/cycle of the example models on the simulated cluster, FP16
beside FP32.

Four tables:

1. every model in ``examples/*.toml`` (fp32, and the ``*_fp16`` ones in IEEE binary16) trains
   ``--steps`` steps (one sample, PULP-TrainLib's online setting) with the default kernels
   (PULP-TrainLib's one-size-fits-all naive matmuls and mm_dw, or their 16-bit counterparts),
   checked against the golden model; the last step's cycles and MACs are reported.  ``--tune``
   tunes every model first (``trainlib.tune``) and adds the tuned column; a choice table per
   model (``--choices net0=path.toml``) does the same from a file.  A model whose 16-bit
   kernels the catalogue lacks is listed with the reason;
2. one training step (forward, weight gradient, input gradient) of a Conv2D layer in FP32 and
   in FP16, default and tuned kernels: the FP16 speed-up (PULP-TrainLib's reduced-precision
   paper, arXiv 2305.19167: 1.72x);
3. the same Conv2D step under each register-file model with the preset's timing: separate
   f registers, and the single register file (zfinx, FP values in the x registers: the
   ``mmx_*`` / ``<k>_x`` kernels), and whether the default example net trains under each;
4. ``--loss-steps N``: the loss of the FP16 ResNet8-like model on the simulator, step by step,
   beside its FP16 golden model and the FP32 model's simulated loss.

Usage: python bench/train.py [--steps 1] [--cores 8] [--config pulp-open] [--layers] [--tune]
                             [--choices MODEL=TABLE ...] [--loss-steps N] [--json out.json]
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

from asm_kernels.catalogue import program_isa
from isasim.config import load_config
from trainlib.choices import ChoiceTable
from trainlib.cli import matches
from trainlib.errors import TrainlibError
from trainlib.layers import Conv2D
from trainlib.model import Model
from trainlib.report import step_table
from trainlib.step import run_layer_step
from trainlib.train import TrainResult, train
from trainlib.tune.tuner import TuneOptions, tune_layer, tune_model
from trainlib.workflow import plan_model

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
# a 3x3 convolution 16 -> 16 on 8x8 (padding 1): its im2row fits the TCDM in both formats
CONV = Conv2D("conv", 16, 16, (3, 3), (1, 1), (1, 1), bias=False)
CONV_IN = (16, 8, 8)
DEFAULT_NET = "pulp_trainlib_net0"          # PULP-TrainLib's deployer default network


def run(model: Model, steps: int, cores: int, config: str,
        choices: ChoiceTable | None) -> tuple[TrainResult, float]:
    t0 = time.perf_counter()
    res = train(model, steps, cores=cores, config=config, choices=choices)
    return res, time.perf_counter() - t0


def models_table(args, console: Console, out: dict) -> bool:
    """Table 1; returns whether some model missed its golden model."""
    tables = dict(c.split("=", 1) for c in args.choices)
    summary = Table(title=f"training step on {args.cores} cores ({args.config}), "
                          f"after {args.steps} step(s)")
    for col in ("model", "precision", "memory", "MACs/step", "cycles/step (default)",
                "MAC/cycle (default)", "cycles/step (tuned)", "MAC/cycle (tuned)", "golden",
                "host s"):
        summary.add_column(col, justify="left" if col in ("model", "precision") else "right")
    failed = False
    opts = TuneOptions(cores=args.cores, config=args.config)
    for path in sorted(EXAMPLES.glob("*.toml")):
        model = Model.load(path)
        precision = "/".join(sorted(model.precisions))
        try:
            res, secs = run(model, args.steps, args.cores, args.config, None)
        except TrainlibError as e:
            summary.add_row(model.name, precision, "-", "-", f"not available: {e}", "", "", "",
                            "-", "-")
            out[model.name] = {"not_available": str(e)}
            continue
        bad = matches(res, model)
        failed |= bool(bad)
        cyc, macs = res.cycles_per_step()[-1], res.macs_per_step()
        row = {"precision": precision, "memory": res.plan.memory, "macs": macs, "cycles": cyc,
               "mac_per_cycle": macs / cyc, "golden_match": not bad, "host_seconds": secs}
        tuned = ["-", "-"]
        table = (ChoiceTable.load(tables[path.stem]) if path.stem in tables else
                 tune_model(model, opts).choice_table() if args.tune else None)
        if table is not None:
            tres, _ = run(model, args.steps, args.cores, args.config, table)
            tcyc = tres.cycles_per_step()[-1]
            tuned = [f"{tcyc:,}", f"{macs / tcyc:.2f}"]
            row.update(tuned_cycles=tcyc, tuned_mac_per_cycle=macs / tcyc)
            failed |= bool(matches(tres, model))
        summary.add_row(model.name, precision, res.plan.memory, f"{macs:,}", f"{cyc:,}",
                        f"{macs / cyc:.2f}", *tuned, "match" if not bad else "MISMATCH",
                        f"{secs:.0f}")
        out[model.name] = row
        if args.layers:
            console.print(step_table(res.stats[-1], res.last_runs[0].result.category_names,
                                     f"{model.name}: default kernels"))
    console.print(summary)
    return failed


def conv_step(precision: str, cores: int, config: str, tuned: bool, isa: str | None = None
              ) -> tuple[int, int]:
    """(cycles, MACs) of one Conv2D training step (fw + wg + ig), streamed from L2 (the
    planner's tiles, or the tuner's), on cores of ``isa`` (None: the preset's)."""
    kernels: dict[str, tuple[str | None, int | None]] = {
        s: (None, None) for s in ("fw", "wg", "ig")}
    opts = TuneOptions(cores=cores, config=config, memory="l2", isa=isa)
    if tuned:
        t = tune_layer(CONV, CONV_IN, opts, precision=precision)
        kernels.update({s.step: (s.winner.kernel, s.winner.option.run_tile) for s in t.steps
                        if s.winner is not None})
    cycles = macs = 0
    for step, (k, tile) in kernels.items():
        r = run_layer_step(CONV, CONV_IN, step, kernel=k, tile=tile, memory="l2", cores=cores,
                           config=opts.cluster(), precision=precision)
        r.check()
        cycles += r.cycles
        macs += r.macs
    return cycles, macs


def conv_table(args, console: Console, out: dict) -> None:
    """Table 2: one Conv2D training step, FP16 against FP32."""
    tab = Table(title=f"Conv2D {CONV.in_channels}->{CONV.out_channels} 3x3 on "
                      f"{CONV_IN[1]}x{CONV_IN[2]}: one training step (fw + wg + ig) on "
                      f"{args.cores} cores ({args.config})")
    for col in ("kernels", "fp32 cycles", "fp32 MAC/cycle", "fp16 cycles", "fp16 MAC/cycle",
                "fp16 speed-up (paper: 1.72x)"):
        tab.add_column(col, justify="left" if col == "kernels" else "right")
    for tuned in (False, True):
        label = "tuned" if tuned else "default"
        c32, macs = conv_step("fp32", args.cores, args.config, tuned)
        try:
            c16, _ = conv_step("fp16", args.cores, args.config, tuned)
        except TrainlibError as e:
            tab.add_row(label, f"{c32:,}", f"{macs / c32:.2f}", f"not available: {e}", "", "")
            out[f"conv2d_{label}"] = {"fp32_cycles": c32, "fp16": str(e)}
            continue
        tab.add_row(label, f"{c32:,}", f"{macs / c32:.2f}", f"{c16:,}", f"{macs / c16:.2f}",
                    f"{c32 / c16:.2f}x")
        out[f"conv2d_{label}"] = {"fp32_cycles": c32, "fp16_cycles": c16, "macs": macs}
    console.print(tab)


def regfile_table(args, console: Console, out: dict) -> None:
    """Table 3: the Conv2D step and the default net under each register-file model."""
    xpulp = load_config(args.config).xpulp
    # the preset's ISA with each model's registers (a kernel of that model names it)
    isas = {"f registers": program_isa("mm_naive_n", xpulp),
            "single register file (zfinx)": program_isa("mmx_naive_n", xpulp)}
    net = Model.load(EXAMPLES / f"{DEFAULT_NET}.toml")
    tab = Table(title=f"Register-file models ({args.config} timing, {args.cores} cores): the "
                      f"Conv2D step of table 2, and {net.name}")
    for col in ("model", "ISA", "kernels", "fp32 cycles", "fp32 MAC/cycle", "fp16 cycles",
                "fp16 MAC/cycle", f"{net.name}"):
        tab.add_column(col, justify="left" if col in ("model", "ISA", "kernels") else "right")
    for model, isa in isas.items():
        cfg = load_config(args.config).replace(xpulp=isa, cores=args.cores)
        try:
            plan_model(net, cfg)
            trains = "plans (trains: table 1)"
        except TrainlibError as e:
            trains = f"refused: {e}"
        for tuned in (False, True) if args.tune else (False,):
            label = "tuned" if tuned else "default"
            row = [model, isa, label]
            for prec in ("fp32", "fp16"):
                cycles, macs = conv_step(prec, args.cores, args.config, tuned, isa)
                row += [f"{cycles:,}", f"{macs / cycles:.2f}"]
                out.setdefault("regfile", {})[f"{model}/{label}/{prec}"] = cycles
            tab.add_row(*row, trains)
        out.setdefault("regfile", {})[f"{model}/{net.name}"] = trains
    console.print(tab)


def loss_table(args, console: Console, out: dict) -> bool:
    """Table 3: the FP16 model's loss on the simulator beside its golden model and FP32."""
    m16 = Model.load(EXAMPLES / "resnet8_like_fp16.toml")
    m32 = Model.load(EXAMPLES / "resnet8_like.toml")
    try:
        r16, _ = run(m16, args.loss_steps, args.cores, args.config, None)
    except TrainlibError as e:
        console.print(f"loss trajectory: {m16.name} not available: {e}", highlight=False)
        return False
    r32, _ = run(m32, args.loss_steps, args.cores, args.config, None)
    tab = Table(title=f"{m16.name}: loss per training step on the simulator")
    for col in ("step", "fp32 (simulator)", "fp16 (simulator)", "fp16 (golden model)",
                "fp16 - fp32"):
        tab.add_column(col, justify="right")
    for i, (a, g, b) in enumerate(zip(r16.losses, r16.golden_losses, r32.losses, strict=True)):
        tab.add_row(str(i + 1), f"{b:.6f}", f"{a:.6f}", f"{g:.6f}", f"{a - b:+.2e}")
    console.print(tab)
    out["loss_trajectory"] = {"fp32": r32.losses, "fp16": r16.losses,
                              "fp16_golden": r16.golden_losses}
    return bool(matches(r16, m16)) or bool(matches(r32, m32))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--steps", type=int, default=1)
    ap.add_argument("--cores", type=int, default=8)
    ap.add_argument("--config", default="pulp-open")
    ap.add_argument("--layers", action="store_true", help="also print the per-layer tables")
    ap.add_argument("--tune", action="store_true", help="tune every model (tuned columns)")
    ap.add_argument("--choices", nargs="*", default=[], metavar="MODEL=TABLE",
                    help="choice table for a model (stem of its example file)")
    ap.add_argument("--loss-steps", type=int, default=0,
                    help="also train the ResNet8-like model N steps in fp16 and fp32 and "
                         "print the two loss trajectories")
    ap.add_argument("--json", help="write the numbers here")
    args = ap.parse_args()
    console = Console(width=None if sys.stdout.isatty() else 220)
    out: dict = {}
    failed = models_table(args, console, out)
    conv_table(args, console, out)
    regfile_table(args, console, out)
    if args.loss_steps:
        failed |= loss_table(args, console, out)
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
