"""Cores that lose a TCDM bank sit out the rounds they cannot win (``engine.waiters_ahead``).

Under round robin and FIFO a core that lost a bank cannot win it before every core waiting
ahead of it in the arbiter's order has been served, one a cycle, so the scheduler leaves it out
of those rounds and charges its lost cycles in the bank's rounds (``engine.charge_waiting``);
whenever the loop returns to Python, and before a run stops at its cycle limit, the waiting
cores are put back to retrying in the next cycle (``engine.rejoin_waiting``).  A traced run
does not skip: it logs every lost cycle in its round.  These tests run programs where all cores
queue at one bank, with DMA beats through it, both ways: to the end, stopped by the cycle limit
in the middle of the queues, and in slices of a few cycles (each slice pauses and resumes the
run), and compare every figure.  ``test_lockstep_reference.py`` checks the timing itself
against a cycle-by-cycle simulation written from the rules.
"""

from __future__ import annotations

import numpy as np
import pytest

from isasim import layout as L
from isasim.result import RunResult

from .common import DMA, EXIT, run_asm, run_asm_traced

# every core loads the same word (bank 0) and a word of its own, and stores to bank 0; core 0
# first pushes a 256-byte L2 -> TCDM transfer whose beats pass through bank 0 too
SOURCE = f"""
    .text
    .globl _start
_start:
    csrr a0, mhartid
    andi a0, a0, 31
    la s0, shared
    slli t0, a0, 2
    add s1, s0, t0
    addi s1, s1, 4              # a word of its own, in bank a0 + 1
    bnez a0, loop
    li s4, {DMA:#x}
    li t0, {(1 << 17) | (1 << 18) | 256:#x}   # L2 -> TCDM, incremental, 256 bytes
    sw t0, 0(s4)                # the command, the TCDM address, the L2 address
    sw s0, 0(s4)
    la t0, l2_src
    sw t0, 0(s4)
loop:
    li t2, 40
1:  lw t0, 0(s0)
    lw t1, 0(s1)
    add t0, t0, t1
    sw t0, 0(s0)
    addi t2, t2, -1
    bnez t2, 1b
{EXIT}
    .section .l1, "aw"
    .p2align 6
shared:
    .zero 64 * 4
    .data
    .p2align 3
l2_src:
    .zero 256
"""


def figures(r: RunResult) -> dict:
    return {"status": r.status, "cycles": r.cycles.tolist(), "instret": r.instret.tolist(),
            "categories": r.categories.tolist(), "conflicts": r.conflicts.tolist(),
            "conflict_winners": r.conflict_winners.tolist(),
            "stall": r.profile_stall.tolist(), "x": r.x.tolist()}


@pytest.mark.parametrize("policy", ["round_robin", "fifo"])
def test_sitting_out_rounds_changes_no_figure(policy):
    r, _ = run_asm(SOURCE, conflict_policy=policy)
    traced, _, _ = run_asm_traced(SOURCE, conflict_policy=policy)
    assert r.status == "exited"
    # the cores do queue: most of their cycles are lost at bank 0
    assert r.categories[:, L.C_TCDM].sum() > r.categories[:, L.C_INSTR].sum()
    assert figures(r) == figures(traced)


@pytest.mark.parametrize("policy", ["round_robin", "fifo"])
@pytest.mark.parametrize("limit", [150, 151, 233, 400])
def test_a_run_stopped_in_the_queues_reports_what_a_traced_one_does(policy, limit):
    r, m = run_asm(SOURCE, conflict_policy=policy, max_cycles=limit)
    traced, mt, _ = run_asm_traced(SOURCE, conflict_policy=policy, max_cycles=limit)
    assert r.status == "timeout"
    assert figures(r) == figures(traced)
    # nobody is left sitting out: every bank's queue is empty, the cores where the rules put them
    assert not m.CL[L.L_BANK_WAIT:L.L_BANK_WAIT + 32].any()
    assert np.array_equal(scheduling_state(m), scheduling_state(mt))


# what the scheduler keeps of each core (the rest of CS differs between a traced run and an
# untraced one: the trace's own bookkeeping)
SCHEDULING = (L.CS_PC, L.CS_T, L.CS_STATUS, L.CS_INSTRET, L.CS_NEXT_T, L.CS_PARK_FIRST,
              L.CS_PARK_RES, L.CS_PARK_SLOT, L.CS_GRANTED, L.CS_LOST)


def scheduling_state(m) -> np.ndarray:
    return m.CS.reshape(-1, L.NCS)[:, SCHEDULING]


@pytest.mark.parametrize("policy", ["round_robin", "fifo"])
def test_a_run_in_slices_of_a_few_cycles_reports_what_one_run_does(policy, monkeypatch):
    whole, _ = run_asm(SOURCE, conflict_policy=policy)
    monkeypatch.setenv("ISASIM_SLICE_CYCLES", "7")
    sliced, _ = run_asm(SOURCE, conflict_policy=policy)
    assert figures(sliced) == figures(whole)
