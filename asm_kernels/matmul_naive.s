# mm_naive_n — C[N x M] = A[N x K] . B[K x M]  (C += ... when accumulate; B stored M x K when
# trans_B), fp32, rows of C split over the cores in contiguous blocks.
#
# Scheduling: the reference point of the family.  One accumulator, two loads per multiply-add,
# and the fmadd reads the value loaded just before it, so every K step pays the load-use stall:
# about 4 cycles for 1 MAC.  Hardware loop over K only; the outer loops are branches.
#
# a0 -> struct matmul {A, B, C, N, M, K, trans_B, accumulate}; a1 = number of cores.
    .text
    .globl mm_naive_n
mm_naive_n:
    addi sp, sp, -32
    sw s0, 0(sp)
    sw s1, 4(sp)
    sw s2, 8(sp)
    sw s3, 12(sp)
    sw s4, 16(sp)
    sw s5, 20(sp)
    csrr t0, mhartid
    andi t0, t0, 0x1f            # core id
    lw a2, 12(a0)                # N
    lw a3, 16(a0)                # M
    lw a4, 20(a0)                # K
    add t1, a2, a1
    addi t1, t1, -1
    divu t1, t1, a1              # rows per core = ceil(N / cores)
    mul t2, t0, t1               # first row
    add t3, t2, t1
    p.minu t3, t3, a2            # end row (exclusive)
    bgeu t2, t3, 9f
    lw t4, 0(a0)                 # A
    lw t5, 4(a0)                 # B
    lw t6, 8(a0)                 # C
    lw a5, 24(a0)                # trans_B
    lw a6, 28(a0)                # accumulate
    slli a7, a4, 2               # row stride of A (and of B^T)
    slli t0, a3, 2               # row stride of B and C
    # B stepping along K: 4*M for B, 4 for B^T; along M: 4 for B, 4*K for B^T
    mv t1, t0
    li a1, 4
    beqz a5, 1f
    li t1, 4
    mv a1, a7
1:  # for each row i in [t2, t3)
    mul s0, t2, a7
    add s0, s0, t4               # &A[i][0]
    mul s1, t2, t0
    add s1, s1, t6               # &C[i][0]
    mv s2, t5                    # &B[0][j] (or &B^T[j][0])
    mv s3, a3                    # j counter
2:  fmv.w.x ft0, zero
    mv s4, s0
    mv s5, s2
    lp.setup x0, a4, 3f
    flw ft1, 0(s4)
    flw ft2, 0(s5)
    addi s4, s4, 4
    add s5, s5, t1
3:  fmadd.s ft0, ft1, ft2, ft0
    beqz a6, 4f
    flw ft3, 0(s1)
    fadd.s ft0, ft0, ft3
4:  fsw ft0, 0(s1)
    addi s1, s1, 4
    add s2, s2, a1
    addi s3, s3, -1
    bnez s3, 2b
    addi t2, t2, 1
    bltu t2, t3, 1b
9:  lw s0, 0(sp)
    lw s1, 4(sp)
    lw s2, 8(sp)
    lw s3, 12(sp)
    lw s4, 16(sp)
    lw s5, 20(sp)
    addi sp, sp, 32
    ret
