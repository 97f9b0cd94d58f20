# RV32F arithmetic: add/sub/mul/div/sqrt and the four fused multiply-adds, every rounding mode
# statically and through frm (dyn), exact fflags after each operation (read and cleared with
# fsflags), signed zeros, subnormals, infinities, canonical NaN, invalid / divide-by-zero /
# overflow / underflow / inexact.  `out` holds (result bits, fflags) per case.
    .option norvc
    .text
    .globl _start
_start:
    la s0, out
    fsflags zero
    # 1/3, static rne
    li t0, 0x3f800000
    fmv.w.x fa1, t0
    li t0, 0x40400000
    fmv.w.x fa2, t0
    fdiv.s fa0, fa1, fa2, rne
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # 1/3, static rtz
    li t0, 0x3f800000
    fmv.w.x fa1, t0
    li t0, 0x40400000
    fmv.w.x fa2, t0
    fdiv.s fa0, fa1, fa2, rtz
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # 1/3, static rdn
    li t0, 0x3f800000
    fmv.w.x fa1, t0
    li t0, 0x40400000
    fmv.w.x fa2, t0
    fdiv.s fa0, fa1, fa2, rdn
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # 1/3, static rup
    li t0, 0x3f800000
    fmv.w.x fa1, t0
    li t0, 0x40400000
    fmv.w.x fa2, t0
    fdiv.s fa0, fa1, fa2, rup
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # 1/3, static rmm
    li t0, 0x3f800000
    fmv.w.x fa1, t0
    li t0, 0x40400000
    fmv.w.x fa2, t0
    fdiv.s fa0, fa1, fa2, rmm
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # -1/3, static rne
    li t0, 0xbf800000
    fmv.w.x fa1, t0
    li t0, 0x40400000
    fmv.w.x fa2, t0
    fdiv.s fa0, fa1, fa2, rne
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # -1/3, static rtz
    li t0, 0xbf800000
    fmv.w.x fa1, t0
    li t0, 0x40400000
    fmv.w.x fa2, t0
    fdiv.s fa0, fa1, fa2, rtz
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # -1/3, static rdn
    li t0, 0xbf800000
    fmv.w.x fa1, t0
    li t0, 0x40400000
    fmv.w.x fa2, t0
    fdiv.s fa0, fa1, fa2, rdn
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # -1/3, static rup
    li t0, 0xbf800000
    fmv.w.x fa1, t0
    li t0, 0x40400000
    fmv.w.x fa2, t0
    fdiv.s fa0, fa1, fa2, rup
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # -1/3, static rmm
    li t0, 0xbf800000
    fmv.w.x fa1, t0
    li t0, 0x40400000
    fmv.w.x fa2, t0
    fdiv.s fa0, fa1, fa2, rmm
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # max + max overflows, rne
    li t0, 0x7f7fffff
    fmv.w.x fa1, t0
    li t0, 0x7f7fffff
    fmv.w.x fa2, t0
    fadd.s fa0, fa1, fa2, rne
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # max + max overflows, rtz
    li t0, 0x7f7fffff
    fmv.w.x fa1, t0
    li t0, 0x7f7fffff
    fmv.w.x fa2, t0
    fadd.s fa0, fa1, fa2, rtz
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # max + max overflows, rdn
    li t0, 0x7f7fffff
    fmv.w.x fa1, t0
    li t0, 0x7f7fffff
    fmv.w.x fa2, t0
    fadd.s fa0, fa1, fa2, rdn
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # max + max overflows, rup
    li t0, 0x7f7fffff
    fmv.w.x fa1, t0
    li t0, 0x7f7fffff
    fmv.w.x fa2, t0
    fadd.s fa0, fa1, fa2, rup
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # max + max overflows, rmm
    li t0, 0x7f7fffff
    fmv.w.x fa1, t0
    li t0, 0x7f7fffff
    fmv.w.x fa2, t0
    fadd.s fa0, fa1, fa2, rmm
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # -max - max overflows, rne
    li t0, 0xff7fffff
    fmv.w.x fa1, t0
    li t0, 0x7f7fffff
    fmv.w.x fa2, t0
    fsub.s fa0, fa1, fa2, rne
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # -max - max overflows, rtz
    li t0, 0xff7fffff
    fmv.w.x fa1, t0
    li t0, 0x7f7fffff
    fmv.w.x fa2, t0
    fsub.s fa0, fa1, fa2, rtz
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # -max - max overflows, rdn
    li t0, 0xff7fffff
    fmv.w.x fa1, t0
    li t0, 0x7f7fffff
    fmv.w.x fa2, t0
    fsub.s fa0, fa1, fa2, rdn
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # -max - max overflows, rup
    li t0, 0xff7fffff
    fmv.w.x fa1, t0
    li t0, 0x7f7fffff
    fmv.w.x fa2, t0
    fsub.s fa0, fa1, fa2, rup
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # -max - max overflows, rmm
    li t0, 0xff7fffff
    fmv.w.x fa1, t0
    li t0, 0x7f7fffff
    fmv.w.x fa2, t0
    fsub.s fa0, fa1, fa2, rmm
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # 1 - 1 = +0 under rne
    li t0, 0x3f800000
    fmv.w.x fa1, t0
    li t0, 0x3f800000
    fmv.w.x fa2, t0
    fsub.s fa0, fa1, fa2, rne
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # 1 - 1 = -0 under rdn (exact zero sum takes - when rounding down)
    li t0, 0x3f800000
    fmv.w.x fa1, t0
    li t0, 0x3f800000
    fmv.w.x fa2, t0
    fsub.s fa0, fa1, fa2, rdn
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # -0 + -0 = -0
    li t0, 0x80000000
    fmv.w.x fa1, t0
    li t0, 0x80000000
    fmv.w.x fa2, t0
    fadd.s fa0, fa1, fa2
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # +0 + -0 = +0 under rne
    li t0, 0x00000000
    fmv.w.x fa1, t0
    li t0, 0x80000000
    fmv.w.x fa2, t0
    fadd.s fa0, fa1, fa2
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # (+0) * (-1) = -0 (rdn; rne is in f_mul_zero_sign.s)
    li t0, 0x00000000
    fmv.w.x fa1, t0
    li t0, 0xbf800000
    fmv.w.x fa2, t0
    fmul.s fa0, fa1, fa2, rdn
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # (-0) * (-0) = +0
    li t0, 0x80000000
    fmv.w.x fa1, t0
    li t0, 0x80000000
    fmv.w.x fa2, t0
    fmul.s fa0, fa1, fa2
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # exact subnormal product 2^-126 * 2^-10: no flags
    li t0, 0x00800000
    fmv.w.x fa1, t0
    li t0, 0x3a800000
    fmv.w.x fa2, t0
    fmul.s fa0, fa1, fa2
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # min subnormal * 0.5 ties to even 0: UF NX
    li t0, 0x00000001
    fmv.w.x fa1, t0
    li t0, 0x3f000000
    fmv.w.x fa2, t0
    fmul.s fa0, fa1, fa2, rne
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # min subnormal * 0.5 rounds up to min subnormal: UF NX
    li t0, 0x00000001
    fmv.w.x fa1, t0
    li t0, 0x3f000000
    fmv.w.x fa2, t0
    fmul.s fa0, fa1, fa2, rup
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # min subnormal * 0.75, rne: 0.75 ulp rounds to 1 ulp, UF NX
    li t0, 0x00000001
    fmv.w.x fa1, t0
    li t0, 0x3f400000
    fmv.w.x fa2, t0
    fmul.s fa0, fa1, fa2, rne
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # subnormal + subnormal exact
    li t0, 0x00000001
    fmv.w.x fa1, t0
    li t0, 0x00000001
    fmv.w.x fa2, t0
    fadd.s fa0, fa1, fa2
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # (1-2^-46) * 2^-126 rounds to the min normal: not tiny after rounding, NX only
    li t0, 0x007fffff
    fmv.w.x fa1, t0
    li t0, 0x3f800001
    fmv.w.x fa2, t0
    fmul.s fa0, fa1, fa2, rne
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # 1 / 0 = +inf, DZ
    li t0, 0x3f800000
    fmv.w.x fa1, t0
    li t0, 0x00000000
    fmv.w.x fa2, t0
    fdiv.s fa0, fa1, fa2
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # -1 / +0 = -inf, DZ
    li t0, 0xbf800000
    fmv.w.x fa1, t0
    li t0, 0x00000000
    fmv.w.x fa2, t0
    fdiv.s fa0, fa1, fa2
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # 0 / 0 = canonical NaN, NV
    li t0, 0x00000000
    fmv.w.x fa1, t0
    li t0, 0x00000000
    fmv.w.x fa2, t0
    fdiv.s fa0, fa1, fa2
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # inf / inf = canonical NaN, NV
    li t0, 0x7f800000
    fmv.w.x fa1, t0
    li t0, 0x7f800000
    fmv.w.x fa2, t0
    fdiv.s fa0, fa1, fa2
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # inf - inf = canonical NaN, NV
    li t0, 0x7f800000
    fmv.w.x fa1, t0
    li t0, 0x7f800000
    fmv.w.x fa2, t0
    fsub.s fa0, fa1, fa2
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # inf * 0 = canonical NaN, NV
    li t0, 0x7f800000
    fmv.w.x fa1, t0
    li t0, 0x00000000
    fmv.w.x fa2, t0
    fmul.s fa0, fa1, fa2
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # qNaN + 1 = canonical NaN (payload dropped), no flag
    li t0, 0x7fc12345
    fmv.w.x fa1, t0
    li t0, 0x3f800000
    fmv.w.x fa2, t0
    fadd.s fa0, fa1, fa2
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # sNaN + 1 = canonical NaN, NV
    li t0, 0x7f800001
    fmv.w.x fa1, t0
    li t0, 0x3f800000
    fmv.w.x fa2, t0
    fadd.s fa0, fa1, fa2
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # inf + 1 = inf exactly
    li t0, 0x7f800000
    fmv.w.x fa1, t0
    li t0, 0x3f800000
    fmv.w.x fa2, t0
    fadd.s fa0, fa1, fa2
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # 1 / inf = +0 exactly
    li t0, 0x3f800000
    fmv.w.x fa1, t0
    li t0, 0x7f800000
    fmv.w.x fa2, t0
    fdiv.s fa0, fa1, fa2
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # sqrt 4 = 2 exact
    li t0, 0x40800000
    fmv.w.x fa1, t0
    fsqrt.s fa0, fa1
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # sqrt 2, rne, NX
    li t0, 0x40000000
    fmv.w.x fa1, t0
    fsqrt.s fa0, fa1, rne
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # sqrt 2, rtz
    li t0, 0x40000000
    fmv.w.x fa1, t0
    fsqrt.s fa0, fa1, rtz
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # sqrt -0 = -0
    li t0, 0x80000000
    fmv.w.x fa1, t0
    fsqrt.s fa0, fa1
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # sqrt -1 = canonical NaN, NV
    li t0, 0xbf800000
    fmv.w.x fa1, t0
    fsqrt.s fa0, fa1
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # sqrt +inf = +inf
    li t0, 0x7f800000
    fmv.w.x fa1, t0
    fsqrt.s fa0, fa1
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # sqrt of the min subnormal 2^-149
    li t0, 0x00000001
    fmv.w.x fa1, t0
    fsqrt.s fa0, fa1
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fmadd fused: (1+2^-23)^2 - (1+2^-22) = 2^-46 (fmsub)
    li t0, 0x3f800001
    fmv.w.x fa1, t0
    li t0, 0x3f800002
    fmv.w.x fa2, t0
    fmsub.s fa0, fa1, fa1, fa2
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fmadd 2*3 + 1 = 7
    li t0, 0x40000000
    fmv.w.x fa1, t0
    li t0, 0x40400000
    fmv.w.x fa2, t0
    li t0, 0x3f800000
    fmv.w.x fa3, t0
    fmadd.s fa0, fa1, fa2, fa3
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fnmadd -(2*3) - 1 = -7
    li t0, 0x40000000
    fmv.w.x fa1, t0
    li t0, 0x40400000
    fmv.w.x fa2, t0
    li t0, 0x3f800000
    fmv.w.x fa3, t0
    fnmadd.s fa0, fa1, fa2, fa3
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fnmsub -(2*3) + 1 = -5
    li t0, 0x40000000
    fmv.w.x fa1, t0
    li t0, 0x40400000
    fmv.w.x fa2, t0
    li t0, 0x3f800000
    fmv.w.x fa3, t0
    fnmsub.s fa0, fa1, fa2, fa3
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fmsub 2*3 - 1 = 5
    li t0, 0x40000000
    fmv.w.x fa1, t0
    li t0, 0x40400000
    fmv.w.x fa2, t0
    li t0, 0x3f800000
    fmv.w.x fa3, t0
    fmsub.s fa0, fa1, fa2, fa3
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fmadd inf*0 + qNaN: NV even with a quiet NaN addend
    li t0, 0x7f800000
    fmv.w.x fa1, t0
    li t0, 0x00000000
    fmv.w.x fa2, t0
    li t0, 0x7fc12345
    fmv.w.x fa3, t0
    fmadd.s fa0, fa1, fa2, fa3
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fmadd 1*1 + qNaN: canonical NaN, no flag
    li t0, 0x3f800000
    fmv.w.x fa1, t0
    li t0, 0x3f800000
    fmv.w.x fa2, t0
    li t0, 0x7fc12345
    fmv.w.x fa3, t0
    fmadd.s fa0, fa1, fa2, fa3
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fmadd x*y - x*y exact zero: +0 (rne)
    li t0, 0x40400000
    fmv.w.x fa1, t0
    li t0, 0x40400000
    fmv.w.x fa2, t0
    li t0, 0x41100000
    fmv.w.x fa3, t0
    fmsub.s fa0, fa1, fa2, fa3
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fmadd x*y - x*y exact zero: -0 (rdn)
    li t0, 0x40400000
    fmv.w.x fa1, t0
    li t0, 0x40400000
    fmv.w.x fa2, t0
    li t0, 0x41100000
    fmv.w.x fa3, t0
    fmsub.s fa0, fa1, fa2, fa3, rdn
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fnmadd overflow to -inf, rne
    li t0, 0x7f7fffff
    fmv.w.x fa1, t0
    li t0, 0x40000000
    fmv.w.x fa2, t0
    li t0, 0x3f800000
    fmv.w.x fa3, t0
    fnmadd.s fa0, fa1, fa2, fa3
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fdiv 1/3, rup
    li t0, 0x3f800000
    fmv.w.x fa1, t0
    li t0, 0x40400000
    fmv.w.x fa2, t0
    fdiv.s fa0, fa1, fa2, rup
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8

    # the same 1/3 and -1/3 with the rounding mode from frm (dyn)
    fsrmi 0
    li t0, 0x3f800000
    fmv.w.x fa1, t0
    li t0, 0x40400000
    fmv.w.x fa2, t0
    fdiv.s fa0, fa1, fa2
    fneg.s fa3, fa1
    fdiv.s fa4, fa3, fa2, dyn
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fmv.x.w t1, fa4
    sw t1, 4(s0)
    addi s0, s0, 8
    fsrmi 1
    li t0, 0x3f800000
    fmv.w.x fa1, t0
    li t0, 0x40400000
    fmv.w.x fa2, t0
    fdiv.s fa0, fa1, fa2
    fneg.s fa3, fa1
    fdiv.s fa4, fa3, fa2, dyn
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fmv.x.w t1, fa4
    sw t1, 4(s0)
    addi s0, s0, 8
    fsrmi 2
    li t0, 0x3f800000
    fmv.w.x fa1, t0
    li t0, 0x40400000
    fmv.w.x fa2, t0
    fdiv.s fa0, fa1, fa2
    fneg.s fa3, fa1
    fdiv.s fa4, fa3, fa2, dyn
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fmv.x.w t1, fa4
    sw t1, 4(s0)
    addi s0, s0, 8
    fsrmi 3
    li t0, 0x3f800000
    fmv.w.x fa1, t0
    li t0, 0x40400000
    fmv.w.x fa2, t0
    fdiv.s fa0, fa1, fa2
    fneg.s fa3, fa1
    fdiv.s fa4, fa3, fa2, dyn
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fmv.x.w t1, fa4
    sw t1, 4(s0)
    addi s0, s0, 8
    fsrmi 4
    li t0, 0x3f800000
    fmv.w.x fa1, t0
    li t0, 0x40400000
    fmv.w.x fa2, t0
    fdiv.s fa0, fa1, fa2
    fneg.s fa3, fa1
    fdiv.s fa4, fa3, fa2, dyn
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fmv.x.w t1, fa4
    sw t1, 4(s0)
    addi s0, s0, 8
    fsflags t2, zero
    sw t2, 0(s0)              # NX from all ten divisions
    fsrmi 0
    # flags accrue: an overflow and a divide-by-zero without reading in between
    li t0, 0x7f7fffff
    fmv.w.x fa1, t0
    fadd.s fa0, fa1, fa1
    fmv.w.x fa2, zero
    fdiv.s fa0, fa1, fa2
    frflags t2
    sw t2, 4(s0)
    csrr t2, fcsr
    sw t2, 8(s0)
    li a0, 0
    li a7, 93
    ecall
    .data
out:
    .space 544
