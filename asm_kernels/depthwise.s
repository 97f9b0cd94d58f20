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
    .text
    .globl mm_dw
    .globl mm_dw_in_grad
    .globl mm_dw_u2
    .globl mm_dw_in_grad_u2
    .globl mm_dw_u3
    .globl mm_dw_in_grad_u3
    .globl mm_dw_1x2
    .globl mm_dw_in_grad_1x2
    .globl mm_dw_1x4
    .globl mm_dw_in_grad_1x4
    .globl mm_dw_1x2_u2
    .globl mm_dw_in_grad_1x2_u2
    .globl mm_dw_1x4_u2
    .globl mm_dw_in_grad_1x4_u2

# Common set-up, called with `jal t6` (a7 = 0 forward, 1 flipped).  Returns:
#   t0 = first channel, t1 = end channel (nothing to do when t0 >= t1)
#   a2 = address of the first A element read for channel t0 (its last weight when flipped)
#   a7 = A step in bytes (+4 / -4), a3 = M, a4 = 4*K (B column stride), a5 = ker, a6 = 4*ker
#   t3 = &B[t0*ker] (column 0 of channel t0), t4 = &C[t0*M]
.Ldw_setup:
    csrr t0, mhartid
    andi t0, t0, 0x1f            # core id
    lw t1, 12(a0)                # N
    add t2, t1, a1
    addi t2, t2, -1
    divu t2, t2, a1              # channels per core = ceil(N / cores)
    mul t0, t0, t2               # first channel
    add t2, t2, t0
    p.minu t1, t2, t1            # end channel (exclusive)
    lw a2, 0(a0)                 # A
    lw t3, 4(a0)                 # B
    lw t4, 8(a0)                 # C
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

# ---------------------------------------------------------------------------- 1x1, no unroll
mm_dw:
    li a7, 0
    j .Ldw_naive
mm_dw_in_grad:
    li a7, 1
.Ldw_naive:
    jal t6, .Ldw_setup
    bgeu t0, t1, 9f
1:  mv t5, t3                    # B column pointer
    lp.setup x1, a3, 3f          # columns
    fmv.w.x ft0, zero
    mv a0, a2
    mv a1, t5
    lp.setup x0, a5, 2f          # ker
    flw ft1, 0(a0)
    flw ft2, 0(a1)
    add a0, a0, a7
    addi a1, a1, 4
2:  fmadd.s ft0, ft1, ft2, ft0
    fsw ft0, 0(t4)
    addi t4, t4, 4
3:  add t5, t5, a4
    add a2, a2, a6
    add t3, t3, a6
    addi t0, t0, 1
    bltu t0, t1, 1b
9:  ret

# ---------------------------------------------------------------------------- ker unrolled by 2
mm_dw_u2:
    li a7, 0
    j .Ldw_u2
mm_dw_in_grad_u2:
    li a7, 1
.Ldw_u2:
    jal t6, .Ldw_setup
    bgeu t0, t1, 9f
    srli t6, a5, 1               # ker / 2
    andi t2, a5, 1               # ker % 2
1:  mv t5, t3
    lp.setup x1, a3, 5f
    fmv.w.x ft0, zero
    mv a0, a2
    mv a1, t5
    beqz t6, 3f
    lp.setup x0, t6, 2f
    flw ft1, 0(a0)
    add a0, a0, a7
    flw ft4, 0(a0)
    add a0, a0, a7
    flw ft2, 0(a1)
    flw ft5, 4(a1)
    addi a1, a1, 8
    fmadd.s ft0, ft1, ft2, ft0
2:  fmadd.s ft0, ft4, ft5, ft0
3:  beqz t2, 4f
    flw ft1, 0(a0)               # odd ker: last step
    flw ft2, 0(a1)
    fmadd.s ft0, ft1, ft2, ft0
4:  fsw ft0, 0(t4)
    addi t4, t4, 4
5:  add t5, t5, a4
    add a2, a2, a6
    add t3, t3, a6
    addi t0, t0, 1
    bltu t0, t1, 1b
9:  ret

