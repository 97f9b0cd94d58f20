"""``trainlib tune``: pick tile and kernel per layer step by running them on the simulator.

    trainlib tune MODEL.toml [--cores 8] [--l1 64KiB] [-o MODEL.choices.toml]
    trainlib tune --layer conv2d:ci=8,co=16,h=16,w=16,k=3,s=1,p=1 [--steps fw,wg]
    trainlib tune MODEL.toml --precision auto [--max-rel-error 1e-2] [-o MODEL.auto.toml]

Options: --precision model|fp32|fp16|bf16|auto, --config PRESET, --memory tcdm|l2,
--reserve BYTES (TCDM the tiler leaves free), --top-kernels N, --tilings N and --explore X
(breadth of the tiling phase), --max-tiles N, --exhaustive (no pruning among the kernels),
--timeout S (per candidate: its worker is killed past it), --workers N,
--executor local|dask://host:port, --cache DIR / --no-cache (default: $TRAINLIB_TUNE_CACHE,
else ~/.cache/isasim/tune).

Prints the per-step table (winner, MAC/cycle, default kernel, speed-up, runner-up and why the
winner wins) and any rejected candidates, and writes the choice table that
``trainlib train --choices`` reads.  Exit status: 0 tuned, 1 some step has no correct
candidate, 2 bad arguments (one line on stderr).
"""

from __future__ import annotations

import argparse
import dataclasses
import re
import sys
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from isasim.config import ConfigError
from traces.term import add_table_options, printable, show
from traces.term import console as term_console
from trainlib.errors import TrainlibError
from trainlib.layers import STEPS
from trainlib.model import PRECISIONS, Model
from trainlib.precision import check_isa, missing_extensions
from trainlib.tune.autoprec import DEFAULT_MAX_REL_ERROR, auto_precision
from trainlib.tune.layerspec import parse_layer
from trainlib.tune.report import failures_table, precision_table, steps_table, summary
from trainlib.tune.search import Candidate, SearchOptions, StepSearch
from trainlib.tune.tuner import TuneOptions, Tuning, tune_layer, tune_model

UNITS = {"": 1, "b": 1, "k": 1024, "kb": 1024, "kib": 1024, "m": 1 << 20, "mb": 1 << 20,
         "mib": 1 << 20}


def size(text: str) -> int:
    """Bytes from ``65536``, ``0x10000``, ``64K``, ``64KiB`` or ``64kB`` (K = 1024)."""
    m = re.fullmatch(r"\s*(0x[0-9a-fA-F]+|\d+)\s*([a-zA-Z]*)\s*", text)
    if not m or m.group(2).lower() not in UNITS:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size (e.g. 65536, 64KiB)")
    return int(m.group(1), 0) * UNITS[m.group(2).lower()]


def add_isa_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--isa", metavar="ISA",
                   help="the ISA the cores execute, as an ISA string (default: the config's, "
                        "e.g. rv32imfc_xpulpv2_xf16_xf16alt_xfvec); fp16 needs xf16 and "
                        "xfvec, bf16 xf16alt and xfvec")


