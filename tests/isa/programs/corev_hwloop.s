# CORE-V hardware loops (CV32E40P v2 corev_hw_loop.rst): cv.setupi / cv.setup / cv.starti /
# cv.start /
# cv.endi / cv.end / cv.counti / cv.count, the end label AFTER the last body instruction,
# nesting (loop 0 inner, outer end >= inner end + 8), count 0 = inactive, the read-only loop
# CSRs 0xCC0..0xCC6 (lpend shows the address after the body), a short body (warning).
    .option norvc
    .text
    .globl _start
_start:
    la s0, out
    # 1. cv.setupi: 5 iterations of a three-instruction body
    li t0, 0
    li t1, 0
    cv.setupi 0, 5, 1f
    addi t0, t0, 1
    addi t1, t1, 2
    nop
1:  sw t0, 0(s0)               # 5
    sw t1, 4(s0)               # 10
    # 2. nested: outer cv.setup 1 with the count in a register, inner cv.setupi 0
    li t2, 3
    li t0, 0
    li t1, 0
    cv.setup 1, t2, 3f
    cv.setupi 0, 4, 2f
    nop
    nop
    addi t0, t0, 1             # inner: 3 x 4
2:  addi t1, t1, 1
    nop
    nop
3:  sw t0, 8(s0)               # 12
    sw t1, 12(s0)              # 3
    # 3. count 0: inactive
    li t0, 0
    li t2, 0
    cv.setup 0, t2, 4f
    addi t0, t0, 1
    nop
    nop
4:  sw t0, 16(s0)              # 1
    # 4. separate instructions: cv.starti / cv.endi / cv.counti, then cv.start / cv.end /
    #    cv.count from registers
    li t0, 0
    cv.starti 1, 5f
    cv.endi 1, 6f
    cv.counti 1, 7
5:  addi t0, t0, 3
    nop
    addi t0, t0, -1            # 7 x 2
6:  sw t0, 20(s0)              # 14
    la t3, 7f
    la t4, 8f
    li t5, 4
    li t0, 0
    cv.start 0, t3
    cv.end 0, t4
    cv.count 0, t5
7:  addi t0, t0, 2
    nop
    addi t0, t0, 3             # 4 x 5
8:  sw t0, 24(s0)              # 20
    # 5. the loop CSRs read back: lpstart0 = 7b, lpend0 = 8f (after the body), lpcount0 = 0
    csrr t6, lpstart0
    sub t6, t6, t3
    sw t6, 28(s0)              # 0
    csrr t6, lpend0
    sub t6, t6, t4
    sw t6, 32(s0)              # 0
    csrr t6, lpcount0
    sw t6, 36(s0)              # 0
    # 6. a two-instruction body still loops (the manual asks for 3: a warning)
    li t0, 0
    cv.setupi 0, 3, 9f
    addi t0, t0, 1
    addi t0, t0, 1
9:  sw t0, 40(s0)              # 6
    li a0, 0
    li a7, 93
    ecall
    .data
out:
    .space 64
