# Xpulpv2 bit-field extract / insert / clear / set, immediate and register forms
# (register forms: length-1 in rs2[9:5], position in rs2[4:0]).
# Expected values (PULP binutils opcodes/riscv-opc.c; RI5CY user manual, bit-manipulation
# instructions) are in xpulpv2_bitmanip.exp, one word of `out` per case.
    .option norvc
    .text
    .globl _start
_start:
    la s0, out
    # p.extract a0, a1, 3, 4: rD=0x0 rs1=0xf0 rs2=0x0
    li a0, 0x0
    li a1, 0xf0
    li a2, 0x0
    p.extract a0, a1, 3, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.extractu a0, a1, 3, 4: rD=0x0 rs1=0xf0 rs2=0x0
    li a0, 0x0
    li a1, 0xf0
    li a2, 0x0
    p.extractu a0, a1, 3, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.extract a0, a1, 3, 4: rD=0x0 rs1=0x70 rs2=0x0
    li a0, 0x0
    li a1, 0x70
    li a2, 0x0
    p.extract a0, a1, 3, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.extractu a0, a1, 3, 4: rD=0x0 rs1=0x70 rs2=0x0
    li a0, 0x0
    li a1, 0x70
    li a2, 0x0
    p.extractu a0, a1, 3, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.extract a0, a1, 7, 8: rD=0x0 rs1=0xdeadbeef rs2=0x0
    li a0, 0x0
    li a1, 0xdeadbeef
    li a2, 0x0
    p.extract a0, a1, 7, 8
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.extractu a0, a1, 7, 8: rD=0x0 rs1=0xdeadbeef rs2=0x0
    li a0, 0x0
    li a1, 0xdeadbeef
    li a2, 0x0
    p.extractu a0, a1, 7, 8
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.extract a0, a1, 0, 31: rD=0x0 rs1=0x80000000 rs2=0x0
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x0
    p.extract a0, a1, 0, 31
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.extractu a0, a1, 0, 31: rD=0x0 rs1=0x80000000 rs2=0x0
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0x0
    p.extractu a0, a1, 0, 31
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.extract a0, a1, 31, 0: rD=0x0 rs1=0xdeadbeef rs2=0x0
    li a0, 0x0
    li a1, 0xdeadbeef
    li a2, 0x0
    p.extract a0, a1, 31, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.extractu a0, a1, 31, 0: rD=0x0 rs1=0xdeadbeef rs2=0x0
    li a0, 0x0
    li a1, 0xdeadbeef
    li a2, 0x0
    p.extractu a0, a1, 31, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.extract a0, a1, 15, 24: rD=0x0 rs1=0xdeadbeef rs2=0x0
    li a0, 0x0
    li a1, 0xdeadbeef
    li a2, 0x0
    p.extract a0, a1, 15, 24
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.extractu a0, a1, 15, 24: rD=0x0 rs1=0xdeadbeef rs2=0x0
    li a0, 0x0
    li a1, 0xdeadbeef
    li a2, 0x0
    p.extractu a0, a1, 15, 24
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.insert a0, a1, 7, 8: rD=0xffffffff rs1=0x0 rs2=0x0
    li a0, 0xffffffff
    li a1, 0x0
    li a2, 0x0
    p.insert a0, a1, 7, 8
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.insert a0, a1, 11, 20: rD=0x12345678 rs1=0xabc rs2=0x0
    li a0, 0x12345678
    li a1, 0xabc
    li a2, 0x0
    p.insert a0, a1, 11, 20
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.insert a0, a1, 4, 30: rD=0x0 rs1=0xffffffff rs2=0x0
    li a0, 0x0
    li a1, 0xffffffff
    li a2, 0x0
    p.insert a0, a1, 4, 30
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.insert a0, a1, 0, 0: rD=0x55555555 rs1=0xaa rs2=0x0
    li a0, 0x55555555
    li a1, 0xaa
    li a2, 0x0
    p.insert a0, a1, 0, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.bclr a0, a1, 7, 8: rD=0x0 rs1=0xffffffff rs2=0x0
    li a0, 0x0
    li a1, 0xffffffff
    li a2, 0x0
    p.bclr a0, a1, 7, 8
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.bset a0, a1, 7, 8: rD=0x0 rs1=0x0 rs2=0x0
    li a0, 0x0
    li a1, 0x0
    li a2, 0x0
    p.bset a0, a1, 7, 8
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.bclr a0, a1, 4, 30: rD=0x0 rs1=0xffffffff rs2=0x0
    li a0, 0x0
    li a1, 0xffffffff
    li a2, 0x0
    p.bclr a0, a1, 4, 30
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.bset a0, a1, 4, 30: rD=0x0 rs1=0x0 rs2=0x0
    li a0, 0x0
    li a1, 0x0
    li a2, 0x0
    p.bset a0, a1, 4, 30
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.bclr a0, a1, 31, 0: rD=0x0 rs1=0xf0f0f0f rs2=0x0
    li a0, 0x0
    li a1, 0xf0f0f0f
    li a2, 0x0
    p.bclr a0, a1, 31, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.bset a0, a1, 31, 0: rD=0x0 rs1=0xf0f0f0f0 rs2=0x0
    li a0, 0x0
    li a1, 0xf0f0f0f0
    li a2, 0x0
    p.bset a0, a1, 31, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.extractr a0, a1, a2: rD=0x0 rs1=0xdeadbeef rs2=0xfffffce8
    li a0, 0x0
    li a1, 0xdeadbeef
    li a2, 0xfffffce8
    p.extractr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.extractur a0, a1, a2: rD=0x0 rs1=0xdeadbeef rs2=0xfffffce8
    li a0, 0x0
    li a1, 0xdeadbeef
    li a2, 0xfffffce8
    p.extractur a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.extractr a0, a1, a2: rD=0x0 rs1=0x80000000 rs2=0xfffffc1f
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0xfffffc1f
    p.extractr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.extractur a0, a1, a2: rD=0x0 rs1=0x80000000 rs2=0xfffffc1f
    li a0, 0x0
    li a1, 0x80000000
    li a2, 0xfffffc1f
    p.extractur a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.extractr a0, a1, a2: rD=0x0 rs1=0xdeadbeef rs2=0xfffffdf8
    li a0, 0x0
    li a1, 0xdeadbeef
    li a2, 0xfffffdf8
    p.extractr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.extractur a0, a1, a2: rD=0x0 rs1=0xdeadbeef rs2=0xfffffdf8
    li a0, 0x0
    li a1, 0xdeadbeef
    li a2, 0xfffffdf8
    p.extractur a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.extractr a0, a1, a2: rD=0x0 rs1=0xf0 rs2=0xfffffc64
    li a0, 0x0
    li a1, 0xf0
    li a2, 0xfffffc64
    p.extractr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.extractur a0, a1, a2: rD=0x0 rs1=0xf0 rs2=0xfffffc64
    li a0, 0x0
    li a1, 0xf0
    li a2, 0xfffffc64
    p.extractur a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.insertr a0, a1, a2: rD=0xffffffff rs1=0x0 rs2=0xe8
    li a0, 0xffffffff
    li a1, 0x0
    li a2, 0xe8
    p.insertr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.insertr a0, a1, a2: rD=0x12345678 rs1=0xabc rs2=0x174
    li a0, 0x12345678
    li a1, 0xabc
    li a2, 0x174
    p.insertr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.bclrr a0, a1, a2: rD=0x0 rs1=0xffffffff rs2=0xe8
    li a0, 0x0
    li a1, 0xffffffff
    li a2, 0xe8
    p.bclrr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.bsetr a0, a1, a2: rD=0x0 rs1=0x0 rs2=0xe8
    li a0, 0x0
    li a1, 0x0
    li a2, 0xe8
    p.bsetr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.bclrr a0, a1, a2: rD=0x0 rs1=0xffffffff rs2=0x9e
    li a0, 0x0
    li a1, 0xffffffff
    li a2, 0x9e
    p.bclrr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.bsetr a0, a1, a2: rD=0x0 rs1=0x0 rs2=0x9e
    li a0, 0x0
    li a1, 0x0
    li a2, 0x9e
    p.bsetr a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    li a0, 0
    li a7, 93
    ecall
    .data
out:
    .space 160
