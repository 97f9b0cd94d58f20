# SGD with weight decay, fp32 (PULP-TrainLib B.11 pulp_gradient_descent_fp32):
#
#   g = g + weight_decay * w        (written back, as the reference does)
#   w = w - lr * g
#
# both as fused multiply-adds (one rounding each).  Biases are updated by a second call on the
# bias arrays.
#
# Scheduling: the elements are cut into groups of 4 dealt round robin to the cores (core k takes
# groups k, k + cores, ...; the last core also takes the n % 4 tail), so cores running in step
# touch different TCDM banks, any n down to 1 is covered once, and the pointer bump after a group
# is still one instruction.  A group's 8 loads come first, then the 8 fused operations, then the
# 8 stores: nothing waits for a load.
#
# a0 -> struct sgd {w, g, n, lr, weight_decay}; a1 = number of cores.
    .include "common.inc"
    .text
    .globl sgd_update

sgd_update:
    core_id t0                   # k
    lw t1, 8(a0)                 # n
    srli t3, t1, 2               # G: whole groups of 4
    andi t5, t1, 3               # tail
    slli a2, t3, 4               # byte offset of the tail
    slli t4, a1, 4               # byte distance between a core's groups
    slli t2, t0, 4               # byte offset of this core's first group
    dealt t3, t3, t0             # groups of core k
    addi t0, t0, 1
    beq t0, a1, 1f
    li t5, 0                     # only the last core takes the tail
1:  lw a3, 0(a0)                 # w
    lw a4, 4(a0)                 # g
    flw fa0, 12(a0)              # lr
    flw fa1, 16(a0)              # weight decay
    beqz t3, 3f
    add a5, a3, t2
    add a6, a4, t2
    lp.setup x0, t3, 2f
    words flw, a5, ft0, ft1, ft2, ft3
    words flw, a6, ft4, ft5, ft6, ft7
    fmadd.s ft4, fa1, ft0, ft4   # g += wd * w
    fmadd.s ft5, fa1, ft1, ft5
    fmadd.s ft6, fa1, ft2, ft6
    fmadd.s ft7, fa1, ft3, ft7
    fnmsub.s ft0, fa0, ft4, ft0  # w -= lr * g
    fnmsub.s ft1, fa0, ft5, ft1
    fnmsub.s ft2, fa0, ft6, ft2
    fnmsub.s ft3, fa0, ft7, ft3
    words fsw, a6, ft4, ft5, ft6, ft7
    add a6, a6, t4
    words fsw, a5, ft0, ft1, ft2, ft3
2:  add a5, a5, t4
3:  beqz t5, 9f
    add a3, a3, a2
    add a4, a4, a2
    lp.setup x0, t5, 4f
    flw ft0, 0(a3)
    flw ft4, 0(a4)
    fmadd.s ft4, fa1, ft0, ft4
    fnmsub.s ft0, fa0, ft4, ft0
    fsw ft4, 0(a4)
    fsw ft0, 0(a3)
    addi a4, a4, 4
4:  addi a3, a3, 4
9:  ret
