"""The instruction cache's timing, hand-counted (``isasim.icache``; docs/cycle-model.md).

Rules: an L0 miss whose line the shared L1 holds costs ``icache_refill_latency`` (2) cycles; one
the L1 misses too costs ``l2_latency`` + 2 + 2 (pulp-open: 10 + 4 = 14; gvsoc-2022: 4 + 4 = 8);
an L1 bank (line & 1) takes one request a cycle and refills one line at a time; a hit on a line
still being refilled waits for it.  Every wait is ``imiss`` and counted per instruction.
Sources are assembled without compressed instructions and start at a 128-byte boundary (the L2
text base), so each line holds 4 instructions and line n of the text is in L0 set n % 8.
"""

from __future__ import annotations

import numpy as np
import pytest

from isasim import layout as L
from isasim.machine import Machine
from toolchain.asm import assemble

from .common import run_asm

# (preset, icache model, cycles of an L0 + L1 miss: l2_latency + 2 refills)
PRESETS = [("pulp-open", "rtl", 14), ("gvsoc-2022", "gvsoc", 8)]
EXIT = "    li a7, 93\n    li a0, 0\n    ecall\n"


def imiss_at(r, m, core: int, label: str) -> int:
    """The imiss cycles core ``core`` was charged at the instruction at ``label``."""
    i = int(np.nonzero(r.profile_pc == m.program.symbols[label].value)[0][0])
    return int(r.profile_stall[core, i, L.C_IMISS])


@pytest.mark.parametrize("preset,icache,cold", PRESETS)
def test_each_new_line_costs_a_refill_from_l2(preset, icache, cold):
    # 8 addi + the 3 exit instructions: 11 instructions in 3 lines (44 bytes), each line missed
    # once in both levels: cycles = 11 + 3 * cold (pulp-open 11 + 42 = 53, gvsoc-2022 35)
    src = "    .text\n    .globl _start\n_start:\n" + "    addi t0, t0, 1\n" * 8 + EXIT
    r, _ = run_asm(src, preset, cores=1, icache=icache)
    assert r.cycles[0] == 11 + 3 * cold
    assert r.category("imiss")[0] == 3 * cold
    assert r.perf["IMISS"][0] == 3 * cold          # RI5CY's PCCR: cycles waiting for fetches
    assert r.profile_imiss[0].sum() == 3
    # ideal fetch: the old behaviour
    r, _ = run_asm(src, preset, cores=1, icache="ideal")
    assert r.cycles[0] == 11 and r.category("imiss")[0] == 0
    # the preset's own timing is the cache's (run_asm defaults to ideal fetch; Machine does not)
    program = assemble(src, filename="icache_test.s", family="xpulpv2", rvc=False)
    r = Machine(preset, cores=1).load(program).run()
    assert r.cycles[0] == 11 + 3 * cold and r.category("imiss")[0] == 3 * cold


SECOND_CORE_LATER = """
    .text
    .globl _start
_start:
    csrr a0, mhartid
    beqz a0, 2f
    li t0, 40
1:  addi t0, t0, -1
    bnez t0, 1b             # core 1 spins about 160 cycles
2:  j tail
    .balign 16
tail:
""" + EXIT


@pytest.mark.parametrize("preset,icache,cold", PRESETS)
def test_a_line_another_core_brought_into_the_l1_costs_only_the_l0_refill(preset, icache, cold):
    # core 0 reaches tail first: both levels miss (cold); core 1 comes long after the L1's
    # refill: only its L0 misses, 2 cycles
    r, m = run_asm(SECOND_CORE_LATER, preset, cores=2, icache=icache)
    assert imiss_at(r, m, 0, "tail") == cold
    assert imiss_at(r, m, 1, "tail") == 2


def jump_apart(stride: int) -> str:
    """Both cores run the same set-up in lockstep (a line missed by both at once is refilled
    once: the loser of the bank's arbitration retries the next cycle and finds the line on its
    way into the L1, ready at the same cycle), then core c jumps to ``target + c * stride``."""
    return f"""
    .text
    .globl _start
_start:
    csrr a0, mhartid
    slli t1, a0, {stride.bit_length() - 1}
    la t2, target
    add t1, t1, t2
    jr t1
    .balign 128
target:
{EXIT}
    .balign {stride}
there:
{EXIT}
"""


@pytest.mark.parametrize("preset,icache,cold", PRESETS)
def test_two_misses_on_one_l1_bank_take_turns(preset, icache, cold):
    # 128 bytes apart: lines 8 apart, the same L1 bank (line & 1).  In the jump's target cycle t
    # both ask the bank: the winner misses the L1 and is served at t + cold; the loser loses
    # one cycle, asks at t + 1, misses the L1 too and its refill starts when the bank's port
    # frees, t + cold - 2: it is served at t + cold - 2 + (cold - 2) + 2, a wait of
    # 1 + (2 cold - 3) = 2 cold - 2 (pulp-open 26, gvsoc-2022 14)
    r, m = run_asm(jump_apart(128), preset, cores=2, icache=icache)
    got = sorted([imiss_at(r, m, 0, "target"), imiss_at(r, m, 1, "there")])
    assert got == [cold, 2 * cold - 2]


