"""The common CSR accesses are completed in the compiled loop, without a return to Python.

``isasim.csr.loop_access`` completes the reads of the ids, ``misa``, ``mstatus``, the trap
CSRs, ``fflags``/``frm``/``fcsr`` and the cycle counters, and the writes that change only their
field; the others (``minstret``, the PULP performance counters, illegal accesses) still leave
the loop (``EV_CSR``) for ``CsrFile.access``.  The values are those of the RISC-V privileged
specification's WARL fields as this model keeps them (``tests/isa/programs/zicsr.s`` checks the
instructions' semantics against Spike's results).
"""

from __future__ import annotations

import numpy as np
import pytest

from isasim.machine import Machine
from toolchain.asm import assemble

# every core: the CSRs the loop completes, written with all ones and read back
IN_LOOP = """
    .option norvc
    .text
    .globl _start
_start:
    csrr s0, mhartid
    andi s0, s0, 31
    la s1, out
    slli t0, s0, 7
    add s1, s1, t0
    li t0, -1
    csrr t1, misa
    sw t1, 0(s1)
    csrr t1, mvendorid
    sw t1, 4(s1)
    csrr t1, marchid
    sw t1, 8(s1)
    csrr t1, mimpid
    sw t1, 12(s1)
    csrrw t1, mstatus, t0      # returns the reset value
    sw t1, 16(s1)
    csrr t1, mstatus
    sw t1, 20(s1)
    csrw mtvec, t0
    csrr t1, mtvec
    sw t1, 24(s1)
    csrw mepc, t0
    csrr t1, mepc
    sw t1, 28(s1)
    csrw mcause, t0
    csrr t1, mcause
    sw t1, 32(s1)
    csrw mie, t0
    csrr t1, mie
    sw t1, 36(s1)
    csrw mscratch, s0
    csrr t1, mscratch
    sw t1, 40(s1)
    csrw mtval, t0
    csrr t1, mtval
    sw t1, 44(s1)
    csrw mip, t0               # (no interrupt is pending: writes are ignored)
    csrr t1, mip
    sw t1, 48(s1)
    csrw fcsr, t0
    csrr t1, fcsr
    sw t1, 52(s1)
    csrci fflags, 5
    csrr t1, fflags
    sw t1, 56(s1)
    csrr t1, uhartid
    sw t1, 60(s1)
    csrr t1, pcer
    sw t1, 64(s1)
    csrr t1, mcycle
    nop
    nop
    csrr t2, mcycle
    sub t1, t2, t1
    sw t1, 68(s1)
    csrr t1, mcycleh
    sw t1, 72(s1)
    csrw mtvec, zero
    li a7, 93
    li a0, 0
    ecall
    .section .l1, "aw"
out: .zero 2 * 128
"""

# misa: RV32 (MXL 1), I M F C and X; mvendorid, marchid, mimpid 0; mstatus from reset (the FPU
# on: FS dirty and SD; MPP read as M) to MIE MPIE MPP FS SD; the WARL masks of mtvec (direct
# mode: aligned to 4), mepc (aligned to 2), mcause (interrupt bit and the exception code's 5
# bits), mie (MSIE MTIE MEIE); fcsr's 8 bits, fflags 0x1f & ~5; uhartid = mhartid; PCER 0 at
# reset; two mcycle reads 6 cycles apart: the first, a slow CSR, takes 4 (CV32E40P user manual,
# pipeline.rst "Cycle counts per instruction type"), then two nops
EXPECTED = [0x40801124, 0, 0, 0, 0x80007800, 0x80007888, 0xFFFFFFFC, 0xFFFFFFFE, 0x8000001F, 0x888,
            None, 0xFFFFFFFF, 0, 0xFF, 0x1A, None, 0, 6, 0]


def csr_exits(monkeypatch, m: Machine) -> list[int]:
    """Record the pc of every CSR instruction the loop hands to Python."""
    pcs: list[int] = []
    original = type(m)._csr

    def counted(self, core, pc):
        pcs.append(pc)
        original(self, core, pc)

    monkeypatch.setattr(type(m), "_csr", counted)
    return pcs


@pytest.mark.parametrize("translate", [True, False], ids=["translated", "interpreted"])
def test_common_csrs_complete_in_the_loop(monkeypatch, translate):
    program = assemble(IN_LOOP, filename="csr.s", family="xpulpv2")
    # (ideal fetch: the mcycle difference is the instructions' cycles, no refill)
    m = Machine("pulp-open", cores=2, translate=translate, icache="ideal").load(program)
    exits = csr_exits(monkeypatch, m)
    r = m.run()
    assert r.status == "exited", r.fault
    assert exits == []
    out = m.read("out", 64).reshape(2, 32)
    for core in range(2):
        got = out[core, :len(EXPECTED)].tolist()
        want = [core if w is None else w for w in EXPECTED]    # mscratch, uhartid: the id
        assert got == want, core


# minstret (the loop keeps the count in a local), a PULP performance counter (its baseline is
# rebased in Python), a write to a read-only CSR (illegal: the handler skips it) and fflags with
# the FPU off (illegal) go to Python
TO_PYTHON = """
    .option norvc
    .text
    .globl _start
_start:
    la t0, handler
    csrw mtvec, t0
    li s2, 0
    csrr s3, minstret
    nop
    csrr s4, minstret
    li t0, 3
    csrw pcmr, t0
    li t0, 1
    csrw pcer, t0
    csrr s5, 0x780             # PCCR0: cycles since the counter started
    csrw mhartid, zero         # illegal
    li t0, 0x6000
    csrc mstatus, t0           # FS off
    csrr s6, fflags            # illegal
    csrw mtvec, zero
    li a7, 93
    li a0, 0
    ecall
handler:
    addi s2, s2, 1
    csrr t0, mepc
    addi t0, t0, 4
    csrw mepc, t0
    mret
"""


def test_other_csrs_go_to_python(monkeypatch):
    program = assemble(TO_PYTHON, filename="csr.s", family="xpulpv2")
    m = Machine("pulp-open", cores=1).load(program)
    exits = csr_exits(monkeypatch, m)
    r = m.run()
    assert r.status == "exited", r.fault
    names = [m.disassemble_at(pc).split()[0] for pc in exits]
    assert names == ["csrr", "csrr", "csrw", "csrw", "csrr", "csrw", "frflags"], names
    x = r.x[0]
    assert x[20] - x[19] == 2          # the csrr and the nop retired between the reads
    assert x[21] > 0                   # PCCR0 counts
    assert x[18] == 2                  # s2: both illegal accesses trapped
    assert np.all(r.instret > 0)
