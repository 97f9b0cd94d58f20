"""Cores that share nothing do not slow each other down.

Each core runs its own random program (loads and stores, integer and FP arithmetic, multiply
and divide, counted loops, hardware loops) on TCDM words of its own two banks, so under every
policy no two cores ever want the same bank, and nothing else is shared (private FPUs, no DMA,
no barrier).  Every instruction of a core's program must then issue as often and be charged
exactly the same stall cycles, category by category, as when that program runs alone on a
single core.  This is what the parking and scheduling of the multi-core loop promise to leave
untouched: they decide only the order in which the host runs the cores.
"""

from __future__ import annotations

import numpy as np
import pytest

from .common import EXIT, per_core, run_asm

TCDM = 0x10000000
INT = ("t0", "t1", "t2", "t3", "a1", "a2", "a3", "a4")
FP = ("ft0", "ft1", "ft2", "ft3", "ft4", "ft5")


def _op(rng: np.random.Generator) -> str:
    """One random instruction on the core's own banks (t5: its bank of words, +32: the other)."""
    r = lambda: INT[int(rng.integers(len(INT)))]          # noqa: E731
    f = lambda: FP[int(rng.integers(len(FP)))]            # noqa: E731
    off = 64 * int(rng.integers(0, 8)) + 32 * int(rng.integers(0, 2))
    kind = int(rng.integers(0, 12))
    if kind <= 2:
        return f"lw {r()}, {off}(t5)"
    if kind == 3:
        return f"sw {r()}, {off}(t5)"
    if kind == 4:
        return f"flw {f()}, {off}(t5)"
    if kind == 5:
        return f"fsw {f()}, {off}(t5)"
    if kind == 6:
        return f"{rng.choice(['mul', 'mulh', 'div', 'remu'])} {r()}, {r()}, {r()}"
    if kind == 7:
        return f"{rng.choice(['fadd.s', 'fmul.s'])} {f()}, {f()}, {f()}"
    if kind == 8:
        return f"fmadd.s {f()}, {f()}, {f()}, {f()}"
    return f"{rng.choice(['add', 'xor', 'sltu', 'sub'])} {r()}, {r()}, {r()}"


def _program(rng: np.random.Generator, core: int) -> str:
    """A core's body: registers set, straight-line runs, a counted loop and a hardware loop,
    then a jump to ``done``."""
    def run(n: int) -> str:
        return "".join(f"    {_op(rng)}\n" for _ in range(n))
    loop = f"""    li t4, {int(rng.integers(2, 6))}
loop{core}:
{run(int(rng.integers(3, 8)))}    addi t4, t4, -1
    bnez t4, loop{core}
"""
    hwloop = f"""    lp.setupi x0, {int(rng.integers(2, 6))}, last{core}
{run(int(rng.integers(2, 6)))}last{core}:
    {_op(rng)}
"""
    # the registers start from the same values alone and together (the start-up differs)
    init = "".join(f"    li {r}, {int(rng.integers(-2**31, 2**31))}\n" for r in INT)
    init += "".join(f"    fmv.w.x {f}, {r}\n" for f, r in zip(FP, INT[:len(FP)], strict=True))
    return (init + run(int(rng.integers(5, 15))) + loop + run(5) + hwloop + run(5)
            + "    j done\n")


def _profile(result, core: int, start: int, end: int) -> tuple[np.ndarray, np.ndarray]:
    """Issue counts and per-category stalls of core ``core``'s code in [start, end)."""
    rows = (result.profile_pc >= start) & (result.profile_pc < end)
    order = np.argsort(result.profile_pc[rows])
    return (result.profile_count[core, rows][order],
            result.profile_stall[core, rows][order])


@pytest.mark.parametrize("policy", ["round_robin", "fifo", "none"])
@pytest.mark.parametrize("seed", range(4))
def test_cores_on_their_own_banks_run_as_if_alone(seed, policy):
    rng = np.random.default_rng(seed)
    cores = int(rng.choice([2, 5, 8]))
    fpu_on = "    li t0, 0x6000\n    csrs mstatus, t0\n"
    # core c's words: bank c (t5) and bank c + 8 (t5 + 32); 64 bytes apart stay in the bank
    together = "    slli t5, a0, 2\n    li t0, 0x10000000\n    add t5, t5, t0\n" + fpu_on
    bodies = [_program(rng, c) for c in range(cores)]
    multi, _ = run_asm(per_core(together, bodies) + "done:\n" + EXIT, cores=cores,
                       conflict_policy=policy)
    assert multi.status == "exited"
    assert multi.conflicts.sum() == 0
    ends = [multi.symbols[f"core{c + 1}"] for c in range(cores - 1)] + [multi.symbols["done"]]
    for c in range(cores):
        alone_src = per_core(f"    li t5, {TCDM + 4 * c:#x}\n" + fpu_on, [bodies[c]])
        alone, _ = run_asm(alone_src + "done:\n" + EXIT, cores=1, conflict_policy=policy)
        assert alone.status == "exited"
        got = _profile(multi, c, multi.symbols[f"core{c}"], ends[c])
        want = _profile(alone, 0, alone.symbols["core0"], alone.symbols["done"])
        assert got[0].sum() > 20
        assert np.array_equal(got[0], want[0]), c
        assert np.array_equal(got[1], want[1]), c
