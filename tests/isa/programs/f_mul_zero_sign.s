# fmul.s whose exact product is zero keeps the sign of the product (IEEE 754 6.3), in RNE too:
# (+0) * (-1) = -0 and (-0) * 5 = -0.  (Known isasim bug: the inline RNE path returns +0.)
    .option norvc
    .text
    .globl _start
_start:
    fmv.w.x ft0, zero          # +0
    li t0, 0xbf800000          # -1.0
    fmv.w.x ft1, t0
    fmul.s ft2, ft0, ft1, rne
    fmv.x.w s1, ft2
    fmul.s ft3, ft0, ft1       # dynamic rm, frm = rne
    fmv.x.w s2, ft3
    li t0, 0x80000000          # -0
    fmv.w.x ft4, t0
    li t0, 0x40a00000          # 5.0
    fmv.w.x ft5, t0
    fmul.s ft6, ft4, ft5
    fmv.x.w s3, ft6
    li a0, 0
    li a7, 93
    ecall
