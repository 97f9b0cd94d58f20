# Xpulpv2 hardware loops (PULP binutils riscv-opc.c): lp.setupi / lp.setup / lp.starti / lp.endi /
# lp.count / lp.counti, the end label on the LAST body instruction, nesting with distinct and
# with equal end addresses (loop 0 inner), count 0 = inactive (body runs once), a compressed
# last instruction, a one-instruction body, and the loop CSRs 0x7C0..0x7C6 read and written.
    .text
    .globl _start
_start:
    la s0, out
    # 1. lp.setupi: 5 iterations of a two-instruction body
    li t0, 0
    li t1, 0
    lp.setupi x0, 5, 1f
    addi t0, t0, 1
1:  addi t1, t1, 2
    sw t0, 0(s0)               # 5
    sw t1, 4(s0)               # 10
    # 2. nested, distinct ends: outer lp.setup x1 (count in a register), inner lp.setupi x0
    li t2, 3
    li t0, 0
    li t1, 0
    lp.setup x1, t2, 3f
    lp.setupi x0, 4, 2f
    nop
2:  addi t0, t0, 1             # inner body: runs 3 x 4 times
3:  addi t1, t1, 1             # outer body end: 3 times
    sw t0, 8(s0)               # 12
    sw t1, 12(s0)              # 3
    # 3. nested with EQUAL end addresses: loop 0 (inner) is checked first; when it expires the
    #    same step checks loop 1, which jumps back to its own start
    li t0, 0
    li t1, 0
    lp.setupi x1, 3, 4f
    addi t1, t1, 1             # outer-only instruction: 3 times
    lp.setupi x0, 2, 4f
    nop
4:  addi t0, t0, 1             # shared last instruction: 3 x 2 times
    sw t0, 16(s0)              # 6
    sw t1, 20(s0)              # 3
    # 4. count 0: the loop is inactive, the body runs once as straight-line code
    li t0, 0
    li t2, 0
    lp.setup x0, t2, 5f
    nop
5:  addi t0, t0, 1
    sw t0, 24(s0)              # 1
    # 5. separate start / end / count instructions (lp.starti, lp.endi, lp.counti, lp.count)
    li t0, 0
    lp.starti x1, 6f
    lp.endi x1, 7f
    lp.counti x1, 7
6:  addi t0, t0, 3
7:  addi t0, t0, -1            # 7 x (3 - 1)
    sw t0, 28(s0)              # 14
    li t2, 4
    li t0, 0
    lp.starti x0, 8f
    lp.endi x0, 8f             # one-instruction body (no minimum in Xpulpv2)
    lp.count x0, t2
8:  addi t0, t0, 5
    sw t0, 32(s0)              # 20
    # 6. compressed last body instruction
    li t0, 0
    li t1, 0
    lp.setupi x0, 6, 9f
    addi t1, t1, 1
9:  c.addi t0, 2
    sw t0, 36(s0)              # 12
    # 7. the loop CSRs: after a loop its count reads 0; start/end read back; written with csrw
    csrr t3, lpcount0
    sw t3, 40(s0)              # 0
    la t4, 9b
    csrr t3, lpend0
    sub t3, t3, t4
    sw t3, 44(s0)              # 0: lpend0 = address of the last instruction
    la t4, 10f
    la t5, 11f
    li t0, 0
    csrw lpstart1, t4
    csrw lpend1, t5
    li t6, 3
    csrw lpcount1, t6          # the loop is armed once the count is non-zero
10: addi t0, t0, 10
11: addi t0, t0, 1
    sw t0, 48(s0)              # 33
    csrr t3, lpstart1
    sub t3, t3, t4
    sw t3, 52(s0)              # 0
    li a0, 0
    li a7, 93
    ecall
    .data
out:
    .space 64
