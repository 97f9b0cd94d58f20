# Every RV32C instruction written out with its c.* mnemonic (c.ebreak and c.unimp are in
# traps.s): each must behave exactly like the base instruction it stands for.
    .option rvc
    .text
    .globl _start
_start:
    la s0, out
    la s1, data
    c.li a0, -32               # 6-bit signed immediate
    c.sw a0, 0(s0)
    c.lui a1, 0xfffff          # c.lui: upper 20 bits, sign from bit 17 of the immediate
    c.sw a1, 4(s0)
    c.li a2, 31
    c.addi a2, -32             # 31 - 32
    c.sw a2, 8(s0)
    c.mv a3, s1
    c.lw a4, 4(a3)             # c.lw with offset
    c.sw a4, 12(s0)
    c.li a5, 1
    c.slli a5, 31
    c.srai a5, 3               # arithmetic: 0xf0000000
    c.sw a5, 16(s0)
    c.mv a4, a5
    c.srli a4, 28              # logical: 0xf
    c.sw a4, 20(s0)
    c.andi a4, -6              # 0xf & 0xfffffffa
    c.sw a4, 24(s0)
    c.li a2, 12
    c.li a3, 10
    c.mv a4, a2
    c.sub a4, a3               # 2
    c.sw a4, 28(s0)
    c.mv a4, a2
    c.xor a4, a3               # 6
    c.sw a4, 32(s0)
    c.mv a4, a2
    c.or a4, a3                # 14
    c.sw a4, 36(s0)
    c.mv a4, a2
    c.and a4, a3               # 8
    c.sw a4, 40(s0)
    c.mv a4, a2
    c.add a4, a3               # 22
    c.sw a4, 44(s0)
    # stack-pointer forms
    c.mv s2, sp
    c.addi16sp sp, -256
    c.addi4spn a0, sp, 16      # a0 = sp + 16
    sub a1, s2, a0             # 256 - 16 = 240
    c.sw a1, 48(s0)
    li t0, 0x5a5a1234
    c.swsp t0, 252(sp)         # largest offset
    c.lwsp t1, 252(sp)
    sw t1, 52(s0)
    fmv.w.x ft0, t0
    c.fswsp ft0, 8(sp)
    c.flwsp ft1, 8(sp)
    fmv.x.w t2, ft1
    sw t2, 56(s0)
    c.flw fa0, 0(s1)           # 1.5
    c.fsw fa0, 60(s0)
    c.addi16sp sp, 256
    sub t2, sp, s2             # restored
    sw t2, 64(s0)
    # control flow
    li s3, 0
    c.li a0, 0
    c.beqz a0, 1f              # taken
    c.li s3, 1
1:  c.bnez a0, 2f              # not taken
    c.addi s3, 2
2:  c.li a1, 5
    c.bnez a1, 3f
    c.li s3, 8
3:  c.beqz a1, 4f
    c.addi s3, 4               # s3 = 6
4:  c.j 5f
    c.li s3, 15
5:  c.jal 6f                   # links ra = address of the next instruction
ret_here:
    j fail
6:  la t0, ret_here
    sub t0, ra, t0
    sw t0, 68(s0)              # 0
    la a4, 7f
    c.jr a4
    j fail
7:  la a5, 8f
    c.jalr a5
ret2:
    j 9f
8:  la t0, ret2
    sub t0, ra, t0
    sw t0, 72(s0)              # 0
    c.jr ra
9:  sw s3, 76(s0)
    c.nop
    # HINTs (c.toml): they execute as writes to x0, which change nothing
    .half 0x0015               # c.nop 5
    .half 0x4015               # c.li zero, 5
    .half 0x6005               # c.lui zero, 0x1
    .half 0x800a               # c.mv zero, sp
    .half 0x900a               # c.add zero, sp
    addi t0, zero, 7
    .half 0x0281               # c.addi t0, 0
    sw t0, 80(s0)              # 7: x0 still reads 0, t0 unchanged
    li a0, 0
    li a7, 93
    ecall
fail:
    li a0, 1
    li a7, 93
    ecall

    .data
    .align 2
data:
    .float 1.5
    .word 0xcafef00d
out:
    .space 96
