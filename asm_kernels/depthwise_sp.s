# Depthwise "matmuls" split over output columns (spatial positions) instead of channels, fp32.
# Same operation and argument struct as depthwise.s:
#
#   mm_dw_sp_1x4:          C[k*M + j] = sum_{t<ker} A[k*ker + t]         * B[j*K + k*ker + t]
#   mm_dw_in_grad_sp_1x4:  C[k*M + j] = sum_{t<ker} A[k*ker + ker-1 - t] * B[j*K + k*ker + t]
#
# for every channel k < N and column j < M (K = row stride of B).
#
# Scheduling: the depthwise.s kernels give each core whole channels, so a tile of few channels
# leaves cores idle (3 channels on 8 cores: 5 idle, the busiest core does all M columns of a
# channel).  Here every core does every channel, on its own contiguous block of ceil(M / cores)
# columns (the last blocks end at M or are empty), so the split is even to within one column
# per channel whatever N is; it suits the forward and input-gradient shapes, where M is the
# output plane (tens to hundreds of positions) and ker = Hk*Wk is small.  The depthwise.s split
# stays the better one when N is a multiple of the cores, or for the weight gradient (M =
# Hk*Wk = 9 columns split over 8 cores is uneven).  Inside a channel the block is done four
# columns per ker loop (hardware loop 0 inside hardware loop 1), so each weight load feeds four
# fmadds, loads first, then the pointer bumps, then the fmadds (no load-use stall); the
# block's last (block length % 4) columns are done one by one.  The channel loop is a software
# loop around them, and core k starts it at channel k % N and wraps to channel 0: cores that
# all began with channel 0 would load the same weight word in the same cycle, and whenever
# ceil(M / cores) * K is a multiple of 16 words (8 channels of ker 9: K = 72, 8 columns each)
# also B words of one bank — measured 1.6x (N=8, M=64, ker=9) and 2.1x (N=16, M=49, ker=9)
# slower than with the rotation (a ker that is a multiple of 16 words still collides, one
# more reason to keep the channel split for the weight gradient).  A is walked with a register step (+4, or -4 for the flipped in-grad
# form) so both entry points share one body, as in depthwise.s.
#
# a0 -> struct mm_dw {A, B, C, N, M, K, ker_size}; a1 = number of cores.
    .include "common.inc"
    .include "depthwise.inc"
    .text

    dw_entries mm_dw_sp_1x4, mm_dw_in_grad_sp_1x4, .Lsp
    lw a3, 16(a0)                # M
    ceil_div t0, a3              # columns per core: ceil(M / cores)
    core_id t2
    block_count t2, t0, a3, t0, t2, 9f   # j0: first column of this core; t0: its columns
    addi sp, sp, -32
    words sw, sp, s0, s1, s2, s3, s4, s5, s6
    lw t1, 12(a0)                # N: channels left
    core_id t5
    remu t5, t5, t1              # c0 = core id % N: the first channel of this core
    sub s4, t1, t5               # channels before the wrap to channel 0
    words lw, a0, a2, t3, t4     # A, B, C
    lw a4, 20(a0)                # K
    lw a5, 24(a0)                # ker
    slli a4, a4, 2               # B column stride (bytes)
    slli a6, a5, 2               # one channel of A, and of a B row (bytes)
    slli a3, a3, 2               # C row stride (bytes)
    mul s5, t1, a6               # wrap of the A and B channel pointers
    mul s6, t1, a3               # wrap of the C row pointer
    mul s0, t5, a6
    add a2, a2, s0               # &A[c0*ker]
    add t3, t3, s0
    mul s0, t5, a3
    add t4, t4, s0               # &C[c0*M]
    mul t5, t2, a4
    add t3, t3, t5               # &B[j0*K + c0*ker]: column j0 of channel c0
    slli t5, t2, 2
    add t4, t4, t5               # &C[c0*M + j0]
    li t5, 4
    beqz a7, 1f
    add a2, a2, a6
    addi a2, a2, -4              # flipped: start at the channel's last weight, walk down
    li t5, -4
1:  mv a7, t5                    # A step
    srli t2, t0, 2               # column quads
    andi t0, t0, 3               # tail columns
    slli t6, a4, 2               # B stride of a column quad
2:  mv t5, t3                    # channel loop: B column pointer
    mv s3, t4                    # C pointer
    beqz t2, 5f
    lp.setup x1, t2, 4f          # column quads
    dw_quad s3
4:  add t5, t5, t6
5:  beqz t0, 8f
    dw_columns t0, s3            # tail columns, one at a time
8:  add a2, a2, a6               # next channel: its weights,
    add t3, t3, a6               # its part of the B rows,
    add t4, t4, a3               # its C row
    addi s4, s4, -1
    bnez s4, 10f
    sub a2, a2, s5               # after channel N-1: back to channel 0 (s4 goes negative:
    sub t3, t3, s5               # no second wrap)
    sub t4, t4, s6
10: addi t1, t1, -1
    bnez t1, 2b
    words lw, sp, s0, s1, s2, s3, s4, s5, s6
    addi sp, sp, 32
9:  ret
