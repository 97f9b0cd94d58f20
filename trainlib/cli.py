"""``trainlib``: train a model on the simulated cluster, show its memory plan, or tune it.

    trainlib train MODEL.toml --steps N [--cores 8] [--config PRESET] [--l1 SIZE] [--isa ISA]
                   [--memory auto|tcdm|l2] [--choices TABLE.toml]
                   [--report out.html [--report-step LAYER:STEP]]
    trainlib plan  MODEL.toml [--cores 8] [--config PRESET] [--l1 SIZE] [--memory ...]
                   [--choices ...]
    trainlib tune  MODEL.toml | --layer SPEC ...      (see ``trainlib.tune.cli``)
    trainlib deploy MODEL.toml -o net.elf [--steps N] (see ``trainlib.deploy_cli``)

``train`` prints the loss of every step beside the golden model's, then the per-layer,
per-step table of the last training step (cycles, MAC/cycle, stall breakdown, phases), then
whether the trained parameters match the golden model's.  Exit status: 0 when loss trajectory
and parameters match, 1 when they do not, 2 for a bad model, choice table or plan (one line on
stderr, no traceback).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np
from rich.console import Console

from isasim.config import ClusterConfig, ConfigError, load_config
from traces.term import add_table_options, printable, show
from traces.term import console as term_console
from trainlib import deploy_cli, golden
from trainlib.driver import run_config
from trainlib.errors import TrainlibError
from trainlib.model import Model, load_with_choices
from trainlib.report import step_table, write_report
from trainlib.step import run_spec
from trainlib.train import TrainResult, train
from trainlib.tune import cli as tune_cli
from trainlib.workflow import plan_model

EXIT_INTERRUPTED = 130       # 128 + SIGINT
LOSS_RTOL = 1e-4
PARAM_RTOL = 1e-4


COMMANDS = {
    "train": ("train a model on the simulated cluster and check it against the golden model",
              "Run N training steps of MODEL on the simulated cluster, print each step's loss "
              "beside the golden model's (numpy), the per-layer, per-step table of the last "
              "step, and whether the trained parameters match. Exit status: 0 match, 1 "
              "mismatch, 2 bad input, 130 Ctrl-C."),
    "plan": ("show where each tensor of a model lives (TCDM, L2, tiles) and each step's kernel",
             "Print the memory plan of MODEL: which tensors stay in the TCDM, which stream "
             "from L2 in tiles, and the kernel and tiling of every layer step."),
}


def _parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="trainlib", description=__doc__.split("\n")[0]
                                 .replace("``", ""))
    sub = ap.add_subparsers(dest="cmd", required=True, metavar="COMMAND")
    for name, (summary, description) in COMMANDS.items():
        p = sub.add_parser(name, help=summary, description=description)
        p.add_argument("model", help="model description (TOML; see examples/*.toml)")
        p.add_argument("--cores", type=int, default=8, help="cluster cores (default: 8)")
        p.add_argument("--config", default="pulp-open",
                       help="isasim preset or TOML file (default: pulp-open)")
        p.add_argument("--l1", type=tune_cli.size,
                       help="TCDM size of the cluster, e.g. 128KiB (default: the config's)")
        tune_cli.add_isa_option(p)
        p.add_argument("--memory", choices=("auto", "tcdm", "l2"), default=None,
                       help="where tensors live: auto (TCDM if they fit, else L2 in tiles), "
                            "tcdm or l2 (default: the model's memory setting)")
        p.add_argument("--choices", help="choice table (kernel and tile per layer step, "
                                         "as written by trainlib tune)")
        if name == "train":
            p.add_argument("--steps", type=int, default=1,
                           help="training steps (SGD updates) to run (default: 1)")
            p.add_argument("--report", metavar="OUT",
                           help="write an HTML report of the last training step to OUT: one "
                                "report with a selector per layer step")
            p.add_argument("--report-step", metavar="LAYER:STEP",
                           help="the layer step the report opens on (default: the one with "
                                "the most cycles)")
            add_table_options(p)
        else:
            deploy_cli.add_plan_options(p)
    tune_cli.add_parser(sub)
    deploy_cli.add_parser(sub)
    return ap


def _config(args) -> ClusterConfig | str:
    """The preset or file of ``--config``, with the TCDM size of ``--l1`` and the ISA of
    ``--isa`` when given."""
    if args.l1 is None and args.isa is None:
        return args.config
    cfg = load_config(args.config)
    cfg = cfg.replace(tcdm_size=args.l1 if args.l1 is not None else cfg.tcdm_size,
                      xpulp=args.isa or cfg.xpulp)
    cfg.validate()
    return cfg


def cmd_plan(args, console: Console) -> int:
    model, choices = load_with_choices(args.model, args.choices)
    cfg = run_config(_config(args), args.cores)
    plan = plan_model(model, cfg, args.memory, choices)
    for line in plan.describe(model):
        console.print(line, highlight=False, soft_wrap=True)
    console.print(deploy_cli.plan_table(model, args, choices))
    return 0


def rtol(fmt: str) -> float:
    """How far the simulator may drift from the golden model per value, relative to the
    largest: 1e-4 in fp32; 8 eps in a 16-bit format (fp16 0.8 %, bf16 6 %), where the kernels
    accumulate in binary32 (vfdotpex) and the golden model in the format, a difference of a
    few roundings that the training steps carry forward."""
    return max(LOSS_RTOL, 8 * golden.FORMATS[fmt].eps)


def matches(res: TrainResult, model: Model | None = None) -> list[str]:
    """What differs between the simulator and the golden model (empty: everything matches),
    within ``rtol`` of the model's widest format (every value depends on every layer before
    it: an fp32 layer after an fp16 one sees the fp16 layer's rounding).

    A NaN or an infinity matches only the same special value at the same place: when training
    diverges, both models overflow alike (IEEE float32 on both sides), and that is a match.
    """
    widest = max(rtol(p) for p in (model.precisions if model else {"fp32"}))
    bad = []
    for i, (a, b) in enumerate(zip(res.losses, res.golden_losses, strict=True)):
        got, ref = np.array([a]), np.array([b])
        err, scale = _finite_error(got, ref, 1.0)
        if not (_same_specials(got, ref) and err <= widest * scale):
            bad.append(f"step {i + 1}: loss {a:.7g}, golden {b:.7g}")
    for layer, ps in res.golden_params.items():
        for name, ref in ps.items():
            got = np.asarray(res.params[layer][name], np.float64)
            ref = np.asarray(ref, np.float64)
            err, scale = _finite_error(got, ref, 1e-3)
            same = _same_specials(got, ref)
            if not (same and err <= max(PARAM_RTOL, widest) * scale):
                bad.append(f"{layer}.{name}: max |sim - golden| = {err:.3g}"
                           + ("" if same else ", and NaN or infinities at different places"))
    return bad


def _same_specials(got: np.ndarray, ref: np.ndarray) -> bool:
    special = ~np.isfinite(got) | ~np.isfinite(ref)
    return bool(np.array_equal(np.isnan(got), np.isnan(ref))
                and np.array_equal(got[special & ~np.isnan(got)], ref[special & ~np.isnan(ref)]))


def _finite_error(got: np.ndarray, ref: np.ndarray, floor: float) -> tuple[float, float]:
    """The largest difference where both values are finite, and the scale it is judged
    against: the largest finite reference, at least ``floor``."""
    finite = np.isfinite(got) & np.isfinite(ref)
    scale = max(floor, float(np.abs(ref[finite]).max(initial=0.0)))
    return float(np.abs(got[finite] - ref[finite]).max(initial=0.0)), scale


def cmd_train(args, console: Console) -> int:
    model, choices = load_with_choices(args.model, args.choices)
    config = _config(args)                           # a bad preset fails before any output
    run_config(config, args.cores)
    if args.steps < 1:
        raise TrainlibError("--steps must be at least 1")
    console.print(f"training {model.name} for {args.steps} step(s) on {args.cores} cores "
                  f"({args.config})", highlight=False)

    def show_loss(i: int, loss: float, gloss: float) -> None:
        console.print(f"step {i + 1:>3}: loss {loss:.7g}   golden {gloss:.7g}   "
                      f"diff {loss - gloss:+.2e}", highlight=False)

    res = train(model, args.steps, cores=args.cores, config=config, memory=args.memory,
                choices=choices, on_step=show_loss)
    assert res.plan is not None
    names = res.last_runs[0].result.category_names
    cyc = res.cycles_per_step()[-1]
    macs = res.macs_per_step()
    show([step_table(res.stats[-1], names,
                     f"{model.name}: one training step, {cyc:,} cycles, {macs:,} MACs, "
                     f"{macs / cyc:.2f} MAC/cycle (memory: {res.plan.memory})")],
         args.format, args.wide)
    if args.report:
        console.print(_report(args, model, res), highlight=False)
    bad = matches(res, model)
    if bad:
        console.print("MISMATCH with the golden model: " + "; ".join(bad), highlight=False)
        return 1
    tol = max(rtol(p) for p in model.precisions)
    console.print(f"loss trajectory and updated parameters match the golden model (rtol "
                  f"{tol:.2g})", highlight=False)
    diverged = [i + 1 for i, loss in enumerate(res.losses) if not np.isfinite(loss)]
    if diverged:
        console.print(f"training diverged: the loss is not finite from step {diverged[0]} on, "
                      f"in both models (a smaller learning rate?)", highlight=False)
    return 0


def _report(args, model: Model, res: TrainResult) -> str:
    """The HTML report of the last training step: every layer step run again with its event
    log, on one page with a selector (opening on --report-step, else the costliest step)."""
    from traces.eventlog import record_run

    assert res.plan is not None
    keys = [w.key(model) for w, _, _ in res.plan.steps]
    if args.report_step:
        layer, _, step = args.report_step.partition(":")
        if (layer, step) not in keys:
            raise TrainlibError(f"--report-step {args.report_step}: no such step; steps: "
                                + ", ".join(f"{a}:{b}" for a, b in keys))
        initial = keys.index((layer, step))
    else:
        initial = int(np.argmax([s.cycles for s in res.stats[-1]]))
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, (_, spec, sp) in enumerate(res.plan.steps):
            logs = []

            def hook(machine, path=Path(tmp) / f"events{i}.bin", logs=logs):
                result, log = record_run(machine, path)
                logs.append(log)
                return result
            run = run_spec(spec, res.last_inputs[i], cores=args.cores, config=_config(args),
                           plan=sp, machine_hook=hook)
            runs.append((f"{keys[i][0]} {keys[i][1]}", run.result, logs[0]))
        return write_report(runs, args.report, f"{model.name}: one training step",
                            initial)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    # results on stdout; with a machine-readable table format the progress lines go to stderr
    machine_readable = getattr(args, "format", "table") in ("json", "csv")
    console = term_console(stderr=machine_readable)
    try:
        if args.cmd == "deploy":
            return deploy_cli.run(args, console)
        if args.cmd == "tune":
            return tune_cli.run(args, console)
        return cmd_train(args, console) if args.cmd == "train" else cmd_plan(args, console)
    except KeyboardInterrupt:
        print(f"trainlib {args.cmd}: interrupted (Ctrl-C)", file=sys.stderr)
        return EXIT_INTERRUPTED
    except (TrainlibError, ConfigError) as e:
        print(printable(f"trainlib: error: {e}"), file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