# ---------------------------------------------------------------------------- ker unrolled by 3
# (ker % 3 != 0 is the rarer case here, so its tail loop is out of line: the common path falls
# through without a taken branch.)
mm_dw_u3:
    li a7, 0
    j .Ldw_u3
mm_dw_in_grad_u3:
    li a7, 1
.Ldw_u3:
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
    flw ft1, 0(a0)
    add a0, a0, a7
    flw ft4, 0(a0)
    add a0, a0, a7
    flw ft7, 0(a0)
    add a0, a0, a7
    flw ft2, 0(a1)
    flw ft5, 4(a1)
    flw ft8, 8(a1)
    addi a1, a1, 12
    fmadd.s ft0, ft1, ft2, ft0
    fmadd.s ft0, ft4, ft5, ft0
2:  fmadd.s ft0, ft7, ft8, ft0
3:  bnez t2, 7f
4:  fsw ft0, 0(t4)
    addi t4, t4, 4
5:  add t5, t5, a4
    add a2, a2, a6
    add t3, t3, a6
    addi t0, t0, 1
    bltu t0, t1, 1b
9:  ret
7:  lp.setup x0, t2, 8f          # ker % 3 tail steps
    flw ft1, 0(a0)
    flw ft2, 0(a1)
    add a0, a0, a7
    addi a1, a1, 4
8:  fmadd.s ft0, ft1, ft2, ft0
    j 4b

# ---------------------------------------------------------------------------- 2 columns
mm_dw_1x2:
    li a7, 0
    j .Ldw_1x2
mm_dw_in_grad_1x2:
    li a7, 1
.Ldw_1x2:
    addi sp, sp, -16
    sw s0, 0(sp)
    jal t6, .Ldw_setup
    bgeu t0, t1, 9f
    srli t2, a3, 1               # column pairs
    andi a3, a3, 1               # odd last column?
    slli t6, a4, 1               # B stride of a column pair
1:  mv t5, t3
    beqz t2, 4f
    lp.setup x1, t2, 3f
    fmv.w.x ft0, zero
    fmv.w.x ft3, zero
    mv a0, a2
    mv a1, t5
    add s0, t5, a4
    lp.setup x0, a5, 2f
    flw ft1, 0(a0)
    flw ft2, 0(a1)
    flw ft4, 0(s0)
    add a0, a0, a7
    addi a1, a1, 4
    addi s0, s0, 4
    fmadd.s ft0, ft1, ft2, ft0
2:  fmadd.s ft3, ft1, ft4, ft3
    fsw ft0, 0(t4)
    fsw ft3, 4(t4)
    addi t4, t4, 8
3:  add t5, t5, t6
4:  beqz a3, 6f
    fmv.w.x ft0, zero            # last column of an odd M
    mv a0, a2
    mv a1, t5
    lp.setup x0, a5, 5f
    flw ft1, 0(a0)
    flw ft2, 0(a1)
    add a0, a0, a7
    addi a1, a1, 4
5:  fmadd.s ft0, ft1, ft2, ft0
    fsw ft0, 0(t4)
    addi t4, t4, 4
6:  add a2, a2, a6
    add t3, t3, a6
    addi t0, t0, 1
    bltu t0, t1, 1b
9:  lw s0, 0(sp)
    addi sp, sp, 16
    ret

# ---------------------------------------------------------------------------- 4 columns
mm_dw_1x4:
    li a7, 0
    j .Ldw_1x4
mm_dw_in_grad_1x4:
    li a7, 1
.Ldw_1x4:
    addi sp, sp, -16
    sw s0, 0(sp)
    sw s1, 4(sp)
    sw s2, 8(sp)
    jal t6, .Ldw_setup
    bgeu t0, t1, 9f
    srli t2, a3, 2               # column quads
    andi a3, a3, 3               # tail columns
    slli t6, a4, 2               # B stride of a column quad
