# Xpulpv2 p.beqimm / p.bneimm: compare rs1 with a sign-extended 5-bit immediate (-16..15).
    .text
    .globl _start
_start:
    li s1, 0
    li t0, -16
    p.beqimm t0, -16, 1f       # taken
    j bad
1:  ori s1, s1, 1
    p.bneimm t0, -16, bad      # not taken
    li t0, 15
    p.bneimm t0, 14, 2f        # taken
    j bad
2:  ori s1, s1, 2
    p.beqimm t0, -1, bad       # 15 != -1
    li t0, 0x1f                # 31 is not the immediate 0x1f (= -1)
    p.beqimm t0, -1, bad
    li t0, -1
    p.beqimm t0, -1, 3f        # taken
    j bad
3:  ori s1, s1, 4
    li a0, 0
    li a7, 93
    ecall
bad:
    li a0, 1
    li a7, 93
    ecall
