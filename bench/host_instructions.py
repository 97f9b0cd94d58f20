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
With ``--ops`` it prints instead what each common kind of instruction costs on its own: a
single-core loop of one instruction repeated (an ALU operation, a TCDM load or store, an fp32
fused multiply-add), the differences between them being what each path of the loop adds.
Needs Linux ``perf`` (perf_event_paranoid <= 2).

    python bench/host_instructions.py [--repeats 10] [--ops]
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
# --ops: one instruction repeated, operands in registers set up once and a word of the TCDM
OPS = {"ALU (addi)": "addi a2, a2, 1", "TCDM load (lw)": "lw a2, 0(s0)",
       "TCDM load (flw)": "flw fa0, 0(s0)", "TCDM store (sw)": "sw a2, 0(s0)",
       "fused multiply-add (fmadd.s)": "fmadd.s fa1, fa2, fa3, fa4"}
OP_REPEAT = 50          # copies of the instruction in the loop body
OP_ITERATIONS = 20_000  # about a million simulated instructions


def op_loop(statement: str) -> str:
    """A single-core program running ``statement`` OP_REPEAT x OP_ITERATIONS times."""
    from engine import EXIT  # bench/ is on the path (see child)

    body = "\n".join(f"    {statement}" for _ in range(OP_REPEAT))
    return f"""
    .text
    .globl _start
_start:
    li t0, 0x6000
    csrs mstatus, t0            # enable the FPU
    la s0, buf
    li t0, 0x3f800000           # 1.0 in every FP source
    fmv.w.x fa2, t0
    fmv.w.x fa3, t0
    fmv.w.x fa4, t0
    li a1, {OP_ITERATIONS}
loop:
{body}
    addi a1, a1, -1
    bnez a1, loop
{EXIT}
    .section .l1, "aw"
buf: .zero 64
"""


def child(workload: str, repeats: int, run: bool) -> None:
    """Warm up with one run, then set the workload (``cores/policy`` for the bench matmul, else a
    key of OPS) up ``repeats`` times, running it each time if ``run``; print the simulated
    instructions and lost cycles of one run."""
    sys.path.insert(0, str(Path(__file__).parent))
    from engine import N, matmul

    from isasim.machine import Machine
    from toolchain.asm import assemble

    if workload in OPS:
        cores, policy, source = 1, "round_robin", op_loop(OPS[workload])
    else:
        count, policy = workload.split("/")
        cores = int(count)
        source = matmul(cores)
    program = assemble(source, family="xpulpv2")
    rng = np.random.default_rng(0)
    a = rng.standard_normal(N * N).astype(np.float32)
    b = rng.standard_normal(N * N).astype(np.float32)

    def ready() -> Machine:
        m = Machine("pulp-open", cores=cores, conflict_policy=policy, stack_size=256)
        m.load(program)
        if workload not in OPS:
            m.write("A", a)
            m.write("B", b)
        return m

    result = ready().run()
    for _ in range(repeats):
        m = ready()
        if run:
            m.run()
    print(int(result.instret.sum()), int(result.conflicts.sum()))


def host_instructions(workload: str, repeats: int, run: bool) -> tuple[int, int, int]:
    """(host instructions of a child, simulated instructions per run, lost cycles per run)."""
    out = subprocess.run(
        ["perf", "stat", "-x", ",", "-e", "instructions:u", sys.executable, __file__, "--child",
         workload, str(repeats), str(int(run))],
        capture_output=True, text=True, check=True)
    counted = next(line for line in out.stderr.splitlines() if "instructions" in line)
    simulated, lost = (int(v) for v in out.stdout.split())
    return int(counted.split(",")[0]), simulated, lost


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=10)
    ap.add_argument("--ops", action="store_true",
                    help="cost of single instruction kinds instead of the matmul workloads")
    ap.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child[0], int(args.child[1]), args.child[2] == "1")
        return
    if shutil.which("perf") is None:
        raise SystemExit("host_instructions: needs Linux `perf` on PATH")
    if args.ops:
        title = f"engine cost of one instruction repeated (1 core, {OP_REPEAT}x unrolled loop)"
        rows = [(name, name) for name in OPS]
    else:
        title = "engine cost per simulated instruction (fp32 matmul 64x64x64)"
        rows = [(name, f"{cores}/{policy}") for name, cores, policy in WORKLOADS]
    table = Table(title=title)
    for col in ("workload", "simulated instr.", "lost arbitrations", "host instr. / instr."):
        table.add_column(col, justify="left" if col == "workload" else "right")
    # a child that finds numba's cache cold compiles the engine (a minute of host instructions):
    # fill the cache first so that both children of every pair load it
    host_instructions(rows[0][1], 0, run=False)
    for name, workload in rows:
        setup, simulated, lost = host_instructions(workload, args.repeats, run=False)
        both, _, _ = host_instructions(workload, args.repeats, run=True)
        per = (both - setup) / args.repeats / simulated
        table.add_row(name, f"{simulated:,}", f"{lost:,}", f"{per:.0f}")
    Console().print(table)


if __name__ == "__main__":
    main()
