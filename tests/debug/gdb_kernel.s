# 8 cores: core k scales its 8 words of `data` (TCDM) by 3 and adds k (tests/debug/test_gdb.py)
    .option norvc
    .section .l1, "aw"
    .globl data
data:
    .word 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16
    .word 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32
    .word 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48
    .word 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64
    .text
    .globl _start
_start:
    slli t0, a0, 5
    la a1, data
    add a1, a1, t0
    li a2, 8
    call kernel
    li a7, 93
    li a0, 0
    ecall

    .globl kernel
kernel:
1:  lw t1, 0(a1)
    slli t2, t1, 1
    add t1, t1, t2
    add t1, t1, a0
    sw t1, 0(a1)
    addi a1, a1, 4
    addi a2, a2, -1
    bnez a2, 1b
    ret
