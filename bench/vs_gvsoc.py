"""isasim side by side with GVSoC on the same pulp-open ELFs.

Builds the bare-metal programs of ``examples/pulp-open`` (Debian's riscv64-unknown-elf-gcc),
runs each on isasim's ``pulp-open-soc`` preset and on GVSoC's pulp-open (found by
``bench/gvsoc_runner.py``: ``$ISASIM_GVSOC_DIR``), and prints per program the
cycles and instructions the program's own performance counters report (core 0's counted
region, PCER cycles / instructions), the wall time of each simulator, their MIPS (the counted
instructions of every core over the wall time) and the differences.  The outputs and exit
statuses are compared too.  docs/soc.md explains every cycle difference by a rule.

    python bench/vs_gvsoc.py            # the programs at bench size (about a minute of GVSoC)
    python bench/vs_gvsoc.py --quick    # test sizes
    python bench/vs_gvsoc.py --full     # the ALU loop at 100 M instructions per core
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from gvsoc_runner import HOW_TO_BUILD, find_gvsoc, run_gvsoc  # noqa: E402

from isasim.machine import Machine  # noqa: E402

COUNTS = re.compile(r"^core (\d+) cycles (\d+) instructions (\d+)$", re.M)

# (program, defines at test size, defines at bench size)
PROGRAMS = [
    ("alu_loop", ("-DITERS=2500",), ("-DITERS=2500000",)),
    ("branches", ("-DITERS=2000",), ("-DITERS=2000000",)),
    ("tcdm_loads", ("-DPASSES=2",), ("-DPASSES=500",)),
    ("l2_loads", ("-DPASSES=1",), ("-DPASSES=50",)),
    ("icache_miss", ("-DPASSES=1",), ("-DPASSES=100",)),
    ("barrier", ("-DROUNDS=10",), ("-DROUNDS=2000",)),
    ("dma", (), ()),
    ("matmul_int32", ("-DN=16",), ("-DN=64",)),
    ("matmul_fp32", ("-DN=16",), ("-DN=64",)),
    ("fc_loads", ("-DITERS=256",), ("-DITERS=256000",)),
    ("cluster_wait", (), ()),
    ("hello", (), ()),
]


def builder():
    spec = importlib.util.spec_from_file_location("pulp_open_build",
                                                  ROOT / "examples" / "pulp-open" / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def counted(stdout: str) -> tuple[int, int]:
    """(core 0's counted cycles, counted instructions of every core) from the program's output;
    a program that prints several regions (fc_loads) adds them up."""
    rows = [tuple(int(x) for x in m) for m in COUNTS.findall(stdout)]
    return (sum(c for core, c, _ in rows if core == 0), sum(n for _, _, n in rows))


def run_isasim(elf: Path) -> tuple[str, int, float]:
    started = time.perf_counter()
    r = Machine("pulp-open-soc").load(elf).run()
    wall = time.perf_counter() - started
    if r.status != "exited":
        raise RuntimeError(f"isasim: {elf.name}: {r.status}: {r.fault}")
    return r.stdout, r.exit_code, wall


def mips(instructions: int, wall: float) -> str:
    return f"{instructions / wall / 1e6:.1f}" if instructions and wall > 0 else "-"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    size = ap.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true", help="test sizes (seconds)")
    size.add_argument("--full", action="store_true",
                      help="also the ALU loop at 100 M instructions per core")
    ap.add_argument("programs", nargs="*", help="only these programs")
    args = ap.parse_args(argv)
    console = Console(width=220)
    home = find_gvsoc()
    if home is None:
        console.print(f"skipped: {HOW_TO_BUILD}")
        return 0
    b = builder()
    if not b.have_gcc():
        console.print("skipped: riscv64-unknown-elf-gcc not found (Debian: apt-get install "
                      "gcc-riscv64-unknown-elf)")
        return 0
    programs = [(n, q if args.quick else f) for n, q, f in PROGRAMS
                if not args.programs or n in args.programs]
    if args.full:
        programs.append(("alu_loop", ("-DITERS=25000000",)))
    # the engine's first run compiles it: warm it up outside the measurements
    with tempfile.TemporaryDirectory() as tmp:
        run_isasim(b.build("hello", Path(tmp)))
        table = Table(title=f"isasim pulp-open-soc vs GVSoC pulp-open ({home})")
        for col in ("program", "cycles isasim", "cycles GVSoC", "diff", "instr isasim",
                    "instr GVSoC", "wall isasim s", "wall GVSoC s", "MIPS isasim",
                    "MIPS GVSoC", "speed-up", "same output"):
            table.add_column(col, justify="left" if col == "program" else "right")
        for i, (name, defines) in enumerate(programs):
            elf = b.build(name, Path(tmp) / str(i), defines)
            out_i, code_i, wall_i = run_isasim(elf)
            g = run_gvsoc(home, elf)
            cyc_i, ins_i = counted(out_i)
            cyc_g, ins_g = counted(g.stdout)
            same = (sorted(out_i.splitlines()) == sorted(g.stdout.splitlines())
                    and code_i == g.exit_code) if not cyc_i else code_i == g.exit_code
            label = name + ("" if not defines else " " + " ".join(d[2:] for d in defines))
            diff = f"{(cyc_i - cyc_g) / cyc_g:+.1%}" if cyc_g else "-"
            table.add_row(label, f"{cyc_i:,}" if cyc_i else "-", f"{cyc_g:,}" if cyc_g else "-",
                          diff, f"{ins_i:,}" if ins_i else "-", f"{ins_g:,}" if ins_g else "-",
                          f"{wall_i:.2f}", f"{g.wall:.2f}", mips(ins_i, wall_i),
                          mips(ins_g, g.wall), f"{g.wall / wall_i:.1f}x",
                          "yes" if same else "NO")
    console.print(table)
    console.print("cycles: core 0's counted region (PCER cycles); instructions and MIPS: every "
                  "core's counted instructions (wall: the whole run, GVSoC's start-up "
                  "included); same output: the program's lines (any order for the cores' "
                  "counts, which the two print alike) and exit status")
    return 0


if __name__ == "__main__":
    sys.exit(main())
