# CORE-V-only semantics: cv.clipr / cv.clipur mask rs2 with 0x7fffffff first, and cv.bitrev
# (digit-reverse the low Is2 bits for an FFT of 2^Is2 points in radix 2^(Is3+1)).
    .option norvc
    .text
    .globl _start
_start:
    la s0, out
    li a1, 1000
    li a2, 0x80000064          # bound 100 after masking bit 31
    cv.clipr t0, a1, a2
    sw t0, 0(s0)               # 100
    li a1, -1000
    cv.clipr t0, a1, a2
    sw t0, 4(s0)               # -101
    cv.clipur t0, a1, a2
    sw t0, 8(s0)               # 0
    li a1, 1000
    cv.clipur t0, a1, a2
    sw t0, 12(s0)              # 100
    li a1, 1
    cv.bitrev t0, a1, 0, 4     # radix 2, 16 points: 0001 -> 1000
    sw t0, 16(s0)
    li a1, 0x1d                # upper bits beyond the 4 index bits are ignored
    cv.bitrev t0, a1, 0, 4     # 1101 -> 1011
    sw t0, 20(s0)
    li a1, 1
    cv.bitrev t0, a1, 1, 4     # radix 4: digits 00 01 -> 01 00
    sw t0, 24(s0)
    li a1, 0x0e                # radix 4: digits 11 10 -> 10 11
    cv.bitrev t0, a1, 1, 4
    sw t0, 28(s0)
    li a1, 0x0b                # radix 8, 64 points: digits 001 011 -> 011 001
    cv.bitrev t0, a1, 2, 6
    sw t0, 32(s0)
    li a0, 0
    li a7, 93
    ecall
    .data
out:
    .space 64
