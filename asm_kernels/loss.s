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
    .text
    .globl vexp
    .globl vlog
    .globl mse_partial
    .globl mse_grad
    .globl reduce_sum
    .globl ce_partial
    .globl ce_combine
    .globl ce_grad

# The split (as in elementwise.s): t1 = n elements, groups of 2^t5.  Returns t2 = byte offset
# of this core's first group, t3 = its number of groups, t4 = byte distance between its groups,
# t1 = byte offset of the tail, t5 = tail elements for this core.  Clobbers t0, a2; returns
# through t6.
.Lshare:
    csrr t0, mhartid
    andi t0, t0, 0x1f
    srl t3, t1, t5
    sll t2, t3, t5
    sub t1, t1, t2
    slli a2, t2, 2
    addi t5, t5, 2
    sll t4, a1, t5
    sll t2, t0, t5
    add t3, t3, a1
    addi t3, t3, -1
    sub t3, t3, t0
    divu t3, t3, a1
    addi t0, t0, 1
    li t5, 0
    bne t0, a1, 1f
    mv t5, t1
1:  mv t1, a2
    jr t6

# fs0-fs11 are the expf constants: spill them below sp (48 bytes) / restore and return.
.Lsave_fs:                       # returns through t5
    fsw fs0, 0(sp)
    fsw fs1, 4(sp)
    fsw fs2, 8(sp)
    fsw fs3, 12(sp)
    fsw fs4, 16(sp)
    fsw fs5, 20(sp)
    fsw fs6, 24(sp)
    fsw fs7, 28(sp)
    fsw fs8, 32(sp)
    fsw fs9, 36(sp)
    fsw fs10, 40(sp)
    fsw fs11, 44(sp)
    jr t5
.Lrestore_fs_ret:
    flw fs0, 0(sp)
    flw fs1, 4(sp)
    flw fs2, 8(sp)
    flw fs3, 12(sp)
    flw fs4, 16(sp)
    flw fs5, 20(sp)
    flw fs6, 24(sp)
    flw fs7, 28(sp)
    flw fs8, 32(sp)
    flw fs9, 36(sp)
    flw fs10, 40(sp)
    flw fs11, 44(sp)
    addi sp, sp, 48
    ret

.Lexp_consts:                    # clobbers t0; returns through t6
    li t0, 0x3fb8aa3b
    fmv.w.x fs0, t0              # log2(e)
    li t0, 0x4b400000
    fmv.w.x fs1, t0              # 1.5 * 2^23
    li t0, 0x3f317200
    fmv.w.x fs2, t0              # ln2_hi = 0.693145751953125 (15 significant bits)
    li t0, 0x35bfbe8e
    fmv.w.x fs3, t0              # ln2_lo = ln2 - ln2_hi
    li t0, 0x3f800000
    fmv.w.x fs4, t0              # 1
    li t0, 0x3f000000
    fmv.w.x fs5, t0              # 1/2!
    li t0, 0x3e2aaaab
    fmv.w.x fs6, t0              # 1/3!
    li t0, 0x3d2aaaab
    fmv.w.x fs7, t0              # 1/4!
    li t0, 0x3c088889
    fmv.w.x fs8, t0              # 1/5!
    li t0, 0x3ab60b61
    fmv.w.x fs9, t0              # 1/6!
    li t0, 0x39500d01
    fmv.w.x fs10, t0             # 1/7!
    li t0, 0x42d00000
    fmv.w.x fs11, t0             # 104
    jr t6

# fa0 = expf(fa0), constants in fs0-fs11; clobbers t0-t2, ft10, ft11; returns through t6.
.Lexpf:
    fabs.s ft10, fa0
    flt.s t0, ft10, fs11         # |x| < 104 (false for NaN)
    beqz t0, 5f
