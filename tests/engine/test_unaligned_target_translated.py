"""Branches to a 32-bit instruction that is not word-aligned, in translated code.

CV32E40P takes one cycle more for a jump or taken branch whose target is a 32-bit instruction at
an address with bit 1 set (two fetches; ``unaligned_target_penalty``).  With compressed code such
targets are common (the bench's matmul loop head is one); translated code charges the cycle from
the predecoded target, so those branches stay in translated code, with every observable equal.
"""

from __future__ import annotations

import pytest

from isasim import layout as L
from isasim.machine import Machine
from tests.engine.test_translate import assert_same, both
from toolchain.asm import assemble

LOOP = """
    .text
    .globl _start
_start:
    li a0, 0
    li a1, {n}
    .p2align 2
    c.nop                   # the loop head below is at pc & 2 = 2
loop:
    addi a0, a0, 100        # 32-bit: the taken branch back here costs the unaligned cycle
    c.addi a1, -1
    bnez a1, loop
    jal ra, tail            # a jump to an unaligned 32-bit target too
    li a7, 93
    ecall
    .p2align 2
    c.nop
tail:
    addi a0, a0, 100
    ret
"""


@pytest.mark.parametrize("penalty", [1, 0])
def test_unaligned_targets_same_translated(penalty: int, monkeypatch) -> None:
    monkeypatch.setenv("ISASIM_TRANSLATE", "all")
    program = assemble(LOOP.format(n=300), family="xpulpv2")
    loop, tail = program.symbols["loop"].value, program.symbols["tail"].value
    assert loop & 2 and tail & 2
    plain, fast, m = both(program, unaligned_target_penalty=penalty)
    assert_same(plain, fast)
    code = m.code.reshape(-1, L.NF)
    translated = {m.slot_pc[s] for s in range(len(m.slot_pc)) if code[s, L.F_TX] >= 0}
    assert loop in translated
    # 300 iterations: 299 taken branches, each the branch penalty plus the unaligned cycle
    pen = Machine("pulp-open", cores=1).config.branch_penalty
    assert int(plain["categories"][0][L.C_BRANCH]) >= 299 * (pen + penalty)
