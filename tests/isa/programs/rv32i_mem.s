# RV32I loads and stores of every width, sign and zero extension, negative offsets, misaligned
# accesses (this cluster's default misaligned = "support"), fence, and fence.i after storing new
# instructions (the simulator must execute what was written, not a stale decode).
    .option norvc
    .text
    .globl _start
_start:
    la s0, out
    la s1, data
    lb t0, 0(s1)               # 0x80 -> sign-extended
    sw t0, 0(s0)
    lbu t0, 0(s1)
    sw t0, 4(s0)
    lh t0, 2(s1)               # 0x8001 at data+2
    sw t0, 8(s0)
    lhu t0, 2(s1)
    sw t0, 12(s0)
    lw t0, 4(s1)
    sw t0, 16(s0)
    addi s2, s1, 8
    lw t0, -4(s2)              # negative offset
    sw t0, 20(s0)
    lb t0, 5(s1)               # byte 1 of the word 0x7f01fe02: 0xfe
    sw t0, 24(s0)
    # stores of each width into a zeroed word
    la s3, scratch
    li t1, 0xaabbccdd
    sb t1, 0(s3)               # only the low byte
    sh t1, 2(s3)               # only the low half
    lw t0, 0(s3)
    sw t0, 28(s0)
    sw t1, 4(s3)
    sb zero, 5(s3)
    lw t0, 4(s3)
    sw t0, 32(s0)
    # misaligned word and half-word accesses
    lw t0, 1(s1)               # bytes 1..4 of data
    sw t0, 36(s0)
    lh t0, 3(s1)               # bytes 3..4, crossing a word
    sw t0, 40(s0)
    li t1, 0x11223344
    sw t1, 9(s3)               # misaligned store across words
    lw t0, 8(s3)
    sw t0, 44(s0)
    lw t0, 12(s3)
    sw t0, 48(s0)
    fence rw, rw
    fence
    # self-modifying code: patch the `li a1, 1` at `patch` into `li a1, 2`, then fence.i
    la t2, patch
    la t3, newinsn
    lw t4, 0(t3)
    sw t4, 0(t2)
    fence.i
patch:
    li a1, 1
    sw a1, 52(s0)
    li a0, 0
    li a7, 93
    ecall
newinsn:
    li a1, 2

    .data
    .align 2
data:
    .byte 0x80, 0x7f, 0x01, 0x80, 0x02, 0xfe, 0x01, 0x7f
scratch:
    .word 0, 0, 0, 0
out:
    .space 64
