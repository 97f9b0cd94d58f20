"""Simulation speed: isasim beside Unicorn and Spike on the same programs, in the same run.

Workloads (plain RV32IM/RV32IMF code, so the reference simulators run the very same bytes):
  (a) int loop  - single core, an 11-instruction integer loop (loads, ALU, stores, branch)
                  walking a 64-byte buffer in the TCDM (and, for comparison, in L2: every
                  access then pays the L2 latency and takes the engine's out-of-line path);
  (b) matmul    - single core, fp32 64x64x64 matrix multiply, 2x2 register blocking;
  (c) matmul x8 - the same kernel with the rows split over 8 cores (isasim only: the references
                  model no cluster), with the full timing model, once per conflict policy.
  (d) C matmul  - bench/c/matmul.c, 8 cores, 64x64 int32 and fp32, repeated 20 times, built
                  by Debian's riscv64-unknown-elf-gcc -O2 (skipped when it is not installed);
                  and beside GVSoC, the same kind of kernel as a program for GVSoC's pulp-open
                  (examples/pulp-open/matmul_{int32,fp32}.c), run on isasim's pulp-open-soc
                  and on GVSoC when ``$ISASIM_GVSOC_DIR`` names a build (bench/gvsoc_runner.py).
MIPS = simulated instructions / host seconds (best of several runs, the program already loaded;
a run of a few milliseconds is repeated until the repeats fill about half a second, at most 60
times, isasim's and Unicorn's alike: the best of three such runs is mostly the host's noise).
isasim runs on both paths: translated (the default: isasim.translate, straight-line code in
loops compiled per program through LLVM IR, same results; measured as the default path runs a
program translated before on the machine: at load, from the translation cache, see
``run_before``) and interpreted (``translate=False``, ``isasim run --interpret``), with the
ratio.  For the references the instruction count is
isasim's (identical programs take identical paths).  Then: the translation time of each program
with a cold translation cache (the bench matmul and every ISA test program), and in
subprocesses the numba first-compile cost (cold cache) and the cache-load cost.

    python bench/engine.py [--quick]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

from isasim.machine import Machine
from toolchain.asm import assemble
from toolchain.elf import write_elf

N = 64
EXIT = """
    la t0, tohost
    li t1, 1
    sw t1, 0(t0)
    sw zero, 4(t0)
done:
    j done
    .section .tohost, "aw"
    .p2align 6
    .globl tohost
tohost: .word 0, 0
    .globl fromhost
fromhost: .word 0, 0
"""


def int_loop(iters: int, section: str) -> str:
    return textwrap.dedent(f"""
        .text
        .globl _start
    _start:
        la s0, buf
        mv a0, s0
        li a1, {iters}
        li a2, 0x12345
    1:  lw a3, 0(a0)
        add a3, a3, a2
        xor a2, a2, a3
        slli a4, a3, 3
        srli a5, a3, 5
        or a3, a4, a5
        sw a3, 0(a0)
        andi a5, a3, 60
        add a0, s0, a5
        addi a1, a1, -1
        bnez a1, 1b
    """) + EXIT + f"\n    {section}\nbuf: .zero 64\n"


def matmul(cores: int) -> str:
    """C = A.B, 2x2 blocks of C; core h takes row pairs h, h + cores, ...

    On several cores, all of them meet in hardware barrier 0 (a plain load of its trigger-wait
    register) before core 0 ends the run, so every core's work is counted.
    """
    team = (1 << cores) - 1
    setup = join = ""
    if cores > 1:
        setup = f"""
        li s10, 0x10204000          # event unit
        li t0, {team}
        sw t0, 0x200(s10)           # barrier 0: these cores trigger it ...
        sw t0, 0x20c(s10)           # ... and are woken by it
        li t0, 1 << 16
        sw t0, 0x8(s10)             # listen to barrier events"""
        join = """
        lw t0, 0x21c(s10)           # barrier 0: trigger, wait, clear"""
    return textwrap.dedent(f"""
        .equ N, {N}
        .text
        .globl _start
    _start:
        li t0, 0x6000
        csrs mstatus, t0            # FS = dirty: enable the FPU (Spike resets it off)
        csrr s0, mhartid
        andi s0, s0, 31{setup}
        bnez s0, worker
        j go
    worker:
        li t0, {cores}
        bgeu s0, t0, park
    go:
        slli s1, s0, 1              # first row pair
        li s9, N
    rows:
        bgeu s1, s9, finish
        li s2, 0                    # column pair
    cols:
        la t0, A
        slli t1, s1, 8
        add t0, t0, t1              # &A[i][0]
        addi t5, t0, 4 * N          # &A[i+1][0]
        la t2, B
        slli t3, s2, 2
        add t2, t2, t3              # &B[0][j]
        fmv.w.x ft0, zero
        fmv.w.x ft1, zero
        fmv.w.x ft2, zero
        fmv.w.x ft3, zero
        li t6, N
    k:  flw fa0, 0(t0)
        flw fa1, 0(t5)
        flw fa2, 0(t2)
        flw fa3, 4(t2)
        addi t0, t0, 4
        addi t5, t5, 4
        addi t2, t2, 4 * N
        fmadd.s ft0, fa0, fa2, ft0
        fmadd.s ft1, fa0, fa3, ft1
        fmadd.s ft2, fa1, fa2, ft2
        fmadd.s ft3, fa1, fa3, ft3
        addi t6, t6, -1
        bnez t6, k
        la t4, C
        slli t1, s1, 8
        add t4, t4, t1
        slli t3, s2, 2
        add t4, t4, t3
        fsw ft0, 0(t4)
        fsw ft1, 4(t4)
        fsw ft2, 4 * N(t4)
        fsw ft3, 4 * N + 4(t4)
        addi s2, s2, 2
        bltu s2, s9, cols
        addi s1, s1, {2 * cores}
        j rows
    finish:{join}
        bnez s0, park
    """) + EXIT + textwrap.dedent("""
        .text
    park:
        li a7, 93
        li a0, 0
        ecall
        .section .l1, "aw"
    A:  .zero N * N * 4
    B:  .zero N * N * 4
    C:  .zero N * N * 4
    """)


