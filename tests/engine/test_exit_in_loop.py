"""``exit`` by ``ecall`` (a7 = 93) halts the core in the compiled loop, without a return to
Python; the other host calls still go to ``isasim.hostcalls``.

The run's exit code is the first non-zero code in the order the cores exited (as before, when
Python halted them): core 3 exits before core 2 here, so its code is the run's.
"""

from __future__ import annotations

import pytest

from isasim import layout as L
from isasim.machine import Machine
from toolchain.asm import assemble

# core h counts down SPINS[h] iterations, prints one byte (SYS_WRITE) on core 0, then exits with
# CODES[h]
PROGRAM = """
    .text
    .globl _start
_start:
    csrr s0, mhartid
    andi s0, s0, 31
    la t0, spins
    slli t1, s0, 2
    add t0, t0, t1
    lw t2, 0(t0)
1:  beqz t2, 2f
    addi t2, t2, -1
    j 1b
2:  bnez s0, 3f
    li a7, 64
    li a0, 1
    la a1, msg
    li a2, 1
    ecall
3:  la t0, codes
    slli t1, s0, 2
    add t0, t0, t1
    lw a0, 0(t0)
    li a7, 93
    ecall
    .data
spins: .word 0, 10, 200, 100
codes: .word 0, 0, 9, 4
msg:   .ascii "x"
"""


@pytest.mark.parametrize("translate", [True, False], ids=["translated", "interpreted"])
def test_exit_halts_in_the_loop(monkeypatch, translate):
    program = assemble(PROGRAM, filename="exits.s", family="xpulpv2")
    m = Machine("pulp-open", cores=4, translate=translate).load(program)
    calls: list[tuple[int, int]] = []
    original = Machine._host_call

    def recorded(self, ev, core, pc):
        calls.append((ev, core))
        original(self, ev, core, pc)

    monkeypatch.setattr(Machine, "_host_call", recorded)
    r = m.run()
    assert r.status == "exited", r.fault
    assert calls == [(L.EV_ECALL, 0)]          # the write; no exit went to Python
    assert r.stdout == "x"
    assert r.exit_codes == [0, 0, 9, 4]
    assert r.exit_code == 4                    # core 3 exited first of the non-zero ones
    assert list(r.x[:, 17]) == [93] * 4
