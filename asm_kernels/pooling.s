# Max and average pooling, forward and backward, fp32, CHW (PULP-TrainLib pulp_pooling_fp32.c, with
# padding).
#
#   window (ho, wo) = rows ho*sh - pt .. + Hk-1, columns wo*sw - pl .. + Wk-1, clipped to the
#   image; bottom / right padding is implied by Ho, Wo.
#   maxpool_fw   y[c][ho][wo] = max of the window (padding never wins: it is skipped)
#   avgpool_fw   y[c][ho][wo] = (sum of the window) / (Hk*Wk)  (padding counts as zeros, like
#                torch's count_include_pad=True), computed as sum * (1 / (Hk*Wk))
#   maxpool_bw   dx = 0, then dx[argmax of each window] += dy[c][ho][wo]; the argmax is
#                recomputed from x (no stored mask), the first maximum in row-major order
#   avgpool_bw   dx = 0, then every in-image element of each window += dy[c][ho][wo] / (Hk*Wk)
#
# Scheduling: the forward kernels split (channel, output row) units, c*Ho + ho, over the cores in
# contiguous blocks of ceil(C*Ho / cores): each unit writes one row of y, so even a single
# channel uses every core.  The backward kernels scatter-add into dx, and overlapping windows of
# neighbouring rows would race, so they split whole channels (ceil(C / cores) each); each core
# zeroes its channels of dx, then walks their windows.  A window is clipped once (first row and
# column, row and column counts), then walked by hardware loop 1 over rows and hardware loop 0
# over columns with no bounds tests inside; each column step is load, pointer bump, then the
# fmax / fadd, so nothing waits for the load.  The max-pool backward keeps the argmax address
# branch-free (flt.s mask and an xor select: data-independent timing).
#
# maxpool_fw, avgpool_fw: a0 -> struct pool_fw {x, y, C, H, W, Hk, Wk, Ho, Wo, stride_h,
#     stride_w, pad_top, pad_left}
# maxpool_bw: a0 -> struct maxpool_bw {x, dy, dx, C, H, W, ... (as pool_fw)}
# avgpool_bw: a0 -> struct avgpool_bw {dy, dx, C, H, W, ... (as pool_fw)}
# a1 = number of cores.
    .include "common.inc"
    .text
    .globl maxpool_fw
    .globl avgpool_fw
    .globl maxpool_bw
    .globl avgpool_bw

# Loads the geometry from the 11 words at t0 = &C: t1 = C, s1 = H, s2 = W, s3 = Hk, s4 = Wk,
# s5 = Ho, s6 = Wo, s7 = stride_h, s8 = stride_w, s9 = pad_top, s10 = pad_left, s0 = 4*W,
# a6 = 4*H*W.  Returns through t6.
.Lgeom:
    words lw, t0, t1, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10
    slli s0, s2, 2
    mul a6, s0, s1
    jr t6

# fa1 = 1 / (Hk*Wk) (clobbers t0, ft0)
.Linv_area:
    mul t0, s3, s4
    fcvt.s.w ft0, t0
    fli fa1, 0x3f800000
    fdiv.s fa1, fa1, ft0
    jr t6

.Lsave:                          # spill s0-s11 into the 48-byte frame at sp; returns through t5
    words sw, sp, s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11
    jr t5

.Lrestore_ret:                   # restore s0-s11, pop the frame, return to the caller
    words lw, sp, s0, s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11
    addi sp, sp, 48
    ret

# Spill s0-s11 into a new 48-byte frame (.Lrestore_ret pops it), then the geometry from the 11
# words at \offset(a0) (.Lgeom)
.macro pool_enter offset
    addi sp, sp, -48
    jal t5, .Lsave
    addi t0, a0, \offset
    jal t6, .Lgeom
.endm

# The part of a window [\o, \o + \k) inside [0, \n): \first = max(-\o, 0), its first index
# from \o, and \count = min(\n - \o, \k) - \first indices.
.macro clip first, count, o, n, k
    sub \first, zero, \o
    p.max \first, \first, zero
    sub \count, \n, \o
    p.min \count, \count, \k
    sub \count, \count, \first
.endm

# Output row a4 of the channel at s11: t2 = window rows inside the image, t1 = the first of
# them at column 0, t3 = x0 of wo = 0, a1 = Wo (columns left).  Clobbers t0.
.macro window_rows
    mul t0, a4, s7
    sub t0, t0, s9               # y0
    clip t1, t2, t0, s1, s3      # t1 = first window row inside, t2 = rows inside
    add t0, t0, t1
    mul t0, t0, s0
    add t1, s11, t0              # their first row at column 0
    sub t3, zero, s10            # x0 of wo = 0
    mv a1, s6                    # columns of y left
.endm

# The window at x0 = t3 of those rows: t5 = columns inside, t4 = its first element inside.
.macro window_cols
    clip t4, t5, t3, s2, s4      # t4 = first window column inside, t5 = columns inside
    add t4, t4, t3
    slli t4, t4, 2
    add t4, t4, t1               # first element inside
.endm

# ft0 = \insn(ft0, every element of the window) (clobbers ft1, t6; advances t4 by its rows)
.macro window_fold insn
    lp.setup x1, t2, .Lrow\@
    mv t6, t4
    lp.setup x0, t5, .Lcolumn\@
    flw ft1, 0(t6)
    addi t6, t6, 4