FILL_SECONDS = 0.5     # a short workload's repeats add up to about this much ...
MAX_REPEATS = 60       # ... in at most this many runs


def best_seconds(timed: Callable[[int], float], repeats: int, warm_up: bool = False) -> float:
    """The best of ``timed(i)`` (the seconds of run i) over at least ``repeats`` runs, more for
    a short one: up to FILL_SECONDS of runs, at most MAX_REPEATS.  ``warm_up``: one run more
    first, not counted (it pays the numba cache load and the translation)."""
    first = 1 if warm_up else 0
    if warm_up:
        timed(0)
    best = timed(first)
    runs = max(repeats, min(MAX_REPEATS, int(FILL_SECONDS / max(best, 1e-6))))
    for i in range(first + 1, first + runs):
        best = min(best, timed(i))
    return best


def isasim_mips(source: str, cores: int, policy: str, repeats: int, data: bool,
                translate: bool = True) -> tuple[int, float]:
    program = assemble(source, family="xpulpv2")
    n = 0

    def timed(i: int) -> float:
        nonlocal n
        with run_before(translate and i == 0):
            m = Machine("pulp-open", cores=cores, conflict_policy=policy, stack_size=256,
                        translate=translate)
            m.load(program)
        if data:
            rng = np.random.default_rng(0)
            m.write("A", rng.standard_normal(N * N).astype(np.float32))
            m.write("B", rng.standard_normal(N * N).astype(np.float32))
        t = time.perf_counter()
        r = m.run()
        dt = time.perf_counter() - t
        r.check_invariant()
        n = int(r.instret.sum())
        return dt

    best = best_seconds(timed, repeats, warm_up=True)
    return n, best


@contextlib.contextmanager
def run_before(first: bool):
    """The first of the translated runs translates the program at load
    (``ISASIM_TRANSLATE=eager``), as a program's earlier run on this machine would have: the
    measured runs then take the default path for a program run before (translated at load,
    from the translation cache), whatever their length.  A program's very first run on a
    machine is interpreted until it outlasts its first slice."""
    saved = os.environ.get("ISASIM_TRANSLATE")
    if first:
        os.environ["ISASIM_TRANSLATE"] = "eager"
    try:
        yield
    finally:
        if saved is None:
            os.environ.pop("ISASIM_TRANSLATE", None)
        else:
            os.environ["ISASIM_TRANSLATE"] = saved


def unicorn_seconds(source: str, repeats: int) -> float | None:
    try:
        import unicorn
        import unicorn.riscv_const as rc
    except ImportError:
        return None
    program = assemble(source, family="none")
    done = program.symbol("done")

    def timed(_: int) -> float:
        uc = unicorn.Uc(unicorn.UC_ARCH_RISCV, unicorn.UC_MODE_RISCV32)
        for seg in program.segments():
            lo = seg.addr & ~0xFFF
            hi = (seg.addr + max(seg.size, 1) + 0xFFF) & ~0xFFF
            with contextlib.suppress(unicorn.UcError):    # page already mapped
                uc.mem_map(lo, hi - lo)
            uc.mem_write(seg.addr, seg.data)
        uc.reg_write(rc.UC_RISCV_REG_MSTATUS, 0x6000)     # FS = dirty: FP enabled
        t = time.perf_counter()
        uc.emu_start(program.entry, done)
        return time.perf_counter() - t

    return best_seconds(timed, repeats)


