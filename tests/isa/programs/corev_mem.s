# CORE-V loads and stores (CV32E40P v2 manual): cv.lX rd, (rs1), imm / cv.lX rd, (rs1), rs2
# (post-increment), cv.lX rd, rs2(rs1) (register offset), the same store forms, cv.elw, and a
# CSR write to the read-only loop CSRs being an illegal instruction (trapped here).
    .option norvc
    .text
    .globl _start
_start:
    la s0, out
    la s1, data
    mv a1, s1
    cv.lb t0, (a1), 1          # 0x80 -> sign-extended
    sw t0, 0(s0)
    cv.lbu t0, (a1), 3         # data+1 = 0xff
    sw t0, 4(s0)
    cv.lh t0, (a1), 2          # data+4 = 0x8001
    sw t0, 8(s0)
    cv.lhu t0, (a1), -6        # data+6 = 0x7fff
    sw t0, 12(s0)
    cv.lw t0, (a1), 8          # data
    sw t0, 16(s0)
    li a2, 4
    cv.lw t0, (a1), a2         # data+8
    sw t0, 20(s0)
    li a2, -11
    cv.lb t0, (a1), a2         # data+12 = 0xaa
    sw t0, 24(s0)
    li a2, 3
    cv.lbu t0, (a1), a2        # data+1
    sw t0, 28(s0)
    li a2, -4
    cv.lh t0, (a1), a2         # data+4
    sw t0, 32(s0)
    li a2, 6
    cv.lhu t0, (a1), a2        # data
    sw t0, 36(s0)
    sub t1, a1, s1
    sw t1, 40(s0)              # 6
    li a2, 8
    cv.lw t0, a2(s1)
    sw t0, 44(s0)
    li a2, 1
    cv.lb t0, a2(s1)
    sw t0, 48(s0)
    cv.lbu t0, a2(s1)
    sw t0, 52(s0)
    li a2, 4
    cv.lh t0, a2(s1)
    sw t0, 56(s0)
    cv.lhu t0, a2(s1)
    sw t0, 60(s0)
    la a3, buf
    li t2, 0xaabbccdd
    cv.sb t2, (a3), 1
    cv.sh t2, (a3), 2
    cv.sw t2, (a3), 4
    la t3, buf
    sub t1, a3, t3
    sw t1, 64(s0)              # 7
    la a3, buf + 8
    li a4, 4
    cv.sw t2, (a3), a4
    li a4, 2
    cv.sh t2, (a3), a4
    li a4, -14
    cv.sb t2, (a3), a4
    sub t1, a3, t3
    sw t1, 68(s0)              # 0
    li a4, 16
    cv.sw t2, a4(t3)
    li a4, 20
    cv.sh t2, a4(t3)
    li a4, 23
    cv.sb t2, a4(t3)
    cv.elw t0, 8(s1)
    sw t0, 72(s0)
    # csrw to a CORE-V loop CSR is illegal: the handler records mcause and skips it
    la t0, handler
    csrw mtvec, t0
    li s2, 0
    li t1, 5
    csrw lpcount0, t1
    sw s2, 76(s0)              # 2 (illegal instruction)
    csrw mtvec, zero           # no handler: the final ecall exits
    li a0, 0
    li a7, 93
    ecall
handler:
    csrr s2, mcause
    csrr t1, mepc
    addi t1, t1, 4
    csrw mepc, t1
    mret
    .data
    .align 2
data:
    .byte 0x80, 0xff, 0x7f, 0x01, 0x01, 0x80, 0xff, 0x7f
    .word 0x11223344
    .word 0x000000aa
buf:
    .space 24
out:
    .space 96
