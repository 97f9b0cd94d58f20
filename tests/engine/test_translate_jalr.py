"""``jalr`` in translated code: returns, indirect calls and jumps end a run there, with the
cycles and every other observable the loop gives.

Cycle costs (CV32E40P user manual, "Cycle counts per instruction type" and "Hazards"): a jump
(``jal``, ``jalr``) takes 2 cycles, the issue cycle and the jump penalty (``jump_penalty`` = 1,
category ``jump``); a ``jalr`` whose rs1 the instruction just before wrote takes one more
(``jalr_dep_penalty`` = 1, counted in ``jump`` and the ``JMP_STALL`` counter); a jump to a
32-bit instruction at an address 2 mod 4 one more (``unaligned_target_penalty``).
"""

from __future__ import annotations

import numpy as np
import pytest

from isasim import layout as L
from isasim import llvm_jit
from isasim import opcodes as O
from isasim import translate as TX
from isasim.machine import Machine
from tests.engine.test_translate import EXIT, assert_same, both
from toolchain.asm import assemble

CALLS = """
    .text
    .globl _start
_start:
    li s0, 20
    li s1, 0
    la s2, leaf
loop:
    jal ra, leaf            # a direct call; leaf returns by ret
    mv a0, s1
    jalr ra, 0(s2)          # an indirect call (rs1 written long before)
    la t1, leaf
    jalr ra, 0(t1)          # rs1 written by the instruction just before: the jalr hazard
    la t2, next
    jr t2                   # a jump to the next instruction
next:
    jal ra, reader
    addi s0, s0, -1
    bnez s0, loop
""" + EXIT + """
    .p2align 2
    c.nop
leaf:
    addi s1, s1, 300        # 32-bit at 2 mod 4: a jump here costs the unaligned cycle
    c.addi s1, 1
    ret                     # to after a 32-bit call (2 mod 4 or not)
reader:
    lw t3, -4(sp)           # a TCDM load: with two cores it may park, and resume translated
    add s3, s3, t3
    c.jr ra                 # a compressed return
"""


def jalr_slots(m: Machine) -> list[int]:
    code = m.code.reshape(-1, L.NF)
    return [s for s in range(len(m.slot_pc)) if code[s, L.F_OP] == O.OP_JALR]


def run_ends(m: Machine) -> set[int]:
    """The slots translated runs end at."""
    runs = TX.find_runs(m.code.reshape(-1, L.NF), m.slot_pc, [0], fpu_shared=False)
    return {run.slots[-1] for run in runs}


@pytest.mark.parametrize("cores", [1, 2])
def test_calls_and_returns_same_translated(cores: int, monkeypatch) -> None:
    """Every jalr of the program ends a translated run (none is left to the loop), and the
    run leaves the same state as the loop."""
    monkeypatch.setenv("ISASIM_TRANSLATE", "all")
    program = assemble(CALLS, family="xpulpv2")
    plain, fast, m = both(program, cores=cores)
    assert_same(plain, fast)
    assert len(jalr_slots(m)) == 5 and set(jalr_slots(m)) <= run_ends(m)
    assert plain["end"][0] == "exited"
    assert plain["x"][0][9] == 20 * 3 * 301        # s1: leaf ran three times a pass


def per_pass(m: Machine) -> tuple[int, int]:
    """(jump cycles, JMP_STALL) of a pass of HAZARD's loop, counted from the configuration."""
    cfg = m.config
    # jalr ra, 0(s2) (a call, no hazard: s2 set long before), jalr ra, 0(t1) right after t1's
    # addi (the hazard), two returns (ra written two instructions before: none)
    return 4 * cfg.jump_penalty + cfg.jalr_dep_penalty, cfg.jalr_dep_penalty


HAZARD = """
    .text
    .globl _start
_start:
    li s0, {n}
    la s2, leaf
    .p2align 2
loop:
    jalr ra, 0(s2)
    la t1, leaf
    jalr ra, 0(t1)
    addi s0, s0, -1
    bnez s0, loop
""" + EXIT + """
    .p2align 2
leaf:
    addi t0, t0, 1
    ret
"""


@pytest.mark.parametrize("dep", [1, 3])
def test_translated_jalr_charges_the_manuals_cycles(dep: int, monkeypatch) -> None:
    """The jump cycles a pass of the loop adds are the hand count above (two programs, 20 and
    50 passes: what is outside the loop cancels), and every observable is the loop's."""
    monkeypatch.setenv("ISASIM_TRANSLATE", "all")
    got = []
    for n in (20, 50):
        program = assemble(HAZARD.format(n=n), family="xpulpv2", rvc=False)
        plain, fast, m = both(program, jalr_dep_penalty=dep)
        assert_same(plain, fast)
        assert len(jalr_slots(m)) == 3 and set(jalr_slots(m)) <= run_ends(m)
        got.append((int(fast["categories"][0][L.C_JUMP]),
                    int(np.asarray(fast["perf"]["JMP_STALL"]).sum())))
    jump, stall = per_pass(m)
    assert got[1][0] - got[0][0] == 30 * jump
    assert got[1][1] - got[0][1] == 30 * stall


def test_jalr_exit_row_holds_the_computed_target(monkeypatch) -> None:
    """The jalr's taken exit has no static pc: its row is written by the run as it leaves."""
    monkeypatch.setenv("ISASIM_TRANSLATE", "all")
    program = assemble(HAZARD.format(n=3), family="xpulpv2", rvc=False)
    m = Machine("pulp-open", cores=1, translate=True).load(program)
    m.run()
    code = m.code.reshape(-1, L.NF)
    runs = TX.find_runs(code, m.slot_pc, [0], fpu_shared=False)
    exits = m._exits.reshape(-1, TX.EXIT_FIELDS)
    leaf = program.symbols["leaf"].value
    rets = [run for run in runs if run.slots[-1] in jalr_slots(m)
            and m.slot_pc[run.slots[0]] == leaf]
    assert len(rets) == 1
    row = exits[rets[0].exit_base + 2 * len(rets[0].slots) + 1]
    # the last return went back to the loop's second call's next instruction
    assert row[0] == program.symbols["loop"].value + 4 * 4
    assert row[1] == -1 and row[3] == TX.EXIT_TAKEN and row[4] == -1


def test_code_loaded_again_writes_into_its_own_table(monkeypatch) -> None:
    """Code loaded anew (``llvm_jit`` forgets what it loaded, as the benchmark's cold-cache
    timing does) is bound to a table of its own: its jalrs' targets land where the engine
    reads them."""
    monkeypatch.setenv("ISASIM_TRANSLATE", "all")
    source = HAZARD.format(n=7)
    plain, fast, _ = both(assemble(source, family="xpulpv2", rvc=False))
    assert_same(plain, fast)
    llvm_jit._LOADED.clear()
    again, fast_again, _ = both(assemble(source, family="xpulpv2", rvc=False))
    assert_same(plain, again)
    assert_same(again, fast_again)
