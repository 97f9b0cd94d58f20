# Xf16 / Xf16alt / Xfvec, every instruction once, with the separate f registers (NaN-boxing).
# The expected words (smallfloat.exp) are computed with numpy float16 and ml_dtypes bfloat16
# from exactly representable operands; semantics: RISC-V Zfh (NaN-boxing), PULP smallFloat
# (riscv-opcodes opcodes-sflt_CUSTOM), packed results as GVSoC rv32Xfvec.hpp.
    .text
    .globl _start
_start:
    la s0, out
    # ---- scalar .h: A = 1.5, B = 2.25, C = -0.5
    li t0, 0xffff3e00
    fmv.w.x ft0, t0
    li t0, 0xffff4080
    fmv.w.x ft1, t0
    li t0, 0xffffb800
    fmv.w.x ft2, t0
    fadd.h ft3, ft0, ft1
    fsw ft3, 0(s0)
    li t0, 0xffff3e00
    fmv.w.x ft0, t0
    li t0, 0xffff4080
    fmv.w.x ft1, t0
    li t0, 0xffffb800
    fmv.w.x ft2, t0
    fsub.h ft3, ft0, ft1
    fsw ft3, 4(s0)
    li t0, 0xffff3e00
    fmv.w.x ft0, t0
    li t0, 0xffff4080
    fmv.w.x ft1, t0
    li t0, 0xffffb800
    fmv.w.x ft2, t0
    fmul.h ft3, ft0, ft1
    fsw ft3, 8(s0)
    li t0, 0xffff3e00
    fmv.w.x ft0, t0
    li t0, 0xffff4080
    fmv.w.x ft1, t0
    li t0, 0xffffb800
    fmv.w.x ft2, t0
    fdiv.h ft3, ft0, ft1
    fsw ft3, 12(s0)
    li t0, 0xffff3e00
    fmv.w.x ft0, t0
    li t0, 0xffff4080
    fmv.w.x ft1, t0
    li t0, 0xffffb800
    fmv.w.x ft2, t0
    fsqrt.h ft3, ft1
    fsw ft3, 16(s0)
    li t0, 0xffff3e00
    fmv.w.x ft0, t0
    li t0, 0xffff4080
    fmv.w.x ft1, t0
    li t0, 0xffffb800
    fmv.w.x ft2, t0
    fmadd.h ft3, ft0, ft1, ft2
    fsw ft3, 20(s0)
    li t0, 0xffff3e00
    fmv.w.x ft0, t0
    li t0, 0xffff4080
    fmv.w.x ft1, t0
    li t0, 0xffffb800
    fmv.w.x ft2, t0
    fmsub.h ft3, ft0, ft1, ft2
    fsw ft3, 24(s0)
    li t0, 0xffff3e00
    fmv.w.x ft0, t0
    li t0, 0xffff4080
    fmv.w.x ft1, t0
    li t0, 0xffffb800
    fmv.w.x ft2, t0
    fnmsub.h ft3, ft0, ft1, ft2
    fsw ft3, 28(s0)
    li t0, 0xffff3e00
    fmv.w.x ft0, t0
    li t0, 0xffff4080
    fmv.w.x ft1, t0
    li t0, 0xffffb800
    fmv.w.x ft2, t0
    fnmadd.h ft3, ft0, ft1, ft2
    fsw ft3, 32(s0)
    li t0, 0xffff3e00
    fmv.w.x ft0, t0
    li t0, 0xffff4080
    fmv.w.x ft1, t0
    li t0, 0xffffb800
    fmv.w.x ft2, t0
    fsgnj.h ft3, ft0, ft2
    fsw ft3, 36(s0)
    li t0, 0xffff3e00
    fmv.w.x ft0, t0
    li t0, 0xffff4080
    fmv.w.x ft1, t0
    li t0, 0xffffb800
    fmv.w.x ft2, t0
    fsgnjn.h ft3, ft0, ft2
    fsw ft3, 40(s0)
    li t0, 0xffff3e00
    fmv.w.x ft0, t0
    li t0, 0xffff4080
    fmv.w.x ft1, t0
    li t0, 0xffffb800
    fmv.w.x ft2, t0
    fsgnjx.h ft3, ft2, ft2
    fsw ft3, 44(s0)
    li t0, 0xffff3e00
    fmv.w.x ft0, t0
    li t0, 0xffff4080
    fmv.w.x ft1, t0
    li t0, 0xffffb800
    fmv.w.x ft2, t0
    fmin.h ft3, ft0, ft2
    fsw ft3, 48(s0)
    li t0, 0xffff3e00
    fmv.w.x ft0, t0
    li t0, 0xffff4080
    fmv.w.x ft1, t0
    li t0, 0xffffb800
    fmv.w.x ft2, t0
    fmax.h ft3, ft0, ft2
    fsw ft3, 52(s0)
    li t0, 0xffff3e00
    fmv.w.x ft0, t0
    li t0, 0xffff4080
    fmv.w.x ft1, t0
    li t0, 0xffffb800
    fmv.w.x ft2, t0
    feq.h a0, ft0, ft0
    sw a0, 56(s0)
    li t0, 0xffff3e00
    fmv.w.x ft0, t0
    li t0, 0xffff4080
    fmv.w.x ft1, t0
    li t0, 0xffffb800
    fmv.w.x ft2, t0
    flt.h a0, ft2, ft0
    sw a0, 60(s0)
    li t0, 0xffff3e00
    fmv.w.x ft0, t0
    li t0, 0xffff4080
    fmv.w.x ft1, t0
    li t0, 0xffffb800
    fmv.w.x ft2, t0
    fle.h a0, ft0, ft2
    sw a0, 64(s0)
    li t0, 0xffff3e00
    fmv.w.x ft0, t0
    li t0, 0xffff4080
    fmv.w.x ft1, t0
    li t0, 0xffffb800
    fmv.w.x ft2, t0
    fclass.h a0, ft2
    sw a0, 68(s0)
    li t0, 0xffff3e00
    fmv.w.x ft0, t0
    li t0, 0xffff4080
    fmv.w.x ft1, t0
    li t0, 0xffffb800
    fmv.w.x ft2, t0
    fcvt.w.h a0, ft1
    sw a0, 72(s0)
    li t0, 0xffff3e00
    fmv.w.x ft0, t0
    li t0, 0xffff4080
    fmv.w.x ft1, t0
    li t0, 0xffffb800
    fmv.w.x ft2, t0
    fcvt.wu.h a0, ft1, rup
    sw a0, 76(s0)
    li t1, -3
    fcvt.h.w ft3, t1
    fsw ft3, 80(s0)
    li t1, 7
    fcvt.h.wu ft3, t1
    fsw ft3, 84(s0)
    li t0, 0xffff3e00
    fmv.w.x ft0, t0
    li t0, 0xffff4080
    fmv.w.x ft1, t0
    li t0, 0xffffb800
    fmv.w.x ft2, t0
    fcvt.s.h ft3, ft0
    fsw ft3, 88(s0)
    li t0, 0x3dcccccd
    fmv.w.x ft0, t0
    fcvt.h.s ft3, ft0
    fsw ft3, 92(s0)
    li t0, 0x1234b800
    fmv.w.x ft0, t0
    fmv.x.h a0, ft0
    sw a0, 96(s0)
    li t1, 0x12340000 | 0x3e00
    fmv.h.x ft3, t1
    fsw ft3, 100(s0)
    li t0, 0x3e00
    fmv.w.x ft0, t0
    li t0, 0xffff4080
    fmv.w.x ft1, t0
    fadd.h ft3, ft0, ft1
    fsw ft3, 104(s0)
    # ---- scalar .ah: A = 1.5, B = 2.25, C = -0.5
    li t0, 0xffff3fc0
    fmv.w.x ft0, t0
    li t0, 0xffff4010
    fmv.w.x ft1, t0
    li t0, 0xffffbf00
    fmv.w.x ft2, t0
    fadd.ah ft3, ft0, ft1
    fsw ft3, 108(s0)
    li t0, 0xffff3fc0
    fmv.w.x ft0, t0
    li t0, 0xffff4010
    fmv.w.x ft1, t0
    li t0, 0xffffbf00
    fmv.w.x ft2, t0
    fsub.ah ft3, ft0, ft1
    fsw ft3, 112(s0)
    li t0, 0xffff3fc0
    fmv.w.x ft0, t0
    li t0, 0xffff4010
    fmv.w.x ft1, t0
    li t0, 0xffffbf00
    fmv.w.x ft2, t0
    fmul.ah ft3, ft0, ft1
    fsw ft3, 116(s0)
    li t0, 0xffff3fc0
    fmv.w.x ft0, t0
    li t0, 0xffff4010
    fmv.w.x ft1, t0
    li t0, 0xffffbf00
    fmv.w.x ft2, t0
    fdiv.ah ft3, ft0, ft1
    fsw ft3, 120(s0)
    li t0, 0xffff3fc0
    fmv.w.x ft0, t0
    li t0, 0xffff4010
    fmv.w.x ft1, t0
    li t0, 0xffffbf00
    fmv.w.x ft2, t0
    fsqrt.ah ft3, ft1
    fsw ft3, 124(s0)
    li t0, 0xffff3fc0
    fmv.w.x ft0, t0
    li t0, 0xffff4010
    fmv.w.x ft1, t0
    li t0, 0xffffbf00
    fmv.w.x ft2, t0
    fmadd.ah ft3, ft0, ft1, ft2
    fsw ft3, 128(s0)
    li t0, 0xffff3fc0
    fmv.w.x ft0, t0
    li t0, 0xffff4010
    fmv.w.x ft1, t0
    li t0, 0xffffbf00
    fmv.w.x ft2, t0
    fmsub.ah ft3, ft0, ft1, ft2
    fsw ft3, 132(s0)
    li t0, 0xffff3fc0
    fmv.w.x ft0, t0
    li t0, 0xffff4010
    fmv.w.x ft1, t0
    li t0, 0xffffbf00
    fmv.w.x ft2, t0
    fnmsub.ah ft3, ft0, ft1, ft2
    fsw ft3, 136(s0)
    li t0, 0xffff3fc0
    fmv.w.x ft0, t0
    li t0, 0xffff4010
    fmv.w.x ft1, t0
    li t0, 0xffffbf00
    fmv.w.x ft2, t0
    fnmadd.ah ft3, ft0, ft1, ft2
    fsw ft3, 140(s0)
    li t0, 0xffff3fc0
    fmv.w.x ft0, t0
    li t0, 0xffff4010
    fmv.w.x ft1, t0
    li t0, 0xffffbf00
    fmv.w.x ft2, t0
    fsgnj.ah ft3, ft0, ft2
    fsw ft3, 144(s0)
    li t0, 0xffff3fc0
    fmv.w.x ft0, t0
    li t0, 0xffff4010
    fmv.w.x ft1, t0
    li t0, 0xffffbf00
    fmv.w.x ft2, t0
    fsgnjn.ah ft3, ft0, ft2
    fsw ft3, 148(s0)
    li t0, 0xffff3fc0
    fmv.w.x ft0, t0
    li t0, 0xffff4010
    fmv.w.x ft1, t0
    li t0, 0xffffbf00
    fmv.w.x ft2, t0
    fsgnjx.ah ft3, ft2, ft2
    fsw ft3, 152(s0)
    li t0, 0xffff3fc0
    fmv.w.x ft0, t0
    li t0, 0xffff4010
    fmv.w.x ft1, t0
    li t0, 0xffffbf00
    fmv.w.x ft2, t0
    fmin.ah ft3, ft0, ft2
    fsw ft3, 156(s0)
    li t0, 0xffff3fc0
    fmv.w.x ft0, t0
    li t0, 0xffff4010
    fmv.w.x ft1, t0
    li t0, 0xffffbf00
    fmv.w.x ft2, t0
    fmax.ah ft3, ft0, ft2
    fsw ft3, 160(s0)
    li t0, 0xffff3fc0
    fmv.w.x ft0, t0
    li t0, 0xffff4010
    fmv.w.x ft1, t0
    li t0, 0xffffbf00
    fmv.w.x ft2, t0
    feq.ah a0, ft0, ft0
    sw a0, 164(s0)
    li t0, 0xffff3fc0
    fmv.w.x ft0, t0
    li t0, 0xffff4010
    fmv.w.x ft1, t0
    li t0, 0xffffbf00
    fmv.w.x ft2, t0
    flt.ah a0, ft2, ft0
    sw a0, 168(s0)
    li t0, 0xffff3fc0
    fmv.w.x ft0, t0
    li t0, 0xffff4010
    fmv.w.x ft1, t0
    li t0, 0xffffbf00
    fmv.w.x ft2, t0
    fle.ah a0, ft0, ft2
    sw a0, 172(s0)
    li t0, 0xffff3fc0
    fmv.w.x ft0, t0
    li t0, 0xffff4010
    fmv.w.x ft1, t0
    li t0, 0xffffbf00
    fmv.w.x ft2, t0
    fclass.ah a0, ft2
    sw a0, 176(s0)
    li t0, 0xffff3fc0
    fmv.w.x ft0, t0
    li t0, 0xffff4010
    fmv.w.x ft1, t0
    li t0, 0xffffbf00
    fmv.w.x ft2, t0
    fcvt.w.ah a0, ft1
    sw a0, 180(s0)
    li t0, 0xffff3fc0
    fmv.w.x ft0, t0
    li t0, 0xffff4010
    fmv.w.x ft1, t0
    li t0, 0xffffbf00
    fmv.w.x ft2, t0
    fcvt.wu.ah a0, ft1
    sw a0, 184(s0)
    li t1, -3
    fcvt.ah.w ft3, t1
    fsw ft3, 188(s0)
    li t1, 7
    fcvt.ah.wu ft3, t1
    fsw ft3, 192(s0)
    li t0, 0xffff3fc0
    fmv.w.x ft0, t0
    li t0, 0xffff4010
    fmv.w.x ft1, t0
    li t0, 0xffffbf00
    fmv.w.x ft2, t0
    fcvt.s.ah ft3, ft0
    fsw ft3, 196(s0)
    li t0, 0x3dcccccd
    fmv.w.x ft0, t0
    fcvt.ah.s ft3, ft0
    fsw ft3, 200(s0)
    li t0, 0x1234bf00
    fmv.w.x ft0, t0
    fmv.x.ah a0, ft0
    sw a0, 204(s0)
    li t1, 0x12340000 | 0x3fc0
    fmv.ah.x ft3, t1
    fsw ft3, 208(s0)
    li t0, 0x3fc0
    fmv.w.x ft0, t0
    li t0, 0xffff4010
    fmv.w.x ft1, t0
    fadd.ah ft3, ft0, ft1
    fsw ft3, 212(s0)
    # ---- format conversions between the two 16-bit formats
    li t0, 0xffff3fc0
    fmv.w.x ft0, t0
    fcvt.h.ah ft3, ft0
    fsw ft3, 216(s0)
    li t0, 0xffffb800
    fmv.w.x ft0, t0
    fcvt.ah.h ft3, ft0
    fsw ft3, 220(s0)
    # ---- flh / fsh
    la t1, halves
    flh ft3, 2(t1)
    fsw ft3, 224(s0)
    fsh ft3, 228(s0)
    sh zero, 230(s0)
    # ---- packed .h: rs1 = (1.5, -0.5), rs2 = (2.25, 1.5), rD = (-0.5, 2.25) (lane 0, lane 1)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfadd.h ft3, ft0, ft1
    fsw ft3, 232(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfadd.r.h ft3, ft0, ft1
    fsw ft3, 236(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfsub.h ft3, ft0, ft1
    fsw ft3, 240(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfsub.r.h ft3, ft0, ft1
    fsw ft3, 244(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfmul.h ft3, ft0, ft1
    fsw ft3, 248(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfmul.r.h ft3, ft0, ft1
    fsw ft3, 252(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfdiv.h ft3, ft0, ft1
    fsw ft3, 256(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfdiv.r.h ft3, ft0, ft1
    fsw ft3, 260(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfmin.h ft3, ft0, ft1
    fsw ft3, 264(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfmin.r.h ft3, ft0, ft1
    fsw ft3, 268(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfmax.h ft3, ft0, ft1
    fsw ft3, 272(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfmax.r.h ft3, ft0, ft1
    fsw ft3, 276(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfmac.h ft3, ft0, ft1
    fsw ft3, 280(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfmac.r.h ft3, ft0, ft1
    fsw ft3, 284(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfmre.h ft3, ft0, ft1
    fsw ft3, 288(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfmre.r.h ft3, ft0, ft1
    fsw ft3, 292(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfsgnj.h ft3, ft0, ft1
    fsw ft3, 296(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfsgnj.r.h ft3, ft0, ft1
    fsw ft3, 300(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfsgnjn.h ft3, ft0, ft1
    fsw ft3, 304(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfsgnjn.r.h ft3, ft0, ft1
    fsw ft3, 308(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfsgnjx.h ft3, ft0, ft1
    fsw ft3, 312(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfsgnjx.r.h ft3, ft0, ft1
    fsw ft3, 316(s0)
    li t0, 0x44004080
    fmv.w.x ft0, t0
    vfsqrt.h ft3, ft0
    fsw ft3, 320(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfeq.h a0, ft0, ft1
    sw a0, 324(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfeq.r.h a0, ft0, ft1
    sw a0, 328(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfne.h a0, ft0, ft1
    sw a0, 332(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfne.r.h a0, ft0, ft1
    sw a0, 336(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vflt.h a0, ft0, ft1
    sw a0, 340(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vflt.r.h a0, ft0, ft1
    sw a0, 344(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfge.h a0, ft0, ft1
    sw a0, 348(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfge.r.h a0, ft0, ft1
    sw a0, 352(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfle.h a0, ft0, ft1
    sw a0, 356(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfle.r.h a0, ft0, ft1
    sw a0, 360(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfgt.h a0, ft0, ft1
    sw a0, 364(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfgt.r.h a0, ft0, ft1
    sw a0, 368(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfclass.h a0, ft0
    sw a0, 372(s0)
    li t0, 0x3fc00000
    fmv.w.x ft0, t0
    li t0, 0xbf000000
    fmv.w.x ft1, t0
    vfcpka.h.s ft3, ft0, ft1
    fsw ft3, 376(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfcvt.x.h ft3, ft0
    fsw ft3, 380(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfcvt.xu.h ft3, ft1
    fsw ft3, 384(s0)
    li t0, 0x7fffd
    fmv.w.x ft0, t0
    vfcvt.h.x ft3, ft0
    fsw ft3, 388(s0)
    li t0, 0x80001001
    fmv.w.x ft0, t0
    vfcvt.h.xu ft3, ft0
    fsw ft3, 392(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x4080b800
    fmv.w.x ft3, t0
    vfmv.x.h a0, ft0
    sw a0, 396(s0)
    li t1, 0x12345678
    vfmv.h.x ft3, t1
    fsw ft3, 400(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x3f800000
    fmv.w.x ft3, t0
    vfdotpex.s.h ft3, ft0, ft1
    fsw ft3, 404(s0)
    li t0, 0xb8003e00
    fmv.w.x ft0, t0
    li t0, 0x3e004080
    fmv.w.x ft1, t0
    li t0, 0x3f800000
    fmv.w.x ft3, t0
    vfdotpex.s.r.h ft3, ft0, ft1
    fsw ft3, 408(s0)
    # ---- packed .ah: rs1 = (1.5, -0.5), rs2 = (2.25, 1.5), rD = (-0.5, 2.25) (lane 0, lane 1)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfadd.ah ft3, ft0, ft1
    fsw ft3, 412(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfadd.r.ah ft3, ft0, ft1
    fsw ft3, 416(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfsub.ah ft3, ft0, ft1
    fsw ft3, 420(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfsub.r.ah ft3, ft0, ft1
    fsw ft3, 424(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfmul.ah ft3, ft0, ft1
    fsw ft3, 428(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfmul.r.ah ft3, ft0, ft1
    fsw ft3, 432(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfdiv.ah ft3, ft0, ft1
    fsw ft3, 436(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfdiv.r.ah ft3, ft0, ft1
    fsw ft3, 440(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfmin.ah ft3, ft0, ft1
    fsw ft3, 444(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfmin.r.ah ft3, ft0, ft1
    fsw ft3, 448(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfmax.ah ft3, ft0, ft1
    fsw ft3, 452(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfmax.r.ah ft3, ft0, ft1
    fsw ft3, 456(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfmac.ah ft3, ft0, ft1
    fsw ft3, 460(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfmac.r.ah ft3, ft0, ft1
    fsw ft3, 464(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfmre.ah ft3, ft0, ft1
    fsw ft3, 468(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfmre.r.ah ft3, ft0, ft1
    fsw ft3, 472(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfsgnj.ah ft3, ft0, ft1
    fsw ft3, 476(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfsgnj.r.ah ft3, ft0, ft1
    fsw ft3, 480(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfsgnjn.ah ft3, ft0, ft1
    fsw ft3, 484(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfsgnjn.r.ah ft3, ft0, ft1
    fsw ft3, 488(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfsgnjx.ah ft3, ft0, ft1
    fsw ft3, 492(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfsgnjx.r.ah ft3, ft0, ft1
    fsw ft3, 496(s0)
    li t0, 0x40804010
    fmv.w.x ft0, t0
    vfsqrt.ah ft3, ft0
    fsw ft3, 500(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfeq.ah a0, ft0, ft1
    sw a0, 504(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfeq.r.ah a0, ft0, ft1
    sw a0, 508(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfne.ah a0, ft0, ft1
    sw a0, 512(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfne.r.ah a0, ft0, ft1
    sw a0, 516(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vflt.ah a0, ft0, ft1
    sw a0, 520(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vflt.r.ah a0, ft0, ft1
    sw a0, 524(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfge.ah a0, ft0, ft1
    sw a0, 528(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfge.r.ah a0, ft0, ft1
    sw a0, 532(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfle.ah a0, ft0, ft1
    sw a0, 536(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfle.r.ah a0, ft0, ft1
    sw a0, 540(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfgt.ah a0, ft0, ft1
    sw a0, 544(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfgt.r.ah a0, ft0, ft1
    sw a0, 548(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfclass.ah a0, ft0
    sw a0, 552(s0)
    li t0, 0x3fc00000
    fmv.w.x ft0, t0
    li t0, 0xbf000000
    fmv.w.x ft1, t0
    vfcpka.ah.s ft3, ft0, ft1
    fsw ft3, 556(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfcvt.x.ah ft3, ft0
    fsw ft3, 560(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfcvt.xu.ah ft3, ft1
    fsw ft3, 564(s0)
    li t0, 0x7fffd
    fmv.w.x ft0, t0
    vfcvt.ah.x ft3, ft0
    fsw ft3, 568(s0)
    li t0, 0x80001001
    fmv.w.x ft0, t0
    vfcvt.ah.xu ft3, ft0
    fsw ft3, 572(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x4010bf00
    fmv.w.x ft3, t0
    vfmv.x.ah a0, ft0
    sw a0, 576(s0)
    li t1, 0x12345678
    vfmv.ah.x ft3, t1
    fsw ft3, 580(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x3f800000
    fmv.w.x ft3, t0
    vfdotpex.s.ah ft3, ft0, ft1
    fsw ft3, 584(s0)
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    li t0, 0x3fc04010
    fmv.w.x ft1, t0
    li t0, 0x3f800000
    fmv.w.x ft3, t0
    vfdotpex.s.r.ah ft3, ft0, ft1
    fsw ft3, 588(s0)
    # ---- packed conversions between the two 16-bit formats
    li t0, 0xbf003fc0
    fmv.w.x ft0, t0
    vfcvt.h.ah ft3, ft0
    fsw ft3, 592(s0)
    li t0, 0x40803e00
    fmv.w.x ft0, t0
    vfcvt.ah.h ft3, ft0
    fsw ft3, 596(s0)
    li a0, 0
    li a7, 93
    ecall

    .data
    .balign 4
halves:
    .half 0x3c00, 0xbc00
out:
    .space 600
