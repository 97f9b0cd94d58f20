# Xpulpv2 abs, set-less-or-equal, min/max, rotate, bit counting (ff1, fl1, clb, cnt), sign/zero
# extension and clip.
# Expected values (PULP binutils opcodes/riscv-opc.c; RI5CY user manual, ALU instructions) are in
# xpulpv2_alu.exp, one word of `out` per case.
    .option norvc
    .text
    .globl _start
_start:
    la s0, out
    # p.abs a0, a1: rD=0x0 rs1=0x0 rs2=0x0
    li a0, 0x0
    li a1, 0x0
    li a2, 0x0
    p.abs a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.abs a0, a1: rD=0x0 rs1=0x5 rs2=0x0
    li a0, 0x0
    li a1, 0x5
    li a2, 0x0
    p.abs a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.abs a0, a1: rD=0x0 rs1=0xfffffffb rs2=0x0
    li a0, 0x0
    li a1, 0xfffffffb
    li a2, 0x0
    p.abs a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.abs a0, a1: rD=0x0 rs1=0x80000000 rs2=0x0
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x0
    p.abs a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.slet a0, a1, a2: rD=0x0 rs1=0x3 rs2=0x3
    li a0, 0x0
    li a1, 0x3
    li a2, 0x3
    p.slet a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.sletu a0, a1, a2: rD=0x0 rs1=0x3 rs2=0x3
    li a0, 0x0
    li a1, 0x3
    li a2, 0x3
    p.sletu a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.min a0, a1, a2: rD=0x0 rs1=0x3 rs2=0x3
    li a0, 0x0
    li a1, 0x3
    li a2, 0x3
    p.min a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.minu a0, a1, a2: rD=0x0 rs1=0x3 rs2=0x3
    li a0, 0x0
    li a1, 0x3
    li a2, 0x3
    p.minu a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.max a0, a1, a2: rD=0x0 rs1=0x3 rs2=0x3
    li a0, 0x0
    li a1, 0x3
    li a2, 0x3
    p.max a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.maxu a0, a1, a2: rD=0x0 rs1=0x3 rs2=0x3
    li a0, 0x0
    li a1, 0x3
    li a2, 0x3
    p.maxu a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.slet a0, a1, a2: rD=0x0 rs1=0xffffffff rs2=0x1
    li a0, 0x0
    li a1, 0xffffffff
    li a2, 0x1
    p.slet a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.sletu a0, a1, a2: rD=0x0 rs1=0xffffffff rs2=0x1
    li a0, 0x0
    li a1, 0xffffffff
    li a2, 0x1
    p.sletu a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.min a0, a1, a2: rD=0x0 rs1=0xffffffff rs2=0x1
    li a0, 0x0
    li a1, 0xffffffff
    li a2, 0x1
    p.min a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.minu a0, a1, a2: rD=0x0 rs1=0xffffffff rs2=0x1
    li a0, 0x0
    li a1, 0xffffffff
    li a2, 0x1
    p.minu a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.max a0, a1, a2: rD=0x0 rs1=0xffffffff rs2=0x1
    li a0, 0x0
    li a1, 0xffffffff
    li a2, 0x1
    p.max a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.maxu a0, a1, a2: rD=0x0 rs1=0xffffffff rs2=0x1
    li a0, 0x0
    li a1, 0xffffffff
    li a2, 0x1
    p.maxu a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.slet a0, a1, a2: rD=0x0 rs1=0x1 rs2=0xffffffff
    li a0, 0x0
    li a1, 0x1
    li a2, 0xffffffff
    p.slet a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.sletu a0, a1, a2: rD=0x0 rs1=0x1 rs2=0xffffffff
    li a0, 0x0
    li a1, 0x1
    li a2, 0xffffffff
    p.sletu a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.min a0, a1, a2: rD=0x0 rs1=0x1 rs2=0xffffffff
    li a0, 0x0
    li a1, 0x1
    li a2, 0xffffffff
    p.min a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.minu a0, a1, a2: rD=0x0 rs1=0x1 rs2=0xffffffff
    li a0, 0x0
    li a1, 0x1
    li a2, 0xffffffff
    p.minu a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.max a0, a1, a2: rD=0x0 rs1=0x1 rs2=0xffffffff
    li a0, 0x0
    li a1, 0x1
    li a2, 0xffffffff
    p.max a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.maxu a0, a1, a2: rD=0x0 rs1=0x1 rs2=0xffffffff
    li a0, 0x0
    li a1, 0x1
    li a2, 0xffffffff
    p.maxu a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.slet a0, a1, a2: rD=0x0 rs1=0x80000000 rs2=0x7fffffff
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x7fffffff
    p.slet a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.sletu a0, a1, a2: rD=0x0 rs1=0x80000000 rs2=0x7fffffff
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x7fffffff
    p.sletu a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.min a0, a1, a2: rD=0x0 rs1=0x80000000 rs2=0x7fffffff
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x7fffffff
    p.min a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.minu a0, a1, a2: rD=0x0 rs1=0x80000000 rs2=0x7fffffff
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x7fffffff
    p.minu a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.max a0, a1, a2: rD=0x0 rs1=0x80000000 rs2=0x7fffffff
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x7fffffff
    p.max a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.maxu a0, a1, a2: rD=0x0 rs1=0x80000000 rs2=0x7fffffff
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x7fffffff
    p.maxu a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.ror a0, a1, a2: rD=0x0 rs1=0x12345678 rs2=0x0
    li a0, 0x0
    li a1, 0x12345678
    li a2, 0x0
    p.ror a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.ror a0, a1, a2: rD=0x0 rs1=0x12345678 rs2=0x4
    li a0, 0x0
    li a1, 0x12345678
    li a2, 0x4
    p.ror a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.ror a0, a1, a2: rD=0x0 rs1=0x12345678 rs2=0x1f
    li a0, 0x0
    li a1, 0x12345678
    li a2, 0x1f
    p.ror a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.ror a0, a1, a2: rD=0x0 rs1=0x12345678 rs2=0x24
    li a0, 0x0
    li a1, 0x12345678
    li a2, 0x24
    p.ror a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.ff1 a0, a1: rD=0x0 rs1=0x0 rs2=0x0
    li a0, 0x0
    li a1, 0x0
    li a2, 0x0
    p.ff1 a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.fl1 a0, a1: rD=0x0 rs1=0x0 rs2=0x0
    li a0, 0x0
    li a1, 0x0
    li a2, 0x0
    p.fl1 a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.clb a0, a1: rD=0x0 rs1=0x0 rs2=0x0
    li a0, 0x0
    li a1, 0x0
    li a2, 0x0
    p.clb a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.cnt a0, a1: rD=0x0 rs1=0x0 rs2=0x0
    li a0, 0x0
    li a1, 0x0
    li a2, 0x0
    p.cnt a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.ff1 a0, a1: rD=0x0 rs1=0x1 rs2=0x0
    li a0, 0x0
    li a1, 0x1
    li a2, 0x0
    p.ff1 a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.fl1 a0, a1: rD=0x0 rs1=0x1 rs2=0x0
    li a0, 0x0
    li a1, 0x1
    li a2, 0x0
    p.fl1 a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.clb a0, a1: rD=0x0 rs1=0x1 rs2=0x0
    li a0, 0x0
    li a1, 0x1
    li a2, 0x0
    p.clb a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.cnt a0, a1: rD=0x0 rs1=0x1 rs2=0x0
    li a0, 0x0
    li a1, 0x1
    li a2, 0x0
    p.cnt a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.ff1 a0, a1: rD=0x0 rs1=0x80000000 rs2=0x0
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x0
    p.ff1 a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.fl1 a0, a1: rD=0x0 rs1=0x80000000 rs2=0x0
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x0
    p.fl1 a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.clb a0, a1: rD=0x0 rs1=0x80000000 rs2=0x0
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x0
    p.clb a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.cnt a0, a1: rD=0x0 rs1=0x80000000 rs2=0x0
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x0
    p.cnt a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.ff1 a0, a1: rD=0x0 rs1=0xf00f00 rs2=0x0
    li a0, 0x0
    li a1, 0xf00f00
    li a2, 0x0
    p.ff1 a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.fl1 a0, a1: rD=0x0 rs1=0xf00f00 rs2=0x0
    li a0, 0x0
    li a1, 0xf00f00
    li a2, 0x0
    p.fl1 a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.clb a0, a1: rD=0x0 rs1=0xf00f00 rs2=0x0
    li a0, 0x0
    li a1, 0xf00f00
    li a2, 0x0
    p.clb a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.cnt a0, a1: rD=0x0 rs1=0xf00f00 rs2=0x0
    li a0, 0x0
    li a1, 0xf00f00
    li a2, 0x0
    p.cnt a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.clb a0, a1: rD=0x0 rs1=0xffffffff rs2=0x0
    li a0, 0x0
    li a1, 0xffffffff
    li a2, 0x0
    p.clb a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.clb a0, a1: rD=0x0 rs1=0x7fffffff rs2=0x0
    li a0, 0x0
    li a1, 0x7fffffff
    li a2, 0x0
    p.clb a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.clb a0, a1: rD=0x0 rs1=0x8000 rs2=0x0
    li a0, 0x0
    li a1, 0x8000
    li a2, 0x0
    p.clb a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.clb a0, a1: rD=0x0 rs1=0x12348080 rs2=0x0
    li a0, 0x0
    li a1, 0x12348080
    li a2, 0x0
    p.clb a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.exths a0, a1: rD=0x0 rs1=0x12348765 rs2=0x0
    li a0, 0x0
    li a1, 0x12348765
    li a2, 0x0
    p.exths a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.exthz a0, a1: rD=0x0 rs1=0x12348765 rs2=0x0
    li a0, 0x0
    li a1, 0x12348765
    li a2, 0x0
    p.exthz a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.extbs a0, a1: rD=0x0 rs1=0x12348765 rs2=0x0
    li a0, 0x0
    li a1, 0x12348765
    li a2, 0x0
    p.extbs a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.extbz a0, a1: rD=0x0 rs1=0x12348765 rs2=0x0
    li a0, 0x0
    li a1, 0x12348765
    li a2, 0x0
    p.extbz a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.exths a0, a1: rD=0x0 rs1=0xabcd7f80 rs2=0x0
    li a0, 0x0
    li a1, 0xabcd7f80
    li a2, 0x0
    p.exths a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.exthz a0, a1: rD=0x0 rs1=0xabcd7f80 rs2=0x0
    li a0, 0x0
    li a1, 0xabcd7f80
    li a2, 0x0
    p.exthz a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.extbs a0, a1: rD=0x0 rs1=0xabcd7f80 rs2=0x0
    li a0, 0x0
    li a1, 0xabcd7f80
    li a2, 0x0
    p.extbs a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.extbz a0, a1: rD=0x0 rs1=0xabcd7f80 rs2=0x0
    li a0, 0x0
    li a1, 0xabcd7f80
    li a2, 0x0
    p.extbz a0, a1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.clip a0, a1, 8: rD=0x0 rs1=0xc8 rs2=0x0
    li a0, 0x0
    li a1, 0xc8
    li a2, 0x0
    p.clip a0, a1, 8
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.clip a0, a1, 8: rD=0x0 rs1=0xffffff00 rs2=0x0
    li a0, 0x0
    li a1, 0xffffff00
    li a2, 0x0
    p.clip a0, a1, 8
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.clip a0, a1, 8: rD=0x0 rs1=0x7f rs2=0x0
    li a0, 0x0
    li a1, 0x7f
    li a2, 0x0
    p.clip a0, a1, 8
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.clip a0, a1, 0: rD=0x0 rs1=0x5 rs2=0x0
    li a0, 0x0
    li a1, 0x5
    li a2, 0x0
    p.clip a0, a1, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.clip a0, a1, 0: rD=0x0 rs1=0xfffffff0 rs2=0x0
    li a0, 0x0
    li a1, 0xfffffff0
    li a2, 0x0
    p.clip a0, a1, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.clip a0, a1, 31: rD=0x0 rs1=0x80000000 rs2=0x0
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x0
    p.clip a0, a1, 31
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.clip a0, a1, 31: rD=0x0 rs1=0x7fffffff rs2=0x0
    li a0, 0x0
    li a1, 0x7fffffff
    li a2, 0x0
    p.clip a0, a1, 31
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.clip a0, a1, 1: rD=0x0 rs1=0x3 rs2=0x0
    li a0, 0x0
    li a1, 0x3
    li a2, 0x0
    p.clip a0, a1, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.clipu a0, a1, 8: rD=0x0 rs1=0xc8 rs2=0x0
    li a0, 0x0
    li a1, 0xc8
    li a2, 0x0
    p.clipu a0, a1, 8
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.clipu a0, a1, 8: rD=0x0 rs1=0xffffff00 rs2=0x0
    li a0, 0x0
    li a1, 0xffffff00
    li a2, 0x0
    p.clipu a0, a1, 8
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.clipu a0, a1, 8: rD=0x0 rs1=0x64 rs2=0x0
    li a0, 0x0
    li a1, 0x64
    li a2, 0x0
    p.clipu a0, a1, 8
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.clipu a0, a1, 31: rD=0x0 rs1=0x7fffffff rs2=0x0
    li a0, 0x0
    li a1, 0x7fffffff
    li a2, 0x0
    p.clipu a0, a1, 31
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.clipu a0, a1, 1: rD=0x0 rs1=0x2 rs2=0x0
    li a0, 0x0
    li a1, 0x2
    li a2, 0x0
    p.clipu a0, a1, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.clipr a0, a1, a2: rD=0x0 rs1=0x3e8 rs2=0xff
    li a0, 0x0
    li a1, 0x3e8
    li a2, 0xff
    p.clipr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.clipur a0, a1, a2: rD=0x0 rs1=0x3e8 rs2=0xff
    li a0, 0x0
    li a1, 0x3e8
    li a2, 0xff
    p.clipur a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.clipr a0, a1, a2: rD=0x0 rs1=0xfffffc00 rs2=0xff
    li a0, 0x0
    li a1, 0xfffffc00
    li a2, 0xff
    p.clipr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.clipur a0, a1, a2: rD=0x0 rs1=0xfffffc00 rs2=0xff
    li a0, 0x0
    li a1, 0xfffffc00
    li a2, 0xff
    p.clipur a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.clipr a0, a1, a2: rD=0x0 rs1=0xffffffce rs2=0x64
    li a0, 0x0
    li a1, 0xffffffce
    li a2, 0x64
    p.clipr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.clipur a0, a1, a2: rD=0x0 rs1=0xffffffce rs2=0x64
    li a0, 0x0
    li a1, 0xffffffce
    li a2, 0x64
    p.clipur a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.clipr a0, a1, a2: rD=0x0 rs1=0x7 rs2=0x0
    li a0, 0x0
    li a1, 0x7
    li a2, 0x0
    p.clipr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.clipur a0, a1, a2: rD=0x0 rs1=0x7 rs2=0x0
    li a0, 0x0
    li a1, 0x7
    li a2, 0x0
    p.clipur a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    li a0, 0
    li a7, 93
    ecall
    .data
out:
    .space 340