def spike_seconds(source: str, repeats: int, workdir: Path) -> float | None:
    exe = shutil.which("spike")
    if exe is None:
        return None
    program = assemble(source, family="none", l2_base=0x80000000, tcdm_base=0x80400000)
    elf = workdir / "prog.elf"
    write_elf(program, elf)
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        subprocess.run([exe, "--isa=rv32imfc_zicsr_zifencei", "-m0x80000000:0x800000", str(elf)],
                       check=True, capture_output=True, timeout=600)
        best = min(best, time.perf_counter() - t)
    return best


def compile_costs() -> tuple[float, float]:
    """Seconds for a process to run a tiny program: cold numba cache, then warm cache."""
    script = ("import time; t=time.perf_counter(); from isasim.machine import Machine; "
              "Machine('single-core').load(__import__('toolchain.asm', fromlist=['x']).assemble("
              "'_start: li a7, 93\\n li a0, 0\\n ecall\\n')).run(); "
              "print(time.perf_counter()-t)")
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        cold = float(subprocess.run([sys.executable, "-c", script], env=env, check=True,
                                    capture_output=True, text=True).stdout)
        warm = float(subprocess.run([sys.executable, "-c", script], env=env, check=True,
                                    capture_output=True, text=True).stdout)
    return cold, warm


def translation_times() -> list[tuple]:
    """(program, then for the default selection and for every run: entries, seconds) of
    translating the 8-core bench matmul and each ISA test program with an empty translation
    cache: what a new program costs once (the time to load it interpreted is subtracted)."""
    import re

    from isasim import layout as L
    from isasim import llvm_jit

    root = Path(__file__).resolve().parents[1] / "tests" / "isa" / "programs"
    programs = [("bench matmul, 8 cores", assemble(matmul(8), family="xpulpv2"), 8)]
    for src in sorted(root.glob("*.s")):
        family = re.search(r"^family = (\S+)", src.with_suffix(".exp").read_text(), re.M)
        programs.append((src.stem, assemble(src.read_text(), str(src),
                                            family=family.group(1) if family else "xpulpv2"), 1))
    out = []
    saved = {k: os.environ.get(k) for k in ("ISASIM_TRANSLATE_CACHE", "ISASIM_TRANSLATE")}
    try:
        for name, program, cores in programs:
            row: list = [name]
            for mode in ("eager", "all"):   # the runs in loops (the default), every run
                with tempfile.TemporaryDirectory() as cache:
                    os.environ.update(ISASIM_TRANSLATE_CACHE=cache, ISASIM_TRANSLATE=mode)
                    llvm_jit._LOADED.clear()     # (a program seen in this process is not new)
                    t = time.perf_counter()
                    Machine("pulp-open", cores=cores, stack_size=256,
                            translate=False).load(program)
                    plain = time.perf_counter() - t
                    t = time.perf_counter()
                    m = Machine("pulp-open", cores=cores, stack_size=256).load(program)
                    took = time.perf_counter() - t - plain
                    code = m.code.reshape(-1, L.NF)
                    row += [int((code[:, L.F_TX] >= 0).sum()), max(took, 0.0)]
            out.append(tuple(row))
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return out


def batch_seconds(tmp: Path) -> tuple[int, float, float]:
    """(programs, seconds translated, seconds interpreted) of a batch of small programs, each
    in its own ``isasim run`` process, as a script or a tuner runs them: the ISA test programs
    plus integer loops of different lengths (each a new program for the translation cache, which
    starts empty)."""
    import re

    root = Path(__file__).resolve().parents[1] / "tests" / "isa" / "programs"
    jobs = []
    for src in sorted(root.glob("*.s")):
        family = re.search(r"^family = (\S+)", src.with_suffix(".exp").read_text(), re.M)
        jobs.append([str(src), "--xpulp", family.group(1) if family else "xpulpv2"])
    for i in range(60 - len(jobs)):
        path = tmp / f"loop{i}.s"
        path.write_text(int_loop(2000 + 37 * i, '.section .l1, "aw"'))
        jobs.append([str(path), "--xpulp", "xpulpv2"])
    seconds = []
    for extra in ([], ["--interpret"]):
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, ISASIM_TRANSLATE_CACHE=cache)
            t = time.perf_counter()
            for job in jobs:
                subprocess.run([sys.executable, "-m", "isasim.cli", "run", "--quiet", *job,
                                *extra], env=env, capture_output=True, check=False)
            seconds.append(time.perf_counter() - t)
    return len(jobs), seconds[0], seconds[1]


