# im2row for Conv2D (CHW, batch 1), fp32 words copied bit-exactly.
#
#   im2row    (forward and weight gradient; PULP-TrainLib B.2's row layout):
#       buf[ho*Wo + wo][c*Hk*Wk + hk*Wk + wk] = X[c][ho*sh - pt + hk][wo*sw - pl + wk]
#   im2col    (the same elements transposed, one row per (c, hk, wk): the weight gradient's
#              B operand already K-contiguous, as the packed-SIMD matmuls read it):
#       buf[c*Hk*Wk + hk*Wk + wk][ho*Wo + wo] = X[c][ho*sh - pt + hk][wo*sw - pl + wk]
#   im2row_ig (input gradient: the full-padded window of dY, for the flipped weights):
#       buf[hi*Wi + wi][c*Hk*Wk + hk*Wk + wk] = dY[c][y / sh][x / sw]
#           with y = hi + pt - (Hk-1) + hk, x = wi + pl - (Wk-1) + wk,
#   and 0 wherever the source pixel is outside the image (or, for im2row_ig with a forward
#   stride > 1, where y or x is not a multiple of the stride: the zeros a strided forward conv
#   leaves between the dY samples).  With stride 1, im2row_ig is im2row of dY with pads Hk-1-pt,
#   Wk-1-pl; then bt (blocktranspose) x buf^T is the input gradient.  The bottom/right padding
#   is implied by Ho, Wo (resp. Hi, Wi): rows and columns past the image read as zeros.
#
# Both kernels share one body: an output pixel grid (oy, ox), a source grid, and per axis an
# output step a, an offset b and a source dilation d — the source coordinate is
# (o*a + b + k) / d when divisible.  im2row: a = stride, b = -pad, d = 1; im2row_ig: a = 1,
# b = pad - (k-1), d = stride.
#
# Scheduling: a work unit is one column of buf, u = c*Hk*Wk + hk*Wk + wk (Hout*Wout words a
# buf row apart; im2col: one row of buf, its Hout*Wout words contiguous, the same code with the
# element step and the unit step swapped); the units are split over the cores in contiguous
# blocks of ceil(C*Hk*Wk / cores), so no two cores write the same word and any size down to 1
# is correct.
# Along a column the hits on the source form a grid: rows oy0, oy0 + d_h, ... (ny of them),
# columns ox0, ox0 + d_w, ... (nx), depending only on hk and wk respectively, so each core
# computes the two tables once (on its stack, hence Hk, Wk <= 16) and a unit needs no
# division.  Without dilation (every im2row, im2row_ig at stride 1) the column is written in
# one sequential pass: the leading zeros, then per hit row nx copies (source step a_w*4, buf step
# one row, both by register post-increment, two words per iteration so no store waits for its
# load) and the Wout - nx zeros up to the next hit row (hardware loop 1 over the rows), then the
# trailing zeros.  With dilation the column is zeroed and the hits overwritten.
#
# a0 -> struct im2row {src, buf, C, Hs, Ws, Hk, Wk, Hout, Wout, stride_h, stride_w, pad_top,
# pad_left} (im2row, im2col: src = X, Hs x Ws = H x W, Hout x Wout = Ho x Wo; im2row_ig:
# src = dY, Hs x Ws = Ho x Wo, Hout x Wout = Hi x Wi); a1 = number of cores.
    .include "common.inc"
    .text
    .globl im2row
    .globl im2col
    .globl im2row_ig

# frame: 0..47 s0-s11, then the constants below, then the two tables (12 bytes per entry)
    .equ F_HK, 48
    .equ F_WK, 52
    .equ F_DSTEP, 56             # dilated: buf step between two copies of a row (d_w rows)
    .equ F_RSTEP, 60             # dilated: buf step between two hit rows (d_h * Wout rows)
    .equ F_TRAIL, 64             # zeros after a column's last copy
    .equ F_USTEP, 68             # buf step between two units (im2row: one word)
    .equ F_YTAB, 72              # per hk: first oy, number of hit rows, first source row
    .equ F_XTAB, 264             # per wk: first ox, number of hit columns, first source column
    .equ FRAME, 464

# One axis (h: the words at \stride, \pad, \k(a0) = stride_h, pad_top, Hk; w: the next ones)
# of the shared body: \a = output step, \b = offset, \d = source dilation.  Clobbers t0, t1.
.macro axis_fw a, b, d, stride, pad
    lw \a, \stride(a0)           # a = stride
    lw t0, \pad(a0)
    sub \b, zero, t0             # b = -pad
    li \d, 1                     # d = 1
