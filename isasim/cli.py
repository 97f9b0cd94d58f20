"""The ``isasim`` command line: one subcommand = one ``_setup_*`` function + one ``_run_*``.

Every failure the user can cause (bad source, bad ELF, missing file, bad arguments) ends with a
message on stderr and exit status 2, never a Python traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from toolchain.asm import AsmError
from toolchain.elf import ElfError
from traces.term import add_table_options, printable

# --xpulp takes the family names `isasim config show` prints; "pulpv2" is kept as an alias
XPULP = {"xpulpv2": "xpulpv2", "pulpv2": "xpulpv2", "corev": "corev", "none": "none"}
USAGE_ERROR = 2
EXIT_INTERRUPTED = 130        # 128 + SIGINT, as a shell reports a process Ctrl-C stopped


def _positive(text: str) -> int:
    """argparse type of counts that must be at least 1 (cycles, rows)."""
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _cycles(text: str) -> int:
    """argparse type of a cycle limit: 1 up to the simulator's own ceiling."""
    from isasim.config import MAX_RUN_CYCLES

    value = _positive(text)
    if value > MAX_RUN_CYCLES:
        raise argparse.ArgumentTypeError(f"must be at most {MAX_RUN_CYCLES:,}, got {value:,}")
    return value


def _show(tables: list, args: argparse.Namespace) -> None:
    from traces.term import show

    show(tables, args.format, args.wide)


def _error(args: argparse.Namespace, message: str) -> None:
    """One line on stderr naming the subcommand, control characters escaped."""
    print(printable(f"isasim {args.command}: {message}"), file=sys.stderr)


def _xpulp_option(p: argparse.ArgumentParser, default: str | None, help_text: str) -> None:
    group = p.add_mutually_exclusive_group()
    group.add_argument("--xpulp", choices=["xpulpv2", "corev", "none"], type=_family,
                       default=default, help=help_text)
    group.add_argument("--isa", type=_isa_string, metavar="ISA",
                       help="the ISA the program may use, as GNU as's -march spells it (e.g. "
                            "rv32imfc_xpulpv2_xf16_xf16alt_xfvec, the pulp-open default; "
                            "rv32imc_zfinx_... puts FP values in the x registers)")


def _isa_string(text: str) -> str:
    from toolchain.table import SelectionError, parse_selection

    try:
        parse_selection(text)
    except SelectionError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text


def _selection(args: argparse.Namespace) -> str | None:
    """The --isa string, else the --xpulp family, else None."""
    if args.isa:
        return args.isa
    return args.xpulp or None


def _family(text: str) -> str:
    """--xpulp's value, the alias ``pulpv2`` read as ``xpulpv2``."""
    return XPULP.get(text, text)


def _include_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("-I", dest="include_dirs", metavar="DIR", action="append", default=[],
                   help=".include also looks in DIR, after the including file's directory "
                        "(repeatable, like as -I)")


