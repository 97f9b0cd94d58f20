# Transposes, fp32 words copied bit-exactly.
#
#   blocktranspose:  bt[ci][co][i] = W[co][ci][HkWk-1 - i]   (W is Co x Ci x HkWk)
#       the Conv2D input-gradient weights: Ci and Co swapped and every Hk x Wk kernel flipped
#       (PULP-TrainLib pulp_blocktransp_fp32).
#   transpose:       dst[j][i] = src[i][j]                    (src is R x C, dst is C x R)
#
# Scheduling: both split the destination over the cores in contiguous whole units — kernels
# (ci, co) of HkWk words for blocktranspose, rows of R words for transpose — ceil(units / cores)
# each, so every core writes one contiguous stretch and any size down to 1 is correct.  The
# copies use post-increment loads and stores (register increments for the strided transpose
# column, -4 for the reversed kernel), two words per iteration so no store waits for its load;
# an odd length ends with one single copy.
#
# blocktranspose: a0 -> struct blocktranspose {W, bt, Co, Ci, HkWk}
# transpose:      a0 -> struct transpose {src, dst, R, C}
# a1 = number of cores.
    .include "common.inc"
    .text
    .globl blocktranspose
    .globl transpose

blocktranspose:
    lw t0, 8(a0)                 # Co
    lw t1, 12(a0)                # Ci
    lw t2, 16(a0)                # HkWk
    mul t3, t0, t1               # kernels
    block_split a2, a3, t3, t4, t5   # this core's kernels (ci*Co + co) [a2, a3)
    bgeu a2, a3, 9f
    words lw, a0, a4, a5         # W, bt
    slli a6, t2, 2               # kernel size (bytes)
    mul t4, a2, a6
    add a5, a5, t4               # bt of the first kernel: written contiguously from here
    divu t4, a2, t0              # ci
    mul t5, t4, t0
    sub t5, a2, t5               # co
    mul a7, t1, a6               # W stride of co (bytes)
    add a4, a4, a6
    addi a4, a4, -4              # &W[0][0][HkWk-1]
    mul t6, t4, a6
    add t1, a4, t6               # &W[0][ci][HkWk-1]: this ci's first kernel
    mul t6, t5, a7
    add a4, t1, t6               # &W[co][ci][HkWk-1]
    srli t3, t2, 1               # pairs per kernel
    andi t2, t2, 1               # odd kernel size?
    sub a3, a3, a2               # kernels to do
1:  mv t6, a4
    copy_words t3, t2, t6, -4, a5, 4, a0, a1   # one kernel, reversed
    addi t5, t5, 1               # next co
    add a4, a4, a7
    bne t5, t0, 5f
    li t5, 0                     # next ci, back to co = 0
    add t1, t1, a6
    mv a4, t1
5:  addi a3, a3, -1
    bnez a3, 1b
9:  ret

transpose:
    lw t0, 8(a0)                 # R
    lw t1, 12(a0)                # C
    block_split a2, a3, t1, t2, t3   # this core's destination rows j [a2, a3)
    bgeu a2, a3, 9f
    words lw, a0, a4, a5         # src, dst
    slli a6, t1, 2               # src row stride (bytes)
    slli t4, a2, 2
    add a4, a4, t4               # &src[0][j]
    mul t4, a2, t0
    slli t4, t4, 2
    add a5, a5, t4               # &dst[j][0]: written contiguously from here
    srli t3, t0, 1               # pairs per row
    andi t0, t0, 1               # odd R?
    sub a3, a3, a2               # rows to do
1:  mv t6, a4
    copy_words t3, t0, t6, a6, a5, 4, t4, t5   # one source column
    addi a4, a4, 4
    addi a3, a3, -1
    bnez a3, 1b
9:  ret