.endm

.macro axis_ig a, b, d, stride, pad, k
    li \a, 1                     # a = 1
    lw t0, \pad(a0)
    lw t1, \k(a0)
    sub \b, t0, t1
    addi \b, \b, 1               # b = pad - (k - 1)
    lw \d, \stride(a0)           # d = stride
.endm

# t0 = zeros before a unit's first hit (oy0*Wout + ox0), a2 = ox0
.macro lead_zeros
    lw t0, 0(s4)
    lw a2, 0(s5)
    mul t0, t0, s2
    add t0, t0, a2
.endm

# \n (> 0) elements from t5 (source step s1) to t6 (buf step s0), both pointers left past the
# run; clobbers \n, a1, a4, t0
.macro copy_run n
    srli a4, \n, 1
    andi a1, \n, 1
    copy_words a4, a1, t5, s1, t6, s0, t0, \n
.endm

im2col:
    addi sp, sp, -FRAME
    jal t5, .Lsave
    li a7, 1                     # units are rows of buf
    j .Li2r_fw

im2row:
    addi sp, sp, -FRAME
    jal t5, .Lsave
    li a7, 0                     # units are columns of buf
.Li2r_fw:
    axis_fw s1, s2, s3, 36, 44
    axis_fw a2, a3, a4, 40, 48
    j .Li2r_body

im2row_ig:
    addi sp, sp, -FRAME
    jal t5, .Lsave
    li a7, 0
    axis_ig s1, s2, s3, 36, 44, 20
    axis_ig a2, a3, a4, 40, 48, 24

# s1, s2, s3 = a_h, b_h, d_h; a2, a3, a4 = a_w, b_w, d_w; a7 = 1 for im2col's layout;
# a0 = args, a1 = cores
.Li2r_body:
    lw t0, 20(a0)
    sw t0, F_HK(sp)
    lw t0, 24(a0)
    sw t0, F_WK(sp)
    lw s4, 28(a0)                # Hout
    lw s5, 12(a0)                # Hs
    lw s6, F_HK(sp)
    addi s7, sp, F_YTAB
    mv a5, s1                    # (keep a_h, d_h, a_w for the source and buf steps)
    jal t5, .Ltable              # rows
    mv s8, s3
    mv s9, a2
    or s10, s3, a4               # 1 when neither axis is dilated
    mv s1, a2
    mv s2, a3
    mv s3, a4
    lw s4, 32(a0)                # Wout
    lw s5, 16(a0)                # Ws
    lw s6, F_WK(sp)
    addi s7, sp, F_XTAB
    jal t5, .Ltable              # columns

    lw t0, 8(a0)                 # C
    lw t1, F_HK(sp)
    lw t2, F_WK(sp)
    mul t3, t1, t2
    mul t4, t3, t0               # units
    lw s2, 32(a0)                # Wout
    lw t5, 28(a0)
    mul a6, t5, s2               # Hout*Wout: elements per unit
    slli s0, t4, 2               # L4: buf step between a unit's elements (im2row: a buf row)
    li t6, 4                     # and between two units (im2row: a word)
    beqz a7, 1f
    li s0, 4                     # im2col: a unit is a row of Hout*Wout words
    slli t6, a6, 2
1:  sw t6, F_USTEP(sp)
    mul t5, s0, s3
    sw t5, F_DSTEP(sp)
    mul t5, s2, s8
    mul t5, t5, s0
    sw t5, F_RSTEP(sp)
    lw t5, 16(a0)
    slli s11, t5, 2              # Ws4: source row stride (bytes)
    mul s3, s11, a5              # source step between hit rows: a_h rows
    slli s1, s9, 2               # source step along a row: a_w words
    lw t5, 12(a0)
    mul a7, t5, s11              # Hs*Ws4: source channel stride
    lw t5, 16(a0)
    mul t6, t5, a5               # a_h * Ws: source elements between two hit rows
    mv a5, s10                   # 1 unless dilated
    p.bneimm a5, 1, 2f
    p.bneimm s9, 1, 2f           # a_w = 1: a hit row's copies are contiguous in the source
    bne t6, s2, 2f               # and the hit rows as far apart as the rows of output pixels
    li a5, 0                     # flat
