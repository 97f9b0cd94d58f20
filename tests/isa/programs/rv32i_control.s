# RV32I branches (taken and not taken, signed vs unsigned), jal/jalr link values, jalr clearing
# bit 0 of the target.  s1 collects one bit per correct decision; a wrong path sets bit 31.
    .option norvc
    .text
    .globl _start
_start:
    li s1, 0
    li t0, -1
    li t1, 1
    beq t0, t0, 1f
    j bad
1:  ori s1, s1, 1 << 0
    beq t0, t1, bad
    bne t0, t1, 2f
    j bad
2:  ori s1, s1, 1 << 1
    bne t1, t1, bad
    blt t0, t1, 3f             # -1 < 1 signed
    j bad
3:  ori s1, s1, 1 << 2
    blt t1, t0, bad
    blt t1, t1, bad            # not strictly less
    bge t1, t0, 4f             # 1 >= -1
    j bad
4:  ori s1, s1, 1 << 3
    bge t1, t1, 5f             # equal counts as >=
    j bad
5:  ori s1, s1, 1 << 4
    bge t0, t1, bad
    bltu t1, t0, 6f            # 1 < 0xffffffff unsigned
    j bad
6:  ori s1, s1, 1 << 5
    bltu t0, t1, bad
    bgeu t0, t1, 7f
    j bad
7:  ori s1, s1, 1 << 6
    bgeu t1, t0, bad
    bgeu zero, zero, 8f
    j bad
8:  ori s1, s1, 1 << 7
    # backward branch: a counted loop
    li t2, 5
    li s2, 0
9:  addi s2, s2, 3
    addi t2, t2, -1
    bnez t2, 9b                 # s2 = 15
    # jal: link is the address after the jal
    jal ra, 10f
after_jal:
    j bad
10: la t3, after_jal
    sub s3, ra, t3              # 0
    # jalr: target = (rs1 + imm) & ~1, link written after the target is read (rd == rs1)
    la t4, 11f
    addi t4, t4, 1              # odd address: bit 0 is cleared by jalr
    jalr t4, 0(t4)
after_jalr:
    j bad
11: la t5, after_jalr
    sub s4, t4, t5              # 0: t4 now holds the link
    la t6, 12f
    jalr zero, -4(t6)           # negative offset lands on the j 13f before 12
    j bad
    j 13f
12: j bad
13: ori s1, s1, 1 << 8
    li a0, 0
    li a7, 93
    ecall
bad:
    li t0, 1 << 31
    or s1, s1, t0
    li a0, 1
    li a7, 93
    ecall
