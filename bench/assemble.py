"""Assembler throughput on the programs trainlib builds: every kernel file behind a driver.

trainlib (and its autotuner, once per candidate) assembles the same kernel files again and
again behind a driver that differs each time, so the kernels land at other addresses.  This
script does the same: in each round, every kernel file of ``asm_kernels/`` is assembled behind
a driver of a different length (the kernels move by 4 bytes per round).  Round 1 is what a fresh
process pays; the later rounds show what the encoder's cache of matched statements
(``toolchain/asm/encode.py``) saves once the kernels have been seen.  The sources stay distinct,
so nothing above the assembler (trainlib's own cache of whole programs) is involved.

    python bench/assemble.py [--rounds 4]
"""

from __future__ import annotations

import argparse
import time

from rich.console import Console
from rich.table import Table

from asm_kernels.catalogue import kernel_dir
from toolchain.asm import assemble
from toolchain.asm.lexer import read_source


def driver(round_: int) -> str:
    return ("    .text\n    .globl _start\n_start:\n" + "    addi x0, x0, 0\n" * round_
            + "    li a0, 0\n    li a7, 93\n    ecall\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=4)
    args = ap.parse_args()
    files = sorted(f for f in kernel_dir().iterdir() if f.name.endswith(".s"))
    sources = [read_source(f) for f in files]
    lines = sum(s.count("\n") for s in sources)
    table = Table(title=f"assembling {len(files)} kernel files ({lines:,} source lines) "
                        "behind a driver")
    for col in ("round", "seconds", "programs / s", "source lines / s"):
        table.add_column(col, justify="right")
    for r in range(args.rounds):
        t = time.perf_counter()
        for src in sources:
            assemble(driver(r) + src, filename="bench.s", family="xpulpv2",
                     include_dirs=[kernel_dir()])
        dt = time.perf_counter() - t
        table.add_row(f"{r + 1}" + (" (fresh process)" if r == 0 else ""), f"{dt:.2f}",
                      f"{len(files) / dt:.1f}", f"{lines / dt:,.0f}")
    Console().print(table)


if __name__ == "__main__":
    main()
