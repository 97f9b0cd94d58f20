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
    .include "sigmoid.inc"
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
    sigmoid_fw_body

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
