"""Engine cost in host instructions per simulated instruction: a speed figure that noise spares.

Wall-clock MIPS on this shared 2-core host swing by up to 2x from one minute to the next, so
comparing two versions of the engine by time needs many alternating runs.  The number of
instructions the host executes does not swing: ``perf stat -e instructions:u`` counts them.  For
each workload of ``bench/engine.py`` (the fp32 matmul, on 1 core and on 8 cores under each
conflict policy) this script runs two child processes: both load the engine and run the
program once, then set the machine up ``REPEATS`` times more, and only the second runs it each
time.  The difference of their instruction counts, divided by ``REPEATS`` and by the simulated
instructions, is the cost of the simulation alone (start-up, compilation, assembling and setting
up excluded).  It also prints the lost arbitrations that explain the multi-core overhead.
Needs Linux ``perf`` (perf_event_paranoid <= 2).

    python bench/host_instructions.py [--repeats 10]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

WORKLOADS = (("1 core", 1, "round_robin"), ("8 cores, round robin", 8, "round_robin"),
             ("8 cores, FIFO", 8, "fifo"), ("8 cores, no conflicts", 8, "none"))


def child(cores: int, policy: str, repeats: int, run: bool) -> None:
    """Warm up with one run, then set up the bench matmul ``repeats`` times, running it each time
    if ``run``; print the simulated instructions and lost cycles of one run."""
    sys.path.insert(0, str(Path(__file__).parent))
    from engine import N, matmul

    from isasim.machine import Machine
    from toolchain.asm import assemble

    program = assemble(matmul(cores), family="xpulpv2")
    rng = np.random.default_rng(0)
    a = rng.standard_normal(N * N).astype(np.float32)
    b = rng.standard_normal(N * N).astype(np.float32)

    def ready() -> Machine:
        m = Machine("pulp-open", cores=cores, conflict_policy=policy, stack_size=256)
        m.load(program)
        m.write("A", a)
        m.write("B", b)
        return m

    result = ready().run()
    for _ in range(repeats):
        m = ready()
        if run:
            m.run()
    print(int(result.instret.sum()), int(result.conflicts.sum()))


def host_instructions(cores: int, policy: str, repeats: int, run: bool) -> tuple[int, int, int]:
    """(host instructions of a child, simulated instructions per run, lost cycles per run)."""
    out = subprocess.run(
        ["perf", "stat", "-x", ",", "-e", "instructions:u", sys.executable, __file__, "--child",
         str(cores), policy, str(repeats), str(int(run))],
        capture_output=True, text=True, check=True)
    counted = next(line for line in out.stderr.splitlines() if "instructions" in line)
    simulated, lost = (int(v) for v in out.stdout.split())
    return int(counted.split(",")[0]), simulated, lost


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=10)
    ap.add_argument("--child", nargs=4, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(int(args.child[0]), args.child[1], int(args.child[2]), args.child[3] == "1")
        return
    if shutil.which("perf") is None:
        raise SystemExit("host_instructions: needs Linux `perf` on PATH")
    table = Table(title="engine cost per simulated instruction (fp32 matmul 64x64x64)")
    for col in ("workload", "simulated instr.", "lost arbitrations", "host instr. / instr."):
        table.add_column(col, justify="left" if col == "workload" else "right")
    # a child that finds numba's cache cold compiles the engine (a minute of host instructions):
    # fill the cache first so that both children of every pair load it
    host_instructions(1, "round_robin", 0, run=False)
    for name, cores, policy in WORKLOADS:
        setup, simulated, lost = host_instructions(cores, policy, args.repeats, run=False)
        both, _, _ = host_instructions(cores, policy, args.repeats, run=True)
        per = (both - setup) / args.repeats / simulated
        table.add_row(name, f"{simulated:,}", f"{lost:,}", f"{per:.0f}")
    Console().print(table)


if __name__ == "__main__":
    main()
