"""The SoC peripherals a program reads back: the FC timer counts the FC's cycles, the FC's
interrupt controller keeps its mask and status, SoC control's INFO gives the cluster's size,
and the stdout peripheral keeps each core's line whole when cores print at the same time.
Assembled by isasim's toolchain (no GCC); straight-line code, no compressed instructions."""

from __future__ import annotations

from isasim.machine import Machine
from toolchain.asm import assemble

EXIT = """
    li t0, 0x1A1040A0
    li t1, 0x80000000
    or t1, t1, a0
    sw t1, 0(t0)
"""


def run(source: str, **overrides):
    m = Machine("pulp-open-soc", **overrides).load(
        assemble(source, filename="soc_periph.s", family="xpulpv2", rvc=False))
    r = m.run(100_000)
    r.check_invariant()
    return r


def test_fc_timer_counts_fc_cycles():
    """CFG_LO = 1 starts timer 0 at the store's cycle s; the load of CNT_LO issues at s + 1 +
    4 (four 1-cycle ALU instructions between them), so it reads 5.  A reset (CFG_LO bit 1)
    clears it."""
    r = run("""
    .text
    .globl _start
_start:
    li s0, 0x1A10B000
    li t1, 1
    sw t1, 0(s0)          # enable, at cycle s
    nop
    nop
    nop
    nop
    lw a0, 8(s0)          # CNT_LO at s + 5
""" + EXIT)
    assert (r.status, r.exit_code) == ("exited", 5)


def test_itc_mask_status_and_soc_info():
    r = run("""
    .text
    .globl _start
_start:
    li s0, 0x1A109800
    li t1, 0x30
    sw t1, 4(s0)          # MASK_SET
    li t1, 0x10
    sw t1, 8(s0)          # MASK_CLR
    li t1, 0x101
    sw t1, 0x10(s0)       # STATUS_SET
    li t1, 0x100
    sw t1, 0x14(s0)       # STATUS_CLR
    lw a1, 0(s0)          # mask: 0x20
    lw a2, 0xC(s0)        # status: 0x1
    li s1, 0x1A104000
    lw a3, 0(s1)          # INFO: 8 cores << 16 | 1 cluster
    li t1, 0x80001
    bne a3, t1, bad
    slli a0, a1, 4
    or a0, a0, a2         # 0x201
    j done
bad:
    li a0, 1
done:
""" + EXIT)
    assert (r.status, r.exit_code) == ("exited", 0x201)


def test_stdout_lines_of_concurrent_cores_stay_whole():
    """Cores 0..3 print "core <i>!" a byte at a time in the same cycles; each line comes out
    whole, in the order the lines end."""
    r = run("""
    .text
    .globl _start
_start:
    csrr t0, mhartid
    srli t1, t0, 5
    li t2, 31
    bne t1, t2, cluster
    li s0, 0x10200000
    la t1, _start
    sw t1, 0x40(s0)
    sw t1, 0x44(s0)
    sw t1, 0x48(s0)
    sw t1, 0x4C(s0)
    li t1, 0xF
    sw t1, 8(s0)          # fetch-enable cores 0..3
    li t1, 3000
spin:
    addi t1, t1, -1
    bnez t1, spin
    li a0, 0
""" + EXIT + """
cluster:
    andi t0, t0, 31
    slli t1, t0, 3
    li s0, 0x1A10F000
    add s0, s0, t1        # this core's stdout channel
    li t1, 'c'
    sb t1, 0(s0)
    li t1, 'o'
    sb t1, 0(s0)
    li t1, 'r'
    sb t1, 0(s0)
    li t1, 'e'
    sb t1, 0(s0)
    li t1, ' '
    sb t1, 0(s0)
    addi t1, t0, '0'
    sb t1, 0(s0)
    li t1, '!'
    sb t1, 0(s0)
    li t1, 10
    sb t1, 0(s0)
    wfi
""")
    assert (r.status, r.exit_code) == ("exited", 0)
    assert sorted(r.stdout.splitlines()) == [f"core {i}!" for i in range(4)]