.Lcolumn\@:
    \insn ft0, ft0, ft1
.Lrow\@:
    add t4, t4, s0
.endm

# The backward kernels' channels (of t1) [a2, a3) for this core, or return.  Clobbers t0, t3.
.macro bw_channels
    block_split a2, a3, t1, t3, t0
    bgeu a2, a3, .Lrestore_ret
.endm

# a5 += 4 * (first channel a2) * Ho * Wo: dy of this core's first channel (contiguous from
# here).  Clobbers t0.
.macro dy_of_first_channel
    mul t0, a2, s5
    mul t0, t0, s6
    slli t0, t0, 2
    add a5, a5, t0
.endm

# ---------------------------------------------------------------------------- forward
maxpool_fw:
    li a7, 0
    j .Lpool_fw
avgpool_fw:
    li a7, 1
.Lpool_fw:
    pool_enter 8
    fli fa0, 0xff800000          # max: start from -inf
    beqz a7, 1f
    fmv.w.x fa0, zero            # avg: start from 0
    jal t6, .Linv_area
1:  mul t2, t1, s5               # units = C * Ho
    block_split a2, a3, t2, t3, t0   # this core's units [a2, a3)
    bgeu a2, a3, .Lrestore_ret
    words lw, a0, t4, a5         # x, y
    mul t0, a2, s6
    slli t0, t0, 2
    add a5, a5, t0               # y row of the first unit (units are contiguous in y)
    divu t5, a2, s5              # its channel
    mul a4, t5, s5
    sub a4, a2, a4               # its output row
    mul t0, t5, a6
    add s11, t4, t0              # channel base in x
.Lfw_unit:
    window_rows
.Lfw_wo:
    window_cols
    fmv.s ft0, fa0
    bnez a7, 3f
    window_fold fmax.s
    j 4f
3:  window_fold fadd.s
    fmul.s ft0, ft0, fa1
4:  fsw ft0, 0(a5)
    addi a5, a5, 4
    add t3, t3, s8               # next window column
    addi a1, a1, -1
    bnez a1, .Lfw_wo
    addi a2, a2, 1               # next unit
    bgeu a2, a3, .Lrestore_ret
    addi a4, a4, 1
    bne a4, s5, .Lfw_unit
    li a4, 0                     # next channel
    add s11, s11, a6
    j .Lfw_unit

# ---------------------------------------------------------------------------- max backward
maxpool_bw:
    pool_enter 12
    bw_channels
    words lw, a0, t4, a5, a7     # x, dy, dx
    sub a7, a7, t4               # dx - x: turns an x address into its dx address
    mul t0, a2, a6
    add s11, t4, t0              # channel base in x
    dy_of_first_channel
    fli fa0, 0xff800000          # -inf
.Lmb_chan:
    add t0, s11, a7
    srli t1, a6, 2
    zeros t1, t0                 # dx channel = 0
    li a4, 0                     # ho
.Lmb_ho:
    window_rows
.Lmb_wo:
    window_cols
    fmv.s ft0, fa0
    mv a0, t4                    # argmax address
    lp.setup x1, t2, 2f
    mv t6, t4
    lp.setup x0, t5, 1f
    flw ft1, 0(t6)
    xor t0, a0, t6
    flt.s a6, ft0, ft1           # strictly greater: the first maximum stays
    neg a6, a6
    and t0, t0, a6
    xor a0, a0, t0               # argmax = this element if it is greater
    fmax.s ft0, ft0, ft1
1:  addi t6, t6, 4
2:  add t4, t4, s0
    add a0, a0, a7               # its dx
    flw ft2, 0(a5)
    flw ft3, 0(a0)
    addi a5, a5, 4
    fadd.s ft3, ft3, ft2
    fsw ft3, 0(a0)
    add t3, t3, s8
    addi a1, a1, -1
    bnez a1, .Lmb_wo
    addi a4, a4, 1
    bne a4, s5, .Lmb_ho
    mul a6, s0, s1               # (a6 was a scratch register in the window loop)
    add s11, s11, a6
    addi a2, a2, 1
    bltu a2, a3, .Lmb_chan
    j .Lrestore_ret

# ---------------------------------------------------------------------------- average backward
avgpool_bw:
    pool_enter 8
    jal t6, .Linv_area
    bw_channels
    words lw, a0, a5, t4         # dy, dx
    mul t0, a2, a6
    add s11, t4, t0              # channel base in dx
    dy_of_first_channel
.Lab_chan:
    mv t0, s11
    srli t1, a6, 2
    zeros t1, t0                 # dx channel = 0
    li a4, 0
.Lab_ho:
    window_rows
.Lab_wo:
    window_cols
    flw ft2, 0(a5)
    addi a5, a5, 4
    fmul.s ft2, ft2, fa1         # dy / (Hk*Wk)
    lp.setup x1, t2, 2f
    mv t6, t4
    lp.setup x0, t5, 1f
    flw ft1, 0(t6)
    addi t6, t6, 4
    fadd.s ft1, ft1, ft2
1:  fsw ft1, -4(t6)
2:  add t4, t4, s0
    add t3, t3, s8
    addi a1, a1, -1
    bnez a1, .Lab_wo
    addi a4, a4, 1
    bne a4, s5, .Lab_ho
    add s11, s11, a6
    addi a2, a2, 1
    bltu a2, a3, .Lab_chan
    j .Lrestore_ret
