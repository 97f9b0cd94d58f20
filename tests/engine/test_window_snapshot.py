"""A replay's snapshot restores the whole machine, though it copies only the text decoded so far.

``isasim.runcontrol`` snapshots a multi-core ``tohost`` run at each window and restores the
snapshot to replay the window up to the exit.  Of the text it keeps the slots decoded at the
snapshot (records, their pc map entries, profile rows), not the whole pc map and profile: these
tests run a window that decodes code outside the executable sections (enough to grow the
profile past its capacity), stores over decoded text, prints and writes memory, restore, and
compare every array and list of the machine with a full copy taken at the snapshot.
"""

from __future__ import annotations

import copy

import numpy as np
import pytest

from isasim import layout as L
from isasim.machine import Machine
from isasim.runcontrol import RunControl
from toolchain.asm import assemble

# core 0 patches an instruction ahead of it, calls {n} instructions placed in .data (decoded
# when first fetched), prints, and writes tohost; core 1 stores into the TCDM and exits
PROGRAM_N = """
    .text
    .globl _start
_start:
    csrr s0, mhartid
    andi s0, s0, 31
    bnez s0, other
    li t0, 200
1:  addi t0, t0, -1
    bnez t0, 1b
    la t0, patched
    li t1, 0x00100593          # li a1, 1
    sw t1, 0(t0)
    fence.i
patched:
    li a1, 700                 # (4 bytes: no compressed form)
    la t0, far
    jalr t0
    li a7, 64
    li a0, 1
    la a1, msg
    li a2, 3
    ecall
    la t0, tohost
    li t1, 1
    sw t1, 0(t0)
    sw zero, 4(t0)
2:  j 2b
other:
    la t0, buf
    li t1, 300
3:  sw t1, 0(t0)
    addi t1, t1, -1
    bnez t1, 3b
    li a7, 93
    li a0, 0
    ecall
    .data
far:
    .rept {n}
    addi a1, a1, 1
    .endr
    ret
msg: .ascii "ok\\n"
    .align 3
    .globl tohost
tohost: .word 0, 0
fromhost: .word 0, 0
    .section .l1, "aw"
buf: .word 0
"""
# 1,100 decoded in the window: more slots than the profile holds (1,024), it grows
PROGRAM = PROGRAM_N.replace("{n}", "1100")

ARRAYS = ("R", "RDY", "CS", "CAT", "CL", "OUT", "TR", "pcmap", "code")
LISTS = ("slot_pc", "_slot_half", "_stdout", "_warnings", "_exit_codes", "_exit_time",
         "_status", "_cap")


def full_copy(m: Machine) -> dict:
    state = {k: getattr(m, k).copy() for k in ARRAYS}
    state.update({k: copy.deepcopy(getattr(m, k)) for k in LISTS})
    state["PCS"] = m.PCS.copy()
    state["mem8"] = m.mmap.mem8.copy()
    return state


@pytest.mark.parametrize("translate", [True, False], ids=["translated", "interpreted"])
@pytest.mark.parametrize("n", [1100, 20], ids=["profile-grows", "profile-fits"])
def test_restore_after_a_window_that_decodes_and_patches_text(translate, n):
    m = Machine("pulp-open", cores=2, translate=translate).load(
        assemble(PROGRAM_N.replace("{n}", str(n)), filename="window.s", family="xpulpv2"))
    rc = RunControl(m)
    assert rc.exact_exit
    rc.advance(100)          # mid-way through core 0's first loop
    before = full_copy(m)
    snap = rc._snapshot()
    cap = m._cap
    stop = rc.advance(10 ** 6)
    # the window did what the snapshot must undo
    assert stop.kind == "end" and m._status == "exited"
    assert len(m.slot_pc) > len(before["slot_pc"]) + n          # decoded
    assert (m._cap > cap) == (n > 1024)                       # the profile grew
    assert bytes(m._stdout) == b"ok\n"
    assert m.CL[L.L_TEXT_DIRTY] == 1                   # the patch unmapped decoded text
    assert not np.array_equal(m.mmap.mem8, before["mem8"])
    rc._restore(snap)
    after = full_copy(m)
    for k, v in before.items():
        if isinstance(v, np.ndarray):
            assert np.array_equal(after[k], v), k
        else:
            assert after[k] == v, k
    assert np.array_equal(m.slot_halfwords(), np.array(m._slot_half, dtype=np.int64))


def test_replayed_run_equals_an_uninterrupted_one():
    """From the restored state the run goes on to the same end as a run never paused."""
    program = assemble(PROGRAM, filename="window.s", family="xpulpv2")
    ref = Machine("pulp-open", cores=2).load(program).run()
    m = Machine("pulp-open", cores=2).load(program)
    rc = RunControl(m)
    rc.advance(100)
    snap = rc._snapshot()
    rc.advance(10 ** 6)
    rc._restore(snap)
    rc.run_to_end()
    r = m._result()
    assert r.status == ref.status == "exited"
    for name in ("cycles", "instret", "categories", "profile_pc", "profile_count",
                 "profile_stall", "x"):
        assert np.array_equal(getattr(r, name), getattr(ref, name)), name
    assert r.stdout == ref.stdout == "ok\n"