@pytest.mark.parametrize("preset,icache,cold", PRESETS)
def test_misses_on_the_two_l1_banks_are_served_together(preset, icache, cold):
    # 16 bytes apart: neighbouring lines, one in each bank: both served at t + cold
    r, m = run_asm(jump_apart(16), preset, cores=2, icache=icache)
    assert [imiss_at(r, m, 0, "target"), imiss_at(r, m, 1, "there")] == [cold, cold]


THRASH = """
    .text
    .globl _start
_start:                     # line 0 (L0 set 0)
    li s1, 4
    j b0
""" + "".join(f"""
    .balign 128
b{k}:                       # line {8 * (k + 1)} (set 0)
    addi s0, s0, 1
    j b{k + 1}
""" for k in range(4)) + """
    .balign 128
b4:                         # line 40 (set 0)
    addi s1, s1, -1
    bnez s1, b0
    j done
    .balign 16
done:                       # line 41 (set 1)
""" + EXIT


def test_six_lines_of_one_l0_set_evict_by_the_rtl_rule():
    # Lines 0, 8, 16, 24, 32, 40 all map to L0 set 0 (4 ways) and to distinct L1 sets, so
    # after their first, cold (14-cycle) refill every L0 miss is an L1 hit of 2 cycles.
    # The RTL fills free ways first (0 -> w0, 8 -> w1, 16 -> w2, 24 -> w3), then takes way
    # q & 3 of the LFSR q (from 0: 0, 1, 3, 6, 13, 27, 55, 111 ...; q' = q << 1 | !(q7^q3^q2^q1))
    # and steps it.  The fetches (x: a miss, the way it fills; .: a hit):
    #   pass 1: 0 x0, 8 x1, 16 x2, 24 x3, 32 x(q=0)0, 40 x(q=1)1         6 cold
    #   pass 2: 8 x(q=3)3, 16 ., 24 x(q=6)2, 32 ., 40 .                  2 x 2
    #   pass 3: 8 ., 16 x(q=13)1, 24 ., 32 ., 40 x(q=27)3                2 x 2
    #   pass 4: 8 x(q=55)3, 16 ., 24 ., 32 ., 40 x(q=111)3               2 x 2
    #   done: line 41, cold
    # imiss = 7 * 14 + 6 * 2 = 110, misses 13.  Instructions: 2 + 3 * 10 + 11 + 3 = 46 (the
    # last pass adds j done); jumps 18 (one each), taken branches 3 (2 each): cycles =
    # 46 + 18 + 6 + 110 = 180.
    r, _ = run_asm(THRASH, "pulp-open", cores=1, icache="rtl")
    assert r.category("imiss")[0] == 110
    assert r.profile_imiss[0].sum() == 13
    assert r.cycles[0] == 180


def test_six_lines_of_one_l0_set_evict_by_gvsocs_rule():
    # GVSoC steps the LFSR first and takes way (q >> 1) & 3 at every refill, free or not:
    #   pass 1: 0 x(q=1)0, 8 x(3)1, 16 x(6)3, 24 x(13)2, 32 x(27)1, 40 x(55)3    6 cold (8)
    #   pass 2: 8 x(111)3, 16 x(222)3, 24 ., 32 ., 40 x(189)2                    3 x 2
    #   pass 3: 8 x(122)1, 16 ., 24 x(245)2, 32 x(235)1, 40 x(214)3              4 x 2
    #   pass 4: 8 x(172)2, 16 x(88)0, 24 x(176)0, 32 ., 40 .                     3 x 2
    #   done: line 41, cold
    # imiss = 7 * 8 + 10 * 2 = 76, misses 17; cycles = 46 + 18 + 6 + 76 = 146 (gvsoc-2022:
    # jump +1, taken branch +2, no unaligned targets here)
    r, _ = run_asm(THRASH, "gvsoc-2022", cores=1, icache="gvsoc")
    assert r.category("imiss")[0] == 76
    assert r.profile_imiss[0].sum() == 17
    assert r.cycles[0] == 146


def test_the_report_and_the_saved_result_carry_the_misses_per_instruction(tmp_path):
    from isasim.result import RunResult
    from traces.report import hot_spot_table

    r, _ = run_asm(THRASH, "pulp-open", cores=1, icache="rtl")
    path = tmp_path / "run.json"
    r.save(path)
    back = RunResult.load(path)
    assert (back.profile_imiss == r.profile_imiss).all()
    t = hot_spot_table(back, None, 40)
    col = [c.name for c in t.columns].index("icache misses")
    pcs = [int(t.text(i, 0), 16) for i in range(len(t.rows))]
    misses = {pc: int(t.text(i, col)) for i, pc in enumerate(pcs)}
    # b0's addi (line 8) missed in passes 1, 2 and 4 (see the RTL rule's table above)
    assert misses[int(back.symbols["b0"])] == 3
    assert sum(misses.values()) == 13