def add_parser(subparsers) -> argparse.ArgumentParser:
    """Add the ``tune`` subcommand to a ``trainlib`` argument parser."""
    p = subparsers.add_parser("tune", help="pick tile and kernel per layer step by running "
                                           "them on the simulator",
                              description=__doc__.split("\n")[0].replace("``", ""))
    p.add_argument("model", nargs="?", help="model description (TOML)")
    p.add_argument("--layer", help="tune one layer: KIND:key=value,... (see trainlib.tune."
                                   "layerspec), e.g. conv2d:ci=8,co=16,h=16,w=16,k=3,p=1")
    p.add_argument("--steps", default="fw,wg,ig", help="steps of --layer to tune")
    p.add_argument("--cores", type=int, default=8, help="cluster cores (default: 8)")
    p.add_argument("--config", default="pulp-open", help="isasim preset or TOML file")
    p.add_argument("--l1", type=size, help="TCDM size of the cluster (default: the config's)")
    add_isa_option(p)
    p.add_argument("--reserve", type=size, default=0, help="TCDM bytes the tiler leaves free")
    p.add_argument("--memory", choices=("tcdm", "l2"),
                   help="resident or streamed (default: the model's plan; a layer: l2)")
    p.add_argument("--top-kernels", type=int, default=2,
                   help="kernels carried into the tiling phase")
    p.add_argument("--tilings", type=int, default=3, help="other tilings tried per kernel")
    p.add_argument("--max-tiles", type=int, default=64,
                   help="most tiles a tiling may cut a tensor into (default: 64)")
    p.add_argument("--explore", type=float, default=1.10,
                   help="tiling phase: run tilings estimated within this x the best")
    p.add_argument("--exhaustive", action="store_true",
                   help="run every kernel at the reference tiling (no pruning there)")
    p.add_argument("--timeout", type=float, default=120.0, help="seconds per candidate")
    p.add_argument("--workers", type=int, help="local worker processes (default: CPUs)")
    p.add_argument("--executor", default="local", help="local or dask://host:port")
    p.add_argument("--cache", help="cache directory (default: the user cache dir)")
    p.add_argument("--no-cache", action="store_true",
                   help="measure every candidate again (neither read nor write the cache)")
    p.add_argument("--precision", choices=("model", "auto", *PRECISIONS), default="model",
                   help="model: each layer's own precision (default); fp32, fp16, bf16: every "
                        "layer in it; auto: per layer the fastest precision the ISA executes "
                        "whose step outputs stay within --max-rel-error of fp32")
    p.add_argument("--max-rel-error", type=float, default=DEFAULT_MAX_REL_ERROR,
                   help="--precision auto: error budget per layer step, relative to the "
                        "largest fp32 output (default: 1e-2)")
    p.add_argument("-o", "--output", help="choice table to write (default for a model: "
                                          "MODEL.choices.toml in the current directory; "
                                          "--precision auto: the model file with the chosen "
                                          "precisions and kernels, MODEL.auto.toml)")
    add_table_options(p)
    return p


def _options(args) -> TuneOptions:
    cache = None if args.no_cache else (args.cache or "")
    return TuneOptions(
        cores=args.cores, config=args.config, l1=args.l1, isa=args.isa, memory=args.memory,
        search=SearchOptions(top_kernels=args.top_kernels, tilings=args.tilings,
                             reserve=args.reserve, max_tiles=args.max_tiles,
                             exhaustive=args.exhaustive, explore=args.explore),
        timeout=args.timeout, workers=args.workers, executor=args.executor, cache_dir=cache)


def _tune(args, opts: TuneOptions, console: Console) -> tuple[Tuning, str]:
    progress = Progress(TextColumn("[bold]tuning[/bold] {task.description}"), BarColumn(),
                        MofNCompleteColumn(), TimeElapsedColumn(), console=console,
                        transient=True)
    task = progress.add_task("", total=None)
    searches: list[StepSearch] = []

    def start(ss: list[StepSearch]) -> None:
        searches.extend(ss)
        progress.update(task, total=sum(len(s.candidates) for s in ss),
                        description="starting workers")

    def record(s: StepSearch, c: Candidate) -> None:
        cands = [x for s2 in searches for x in s2.candidates]
        settled = sum(x.status != "queued" for x in cands)
        progress.update(task, total=len(cands), completed=settled,
                        description=f"{s.name}: {c.label} {c.status}")

    with progress:
        if args.layer:
            layer, shape = parse_layer(args.layer)
            steps = tuple(s.strip() for s in args.steps.split(",") if s.strip())
            bad = [s for s in steps if s not in STEPS]
            if bad or not steps:
                raise TrainlibError(f"--steps: {','.join(bad) or 'nothing'}: steps are "
                                    f"{', '.join(STEPS)}")
            prec = "fp32" if args.precision == "model" else args.precision
            return tune_layer(layer, shape, opts, steps, prec, on_start=start,
                              on_record=record), layer.name
        model = _model(args)
        return tune_model(model, opts, on_start=start, on_record=record), model.name


