# CORE-V (cv.*) add/sub with normalisation (arithmetic / logical shift, rounding), immediate and
# register forms (register forms: (rD op rs1) >> rs2[4:0]).
# Expected values (CV32E40P v2 manual, instruction_set_extensions.rst) are in corev_addn.exp, one
# word of `out` per case.
    .option norvc
    .text
    .globl _start
_start:
    la s0, out
    # cv.addn a0, a1, a2, 3: rD=0x0 rs1=0x64 rs2=0x7
    li a0, 0x0
    li a1, 0x64
    li a2, 0x7
    cv.addn a0, a1, a2, 3
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addn a0, a1, a2, 4: rD=0x0 rs1=0xffffff00 rs2=0x10
    li a0, 0x0
    li a1, 0xffffff00
    li a2, 0x10
    cv.addn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addn a0, a1, a2, 0: rD=0x0 rs1=0x5 rs2=0x6
    li a0, 0x0
    li a1, 0x5
    li a2, 0x6
    cv.addn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addn a0, a1, a2, 31: rD=0x0 rs1=0x80000000 rs2=0x0
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x0
    cv.addn a0, a1, a2, 31
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addn a0, a1, a2, 1: rD=0x0 rs1=0xfffffff9 rs2=0x0
    li a0, 0x0
    li a1, 0xfffffff9
    li a2, 0x0
    cv.addn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addn a0, a1, a2, 1: rD=0x0 rs1=0x3 rs2=0x0
    li a0, 0x0
    li a1, 0x3
    li a2, 0x0
    cv.addn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addun a0, a1, a2, 3: rD=0x0 rs1=0x64 rs2=0x7
    li a0, 0x0
    li a1, 0x64
    li a2, 0x7
    cv.addun a0, a1, a2, 3
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addun a0, a1, a2, 4: rD=0x0 rs1=0xffffff00 rs2=0x10
    li a0, 0x0
    li a1, 0xffffff00
    li a2, 0x10
    cv.addun a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addun a0, a1, a2, 0: rD=0x0 rs1=0x5 rs2=0x6
    li a0, 0x0
    li a1, 0x5
    li a2, 0x6
    cv.addun a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addun a0, a1, a2, 31: rD=0x0 rs1=0x80000000 rs2=0x0
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x0
    cv.addun a0, a1, a2, 31
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addun a0, a1, a2, 1: rD=0x0 rs1=0xfffffff9 rs2=0x0
    li a0, 0x0
    li a1, 0xfffffff9
    li a2, 0x0
    cv.addun a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addun a0, a1, a2, 1: rD=0x0 rs1=0x3 rs2=0x0
    li a0, 0x0
    li a1, 0x3
    li a2, 0x0
    cv.addun a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addrn a0, a1, a2, 3: rD=0x0 rs1=0x64 rs2=0x7
    li a0, 0x0
    li a1, 0x64
    li a2, 0x7
    cv.addrn a0, a1, a2, 3
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addrn a0, a1, a2, 4: rD=0x0 rs1=0xffffff00 rs2=0x10
    li a0, 0x0
    li a1, 0xffffff00
    li a2, 0x10
    cv.addrn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addrn a0, a1, a2, 0: rD=0x0 rs1=0x5 rs2=0x6
    li a0, 0x0
    li a1, 0x5
    li a2, 0x6
    cv.addrn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addrn a0, a1, a2, 31: rD=0x0 rs1=0x80000000 rs2=0x0
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x0
    cv.addrn a0, a1, a2, 31
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addrn a0, a1, a2, 1: rD=0x0 rs1=0xfffffff9 rs2=0x0
    li a0, 0x0
    li a1, 0xfffffff9
    li a2, 0x0
    cv.addrn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addrn a0, a1, a2, 1: rD=0x0 rs1=0x3 rs2=0x0
    li a0, 0x0
    li a1, 0x3
    li a2, 0x0
    cv.addrn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addurn a0, a1, a2, 3: rD=0x0 rs1=0x64 rs2=0x7
    li a0, 0x0
    li a1, 0x64
    li a2, 0x7
    cv.addurn a0, a1, a2, 3
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addurn a0, a1, a2, 4: rD=0x0 rs1=0xffffff00 rs2=0x10
    li a0, 0x0
    li a1, 0xffffff00
    li a2, 0x10
    cv.addurn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addurn a0, a1, a2, 0: rD=0x0 rs1=0x5 rs2=0x6
    li a0, 0x0
    li a1, 0x5
    li a2, 0x6
    cv.addurn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addurn a0, a1, a2, 31: rD=0x0 rs1=0x80000000 rs2=0x0
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x0
    cv.addurn a0, a1, a2, 31
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addurn a0, a1, a2, 1: rD=0x0 rs1=0xfffffff9 rs2=0x0
    li a0, 0x0
    li a1, 0xfffffff9
    li a2, 0x0
    cv.addurn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addurn a0, a1, a2, 1: rD=0x0 rs1=0x3 rs2=0x0
    li a0, 0x0
    li a1, 0x3
    li a2, 0x0
    cv.addurn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.subn a0, a1, a2, 3: rD=0x0 rs1=0x64 rs2=0x7
    li a0, 0x0
    li a1, 0x64
    li a2, 0x7
    cv.subn a0, a1, a2, 3
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.subn a0, a1, a2, 4: rD=0x0 rs1=0xffffff00 rs2=0x10
    li a0, 0x0
    li a1, 0xffffff00
    li a2, 0x10
    cv.subn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.subn a0, a1, a2, 0: rD=0x0 rs1=0x5 rs2=0x6
    li a0, 0x0
    li a1, 0x5
    li a2, 0x6
    cv.subn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.subn a0, a1, a2, 31: rD=0x0 rs1=0x80000000 rs2=0x0
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x0
    cv.subn a0, a1, a2, 31
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.subn a0, a1, a2, 1: rD=0x0 rs1=0xfffffff9 rs2=0x0
    li a0, 0x0
    li a1, 0xfffffff9
    li a2, 0x0
    cv.subn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.subn a0, a1, a2, 1: rD=0x0 rs1=0x3 rs2=0x0
    li a0, 0x0
    li a1, 0x3
    li a2, 0x0
    cv.subn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.subun a0, a1, a2, 3: rD=0x0 rs1=0x64 rs2=0x7
    li a0, 0x0
    li a1, 0x64
    li a2, 0x7
    cv.subun a0, a1, a2, 3
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.subun a0, a1, a2, 4: rD=0x0 rs1=0xffffff00 rs2=0x10
    li a0, 0x0
    li a1, 0xffffff00
    li a2, 0x10
    cv.subun a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.subun a0, a1, a2, 0: rD=0x0 rs1=0x5 rs2=0x6
    li a0, 0x0
    li a1, 0x5
    li a2, 0x6
    cv.subun a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.subun a0, a1, a2, 31: rD=0x0 rs1=0x80000000 rs2=0x0
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x0
    cv.subun a0, a1, a2, 31
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.subun a0, a1, a2, 1: rD=0x0 rs1=0xfffffff9 rs2=0x0
    li a0, 0x0
    li a1, 0xfffffff9
    li a2, 0x0
    cv.subun a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.subun a0, a1, a2, 1: rD=0x0 rs1=0x3 rs2=0x0
    li a0, 0x0
    li a1, 0x3
    li a2, 0x0
    cv.subun a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.subrn a0, a1, a2, 3: rD=0x0 rs1=0x64 rs2=0x7
    li a0, 0x0
    li a1, 0x64
    li a2, 0x7
    cv.subrn a0, a1, a2, 3
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.subrn a0, a1, a2, 4: rD=0x0 rs1=0xffffff00 rs2=0x10
    li a0, 0x0
    li a1, 0xffffff00
    li a2, 0x10
    cv.subrn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.subrn a0, a1, a2, 0: rD=0x0 rs1=0x5 rs2=0x6
    li a0, 0x0
    li a1, 0x5
    li a2, 0x6
    cv.subrn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.subrn a0, a1, a2, 31: rD=0x0 rs1=0x80000000 rs2=0x0
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x0
    cv.subrn a0, a1, a2, 31
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.subrn a0, a1, a2, 1: rD=0x0 rs1=0xfffffff9 rs2=0x0
    li a0, 0x0
    li a1, 0xfffffff9
    li a2, 0x0
    cv.subrn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.subrn a0, a1, a2, 1: rD=0x0 rs1=0x3 rs2=0x0
    li a0, 0x0
    li a1, 0x3
    li a2, 0x0
    cv.subrn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.suburn a0, a1, a2, 3: rD=0x0 rs1=0x64 rs2=0x7
    li a0, 0x0
    li a1, 0x64
    li a2, 0x7
    cv.suburn a0, a1, a2, 3
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.suburn a0, a1, a2, 4: rD=0x0 rs1=0xffffff00 rs2=0x10
    li a0, 0x0
    li a1, 0xffffff00
    li a2, 0x10
    cv.suburn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.suburn a0, a1, a2, 0: rD=0x0 rs1=0x5 rs2=0x6
    li a0, 0x0
    li a1, 0x5
    li a2, 0x6
    cv.suburn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.suburn a0, a1, a2, 31: rD=0x0 rs1=0x80000000 rs2=0x0
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x0
    cv.suburn a0, a1, a2, 31
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.suburn a0, a1, a2, 1: rD=0x0 rs1=0xfffffff9 rs2=0x0
    li a0, 0x0
    li a1, 0xfffffff9
    li a2, 0x0
    cv.suburn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.suburn a0, a1, a2, 1: rD=0x0 rs1=0x3 rs2=0x0
    li a0, 0x0
    li a1, 0x3
    li a2, 0x0
    cv.suburn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addnr a0, a1, a2: rD=0x64 rs1=0x7 rs2=0x3
    li a0, 0x64
    li a1, 0x7
    li a2, 0x3
    cv.addnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addnr a0, a1, a2: rD=0xffffff00 rs1=0x10 rs2=0xffffffe4
    li a0, 0xffffff00
    li a1, 0x10
    li a2, 0xffffffe4
    cv.addnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addnr a0, a1, a2: rD=0x5 rs1=0x6 rs2=0x0
    li a0, 0x5
    li a1, 0x6
    li a2, 0x0
    cv.addnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addnr a0, a1, a2: rD=0xfffffff9 rs1=0x0 rs2=0x1
    li a0, 0xfffffff9
    li a1, 0x0
    li a2, 0x1
    cv.addnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addnr a0, a1, a2: rD=0x7 rs1=0x0 rs2=0x1
    li a0, 0x7
    li a1, 0x0
    li a2, 0x1
    cv.addnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addunr a0, a1, a2: rD=0x64 rs1=0x7 rs2=0x3
    li a0, 0x64
    li a1, 0x7
    li a2, 0x3
    cv.addunr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addunr a0, a1, a2: rD=0xffffff00 rs1=0x10 rs2=0xffffffe4
    li a0, 0xffffff00
    li a1, 0x10
    li a2, 0xffffffe4
    cv.addunr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addunr a0, a1, a2: rD=0x5 rs1=0x6 rs2=0x0
    li a0, 0x5
    li a1, 0x6
    li a2, 0x0
    cv.addunr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addunr a0, a1, a2: rD=0xfffffff9 rs1=0x0 rs2=0x1
    li a0, 0xfffffff9
    li a1, 0x0
    li a2, 0x1
    cv.addunr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addunr a0, a1, a2: rD=0x7 rs1=0x0 rs2=0x1
    li a0, 0x7
    li a1, 0x0
    li a2, 0x1
    cv.addunr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addrnr a0, a1, a2: rD=0x64 rs1=0x7 rs2=0x3
    li a0, 0x64
    li a1, 0x7
    li a2, 0x3
    cv.addrnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addrnr a0, a1, a2: rD=0xffffff00 rs1=0x10 rs2=0xffffffe4
    li a0, 0xffffff00
    li a1, 0x10
    li a2, 0xffffffe4
    cv.addrnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addrnr a0, a1, a2: rD=0x5 rs1=0x6 rs2=0x0
    li a0, 0x5
    li a1, 0x6
    li a2, 0x0
    cv.addrnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addrnr a0, a1, a2: rD=0xfffffff9 rs1=0x0 rs2=0x1
    li a0, 0xfffffff9
    li a1, 0x0
    li a2, 0x1
    cv.addrnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addrnr a0, a1, a2: rD=0x7 rs1=0x0 rs2=0x1
    li a0, 0x7
    li a1, 0x0
    li a2, 0x1
    cv.addrnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addurnr a0, a1, a2: rD=0x64 rs1=0x7 rs2=0x3
    li a0, 0x64
    li a1, 0x7
    li a2, 0x3
    cv.addurnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addurnr a0, a1, a2: rD=0xffffff00 rs1=0x10 rs2=0xffffffe4
    li a0, 0xffffff00
    li a1, 0x10
    li a2, 0xffffffe4
    cv.addurnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addurnr a0, a1, a2: rD=0x5 rs1=0x6 rs2=0x0
    li a0, 0x5
    li a1, 0x6
    li a2, 0x0
    cv.addurnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addurnr a0, a1, a2: rD=0xfffffff9 rs1=0x0 rs2=0x1
    li a0, 0xfffffff9
    li a1, 0x0
    li a2, 0x1
    cv.addurnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.addurnr a0, a1, a2: rD=0x7 rs1=0x0 rs2=0x1
    li a0, 0x7
    li a1, 0x0
    li a2, 0x1
    cv.addurnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.subnr a0, a1, a2: rD=0x64 rs1=0x7 rs2=0x3
    li a0, 0x64
    li a1, 0x7
    li a2, 0x3
    cv.subnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.subnr a0, a1, a2: rD=0xffffff00 rs1=0x10 rs2=0xffffffe4
    li a0, 0xffffff00
    li a1, 0x10
    li a2, 0xffffffe4
    cv.subnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.subnr a0, a1, a2: rD=0x5 rs1=0x6 rs2=0x0
    li a0, 0x5
    li a1, 0x6
    li a2, 0x0
    cv.subnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.subnr a0, a1, a2: rD=0xfffffff9 rs1=0x0 rs2=0x1
    li a0, 0xfffffff9
    li a1, 0x0
    li a2, 0x1
    cv.subnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.subnr a0, a1, a2: rD=0x7 rs1=0x0 rs2=0x1
    li a0, 0x7
    li a1, 0x0
    li a2, 0x1
    cv.subnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.subunr a0, a1, a2: rD=0x64 rs1=0x7 rs2=0x3
    li a0, 0x64
    li a1, 0x7
    li a2, 0x3
    cv.subunr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.subunr a0, a1, a2: rD=0xffffff00 rs1=0x10 rs2=0xffffffe4
    li a0, 0xffffff00
    li a1, 0x10
    li a2, 0xffffffe4
    cv.subunr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.subunr a0, a1, a2: rD=0x5 rs1=0x6 rs2=0x0
    li a0, 0x5
    li a1, 0x6
    li a2, 0x0
    cv.subunr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.subunr a0, a1, a2: rD=0xfffffff9 rs1=0x0 rs2=0x1
    li a0, 0xfffffff9
    li a1, 0x0
    li a2, 0x1
    cv.subunr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.subunr a0, a1, a2: rD=0x7 rs1=0x0 rs2=0x1
    li a0, 0x7
    li a1, 0x0
    li a2, 0x1
    cv.subunr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.subrnr a0, a1, a2: rD=0x64 rs1=0x7 rs2=0x3
    li a0, 0x64
    li a1, 0x7
    li a2, 0x3
    cv.subrnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.subrnr a0, a1, a2: rD=0xffffff00 rs1=0x10 rs2=0xffffffe4
    li a0, 0xffffff00
    li a1, 0x10
    li a2, 0xffffffe4
    cv.subrnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.subrnr a0, a1, a2: rD=0x5 rs1=0x6 rs2=0x0
    li a0, 0x5
    li a1, 0x6
    li a2, 0x0
    cv.subrnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.subrnr a0, a1, a2: rD=0xfffffff9 rs1=0x0 rs2=0x1
    li a0, 0xfffffff9
    li a1, 0x0
    li a2, 0x1
    cv.subrnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.subrnr a0, a1, a2: rD=0x7 rs1=0x0 rs2=0x1
    li a0, 0x7
    li a1, 0x0
    li a2, 0x1
    cv.subrnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.suburnr a0, a1, a2: rD=0x64 rs1=0x7 rs2=0x3
    li a0, 0x64
    li a1, 0x7
    li a2, 0x3
    cv.suburnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.suburnr a0, a1, a2: rD=0xffffff00 rs1=0x10 rs2=0xffffffe4
    li a0, 0xffffff00
    li a1, 0x10
    li a2, 0xffffffe4
    cv.suburnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.suburnr a0, a1, a2: rD=0x5 rs1=0x6 rs2=0x0
    li a0, 0x5
    li a1, 0x6
    li a2, 0x0
    cv.suburnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.suburnr a0, a1, a2: rD=0xfffffff9 rs1=0x0 rs2=0x1
    li a0, 0xfffffff9
    li a1, 0x0
    li a2, 0x1
    cv.suburnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.suburnr a0, a1, a2: rD=0x7 rs1=0x0 rs2=0x1
    li a0, 0x7
    li a1, 0x0
    li a2, 0x1
    cv.suburnr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    li a0, 0
    li a7, 93
    ecall
    .data
out:
    .space 368
