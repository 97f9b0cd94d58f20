# The single register file (Zfinx / Zhinx, as GVSoC builds pulp-open's cores): FP instructions
# name x registers, binary16 results are written sign-extended from bit 15, binary16 operands
# are bits 15..0 whatever the upper half holds (RISC-V Zfinx chapter), x0 as a destination
# discards the result.
    .text
    .globl _start
_start:
    la s0, out
    li a1, 0x3fc00000            # 1.5f
    li a2, 0x40100000            # 2.25f
    fadd.s a0, a1, a2            # 3.75f
    sw a0, 0(s0)
    fmadd.s a0, a1, a2, a1       # 1.5 * 2.25 + 1.5 = 4.875f
    sw a0, 4(s0)
    li a1, 0x00003e00            # 1.5 (binary16), upper half zero
    li a2, 0xabcdb800            # -0.5, upper half anything
    fadd.h a0, a1, a2            # 1.0 = 0x3c00: positive, zero-extended
    sw a0, 8(s0)
    fsub.h a0, a2, a1            # -2.0 = 0xc000: sign-extended
    sw a0, 12(s0)
    fcvt.s.h a0, a2              # -0.5f
    sw a0, 16(s0)
    fcvt.h.s a0, a0              # back: 0xb800, sign-extended
    sw a0, 20(s0)
    fadd.h zero, a1, a1          # discarded
    sw zero, 24(s0)
    li a3, 0xb8003e00            # (1.5, -0.5)
    li a4, 0x40803e00            # (1.5, 2.25)
    li a0, 0x3c00b800            # (-0.5, 1.0)
    vfmac.h a0, a3, a4           # (1.5 * 1.5 - 0.5, -0.5 * 2.25 + 1.0) = (1.75, -0.125)
    sw a0, 28(s0)
    feq.h a0, a1, a1
    sw a0, 32(s0)
    li a0, 0
    li a7, 93
    ecall

    .data
    .balign 4
out:
    .space 36
