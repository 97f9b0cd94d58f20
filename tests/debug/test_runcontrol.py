"""Pausing, stepping and breakpoints leave a run's results exactly as an uninterrupted run's."""

from __future__ import annotations

import numpy as np
import pytest

from asm_kernels.runner import run_kernel
from isasim.machine import Machine
from isasim.runcontrol import RunControl


def matmul(cores: int = 8):
    rng = np.random.default_rng(5)
    A = rng.standard_normal((9, 13)).astype(np.float32)
    B = rng.standard_normal((13, 11)).astype(np.float32)
    C = np.zeros((9, 11), np.float32)
    run = run_kernel("mm_2x2_m", dict(A=A, B=B, C=C, N=9, M=11, K=13, trans_B=0,
                                        accumulate=0), outputs=["C"], cores=cores)
    return run


def paused_run(stride: int):
    """Machine.run replaced by a run paused every ``stride`` cycles."""
    def run(self, max_cycles=None):
        rc = RunControl(self, max_cycles)
        while self._status == "running":
            rc.advance(rc.now + stride)
        return self._result()
    return run


def same(a, b):
    assert list(a.result.cycles) == list(b.result.cycles)
    assert list(a.result.instret) == list(b.result.instret)
    assert (a.result.categories == b.result.categories).all()
    assert (a.result.conflicts == b.result.conflicts).all()
    np.testing.assert_array_equal(a.outputs["C"], b.outputs["C"])


@pytest.mark.parametrize("stride", [1, 13, 250])
def test_paused_run_equals_plain_run(monkeypatch, stride):
    plain = matmul()
    monkeypatch.setattr(Machine, "run", paused_run(stride))
    same(plain, matmul())


def test_stepping_one_core_and_breakpoints_keep_cycles(monkeypatch):
    plain = matmul()
    seen = []

    def run(self, max_cycles=None):
        rc = RunControl(self, max_cycles)
        entry = self.program.symbol("mm_2x2_m")
        rc.add_breakpoint(entry)
        stop = rc.cont(lambda: False)
        assert stop.kind == "break" and stop.addr == entry
        seen.append(stop.core)
        rc.remove_breakpoint(entry)
        for _ in range(20):
            before = rc.instret(3)
            assert rc.step(3).kind == "pause"
            assert rc.instret(3) == before + 1
        rc.step_all()
        while rc.cont(lambda: False).kind != "end":
            pass
        return self._result()

    monkeypatch.setattr(Machine, "run", run)
    same(plain, matmul())
    assert seen and 0 <= seen[0] < 8



def test_watchpoint_stops_before_the_store_and_keeps_cycles(monkeypatch):
    plain = matmul()
    hits = []

    def run(self, max_cycles=None):
        rc = RunControl(self, max_cycles)
        c_addr = self.read("__kernel_args", 8)[2]        # the kernel's C pointer
        rc.set_watch(int(c_addr), 4)
        stop = rc.cont(lambda: False)
        assert stop.kind == "watch" and stop.addr == c_addr
        before = int(self.read(int(c_addr))[0])
        pc = rc.pc(stop.core)
        assert "sw" in self.disassemble_at(pc)            # stopped at the store, not after it
        rc.clear_watch(int(c_addr), 4)
        rc.step(stop.core)                                 # performs the store
        hits.append((before, int(self.read(int(c_addr))[0]), rc.pc(stop.core) != pc))
        while rc.cont(lambda: False).kind != "end":
            pass
        return self._result()

    monkeypatch.setattr(Machine, "run", run)
    same(plain, matmul())
    assert hits and hits[0][0] == 0 and hits[0][1] != 0 and hits[0][2]


BARRIER = """
    .text
    .globl _start
_start:
    bnez a0, 2f
    li t2, 3000
1:  addi t2, t2, -1
    bnez t2, 1b
2:  li t0, {eu_demux}
    li t1, 3
    sw t1, 0x200(t0)          # hardware barrier 0: both cores trigger ...
    sw t1, 0x20c(t0)          # ... and both are woken
    li t1, 1 << 16
    sw t1, 0x8(t0)            # listen to the barrier event
    p.elw t1, 0x21c(t0)       # trigger, sleep, clear
    addi s0, s0, 1
    addi s0, s0, 1
    li a0, 0
    li a7, 93
    ecall
"""


def test_stepping_a_sleeping_core_retires_exactly_one_instruction():
    from isasim import layout as L
    from toolchain.asm import assemble

    def machine():
        cfg = Machine("pulp-open", cores=2).config
        src = BARRIER.format(eu_demux=cfg.eu_demux)
        return Machine("pulp-open", cores=2).load(assemble(src, filename="b.s",
                                                           family="xpulpv2"))

    plain = machine().run()
    m = machine()
    rc = RunControl(m)
    while rc.status(1) != L.ST_SLEEPING:       # core 1 reaches the barrier and sleeps
        rc.step(1)
    asleep_at = rc.instret(1)
    # p.elw retired as the core went to sleep; the step wakes it when core 0 arrives (3000
    # iterations of 4 cycles later) and retires the first addi only
    assert rc.step(1).kind == "pause"
    assert rc.instret(1) == asleep_at + 1
    assert rc.core_time(0) > 12000 and m.reg(1, "s0") == 1
    rc.step(1)
    assert m.reg(1, "s0") == 2
    rc.run_to_end()
    r = m.run()
    assert list(r.cycles) == list(plain.cycles) and list(r.instret) == list(plain.instret)
