# Activation kernels with their own math, fp32 (PULP-TrainLib pulp_act_fp32.c sigmoid; element-wise
# product).
#
#   sigmoid_fw      y  = 1 / (1 + exp(-x))
#   sigmoid_bw      dx = dy * y * (1 - y)                (y: the forward OUTPUT)
#   mul             out = a * b
#
# Scheduling: as in elementwise.s, the elements are dealt round robin to the cores (core k takes
# groups k, k + cores, k + 2*cores, ...), so cores running the same loop in step touch different
# TCDM banks, and any n (0 included) is covered once with no write past the end.  sigmoid_fw
# deals single elements (its ~36-instruction body dwarfs a pointer bump, and a group of one has
# no tail); sigmoid_bw and mul deal groups of 4 (loads first, then the arithmetic, then the
# stores, so nothing waits for a load; the last core also takes the n % 4 tail).  FP loads have
# no post-increment form, so the streams use flw/fsw with offsets and one pointer bump per group.
# An output may be the same array as an input (in place): each element is read before written.
#
# sigmoid_fw, per element, without a division or a call:
#   t = exp(-|x|) in (0, 1], by the expf of loss.s (k = round(-|x| / ln2) read off the mantissa
#   of 1.5*2^23 - |x| log2(e), r = -|x| - k ln2_hi - k ln2_lo by fused multiply-adds, the
#   degree-7 Taylor polynomial of exp(r) in Horner form) with one change: the coefficients are
#   pre-scaled by 2^-64 (exact), so the scaling by 2^k is one multiplication by 2^(k+64), a
#   normal number for every k >= -190, and a subnormal t is rounded once.
#   Then y = num / d with d = 1 + t in (1, 2] and num = 1 (x >= 0) or t (x < 0): both
#   1/(1+e^-x) and e^x/(1+e^x) without overflow, and without losing the relative accuracy of
#   small y for negative x.  num = fmax(t, sign(x) * 1) picks it without a branch.  The
#   quotient: r0 = 24/17 - 8/17 d (|1 - d r0| <= 1/17), two Newton steps r <- r + r (1 - d r)
#   (error 1.2e-5), q = num r, then one residual correction y = q + r (num - d q) (error of
#   order 1e-10 before the final rounding): 10 FP instructions instead of fdiv's 14 blocking
#   cycles, and within ~0.5 ulp of the exact quotient of the rounded operands.
#   |x| >= 104 (exp(-|x|) is below half the least subnormal, y is exactly 0 or 1) and NaN leave
#   the hardware loop for an out-of-line path (NaN in, quiet NaN out) and come back to its store.
#   Measured against numpy's float64 sigmoid rounded to fp32 (tests/kernels/test_activation.py):
#   within 2 ulp over [-104, 104] (normal results) and 1 subnormal step below.
# sigmoid_bw: g = y - y*y with one fused rounding (no cancellation error near y = 1), dx = dy g.
#
# sigmoid_fw: a0 -> {x, y, n}; sigmoid_bw: {y, dy, dx, n}; mul: {a, b, out, n}.
# a1 = number of cores.
    .include "common.inc"
    .text
    .globl sigmoid_fw
    .globl sigmoid_bw
    .globl mul

# The round-robin split of the elements over the cores: the subroutine split_groups calls
# (common.inc: deal_groups tells what it returns).
.Lshare:
    deal_groups