1:  fmadd.s ft10, fa0, fs0, fs1  # x*log2(e) + 1.5*2^23: round(x / ln2) in the low bits
    fmv.x.w t0, ft10
    fsub.s ft10, ft10, fs1       # k, as a float (exact)
    fnmsub.s ft11, ft10, fs2, fa0    # r = x - k*ln2_hi
    fnmsub.s ft11, ft10, fs3, ft11   #     - k*ln2_lo
    fmadd.s ft10, fs10, ft11, fs9    # exp(r) = 1 + r(1 + r(1/2 + r(1/6 + ... r/7!)))
    fmadd.s ft10, ft10, ft11, fs8
    fmadd.s ft10, ft10, ft11, fs7
    fmadd.s ft10, ft10, ft11, fs6
    fmadd.s ft10, ft10, ft11, fs5
    fmadd.s ft10, ft10, ft11, fs4
    fmadd.s ft10, ft10, ft11, fs4
    li t1, 0x4b400000
    sub t0, t0, t1               # k
    srai t1, t0, 1               # k1 = floor(k/2), k2 = k - k1: both normal exponents
    sub t0, t0, t1
    addi t1, t1, 127
    slli t1, t1, 23
    fmv.w.x ft11, t1
    fmul.s ft10, ft10, ft11      # * 2^k1 (exact)
    addi t0, t0, 127
    slli t0, t0, 23
    fmv.w.x ft11, t0
    fmul.s fa0, ft10, ft11       # * 2^k2 (the one rounding of an overflow or a subnormal)
    jr t6
5:  feq.s t0, fa0, fa0
    beqz t0, 6f
    fsgnj.s fa0, fs11, fa0       # +-104: exp is inf / 0 from there on
    j 1b
6:  fadd.s fa0, fa0, fa0         # NaN in, quiet NaN out
    jr t6

# fa0 = logf(fa0); clobbers t0-t3, ft6-ft11; returns through t6.
.Llogf:
    fmv.x.w t0, fa0
    li t1, 0x00800000
    sub t2, t0, t1
    li t1, 0x7f000000
    bgeu t2, t1, 5f              # +-0, negative, subnormal, inf, NaN
    li t2, 0                     # exponent adjustment (subnormals)
1:  li t1, 0x3f3504f3            # sqrt(1/2)
    sub t1, t0, t1
    srai t1, t1, 23              # e
    slli t3, t1, 23
    sub t0, t0, t3               # m = x / 2^e in [sqrt(1/2), sqrt(2))
    add t1, t1, t2
    fmv.w.x ft8, t0
    fcvt.s.w ft9, t1             # e, as a float
    li t0, 0x3f800000
    fmv.w.x ft10, t0
    fsub.s ft8, ft8, ft10        # f = m - 1 (exact)
    fadd.s ft11, ft10, ft10
    fadd.s ft11, ft11, ft8
    fdiv.s ft6, ft8, ft11        # s = f / (2 + f)
    fmul.s ft10, ft6, ft6        # z = s^2
    li t0, 0x3e638e39
    fmv.w.x ft11, t0             # 2/9
    li t0, 0x3e924925
    fmv.w.x ft7, t0              # 2/7
    fmadd.s ft11, ft11, ft10, ft7
    li t0, 0x3ecccccd
    fmv.w.x ft7, t0              # 2/5
    fmadd.s ft11, ft11, ft10, ft7
    li t0, 0x3f2aaaab
    fmv.w.x ft7, t0              # 2/3
    fmadd.s ft11, ft11, ft10, ft7
    fmul.s ft11, ft11, ft10      # R
    fsub.s ft11, ft8, ft11
    fnmsub.s ft11, ft6, ft11, ft8    # log(m) = 2s + s R = f - s (f - R), since 2s = f - s f
    li t0, 0x35bfbe8e
    fmv.w.x ft7, t0              # ln2_lo
    fmadd.s ft11, ft9, ft7, ft11
    li t0, 0x3f317200
    fmv.w.x ft7, t0              # ln2_hi
    fmadd.s fa0, ft9, ft7, ft11
    jr t6
5:  slli t1, t0, 1
    beqz t1, 6f                  # +-0
    bltz t0, 7f                  # negative (or a NaN with the sign bit)
    li t1, 0x7f800000
    bgeu t0, t1, 8f              # inf, NaN
    li t1, 0x4b000000
    fmv.w.x ft10, t1
    fmul.s ft10, fa0, ft10       # subnormal * 2^23 is normal
    fmv.x.w t0, ft10
    li t2, -23
    j 1b
6:  li t0, 0xff800000            # -inf
    fmv.w.x fa0, t0
    jr t6
7:  li t0, 0x7fc00000            # NaN
    fmv.w.x fa0, t0
    jr t6