1:  mv t5, t3
    beqz t2, 4f
    lp.setup x1, t2, 3f
    fmv.w.x ft0, zero
    fmv.w.x ft1, zero
    fmv.w.x ft2, zero
    fmv.w.x ft3, zero
    mv a0, a2
    mv a1, t5
    add s0, a1, a4
    add s1, s0, a4
    add s2, s1, a4
    lp.setup x0, a5, 2f
    flw ft4, 0(a0)
    flw ft5, 0(a1)
    flw ft6, 0(s0)
    flw ft7, 0(s1)
    flw ft8, 0(s2)
    add a0, a0, a7
    addi a1, a1, 4
    addi s0, s0, 4
    addi s1, s1, 4
    addi s2, s2, 4
    fmadd.s ft0, ft4, ft5, ft0
    fmadd.s ft1, ft4, ft6, ft1
    fmadd.s ft2, ft4, ft7, ft2
2:  fmadd.s ft3, ft4, ft8, ft3
    fsw ft0, 0(t4)
    fsw ft1, 4(t4)
    fsw ft2, 8(t4)
    fsw ft3, 12(t4)
    addi t4, t4, 16
3:  add t5, t5, t6
4:  beqz a3, 6f
    lp.setup x1, a3, 5f          # M % 4 tail columns, one at a time
    fmv.w.x ft0, zero
    mv a0, a2
    mv a1, t5
    lp.setup x0, a5, 7f
    flw ft1, 0(a0)
    flw ft2, 0(a1)
    add a0, a0, a7
    addi a1, a1, 4
7:  fmadd.s ft0, ft1, ft2, ft0
    fsw ft0, 0(t4)
    addi t4, t4, 4
5:  add t5, t5, a4
6:  add a2, a2, a6
    add t3, t3, a6
    addi t0, t0, 1
    bltu t0, t1, 1b
9:  lw s0, 0(sp)
    lw s1, 4(sp)
    lw s2, 8(sp)
    addi sp, sp, 16
    ret

# ---------------------------------------------------------------------------- 2 columns, ker by 2
mm_dw_1x2_u2:
    li a7, 0
    j .Ldw_1x2_u2
mm_dw_in_grad_1x2_u2:
    li a7, 1
.Ldw_1x2_u2:
    addi sp, sp, -16
    sw s0, 0(sp)
    sw s1, 4(sp)
    sw s2, 8(sp)
    jal t6, .Ldw_setup
    bgeu t0, t1, 9f
    srli t2, a3, 1               # column pairs
    andi a3, a3, 1               # odd last column?
    slli t6, a4, 1               # B stride of a column pair
    srli s1, a5, 1               # ker / 2
    andi s2, a5, 1               # ker % 2
1:  mv t5, t3
    beqz t2, 4f
    lp.setup x1, t2, 3f
    fmv.w.x ft0, zero
    fmv.w.x ft3, zero
    mv a0, a2
    mv a1, t5
    add s0, t5, a4
    beqz s1, 10f
    lp.setup x0, s1, 2f
    flw ft1, 0(a0)
    add a0, a0, a7
    flw ft6, 0(a0)
    add a0, a0, a7
    flw ft2, 0(a1)
    flw ft7, 4(a1)
    flw ft4, 0(s0)
    flw ft8, 4(s0)
    addi a1, a1, 8
    addi s0, s0, 8
    fmadd.s ft0, ft1, ft2, ft0
    fmadd.s ft3, ft1, ft4, ft3
    fmadd.s ft0, ft6, ft7, ft0
2:  fmadd.s ft3, ft6, ft8, ft3
10: beqz s2, 11f
    flw ft1, 0(a0)               # odd ker: last step
    flw ft2, 0(a1)
    flw ft4, 0(s0)
    fmadd.s ft0, ft1, ft2, ft0
    fmadd.s ft3, ft1, ft4, ft3
11: fsw ft0, 0(t4)
    fsw ft3, 4(t4)
    addi t4, t4, 8
3:  add t5, t5, t6
4:  beqz a3, 6f
    fmv.w.x ft0, zero            # last column of an odd M
    mv a0, a2
    mv a1, t5
    lp.setup x0, a5, 5f
    flw ft1, 0(a0)
    flw ft2, 0(a1)
    add a0, a0, a7
    addi a1, a1, 4
