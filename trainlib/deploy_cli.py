"""``trainlib deploy``: write the program that trains a model on the device; and the whole-step
memory plans ``trainlib plan`` prints.

    trainlib deploy MODEL.toml -o net.elf [--steps N] [--choices TABLE.toml] [--emit-asm DIR]
                    [--order conventional|reordered] [--memory auto|tcdm|l2]
                    [--cores 8] [--config PRESET] [--l1 SIZE] [--l2 SIZE]
                    [--timeline memory.html]

Then ``isasim run net.elf --cores 8`` runs the N training steps and prints each step's loss.
``--l1`` is the TCDM size of the cluster, ``--l2`` a budget for the training tensors in L2: a
plan that does not fit is refused with the tensor at the peak, the bytes missing and the update
form that fits.  Exit status: 0 written, 2 bad model, choice table or plan (one line on stderr).
"""

from __future__ import annotations

import argparse

from rich.console import Console
from rich.table import Table

from trainlib.choices import ChoiceTable
from trainlib.deploy import deploy, deploy_config
from trainlib.errors import PlanError, TrainlibError
from trainlib.memplan import ORDERS, plan_memory
from trainlib.memview import write_timeline
from trainlib.model import Model, load_with_choices
from trainlib.tune.cli import size


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``deploy`` subcommand to a ``trainlib`` argument parser."""
    p = subparsers.add_parser("deploy", help="write one program that trains the model on the "
                                             "device",
                              description="write one program (ELF) that trains the model for "
                                          "N steps on the cluster, no host in the loop")
    p.add_argument("model", help="model description (TOML)")
    p.add_argument("-o", "--output", required=True, help="the ELF to write")
    p.add_argument("--steps", type=int, default=1,
                   help="training steps the program runs (default: 1)")
    p.add_argument("--emit-asm", metavar="DIR", help="also write the generated assembly here")
    add_plan_options(p)
    return p


def add_plan_options(p: argparse.ArgumentParser) -> None:
    """Options ``deploy`` and ``plan`` share (``plan`` has --cores, --config, --l1, --memory
    and --choices already; ``deploy`` gets them here)."""
    if not any(a.dest == "cores" for a in p._actions):
        p.add_argument("--cores", type=int, default=8,
                       help="cluster cores the program runs on (default: 8)")
        p.add_argument("--config", default="pulp-open", help="isasim preset or TOML file")
        p.add_argument("--l1", type=size, help="TCDM size of the cluster, e.g. 128KiB")
        p.add_argument("--memory", choices=("auto", "tcdm", "l2"), default=None,
                       help="override the model's memory mode")
        p.add_argument("--choices", help="choice table (kernel and tile per layer step)")
    p.add_argument("--order", choices=ORDERS, default="conventional",
                   help="update order: all gradients then all updates (conventional), or "
                        "each layer's update fused with its weight gradient (reordered)")
    p.add_argument("--l2", type=size, help="L2 budget for the training tensors, e.g. 256KiB")
    p.add_argument("--timeline", metavar="HTML", help="write the memory timeline of the plan(s)")


def _config(args):
    cfg = deploy_config(args.config, args.cores)
    if args.l1 is not None:
        cfg = cfg.replace(tcdm_size=args.l1)
        cfg.validate()
    return cfg


def run(args, console: Console) -> int:
    """``trainlib deploy``."""
    model, choices = load_with_choices(args.model, args.choices)
    if args.steps < 1:
        raise TrainlibError("--steps must be at least 1")
    dep = deploy(model, args.steps, cores=args.cores, config=_config(args), memory=args.memory,
                 order=args.order, choices=choices, l2_budget=args.l2)
    try:
        path = dep.write(args.output)
        asm = dep.emit_asm(args.emit_asm, path.stem) if args.emit_asm else None
        timeline = write_timeline([dep.plan], args.timeline) if args.timeline else None
    except OSError as e:
        raise TrainlibError(f"cannot write {e.filename}: {e.strerror}") from None
    console.print(f"{path}: {model.name}, {args.steps} training step(s) on {args.cores} cores, "
                  f"{len(dep.plan.phases)} phases per step", highlight=False)
    console.print(f"  {dep.plan.describe()}", highlight=False, soft_wrap=True)
    if model.precisions != {"fp32"}:
        converts = sum(ph.work.kind == "convert" for ph in dep.plan.phases)
        masters = ", fp32 master weights" if model.master_weights else ""
        console.print(f"  precision {'+'.join(sorted(model.precisions))}{masters}; "
                      f"{converts} conversion phase(s) per step", highlight=False,
                      soft_wrap=True)
    for ph in dep.plan.phases:
        if ph.note:
            console.print(f"  note: {ph.note}", highlight=False, soft_wrap=True)
    if asm:
        console.print(f"  assembly: {asm}", highlight=False)
    if timeline:
        console.print(f"  memory timeline: {timeline}", highlight=False)
    syms = ", ".join(s for s, *_ in dep.param_symbols.values())
    console.print(f"  final parameters at: {syms}; losses at __deploy_losses", highlight=False,
                  soft_wrap=True)
    console.print(f"  run it: isasim run {path} --cores {args.cores}", highlight=False)
    return 0


def plan_table(model: Model, args, choices: ChoiceTable | None) -> Table:
    """Peak L1 and L2 of the whole step under each update order (``trainlib plan``); raises
    PlanError when the requested order does not fit ``--l1``/``--l2``."""
    cfg = _config(args)
    t = Table(title=f"{model.name}: whole-step memory plans (deployed program)")
    for col in ("update order", "tensors", "phases", "peak L1 (B)", "peak L2 (B)", "fits"):
        t.add_column(col, justify="right" if "peak" in col or col == "phases" else "left")
    plans = []
    for order in ORDERS:
        try:
            plan = plan_memory(model, cfg, args.memory, order, choices, args.l2)
        except PlanError as e:
            if order == args.order:
                raise
            t.add_row(order, "-", "-", "-", "-", str(e))
            continue
        plans.append(plan)
        t.add_row(order, plan.memory, str(len(plan.phases)), f"{plan.l1_peak:,}",
                  f"{plan.l2_peak:,}", "yes")
    if args.timeline:
        try:
            t.caption = f"memory timeline: {write_timeline(plans, args.timeline)}"
        except OSError as e:
            raise TrainlibError(f"cannot write {e.filename}: {e.strerror}") from None
    return t