def _model(args) -> Model:
    """The model file, every layer in ``--precision`` when it names one."""
    model = Model.load(args.model)
    if args.precision in PRECISIONS:
        model = dataclasses.replace(model, precision=args.precision, layer_precision={})
    return model


def _check_precision(args, opts: TuneOptions) -> None:
    """A precision the selected ISA cannot execute is refused before any run."""
    cfg = opts.cluster()
    if args.precision in PRECISIONS:
        miss = missing_extensions(args.precision, cfg.xpulp)
        if miss:
            raise TrainlibError(f"--precision {args.precision} needs the ISA extension(s) "
                                f"{', '.join(miss)}, which {cfg.name}'s ISA {cfg.xpulp!r} "
                                f"lacks")
    elif args.model and args.precision == "model":
        check_isa(Model.load(args.model), cfg.xpulp)


def run_auto(args, opts: TuneOptions, console: Console) -> int:
    """``--precision auto``: tune in every precision, choose per layer, explain, write."""
    if args.layer:
        raise TrainlibError("--precision auto chooses per layer of a model: give a model file")
    if not args.max_rel_error > 0:
        raise TrainlibError(f"--max-rel-error must be positive, got {args.max_rel_error}")
    model = Model.load(args.model)
    with console.status("tuning in every precision the ISA executes"):
        res = auto_precision(model, opts, args.max_rel_error)
    cfg = opts.cluster()
    show([precision_table(res, f"{model.name}: precision per layer on {cfg.cores} cores "
                               f"({cfg.name}), error budget {args.max_rel_error:g} of fp32")],
         args.format, args.wide)
    for p, why in res.skipped.items():
        console.print(f"{p}: not tried, {why}", highlight=False)
    out = args.output or f"{Path(args.model).stem}.auto.toml"
    Path(out).write_text(res.model.dumps(res.choices))
    console.print(f"model with the chosen precisions and kernels: {out} (trainlib train {out})",
                  highlight=False)
    return 0


def run(args, console: Console | None = None) -> int:
    """Run ``trainlib tune`` with parsed arguments; returns the exit status."""
    console = console or term_console()
    try:
        if bool(args.model) == bool(args.layer):
            raise TrainlibError("give a model file or --layer SPEC (one of them)")
        opts = _options(args)
        opts.cluster()
        _check_precision(args, opts)
        if args.precision == "auto":
            return run_auto(args, opts, console)
        tuning, name = _tune(args, opts, console)
    except (TrainlibError, ConfigError, ValueError) as e:
        print(printable(f"trainlib tune: error: {e}"), file=sys.stderr)
        return 2
    cfg = tuning.cfg
    tables = [steps_table(tuning, f"{name}: tuned on {cfg.cores} cores ({cfg.name}, "
                                  f"{cfg.tcdm_size // 1024} KiB TCDM, memory "
                                  f"{tuning.meta['memory']})")]
    fails = failures_table(tuning)
    if fails is not None:
        tables.append(fails)
    show(tables, args.format, args.wide)
    console.print(summary(tuning), highlight=False, soft_wrap=True)
    out = args.output or (None if args.layer else f"{Path(args.model).stem}.choices.toml")
    if out:
        Path(out).write_text(tuning.dumps())
        console.print(f"choice table: {out}", highlight=False)
    return 1 if any(s.winner is None for s in tuning.steps) else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="trainlib")
    add_parser(ap.add_subparsers(dest="cmd", required=True))
    return run(ap.parse_args(["tune", *(sys.argv[1:] if argv is None else argv)]))