C_DIR = Path(__file__).parent / "c"
CROSS = "riscv64-unknown-elf-gcc"


def c_matmul_mips(tmp: Path, fp32: bool, repeats: int) -> tuple[int, float, float] | None:
    """(instructions, seconds translated, seconds interpreted) of bench/c/matmul.c on 8 cores,
    or None when the cross compiler is missing."""
    if shutil.which(CROSS) is None:
        return None
    elf = tmp / f"matmul{'_fp32' if fp32 else ''}.elf"
    subprocess.run([CROSS, "-march=rv32imf_zicsr", "-mabi=ilp32f", "-O2", "-ffreestanding",
                    "-nostdlib", "-nostartfiles", "-msmall-data-limit=0",
                    "-T", str(C_DIR / "link.ld"), *(["-DFP32"] if fp32 else []),
                    str(C_DIR / "start.S"), str(C_DIR / "matmul.c"), "-o", str(elf)],
                   check=True)
    from isasim.machine import load_program

    program = load_program(elf)
    seconds = []
    for translate in (True, False):
        best, n = float("inf"), 0
        for i in range(repeats + 1):
            with run_before(translate and not i):
                m = Machine("pulp-open", stack_size=256, translate=translate).load(program)
            t = time.perf_counter()
            r = m.run()
            best = min(best, time.perf_counter() - t) if i else best
            assert r.status == "exited", r.status
            n = int(r.instret.sum())
        seconds.append(best)
    return n, seconds[0], seconds[1]


SOC_PRODUCTS = 20


