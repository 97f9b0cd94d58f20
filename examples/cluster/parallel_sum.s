# Parallel sum on the 8-core cluster: the complete example of docs/programming-guide.md.
# Run:  isasim run examples/cluster/parallel_sum.s
#
# 64 words (0..63) live in L2 (.data).  Core 0 copies them into the TCDM (.l1) with the cluster
# DMA and sleeps until its completion event; hardware barrier 0 then releases all 8 cores, and
# core c sums words 8c..8c+7 into partial[c] (in the TCDM).  The cores then print one line each,
# in hart order, taking turns between barriers, and core 0 adds the partial sums.  Every core
# stops itself with the exit system call (ecall, a7 = 93); the run's exit code is the first
# non-zero code, so core 0 exits with 1 when the total is wrong.  Output:
#
#   core 0: 28
#   core 1: 92
#   ...
#   core 7: 476
#   total: 2016
#
    .equ EU, 0x10204000          # event unit, per-core view
    .equ DMA, 0x10204400         # cluster DMA, per-core view
    .equ SIMDEV, 0x1A110000      # simulator device: +0 putchar
    .equ BAR0, 0x200             # hardware barrier 0: TRIGGER_MASK +0x0, TARGET_MASK +0xC,
    .equ BAR0_WAIT, 0x21C        #   TRIGGER_WAIT_CLEAR +0x1C
    .equ EVT_DMA, 1 << 8         # event lines
    .equ EVT_BARRIER, 1 << 16
    .equ BYTES, 256
    .equ CMD, (1 << 17) | (1 << 18) | (1 << 20) | BYTES   # L2 -> TCDM, incremental, event
    .equ TOTAL, 2016             # 0 + 1 + ... + 63

    .text
    .globl _start
_start:
    csrr s0, mhartid
    andi s0, s0, 0x1f            # core id (mhartid = cluster << 5 | core; a0 holds it too)
    li s1, EU
    li t0, 0xff
    sw t0, BAR0(s1)              # barrier 0 is triggered by cores 0..7 ...
    sw t0, BAR0 + 0xc(s1)        # ... and wakes cores 0..7
    li t0, EVT_BARRIER
    sw t0, 0x8(s1)               # MASK_OR: add the barrier line to this core's event mask

    bnez s0, 1f                  # core 0: DMA the input into the TCDM and wait for it
    li t0, EVT_DMA
    sw t0, 0x8(s1)               # listen to the DMA line too
    li t1, DMA
    li t0, CMD
    sw t0, 0(t1)                 # command word
    la t0, data
    sw t0, 0(t1)                 # TCDM destination
    la t0, input
    sw t0, 0(t1)                 # L2 source: the transfer is queued
    p.elw t0, 0x3c(s1)           # EVENT_WAIT_CLEAR: sleep until the DMA event, clear it
    li t0, EVT_DMA
    sw t0, 0x4(s1)               # MASK_AND: stop listening to the DMA line
1:  p.elw t0, BAR0_WAIT(s1)      # barrier: the data is in the TCDM

    la t0, data                  # partial[c] = sum of words 8c .. 8c+7
    slli t1, s0, 5
    add t0, t0, t1
    li s2, 0
    lp.setupi x0, 8, 2f
    p.lw t2, 4(t0!)
2:  add s2, s2, t2
    la t0, partial
    slli t1, s0, 2
    add t0, t0, t1
    sw s2, 0(t0)

    li s3, 0                     # turn: core s3 prints, then everybody meets
3:  bne s3, s0, 4f
    la a0, msg_core
    call puts
    mv a0, s0
    call put_uint
    la a0, msg_sep
    call puts
    mv a0, s2
    call put_uint
    li a0, '\n'
    call putc
4:  p.elw t0, BAR0_WAIT(s1)
    addi s3, s3, 1
    li t0, 8
    bne s3, t0, 3b

    li a0, 0
    bnez s0, 6f                  # cores 1..7 exit with 0
    la t0, partial               # core 0: the total
    li s2, 0
    lp.setupi x0, 8, 5f
    p.lw t2, 4(t0!)
5:  add s2, s2, t2
    la a0, msg_total
    call puts
    mv a0, s2
    call put_uint
    li a0, '\n'
    call putc
    li t0, TOTAL
    sub a0, s2, t0
    snez a0, a0                  # exit code 0 when the total is right
6:  li a7, 93                    # exit: stops this core only
    ecall

# putc(a0 = byte) and puts(a0 = NUL-terminated string) through the simulator's putchar register
putc:
    li t0, SIMDEV
    sb a0, 0(t0)
    ret
puts:
    li t0, SIMDEV
1:  lbu t1, 0(a0)
    beqz t1, 2f
    sb t1, 0(t0)
    addi a0, a0, 1
    j 1b
2:  ret

# put_uint(a0): decimal digits, built backwards in a buffer on this core's stack
put_uint:
    addi sp, sp, -16
    addi t2, sp, 15
    sb zero, 0(t2)               # terminator
    li t1, 10
1:  remu t0, a0, t1
    addi t0, t0, '0'
    addi t2, t2, -1
    sb t0, 0(t2)
    divu a0, a0, t1
    bnez a0, 1b
    mv a0, t2
    mv t3, ra
    call puts
    mv ra, t3
    addi sp, sp, 16
    ret

    .section .rodata
msg_core:  .asciz "core "
msg_sep:   .asciz ": "
msg_total: .asciz "total: "

    .data                        # L2
    .p2align 2
input:
    .word 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
    .word 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31
    .word 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47
    .word 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63

    .section .l1, "aw"           # TCDM
    .p2align 2
data:    .zero BYTES
partial: .zero 32
