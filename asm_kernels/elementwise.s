# Element-wise kernels, fp32 (PULP-TrainLib B.7 activations, B.9 residual add, buffer helpers).
#
#   relu_fw         y  = x > 0 ? x : 0
#   relu_bw         dx = x > 0 ? dy : 0                 (x: the forward INPUT)
#   leakyrelu_fw    y  = x > 0 ? x : slope*x
#   leakyrelu_bw    dx = x > 0 ? dy : slope*dy
#   add             out = a + b                          (residual / sum node)
#   scale           y  = alpha * x
#   copy            dst = src                            (bit-exact)
#   fill            dst = value                          (bit-exact)
#
# Scheduling: the elements are cut into groups of 2 or 4, dealt round robin to the cores (core k
# takes groups k, k + cores, k + 2*cores, ...; the last core also takes the n % group tail, so
# every n down to 1 is covered once).  Interleaving instead of contiguous blocks matters here:
# cores running the same loop in step on blocks whose length is a multiple of 16 words hit the
# same TCDM bank every cycle (copy of 2048 words on 8 cores took 2.2x as long that way),
# while interleaved groups spread them over the banks — and it costs nothing, since the pointer
# bump after a group is one instruction whether it adds 16 or 16*cores.  A group is loaded
# first, then computed, then stored, so no instruction waits for a load; bit-pattern operations
# (relu_fw as a signed max with 0, the relu_bw mask, copy, fill) use integer post-increment
# loads and stores, FP streams flw/fsw with offsets and one pointer bump per group.
# Comparisons are IEEE ones (flt.s), except relu_fw, whose signed-integer max keeps a NaN with
# a clear sign bit (like torch.relu) and maps every negative number and -0 to +0.
# leakyrelu_fw selects with fmax (slope <= 1) or fmin (slope > 1): for x > 0 the larger / smaller
# of x and slope*x is x, for x < 0 it is slope*x (for a negative slope, x = +0 gives +0 where
# slope*x is -0: equal values).  leakyrelu_bw multiplies dy by f = (1-u)*slope + u with
# u = (x > 0) as 0.0 / 1.0, which is exactly 1 or slope, so dx is dy or the rounded slope*dy.
# An output may be the same array as an input (in place): each element is read before written.
#
# relu_fw: a0 -> {x, y, n}; relu_bw: {x, dy, dx, n}; leakyrelu_fw: {x, y, n, slope};
# leakyrelu_bw: {x, dy, dx, n, slope}; add: {a, b, out, n}; scale: {x, y, n, alpha};
# copy: {src, dst, n}; fill: {dst, n, value}.  a1 = number of cores.
    .text
    .globl relu_fw
    .globl relu_bw
    .globl leakyrelu_fw
    .globl leakyrelu_bw
    .globl add
    .globl scale
    .globl copy
    .globl fill

# The split: t1 = n elements, groups of 2^t5.  Returns t2 = byte offset of this core's first
# group, t3 = its number of groups, t4 = byte distance between its groups, t1 = byte offset of
# the tail, t5 = tail elements for this core (0 unless it is the last core).  Clobbers t0, a2;
# returns through t6.
.Lshare:
    csrr t0, mhartid
    andi t0, t0, 0x1f            # k
    srl t3, t1, t5               # G: whole groups
    sll t2, t3, t5
    sub t1, t1, t2               # tail elements
    slli a2, t2, 2               # byte offset of the tail
    addi t5, t5, 2
    sll t4, a1, t5               # cores * group bytes
    sll t2, t0, t5               # k * group bytes
    add t3, t3, a1
    addi t3, t3, -1
    sub t3, t3, t0
    divu t3, t3, a1              # groups of core k: ceil((G - k) / cores)
    addi t0, t0, 1
    li t5, 0
    bne t0, a1, 1f
    mv t5, t1                    # the last core takes the tail
1:  mv t1, a2
    jr t6

relu_fw:
    lw t1, 8(a0)
    li t5, 1
    jal t6, .Lshare
    lw a3, 0(a0)                 # x
    lw a4, 4(a0)                 # y
    beqz t3, 2f
    add a2, a3, t2
    add a5, a4, t2
    addi t4, t4, -4              # (the second post-increment jumps to the next group)
    lp.setup x0, t3, 1f
    p.lw t0, 4(a2!)
    p.lw t2, t4(a2!)
    p.max t0, t0, zero           # sign bit set (x < 0 or -0) -> +0, else x
    p.max t2, t2, zero
    p.sw t0, 4(a5!)
1:  p.sw t2, t4(a5!)
2:  beqz t5, 9f
    add a3, a3, t1
    add a4, a4, t1
    lw t0, 0(a3)
    p.max t0, t0, zero
    sw t0, 0(a4)
9:  ret