# ---------------------------------------------------------------------------- sigmoid
sigmoid_fw:
    split_groups .Lshare, 8, 0
    beqz t3, 9f                  # nothing for this core (n < cores, or n = 0)
    addi sp, sp, -16
    words fsw, sp, fs0, fs1, fs2, fs3
    fli fs0, 0x3fb8aa3b          # log2(e)
    fli fs1, 0x4b400000          # 1.5 * 2^23
    fli fs2, 0x3f317200          # ln2_hi (15 significant bits: k ln2_hi is exact)
    fli fs3, 0x35bfbe8e          # ln2_lo = ln2 - ln2_hi
    fli fa2, 0x19500d01          # 2^-64 / 7!
    fli fa3, 0x1ab60b61          # 2^-64 / 6!
    fli fa4, 0x1c088889          # 2^-64 / 5!
    fli fa5, 0x1d2aaaab          # 2^-64 / 4!
    fli fa6, 0x1e2aaaab          # 2^-64 / 3!
    fli fa7, 0x1f000000          # 2^-64 / 2!
    fli ft11, 0x1f800000         # 2^-64
    fli ft10, 0x3f800000         # 1
    fli ft9, 0x42d00000          # 104
    fli ft8, 0x3fb4b4b5          # 24/17
    fli ft7, 0x3ef0f0f1          # 8/17
    li a5, 0x4b3fff41            # bits(1.5*2^23) - 191: bits(1.5*2^23 + k) - this = k + 64 + 127
    words lw, a0, a3, a4         # x, y
    add a3, a3, t2
    add a4, a4, t2
    lp.setup x0, t3, 1f
    flw fa0, 0(a3)
    add a3, a3, t4
    fabs.s ft0, fa0
    flt.s t0, ft0, ft9           # |x| < 104 (false for NaN)
    beqz t0, 5f
    fnmsub.s ft1, ft0, fs0, fs1  # 1.5*2^23 - |x| log2(e): k = round(-|x| / ln2) in the low bits
    fmv.x.w t0, ft1
    fsub.s ft1, ft1, fs1         # k, as a float (exact)
    fnmadd.s ft2, ft1, fs2, ft0  # r = -|x| - k ln2_hi
    fnmsub.s ft2, ft1, fs3, ft2  #     - k ln2_lo
    fmadd.s ft3, fa2, ft2, fa3   # 2^-64 exp(r) = 2^-64 (1 + r (1 + r (1/2 + ... r / 7!)))
    fmadd.s ft3, ft3, ft2, fa4
    fmadd.s ft3, ft3, ft2, fa5
    fmadd.s ft3, ft3, ft2, fa6
    fmadd.s ft3, ft3, ft2, fa7
    fmadd.s ft3, ft3, ft2, ft11
    fmadd.s ft3, ft3, ft2, ft11
    sub t0, t0, a5
    slli t0, t0, 23
    fmv.w.x ft4, t0              # 2^(k + 64)
    fmul.s ft3, ft3, ft4         # t = exp(-|x|), rounded once
    fadd.s ft4, ft3, ft10        # d = 1 + t
    fnmsub.s ft5, ft4, ft7, ft8  # r0 = 24/17 - 8/17 d
    fnmsub.s ft6, ft4, ft5, ft10 # e = 1 - d r
    fmadd.s ft5, ft5, ft6, ft5   # r += r e
    fnmsub.s ft6, ft4, ft5, ft10
    fmadd.s ft5, ft5, ft6, ft5
    fsgnj.s ft6, ft10, fa0       # +1 for x >= +0, -1 for x <= -0
    fmax.s ft3, ft3, ft6         # num: 1 (x >= 0) or t (x < 0; t = 1 for -0)
    fmul.s fa1, ft3, ft5         # q = num r
    fnmsub.s ft6, ft4, fa1, ft3  # num - d q
    fmadd.s fa1, ft5, ft6, fa1   # y = q + r (num - d q)
3:  fsw fa1, 0(a4)
1:  add a4, a4, t4
    words flw, sp, fs0, fs1, fs2, fs3
    addi sp, sp, 16
9:  ret
5:  feq.s t0, fa0, fa0           # |x| >= 104 or NaN
    fadd.s fa1, fa0, fa0         # NaN in, quiet NaN out
    beqz t0, 3b
    fmv.x.w t0, fa0
    srli t0, t0, 31
    xori t0, t0, 1
    fcvt.s.w fa1, t0             # x >= 104: 1, x <= -104: 0
    j 3b

# sigmoid_bw: g = y - y*y = y (1 - y), one rounding
.macro sigmoid_slope r
    fnmsub.s \r, \r, \r, \r
.endm

sigmoid_bw:
    split_groups .Lshare, 12, 2
    map2 fmul.s, pre=sigmoid_slope

# ---------------------------------------------------------------------------- product
mul:
    split_groups .Lshare, 12, 2
    map2 fmul.s
