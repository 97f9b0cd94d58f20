"""Translated loads and stores, and hardware-loop back edges, leave exactly the loop's state.

Loads and stores of every size and Xpulp address mode (rs1 + imm, post-increment by an
immediate or a register, register offset), sign extension and NaN-boxing, on one core and on
eight cores whose accesses park and resume in translated code; the stores the loop must do
itself (into decoded code in the TCDM, into a debugger's watched range, outside the TCDM,
misaligned); random hardware-loop bodies, nested, with shared ends, in both Xpulp families;
the cycle limit falling after a stall inside a run.
Each program runs interpreted and translated (every run) and every observable must agree.
"""

from __future__ import annotations

import numpy as np
import pytest

from isasim import layout as L
from isasim import opcodes as O
from isasim import translate as TX
from isasim.machine import Machine
from isasim.runcontrol import RunControl
from tests.engine.test_code_links import PATCH_LOOP
from tests.engine.test_hwloop_unrolled import EPILOGUE, PROLOGUE, body, looped
from tests.engine.test_translate import (
    EXIT,
    assert_same,
    both,
    every_run,  # noqa: F401  (autouse: every run translated)
)
from toolchain.asm import assemble

ACCESSES = """
    .text
    .globl _start
_start:
    li t0, 0x6000
    csrs mstatus, t0
    csrr s0, mhartid
    andi s0, s0, 31
    la s1, buf
    slli t0, s0, 5
    add s1, s1, t0              # 32 bytes per core: neighbours share banks
    addi s3, s1, 256            # a stream per core, written and read back
    mv s4, s3
    la s5, l2word
    li t1, 8
    li s2, 12
    li a0, 0x89abcdef
loop:
    sw a0, 0(s1)
    sh a0, 4(s1)
    sb a0, 7(s1)
    lw a1, 0(s1)
    lh a2, 4(s1)
    lhu a3, 4(s1)
    lb a4, 7(s1)
    lbu a5, 7(s1)
    flh fa0, 4(s1)              # NaN-boxed
    flw fa1, 0(s1)
    fsw fa1, 8(s1)
    p.sw a0, 4(s3!)
    p.sh a1, 2(s3!)
    p.sb a2, 1(s3!)
    p.sb a3, 1(s3!)
    p.lw a6, 4(s4!)
    p.lhu a7, 2(s4!)
    p.lb t2, 1(s4!)
    p.lbu t3, 1(s4!)
    p.sw a4, t1(s3!)            # post-increment by a register
    p.lw t4, t1(s4!)
    p.sw a5, t1(s1)             # register offset
    p.lh t5, t1(s1)
    lw t6, 2(s1)                # misaligned: the loop's
    sw t6, 0(s5)                # outside the TCDM: the loop's
    add a0, a0, a1
    xor a0, a0, a2
    add a0, a0, a3
    xor a0, a0, a4
    add a0, a0, a5
    xor a0, a0, a6
    add a0, a0, a7
    xor a0, a0, t2
    add a0, a0, t3
    xor a0, a0, t4
    add a0, a0, t5
    slli t0, a0, 7
    srli a0, a0, 25
    or a0, a0, t0
    addi s1, s1, 0              # (keeps the buffer in place)
    addi s2, s2, -1
    bnez s2, loop
    la t0, out
    slli t1, s0, 2
    add t0, t0, t1
    sw a0, 0(t0)
""" + EXIT + """
    .data
l2word: .word 0
    .section .l1, "aw"
    .p2align 4
buf: .zero 256 + 8 * 512
out: .zero 32
"""


def access_slots(m: Machine) -> np.ndarray:
    code = m.code.reshape(-1, L.NF)
    loop = m._slot_at(m.program.symbol("loop"))
    return code[loop:loop + 25, L.F_TX]


@pytest.mark.parametrize("cores,policy", [(1, "round_robin"), (8, "round_robin"), (8, "none"),
                                          (8, "rr_arb_tree")])
def test_loads_and_stores_of_every_shape_same_translated(cores: int, policy: str) -> None:
    program = assemble(ACCESSES, family="xpulpv2", rvc=False)
    plain, fast, m = both(program, cores=cores, conflict_policy=policy, stack_size=256)
    assert_same(plain, fast)
    assert plain["end"][0] == "exited"
    # every access of the loop is an entry (a granted core resumes there); the misaligned
    # load and the L2 store leave translated code when they execute
    assert (access_slots(m) >= 0).all()
    if cores > 1 and policy != "none":
        assert plain["conflicts"].sum() > 0


def store_slot(code: np.ndarray) -> int:
    """The slot of a program's one store."""
    (slot,) = np.flatnonzero((code[:, L.F_OP] == O.OP_MEM)
                             & (code[:, L.F_MEM] & L.MEM_KIND_MASK == L.MEM_STORE))
    return int(slot)


def test_a_store_into_decoded_code_in_the_tcdm_is_the_loops() -> None:
    source = PATCH_LOOP.replace("    .text\n", '    .section .l1.text, "ax"\n')
    plain, fast, m = both(assemble(source, "links.s"), icache="ideal")   # runs once: no misses
    assert_same(plain, fast)
    assert plain["x"][0][9] == 3 * 1 + 2 * 5      # s1: the patched loop ran
    code = m.code.reshape(-1, L.NF)
    assert code[store_slot(code), L.F_TX] >= 0      # sw t4, 0(t2): translated, handed over


