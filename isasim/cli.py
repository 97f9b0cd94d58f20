"""The ``isasim`` command line: one subcommand = one ``_setup_*`` function + one ``_run_*``.

Every failure the user can cause (bad source, bad ELF, missing file, bad arguments) ends with a
message on stderr and exit status 2, never a Python traceback.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from toolchain.asm import AsmError
from toolchain.elf import ElfError

XPULP = {"pulpv2": "xpulpv2", "corev": "corev", "none": "none"}
USAGE_ERROR = 2


def _xpulp_option(p: argparse.ArgumentParser, default: str | None, help_text: str) -> None:
    p.add_argument("--xpulp", choices=sorted(XPULP), default=default, help=help_text)


# ---- isasim asm --------------------------------------------------------------------------------
def _setup_asm(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("asm", help="assemble a GNU-as source file into an ELF executable")
    p.add_argument("source", help="assembly source (.s)")
    p.add_argument("-o", "--output", help="output ELF (default: SOURCE with .elf)")
    _xpulp_option(p, "pulpv2", "Xpulp instruction family (default: pulpv2)")
    p.add_argument("--no-rvc", action="store_true",
                   help="start with .option norvc (no compressed instructions)")
    p.set_defaults(run=_run_asm)


def _run_asm(args: argparse.Namespace) -> int:
    from toolchain.commands import assemble_file

    assemble_file(args.source, args.output, XPULP[args.xpulp], rvc=not args.no_rvc)
    return 0


# ---- isasim disasm -----------------------------------------------------------------------------
def _setup_disasm(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("disasm", help="disassemble the code of an RV32 ELF file")
    p.add_argument("elf", help="ELF file (ours, or built by GCC/LLVM)")
    p.add_argument("--no-aliases", action="store_true",
                   help="print base instructions, not pseudo-instructions")
    _xpulp_option(p, None, "Xpulp family to decode with (default: the one the file records, "
                           "else pulpv2)")
    p.set_defaults(run=_run_disasm)


def _run_disasm(args: argparse.Namespace) -> int:
    from toolchain.commands import disassemble_file

    family = XPULP[args.xpulp] if args.xpulp else None
    sys.stdout.write(disassemble_file(args.elf, family, aliases=not args.no_aliases))
    return 0


SUBCOMMANDS: list[Callable[[argparse._SubParsersAction], None]] = [_setup_asm, _setup_disasm]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="isasim", description="RV32IMFC + Xpulp toolchain "
                                     "and PULP-cluster simulator")
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
    except AsmError as e:
        print(e, file=sys.stderr)
    except ElfError as e:
        print(f"isasim {args.command}: {e}", file=sys.stderr)
    except OSError as e:
        where = f"{e.filename}: " if e.filename else ""
        print(f"isasim {args.command}: {where}{e.strerror or e}", file=sys.stderr)
    return USAGE_ERROR


if __name__ == "__main__":
    sys.exit(main())
