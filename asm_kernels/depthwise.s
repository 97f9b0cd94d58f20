# Depthwise "matmuls" (the mm_dw family) — per-channel dot products, fp32.
#
#   forward / weight gradient (mm_dw*):
#       C[k*M + j] = sum_{t<ker} A[k*ker + t]         * B[j*K + k*ker + t]
#   input gradient, weights flipped per channel (mm_dw_in_grad*):
#       C[k*M + j] = sum_{t<ker} A[k*ker + ker-1 - t] * B[j*K + k*ker + t]
#
# for every channel k < N and column j < M.  K is the row stride of B (N*ker in PULP-TrainLib's
# im2col layouts); unlike PULP-TrainLib's in-grad kernels (N = 1, channels = K/ker) N is always
# the number of channels.
#
# Scheduling: channels are split over the cores in contiguous blocks of ceil(N / cores) (whole
# channels, so no two cores ever write the same C row and any N down to 1 is correct).  Inside a
# channel, the column loop is hardware loop 1 and the ker loop hardware loop 0; the loads of an
# iteration come first, then the pointer bumps, then the fmadds, so no fmadd waits for its load.
# A is walked with a register step (+4, or -4 for the flipped in-grad form), which lets each
# forward kernel and its in-grad twin share one body: the entry points only differ in that flag.
# Variants: u2 / u3 unroll the ker loop (the ker % 2 or ker % 3 tail is done by a 1-step loop, so
# every ker >= 1 is in bounds — no `ker & 0xfffffffd` mask); 1x2 / 1x4 compute 2 / 4 columns per
# ker loop so each A load feeds 2 / 4 fmadds (the M % 2 / M % 4 tail columns are done one by one
# by the same core); 1x2_u2 / 1x4_u2 combine both.
# TCDM banks: when the channels the cores start on are a multiple of 16 words apart (e.g. the
# weight gradient, ker = Ho*Wo = 64) all cores walk the same bank sequence in step; that costs
# little while A and B sit in different banks (the cores settle one cycle apart), but if A and
# B also start in the same bank every load of every core hits one bank and the kernel runs ~2x
# slower (mm_dw, N=8, M=9, ker=64: 6557 cycles, 3052 with B four words further on).  A caller
# can avoid it by placement; the kernels do not rotate their sums per core.
#
# a0 -> struct mm_dw {A, B, C, N, M, K, ker_size}; a1 = number of cores.
    .include "common.inc"
    .include "depthwise.inc"
    .text

# Common set-up, called with `jal t6` (a7 = 0 forward, 1 flipped).  Returns:
#   t0 = first channel, t1 = end channel (nothing to do when t0 >= t1)
#   a2 = address of the first A element read for channel t0 (its last weight when flipped)
#   a7 = A step in bytes (+4 / -4), a3 = M, a4 = 4*K (B column stride), a5 = ker, a6 = 4*ker
#   t3 = &B[t0*ker] (column 0 of channel t0), t4 = &C[t0*M]
.Ldw_setup:
    core_id t0
    lw t1, 12(a0)                # N
    ceil_div t2, t1              # channels per core = ceil(N / cores)
    mul t0, t0, t2               # first channel
    add t2, t2, t0
    p.minu t1, t2, t1            # end channel (exclusive)
    words lw, a0, a2, t3, t4     # A, B, C
    lw a3, 16(a0)                # M
    lw a4, 20(a0)                # K
    lw a5, 24(a0)                # ker
    slli a4, a4, 2
    slli a6, a5, 2
    mul t2, t0, a6
    add a2, a2, t2
    add t3, t3, t2
    mul t2, t0, a3
    slli t2, t2, 2
    add t4, t4, t2
    li t2, 4
    beqz a7, 1f
    add a2, a2, a6
    addi a2, a2, -4              # flipped: start at the channel's last weight, walk down
    li t2, -4
1:  mv a7, t2
    jr t6

# The end of the channel loop: on to the next channel's weights and B rows, back to \top while
# channels are left.
.macro next_channel top
    add a2, a2, a6
    add t3, t3, a6
    addi t0, t0, 1
    bltu t0, t1, \top
.endm

# \n = ker / 2, \odd = ker % 2 (for the blocks that take two ker steps per iteration)
.macro ker_halves n, odd
    srli \n, a5, 1               # ker / 2
    andi \odd, a5, 1             # ker % 2
.endm

# A column-by-column kernel: its two entry points, the set-up, then per channel its columns one
# by one, each by \block (after \prep, if given, once)
.macro column_kernel forward, flipped, block, prep
    dw_entries \forward, \flipped, .Lbody\@
    jal t6, .Ldw_setup
    bgeu t0, t1, .Ldone\@
    \prep
.Lchannel\@:
    mv t5, t3                    # B column pointer
    dw_columns a3, t4, \block
    next_channel .Lchannel\@
.Ldone\@:
    ret
.endm