8:  fadd.s fa0, fa0, fa0
    jr t6

# ---------------------------------------------------------------------------- math kernels
vexp:
    addi sp, sp, -48
    jal t5, .Lsave_fs
    jal t6, .Lexp_consts
    lw t1, 8(a0)
    li t5, 0
    jal t6, .Lshare
    beqz t3, 9f
    lw a3, 0(a0)
    lw a4, 4(a0)
    add a3, a3, t2
    add a4, a4, t2
    lp.setup x0, t3, 1f
    flw fa0, 0(a3)
    jal t6, .Lexpf
    fsw fa0, 0(a4)
    add a3, a3, t4
1:  add a4, a4, t4
9:  j .Lrestore_fs_ret

vlog:
    lw t1, 8(a0)
    li t5, 0
    jal t6, .Lshare
    beqz t3, 9f
    lw a3, 0(a0)
    lw a4, 4(a0)
    add a3, a3, t2
    add a4, a4, t2
    lp.setup x0, t3, 1f
    flw fa0, 0(a3)
    jal t6, .Llogf
    fsw fa0, 0(a4)
    add a3, a3, t4
1:  add a4, a4, t4
9:  ret

# ---------------------------------------------------------------------------- MSE
mse_partial:
    lw t1, 12(a0)
    li t5, 2
    jal t6, .Lshare
    lw a3, 0(a0)                 # y
    lw a4, 4(a0)                 # t
    fmv.w.x ft0, zero            # four partial sums
    fmv.w.x ft1, zero
    fmv.w.x ft2, zero
    fmv.w.x ft3, zero
    beqz t3, 2f
    add a5, a3, t2
    add a6, a4, t2
    lp.setup x0, t3, 1f
    flw ft4, 0(a5)
    flw ft5, 4(a5)
    flw ft6, 8(a5)
    flw ft7, 12(a5)
    add a5, a5, t4
    flw ft8, 0(a6)
    flw ft9, 4(a6)
    flw ft10, 8(a6)
    flw ft11, 12(a6)
    add a6, a6, t4
    fsub.s ft4, ft4, ft8
    fsub.s ft5, ft5, ft9
    fsub.s ft6, ft6, ft10
    fsub.s ft7, ft7, ft11
    fmadd.s ft0, ft4, ft4, ft0
    fmadd.s ft1, ft5, ft5, ft1
    fmadd.s ft2, ft6, ft6, ft2
1:  fmadd.s ft3, ft7, ft7, ft3
2:  beqz t5, 4f
    add a3, a3, t1
    add a4, a4, t1
    lp.setup x0, t5, 3f
    flw ft4, 0(a3)
    flw ft8, 0(a4)
    addi a3, a3, 4
    addi a4, a4, 4
    fsub.s ft4, ft4, ft8
3:  fmadd.s ft0, ft4, ft4, ft0
4:  fadd.s ft0, ft0, ft1
    fadd.s ft2, ft2, ft3
    fadd.s ft0, ft0, ft2
    csrr t0, mhartid
    andi t0, t0, 0x1f
    slli t0, t0, 2
    lw a5, 8(a0)
    add a5, a5, t0
    fsw ft0, 0(a5)               # every core writes its slot (0 when idle)
    ret

mse_grad:
    lw t1, 12(a0)
    fcvt.s.w ft0, t1
    li t0, 0x40000000
    fmv.w.x fa0, t0
    fdiv.s fa0, fa0, ft0         # 2/n
    li t5, 2
    jal t6, .Lshare
    lw a3, 0(a0)                 # y
    lw a4, 4(a0)                 # t
    lw a5, 8(a0)                 # dy
    beqz t3, 2f
    add a6, a3, t2
    add a7, a4, t2
    add t2, a5, t2
    lp.setup x0, t3, 1f
    flw ft4, 0(a6)
    flw ft5, 4(a6)
    flw ft6, 8(a6)
    flw ft7, 12(a6)
    add a6, a6, t4
    flw ft8, 0(a7)
    flw ft9, 4(a7)
    flw ft10, 8(a7)
    flw ft11, 12(a7)
    add a7, a7, t4
    fsub.s ft4, ft4, ft8
    fsub.s ft5, ft5, ft9
    fsub.s ft6, ft6, ft10
    fsub.s ft7, ft7, ft11
    fmul.s ft4, fa0, ft4
    fmul.s ft5, fa0, ft5
    fmul.s ft6, fa0, ft6
    fmul.s ft7, fa0, ft7
    fsw ft4, 0(t2)
    fsw ft5, 4(t2)
    fsw ft6, 8(t2)
    fsw ft7, 12(t2)
