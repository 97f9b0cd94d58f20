# Xpulpv2 32-bit multiply-accumulate (mac, msu) and the 16x16 multiply / multiply-accumulate
# family with normalisation and rounding, low and high half-words, signed and unsigned.
# Expected values (PULP binutils opcodes/riscv-opc.c; RI5CY user manual, Xpulp MAC instructions)
# are in xpulpv2_mac.exp, one word of `out` per case.
    .option norvc
    .text
    .globl _start
_start:
    la s0, out
    # p.mac a0, a1, a2: rD=0xa rs1=0x3 rs2=0x4
    li a0, 0xa
    li a1, 0x3
    li a2, 0x4
    p.mac a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.msu a0, a1, a2: rD=0xa rs1=0x3 rs2=0x4
    li a0, 0xa
    li a1, 0x3
    li a2, 0x4
    p.msu a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mac a0, a1, a2: rD=0x0 rs1=0xffffffff rs2=0xffffffff
    li a0, 0x0
    li a1, 0xffffffff
    li a2, 0xffffffff
    p.mac a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.msu a0, a1, a2: rD=0x0 rs1=0xffffffff rs2=0xffffffff
    li a0, 0x0
    li a1, 0xffffffff
    li a2, 0xffffffff
    p.msu a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mac a0, a1, a2: rD=0x7fffffff rs1=0x10000 rs2=0x10000
    li a0, 0x7fffffff
    li a1, 0x10000
    li a2, 0x10000
    p.mac a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.msu a0, a1, a2: rD=0x7fffffff rs1=0x10000 rs2=0x10000
    li a0, 0x7fffffff
    li a1, 0x10000
    li a2, 0x10000
    p.msu a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mac a0, a1, a2: rD=0x5 rs1=0x80000000 rs2=0xffffffff
    li a0, 0x5
    li a1, 0x80000000
    li a2, 0xffffffff
    p.mac a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.msu a0, a1, a2: rD=0x5 rs1=0x80000000 rs2=0xffffffff
    li a0, 0x5
    li a1, 0x80000000
    li a2, 0xffffffff
    p.msu a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulsn a0, a1, a2, 1: rD=0x3e8 rs1=0x3fffd rs2=0x7fff0002
    li a0, 0x3e8
    li a1, 0x3fffd
    li a2, 0x7fff0002
    p.mulsn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulsn a0, a1, a2, 4: rD=0xfffff000 rs1=0xffff8000 rs2=0x80008000
    li a0, 0xfffff000
    li a1, 0xffff8000
    li a2, 0x80008000
    p.mulsn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulsn a0, a1, a2, 0: rD=0x7 rs1=0x50007 rs2=0x90003
    li a0, 0x7
    li a1, 0x50007
    li a2, 0x90003
    p.mulsn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulsn a0, a1, a2, 15: rD=0x0 rs1=0x7fff7fff rs2=0x7fff7fff
    li a0, 0x0
    li a1, 0x7fff7fff
    li a2, 0x7fff7fff
    p.mulsn a0, a1, a2, 15
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulsn a0, a1, a2, 2: rD=0x64 rs1=0xfff60005 rs2=0x30007
    li a0, 0x64
    li a1, 0xfff60005
    li a2, 0x30007
    p.mulsn a0, a1, a2, 2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulsrn a0, a1, a2, 1: rD=0x3e8 rs1=0x3fffd rs2=0x7fff0002
    li a0, 0x3e8
    li a1, 0x3fffd
    li a2, 0x7fff0002
    p.mulsrn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulsrn a0, a1, a2, 4: rD=0xfffff000 rs1=0xffff8000 rs2=0x80008000
    li a0, 0xfffff000
    li a1, 0xffff8000
    li a2, 0x80008000
    p.mulsrn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulsrn a0, a1, a2, 0: rD=0x7 rs1=0x50007 rs2=0x90003
    li a0, 0x7
    li a1, 0x50007
    li a2, 0x90003
    p.mulsrn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulsrn a0, a1, a2, 15: rD=0x0 rs1=0x7fff7fff rs2=0x7fff7fff
    li a0, 0x0
    li a1, 0x7fff7fff
    li a2, 0x7fff7fff
    p.mulsrn a0, a1, a2, 15
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulsrn a0, a1, a2, 2: rD=0x64 rs1=0xfff60005 rs2=0x30007
    li a0, 0x64
    li a1, 0xfff60005
    li a2, 0x30007
    p.mulsrn a0, a1, a2, 2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulun a0, a1, a2, 1: rD=0x3e8 rs1=0x3fffd rs2=0x7fff0002
    li a0, 0x3e8
    li a1, 0x3fffd
    li a2, 0x7fff0002
    p.mulun a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulun a0, a1, a2, 4: rD=0xfffff000 rs1=0xffff8000 rs2=0x80008000
    li a0, 0xfffff000
    li a1, 0xffff8000
    li a2, 0x80008000
    p.mulun a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulun a0, a1, a2, 0: rD=0x7 rs1=0x50007 rs2=0x90003
    li a0, 0x7
    li a1, 0x50007
    li a2, 0x90003
    p.mulun a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulun a0, a1, a2, 15: rD=0x0 rs1=0x7fff7fff rs2=0x7fff7fff
    li a0, 0x0
    li a1, 0x7fff7fff
    li a2, 0x7fff7fff
    p.mulun a0, a1, a2, 15
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulun a0, a1, a2, 2: rD=0x64 rs1=0xfff60005 rs2=0x30007
    li a0, 0x64
    li a1, 0xfff60005
    li a2, 0x30007
    p.mulun a0, a1, a2, 2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulurn a0, a1, a2, 1: rD=0x3e8 rs1=0x3fffd rs2=0x7fff0002
    li a0, 0x3e8
    li a1, 0x3fffd
    li a2, 0x7fff0002
    p.mulurn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulurn a0, a1, a2, 4: rD=0xfffff000 rs1=0xffff8000 rs2=0x80008000
    li a0, 0xfffff000
    li a1, 0xffff8000
    li a2, 0x80008000
    p.mulurn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulurn a0, a1, a2, 0: rD=0x7 rs1=0x50007 rs2=0x90003
    li a0, 0x7
    li a1, 0x50007
    li a2, 0x90003
    p.mulurn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulurn a0, a1, a2, 15: rD=0x0 rs1=0x7fff7fff rs2=0x7fff7fff
    li a0, 0x0
    li a1, 0x7fff7fff
    li a2, 0x7fff7fff
    p.mulurn a0, a1, a2, 15
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulurn a0, a1, a2, 2: rD=0x64 rs1=0xfff60005 rs2=0x30007
    li a0, 0x64
    li a1, 0xfff60005
    li a2, 0x30007
    p.mulurn a0, a1, a2, 2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulhhsn a0, a1, a2, 1: rD=0x3e8 rs1=0x3fffd rs2=0x7fff0002
    li a0, 0x3e8
    li a1, 0x3fffd
    li a2, 0x7fff0002
    p.mulhhsn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulhhsn a0, a1, a2, 4: rD=0xfffff000 rs1=0xffff8000 rs2=0x80008000
    li a0, 0xfffff000
    li a1, 0xffff8000
    li a2, 0x80008000
    p.mulhhsn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulhhsn a0, a1, a2, 0: rD=0x7 rs1=0x50007 rs2=0x90003
    li a0, 0x7
    li a1, 0x50007
    li a2, 0x90003
    p.mulhhsn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulhhsn a0, a1, a2, 15: rD=0x0 rs1=0x7fff7fff rs2=0x7fff7fff
    li a0, 0x0
    li a1, 0x7fff7fff
    li a2, 0x7fff7fff
    p.mulhhsn a0, a1, a2, 15
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulhhsn a0, a1, a2, 2: rD=0x64 rs1=0xfff60005 rs2=0x30007
    li a0, 0x64
    li a1, 0xfff60005
    li a2, 0x30007
    p.mulhhsn a0, a1, a2, 2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulhhsrn a0, a1, a2, 1: rD=0x3e8 rs1=0x3fffd rs2=0x7fff0002
    li a0, 0x3e8
    li a1, 0x3fffd
    li a2, 0x7fff0002
    p.mulhhsrn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulhhsrn a0, a1, a2, 4: rD=0xfffff000 rs1=0xffff8000 rs2=0x80008000
    li a0, 0xfffff000
    li a1, 0xffff8000
    li a2, 0x80008000
    p.mulhhsrn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulhhsrn a0, a1, a2, 0: rD=0x7 rs1=0x50007 rs2=0x90003
    li a0, 0x7
    li a1, 0x50007
    li a2, 0x90003
    p.mulhhsrn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulhhsrn a0, a1, a2, 15: rD=0x0 rs1=0x7fff7fff rs2=0x7fff7fff
    li a0, 0x0
    li a1, 0x7fff7fff
    li a2, 0x7fff7fff
    p.mulhhsrn a0, a1, a2, 15
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulhhsrn a0, a1, a2, 2: rD=0x64 rs1=0xfff60005 rs2=0x30007
    li a0, 0x64
    li a1, 0xfff60005
    li a2, 0x30007
    p.mulhhsrn a0, a1, a2, 2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulhhun a0, a1, a2, 1: rD=0x3e8 rs1=0x3fffd rs2=0x7fff0002
    li a0, 0x3e8
    li a1, 0x3fffd
    li a2, 0x7fff0002
    p.mulhhun a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulhhun a0, a1, a2, 4: rD=0xfffff000 rs1=0xffff8000 rs2=0x80008000
    li a0, 0xfffff000
    li a1, 0xffff8000
    li a2, 0x80008000
    p.mulhhun a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulhhun a0, a1, a2, 0: rD=0x7 rs1=0x50007 rs2=0x90003
    li a0, 0x7
    li a1, 0x50007
    li a2, 0x90003
    p.mulhhun a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulhhun a0, a1, a2, 15: rD=0x0 rs1=0x7fff7fff rs2=0x7fff7fff
    li a0, 0x0
    li a1, 0x7fff7fff
    li a2, 0x7fff7fff
    p.mulhhun a0, a1, a2, 15
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulhhun a0, a1, a2, 2: rD=0x64 rs1=0xfff60005 rs2=0x30007
    li a0, 0x64
    li a1, 0xfff60005
    li a2, 0x30007
    p.mulhhun a0, a1, a2, 2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulhhurn a0, a1, a2, 1: rD=0x3e8 rs1=0x3fffd rs2=0x7fff0002
    li a0, 0x3e8
    li a1, 0x3fffd
    li a2, 0x7fff0002
    p.mulhhurn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulhhurn a0, a1, a2, 4: rD=0xfffff000 rs1=0xffff8000 rs2=0x80008000
    li a0, 0xfffff000
    li a1, 0xffff8000
    li a2, 0x80008000
    p.mulhhurn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulhhurn a0, a1, a2, 0: rD=0x7 rs1=0x50007 rs2=0x90003
    li a0, 0x7
    li a1, 0x50007
    li a2, 0x90003
    p.mulhhurn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulhhurn a0, a1, a2, 15: rD=0x0 rs1=0x7fff7fff rs2=0x7fff7fff
    li a0, 0x0
    li a1, 0x7fff7fff
    li a2, 0x7fff7fff
    p.mulhhurn a0, a1, a2, 15
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.mulhhurn a0, a1, a2, 2: rD=0x64 rs1=0xfff60005 rs2=0x30007
    li a0, 0x64
    li a1, 0xfff60005
    li a2, 0x30007
    p.mulhhurn a0, a1, a2, 2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.macsn a0, a1, a2, 1: rD=0x3e8 rs1=0x3fffd rs2=0x7fff0002
    li a0, 0x3e8
    li a1, 0x3fffd
    li a2, 0x7fff0002
    p.macsn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.macsn a0, a1, a2, 4: rD=0xfffff000 rs1=0xffff8000 rs2=0x80008000
    li a0, 0xfffff000
    li a1, 0xffff8000
    li a2, 0x80008000
    p.macsn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.macsn a0, a1, a2, 0: rD=0x7 rs1=0x50007 rs2=0x90003
    li a0, 0x7
    li a1, 0x50007
    li a2, 0x90003
    p.macsn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.macsn a0, a1, a2, 15: rD=0x0 rs1=0x7fff7fff rs2=0x7fff7fff
    li a0, 0x0
    li a1, 0x7fff7fff
    li a2, 0x7fff7fff
    p.macsn a0, a1, a2, 15
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.macsn a0, a1, a2, 2: rD=0x64 rs1=0xfff60005 rs2=0x30007
    li a0, 0x64
    li a1, 0xfff60005
    li a2, 0x30007
    p.macsn a0, a1, a2, 2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.macsrn a0, a1, a2, 1: rD=0x3e8 rs1=0x3fffd rs2=0x7fff0002
    li a0, 0x3e8
    li a1, 0x3fffd
    li a2, 0x7fff0002
    p.macsrn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.macsrn a0, a1, a2, 4: rD=0xfffff000 rs1=0xffff8000 rs2=0x80008000
    li a0, 0xfffff000
    li a1, 0xffff8000
    li a2, 0x80008000
    p.macsrn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.macsrn a0, a1, a2, 0: rD=0x7 rs1=0x50007 rs2=0x90003
    li a0, 0x7
    li a1, 0x50007
    li a2, 0x90003
    p.macsrn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.macsrn a0, a1, a2, 15: rD=0x0 rs1=0x7fff7fff rs2=0x7fff7fff
    li a0, 0x0
    li a1, 0x7fff7fff
    li a2, 0x7fff7fff
    p.macsrn a0, a1, a2, 15
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.macsrn a0, a1, a2, 2: rD=0x64 rs1=0xfff60005 rs2=0x30007
    li a0, 0x64
    li a1, 0xfff60005
    li a2, 0x30007
    p.macsrn a0, a1, a2, 2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.macun a0, a1, a2, 1: rD=0x3e8 rs1=0x3fffd rs2=0x7fff0002
    li a0, 0x3e8
    li a1, 0x3fffd
    li a2, 0x7fff0002
    p.macun a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.macun a0, a1, a2, 4: rD=0xfffff000 rs1=0xffff8000 rs2=0x80008000
    li a0, 0xfffff000
    li a1, 0xffff8000
    li a2, 0x80008000
    p.macun a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.macun a0, a1, a2, 0: rD=0x7 rs1=0x50007 rs2=0x90003
    li a0, 0x7
    li a1, 0x50007
    li a2, 0x90003
    p.macun a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.macun a0, a1, a2, 15: rD=0x0 rs1=0x7fff7fff rs2=0x7fff7fff
    li a0, 0x0
    li a1, 0x7fff7fff
    li a2, 0x7fff7fff
    p.macun a0, a1, a2, 15
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.macun a0, a1, a2, 2: rD=0x64 rs1=0xfff60005 rs2=0x30007
    li a0, 0x64
    li a1, 0xfff60005
    li a2, 0x30007
    p.macun a0, a1, a2, 2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.macurn a0, a1, a2, 1: rD=0x3e8 rs1=0x3fffd rs2=0x7fff0002
    li a0, 0x3e8
    li a1, 0x3fffd
    li a2, 0x7fff0002
    p.macurn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.macurn a0, a1, a2, 4: rD=0xfffff000 rs1=0xffff8000 rs2=0x80008000
    li a0, 0xfffff000
    li a1, 0xffff8000
    li a2, 0x80008000
    p.macurn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.macurn a0, a1, a2, 0: rD=0x7 rs1=0x50007 rs2=0x90003
    li a0, 0x7
    li a1, 0x50007
    li a2, 0x90003
    p.macurn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.macurn a0, a1, a2, 15: rD=0x0 rs1=0x7fff7fff rs2=0x7fff7fff
    li a0, 0x0
    li a1, 0x7fff7fff
    li a2, 0x7fff7fff
    p.macurn a0, a1, a2, 15
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.macurn a0, a1, a2, 2: rD=0x64 rs1=0xfff60005 rs2=0x30007
    li a0, 0x64
    li a1, 0xfff60005
    li a2, 0x30007
    p.macurn a0, a1, a2, 2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.machhsn a0, a1, a2, 1: rD=0x3e8 rs1=0x3fffd rs2=0x7fff0002
    li a0, 0x3e8
    li a1, 0x3fffd
    li a2, 0x7fff0002
    p.machhsn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.machhsn a0, a1, a2, 4: rD=0xfffff000 rs1=0xffff8000 rs2=0x80008000
    li a0, 0xfffff000
    li a1, 0xffff8000
    li a2, 0x80008000
    p.machhsn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.machhsn a0, a1, a2, 0: rD=0x7 rs1=0x50007 rs2=0x90003
    li a0, 0x7
    li a1, 0x50007
    li a2, 0x90003
    p.machhsn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.machhsn a0, a1, a2, 15: rD=0x0 rs1=0x7fff7fff rs2=0x7fff7fff
    li a0, 0x0
    li a1, 0x7fff7fff
    li a2, 0x7fff7fff
    p.machhsn a0, a1, a2, 15
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.machhsn a0, a1, a2, 2: rD=0x64 rs1=0xfff60005 rs2=0x30007
    li a0, 0x64
    li a1, 0xfff60005
    li a2, 0x30007
    p.machhsn a0, a1, a2, 2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.machhsrn a0, a1, a2, 1: rD=0x3e8 rs1=0x3fffd rs2=0x7fff0002
    li a0, 0x3e8
    li a1, 0x3fffd
    li a2, 0x7fff0002
    p.machhsrn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.machhsrn a0, a1, a2, 4: rD=0xfffff000 rs1=0xffff8000 rs2=0x80008000
    li a0, 0xfffff000
    li a1, 0xffff8000
    li a2, 0x80008000
    p.machhsrn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.machhsrn a0, a1, a2, 0: rD=0x7 rs1=0x50007 rs2=0x90003
    li a0, 0x7
    li a1, 0x50007
    li a2, 0x90003
    p.machhsrn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.machhsrn a0, a1, a2, 15: rD=0x0 rs1=0x7fff7fff rs2=0x7fff7fff
    li a0, 0x0
    li a1, 0x7fff7fff
    li a2, 0x7fff7fff
    p.machhsrn a0, a1, a2, 15
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.machhsrn a0, a1, a2, 2: rD=0x64 rs1=0xfff60005 rs2=0x30007
    li a0, 0x64
    li a1, 0xfff60005
    li a2, 0x30007
    p.machhsrn a0, a1, a2, 2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.machhun a0, a1, a2, 1: rD=0x3e8 rs1=0x3fffd rs2=0x7fff0002
    li a0, 0x3e8
    li a1, 0x3fffd
    li a2, 0x7fff0002
    p.machhun a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.machhun a0, a1, a2, 4: rD=0xfffff000 rs1=0xffff8000 rs2=0x80008000
    li a0, 0xfffff000
    li a1, 0xffff8000
    li a2, 0x80008000
    p.machhun a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.machhun a0, a1, a2, 0: rD=0x7 rs1=0x50007 rs2=0x90003
    li a0, 0x7
    li a1, 0x50007
    li a2, 0x90003
    p.machhun a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.machhun a0, a1, a2, 15: rD=0x0 rs1=0x7fff7fff rs2=0x7fff7fff
    li a0, 0x0
    li a1, 0x7fff7fff
    li a2, 0x7fff7fff
    p.machhun a0, a1, a2, 15
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.machhun a0, a1, a2, 2: rD=0x64 rs1=0xfff60005 rs2=0x30007
    li a0, 0x64
    li a1, 0xfff60005
    li a2, 0x30007
    p.machhun a0, a1, a2, 2
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.machhurn a0, a1, a2, 1: rD=0x3e8 rs1=0x3fffd rs2=0x7fff0002
    li a0, 0x3e8
    li a1, 0x3fffd
    li a2, 0x7fff0002
    p.machhurn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.machhurn a0, a1, a2, 4: rD=0xfffff000 rs1=0xffff8000 rs2=0x80008000
    li a0, 0xfffff000
    li a1, 0xffff8000
    li a2, 0x80008000
    p.machhurn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.machhurn a0, a1, a2, 0: rD=0x7 rs1=0x50007 rs2=0x90003
    li a0, 0x7
    li a1, 0x50007
    li a2, 0x90003
    p.machhurn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.machhurn a0, a1, a2, 15: rD=0x0 rs1=0x7fff7fff rs2=0x7fff7fff
    li a0, 0x0
    li a1, 0x7fff7fff
    li a2, 0x7fff7fff
    p.machhurn a0, a1, a2, 15
    sw a0, 0(s0)
    addi s0, s0, 4
    # p.machhurn a0, a1, a2, 2: rD=0x64 rs1=0xfff60005 rs2=0x30007
    li a0, 0x64
    li a1, 0xfff60005
    li a2, 0x30007
    p.machhurn a0, a1, a2, 2
    sw a0, 0(s0)
    addi s0, s0, 4
    li a0, 0
    li a7, 93
    ecall
    .data
out:
    .space 368
