"""Translated code behind the instruction-cache guard leaves exactly the state the loop leaves.

``engine.run_translated`` enters a run only when all its lines are in the core's L0; hits change
no cache state (``isasim.icache``), so the run's timing is the loop's.  Each program runs
interpreted and translated with the cache on and every observable (cycles, categories, the
per-instruction profile and its miss counts, counters, registers) must be equal.
"""

from __future__ import annotations

import numpy as np
import pytest

from isasim import layout as L
from tests.engine.test_translate import (
    EXIT,
    HWLOOP,
    assert_same,
    bench,
    both,
    every_run,  # noqa: F401  (autouse: every run translated, as in test_translate)
    matrices,
    translated_slots,
)
from toolchain.asm import assemble


@pytest.mark.parametrize("icache,policy", [("rtl", "rr_arb_tree"), ("gvsoc", "fifo")])
def test_parallel_matmul_same_translated_with_the_icache(icache: str, policy: str) -> None:
    """Eight cores miss the same lines together, then run translated from their L0s."""
    program = assemble(bench.matmul(8), family="xpulpv2")
    plain, fast, m = both(program, cores=8, setup=matrices, conflict_policy=policy,
                          stack_size=256, icache=icache)
    assert_same(plain, fast)
    assert translated_slots(m) > 5
    assert (plain["categories"][:, L.C_IMISS] > 0).all()


def test_a_loop_larger_than_the_l0_same_translated() -> None:
    """A 640-byte loop body (40 lines, 32 fit in an L0) misses on every pass: the guard sends
    the runs whose lines were evicted back to the loop, which takes the misses."""
    body = "\n".join(f"    addi a{1 + i % 5}, a{1 + i % 5}, 1" for i in range(159))
    source = f"""
    .text
    .globl _start
_start:
    li t0, 6
loop:
{body}
    addi t0, t0, -1
    bnez t0, loop
""" + EXIT
    program = assemble(source, family="xpulpv2", rvc=False)
    for icache in ("rtl", "gvsoc"):
        plain, fast, m = both(program, icache=icache)
        assert_same(plain, fast)
        misses = plain["perf"]["IMISS"][0]
        assert misses > 6 * 8 * 2      # more than a few lines a pass, each at least 2 cycles


def test_hardware_loops_and_the_cycle_limit_same_translated_with_the_icache() -> None:
    plain, fast, _ = both(assemble(HWLOOP, family="xpulpv2"), icache="rtl")
    assert_same(plain, fast)
    body = "\n".join("    addi a1, a1, 1" for _ in range(40))
    program = assemble(f"    .text\n    .globl _start\n_start:\nloop:\n{body}\n    j loop\n",
                       family="xpulpv2")
    for limit in (7, 100, 1001):
        plain, fast, _ = both(program, max_cycles=limit, icache="rtl")
        assert plain["end"][0] == "timeout"
        assert_same(plain, fast)


def test_the_entry_table_names_each_runs_span() -> None:
    """entries: (function address, instruction index, first pc, pc after the last
    instruction) per entry; the guard checks the span's lines."""
    program = assemble(bench.matmul(1), family="xpulpv2")
    _, _, m = both(program, setup=matrices)
    table = m._translated.reshape(-1, 4)
    assert (table[:, 0] != 0).all()
    assert (table[:, 3] > table[:, 2]).all()
    pcs = set(m.slot_pc)
    assert all(int(p) in pcs for p in table[:, 2])
    assert np.isin(table[:, 1], np.arange(256)).all()
