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
    .text
    .globl bias_add
    .globl bias_grad

bias_add:
    lw t0, 8(a0)                 # C
    lw t1, 12(a0)                # HW
    mul t2, t0, t1               # N = C*HW
    beqz t2, 9f
    add t3, t2, a1
    addi t3, t3, -1
    divu t3, t3, a1
    ori t3, t3, 1                # L = ceil(N / cores) | 1
    csrr t4, mhartid
    andi t4, t4, 0x1f
    mul t4, t4, t3               # lo = k L
    bgeu t4, t2, 9f              # an empty chunk
    add t5, t4, t3
    p.minu t5, t5, t2            # hi
    sub t5, t5, t4               # elements of this core
    lw a2, 0(a0)                 # y
    lw a3, 4(a0)                 # b
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
    srli t0, t3, 2
    andi t2, t3, 3
    beqz t0, 3f
    lp.setup x0, t0, 2f
    flw ft0, 0(a2)
    flw ft1, 4(a2)
    flw ft2, 8(a2)
    flw ft3, 12(a2)
    fadd.s ft0, ft0, fa0
    fadd.s ft1, ft1, fa0
    fadd.s ft2, ft2, fa0
    fadd.s ft3, ft3, fa0
    fsw ft0, 0(a2)
    fsw ft1, 4(a2)
    fsw ft2, 8(a2)
    fsw ft3, 12(a2)
2:  addi a2, a2, 16
3:  beqz t2, 5f
    lp.setup x0, t2, 4f
    flw ft0, 0(a2)
    addi a2, a2, 4
    fadd.s ft0, ft0, fa0
4:  fsw ft0, -4(a2)
5:  sub t5, t5, t3               # elements left
    p.minu t3, t1, t5            # next segment: a whole channel, or what is left of the chunk
    bnez t5, 1b
9:  ret

20: add a3, a3, t6               # HW = 1: b[lo..hi) onto y[lo..hi)
    srli t0, t5, 2
    andi t5, t5, 3
    beqz t0, 22f
    lp.setup x0, t0, 21f
    flw ft0, 0(a2)
    flw ft1, 4(a2)
    flw ft2, 8(a2)
    flw ft3, 12(a2)
    flw ft4, 0(a3)
    flw ft5, 4(a3)
    flw ft6, 8(a3)
    flw ft7, 12(a3)
    addi a3, a3, 16
    fadd.s ft0, ft0, ft4
    fadd.s ft1, ft1, ft5
    fadd.s ft2, ft2, ft6
    fadd.s ft3, ft3, ft7
    fsw ft0, 0(a2)
    fsw ft1, 4(a2)
    fsw ft2, 8(a2)
    fsw ft3, 12(a2)
21: addi a2, a2, 16
22: beqz t5, 9b
    lp.setup x0, t5, 23f
    flw ft0, 0(a2)
    flw ft4, 0(a3)
    addi a2, a2, 4
    addi a3, a3, 4
    fadd.s ft0, ft0, ft4
23: fsw ft0, -4(a2)
    ret

bias_grad:
    lw t0, 8(a0)                 # C
    lw t1, 12(a0)                # HW
    csrr t2, mhartid
    andi t2, t2, 0x1f            # k
    sub t3, t0, t2
    blez t3, 9f                  # no channel for this core
    add t3, t3, a1
    addi t3, t3, -1
    divu t3, t3, a1              # channels of core k: ceil((C - k) / cores)
    lw a2, 0(a0)                 # dy
    lw a3, 4(a0)                 # db
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
    fmv.w.x ft0, zero
    fmv.w.x ft1, zero
    fmv.w.x ft2, zero
    fmv.w.x ft3, zero
    mv a4, a2
    beqz t0, 2f
    lp.setup x0, t0, 1f
    flw ft4, 0(a4)
    flw ft5, 4(a4)
    flw ft6, 8(a4)
    flw ft7, 12(a4)
    addi a4, a4, 16
    fadd.s ft0, ft0, ft4
    fadd.s ft1, ft1, ft5
    fadd.s ft2, ft2, ft6
1:  fadd.s ft3, ft3, ft7
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
