# RV32F compare, min/max, sign injection and classify: the 2.2+ fmin/fmax NaN rules (one NaN:
# the other operand; two NaNs: canonical NaN; NV only for a signalling NaN), -0 < +0 in min/max
# but equal in feq/flt/fle, quiet feq vs signalling flt/fle, all ten fclass classes.
# `out` holds (result, fflags) per case.
    .option norvc
    .text
    .globl _start
_start:
    la s0, out
    fsflags zero
    # fmin(1, 2) = 1
    li t0, 0x3f800000
    fmv.w.x fa1, t0
    li t0, 0x40000000
    fmv.w.x fa2, t0
    fmin.s fa0, fa1, fa2
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fmax(1, 2) = 2
    li t0, 0x3f800000
    fmv.w.x fa1, t0
    li t0, 0x40000000
    fmv.w.x fa2, t0
    fmax.s fa0, fa1, fa2
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fmin(-0, +0) = -0 (-0 is less)
    li t0, 0x80000000
    fmv.w.x fa1, t0
    li t0, 0x00000000
    fmv.w.x fa2, t0
    fmin.s fa0, fa1, fa2
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fmin(+0, -0) = -0
    li t0, 0x00000000
    fmv.w.x fa1, t0
    li t0, 0x80000000
    fmv.w.x fa2, t0
    fmin.s fa0, fa1, fa2
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fmax(-0, +0) = +0
    li t0, 0x80000000
    fmv.w.x fa1, t0
    li t0, 0x00000000
    fmv.w.x fa2, t0
    fmax.s fa0, fa1, fa2
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fmax(+0, -0) = +0
    li t0, 0x00000000
    fmv.w.x fa1, t0
    li t0, 0x80000000
    fmv.w.x fa2, t0
    fmax.s fa0, fa1, fa2
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fmin(qNaN, 1) = 1 (the non-NaN operand), no flag
    li t0, 0x7fc12345
    fmv.w.x fa1, t0
    li t0, 0x3f800000
    fmv.w.x fa2, t0
    fmin.s fa0, fa1, fa2
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fmax(-1, qNaN) = -1
    li t0, 0xbf800000
    fmv.w.x fa1, t0
    li t0, 0x7fc00000
    fmv.w.x fa2, t0
    fmax.s fa0, fa1, fa2
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fmin(sNaN, 1) = 1, NV
    li t0, 0x7f800001
    fmv.w.x fa1, t0
    li t0, 0x3f800000
    fmv.w.x fa2, t0
    fmin.s fa0, fa1, fa2
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fmax(1, sNaN) = 1, NV
    li t0, 0x3f800000
    fmv.w.x fa1, t0
    li t0, 0xffa00000
    fmv.w.x fa2, t0
    fmax.s fa0, fa1, fa2
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fmin(qNaN, qNaN) = canonical NaN, no flag
    li t0, 0x7fc12345
    fmv.w.x fa1, t0
    li t0, 0x7fc12345
    fmv.w.x fa2, t0
    fmin.s fa0, fa1, fa2
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fmax(sNaN, qNaN) = canonical NaN, NV
    li t0, 0x7f800001
    fmv.w.x fa1, t0
    li t0, 0x7fc12345
    fmv.w.x fa2, t0
    fmax.s fa0, fa1, fa2
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fmin(-inf, 1) = -inf
    li t0, 0xff800000
    fmv.w.x fa1, t0
    li t0, 0x3f800000
    fmv.w.x fa2, t0
    fmin.s fa0, fa1, fa2
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fsgnj: magnitude of 2, sign of -1
    li t0, 0x40000000
    fmv.w.x fa1, t0
    li t0, 0xbf800000
    fmv.w.x fa2, t0
    fsgnj.s fa0, fa1, fa2
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fsgnjn: magnitude of 2, opposite sign of -1
    li t0, 0x40000000
    fmv.w.x fa1, t0
    li t0, 0xbf800000
    fmv.w.x fa2, t0
    fsgnjn.s fa0, fa1, fa2
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fsgnjx: sign of -2 xor sign of -1
    li t0, 0xc0000000
    fmv.w.x fa1, t0
    li t0, 0xbf800000
    fmv.w.x fa2, t0
    fsgnjx.s fa0, fa1, fa2
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fsgnjn of a sNaN only flips the sign, no flag, no quieting
    li t0, 0x7f800001
    fmv.w.x fa1, t0
    fsgnjn.s fa0, fa1, fa1
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fabs of -inf (fsgnjx x, x)
    li t0, 0xff800000
    fmv.w.x fa1, t0
    fabs.s fa0, fa1
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # feq(1, 1) = 1
    li t0, 0x3f800000
    fmv.w.x fa1, t0
    li t0, 0x3f800000
    fmv.w.x fa2, t0
    feq.s a0, fa1, fa2
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # feq(-0, +0) = 1
    li t0, 0x80000000
    fmv.w.x fa1, t0
    li t0, 0x00000000
    fmv.w.x fa2, t0
    feq.s a0, fa1, fa2
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # feq(qNaN, qNaN) = 0, no flag (quiet comparison)
    li t0, 0x7fc00000
    fmv.w.x fa1, t0
    li t0, 0x7fc00000
    fmv.w.x fa2, t0
    feq.s a0, fa1, fa2
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # feq(sNaN, 1) = 0, NV
    li t0, 0x7f800001
    fmv.w.x fa1, t0
    li t0, 0x3f800000
    fmv.w.x fa2, t0
    feq.s a0, fa1, fa2
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # flt(-1, 1) = 1
    li t0, 0xbf800000
    fmv.w.x fa1, t0
    li t0, 0x3f800000
    fmv.w.x fa2, t0
    flt.s a0, fa1, fa2
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # flt(-0, +0) = 0
    li t0, 0x80000000
    fmv.w.x fa1, t0
    li t0, 0x00000000
    fmv.w.x fa2, t0
    flt.s a0, fa1, fa2
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # flt(qNaN, 1) = 0, NV (signalling comparison)
    li t0, 0x7fc00000
    fmv.w.x fa1, t0
    li t0, 0x3f800000
    fmv.w.x fa2, t0
    flt.s a0, fa1, fa2
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fle(+0, -0) = 1
    li t0, 0x00000000
    fmv.w.x fa1, t0
    li t0, 0x80000000
    fmv.w.x fa2, t0
    fle.s a0, fa1, fa2
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fle(1, qNaN) = 0, NV
    li t0, 0x3f800000
    fmv.w.x fa1, t0
    li t0, 0x7fc00000
    fmv.w.x fa2, t0
    fle.s a0, fa1, fa2
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fle(-inf, -inf) = 1
    li t0, 0xff800000
    fmv.w.x fa1, t0
    li t0, 0xff800000
    fmv.w.x fa2, t0
    fle.s a0, fa1, fa2
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fclass -inf: bit 0
    li t0, 0xff800000
    fmv.w.x fa1, t0
    fclass.s a0, fa1
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fclass -1 (negative normal): bit 1
    li t0, 0xbf800000
    fmv.w.x fa1, t0
    fclass.s a0, fa1
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fclass negative subnormal: bit 2
    li t0, 0x807fffff
    fmv.w.x fa1, t0
    fclass.s a0, fa1
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fclass -0: bit 3
    li t0, 0x80000000
    fmv.w.x fa1, t0
    fclass.s a0, fa1
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fclass +0: bit 4
    li t0, 0x00000000
    fmv.w.x fa1, t0
    fclass.s a0, fa1
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fclass positive subnormal: bit 5
    li t0, 0x00000001
    fmv.w.x fa1, t0
    fclass.s a0, fa1
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fclass +1 (positive normal): bit 6
    li t0, 0x3f800000
    fmv.w.x fa1, t0
    fclass.s a0, fa1
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fclass +inf: bit 7
    li t0, 0x7f800000
    fmv.w.x fa1, t0
    fclass.s a0, fa1
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fclass sNaN: bit 8
    li t0, 0x7f800001
    fmv.w.x fa1, t0
    fclass.s a0, fa1
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fclass qNaN: bit 9
    li t0, 0x7fc00000
    fmv.w.x fa1, t0
    fclass.s a0, fa1
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fclass negative sNaN: bit 8 (sign ignored)
    li t0, 0xffa00000
    fmv.w.x fa1, t0
    fclass.s a0, fa1
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fmv.x.w of -0
    li t0, 0x80000000
    fmv.w.x fa1, t0
    fmv.x.w a0, fa1
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8

    li a0, 0
    li a7, 93
    ecall
    .data
out:
    .space 384
