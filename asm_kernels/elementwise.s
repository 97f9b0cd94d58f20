# Element-wise kernels, fp32 (PULP-TrainLib pulp_act_fp32.c, pulp_residual_fp32.c add, buffer
# helpers).
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
    .include "common.inc"
    .text
    .globl relu_fw
    .globl relu_bw
    .globl leakyrelu_fw
    .globl leakyrelu_bw
    .globl add
    .globl scale
    .globl copy
    .globl fill

# The round-robin split of the elements over the cores: the subroutine split_groups calls
# (common.inc: deal_groups tells what it returns).
.Lshare:
    deal_groups

# Word streams src -> dst, two words per group by post-increment loads and stores, each word
# passed through \op (a macro of one register) if given: relu_fw, copy.  a3 = src, a4 = dst.
.macro word_map op
    beqz t3, .Ltail\@
    add a2, a3, t2
    add a5, a4, t2
    addi t4, t4, -4              # (the second post-increment jumps to the next group)
    lp.setup x0, t3, .Lgroup\@
    p.lw t0, 4(a2!)
    p.lw t2, t4(a2!)
    .ifnb \op
    \op t0
    \op t2
    .endif
    p.sw t0, 4(a5!)
.Lgroup\@:
    p.sw t2, t4(a5!)
.Ltail\@:
    beqz t5, .Ldone\@
    add a3, a3, t1
    add a4, a4, t1
    lw t0, 0(a3)
    .ifnb \op
    \op t0
    .endif
    sw t0, 0(a4)
.Ldone\@:
    ret
.endm

# y = fa0 * x, then y = \select y, y, x if given (fmax.s / fmin.s: leakyrelu_fw): the groups
# of four from a2 = x, a5 = y (x in the b lanes, y in the a lanes), then the tail elements
# from a3 = x, a4 = y, one at a time.
.macro scaled_groups select
    lp.setup x0, t3, .Lgroup\@
    words flw, a2, ft4, ft5, ft6, ft7
    add a2, a2, t4
    fmul.s ft0, fa0, ft4
    fmul.s ft1, fa0, ft5
    fmul.s ft2, fa0, ft6
    fmul.s ft3, fa0, ft7
    .ifnb \select
    lanes \select
    .endif
    words fsw, a5, ft0, ft1, ft2, ft3
.Lgroup\@:
    add a5, a5, t4
.endm

.macro scaled_tail select
    lp.setup x0, t5, .Lelement\@
    flw ft4, 0(a3)
    addi a3, a3, 4
    fmul.s ft0, fa0, ft4
    .ifnb \select
    \select ft0, ft0, ft4
    .endif
    fsw ft0, 0(a4)
.Lelement\@:
    addi a4, a4, 4
.endm

# relu_fw: the sign bit set (x < 0 or -0) -> +0, else x
.macro relu_bits r
    p.max \r, \r, zero
.endm

relu_fw:
    split_groups .Lshare, 8, 1
    words lw, a0, a3, a4         # x, y
    word_map relu_bits

relu_bw:
    split_groups .Lshare, 12, 1
    words lw, a0, a3, a4, a5     # x, dy, dx
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
    split_groups .Lshare, 8, 2
    words lw, a0, a3, a4         # x, y
    flw fa0, 12(a0)              # slope
    add a2, a3, t2
    add a5, a4, t2
    add a3, a3, t1               # the tail
    add a4, a4, t1
    fli ft0, 0x3f800000
    fle.s t0, fa0, ft0
    beqz t0, 5f                  # slope > 1: the fmin loops
    beqz t3, 2f
    scaled_groups fmax.s
2:  beqz t5, 9f
    scaled_tail fmax.s
9:  ret
5:  beqz t3, 7f
    scaled_groups fmin.s
7:  beqz t5, 9b
    scaled_tail fmin.s
    ret

leakyrelu_bw:
    split_groups .Lshare, 12, 1
    words lw, a0, a3, a4, a5     # x, dy, dx
    flw fa0, 16(a0)              # slope
    fmv.w.x ft0, zero
    fli fa1, 0x3f800000          # 1.0
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
    split_groups .Lshare, 12, 2
    map2 fadd.s

scale:
    split_groups .Lshare, 8, 2
    words lw, a0, a3, a4         # x, y
    flw fa0, 12(a0)              # alpha
    beqz t3, 2f
    add a2, a3, t2
    add a5, a4, t2
    scaled_groups
2:  beqz t5, 9f
    add a3, a3, t1
    add a4, a4, t1
    scaled_tail
9:  ret

copy:
    split_groups .Lshare, 8, 1
    words lw, a0, a3, a4         # src, dst
    word_map

fill:
    split_groups .Lshare, 4, 1
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