relu_bw:
    lw t1, 12(a0)
    li t5, 1
    jal t6, .Lshare
    lw a3, 0(a0)                 # x
    lw a4, 4(a0)                 # dy
    lw a5, 8(a0)                 # dx
    fmv.w.x ft0, zero
    beqz t3, 2f
    add a2, a3, t2
    add a6, a4, t2
    add a7, a5, t2
    addi t2, t4, -4
    lp.setup x0, t3, 1f
    flw ft1, 0(a2)
    flw ft2, 4(a2)
    add a2, a2, t4
    p.lw t0, 4(a6!)
    p.lw t3, t2(a6!)
    flt.s a0, ft0, ft1           # x > 0
    flt.s t6, ft0, ft2
    neg a0, a0                   # all ones / zero
    neg t6, t6
    and t0, t0, a0
    and t3, t3, t6
    p.sw t0, 4(a7!)
1:  p.sw t3, t2(a7!)
2:  beqz t5, 9f
    add a3, a3, t1
    add a4, a4, t1
    add a5, a5, t1
    flw ft1, 0(a3)
    lw t0, 0(a4)
    flt.s t4, ft0, ft1
    neg t4, t4
    and t0, t0, t4
    sw t0, 0(a5)
9:  ret

leakyrelu_fw:
    lw t1, 8(a0)
    li t5, 2
    jal t6, .Lshare
    lw a3, 0(a0)                 # x
    lw a4, 4(a0)                 # y
    flw fa0, 12(a0)              # slope
    add a2, a3, t2
    add a5, a4, t2
    add a3, a3, t1               # the tail
    add a4, a4, t1
    li t0, 0x3f800000
    fmv.w.x ft0, t0
    fle.s t0, fa0, ft0
    beqz t0, 5f                  # slope > 1: the fmin loops
    beqz t3, 2f
    lp.setup x0, t3, 1f
    flw ft1, 0(a2)
    flw ft2, 4(a2)
    flw ft3, 8(a2)
    flw ft4, 12(a2)
    add a2, a2, t4
    fmul.s ft5, fa0, ft1
    fmul.s ft6, fa0, ft2
    fmul.s ft7, fa0, ft3
    fmul.s ft8, fa0, ft4
    fmax.s ft5, ft5, ft1
    fmax.s ft6, ft6, ft2
    fmax.s ft7, ft7, ft3
    fmax.s ft8, ft8, ft4
    fsw ft5, 0(a5)
    fsw ft6, 4(a5)
    fsw ft7, 8(a5)
    fsw ft8, 12(a5)
1:  add a5, a5, t4
2:  beqz t5, 9f
    lp.setup x0, t5, 3f
    flw ft1, 0(a3)
    addi a3, a3, 4
    fmul.s ft5, fa0, ft1
    fmax.s ft5, ft5, ft1
    fsw ft5, 0(a4)
3:  addi a4, a4, 4
9:  ret
5:  beqz t3, 7f
    lp.setup x0, t3, 6f
    flw ft1, 0(a2)
    flw ft2, 4(a2)
    flw ft3, 8(a2)
    flw ft4, 12(a2)
    add a2, a2, t4
    fmul.s ft5, fa0, ft1
    fmul.s ft6, fa0, ft2
    fmul.s ft7, fa0, ft3
    fmul.s ft8, fa0, ft4
    fmin.s ft5, ft5, ft1
    fmin.s ft6, ft6, ft2
    fmin.s ft7, ft7, ft3
    fmin.s ft8, ft8, ft4
    fsw ft5, 0(a5)
    fsw ft6, 4(a5)
    fsw ft7, 8(a5)
    fsw ft8, 12(a5)
6:  add a5, a5, t4
7:  beqz t5, 9b
    lp.setup x0, t5, 8f
    flw ft1, 0(a3)
    addi a3, a3, 4
    fmul.s ft5, fa0, ft1
    fmin.s ft5, ft5, ft1
    fsw ft5, 0(a4)
8:  addi a4, a4, 4
    ret

leakyrelu_bw:
    lw t1, 12(a0)
    li t5, 1
    jal t6, .Lshare
    lw a3, 0(a0)                 # x
    lw a4, 4(a0)                 # dy
    lw a5, 8(a0)                 # dx
    flw fa0, 16(a0)              # slope
    fmv.w.x ft0, zero
    li t0, 0x3f800000
    fmv.w.x fa1, t0              # 1.0
    beqz t3, 2f
    add a2, a3, t2
    add a6, a4, t2
    add a7, a5, t2
    lp.setup x0, t3, 1f
    flw ft1, 0(a2)
    flw ft2, 4(a2)
    add a2, a2, t4
    flw ft3, 0(a6)
    flw ft4, 4(a6)
    add a6, a6, t4
    flt.s t0, ft0, ft1           # u = x > 0
    flt.s t2, ft0, ft2
    fcvt.s.w ft5, t0
    fcvt.s.w ft6, t2
    fsub.s ft7, fa1, ft5         # 1 - u
    fsub.s ft8, fa1, ft6
    fmadd.s ft7, ft7, fa0, ft5   # f = (1-u)*slope + u: exactly slope or 1
    fmadd.s ft8, ft8, fa0, ft6
    fmul.s ft3, ft3, ft7
    fmul.s ft4, ft4, ft8
    fsw ft3, 0(a7)
    fsw ft4, 4(a7)