STORES = """
    .text
    .globl _start
_start:
    la s1, buf
    li s2, 16
    li a0, 1
1:  sw a0, 0(s1)
    addi s1, s1, 4
    addi a0, a0, 3
    addi s2, s2, -1
    bnez s2, 1b
""" + EXIT + """
    .section .l1, "aw"
buf: .zero 64
"""


def test_a_watched_store_stops_translated_code_before_it() -> None:
    """A debugger's watchpoint on a word a translated loop stores to: the run stops before
    that store, at the same pc and cycle as interpreted, and goes on to the same end."""
    program = assemble(STORES, family="xpulpv2", rvc=False)
    stops, ends = [], []
    for translate in (False, True):
        m = Machine("pulp-open", cores=1, translate=translate).load(program)
        rc = RunControl(m)
        watched = program.symbol("buf") + 4 * 9
        rc.set_watch(watched, 4)
        stop = rc.cont(lambda: False)
        assert stop.kind == "watch" and stop.addr == watched
        stops.append((rc.pc(stop.core), int(m.CS[L.CS_T]), int(m.read(watched)[0])))
        rc.clear_watch(watched, 4)
        rc.run_to_end()
        ends.append((m._result().cycles.tolist(), m.read("buf", 16).tolist()))
    assert stops[0] == stops[1] and stops[0][2] == 0
    assert ends[0] == ends[1]
    code = m.code.reshape(-1, L.NF)
    assert code[store_slot(code), L.F_TX] >= 0


@pytest.mark.parametrize("family", ["xpulpv2", "corev"])
@pytest.mark.parametrize("seed", range(12))
def test_hardware_loop_back_edges_same_translated(seed: int, family: str) -> None:
    """Random bodies (ALU, mul/div, MAC, loads, stores, post-increment loads, FP) in one loop
    or two nested ones (every third pair ends both loops at one instruction)."""
    rng = np.random.default_rng(1000 + seed)
    inner, n0 = body(rng, int(rng.integers(2, 7)), family), int(rng.integers(2, 6))
    if seed % 2:
        pre = body(rng, int(rng.integers(0, 3)), family)
        post = [] if seed % 3 == 0 else body(rng, int(rng.integers(1, 3)), family)
        loop = looped(pre + looped(inner, n0, 0, family) + post, int(rng.integers(2, 4)), 1,
                      family)
    else:
        loop = looped(inner, n0, 0, family)
    program = assemble(PROLOGUE + "\n".join(loop) + EPILOGUE, "loop.s", family=family)

    def data(m: Machine) -> None:
        m.write("buf", np.arange(16, dtype=np.uint32) * 0x01010101)

    plain, fast, m = both(program, setup=data)
    assert_same(plain, fast)
    assert plain["end"][0] == "exited"
    assert (m.code.reshape(-1, L.NF)[:, L.F_TX] >= 0).sum() > 0


STALLS = """
    .text
    .globl _start
_start:
    li t0, 0x6000
    csrs mstatus, t0
    la s1, buf
loop:
    flw fa0, 0(s1)
    fadd.s fa1, fa0, fa0        # a load-use stall
    fmul.s fa2, fa1, fa1        # FPU result latency: a longer stall
    fadd.s fa3, fa2, fa1
    addi a0, a0, 1
    fmadd.s fa4, fa3, fa2, fa1
    fsw fa4, 4(s1)
    j loop
    .section .l1, "aw"
buf: .word 0x3f800000, 0
"""


def test_the_cycle_limit_reached_in_a_stall() -> None:
    """A stall moves time on by more than a cycle inside a run (translated code checks the
    limit at a run's entry for its whole length, then only after stalls): wherever the cycle
    limit falls, the run stops where the loop stops.  Pipelined FPU with a 4-cycle result
    latency and 2-cycle loads, so that the stalls are long."""
    program = assemble(STALLS, family="xpulpv2", rvc=False)
    for limit in range(40, 100):
        plain, fast, m = both(program, max_cycles=limit, icache="ideal", fpu_latency=4,
                              fpu_issue="pipelined", load_latency=2)
        assert plain["end"][0] == "timeout"
        assert_same(plain, fast)
    assert m.code.reshape(-1, L.NF)[m._slot_at(m.program.symbol("loop")), L.F_TX] >= 0


def test_straight_code_longer_than_a_run_is_translated_in_pieces() -> None:
    """A run is cut at ``MAX_RUN`` instructions; the straight code goes on in the next run."""
    body = "\n".join(f"    {'addi a1, a1, 1' if i % 3 else 'sw a1, 0(s1)'}" for i in range(600))
    source = f"""
    .text
    .globl _start
_start:
    la s1, buf
    li t0, 3
loop:
{body}
    addi t0, t0, -1
    bnez t0, loop
""" + EXIT + """
    .section .l1, "aw"
buf: .word 0
"""
    plain, fast, m = both(assemble(source, family="xpulpv2", rvc=False), icache="ideal")
    assert_same(plain, fast)
    code = m.code.reshape(-1, L.NF)
    runs = TX.find_runs(code, m.slot_pc, [0], fpu_shared=False)
    loop = m._slot_at(m.program.symbol("loop"))
    covered = {s for run in runs for s in run.slots}
    assert set(range(loop, loop + 602)) <= covered
    assert max(len(run.slots) for run in runs) == TX.MAX_RUN
