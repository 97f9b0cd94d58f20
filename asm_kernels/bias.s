# Bias add and bias gradient of channel-major (C x HW) tensors, fp32 (PULP-TrainLib's
# mm_bias_add and the conv / linear bias gradient).
#
#   bias_add    y[c][p] += b[c]                 c < C, p < HW   (in place)
#   bias_grad   db[c] = sum_{p < HW} dy[c][p]
#
# bias_add scheduling: the C*HW elements are one flat range cut into contiguous chunks of
# L = ceil(C*HW / cores) rounded up to an odd number, one per core (the last chunks end at
# C*HW, or are empty), so the work is balanced to within one element whatever C is: three
# channels on eight cores keep all eight busy, where a split by channels would leave five idle.
# An odd L puts the cores' starting words in eight different TCDM banks, so cores running the
# loop in step do not collide.  A chunk is walked channel segment by channel segment: each
# segment loads its b[c] once, then adds it to up to HW elements, four per hardware-loop
# iteration (loads, adds, stores: no load-use stall) plus a 1-element tail loop.  With HW = 1
# (a linear layer) segments would be single elements, so that case has its own loop: y += b
# over the chunk, four elements per iteration, like elementwise.s's add.
#
# bias_grad scheduling: whole channels, dealt round robin (core k sums channels k, k + cores,
# ...; idle cores return at once when C < cores), each channel's sum kept by one core in four
# partial sums (four elements per hardware-loop iteration, the HW % 4 tail into the first)
# combined as (s0 + s1) + (s2 + s3).  Splitting a channel over cores would need a cross-core
# reduction, and kernels cannot wait for each other: it would be two launches (per-core
# partials into a C x cores scratch buffer, then a combine, as the losses do) plus that buffer.
# That pays only for few channels with large HW, and in trainlib the bias gradient runs beside
# the weight-gradient matmul of the same channel tile, which is split over the same channels
# and does HW * Ci*Hk*Wk MACs per channel against the bias gradient's HW adds — the matmul
# sets the step's time, so one launch and no scratch it is.  The order of the additions
# depends on nothing but HW, so every core count gives bit-identical results.
#
# a0 -> {y, b, C, HW} (bias_add) or {dy, db, C, HW} (bias_grad); a1 = number of cores.
    .include "common.inc"
    .text
    .globl bias_add
    .globl bias_grad

# y += v over a run of \n elements from a2 (advanced past it), four per hardware-loop iteration
# (loads, adds, stores: no load-use stall), then the n % 4 left one at a time (counted in
# \rest).  v is \v, one register for every element, or without it the stream at a3 (advanced
# too).  Clobbers t0, ft0-ft7.
.macro add_run n, rest, v
    srli t0, \n, 2
    andi \rest, \n, 3
    beqz t0, .Lquads_done\@
    lp.setup x0, t0, .Lquad\@
    words flw, a2, ft0, ft1, ft2, ft3
    .ifb \v
    words flw, a3, ft4, ft5, ft6, ft7
    addi a3, a3, 16
    .endif
    lanes fadd.s, \v
    words fsw, a2, ft0, ft1, ft2, ft3
.Lquad\@:
    addi a2, a2, 16
.Lquads_done\@:
    beqz \rest, .Ldone\@
    lp.setup x0, \rest, .Lone\@
    flw ft0, 0(a2)
    .ifb \v
    flw ft4, 0(a3)
    addi a2, a2, 4
    addi a3, a3, 4
    fadd.s ft0, ft0, ft4
    .else
    addi a2, a2, 4
    fadd.s ft0, ft0, \v
    .endif
.Lone\@:
    fsw ft0, -4(a2)
.Ldone\@:
.endm

bias_add:
    lw t0, 8(a0)                 # C
    lw t1, 12(a0)                # HW
    mul t2, t0, t1               # N = C*HW
    beqz t2, 9f
    ceil_div t3, t2
    ori t3, t3, 1                # L = ceil(N / cores) | 1
    core_id t4
    block_count t4, t5, t2, t3, t4, 9f   # lo = k L; t5 = elements of this core
    words lw, a0, a2, a3         # y, b
    slli t6, t4, 2
    add a2, a2, t6               # &y[lo]
    li t0, 1
    beq t1, t0, 20f              # HW = 1: plain vector add
    divu t0, t4, t1              # c = lo / HW
    mul t3, t0, t1
    sub t3, t4, t3               # p = lo - c HW
    slli t0, t0, 2
    add a3, a3, t0               # &b[c]
    sub t3, t1, t3               # HW - p: the first segment ends with channel c
    p.minu t3, t3, t5            # segment length
1:  flw fa0, 0(a3)               # b[c]
    addi a3, a3, 4
    add_run t3, t2, fa0
    sub t5, t5, t3               # elements left
    p.minu t3, t1, t5            # next segment: a whole channel, or what is left of the chunk
    bnez t5, 1b
9:  ret

20: add a3, a3, t6               # HW = 1: b[lo..hi) onto y[lo..hi)
    add_run t5, t5
    ret

bias_grad:
    lw t0, 8(a0)                 # C
    lw t1, 12(a0)                # HW
    core_id t2                   # k
    sub t3, t0, t2
    blez t3, 9f                  # no channel for this core
    ceil_div t3, t3              # channels of core k: ceil((C - k) / cores)
    words lw, a0, a2, a3         # dy, db
    mul t0, t2, t1
    slli t0, t0, 2
    add a2, a2, t0               # &dy[k][0]
    slli t0, t2, 2
    add a3, a3, t0               # &db[k]
    mul t4, a1, t1
    slli t4, t4, 2               # dy bytes from one of the core's channels to the next
    slli t5, a1, 2               # db bytes between them
    srli t0, t1, 2               # HW / 4
    andi t1, t1, 3               # HW % 4
    lp.setup x1, t3, 5f          # the core's channels
    fzero ft0, ft1, ft2, ft3
    mv a4, a2
    beqz t0, 2f
    lp.setup x0, t0, 1f
    words flw, a4, ft4, ft5, ft6, ft7
    addi a4, a4, 16
    lanes fadd.s, end=1          # (1: the last of the four)
2:  beqz t1, 4f
    lp.setup x0, t1, 3f
    flw ft4, 0(a4)
    addi a4, a4, 4
3:  fadd.s ft0, ft0, ft4
4:  fadd.s ft0, ft0, ft1
    fadd.s ft2, ft2, ft3
    fadd.s ft0, ft0, ft2
    fsw ft0, 0(a3)
    add a2, a2, t4
5:  add a3, a3, t5
9:  ret
