"""The debugging and conformance options of ``isasim run``: ``--gdb``, ``--log-commits``,
``--signature``, ``--no-stack``; the command line only adds them and calls these functions."""

from __future__ import annotations

import argparse

from isasim import layout as L

KILLED = 137          # exit status when GDB kills the run (128 + SIGKILL, as a shell reports)


class DebugError(ValueError):
    """A debugging option that cannot be honoured (bad address, file, combination)."""


def version() -> str:
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version("isasim")
    except PackageNotFoundError:
        return "unknown (not installed)"


def _granularity(text: str) -> int:
    try:
        n = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
    if n < 1 or n & (n - 1):
        raise argparse.ArgumentTypeError(f"must be a power of two, got {n}")
    return n


def add_debug_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("debugging and conformance (docs/debugging.md)")
    g.add_argument("--gdb", metavar="[localhost]:PORT",
                   help="wait for GDB (gdb-multiarch: set architecture riscv:rv32; target "
                        "remote :PORT) and serve it; each core is a thread; PORT 0 picks one")
    g.add_argument("--log-commits", metavar="FILE",
                   help="write every retired instruction in Spike's -l --log-commits format")
    g.add_argument("--signature", metavar="FILE",
                   help="at the end, dump memory from begin_signature to end_signature (as "
                        "Spike's --signature)")
    g.add_argument("--signature-granularity", metavar="N", type=_granularity, default=4,
                   help="bytes per signature line (default 4)")
    g.add_argument("--no-stack", action="store_true",
                   help="start every core with sp = 0 (bare tests that set up their own stack)")


def prepare(machine, args: argparse.Namespace) -> None:
    """Apply the reset-state options and check the combinations before the run."""
    if args.no_stack:
        for c in range(machine.config.cores):
            machine.R[c * L.RS + 2] = 0
    if args.gdb and (args.trace or args.vcd or args.report or args.log_commits):
        raise DebugError("--gdb cannot be combined with --trace, --vcd, --report or "
                         "--log-commits")
    if args.log_commits and (args.trace or args.vcd or args.report):
        raise DebugError("--log-commits cannot be combined with --trace, --vcd or --report")
    if args.signature:
        from isasim.signature import signature_range

        signature_range(machine.program)       # fails early when the symbols are missing


def translate(args: argparse.Namespace) -> bool | None:
    """``Machine(translate=...)``: translated code runs whole blocks between the loop's checks,
    so a debugger or a commit log, which stop the loop at instruction boundaries, turn it off."""
    if args.gdb or args.log_commits or getattr(args, "interpret", False):
        return False
    return None


def wanted(args: argparse.Namespace) -> bool:
    return bool(args.gdb or args.log_commits)


def run(machine, args: argparse.Namespace):
    """Run under GDB or with a commit log; the RunResult (None: GDB killed the run)."""
    if args.gdb:
        from isasim.gdbstub import GdbError, serve

        try:
            return serve(machine, args.gdb, args.max_cycles)
        except GdbError as e:
            raise DebugError(str(e)) from None
    from isasim.commitlog import run_logged

    with open(args.log_commits, "w") as out:
        return run_logged(machine, out, args.max_cycles)


def finish(machine, args: argparse.Namespace, result) -> None:
    """After the run: the signature file."""
    if args.signature:
        from isasim.signature import write_signature

        write_signature(machine, args.signature, args.signature_granularity)
