# RV32F conversions: fcvt.w(u).s in every rounding mode with saturation (out-of-range values
# and NaN give the documented extremes and set NV; inexact in-range values set NX only),
# fcvt.s.w(u) rounding of integers wider than 24 bits, fmv.x.w / fmv.w.x / flw / fsw moving bits
# unchanged (NaN payloads included).  `out` holds (result, fflags) per case.
    .option norvc
    .text
    .globl _start
_start:
    la s0, out
    fsflags zero
    # fcvt.w.s 2.5, rne
    li t0, 0x40200000
    fmv.w.x fa1, t0
    fcvt.w.s a0, fa1, rne
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.w.s 2.5, rtz
    li t0, 0x40200000
    fmv.w.x fa1, t0
    fcvt.w.s a0, fa1, rtz
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.w.s 2.5, rdn
    li t0, 0x40200000
    fmv.w.x fa1, t0
    fcvt.w.s a0, fa1, rdn
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.w.s 2.5, rup
    li t0, 0x40200000
    fmv.w.x fa1, t0
    fcvt.w.s a0, fa1, rup
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.w.s 2.5, rmm
    li t0, 0x40200000
    fmv.w.x fa1, t0
    fcvt.w.s a0, fa1, rmm
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.w.s -2.5, rne
    li t0, 0xc0200000
    fmv.w.x fa1, t0
    fcvt.w.s a0, fa1, rne
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.w.s -2.5, rtz
    li t0, 0xc0200000
    fmv.w.x fa1, t0
    fcvt.w.s a0, fa1, rtz
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.w.s -2.5, rdn
    li t0, 0xc0200000
    fmv.w.x fa1, t0
    fcvt.w.s a0, fa1, rdn
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.w.s -2.5, rup
    li t0, 0xc0200000
    fmv.w.x fa1, t0
    fcvt.w.s a0, fa1, rup
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.w.s -2.5, rmm
    li t0, 0xc0200000
    fmv.w.x fa1, t0
    fcvt.w.s a0, fa1, rmm
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.w.s -1.5, rne
    li t0, 0xbfc00000
    fmv.w.x fa1, t0
    fcvt.w.s a0, fa1, rne
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.w.s -1.5, rtz
    li t0, 0xbfc00000
    fmv.w.x fa1, t0
    fcvt.w.s a0, fa1, rtz
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.w.s -1.5, rdn
    li t0, 0xbfc00000
    fmv.w.x fa1, t0
    fcvt.w.s a0, fa1, rdn
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.w.s -1.5, rup
    li t0, 0xbfc00000
    fmv.w.x fa1, t0
    fcvt.w.s a0, fa1, rup
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.w.s -1.5, rmm
    li t0, 0xbfc00000
    fmv.w.x fa1, t0
    fcvt.w.s a0, fa1, rmm
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.w.s 2^31 saturates to INT_MAX, NV
    li t0, 0x4f000000
    fmv.w.x fa1, t0
    fcvt.w.s a0, fa1, rtz
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.w.s -2^31 is exact
    li t0, 0xcf000000
    fmv.w.x fa1, t0
    fcvt.w.s a0, fa1, rtz
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.w.s -2^31 - 256 (next float down) saturates to INT_MIN, NV
    li t0, 0xcf000001
    fmv.w.x fa1, t0
    fcvt.w.s a0, fa1, rtz
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.w.s +inf -> INT_MAX, NV
    li t0, 0x7f800000
    fmv.w.x fa1, t0
    fcvt.w.s a0, fa1, rtz
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.w.s -inf -> INT_MIN, NV
    li t0, 0xff800000
    fmv.w.x fa1, t0
    fcvt.w.s a0, fa1, rtz
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.w.s qNaN -> INT_MAX, NV
    li t0, 0x7fc00000
    fmv.w.x fa1, t0
    fcvt.w.s a0, fa1, rtz
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.w.s negative NaN -> INT_MAX too, NV
    li t0, 0xffc00000
    fmv.w.x fa1, t0
    fcvt.w.s a0, fa1, rtz
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.w.s -0 -> 0, exact
    li t0, 0x80000000
    fmv.w.x fa1, t0
    fcvt.w.s a0, fa1
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.w.s 0.5 rne -> 0, NX
    li t0, 0x3f000000
    fmv.w.x fa1, t0
    fcvt.w.s a0, fa1, rne
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.w.s min subnormal rup -> 1, NX
    li t0, 0x00000001
    fmv.w.x fa1, t0
    fcvt.w.s a0, fa1, rup
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.wu.s 2^32 saturates to 0xffffffff, NV
    li t0, 0x4f800000
    fmv.w.x fa1, t0
    fcvt.wu.s a0, fa1, rtz
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.wu.s largest float below 2^32 is exact
    li t0, 0x4f7fffff
    fmv.w.x fa1, t0
    fcvt.wu.s a0, fa1, rtz
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.wu.s -1 -> 0, NV
    li t0, 0xbf800000
    fmv.w.x fa1, t0
    fcvt.wu.s a0, fa1, rtz
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.wu.s -0.5 rtz -> 0, only NX (rounds to 0, in range)
    li t0, 0xbf000000
    fmv.w.x fa1, t0
    fcvt.wu.s a0, fa1, rtz
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.wu.s -0.5 rdn -> -1 out of range: 0, NV
    li t0, 0xbf000000
    fmv.w.x fa1, t0
    fcvt.wu.s a0, fa1, rdn
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.wu.s -inf -> 0, NV
    li t0, 0xff800000
    fmv.w.x fa1, t0
    fcvt.wu.s a0, fa1
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.wu.s +inf -> 0xffffffff, NV
    li t0, 0x7f800000
    fmv.w.x fa1, t0
    fcvt.wu.s a0, fa1
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.wu.s NaN -> 0xffffffff, NV
    li t0, 0x7f800001
    fmv.w.x fa1, t0
    fcvt.wu.s a0, fa1
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.wu.s 3.7 rmm -> 4
    li t0, 0x406ccccd
    fmv.w.x fa1, t0
    fcvt.wu.s a0, fa1, rmm
    sw a0, 0(s0)
    fsflags t2, zero          # read and clear the flags
    sw t2, 4(s0)
    addi s0, s0, 8

    # fcvt.s.w 2^24+1 rne -> 2^24 (tie to even), NX
    li a1, 0x01000001
    fcvt.s.w fa0, a1, rne
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.s.w 2^24+1 rup -> 2^24+2, NX
    li a1, 0x01000001
    fcvt.s.w fa0, a1, rup
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.s.w 2^24+3 rne -> 2^24+4 (tie to even), NX
    li a1, 0x01000003
    fcvt.s.w fa0, a1, rne
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.s.w INT_MIN exact
    li a1, 0x80000000
    fcvt.s.w fa0, a1, rne
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.s.w -1
    li a1, 0xffffffff
    fcvt.s.w fa0, a1, rne
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.s.w INT_MAX rtz -> 2^31 - 128, NX
    li a1, 0x7fffffff
    fcvt.s.w fa0, a1, rtz
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.s.w 0 -> +0
    li a1, 0x00000000
    fcvt.s.w fa0, a1, rdn
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.s.wu 0xffffffff rne -> 2^32, NX
    li a1, 0xffffffff
    fcvt.s.wu fa0, a1, rne
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.s.wu 0xffffffff rdn -> 2^32 - 256, NX
    li a1, 0xffffffff
    fcvt.s.wu fa0, a1, rdn
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.s.wu 0x80000000 exact
    li a1, 0x80000000
    fcvt.s.wu fa0, a1, rmm
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero
    sw t2, 4(s0)
    addi s0, s0, 8
    # fcvt.s.w -(2^24+1) rdn -> -(2^24+2), NX
    li a1, 0xfeffffff
    fcvt.s.w fa0, a1, rdn
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsflags t2, zero
    sw t2, 4(s0)
    addi s0, s0, 8
    # fmv.w.x / fmv.x.w and flw / fsw keep a signalling NaN's bits and raise nothing
    li a1, 0x7f800123
    fmv.w.x fa0, a1
    fmv.x.w t1, fa0
    sw t1, 0(s0)
    fsw fa0, 8(s0)
    flw fa5, 8(s0)
    fmv.x.w t1, fa5
    sw t1, 12(s0)
    fsflags t2, zero
    sw t2, 4(s0)
    addi s0, s0, 16
    li a0, 0
    li a7, 93
    ecall
    .data
out:
    .space 336
