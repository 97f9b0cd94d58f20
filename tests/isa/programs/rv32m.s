# RV32M: multiply (low/high, signed/unsigned/mixed), divide and remainder including division by
# zero and the INT_MIN / -1 overflow case (results fixed by the spec, no trap).
    .option norvc
    .text
    .globl _start
_start:
    la s0, out
    li s1, 0x80000000
    li s2, -1
    li s3, 7
    li s4, -20
    li s5, 0x12345678
    li s6, 0xfedcba98
    mul t0, s5, s6
    sw t0, 0(s0)
    mulh t0, s5, s6
    sw t0, 4(s0)
    mulhu t0, s5, s6
    sw t0, 8(s0)
    mulhsu t0, s6, s5          # signed rs1 x unsigned rs2
    sw t0, 12(s0)
    mulhsu t0, s5, s6
    sw t0, 16(s0)
    mulh t0, s1, s1            # (-2^31)^2 = 2^62
    sw t0, 20(s0)
    mulhu t0, s2, s2           # (2^32-1)^2 high word
    sw t0, 24(s0)
    mulhsu t0, s2, s2          # -1 x (2^32-1)
    sw t0, 28(s0)
    div t0, s4, s3             # rounds toward zero
    sw t0, 32(s0)
    rem t0, s4, s3             # remainder has the dividend's sign
    sw t0, 36(s0)
    div t0, s3, s4
    sw t0, 40(s0)
    rem t0, s3, s4
    sw t0, 44(s0)
    divu t0, s4, s3
    sw t0, 48(s0)
    remu t0, s4, s3
    sw t0, 52(s0)
    div t0, s5, zero           # division by zero: quotient all ones
    sw t0, 56(s0)
    divu t0, s5, zero
    sw t0, 60(s0)
    rem t0, s5, zero           # remainder = dividend
    sw t0, 64(s0)
    remu t0, s6, zero
    sw t0, 68(s0)
    div t0, s1, s2             # INT_MIN / -1 overflows: INT_MIN
    sw t0, 72(s0)
    rem t0, s1, s2             # ... remainder 0
    sw t0, 76(s0)
    mul t0, s1, s2
    sw t0, 80(s0)
    li a0, 0
    li a7, 93
    ecall
    .data
out:
    .space 96