2:
    block_split t0, s8, t4, t5, t6   # this core's units [u0 = t0, s8)
    sub s8, s8, t0               # units of this core
    blez s8, .Li2r_done
    lw t1, 4(a0)
    lw s7, F_USTEP(sp)
    mul s7, s7, t0
    add s7, s7, t1               # buf column (im2col: row) of u0
    divu t1, t0, t3              # channel
    mul t5, t1, t3
    sub t0, t0, t5               # hk*Wk + wk
    divu t5, t0, t2              # hk
    mul t6, t5, t2
    sub t0, t0, t6               # wk
    lw t6, 0(a0)
    mul t1, t1, a7
    add s6, t6, t1               # source channel base
    li t6, 12
    mul t1, t5, t6
    addi s4, sp, F_YTAB
    add s4, s4, t1               # &ytab[hk]
    mul t1, t0, t6
    addi s5, sp, F_XTAB
    add s5, s5, t1               # &xtab[wk]
    lw s10, F_HK(sp)
    sub s10, s10, t5             # kernel rows left in this channel
    sub s9, t2, t0               # kernel columns left in this row

# s0 = buf step along a unit, s1 = source step along a row, s2 = Wout, s3 = source step between hit rows,
# s4 = &ytab[hk], s5 = &xtab[wk], s6 = source channel base, s7 = buf unit, s8 = units left,
# s9 / s10 = wk / hk left, s11 = Ws4, a5 = 0 when flat, else 1 unless dilated,
# a6 = Hout*Wout, a7 = Hs*Ws4
.Li2r_unit:
    lw a0, 4(s4)                 # ny
    lw a1, 4(s5)                 # nx
    mv t6, s7
    lw t0, 8(s4)
    mul t0, t0, s11
    lw t1, 8(s5)
    slli t1, t1, 2
    add t0, t0, t1
    add t5, s6, t0               # source of the first hit
    beqz a5, .Li2r_flat
    p.bneimm a5, 1, .Li2r_dil
    beqz a0, .Li2r_zcol
    beqz a1, .Li2r_zcol
    lead_zeros
    mul t1, a0, s2
    add t1, t1, t0
    sub a2, s2, a1               # zeros between two hit rows' copies
    sub t1, t1, a2
    sub t2, a6, t1               # zeros after the last copy
    sw t2, F_TRAIL(sp)
    srli a4, a1, 1               # pairs per row
    andi a1, a1, 1               # odd
    beqz t0, 1f
    zeros t0, t6, s0
1:  mv t4, t5                    # first hit row
    copy_words a4, a1, t4, s1, t6, s0, t0, t1
    add t5, t5, s3
    addi a0, a0, -1
    beqz a0, .Li2r_trail
    lp.setup x1, a0, 9f          # the other hit rows: zeros up to the row, then its copies
    beqz a2, 6f
    zeros a2, t6, s0
6:  mv t4, t5
    copy_words a4, a1, t4, s1, t6, s0, t0, t1
9:  add t5, t5, s3
.Li2r_trail:
    lw t0, F_TRAIL(sp)
    beqz t0, .Li2r_next
    zeros t0, t6, s0
    j .Li2r_next

.Li2r_flat:                      # the hits as one run of the source, then the gaps zeroed
    beqz a0, .Li2r_zcol
    beqz a1, .Li2r_zcol
    lead_zeros
    addi a0, a0, -1              # hit rows after the first
    mul t1, a0, s2
    add t1, t1, a1               # the run: first hit to last
    sub t2, a6, t0
    sub t2, t2, t1               # zeros after the last hit
    sub a2, s2, a1               # zeros between two hit rows' copies (the gaps)
    beqz t0, 1f
    zeros t0, t6, s0
1:  mul t0, a1, s0
    add a3, t6, t0               # buf at the first gap
    copy_run t1
    beqz t2, 2f
    zeros t2, t6, s0
2:  beqz a0, .Li2r_next
    beqz a2, .Li2r_next
    mul t4, s2, s0               # buf step of one output row
    p.bneimm a2, 1, 4f
    zeros a0, a3, t4             # gaps of one: a store per row
    j .Li2r_next
4:  lp.setup x1, a0, 3f
    mv t6, a3
    zeros a2, t6, s0
3:  add a3, a3, t4
    j .Li2r_next

.Li2r_zcol:                      # no hit: the whole column is zero
    zeros a6, t6, s0
    j .Li2r_next