# A column-blocked kernel: its two entry points and a \frame-byte frame for the \saved
# registers, the set-up, \prep (if given), then per channel the groups of 2^\log2 columns
# (hardware loop 1, t2 of them, B stride t6) by \group, a macro storing through t4, then the
# a3 tail columns one by one (at most one for pairs: no loop).
.macro blocked_kernel forward, flipped, log2, group, prep, frame, saved:vararg
    dw_entries \forward, \flipped, .Lbody\@
    addi sp, sp, -\frame
    words sw, sp, \saved
    jal t6, .Ldw_setup
    bgeu t0, t1, .Ldone\@
    srli t2, a3, \log2           # column groups
    andi a3, a3, (1 << \log2) - 1    # tail columns
    slli t6, a4, \log2           # B stride of a column group
    \prep
.Lchannel\@:
    mv t5, t3
    beqz t2, .Ltail\@
    lp.setup x1, t2, .Lgroup\@
    \group
.Lgroup\@:
    add t5, t5, t6
.Ltail\@:
    beqz a3, .Lnext\@
    .if \log2 - 1
    dw_columns a3, t4
    .else
    dw_dot t4                    # the last column of an odd M
    .endif
.Lnext\@:
    next_channel .Lchannel\@
.Ldone\@:
    words lw, sp, \saved
    addi sp, sp, \frame
    ret
.endm

# ---------------------------------------------------------------------------- 1x1, no unroll
    column_kernel mm_dw, mm_dw_in_grad

# ---------------------------------------------------------------------------- ker unrolled by 2
# One column, two ker steps per iteration (t6 = ker / 2 of them, then the odd one if t2 =
# ker % 2)
.macro dot_u2 c
    dw_block \c, ft1, ft4, t6, t2, a1, "ft0 ft2 ft5"
.endm

    column_kernel mm_dw_u2, mm_dw_in_grad_u2, dot_u2, "ker_halves t6, t2"

# ---------------------------------------------------------------------------- ker unrolled by 3
# (ker % 3 != 0 is the rarer case here, so its tail loop is out of line: the common path falls
# through without a taken branch.)
    dw_entries mm_dw_u3, mm_dw_in_grad_u3, .Ldw_u3
    jal t6, .Ldw_setup
    bgeu t0, t1, 9f
    li t2, 3
    divu t6, a5, t2              # ker / 3
    mul t2, t6, t2
    sub t2, a5, t2               # ker % 3
1:  mv t5, t3
    lp.setup x1, a3, 5f
    fmv.w.x ft0, zero
    mv a0, a2
    mv a1, t5
    beqz t6, 3f
    lp.setup x0, t6, 2f
    a_steps ft1, ft4, ft7
    words flw, a1, ft2, ft5, ft8
    addi a1, a1, 12
    fmadd.s ft0, ft1, ft2, ft0
    fmadd.s ft0, ft4, ft5, ft0
2:  fmadd.s ft0, ft7, ft8, ft0
3:  bnez t2, 7f
4:  fsw ft0, 0(t4)
    addi t4, t4, 4
5:  add t5, t5, a4
    next_channel 1b
9:  ret
7:  lp.setup x0, t2, 8f          # ker % 3 tail steps
    flw ft1, 0(a0)
    flw ft2, 0(a1)
    add a0, a0, a7
    addi a1, a1, 4
8:  fmadd.s ft0, ft1, ft2, ft0
    j 4b

# ---------------------------------------------------------------------------- 2 columns
# A pair of columns (B at a1 = t5 and s0): each A load feeds two fmadds.
.macro pair
    dw_block t4, ft1, , a5, , a1, "ft0 ft2", s0, "ft3 ft4"
.endm

    blocked_kernel mm_dw_1x2, mm_dw_in_grad_1x2, 1, pair, , 16, s0

# ---------------------------------------------------------------------------- 4 columns
# (the M % 4 tail columns one at a time)
    blocked_kernel mm_dw_1x4, mm_dw_in_grad_1x4, 2, "dw_quad t4", , 16, s0, s1, s2

# ---------------------------------------------------------------------------- 2 columns, ker by 2
# A pair of columns, two ker steps per iteration (s1 = ker / 2 of them, then the odd one if
# s2 = ker % 2).
.macro pair_u2
    dw_block t4, ft1, ft6, s1, s2, a1, "ft0 ft2 ft7", s0, "ft3 ft4 ft8"
.endm

    blocked_kernel mm_dw_1x2_u2, mm_dw_in_grad_1x2_u2, 1, pair_u2, "ker_halves s1, s2", 16, s0, s1, s2

# ---------------------------------------------------------------------------- 4 columns, ker by 2
# Four columns (B through a1, s0, s3, s4), two ker steps per iteration (s1 = ker / 2 of them,
# then the odd one if s2 = ker % 2).
.macro quad_u2
    dw_block t4, ft4, ft5, s1, s2, a1, "ft0 ft6 ft7", s0, "ft1 ft8 ft9", s3, "ft2 ft10 ft11", s4, "ft3 fa0 fa1"
.endm

    blocked_kernel mm_dw_1x4_u2, mm_dw_in_grad_1x4_u2, 2, quad_u2, "ker_halves s1, s2", 32, s0, s1, s2, s3, s4
