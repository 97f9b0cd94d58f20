# CORE-V (cv.*) abs, set-less-or-equal, min/max, rotate, bit counting (ff1, fl1, clb, cnt), sign/zero
# extension and clip.
# Expected values (CV32E40P v2 manual, instruction_set_extensions.rst) are in corev_alu.exp, one
# word of `out` per case.
    .option norvc
    .text
    .globl _start
_start:
    la s0, out
    # cv.abs a0, a1: rD=0x0 rs1=0x0 rs2=0x0
    li a0, 0x0
    li a1, 0x0
    li a2, 0x0
    cv.abs a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.abs a0, a1: rD=0x0 rs1=0x5 rs2=0x0
    li a0, 0x0
    li a1, 0x5
    li a2, 0x0
    cv.abs a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.abs a0, a1: rD=0x0 rs1=0xfffffffb rs2=0x0
    li a0, 0x0
    li a1, 0xfffffffb
    li a2, 0x0
    cv.abs a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.abs a0, a1: rD=0x0 rs1=0x80000000 rs2=0x0
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x0
    cv.abs a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.slet a0, a1, a2: rD=0x0 rs1=0x3 rs2=0x3
    li a0, 0x0
    li a1, 0x3
    li a2, 0x3
    cv.slet a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.sletu a0, a1, a2: rD=0x0 rs1=0x3 rs2=0x3
    li a0, 0x0
    li a1, 0x3
    li a2, 0x3
    cv.sletu a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.min a0, a1, a2: rD=0x0 rs1=0x3 rs2=0x3
    li a0, 0x0
    li a1, 0x3
    li a2, 0x3
    cv.min a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.minu a0, a1, a2: rD=0x0 rs1=0x3 rs2=0x3
    li a0, 0x0
    li a1, 0x3
    li a2, 0x3
    cv.minu a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.max a0, a1, a2: rD=0x0 rs1=0x3 rs2=0x3
    li a0, 0x0
    li a1, 0x3
    li a2, 0x3
    cv.max a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.maxu a0, a1, a2: rD=0x0 rs1=0x3 rs2=0x3
    li a0, 0x0
    li a1, 0x3
    li a2, 0x3
    cv.maxu a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.slet a0, a1, a2: rD=0x0 rs1=0xffffffff rs2=0x1
    li a0, 0x0
    li a1, 0xffffffff
    li a2, 0x1
    cv.slet a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.sletu a0, a1, a2: rD=0x0 rs1=0xffffffff rs2=0x1
    li a0, 0x0
    li a1, 0xffffffff
    li a2, 0x1
    cv.sletu a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.min a0, a1, a2: rD=0x0 rs1=0xffffffff rs2=0x1
    li a0, 0x0
    li a1, 0xffffffff
    li a2, 0x1
    cv.min a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.minu a0, a1, a2: rD=0x0 rs1=0xffffffff rs2=0x1
    li a0, 0x0
    li a1, 0xffffffff
    li a2, 0x1
    cv.minu a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.max a0, a1, a2: rD=0x0 rs1=0xffffffff rs2=0x1
    li a0, 0x0
    li a1, 0xffffffff
    li a2, 0x1
    cv.max a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.maxu a0, a1, a2: rD=0x0 rs1=0xffffffff rs2=0x1
    li a0, 0x0
    li a1, 0xffffffff
    li a2, 0x1
    cv.maxu a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.slet a0, a1, a2: rD=0x0 rs1=0x1 rs2=0xffffffff
    li a0, 0x0
    li a1, 0x1
    li a2, 0xffffffff
    cv.slet a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.sletu a0, a1, a2: rD=0x0 rs1=0x1 rs2=0xffffffff
    li a0, 0x0
    li a1, 0x1
    li a2, 0xffffffff
    cv.sletu a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.min a0, a1, a2: rD=0x0 rs1=0x1 rs2=0xffffffff
    li a0, 0x0
    li a1, 0x1
    li a2, 0xffffffff
    cv.min a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.minu a0, a1, a2: rD=0x0 rs1=0x1 rs2=0xffffffff
    li a0, 0x0
    li a1, 0x1
    li a2, 0xffffffff
    cv.minu a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.max a0, a1, a2: rD=0x0 rs1=0x1 rs2=0xffffffff
    li a0, 0x0
    li a1, 0x1
    li a2, 0xffffffff
    cv.max a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.maxu a0, a1, a2: rD=0x0 rs1=0x1 rs2=0xffffffff
    li a0, 0x0
    li a1, 0x1
    li a2, 0xffffffff
    cv.maxu a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.slet a0, a1, a2: rD=0x0 rs1=0x80000000 rs2=0x7fffffff
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x7fffffff
    cv.slet a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.sletu a0, a1, a2: rD=0x0 rs1=0x80000000 rs2=0x7fffffff
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x7fffffff
    cv.sletu a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.min a0, a1, a2: rD=0x0 rs1=0x80000000 rs2=0x7fffffff
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x7fffffff
    cv.min a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.minu a0, a1, a2: rD=0x0 rs1=0x80000000 rs2=0x7fffffff
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x7fffffff
    cv.minu a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.max a0, a1, a2: rD=0x0 rs1=0x80000000 rs2=0x7fffffff
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x7fffffff
    cv.max a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.maxu a0, a1, a2: rD=0x0 rs1=0x80000000 rs2=0x7fffffff
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x7fffffff
    cv.maxu a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.ror a0, a1, a2: rD=0x0 rs1=0x12345678 rs2=0x0
    li a0, 0x0
    li a1, 0x12345678
    li a2, 0x0
    cv.ror a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.ror a0, a1, a2: rD=0x0 rs1=0x12345678 rs2=0x4
    li a0, 0x0
    li a1, 0x12345678
    li a2, 0x4
    cv.ror a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.ror a0, a1, a2: rD=0x0 rs1=0x12345678 rs2=0x1f
    li a0, 0x0
    li a1, 0x12345678
    li a2, 0x1f
    cv.ror a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.ror a0, a1, a2: rD=0x0 rs1=0x12345678 rs2=0x24
    li a0, 0x0
    li a1, 0x12345678
    li a2, 0x24
    cv.ror a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.ff1 a0, a1: rD=0x0 rs1=0x0 rs2=0x0
    li a0, 0x0
    li a1, 0x0
    li a2, 0x0
    cv.ff1 a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.fl1 a0, a1: rD=0x0 rs1=0x0 rs2=0x0
    li a0, 0x0
    li a1, 0x0
    li a2, 0x0
    cv.fl1 a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.clb a0, a1: rD=0x0 rs1=0x0 rs2=0x0
    li a0, 0x0
    li a1, 0x0
    li a2, 0x0
    cv.clb a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.cnt a0, a1: rD=0x0 rs1=0x0 rs2=0x0
    li a0, 0x0
    li a1, 0x0
    li a2, 0x0
    cv.cnt a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.ff1 a0, a1: rD=0x0 rs1=0x1 rs2=0x0
    li a0, 0x0
    li a1, 0x1
    li a2, 0x0
    cv.ff1 a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.fl1 a0, a1: rD=0x0 rs1=0x1 rs2=0x0
    li a0, 0x0
    li a1, 0x1
    li a2, 0x0
    cv.fl1 a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.clb a0, a1: rD=0x0 rs1=0x1 rs2=0x0
    li a0, 0x0
    li a1, 0x1
    li a2, 0x0
    cv.clb a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.cnt a0, a1: rD=0x0 rs1=0x1 rs2=0x0
    li a0, 0x0
    li a1, 0x1
    li a2, 0x0
    cv.cnt a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.ff1 a0, a1: rD=0x0 rs1=0x80000000 rs2=0x0
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x0
    cv.ff1 a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.fl1 a0, a1: rD=0x0 rs1=0x80000000 rs2=0x0
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x0
    cv.fl1 a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.clb a0, a1: rD=0x0 rs1=0x80000000 rs2=0x0
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x0
    cv.clb a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.cnt a0, a1: rD=0x0 rs1=0x80000000 rs2=0x0
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x0
    cv.cnt a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.ff1 a0, a1: rD=0x0 rs1=0xf00f00 rs2=0x0
    li a0, 0x0
    li a1, 0xf00f00
    li a2, 0x0
    cv.ff1 a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.fl1 a0, a1: rD=0x0 rs1=0xf00f00 rs2=0x0
    li a0, 0x0
    li a1, 0xf00f00
    li a2, 0x0
    cv.fl1 a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.clb a0, a1: rD=0x0 rs1=0xf00f00 rs2=0x0
    li a0, 0x0
    li a1, 0xf00f00
    li a2, 0x0
    cv.clb a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.cnt a0, a1: rD=0x0 rs1=0xf00f00 rs2=0x0
    li a0, 0x0
    li a1, 0xf00f00
    li a2, 0x0
    cv.cnt a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.clb a0, a1: rD=0x0 rs1=0xffffffff rs2=0x0
    li a0, 0x0
    li a1, 0xffffffff
    li a2, 0x0
    cv.clb a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.clb a0, a1: rD=0x0 rs1=0x7fffffff rs2=0x0
    li a0, 0x0
    li a1, 0x7fffffff
    li a2, 0x0
    cv.clb a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.clb a0, a1: rD=0x0 rs1=0x8000 rs2=0x0
    li a0, 0x0
    li a1, 0x8000
    li a2, 0x0
    cv.clb a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.clb a0, a1: rD=0x0 rs1=0x12348080 rs2=0x0
    li a0, 0x0
    li a1, 0x12348080
    li a2, 0x0
    cv.clb a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.exths a0, a1: rD=0x0 rs1=0x12348765 rs2=0x0
    li a0, 0x0
    li a1, 0x12348765
    li a2, 0x0
    cv.exths a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.exthz a0, a1: rD=0x0 rs1=0x12348765 rs2=0x0
    li a0, 0x0
    li a1, 0x12348765
    li a2, 0x0
    cv.exthz a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.extbs a0, a1: rD=0x0 rs1=0x12348765 rs2=0x0
    li a0, 0x0
    li a1, 0x12348765
    li a2, 0x0
    cv.extbs a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.extbz a0, a1: rD=0x0 rs1=0x12348765 rs2=0x0
    li a0, 0x0
    li a1, 0x12348765
    li a2, 0x0
    cv.extbz a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.exths a0, a1: rD=0x0 rs1=0xabcd7f80 rs2=0x0
    li a0, 0x0
    li a1, 0xabcd7f80
    li a2, 0x0
    cv.exths a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.exthz a0, a1: rD=0x0 rs1=0xabcd7f80 rs2=0x0
    li a0, 0x0
    li a1, 0xabcd7f80
    li a2, 0x0
    cv.exthz a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.extbs a0, a1: rD=0x0 rs1=0xabcd7f80 rs2=0x0
    li a0, 0x0
    li a1, 0xabcd7f80
    li a2, 0x0
    cv.extbs a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.extbz a0, a1: rD=0x0 rs1=0xabcd7f80 rs2=0x0
    li a0, 0x0
    li a1, 0xabcd7f80
    li a2, 0x0
    cv.extbz a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.clip a0, a1, 8: rD=0x0 rs1=0xc8 rs2=0x0
    li a0, 0x0
    li a1, 0xc8
    li a2, 0x0
    cv.clip a0, a1, 8
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.clip a0, a1, 8: rD=0x0 rs1=0xffffff00 rs2=0x0
    li a0, 0x0
    li a1, 0xffffff00
    li a2, 0x0
    cv.clip a0, a1, 8
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.clip a0, a1, 8: rD=0x0 rs1=0x7f rs2=0x0
    li a0, 0x0
    li a1, 0x7f
    li a2, 0x0
    cv.clip a0, a1, 8
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.clip a0, a1, 0: rD=0x0 rs1=0x5 rs2=0x0
    li a0, 0x0
    li a1, 0x5
    li a2, 0x0
    cv.clip a0, a1, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.clip a0, a1, 0: rD=0x0 rs1=0xfffffff0 rs2=0x0
    li a0, 0x0
    li a1, 0xfffffff0
    li a2, 0x0
    cv.clip a0, a1, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.clip a0, a1, 31: rD=0x0 rs1=0x80000000 rs2=0x0
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x0
    cv.clip a0, a1, 31
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.clip a0, a1, 31: rD=0x0 rs1=0x7fffffff rs2=0x0
    li a0, 0x0
    li a1, 0x7fffffff
    li a2, 0x0
    cv.clip a0, a1, 31
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.clip a0, a1, 1: rD=0x0 rs1=0x3 rs2=0x0
    li a0, 0x0
    li a1, 0x3
    li a2, 0x0
    cv.clip a0, a1, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.clipu a0, a1, 8: rD=0x0 rs1=0xc8 rs2=0x0
    li a0, 0x0
    li a1, 0xc8
    li a2, 0x0
    cv.clipu a0, a1, 8
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.clipu a0, a1, 8: rD=0x0 rs1=0xffffff00 rs2=0x0
    li a0, 0x0
    li a1, 0xffffff00
    li a2, 0x0
    cv.clipu a0, a1, 8
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.clipu a0, a1, 8: rD=0x0 rs1=0x64 rs2=0x0
    li a0, 0x0
    li a1, 0x64
    li a2, 0x0
    cv.clipu a0, a1, 8
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.clipu a0, a1, 31: rD=0x0 rs1=0x7fffffff rs2=0x0
    li a0, 0x0
    li a1, 0x7fffffff
    li a2, 0x0
    cv.clipu a0, a1, 31
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.clipu a0, a1, 1: rD=0x0 rs1=0x2 rs2=0x0
    li a0, 0x0
    li a1, 0x2
    li a2, 0x0
    cv.clipu a0, a1, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.clipr a0, a1, a2: rD=0x0 rs1=0x3e8 rs2=0xff
    li a0, 0x0
    li a1, 0x3e8
    li a2, 0xff
    cv.clipr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.clipur a0, a1, a2: rD=0x0 rs1=0x3e8 rs2=0xff
    li a0, 0x0
    li a1, 0x3e8
    li a2, 0xff
    cv.clipur a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.clipr a0, a1, a2: rD=0x0 rs1=0xfffffc00 rs2=0xff
    li a0, 0x0
    li a1, 0xfffffc00
    li a2, 0xff
    cv.clipr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.clipur a0, a1, a2: rD=0x0 rs1=0xfffffc00 rs2=0xff
    li a0, 0x0
    li a1, 0xfffffc00
    li a2, 0xff
    cv.clipur a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.clipr a0, a1, a2: rD=0x0 rs1=0xffffffce rs2=0x64
    li a0, 0x0
    li a1, 0xffffffce
    li a2, 0x64
    cv.clipr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.clipur a0, a1, a2: rD=0x0 rs1=0xffffffce rs2=0x64
    li a0, 0x0
    li a1, 0xffffffce
    li a2, 0x64
    cv.clipur a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.clipr a0, a1, a2: rD=0x0 rs1=0x7 rs2=0x0
    li a0, 0x0
    li a1, 0x7
    li a2, 0x0
    cv.clipr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.clipur a0, a1, a2: rD=0x0 rs1=0x7 rs2=0x0
    li a0, 0x0
    li a1, 0x7
    li a2, 0x0
    cv.clipur a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    li a0, 0
    li a7, 93
    ecall
    .data
out:
    .space 340
