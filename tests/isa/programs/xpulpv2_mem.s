# Xpulpv2 loads and stores (PULP binutils riscv-opc.c): post-increment by immediate (p.lX rd,
# imm(rs1!)),
# post-increment by register (p.lX rd, rs2(rs1!)), register offset (p.lX rd, rs2(rs1)), the
# same three store forms, p.elw, and a post-increment load with rd == rs1 (the loaded value
# wins and the simulator warns).  The access always uses the old base.
    .text
    .globl _start
_start:
    la s0, out
    la s1, data                # data: 80 ff 7f 01 | 01 80 ff 7f | 44 33 22 11 | ...
    mv a1, s1
    p.lb t0, 1(a1!)            # 0x80 sign-extended; a1 += 1
    sw t0, 0(s0)
    p.lbu t0, 3(a1!)           # byte at data+1 = 0xff; a1 += 3 -> data+4
    sw t0, 4(s0)
    p.lh t0, 2(a1!)            # half at data+4 = 0x8001; a1 -> data+6
    sw t0, 8(s0)
    p.lhu t0, -6(a1!)          # half at data+6 = 0x7fff; a1 back to data
    sw t0, 12(s0)
    p.lw t0, 8(a1!)            # word at data; a1 -> data+8
    sw t0, 16(s0)
    sub t1, a1, s1
    sw t1, 20(s0)              # 8
    li a2, 4
    p.lw t0, a2(a1!)           # word at data+8 = 0x11223344; a1 += a2 -> data+12
    sw t0, 24(s0)
    li a2, -11
    p.lb t0, a2(a1!)           # byte at data+12 = 0xaa -> sign-extended; a1 -> data+1
    sw t0, 28(s0)
    li a2, 3
    p.lbu t0, a2(a1!)          # byte at data+1 = 0xff; a1 -> data+4
    sw t0, 32(s0)
    li a2, -4
    p.lh t0, a2(a1!)           # half at data+4 = 0x8001; a1 -> data
    sw t0, 36(s0)
    li a2, 6
    p.lhu t0, a2(a1!)          # half at data = 0xff80; a1 -> data+6
    sw t0, 40(s0)
    sub t1, a1, s1
    sw t1, 44(s0)              # 6
    # register-offset loads: base unchanged
    li a2, 8
    p.lw t0, a2(s1)
    sw t0, 48(s0)
    li a2, 1
    p.lb t0, a2(s1)            # 0xff -> -1
    sw t0, 52(s0)
    p.lbu t0, a2(s1)
    sw t0, 56(s0)
    li a2, 4
    p.lh t0, a2(s1)
    sw t0, 60(s0)
    p.lhu t0, a2(s1)
    sw t0, 64(s0)
    # stores: post-increment immediate / register, register offset
    la a3, buf
    li t2, 0xaabbccdd
    p.sb t2, 1(a3!)            # buf+0 = dd
    p.sh t2, 2(a3!)            # buf+1..2 = dd cc (misaligned half)
    p.sw t2, 4(a3!)            # buf+3..6 (misaligned word)
    la t3, buf
    sub t1, a3, t3
    sw t1, 68(s0)              # 7
    la a3, buf + 8
    li a4, 4
    p.sw t2, a4(a3!)           # buf+8 = aabbccdd; a3 -> buf+12
    li a4, 2
    p.sh t2, a4(a3!)           # buf+12 = ccdd; a3 -> buf+14
    li a4, -14
    p.sb t2, a4(a3!)           # buf+14 = dd; a3 -> buf
    sub t1, a3, t3
    sw t1, 72(s0)              # 0
    li a4, 16
    p.sw t2, a4(t3)            # buf+16
    li a4, 20
    p.sh t2, a4(t3)            # buf+20
    li a4, 23
    p.sb t2, a4(t3)            # buf+23
    # p.elw from plain memory is an ordinary word load
    p.elw t0, 8(s1)
    sw t0, 76(s0)
    # post-increment load with rd == rs1: the loaded value wins
    la a5, data + 8
    p.lw a5, 4(a5!)
    sw a5, 80(s0)
    li a0, 0
    li a7, 93
    ecall
    .data
    .align 2
data:
    .byte 0x80, 0xff, 0x7f, 0x01, 0x01, 0x80, 0xff, 0x7f
    .word 0x11223344
    .word 0x000000aa
buf:
    .space 24
out:
    .space 96
