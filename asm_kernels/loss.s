# Losses and the float math they need, fp32 (PULP-TrainLib B.10).
#
#   vexp, vlog      y = expf(x), y = logf(x) element-wise (the math routines, exposed for tests)
#   mse_partial     partial[k] = sum over core k's elements of (y - t)^2
#   mse_grad        dy = (2/n) * (y - t)
#   reduce_sum      out[0] = scale * sum_{k < count} partial[k]      (one core; MSE loss with
#                   scale = 1/n)
#   ce_partial      partial[4k..4k+3] = (m_k, s_k, sy_k, u_k) of core k's logits: m_k = max z_i,
#                   s_k = sum exp(z_i - m_k), sy_k = sum y_i, u_k = sum y_i (z_i - m_k)
#   ce_combine      one core: M = max m_k, S = sum s_k exp(m_k - M), sy = sum sy_k,
#                   T = sum (u_k + sy_k (m_k - M)) = sum y_i (z_i - M);
#                   out = [loss = sy*log(S) - T, M, S, sy]  — loss = sum_i y_i (logsumexp(z) - z_i)
#   ce_grad         dz = exp(z - M) * (sy / S) - y   (= softmax(z)*sum(y) - y; softmax - y for
#                   targets that sum to 1), with stats = ce_combine's out
#
# Reductions: kernels cannot wait for each other, so a loss is two launches: every core writes a
# partial result for its elements (mse_partial / ce_partial, one slot per core, idle cores
# write the neutral element), and after the caller's barrier one core combines them
# (reduce_sum / ce_combine).  Cross entropy stays stable without knowing the global max in the
# first pass: each core shifts by its own max, the combine rescales by exp(m_k - M) <= 1, and
# the target term is kept as differences z_i - m (exact for nearby values), so the error of the
# loss does not grow with the size of the logits (no lse - z_t with lse ~ max z).
#
# expf: x = k ln2 + r with k = round(x / ln2) (read off the mantissa of x*log2(e) + 1.5*2^23),
# r = x - k*ln2_hi - k*ln2_lo by fused multiply-adds (ln2 split in two floats), |r| <= ln2/2;
# exp(r) by its Taylor series to r^7/7! in Horner form (truncation < 6e-9 relative), then
# scaled by 2^k as two exact exponent multiplications 2^(k/2) * 2^(k - k/2), so results that
# overflow give inf and results that underflow are rounded once into the subnormals.
# |x| >= 104 is clamped to +-104 (exp is inf / 0 there), NaN returns NaN.
# logf: x = 2^e m with m in [sqrt(1/2), sqrt(2)) (integer operations on the bits; subnormals
# scaled by 2^23 first), f = m - 1 (exact), s = f / (2 + f), log(m) = 2 atanh(s) =
# 2s + s R with R = 2z/3 + 2z^2/5 + 2z^3/7 + 2z^4/9, z = s^2 (next term < 3e-9 relative),
# evaluated as f - s (f - R) (2s = f - s f) so the exact f carries the result and the rounding
# errors of s only touch the ~f^2/2 correction; log(x) = e*ln2_hi + (e*ln2_lo + log(m)).
# log(+-0) = -inf, log(x < 0) = NaN, log(inf) = inf.
# Measured against numpy's float64 exp / log rounded to fp32 (tests/kernels/test_loss.py):
# expf within 1 ulp on [-103.9, 88.7] (subnormal results included), logf within 1 ulp on
# positive floats (subnormals included).
#
# Scheduling: the element-wise kernels deal elements round robin to the cores (core k takes
# elements k, k + cores, ... — in groups of 4 for the MSE kernels, the last core also taking the
# n % 4 tail), so cores in step touch different TCDM banks; the combines run on core 0.
#
# vexp, vlog: a0 -> {x, y, n}; mse_partial: {y, t, partial, n}; mse_grad: {y, t, dy, n};
# reduce_sum: {partial, out, count, scale}; ce_partial: {z, y, partial, n};
# ce_combine: {partial, out, count}; ce_grad: {z, y, dz, n, stats}.  a1 = number of cores.
    .include "common.inc"
    .include "loss_math.inc"
    .text
    .globl vexp
    .globl vlog
    .globl mse_partial
    .globl mse_grad
    .globl reduce_sum
    .globl ce_partial
    .globl ce_combine
    .globl ce_grad

# The round-robin split of the elements over the cores: the subroutine split_groups calls
# (common.inc: deal_groups tells what it returns).
.Lshare:
    deal_groups

# fs0-fs11 are the expf constants: spill them below sp (48 bytes) / restore and return.
    fs_spill_routines .Lsave_fs, .Lrestore_fs_ret

    exp_consts_routine .Lexp_consts

# Spill fs0-fs11 into a new 48-byte frame (.Lrestore_fs_ret pops it), then load the expf
# constants into them
.macro exp_enter
    addi sp, sp, -48
    jal t5, .Lsave_fs
    jal t6, .Lexp_consts
.endm

    expf_routine .Lexpf

    logf_routine .Llogf

