"""A tohost exit replays its window only when some core ran past the writer's cycle.

``isasim.runcontrol`` ends a multi-core run exactly at a ``tohost`` write by replaying the
window from its snapshot with the exit cycle as the limit.  When every other core already waits
(a barrier, an exit), nothing happened after that cycle and the replay is skipped; the results
must be those of the replay, bit for bit.
"""

from __future__ import annotations

import numpy as np
import pytest

from isasim import runcontrol
from isasim.machine import Machine
from tests.debug.test_exits import SPIN_EXIT  # core 0 exits at E = 425, 1-7 spin in `j .`
from toolchain.asm import assemble

# each core adds its own TCDM words into a shared one (bank conflicts, stores), the cores meet
# in barrier 0 (the PULP event unit, as bench/engine.py's matmul), core 0 writes tohost and the
# others exit through ecall
BARRIER_THEN_EXIT = """
    .text
    .globl _start
_start:
    csrr s0, mhartid
    andi s0, s0, 31
    li s10, 0x10204000
    li t0, 0xff
    sw t0, 0x200(s10)
    sw t0, 0x20c(s10)
    li t0, 1 << 16
    sw t0, 0x8(s10)
    la s1, words
    slli t0, s0, 6
    add s1, s1, t0
    la s2, shared
    li s3, 40
1:  lw t1, 0(s1)
    lw t2, 0(s2)
    add t2, t2, t1
    addi t1, t1, 3
    sw t1, 0(s1)
    sw t2, 0(s2)
    addi s1, s1, 4
    addi s3, s3, -1
    bnez s3, 1b
    lw t0, 0x21c(s10)
    bnez s0, quit
    la t0, tohost
    li t1, (5 << 1) | 1
    sw t1, 0(t0)
    sw zero, 4(t0)
2:  j 2b
quit:
    li a7, 93
    li a0, 0
    ecall
    .section .l1, "aw"
shared: .word 0
words: .zero 8 * 64 * 4
    .data
    .align 3
    .globl tohost
tohost: .word 0, 0
fromhost: .word 0, 0
"""

# core 0 as in SPIN_EXIT; cores 1-7 count down 105 times (4 cycles each), then run {pad} nops
# and sleep (wfi): with 0..7 nops, their wfi issues from 3 cycles before the writer's cycle E
# (its clock after the exit store) to 4 after it
COUNT_THEN_SLEEP = SPIN_EXIT.replace("spin: j spin", """2:  j 2b
spin:
    li t3, 105
3:  addi t3, t3, -1
    bnez t3, 3b
    {pad}
    wfi""")


def run(source: str, monkeypatch, force_replay: bool = False, translate: bool = True, **config):
    """(machine, result, windows replayed) of an 8-core run of ``source``."""
    replays = []
    restore = runcontrol.RunControl._restore

    def counted(self, state):
        replays.append(1)
        restore(self, state)

    monkeypatch.setattr(runcontrol.RunControl, "_restore", counted)
    if force_replay:
        monkeypatch.setattr(runcontrol.RunControl, "_acted_after", lambda self, cycle: True)
    program = assemble(source, filename="exit.s", family="xpulpv2")
    m = Machine("pulp-open", cores=8, translate=translate, **config).load(program)
    r = m.run()
    r.check_invariant()
    monkeypatch.undo()
    return m, r, len(replays)


@pytest.mark.parametrize("translate", [True, False], ids=["translated", "interpreted"])
def test_exit_after_the_others_wait_is_not_replayed(monkeypatch, translate):
    m, r, replays = run(BARRIER_THEN_EXIT, monkeypatch, translate=translate)
    assert r.status == "exited" and r.exit_code == 5
    assert replays == 0
    ref_m, ref, ref_replays = run(BARRIER_THEN_EXIT, monkeypatch, force_replay=True,
                                  translate=translate)
    assert ref_replays == 1
    assert int(r.conflicts.sum()) > 0          # the loop's bank conflicts were scheduled
    for name in ("cycles", "instret", "categories", "profile_count", "profile_stall",
                 "conflicts"):
        assert np.array_equal(getattr(r, name), getattr(ref, name)), name
    assert np.array_equal(m.R, ref_m.R)
    assert np.array_equal(m.mmap.mem8, ref_m.mmap.mem8)


def test_exit_while_others_run_past_it_is_replayed(monkeypatch):
    m, r, replays = run(SPIN_EXIT, monkeypatch)
    assert r.status == "exited"
    assert replays == 1
    assert len(set(r.cycles.tolist())) == 1      # every core ends at the writer's cycle


@pytest.mark.parametrize("pad", range(8))
def test_exit_near_the_others_last_instruction_is_exact(monkeypatch, pad):
    """Whether the others stop just before the writer's cycle (no replay) or just after it
    (replayed), the run ends as the replayed window does."""
    src = COUNT_THEN_SLEEP.replace("{pad}", "\n    ".join(["nop"] * pad))
    # (ideal fetch: no refill parks the others, so their clocks step by one cycle per nop)
    m, r, replays = run(src, monkeypatch, icache="ideal")
    ref_m, ref, _ = run(src, monkeypatch, force_replay=True, icache="ideal")
    assert replays == (pad >= 3)     # a wfi issued at E or later must be undone
    assert len(set(ref.cycles.tolist())) == 1
    for name in ("cycles", "instret", "categories", "profile_count", "profile_stall"):
        assert np.array_equal(getattr(r, name), getattr(ref, name)), (name, replays)
    assert np.array_equal(m.R, ref_m.R)