1:  add a7, a7, t4
2:  beqz t5, 9f
    add a3, a3, t1
    add a4, a4, t1
    add a5, a5, t1
    flw ft1, 0(a3)
    flw ft3, 0(a4)
    flt.s t0, ft0, ft1
    fcvt.s.w ft5, t0
    fsub.s ft7, fa1, ft5
    fmadd.s ft7, ft7, fa0, ft5
    fmul.s ft3, ft3, ft7
    fsw ft3, 0(a5)
9:  ret

add:
    lw t1, 12(a0)
    li t5, 2
    jal t6, .Lshare
    lw a3, 0(a0)                 # a
    lw a4, 4(a0)                 # b
    lw a5, 8(a0)                 # out
    beqz t3, 2f
    add a2, a3, t2
    add a6, a4, t2
    add a7, a5, t2
    lp.setup x0, t3, 1f
    flw ft0, 0(a2)
    flw ft1, 4(a2)
    flw ft2, 8(a2)
    flw ft3, 12(a2)
    add a2, a2, t4
    flw ft4, 0(a6)
    flw ft5, 4(a6)
    flw ft6, 8(a6)
    flw ft7, 12(a6)
    add a6, a6, t4
    fadd.s ft0, ft0, ft4
    fadd.s ft1, ft1, ft5
    fadd.s ft2, ft2, ft6
    fadd.s ft3, ft3, ft7
    fsw ft0, 0(a7)
    fsw ft1, 4(a7)
    fsw ft2, 8(a7)
    fsw ft3, 12(a7)
1:  add a7, a7, t4
2:  beqz t5, 9f
    add a3, a3, t1
    add a4, a4, t1
    add a5, a5, t1
    lp.setup x0, t5, 3f
    flw ft0, 0(a3)
    flw ft4, 0(a4)
    addi a3, a3, 4
    addi a4, a4, 4
    fadd.s ft0, ft0, ft4
    fsw ft0, 0(a5)
3:  addi a5, a5, 4
9:  ret

scale:
    lw t1, 8(a0)
    li t5, 2
    jal t6, .Lshare
    lw a3, 0(a0)                 # x
    lw a4, 4(a0)                 # y
    flw fa0, 12(a0)              # alpha
    beqz t3, 2f
    add a2, a3, t2
    add a5, a4, t2
    lp.setup x0, t3, 1f
    flw ft0, 0(a2)
    flw ft1, 4(a2)
    flw ft2, 8(a2)
    flw ft3, 12(a2)
    add a2, a2, t4
    fmul.s ft0, fa0, ft0
    fmul.s ft1, fa0, ft1
    fmul.s ft2, fa0, ft2
    fmul.s ft3, fa0, ft3
    fsw ft0, 0(a5)
    fsw ft1, 4(a5)
    fsw ft2, 8(a5)
    fsw ft3, 12(a5)
1:  add a5, a5, t4
2:  beqz t5, 9f
    add a3, a3, t1
    add a4, a4, t1
    lp.setup x0, t5, 3f
    flw ft0, 0(a3)
    addi a3, a3, 4
    fmul.s ft0, fa0, ft0
    fsw ft0, 0(a4)
3:  addi a4, a4, 4
9:  ret

copy:
    lw t1, 8(a0)
    li t5, 1
    jal t6, .Lshare
    lw a3, 0(a0)                 # src
    lw a4, 4(a0)                 # dst
    beqz t3, 2f
    add a2, a3, t2
    add a5, a4, t2
    addi t4, t4, -4
    lp.setup x0, t3, 1f
    p.lw t0, 4(a2!)
    p.lw t2, t4(a2!)
    p.sw t0, 4(a5!)
1:  p.sw t2, t4(a5!)
2:  beqz t5, 9f
    add a3, a3, t1
    add a4, a4, t1
    lw t0, 0(a3)
    sw t0, 0(a4)
9:  ret

fill:
    lw t1, 4(a0)
    li t5, 1
    jal t6, .Lshare
    lw a3, 0(a0)                 # dst
    lw t0, 8(a0)                 # the value's bits
    beqz t3, 2f
    add a5, a3, t2
    addi t4, t4, -4
    lp.setup x0, t3, 1f
    p.sw t0, 4(a5!)
1:  p.sw t0, t4(a5!)
2:  beqz t5, 9f
    add a3, a3, t1
    sw t0, 0(a3)
9:  ret