5:  fmadd.s ft0, ft1, ft2, ft0
    fsw ft0, 0(t4)
    addi t4, t4, 4
6:  add a2, a2, a6
    add t3, t3, a6
    addi t0, t0, 1
    bltu t0, t1, 1b
9:  lw s0, 0(sp)
    lw s1, 4(sp)
    lw s2, 8(sp)
    addi sp, sp, 16
    ret

# ---------------------------------------------------------------------------- 4 columns, ker by 2
mm_dw_1x4_u2:
    li a7, 0
    j .Ldw_1x4_u2
mm_dw_in_grad_1x4_u2:
    li a7, 1
.Ldw_1x4_u2:
    addi sp, sp, -32
    sw s0, 0(sp)
    sw s1, 4(sp)
    sw s2, 8(sp)
    sw s3, 12(sp)
    sw s4, 16(sp)
    jal t6, .Ldw_setup
    bgeu t0, t1, 9f
    srli t2, a3, 2               # column quads
    andi a3, a3, 3               # tail columns
    slli t6, a4, 2               # B stride of a column quad
    srli s1, a5, 1               # ker / 2
    andi s2, a5, 1               # ker % 2
1:  mv t5, t3
    beqz t2, 4f
    lp.setup x1, t2, 3f
    fmv.w.x ft0, zero
    fmv.w.x ft1, zero
    fmv.w.x ft2, zero
    fmv.w.x ft3, zero
    mv a0, a2
    mv a1, t5
    add s0, a1, a4
    add s3, s0, a4
    add s4, s3, a4
    beqz s1, 10f
    lp.setup x0, s1, 2f
    flw ft4, 0(a0)
    add a0, a0, a7
    flw ft5, 0(a0)
    add a0, a0, a7
    flw ft6, 0(a1)
    flw ft7, 4(a1)
    flw ft8, 0(s0)
    flw ft9, 4(s0)
    flw ft10, 0(s3)
    flw ft11, 4(s3)
    flw fa0, 0(s4)
    flw fa1, 4(s4)
    addi a1, a1, 8
    addi s0, s0, 8
    addi s3, s3, 8
    addi s4, s4, 8
    fmadd.s ft0, ft4, ft6, ft0
    fmadd.s ft1, ft4, ft8, ft1
    fmadd.s ft2, ft4, ft10, ft2
    fmadd.s ft3, ft4, fa0, ft3
    fmadd.s ft0, ft5, ft7, ft0
    fmadd.s ft1, ft5, ft9, ft1
    fmadd.s ft2, ft5, ft11, ft2
2:  fmadd.s ft3, ft5, fa1, ft3
10: beqz s2, 11f
    flw ft4, 0(a0)               # odd ker: last step
    flw ft6, 0(a1)
    flw ft8, 0(s0)
    flw ft10, 0(s3)
    flw fa0, 0(s4)
    fmadd.s ft0, ft4, ft6, ft0
    fmadd.s ft1, ft4, ft8, ft1
    fmadd.s ft2, ft4, ft10, ft2
    fmadd.s ft3, ft4, fa0, ft3
11: fsw ft0, 0(t4)
    fsw ft1, 4(t4)
    fsw ft2, 8(t4)
    fsw ft3, 12(t4)
    addi t4, t4, 16
3:  add t5, t5, t6
4:  beqz a3, 6f
    lp.setup x1, a3, 5f          # M % 4 tail columns, one at a time
    fmv.w.x ft0, zero
    mv a0, a2
    mv a1, t5
    lp.setup x0, a5, 7f
    flw ft1, 0(a0)
    flw ft2, 0(a1)
    add a0, a0, a7
    addi a1, a1, 4
7:  fmadd.s ft0, ft1, ft2, ft0
    fsw ft0, 0(t4)
    addi t4, t4, 4
5:  add t5, t5, a4
6:  add a2, a2, a6
    add t3, t3, a6
    addi t0, t0, 1
    bltu t0, t1, 1b
9:  lw s0, 0(sp)
    lw s1, 4(sp)
    lw s2, 8(sp)
    lw s3, 12(sp)
    lw s4, 16(sp)
    addi sp, sp, 32
    ret