1:  add t2, t2, t4
2:  beqz t5, 9f
    add a3, a3, t1
    add a4, a4, t1
    add a5, a5, t1
    lp.setup x0, t5, 3f
    flw ft4, 0(a3)
    flw ft8, 0(a4)
    addi a3, a3, 4
    addi a4, a4, 4
    fsub.s ft4, ft4, ft8
    fmul.s ft4, fa0, ft4
    fsw ft4, 0(a5)
3:  addi a5, a5, 4
9:  ret

reduce_sum:
    csrr t0, mhartid
    andi t0, t0, 0x1f
    bnez t0, 9f                  # core 0 only
    lw a2, 0(a0)                 # partial
    lw a3, 4(a0)                 # out
    lw t1, 8(a0)                 # count
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
    addi sp, sp, -48
    jal t5, .Lsave_fs
    jal t6, .Lexp_consts
    lw t1, 12(a0)
    li t5, 0
    jal t6, .Lshare
    lw a3, 0(a0)                 # z
    lw a4, 4(a0)                 # y
    add a3, a3, t2
    add a4, a4, t2
    li t0, 0xff800000
    fmv.w.x ft0, t0              # m = -inf
    fmv.w.x ft1, zero            # s
    fmv.w.x ft2, zero            # sy
    fmv.w.x ft3, zero            # u
    beqz t3, 3f
    mv a5, a3
    lp.setup x0, t3, 1f          # the core's max logit
    flw ft4, 0(a5)
    add a5, a5, t4
1:  fmax.s ft0, ft0, ft4
    lp.setup x0, t3, 2f
    flw fa0, 0(a3)
    flw ft5, 0(a4)
    add a3, a3, t4
    add a4, a4, t4
    fsub.s fa0, fa0, ft0         # z - m
    fadd.s ft2, ft2, ft5         # sy += y
    fmadd.s ft3, ft5, fa0, ft3   # u += y (z - m)
    jal t6, .Lexpf
2:  fadd.s ft1, ft1, fa0         # s += exp(z - m)
3:  csrr t0, mhartid
    andi t0, t0, 0x1f
    slli t0, t0, 4
    lw a5, 8(a0)
    add a5, a5, t0
    fsw ft0, 0(a5)
    fsw ft1, 4(a5)
    fsw ft2, 8(a5)
    fsw ft3, 12(a5)
    j .Lrestore_fs_ret

ce_combine:
    csrr t0, mhartid
    andi t0, t0, 0x1f
    bnez t0, 9f                  # core 0 only
    addi sp, sp, -48
    jal t5, .Lsave_fs
    jal t6, .Lexp_consts
    lw a2, 0(a0)                 # partial
    lw a3, 4(a0)                 # out
    lw a4, 8(a0)                 # count
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
    addi sp, sp, -48
    jal t5, .Lsave_fs
    jal t6, .Lexp_consts
    lw t0, 16(a0)                # stats = [loss, M, S, sy]
    flw ft0, 4(t0)
    flw ft1, 8(t0)
    flw ft2, 12(t0)
    fdiv.s ft1, ft2, ft1         # sy / S
    lw t1, 12(a0)
    li t5, 0
    jal t6, .Lshare
    beqz t3, 9f
    lw a3, 0(a0)                 # z
    lw a4, 4(a0)                 # y
    lw a5, 8(a0)                 # dz
    add a3, a3, t2
    add a4, a4, t2
    add a5, a5, t2
    lp.setup x0, t3, 1f
    flw fa0, 0(a3)
    flw ft3, 0(a4)
    add a3, a3, t4
    add a4, a4, t4
    fsub.s fa0, fa0, ft0         # z - M
    jal t6, .Lexpf
    fmsub.s fa0, fa0, ft1, ft3   # exp(z - M) sy / S - y
    fsw fa0, 0(a5)
1:  add a5, a5, t4
9:  j .Lrestore_fs_ret
