# Xpulpv2 add/sub with normalisation (arithmetic / logical shift, rounding), immediate and
# register forms (register forms: (rD op rs1) >> rs2[4:0]).
# Expected values (PULP binutils opcodes/riscv-opc.c; RI5CY user manual, ALU instructions) are in
# xpulpv2_addn.exp, one word of `out` per case.
    .option norvc
    .text
    .globl _start
_start:
    la s0, out
    # p.addn a0, a1, a2, 3: rD=0x0 rs1=0x64 rs2=0x7
    li a0, 0x0
    li a1, 0x64
    li a2, 0x7
    p.addn a0, a1, a2, 3
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addn a0, a1, a2, 4: rD=0x0 rs1=0xffffff00 rs2=0x10
    li a0, 0x0
    li a1, 0xffffff00
    li a2, 0x10
    p.addn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addn a0, a1, a2, 0: rD=0x0 rs1=0x5 rs2=0x6
    li a0, 0x0
    li a1, 0x5
    li a2, 0x6
    p.addn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addn a0, a1, a2, 31: rD=0x0 rs1=0x80000000 rs2=0x0
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x0
    p.addn a0, a1, a2, 31
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addn a0, a1, a2, 1: rD=0x0 rs1=0xfffffff9 rs2=0x0
    li a0, 0x0
    li a1, 0xfffffff9
    li a2, 0x0
    p.addn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addn a0, a1, a2, 1: rD=0x0 rs1=0x3 rs2=0x0
    li a0, 0x0
    li a1, 0x3
    li a2, 0x0
    p.addn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addun a0, a1, a2, 3: rD=0x0 rs1=0x64 rs2=0x7
    li a0, 0x0
    li a1, 0x64
    li a2, 0x7
    p.addun a0, a1, a2, 3
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addun a0, a1, a2, 4: rD=0x0 rs1=0xffffff00 rs2=0x10
    li a0, 0x0
    li a1, 0xffffff00
    li a2, 0x10
    p.addun a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addun a0, a1, a2, 0: rD=0x0 rs1=0x5 rs2=0x6
    li a0, 0x0
    li a1, 0x5
    li a2, 0x6
    p.addun a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addun a0, a1, a2, 31: rD=0x0 rs1=0x80000000 rs2=0x0
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x0
    p.addun a0, a1, a2, 31
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addun a0, a1, a2, 1: rD=0x0 rs1=0xfffffff9 rs2=0x0
    li a0, 0x0
    li a1, 0xfffffff9
    li a2, 0x0
    p.addun a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addun a0, a1, a2, 1: rD=0x0 rs1=0x3 rs2=0x0
    li a0, 0x0
    li a1, 0x3
    li a2, 0x0
    p.addun a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addrn a0, a1, a2, 3: rD=0x0 rs1=0x64 rs2=0x7
    li a0, 0x0
    li a1, 0x64
    li a2, 0x7
    p.addrn a0, a1, a2, 3
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addrn a0, a1, a2, 4: rD=0x0 rs1=0xffffff00 rs2=0x10
    li a0, 0x0
    li a1, 0xffffff00
    li a2, 0x10
    p.addrn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addrn a0, a1, a2, 0: rD=0x0 rs1=0x5 rs2=0x6
    li a0, 0x0
    li a1, 0x5
    li a2, 0x6
    p.addrn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addrn a0, a1, a2, 31: rD=0x0 rs1=0x80000000 rs2=0x0
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x0
    p.addrn a0, a1, a2, 31
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addrn a0, a1, a2, 1: rD=0x0 rs1=0xfffffff9 rs2=0x0
    li a0, 0x0
    li a1, 0xfffffff9
    li a2, 0x0
    p.addrn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addrn a0, a1, a2, 1: rD=0x0 rs1=0x3 rs2=0x0
    li a0, 0x0
    li a1, 0x3
    li a2, 0x0
    p.addrn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addurn a0, a1, a2, 3: rD=0x0 rs1=0x64 rs2=0x7
    li a0, 0x0
    li a1, 0x64
    li a2, 0x7
    p.addurn a0, a1, a2, 3
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addurn a0, a1, a2, 4: rD=0x0 rs1=0xffffff00 rs2=0x10
    li a0, 0x0
    li a1, 0xffffff00
    li a2, 0x10
    p.addurn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addurn a0, a1, a2, 0: rD=0x0 rs1=0x5 rs2=0x6
    li a0, 0x0
    li a1, 0x5
    li a2, 0x6
    p.addurn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addurn a0, a1, a2, 31: rD=0x0 rs1=0x80000000 rs2=0x0
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x0
    p.addurn a0, a1, a2, 31
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addurn a0, a1, a2, 1: rD=0x0 rs1=0xfffffff9 rs2=0x0
    li a0, 0x0
    li a1, 0xfffffff9
    li a2, 0x0
    p.addurn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addurn a0, a1, a2, 1: rD=0x0 rs1=0x3 rs2=0x0
    li a0, 0x0
    li a1, 0x3
    li a2, 0x0
    p.addurn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.subn a0, a1, a2, 3: rD=0x0 rs1=0x64 rs2=0x7
    li a0, 0x0
    li a1, 0x64
    li a2, 0x7
    p.subn a0, a1, a2, 3
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.subn a0, a1, a2, 4: rD=0x0 rs1=0xffffff00 rs2=0x10
    li a0, 0x0
    li a1, 0xffffff00
    li a2, 0x10
    p.subn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.subn a0, a1, a2, 0: rD=0x0 rs1=0x5 rs2=0x6
    li a0, 0x0
    li a1, 0x5
    li a2, 0x6
    p.subn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.subn a0, a1, a2, 31: rD=0x0 rs1=0x80000000 rs2=0x0
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x0
    p.subn a0, a1, a2, 31
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.subn a0, a1, a2, 1: rD=0x0 rs1=0xfffffff9 rs2=0x0
    li a0, 0x0
    li a1, 0xfffffff9
    li a2, 0x0
    p.subn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.subn a0, a1, a2, 1: rD=0x0 rs1=0x3 rs2=0x0
    li a0, 0x0
    li a1, 0x3
    li a2, 0x0
    p.subn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.subun a0, a1, a2, 3: rD=0x0 rs1=0x64 rs2=0x7
    li a0, 0x0
    li a1, 0x64
    li a2, 0x7
    p.subun a0, a1, a2, 3
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.subun a0, a1, a2, 4: rD=0x0 rs1=0xffffff00 rs2=0x10
    li a0, 0x0
    li a1, 0xffffff00
    li a2, 0x10
    p.subun a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.subun a0, a1, a2, 0: rD=0x0 rs1=0x5 rs2=0x6
    li a0, 0x0
    li a1, 0x5
    li a2, 0x6
    p.subun a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.subun a0, a1, a2, 31: rD=0x0 rs1=0x80000000 rs2=0x0
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x0
    p.subun a0, a1, a2, 31
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.subun a0, a1, a2, 1: rD=0x0 rs1=0xfffffff9 rs2=0x0
    li a0, 0x0
    li a1, 0xfffffff9
    li a2, 0x0
    p.subun a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.subun a0, a1, a2, 1: rD=0x0 rs1=0x3 rs2=0x0
    li a0, 0x0
    li a1, 0x3
    li a2, 0x0
    p.subun a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.subrn a0, a1, a2, 3: rD=0x0 rs1=0x64 rs2=0x7
    li a0, 0x0
    li a1, 0x64
    li a2, 0x7
    p.subrn a0, a1, a2, 3
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.subrn a0, a1, a2, 4: rD=0x0 rs1=0xffffff00 rs2=0x10
    li a0, 0x0
    li a1, 0xffffff00
    li a2, 0x10
    p.subrn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.subrn a0, a1, a2, 0: rD=0x0 rs1=0x5 rs2=0x6
    li a0, 0x0
    li a1, 0x5
    li a2, 0x6
    p.subrn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.subrn a0, a1, a2, 31: rD=0x0 rs1=0x80000000 rs2=0x0
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x0
    p.subrn a0, a1, a2, 31
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.subrn a0, a1, a2, 1: rD=0x0 rs1=0xfffffff9 rs2=0x0
    li a0, 0x0
    li a1, 0xfffffff9
    li a2, 0x0
    p.subrn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.subrn a0, a1, a2, 1: rD=0x0 rs1=0x3 rs2=0x0
    li a0, 0x0
    li a1, 0x3
    li a2, 0x0
    p.subrn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.suburn a0, a1, a2, 3: rD=0x0 rs1=0x64 rs2=0x7
    li a0, 0x0
    li a1, 0x64
    li a2, 0x7
    p.suburn a0, a1, a2, 3
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.suburn a0, a1, a2, 4: rD=0x0 rs1=0xffffff00 rs2=0x10
    li a0, 0x0
    li a1, 0xffffff00
    li a2, 0x10
    p.suburn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.suburn a0, a1, a2, 0: rD=0x0 rs1=0x5 rs2=0x6
    li a0, 0x0
    li a1, 0x5
    li a2, 0x6
    p.suburn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.suburn a0, a1, a2, 31: rD=0x0 rs1=0x80000000 rs2=0x0
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x0
    p.suburn a0, a1, a2, 31
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.suburn a0, a1, a2, 1: rD=0x0 rs1=0xfffffff9 rs2=0x0
    li a0, 0x0
    li a1, 0xfffffff9
    li a2, 0x0
    p.suburn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.suburn a0, a1, a2, 1: rD=0x0 rs1=0x3 rs2=0x0
    li a0, 0x0
    li a1, 0x3
    li a2, 0x0
    p.suburn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addnr a0, a1, a2: rD=0x64 rs1=0x7 rs2=0x3
    li a0, 0x64
    li a1, 0x7
    li a2, 0x3
    p.addnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addnr a0, a1, a2: rD=0xffffff00 rs1=0x10 rs2=0xffffffe4
    li a0, 0xffffff00
    li a1, 0x10
    li a2, 0xffffffe4
    p.addnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addnr a0, a1, a2: rD=0x5 rs1=0x6 rs2=0x0
    li a0, 0x5
    li a1, 0x6
    li a2, 0x0
    p.addnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addnr a0, a1, a2: rD=0xfffffff9 rs1=0x0 rs2=0x1
    li a0, 0xfffffff9
    li a1, 0x0
    li a2, 0x1
    p.addnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addnr a0, a1, a2: rD=0x7 rs1=0x0 rs2=0x1
    li a0, 0x7
    li a1, 0x0
    li a2, 0x1
    p.addnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addunr a0, a1, a2: rD=0x64 rs1=0x7 rs2=0x3
    li a0, 0x64
    li a1, 0x7
    li a2, 0x3
    p.addunr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addunr a0, a1, a2: rD=0xffffff00 rs1=0x10 rs2=0xffffffe4
    li a0, 0xffffff00
    li a1, 0x10
    li a2, 0xffffffe4
    p.addunr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addunr a0, a1, a2: rD=0x5 rs1=0x6 rs2=0x0
    li a0, 0x5
    li a1, 0x6
    li a2, 0x0
    p.addunr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addunr a0, a1, a2: rD=0xfffffff9 rs1=0x0 rs2=0x1
    li a0, 0xfffffff9
    li a1, 0x0
    li a2, 0x1
    p.addunr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addunr a0, a1, a2: rD=0x7 rs1=0x0 rs2=0x1
    li a0, 0x7
    li a1, 0x0
    li a2, 0x1
    p.addunr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addrnr a0, a1, a2: rD=0x64 rs1=0x7 rs2=0x3
    li a0, 0x64
    li a1, 0x7
    li a2, 0x3
    p.addrnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addrnr a0, a1, a2: rD=0xffffff00 rs1=0x10 rs2=0xffffffe4
    li a0, 0xffffff00
    li a1, 0x10
    li a2, 0xffffffe4
    p.addrnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addrnr a0, a1, a2: rD=0x5 rs1=0x6 rs2=0x0
    li a0, 0x5
    li a1, 0x6
    li a2, 0x0
    p.addrnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addrnr a0, a1, a2: rD=0xfffffff9 rs1=0x0 rs2=0x1
    li a0, 0xfffffff9
    li a1, 0x0
    li a2, 0x1
    p.addrnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addrnr a0, a1, a2: rD=0x7 rs1=0x0 rs2=0x1
    li a0, 0x7
    li a1, 0x0
    li a2, 0x1
    p.addrnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addurnr a0, a1, a2: rD=0x64 rs1=0x7 rs2=0x3
    li a0, 0x64
    li a1, 0x7
    li a2, 0x3
    p.addurnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addurnr a0, a1, a2: rD=0xffffff00 rs1=0x10 rs2=0xffffffe4
    li a0, 0xffffff00
    li a1, 0x10
    li a2, 0xffffffe4
    p.addurnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addurnr a0, a1, a2: rD=0x5 rs1=0x6 rs2=0x0
    li a0, 0x5
    li a1, 0x6
    li a2, 0x0
    p.addurnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addurnr a0, a1, a2: rD=0xfffffff9 rs1=0x0 rs2=0x1
    li a0, 0xfffffff9
    li a1, 0x0
    li a2, 0x1
    p.addurnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.addurnr a0, a1, a2: rD=0x7 rs1=0x0 rs2=0x1
    li a0, 0x7
    li a1, 0x0
    li a2, 0x1
    p.addurnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.subnr a0, a1, a2: rD=0x64 rs1=0x7 rs2=0x3
    li a0, 0x64
    li a1, 0x7
    li a2, 0x3
    p.subnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.subnr a0, a1, a2: rD=0xffffff00 rs1=0x10 rs2=0xffffffe4
    li a0, 0xffffff00
    li a1, 0x10
    li a2, 0xffffffe4
    p.subnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.subnr a0, a1, a2: rD=0x5 rs1=0x6 rs2=0x0
    li a0, 0x5
    li a1, 0x6
    li a2, 0x0
    p.subnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.subnr a0, a1, a2: rD=0xfffffff9 rs1=0x0 rs2=0x1
    li a0, 0xfffffff9
    li a1, 0x0
    li a2, 0x1
    p.subnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.subnr a0, a1, a2: rD=0x7 rs1=0x0 rs2=0x1
    li a0, 0x7
    li a1, 0x0
    li a2, 0x1
    p.subnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.subunr a0, a1, a2: rD=0x64 rs1=0x7 rs2=0x3
    li a0, 0x64
    li a1, 0x7
    li a2, 0x3
    p.subunr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.subunr a0, a1, a2: rD=0xffffff00 rs1=0x10 rs2=0xffffffe4
    li a0, 0xffffff00
    li a1, 0x10
    li a2, 0xffffffe4
    p.subunr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.subunr a0, a1, a2: rD=0x5 rs1=0x6 rs2=0x0
    li a0, 0x5
    li a1, 0x6
    li a2, 0x0
    p.subunr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.subunr a0, a1, a2: rD=0xfffffff9 rs1=0x0 rs2=0x1
    li a0, 0xfffffff9
    li a1, 0x0
    li a2, 0x1
    p.subunr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.subunr a0, a1, a2: rD=0x7 rs1=0x0 rs2=0x1
    li a0, 0x7
    li a1, 0x0
    li a2, 0x1
    p.subunr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.subrnr a0, a1, a2: rD=0x64 rs1=0x7 rs2=0x3
    li a0, 0x64
    li a1, 0x7
    li a2, 0x3
    p.subrnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.subrnr a0, a1, a2: rD=0xffffff00 rs1=0x10 rs2=0xffffffe4
    li a0, 0xffffff00
    li a1, 0x10
    li a2, 0xffffffe4
    p.subrnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.subrnr a0, a1, a2: rD=0x5 rs1=0x6 rs2=0x0
    li a0, 0x5
    li a1, 0x6
    li a2, 0x0
    p.subrnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.subrnr a0, a1, a2: rD=0xfffffff9 rs1=0x0 rs2=0x1
    li a0, 0xfffffff9
    li a1, 0x0
    li a2, 0x1
    p.subrnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.subrnr a0, a1, a2: rD=0x7 rs1=0x0 rs2=0x1
    li a0, 0x7
    li a1, 0x0
    li a2, 0x1
    p.subrnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.suburnr a0, a1, a2: rD=0x64 rs1=0x7 rs2=0x3
    li a0, 0x64
    li a1, 0x7
    li a2, 0x3
    p.suburnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.suburnr a0, a1, a2: rD=0xffffff00 rs1=0x10 rs2=0xffffffe4
    li a0, 0xffffff00
    li a1, 0x10
    li a2, 0xffffffe4
    p.suburnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.suburnr a0, a1, a2: rD=0x5 rs1=0x6 rs2=0x0
    li a0, 0x5
    li a1, 0x6
    li a2, 0x0
    p.suburnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.suburnr a0, a1, a2: rD=0xfffffff9 rs1=0x0 rs2=0x1
    li a0, 0xfffffff9
    li a1, 0x0
    li a2, 0x1
    p.suburnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.suburnr a0, a1, a2: rD=0x7 rs1=0x0 rs2=0x1
    li a0, 0x7
    li a1, 0x0
    li a2, 0x1
    p.suburnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    li a0, 0
    li a7, 93
    ecall
    .data
out:
    .space 368
