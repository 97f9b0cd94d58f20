# CORE-V (cv.*) 32-bit multiply-accumulate (mac, msu) and the 16x16 multiply / multiply-accumulate
# family with normalisation and rounding, low and high half-words, signed and unsigned.
# Expected values (CV32E40P v2 manual, instruction_set_extensions.rst) are in corev_mac.exp, one
# word of `out` per case.
    .option norvc
    .text
    .globl _start
_start:
    la s0, out
    # cv.mac a0, a1, a2: rD=0xa rs1=0x3 rs2=0x4
    li a0, 0xa
    li a1, 0x3
    li a2, 0x4
    cv.mac a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.msu a0, a1, a2: rD=0xa rs1=0x3 rs2=0x4
    li a0, 0xa
    li a1, 0x3
    li a2, 0x4
    cv.msu a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mac a0, a1, a2: rD=0x0 rs1=0xffffffff rs2=0xffffffff
    li a0, 0x0
    li a1, 0xffffffff
    li a2, 0xffffffff
    cv.mac a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.msu a0, a1, a2: rD=0x0 rs1=0xffffffff rs2=0xffffffff
    li a0, 0x0
    li a1, 0xffffffff
    li a2, 0xffffffff
    cv.msu a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mac a0, a1, a2: rD=0x7fffffff rs1=0x10000 rs2=0x10000
    li a0, 0x7fffffff
    li a1, 0x10000
    li a2, 0x10000
    cv.mac a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.msu a0, a1, a2: rD=0x7fffffff rs1=0x10000 rs2=0x10000
    li a0, 0x7fffffff
    li a1, 0x10000
    li a2, 0x10000
    cv.msu a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mac a0, a1, a2: rD=0x5 rs1=0x80000000 rs2=0xffffffff
    li a0, 0x5
    li a1, 0x80000000
    li a2, 0xffffffff
    cv.mac a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.msu a0, a1, a2: rD=0x5 rs1=0x80000000 rs2=0xffffffff
    li a0, 0x5
    li a1, 0x80000000
    li a2, 0xffffffff
    cv.msu a0, a1, a2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulsn a0, a1, a2, 1: rD=0x3e8 rs1=0x3fffd rs2=0x7fff0002
    li a0, 0x3e8
    li a1, 0x3fffd
    li a2, 0x7fff0002
    cv.mulsn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulsn a0, a1, a2, 4: rD=0xfffff000 rs1=0xffff8000 rs2=0x80008000
    li a0, 0xfffff000
    li a1, 0xffff8000
    li a2, 0x80008000
    cv.mulsn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulsn a0, a1, a2, 0: rD=0x7 rs1=0x50007 rs2=0x90003
    li a0, 0x7
    li a1, 0x50007
    li a2, 0x90003
    cv.mulsn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulsn a0, a1, a2, 15: rD=0x0 rs1=0x7fff7fff rs2=0x7fff7fff
    li a0, 0x0
    li a1, 0x7fff7fff
    li a2, 0x7fff7fff
    cv.mulsn a0, a1, a2, 15
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulsn a0, a1, a2, 2: rD=0x64 rs1=0xfff60005 rs2=0x30007
    li a0, 0x64
    li a1, 0xfff60005
    li a2, 0x30007
    cv.mulsn a0, a1, a2, 2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulsrn a0, a1, a2, 1: rD=0x3e8 rs1=0x3fffd rs2=0x7fff0002
    li a0, 0x3e8
    li a1, 0x3fffd
    li a2, 0x7fff0002
    cv.mulsrn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulsrn a0, a1, a2, 4: rD=0xfffff000 rs1=0xffff8000 rs2=0x80008000
    li a0, 0xfffff000
    li a1, 0xffff8000
    li a2, 0x80008000
    cv.mulsrn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulsrn a0, a1, a2, 0: rD=0x7 rs1=0x50007 rs2=0x90003
    li a0, 0x7
    li a1, 0x50007
    li a2, 0x90003
    cv.mulsrn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulsrn a0, a1, a2, 15: rD=0x0 rs1=0x7fff7fff rs2=0x7fff7fff
    li a0, 0x0
    li a1, 0x7fff7fff
    li a2, 0x7fff7fff
    cv.mulsrn a0, a1, a2, 15
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulsrn a0, a1, a2, 2: rD=0x64 rs1=0xfff60005 rs2=0x30007
    li a0, 0x64
    li a1, 0xfff60005
    li a2, 0x30007
    cv.mulsrn a0, a1, a2, 2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulun a0, a1, a2, 1: rD=0x3e8 rs1=0x3fffd rs2=0x7fff0002
    li a0, 0x3e8
    li a1, 0x3fffd
    li a2, 0x7fff0002
    cv.mulun a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulun a0, a1, a2, 4: rD=0xfffff000 rs1=0xffff8000 rs2=0x80008000
    li a0, 0xfffff000
    li a1, 0xffff8000
    li a2, 0x80008000
    cv.mulun a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulun a0, a1, a2, 0: rD=0x7 rs1=0x50007 rs2=0x90003
    li a0, 0x7
    li a1, 0x50007
    li a2, 0x90003
    cv.mulun a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulun a0, a1, a2, 15: rD=0x0 rs1=0x7fff7fff rs2=0x7fff7fff
    li a0, 0x0
    li a1, 0x7fff7fff
    li a2, 0x7fff7fff
    cv.mulun a0, a1, a2, 15
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulun a0, a1, a2, 2: rD=0x64 rs1=0xfff60005 rs2=0x30007
    li a0, 0x64
    li a1, 0xfff60005
    li a2, 0x30007
    cv.mulun a0, a1, a2, 2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulurn a0, a1, a2, 1: rD=0x3e8 rs1=0x3fffd rs2=0x7fff0002
    li a0, 0x3e8
    li a1, 0x3fffd
    li a2, 0x7fff0002
    cv.mulurn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulurn a0, a1, a2, 4: rD=0xfffff000 rs1=0xffff8000 rs2=0x80008000
    li a0, 0xfffff000
    li a1, 0xffff8000
    li a2, 0x80008000
    cv.mulurn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulurn a0, a1, a2, 0: rD=0x7 rs1=0x50007 rs2=0x90003
    li a0, 0x7
    li a1, 0x50007
    li a2, 0x90003
    cv.mulurn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulurn a0, a1, a2, 15: rD=0x0 rs1=0x7fff7fff rs2=0x7fff7fff
    li a0, 0x0
    li a1, 0x7fff7fff
    li a2, 0x7fff7fff
    cv.mulurn a0, a1, a2, 15
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulurn a0, a1, a2, 2: rD=0x64 rs1=0xfff60005 rs2=0x30007
    li a0, 0x64
    li a1, 0xfff60005
    li a2, 0x30007
    cv.mulurn a0, a1, a2, 2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulhhsn a0, a1, a2, 1: rD=0x3e8 rs1=0x3fffd rs2=0x7fff0002
    li a0, 0x3e8
    li a1, 0x3fffd
    li a2, 0x7fff0002
    cv.mulhhsn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulhhsn a0, a1, a2, 4: rD=0xfffff000 rs1=0xffff8000 rs2=0x80008000
    li a0, 0xfffff000
    li a1, 0xffff8000
    li a2, 0x80008000
    cv.mulhhsn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulhhsn a0, a1, a2, 0: rD=0x7 rs1=0x50007 rs2=0x90003
    li a0, 0x7
    li a1, 0x50007
    li a2, 0x90003
    cv.mulhhsn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulhhsn a0, a1, a2, 15: rD=0x0 rs1=0x7fff7fff rs2=0x7fff7fff
    li a0, 0x0
    li a1, 0x7fff7fff
    li a2, 0x7fff7fff
    cv.mulhhsn a0, a1, a2, 15
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulhhsn a0, a1, a2, 2: rD=0x64 rs1=0xfff60005 rs2=0x30007
    li a0, 0x64
    li a1, 0xfff60005
    li a2, 0x30007
    cv.mulhhsn a0, a1, a2, 2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulhhsrn a0, a1, a2, 1: rD=0x3e8 rs1=0x3fffd rs2=0x7fff0002
    li a0, 0x3e8
    li a1, 0x3fffd
    li a2, 0x7fff0002
    cv.mulhhsrn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulhhsrn a0, a1, a2, 4: rD=0xfffff000 rs1=0xffff8000 rs2=0x80008000
    li a0, 0xfffff000
    li a1, 0xffff8000
    li a2, 0x80008000
    cv.mulhhsrn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulhhsrn a0, a1, a2, 0: rD=0x7 rs1=0x50007 rs2=0x90003
    li a0, 0x7
    li a1, 0x50007
    li a2, 0x90003
    cv.mulhhsrn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulhhsrn a0, a1, a2, 15: rD=0x0 rs1=0x7fff7fff rs2=0x7fff7fff
    li a0, 0x0
    li a1, 0x7fff7fff
    li a2, 0x7fff7fff
    cv.mulhhsrn a0, a1, a2, 15
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulhhsrn a0, a1, a2, 2: rD=0x64 rs1=0xfff60005 rs2=0x30007
    li a0, 0x64
    li a1, 0xfff60005
    li a2, 0x30007
    cv.mulhhsrn a0, a1, a2, 2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulhhun a0, a1, a2, 1: rD=0x3e8 rs1=0x3fffd rs2=0x7fff0002
    li a0, 0x3e8
    li a1, 0x3fffd
    li a2, 0x7fff0002
    cv.mulhhun a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulhhun a0, a1, a2, 4: rD=0xfffff000 rs1=0xffff8000 rs2=0x80008000
    li a0, 0xfffff000
    li a1, 0xffff8000
    li a2, 0x80008000
    cv.mulhhun a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulhhun a0, a1, a2, 0: rD=0x7 rs1=0x50007 rs2=0x90003
    li a0, 0x7
    li a1, 0x50007
    li a2, 0x90003
    cv.mulhhun a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulhhun a0, a1, a2, 15: rD=0x0 rs1=0x7fff7fff rs2=0x7fff7fff
    li a0, 0x0
    li a1, 0x7fff7fff
    li a2, 0x7fff7fff
    cv.mulhhun a0, a1, a2, 15
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulhhun a0, a1, a2, 2: rD=0x64 rs1=0xfff60005 rs2=0x30007
    li a0, 0x64
    li a1, 0xfff60005
    li a2, 0x30007
    cv.mulhhun a0, a1, a2, 2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulhhurn a0, a1, a2, 1: rD=0x3e8 rs1=0x3fffd rs2=0x7fff0002
    li a0, 0x3e8
    li a1, 0x3fffd
    li a2, 0x7fff0002
    cv.mulhhurn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulhhurn a0, a1, a2, 4: rD=0xfffff000 rs1=0xffff8000 rs2=0x80008000
    li a0, 0xfffff000
    li a1, 0xffff8000
    li a2, 0x80008000
    cv.mulhhurn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulhhurn a0, a1, a2, 0: rD=0x7 rs1=0x50007 rs2=0x90003
    li a0, 0x7
    li a1, 0x50007
    li a2, 0x90003
    cv.mulhhurn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulhhurn a0, a1, a2, 15: rD=0x0 rs1=0x7fff7fff rs2=0x7fff7fff
    li a0, 0x0
    li a1, 0x7fff7fff
    li a2, 0x7fff7fff
    cv.mulhhurn a0, a1, a2, 15
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.mulhhurn a0, a1, a2, 2: rD=0x64 rs1=0xfff60005 rs2=0x30007
    li a0, 0x64
    li a1, 0xfff60005
    li a2, 0x30007
    cv.mulhhurn a0, a1, a2, 2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.macsn a0, a1, a2, 1: rD=0x3e8 rs1=0x3fffd rs2=0x7fff0002
    li a0, 0x3e8
    li a1, 0x3fffd
    li a2, 0x7fff0002
    cv.macsn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.macsn a0, a1, a2, 4: rD=0xfffff000 rs1=0xffff8000 rs2=0x80008000
    li a0, 0xfffff000
    li a1, 0xffff8000
    li a2, 0x80008000
    cv.macsn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.macsn a0, a1, a2, 0: rD=0x7 rs1=0x50007 rs2=0x90003
    li a0, 0x7
    li a1, 0x50007
    li a2, 0x90003
    cv.macsn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.macsn a0, a1, a2, 15: rD=0x0 rs1=0x7fff7fff rs2=0x7fff7fff
    li a0, 0x0
    li a1, 0x7fff7fff
    li a2, 0x7fff7fff
    cv.macsn a0, a1, a2, 15
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.macsn a0, a1, a2, 2: rD=0x64 rs1=0xfff60005 rs2=0x30007
    li a0, 0x64
    li a1, 0xfff60005
    li a2, 0x30007
    cv.macsn a0, a1, a2, 2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.macsrn a0, a1, a2, 1: rD=0x3e8 rs1=0x3fffd rs2=0x7fff0002
    li a0, 0x3e8
    li a1, 0x3fffd
    li a2, 0x7fff0002
    cv.macsrn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.macsrn a0, a1, a2, 4: rD=0xfffff000 rs1=0xffff8000 rs2=0x80008000
    li a0, 0xfffff000
    li a1, 0xffff8000
    li a2, 0x80008000
    cv.macsrn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.macsrn a0, a1, a2, 0: rD=0x7 rs1=0x50007 rs2=0x90003
    li a0, 0x7
    li a1, 0x50007
    li a2, 0x90003
    cv.macsrn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.macsrn a0, a1, a2, 15: rD=0x0 rs1=0x7fff7fff rs2=0x7fff7fff
    li a0, 0x0
    li a1, 0x7fff7fff
    li a2, 0x7fff7fff
    cv.macsrn a0, a1, a2, 15
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.macsrn a0, a1, a2, 2: rD=0x64 rs1=0xfff60005 rs2=0x30007
    li a0, 0x64
    li a1, 0xfff60005
    li a2, 0x30007
    cv.macsrn a0, a1, a2, 2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.macun a0, a1, a2, 1: rD=0x3e8 rs1=0x3fffd rs2=0x7fff0002
    li a0, 0x3e8
    li a1, 0x3fffd
    li a2, 0x7fff0002
    cv.macun a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.macun a0, a1, a2, 4: rD=0xfffff000 rs1=0xffff8000 rs2=0x80008000
    li a0, 0xfffff000
    li a1, 0xffff8000
    li a2, 0x80008000
    cv.macun a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.macun a0, a1, a2, 0: rD=0x7 rs1=0x50007 rs2=0x90003
    li a0, 0x7
    li a1, 0x50007
    li a2, 0x90003
    cv.macun a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.macun a0, a1, a2, 15: rD=0x0 rs1=0x7fff7fff rs2=0x7fff7fff
    li a0, 0x0
    li a1, 0x7fff7fff
    li a2, 0x7fff7fff
    cv.macun a0, a1, a2, 15
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.macun a0, a1, a2, 2: rD=0x64 rs1=0xfff60005 rs2=0x30007
    li a0, 0x64
    li a1, 0xfff60005
    li a2, 0x30007
    cv.macun a0, a1, a2, 2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.macurn a0, a1, a2, 1: rD=0x3e8 rs1=0x3fffd rs2=0x7fff0002
    li a0, 0x3e8
    li a1, 0x3fffd
    li a2, 0x7fff0002
    cv.macurn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.macurn a0, a1, a2, 4: rD=0xfffff000 rs1=0xffff8000 rs2=0x80008000
    li a0, 0xfffff000
    li a1, 0xffff8000
    li a2, 0x80008000
    cv.macurn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.macurn a0, a1, a2, 0: rD=0x7 rs1=0x50007 rs2=0x90003
    li a0, 0x7
    li a1, 0x50007
    li a2, 0x90003
    cv.macurn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.macurn a0, a1, a2, 15: rD=0x0 rs1=0x7fff7fff rs2=0x7fff7fff
    li a0, 0x0
    li a1, 0x7fff7fff
    li a2, 0x7fff7fff
    cv.macurn a0, a1, a2, 15
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.macurn a0, a1, a2, 2: rD=0x64 rs1=0xfff60005 rs2=0x30007
    li a0, 0x64
    li a1, 0xfff60005
    li a2, 0x30007
    cv.macurn a0, a1, a2, 2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.machhsn a0, a1, a2, 1: rD=0x3e8 rs1=0x3fffd rs2=0x7fff0002
    li a0, 0x3e8
    li a1, 0x3fffd
    li a2, 0x7fff0002
    cv.machhsn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.machhsn a0, a1, a2, 4: rD=0xfffff000 rs1=0xffff8000 rs2=0x80008000
    li a0, 0xfffff000
    li a1, 0xffff8000
    li a2, 0x80008000
    cv.machhsn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.machhsn a0, a1, a2, 0: rD=0x7 rs1=0x50007 rs2=0x90003
    li a0, 0x7
    li a1, 0x50007
    li a2, 0x90003
    cv.machhsn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.machhsn a0, a1, a2, 15: rD=0x0 rs1=0x7fff7fff rs2=0x7fff7fff
    li a0, 0x0
    li a1, 0x7fff7fff
    li a2, 0x7fff7fff
    cv.machhsn a0, a1, a2, 15
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.machhsn a0, a1, a2, 2: rD=0x64 rs1=0xfff60005 rs2=0x30007
    li a0, 0x64
    li a1, 0xfff60005
    li a2, 0x30007
    cv.machhsn a0, a1, a2, 2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.machhsrn a0, a1, a2, 1: rD=0x3e8 rs1=0x3fffd rs2=0x7fff0002
    li a0, 0x3e8
    li a1, 0x3fffd
    li a2, 0x7fff0002
    cv.machhsrn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.machhsrn a0, a1, a2, 4: rD=0xfffff000 rs1=0xffff8000 rs2=0x80008000
    li a0, 0xfffff000
    li a1, 0xffff8000
    li a2, 0x80008000
    cv.machhsrn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.machhsrn a0, a1, a2, 0: rD=0x7 rs1=0x50007 rs2=0x90003
    li a0, 0x7
    li a1, 0x50007
    li a2, 0x90003
    cv.machhsrn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.machhsrn a0, a1, a2, 15: rD=0x0 rs1=0x7fff7fff rs2=0x7fff7fff
    li a0, 0x0
    li a1, 0x7fff7fff
    li a2, 0x7fff7fff
    cv.machhsrn a0, a1, a2, 15
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.machhsrn a0, a1, a2, 2: rD=0x64 rs1=0xfff60005 rs2=0x30007
    li a0, 0x64
    li a1, 0xfff60005
    li a2, 0x30007
    cv.machhsrn a0, a1, a2, 2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.machhun a0, a1, a2, 1: rD=0x3e8 rs1=0x3fffd rs2=0x7fff0002
    li a0, 0x3e8
    li a1, 0x3fffd
    li a2, 0x7fff0002
    cv.machhun a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.machhun a0, a1, a2, 4: rD=0xfffff000 rs1=0xffff8000 rs2=0x80008000
    li a0, 0xfffff000
    li a1, 0xffff8000
    li a2, 0x80008000
    cv.machhun a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.machhun a0, a1, a2, 0: rD=0x7 rs1=0x50007 rs2=0x90003
    li a0, 0x7
    li a1, 0x50007
    li a2, 0x90003
    cv.machhun a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.machhun a0, a1, a2, 15: rD=0x0 rs1=0x7fff7fff rs2=0x7fff7fff
    li a0, 0x0
    li a1, 0x7fff7fff
    li a2, 0x7fff7fff
    cv.machhun a0, a1, a2, 15
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.machhun a0, a1, a2, 2: rD=0x64 rs1=0xfff60005 rs2=0x30007
    li a0, 0x64
    li a1, 0xfff60005
    li a2, 0x30007
    cv.machhun a0, a1, a2, 2
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.machhurn a0, a1, a2, 1: rD=0x3e8 rs1=0x3fffd rs2=0x7fff0002
    li a0, 0x3e8
    li a1, 0x3fffd
    li a2, 0x7fff0002
    cv.machhurn a0, a1, a2, 1
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.machhurn a0, a1, a2, 4: rD=0xfffff000 rs1=0xffff8000 rs2=0x80008000
    li a0, 0xfffff000
    li a1, 0xffff8000
    li a2, 0x80008000
    cv.machhurn a0, a1, a2, 4
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.machhurn a0, a1, a2, 0: rD=0x7 rs1=0x50007 rs2=0x90003
    li a0, 0x7
    li a1, 0x50007
    li a2, 0x90003
    cv.machhurn a0, a1, a2, 0
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.machhurn a0, a1, a2, 15: rD=0x0 rs1=0x7fff7fff rs2=0x7fff7fff
    li a0, 0x0
    li a1, 0x7fff7fff
    li a2, 0x7fff7fff
    cv.machhurn a0, a1, a2, 15
    sw a0, 0(s0)
    addi s0, s0, 4
    # cv.machhurn a0, a1, a2, 2: rD=0x64 rs1=0xfff60005 rs2=0x30007
    li a0, 0x64
    li a1, 0xfff60005
    li a2, 0x30007
    cv.machhurn a0, a1, a2, 2
    sw a0, 0(s0)
    addi s0, s0, 4
    li a0, 0
    li a7, 93
    ecall
    .data
out:
    .space 368
