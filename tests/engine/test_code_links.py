"""The loop follows per-instruction links (fall-through and branch-target slots) instead of
looking every pc up; a store over the text must still make the new instruction visible.

The patched instruction here has already run, so the links of the instructions before it and of
the branch back to it lead to its old record: after the store the loop must stop trusting them.
"""

from __future__ import annotations

import numpy as np
import pytest

from isasim import layout as L
from isasim.machine import Machine
from toolchain.asm import assemble

PATCH_LOOP = """
    .option norvc
    .text
    .globl _start
_start:
    li s0, 3                # first pass: 3 iterations adding 1
    li s1, 0
    li s2, 0
loop:
    li a1, 1                # patched below into `li a1, 5`
    add s1, s1, a1
    addi s0, s0, -1
    bnez s0, loop           # taken: a branch-target link to `loop`
    bnez s2, done
    la t2, loop
    la t3, newinsn
    lw t4, 0(t3)
    sw t4, 0(t2)            # no fence.i: the cluster sees stores to text at once
    li s2, 1
    li s0, 2                # second pass: 2 iterations adding 5
    j loop                  # a jal link to the patched slot
done:
    li a7, 93
    li a0, 0
    ecall
newinsn:
    li a1, 5
"""


def run(source: str, cores: int = 1):
    program = assemble(source, "links.s")
    m = Machine("pulp-open", cores=cores).load(program)
    r = m.run(max_cycles=100_000)
    r.check_invariant()
    return r, m, program


def test_links_lead_through_straight_code_and_branches():
    r, m, program = run(PATCH_LOOP.replace("    sw t4, 0(t2)", "    nop"))
    assert r.status == "exited"
    assert r.x[0][9] == 3 + 2          # s1: the text was not patched
    code = m.code.reshape(-1, L.NF)
    loop_slot = m._slot_at(program.symbol("loop"))
    assert code[loop_slot, L.F_NEXT] == loop_slot + 1
    branch = loop_slot + 3
    assert code[branch, L.F_TGT] == loop_slot and code[branch, L.F_NEXT] == loop_slot + 4


@pytest.mark.parametrize("section", [".text", '.section .l1.text, "ax"'])
def test_store_over_executed_code_is_seen_through_links(section):
    # text in L2 (stores take the engine's slow path) and in the TCDM (its fast path)
    r, m, program = run(PATCH_LOOP.replace("    .text\n", f"    {section}\n"))
    assert r.status == "exited"
    assert r.x[0][9] == 3 * 1 + 2 * 5  # s1
    in_tcdm = m.config.tcdm_base <= program.symbol("loop") < m.config.tcdm_base + (1 << 20)
    assert in_tcdm == (section != ".text")


def test_store_over_code_is_seen_on_every_core():
    r, _, _ = run(PATCH_LOOP, cores=2)
    # both cores run the program; whichever patches first, both execute the new word after it
    assert r.status == "exited"
    assert all(x[9] == 13 for x in r.x)


def test_host_writes_into_text_are_decoded_again():
    # Machine.write over code that was predecoded at load time (as a test harness patching a
    # kernel would): the run executes the new word, also through the links of its neighbours
    source = """
    .option norvc
    .text
    .globl _start
_start:
    li a0, 0
    j patch
patch:
    li a0, 1
    li a7, 93
    ecall
"""
    program = assemble(source, "patch.s")
    new_word = assemble(".option norvc\n    li a0, 7\n", "w.s").segments()[0].data
    m = Machine("pulp-open", cores=1).load(program)
    m.write("patch", np.frombuffer(bytes(new_word), dtype=np.uint32))
    r = m.run(max_cycles=10_000)
    assert r.status == "exited" and r.exit_code == 7