def soc_matmul_mips(fp32: bool, reps: int) -> tuple[int, float, float | None] | None:
    """(instructions, isasim MIPS, GVSoC MIPS or None when no build is found) of
    examples/pulp-open/matmul_{int32,fp32}.c, N = 64, on isasim's pulp-open-soc (the default
    path, as a program run before) and on GVSoC's pulp-open: every core's instructions counted
    by the program's performance counters, over the wall time, both taken as the difference
    between a run of 21 products and one of 1, which leaves out each simulator's start-up and
    the program's set-up.  None when the cross compiler is missing."""
    from gvsoc_runner import find_gvsoc, run_gvsoc
    from vs_gvsoc import builder, counted

    from isasim.machine import load_program

    build = builder()
    if not build.have_gcc():
        return None
    home = find_gvsoc()
    name = "matmul_fp32" if fp32 else "matmul_int32"
    got = {}
    with tempfile.TemporaryDirectory() as tmp:
        for products in (1, 1 + SOC_PRODUCTS):
            elf = build.build(name, Path(tmp) / str(products), ("-DN=64",
                                                                 f"-DREPS={products}"))
            program = load_program(elf)
            best = float("inf")
            for i in range(reps + 1):
                with run_before(not i):
                    m = Machine("pulp-open-soc").load(program)
                t = time.perf_counter()
                r = m.run()
                best = min(best, time.perf_counter() - t) if i else best
            assert r.status == "exited", r.status
            gvsoc = min((run_gvsoc(home, elf) for _ in range(min(reps, 2))),
                        key=lambda g: g.wall) if home else None
            got[products] = (counted(r.stdout)[1], best,
                             (counted(gvsoc.stdout)[1], gvsoc.wall) if gvsoc else None)
    (n1, t1, g1), (n2, t2, g2) = got[1], got[1 + SOC_PRODUCTS]
    g_mips = (g2[0] - g1[0]) / (g2[1] - g1[1]) / 1e6 if g1 and g2 else None
    return n2 - n1, (n2 - n1) / (t2 - t1) / 1e6, g_mips


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="smaller workloads, fewer repeats")
    ap.add_argument("--no-compile", action="store_true", help="skip the cold-compile measurement")
    ap.add_argument("--batch", action="store_true",
                    help="also time a batch of 60 small programs, one `isasim run` each")
    args = ap.parse_args()
    reps = 2 if args.quick else 3
    loop_iters = 200_000 if args.quick else 2_000_000
    console = Console(width=None if sys.stdout.isatty() else 150)   # logs: no wrapping
    table = Table(title="simulated MIPS (higher is better)")
    for col in ("workload", "instructions", "isasim", "interpreted", "ratio", "Unicorn",
                "Spike", "isasim cycles"):
        table.add_column(col, justify="right")

    def add(label: str, n: int, dtx: float, dt: float, u=None, s=None, refs=False, cyc=""):
        table.add_row(label, f"{n:,}", f"{n / dtx / 1e6:.1f}", f"{n / dt / 1e6:.1f}",
                      f"{dt / dtx:.2f}x", f"{n / u / 1e6:.0f}" if u else "-",
                      (f"{n / s / 1e6:.0f}" if s else "not installed") if refs else "-", cyc)

    unicorn_b = None
    with tempfile.TemporaryDirectory() as tmp:
        rows = [("(a) int loop, 1 core", int_loop(loop_iters, '.section .l1, "aw"'), 1,
                 "round_robin", False),
                ("(a) int loop, data in L2", int_loop(loop_iters, ".data"), 1, "round_robin",
                 False),
                ("(b) fp32 matmul, 1 core", matmul(1), 1, "round_robin", True)]
        for label, src, cores, pol, data in rows:
            n, dtx = isasim_mips(src, cores, pol, reps, data)
            _, dt = isasim_mips(src, cores, pol, reps, data, translate=False)
            u = unicorn_seconds(src, reps)
            add(label, n, dtx, dt, u, spike_seconds(src, reps, Path(tmp)), True)
            if label.startswith("(b)") and u:
                unicorn_b = n / u / 1e6
        for pol in ("round_robin", "fifo", "none"):
            n, dtx = isasim_mips(matmul(8), 8, pol, reps, True)
            _, dt = isasim_mips(matmul(8), 8, pol, reps, True, translate=False)
            m = Machine("pulp-open", cores=8, conflict_policy=pol, stack_size=256)
            m.load(assemble(matmul(8), family="xpulpv2"))
            cyc = m.run().total_cycles
            add(f"(c) fp32 matmul, 8 cores, {pol}", n, dtx, dt, cyc=f"{cyc:,}")
            if pol == "round_robin" and unicorn_b:
                c_rr = n / dtx / 1e6
        for fp32 in (False, True):
            got = c_matmul_mips(Path(tmp), fp32, reps)
            label = f"(d) C matmul {'fp32' if fp32 else 'int32'}, 8 cores"
            if got is None:
                table.add_row(label, f"{CROSS} not installed", "-", "-", "-", "-", "-", "")
            else:
                add(label, got[0], got[1], got[2])
    console.print(table)
    console.print("Spike times include its start-up (~45 ms); Unicorn runs in-process with no "
                  "hooks and no timing model; isasim runs with the full cluster timing model.")
    if unicorn_b:
        console.print(f"(c) round robin, translated: {c_rr / unicorn_b:.2f} of Unicorn's (b) "
                      f"MIPS")
    soc = Table(title=f"(d) beside GVSoC: examples/pulp-open matmul, N = 64, {SOC_PRODUCTS} "
                      "products (the difference of runs of 21 and 1)")
    for col in ("workload", "instructions", "isasim pulp-open-soc", "GVSoC pulp-open",
                "speed-up"):
        soc.add_column(col, justify="right")
    for fp32 in (False, True):
        label = f"matmul_{'fp32' if fp32 else 'int32'}, 8 cores"
        got = soc_matmul_mips(fp32, reps)
        if got is None:
            soc.add_row(label, f"{CROSS} not installed", "-", "-", "-")
            continue
        n, ours, theirs = got
        soc.add_row(label, f"{n:,}", f"{ours:.1f}",
                    f"{theirs:.1f}" if theirs else "no build ($ISASIM_GVSOC_DIR)",
                    f"{ours / theirs:.1f}x" if theirs else "-")
    console.print(soc)
    times = Table(title="translation with a cold cache (entries: instructions translated code "
                        "is entered at)")
    for col in ("program", "entries", "seconds", "every run: entries", "seconds"):
        times.add_column(col, justify="right")
    for name, entries, took, all_entries, all_took in translation_times():
        times.add_row(name, str(entries), f"{took:.3f}", str(all_entries), f"{all_took:.2f}")
    console.print(times)
    if args.batch:
        with tempfile.TemporaryDirectory() as tmp:
            n, tx, interp = batch_seconds(Path(tmp))
        console.print(f"{n} small programs, one `isasim run` process each: {tx:.1f} s "
                      f"translated (cold translation cache), {interp:.1f} s --interpret")
    if not args.no_compile:
        cold, warm = compile_costs()
        console.print(f"numba: first run with a cold cache {cold:.1f} s (compiles the engine), "
                      f"with the cache {warm:.1f} s (process start-up included)")


if __name__ == "__main__":
    main()