# ---------------------------------------------------------------------------- math kernels
# y = \f(x) element by element (\f: a routine taking and returning fa0, called with jal t6),
# for this core's elements, dealt one by one; then on to \exit.
.macro vmath f, exit
    split_groups .Lshare, 8, 0
    beqz t3, \exit
    words lw, a0, a3, a4
    add a3, a3, t2
    add a4, a4, t2
    lp.setup x0, t3, .Lelement\@
    flw fa0, 0(a3)
    jal t6, \f
    fsw fa0, 0(a4)
    add a3, a3, t4
.Lelement\@:
    add a4, a4, t4
.endm

vexp:
    exp_enter
    vmath .Lexpf, 9f
9:  j .Lrestore_fs_ret

vlog:
    vmath .Llogf, 9f
9:  ret

# ---------------------------------------------------------------------------- MSE
mse_partial:
    split_groups .Lshare, 12, 2
    words lw, a0, a3, a4         # y, t
    fzero ft8, ft9, ft10, ft11   # four partial sums
    beqz t3, 2f
    add a5, a3, t2
    add a6, a4, t2
    lp.setup x0, t3, 1f
    words flw, a5, ft0, ft1, ft2, ft3
    add a5, a5, t4
    words flw, a6, ft4, ft5, ft6, ft7
    add a6, a6, t4
    lanes fsub.s
    fmadd.s ft8, ft0, ft0, ft8
    fmadd.s ft9, ft1, ft1, ft9
    fmadd.s ft10, ft2, ft2, ft10
1:  fmadd.s ft11, ft3, ft3, ft11
2:  beqz t5, 4f
    add a3, a3, t1
    add a4, a4, t1
    lp.setup x0, t5, 3f
    flw ft0, 0(a3)
    flw ft4, 0(a4)
    addi a3, a3, 4
    addi a4, a4, 4
    fsub.s ft0, ft0, ft4
3:  fmadd.s ft8, ft0, ft0, ft8
4:  fadd.s ft8, ft8, ft9
    fadd.s ft10, ft10, ft11
    fadd.s ft0, ft8, ft10
    core_id t0
    slli t0, t0, 2
    lw a5, 8(a0)
    add a5, a5, t0
    fsw ft0, 0(a5)               # every core writes its slot (0 when idle)
    ret

# mse_grad: (y - t), then scaled by fa0 = 2/n
.macro times_fa0 r
    fmul.s \r, fa0, \r
.endm

mse_grad:
    lw t1, 12(a0)
    fcvt.s.w ft0, t1
    fli fa0, 0x40000000
    fdiv.s fa0, fa0, ft0         # 2/n
    li t5, 2
    jal t6, .Lshare
    map2 fsub.s, post=times_fa0

reduce_sum:
    core_id t0
    bnez t0, 9f                  # core 0 only
    words lw, a0, a2, a3, t1     # partial, out, count
    flw fa0, 12(a0)              # scale
    fmv.w.x ft0, zero
    lp.setup x0, t1, 1f
    flw ft1, 0(a2)
    addi a2, a2, 4
1:  fadd.s ft0, ft0, ft1
    fmul.s ft0, ft0, fa0
    fsw ft0, 0(a3)
9:  ret

# ---------------------------------------------------------------------------- cross entropy
ce_partial:
    exp_enter
    ce_partial_body .Lshare, .Lexpf, .Lrestore_fs_ret

ce_combine:
    core_id t0
    bnez t0, 9f                  # core 0 only
    exp_enter
    words lw, a0, a2, a3, a4     # partial, out, count
    li t0, 0xff800000
    fmv.w.x ft0, t0
    mv a5, a2
    lp.setup x0, a4, 1f          # M = max m_k
    flw ft4, 0(a5)
    addi a5, a5, 16
1:  fmax.s ft0, ft0, ft4
    fmv.w.x ft1, zero            # S
    fmv.w.x ft2, zero            # sy
    fmv.w.x ft3, zero            # T
    fmv.w.x ft8, zero
    mv a5, a2
    lp.setup x0, a4, 3f
    flw ft5, 4(a5)               # s_k
    flw ft6, 8(a5)               # sy_k
    flw ft7, 12(a5)              # u_k
    flw fa0, 0(a5)               # m_k
    feq.s t0, ft5, ft8
    bnez t0, 3f                  # an idle core's slot (its m_k is -inf): nothing to add
    fsub.s fa0, fa0, ft0         # m_k - M
    fadd.s ft2, ft2, ft6
    fmadd.s ft3, ft6, fa0, ft3   # T += sy_k (m_k - M) ...
    fadd.s ft3, ft3, ft7         #      + u_k
    jal t6, .Lexpf
    fmadd.s ft1, ft5, fa0, ft1   # S += s_k exp(m_k - M)
3:  addi a5, a5, 16
    fmv.s fa0, ft1
    jal t6, .Llogf
    fmsub.s fa0, ft2, fa0, ft3   # loss = sy log(S) - T
    fsw fa0, 0(a3)
    fsw ft0, 4(a3)
    fsw ft1, 8(a3)
    fsw ft2, 12(a3)
    j .Lrestore_fs_ret
9:  ret

ce_grad:
    exp_enter
    ce_grad_body .Lshare, .Lexpf, .Lrestore_fs_ret
