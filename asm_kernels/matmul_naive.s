# mm_naive_n / mm_naive_m — C[N x M] = A[N x K] . B[K x M]  (C += ... when accumulate; B stored
# M x K when trans_B), fp32; rows (_n) or columns (_m) of C split over the cores in contiguous
# blocks of ceil(N / cores) rows (ceil(M / cores) columns).
#
# Scheduling: the reference point of the family, what a compiler makes of the three-loop C code.
# One accumulator, two loads and two pointer bumps per multiply-add, so each K step costs
# 5 instructions for 1 MAC (the bumps sit between the loads and the fmadd, so there is no
# load-use stall).  Hardware loop over K only; the two outer loops are branches.  All cores
# start on the same B column at the same time, so their B loads meet in one bank every step:
# that contention is part of what the blocked kernels remove.
#
# a0 -> struct matmul {A, B, C, N, M, K, trans_B, accumulate}; a1 = number of cores.
    .text
    .globl mm_naive_n
    .globl mm_naive_m
mm_naive_n:
    li t6, 0
    j mm_naive
mm_naive_m:
    li t6, 1
mm_naive:
    addi sp, sp, -32
    sw s0, 0(sp)
    sw s1, 4(sp)
    sw s2, 8(sp)
    sw s3, 12(sp)
    sw s4, 16(sp)
    sw s5, 20(sp)
    sw s6, 24(sp)
    csrr t0, mhartid
    andi t0, t0, 0x1f            # core id
    lw a2, 12(a0)                # N
    lw a3, 16(a0)                # M
    lw a4, 20(a0)                # K
    mv t5, a2                    # split dimension: N ...
    beqz t6, 1f
    mv t5, a3                    # ... or M
1:  add t1, t5, a1
    addi t1, t1, -1
    divu t1, t1, a1              # block = ceil(P / cores)
    mul t2, t0, t1               # first index
    add t3, t2, t1
    p.minu t3, t3, t5            # end index (exclusive)
    bgeu t2, t3, 9f
    # rectangle rows [t2, t3) x columns [s6, a3) (split over N) or [0, N) x [t2, t3) (over M)
    li s6, 0
    beqz t6, 2f
    mv s6, t2                    # first column
    mv a3, t3                    # end column
    li t2, 0
    mv t3, a2
2:  lw t4, 0(a0)                 # A
    lw t5, 4(a0)                 # B
    lw t6, 8(a0)                 # C
    lw a5, 24(a0)                # trans_B
    lw a6, 28(a0)                # accumulate
    lw t0, 16(a0)
    slli t0, t0, 2               # row stride of B and C
    slli a7, a4, 2               # row stride of A (and of B^T)
    # B stepping along K (t1): 4*M for B, 4 for B^T; along M (a1): 4 for B, 4*K for B^T
    mv t1, t0
    li a1, 4
    beqz a5, 3f
    li t1, 4
    mv a1, a7
3:  mul s5, s6, a1
    add t5, t5, s5               # B at the first column
    slli s5, s6, 2
    add t6, t6, s5               # C at the first column
    sub s6, a3, s6               # columns per row
4:  # for each row i in [t2, t3)
    mul s0, t2, a7
    add s0, s0, t4               # &A[i][0]
    mul s1, t2, t0
    add s1, s1, t6               # &C[i][first column]
    mv s2, t5                    # &B[0][j] (or &B^T[j][0])
    mv s3, s6                    # j counter
5:  fmv.w.x ft0, zero
    mv s4, s0
    mv s5, s2
    lp.setup x0, a4, 6f
    flw ft1, 0(s4)
    flw ft2, 0(s5)
    addi s4, s4, 4
    add s5, s5, t1
6:  fmadd.s ft0, ft1, ft2, ft0
    beqz a6, 7f
    flw ft3, 0(s1)
    fadd.s ft0, ft3, ft0
7:  fsw ft0, 0(s1)
    addi s1, s1, 4
    add s2, s2, a1
    addi s3, s3, -1
    bnez s3, 5b
    addi t2, t2, 1
    bltu t2, t3, 4b
9:  lw s0, 0(sp)
    lw s1, 4(sp)
    lw s2, 8(sp)
    lw s3, 12(sp)
    lw s4, 16(sp)
    lw s5, 20(sp)
    lw s6, 24(sp)
    addi sp, sp, 32
    ret