.Li2r_dil:                       # dilated source: zero the column, then overwrite the hits
    zeros a6, t6, s0
    beqz a0, .Li2r_next
    beqz a1, .Li2r_next
    lw t0, 0(s4)
    mul t0, t0, s2
    lw t1, 0(s5)
    add t0, t0, t1
    mul t0, t0, s0
    add t3, s7, t0               # buf word of the first hit
    lw a2, F_DSTEP(sp)
    lw a3, F_RSTEP(sp)
    lp.setup x1, a0, 3f
    mv t6, t3
    mv t4, t5
    lp.setup x0, a1, 2f
    p.lw t0, s1(t4!)
2:  p.sw t0, a2(t6!)
    add t3, t3, a3
3:  add t5, t5, s3

.Li2r_next:
    lw t0, F_USTEP(sp)
    add s7, s7, t0               # next unit of buf
    addi s8, s8, -1
    beqz s8, .Li2r_done
    addi s5, s5, 12              # next wk
    addi s9, s9, -1
    bnez s9, .Li2r_unit
    lw s9, F_WK(sp)
    addi s5, sp, F_XTAB
    addi s4, s4, 12              # next hk
    addi s10, s10, -1
    bnez s10, .Li2r_unit
    lw s10, F_HK(sp)
    addi s4, sp, F_YTAB
    add s6, s6, a7               # next channel
    j .Li2r_unit

.Li2r_done:
    words lw, sp, s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11
    addi sp, sp, FRAME
    ret

.Lsave:                          # spill s0-s11 into the frame; returns through t5
    words sw, sp, s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11
    jr t5

# The hits of one axis, for each kernel index k < K: output positions o < Nout whose source
# coordinate (o*a + b + k) / d divides evenly and lies in [0, Nsrc).  Entry k (12 bytes) =
# (first such o, how many — at o, o + d, o + 2d, ... —, the first one's source index).
# In: s1 = a, s2 = b, s3 = d (one of a, d is 1), s4 = Nout, s5 = Nsrc, s6 = K, s7 = table.
# Clobbers t0-t4, t6, s7; returns through t5.
.Ltable:
    li t4, 0                     # k
1:  add t3, s2, t4               # c0 = b + k: source numerator at o = 0
    p.bneimm s1, 1, 6f
    p.bneimm s3, 1, 6f           # a = d = 1 (a stride-1 axis): no division
    sub t0, zero, t3
    p.max t0, t0, zero           # first o = max(0, -c0)
    add t1, t0, t3               # q0 = o + c0
    sw t0, 0(s7)
    sw t1, 8(s7)
    li t2, 0
    bgeu t0, s4, 4f
    bgeu t1, s5, 4f
    sub t2, s4, t0
    sub t1, s5, t1
    p.minu t2, t2, t1            # min(Nout - o, Nsrc - q0)
    j 4f
6:  bgez t3, 2f
    sub t0, s1, t3
    addi t0, t0, -1
    mv t1, s1
    jal t6, .Ludiv               # c0 < 0: first o = ceil(-c0 / a)
    j 3f
2:  mv t0, t3
    mv t1, s3
    jal t6, .Ludiv
    mul t0, t0, s3
    sub t0, t3, t0               # c0 mod d
    beqz t0, 3f
    sub t0, s3, t0               # c0 >= 0: up to the next multiple of d
3:  sw t0, 0(s7)
    mul t0, t0, s1
    add t0, t0, t3
    mv t1, s3
    jal t6, .Ludiv               # its source index q0
    sw t0, 8(s7)
    lw t1, 0(s7)
    li t2, 0
    bgeu t1, s4, 4f              # first o past the output: no hit
    bgeu t0, s5, 4f              # q0 past the source
    sub t3, s5, t0               # source positions from q0 on
    sub t0, s4, t1
    add t0, t0, s3
    addi t0, t0, -1
    mv t1, s3
    jal t6, .Ludiv               # output positions from o0 on, step d
    sw t0, 4(s7)
    add t0, t3, s1
    addi t0, t0, -1
    mv t1, s1
    jal t6, .Ludiv               # source positions from q0 on, step a
    lw t2, 4(s7)
    p.minu t2, t2, t0
4:  sw t2, 4(s7)
    addi s7, s7, 12
    addi t4, t4, 1
    bltu t4, s6, 1b
    jr t5

# t0 = t0 / t1 (unsigned, t1 >= 1; a shift when t1 is a power of two, 1 included: divu costs up
# to 35 cycles for small divisors); clobbers t2; returns through t6
.Ludiv:
    p.cnt t2, t1
    p.bneimm t2, 1, 1f
    p.ff1 t2, t1
    srl t0, t0, t2
    jr t6
1:  divu t0, t0, t1
    jr t6