# ---- isasim asm --------------------------------------------------------------------------------
def _setup_asm(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("asm", help="assemble a GNU-as source file into an ELF executable")
    p.add_argument("source", help="assembly source (.s)")
    p.add_argument("-o", "--output", help="output ELF (default: SOURCE with .elf)")
    _xpulp_option(p, "xpulpv2", "Xpulp instruction family (default: xpulpv2)")
    p.add_argument("--no-rvc", action="store_true",
                   help="start with .option norvc (no compressed instructions)")
    _include_option(p)
    p.set_defaults(run=_run_asm)


def _run_asm(args: argparse.Namespace) -> int:
    from toolchain.commands import assemble_file

    _, warnings = assemble_file(args.source, args.output, _selection(args) or "xpulpv2",
                                rvc=not args.no_rvc, include_dirs=args.include_dirs)
    for warning in warnings:
        print(printable(warning), file=sys.stderr)
    return 0


# ---- isasim disasm -----------------------------------------------------------------------------
def _setup_disasm(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("disasm", help="disassemble the code of an RV32 ELF file")
    p.add_argument("elf", help="ELF file (ours, or built by GCC/LLVM)")
    p.add_argument("--no-aliases", action="store_true",
                   help="print base instructions, not pseudo-instructions")
    _xpulp_option(p, None, "Xpulp family to decode with (default: the one the file records, "
                           "else xpulpv2)")
    p.set_defaults(run=_run_disasm)


def _run_disasm(args: argparse.Namespace) -> int:
    from toolchain.commands import disassemble_file

    family = _selection(args)
    sys.stdout.write(disassemble_file(args.elf, family, aliases=not args.no_aliases))
    return 0


# ---- isasim run --------------------------------------------------------------------------------
GUEST_FAULT = 3


def _setup_run(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("run", help="run a program (.s, .S or ELF) on the simulated cluster",
                       description="Run a program on the simulated cluster and print each "
                                   "core's cycles, instructions and stall cycles (stdout). The "
                                   "program's own output goes to stdout first; guest faults, "
                                   "warnings and events go to stderr. Exit status: the "
                                   "program's exit code, 3 for a guest fault, 2 for a usage "
                                   "error, 130 when Ctrl-C stopped the run.")
    p.add_argument("program", help="assembly source (.s; .S goes through the C preprocessor "
                                   "first) or RV32 ELF")
    p.add_argument("--cores", type=int, help="number of cores (default: from the config)")
    p.add_argument("--config", default="pulp-open",
                   help="preset name (pulp-open, gvsoc-2022, single-core) or a TOML file")
    _xpulp_option(p, None, "Xpulp family (default: the config's, or what the ELF records)")
    _include_option(p)
    p.add_argument("--max-cycles", type=_cycles, help="stop with a time-out fault after N "
                                                      "cycles (default: the config's)")
    p.add_argument("--json", metavar="OUT", help="write the run result (JSON) to OUT")
    p.add_argument("--interpret", action="store_true",
                   help="interpret every instruction instead of running the program's "
                        "straight-line code compiled to machine code (the default; same "
                        "results; compiled code is unused while tracing)")
    p.add_argument("--translate", action="store_true",
                   help="the default (kept for scripts that pass it): compiled straight-line "
                        "code")
    p.add_argument("--quiet", action="store_true", help="do not print the per-core table")
    add_table_options(p)
    p.add_argument("--trace", metavar="OUT", help="write a Perfetto trace: OUT.json (Chrome "
                   "trace JSON) or OUT.pftrace (protobuf, for large runs); 1 cycle = 1 ns")
    p.add_argument("--vcd", metavar="OUT", help="write a VCD waveform (per core: state, pc, "
                   "function)")
    p.add_argument("--report", metavar="OUT", help="write a self-contained HTML report")
    from isasim.debugopts import add_debug_options

    add_debug_options(p)
    p.set_defaults(run=_run_run)


def _run_run(args: argparse.Namespace) -> int:
    from isasim.config import ConfigError
    from isasim.interrupt import EXIT_INTERRUPTED, RunInterrupted
    from isasim.machine import LoadError, Machine
    from traces.outputs import Outputs, run_with_outputs
    from traces.term import StatusLine, notice_if_slow

    outputs = Outputs(trace=args.trace, vcd=args.vcd, report=args.report, keep_events=args.json,
                      title=f"isasim run {args.program}")
    problem = outputs.check()
    if problem:
        _error(args, problem)
        return USAGE_ERROR
    overrides = {}
    if args.cores is not None:
        overrides["cores"] = args.cores
    if _selection(args) is not None:
        overrides["xpulp"] = _selection(args)
    from isasim import debugopts

    try:
        machine = Machine(args.config, translate=debugopts.translate(args), **overrides)
        family = _selection(args)
        with notice_if_slow("isasim run: compiling the program's straight-line code to machine "
                            "code (once per new program, then cached; --interpret skips it)"):
            machine.load(args.program, family=family, include_dirs=args.include_dirs)
        debugopts.prepare(machine, args)
    except (ConfigError, LoadError, ValueError) as e:
        _error(args, str(e))
        return USAGE_ERROR
    for warning in machine.program.warnings:
        print(printable(warning), file=sys.stderr)
    written = None
    status = StatusLine("isasim run")
    try:
        if debugopts.wanted(args):
            result = debugopts.run(machine, args)
        elif outputs.wanted:
            result, written = run_with_outputs(machine, args.max_cycles, outputs, status)
        else:
            result = machine.run(args.max_cycles, progress=status)
    except RunInterrupted as stop:
        result = stop.result
    except debugopts.DebugError as e:
        _error(args, str(e))
        return USAGE_ERROR
    finally:
        status.close()
    if result is None:
        _error(args, "killed by the debugger")
        return debugopts.KILLED
    guest_out = sys.stdout if args.format in ("table", "markdown") else sys.stderr
    guest_out.write(result.stdout)
    if result.stdout and not result.stdout.endswith("\n"):
        guest_out.write("\n")
    guest_out.flush()
    if not args.quiet:
        _show([run_table(result)], args)
    if args.json:
        result.save(args.json)
    for event in result.warnings:
        print(f"guest event: {printable(event)}", file=sys.stderr)
    if written is not None:
        for line in written.messages:
            print(printable(line), file=sys.stderr)
        for line in written.errors:
            _error(args, line)
    debugopts.finish(machine, args, result)
    if result.fault is not None:
        print(printable(result.fault.format()), file=sys.stderr)
    if result.status == "interrupted":
        return EXIT_INTERRUPTED
    if result.fault is not None:
        return GUEST_FAULT
    if written is not None and written.errors:
        return USAGE_ERROR
    return result.exit_code & 0xFF


def run_table(result):
    from traces.term import per_core_table

    return per_core_table(result)


# ---- isasim report -----------------------------------------------------------------------------
def _setup_report(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("report", help="stall breakdown, hot spots and conflicting (pc, bank) "
                                      "pairs of a saved run")
    p.add_argument("result", help="run result written by 'isasim run --json'")
    p.add_argument("--top", type=_positive, default=10, help="rows per table (default: 10)")
    p.add_argument("--html", metavar="OUT", help="also write the HTML report to OUT")
    add_table_options(p)
    p.set_defaults(run=_run_report)


def _run_report(args: argparse.Namespace) -> int:
    from traces.eventlog import EventLog, TraceFileError, resolve_trace
    from traces.outputs import load_result
    from traces.report import report_tables

    try:
        result = load_result(args.result)
    except ValueError as e:
        _error(args, str(e))
        return USAGE_ERROR
    log, note = None, None
    path = resolve_trace(result, args.result)
    if path is None:
        note = (f"{args.result} was saved without an event log, so there are no (pc, bank) "
                f"pairs or timeline: run it again with --json and --trace, --vcd or --report")
    else:
        try:
            log = EventLog(path)
        except TraceFileError as e:
            note = f"event log unusable: {e}"
    _show(report_tables(result, log, args.top), args)
    if log is None:
        print(note or "no event log for this run",
              file=sys.stdout if args.format in ("table", "markdown") else sys.stderr)
    if args.html:
        from traces.html import write_html

        write_html(result, log, args.html, f"isasim report {args.result}")
        print(f"HTML report: {args.html}" + ("" if log else " (no timeline: no event log)"),
              file=sys.stderr)
    return 0


# ---- isasim diff -------------------------------------------------------------------------------
def _setup_diff(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("diff", help="compare two saved runs per core, category and function")
    p.add_argument("a", help="run result A (isasim run --json)")
    p.add_argument("b", help="run result B")
    p.add_argument("--top", type=_positive, default=10,
                   help="functions to list (default: 10)")
    add_table_options(p)
    p.set_defaults(run=_run_diff)


def _run_diff(args: argparse.Namespace) -> int:
    from traces.diff import diff_view
    from traces.outputs import load_result

    try:
        a, b = load_result(args.a), load_result(args.b)
    except ValueError as e:
        _error(args, str(e))
        return USAGE_ERROR
    _show(diff_view(a, b, (args.a, args.b), args.top), args)
    return 0


# ---- isasim config show -------------------------------------------------------------------------
def _setup_config(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("config", help="show a cluster configuration")
    csub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    show = csub.add_parser("show", help="print every number of a preset or config file")
    show.add_argument("config", nargs="?", default="pulp-open",
                      help="preset name or TOML file (default: pulp-open)")
    add_table_options(show)
    show.set_defaults(run=_run_config_show)
    lst = csub.add_parser("list", help="list the presets")
    lst.set_defaults(run=_run_config_list)


def _run_config_show(args: argparse.Namespace) -> int:
    import dataclasses

    from isasim.config import FIELD_DOCS, ConfigError, load_config
    from traces.term import Column, Tabular

    try:
        cfg = load_config(args.config)
    except ConfigError as e:
        _error(args, str(e))
        return USAGE_ERROR
    table = Tabular(f"cluster configuration {cfg.name!r}",
                    [Column("setting", key=True), Column("value", number=True),
                     Column("meaning")])
    for f in dataclasses.fields(cfg):
        if f.name == "extra":
            continue
        v = getattr(cfg, f.name)
        shown = f"{v:#x}" if isinstance(v, int) and f.name.endswith("_base") else str(v)
        table.add(f.name, shown, FIELD_DOCS.get(f.name, ""))
    _show([table], args)
    return 0


def _run_config_list(args: argparse.Namespace) -> int:
    from isasim.config import load_preset, preset_names

    for name in preset_names():
        print(f"{name:12s} {load_preset(name).cores} cores")
    return 0


SUBCOMMANDS: list[Callable[[argparse._SubParsersAction], None]] = [_setup_asm, _setup_disasm,
                                                                     _setup_run, _setup_report,
                                                                     _setup_diff, _setup_config]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="isasim", description="RV32IMFC + Xpulp toolchain "
                                     "and PULP-cluster simulator")
    from isasim.debugopts import version

    parser.add_argument("--version", action="version", version=f"isasim {version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for setup in SUBCOMMANDS:
        setup(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:   # argparse has printed the usage message
        return e.code if isinstance(e.code, int) else USAGE_ERROR
    try:
        return args.run(args)
    except KeyboardInterrupt:            # Ctrl-C outside a run (a run reports its figures)
        print(f"isasim {args.command}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except AsmError as e:
        print(printable(str(e)), file=sys.stderr)
    except ElfError as e:
        _error(args, str(e))
    except BrokenPipeError:
        # the reader went away (`| head`): stop quietly, as cat and grep do
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as e:
        where = f"{e.filename}: " if e.filename else ""
        _error(args, f"{where}{e.strerror or e}")
    return USAGE_ERROR


if __name__ == "__main__":
    sys.exit(main())
