# RV32I register-immediate and register-register arithmetic, logic, shifts, compares, lui/auipc.
# Every result goes to the next word of `out` (s0 walks it); rv32i_alu.exp lists them in order.
    .option norvc
    .text
    .globl _start
_start:
    la s0, out
    li s1, 0x80000000          # INT_MIN
    li s2, 0x7fffffff          # INT_MAX
    li s3, -1
    li s4, 0x12345678

    addi t0, s2, 1             # INT_MAX + 1 wraps to INT_MIN
    sw t0, 0(s0)
    addi s0, s0, 4
    addi t0, s1, -1            # INT_MIN - 1 wraps to INT_MAX
    sw t0, 0(s0)
    addi s0, s0, 4
    addi t0, zero, -2048       # most negative immediate
    sw t0, 0(s0)
    addi s0, s0, 4
    slti t0, s3, 0             # -1 < 0 signed
    sw t0, 0(s0)
    addi s0, s0, 4
    sltiu t0, s3, 0            # 0xffffffff < 0 unsigned: no
    sw t0, 0(s0)
    addi s0, s0, 4
    sltiu t0, zero, -1         # 0 < 0xffffffff (immediate sign-extended, compared unsigned)
    sw t0, 0(s0)
    addi s0, s0, 4
    slti t0, s1, -2048         # INT_MIN < -2048
    sw t0, 0(s0)
    addi s0, s0, 4
    xori t0, s4, -1            # not
    sw t0, 0(s0)
    addi s0, s0, 4
    ori t0, s4, 0x0f0
    sw t0, 0(s0)
    addi s0, s0, 4
    andi t0, s4, -256          # immediate sign-extends to 0xffffff00
    sw t0, 0(s0)
    addi s0, s0, 4
    slli t0, s4, 31
    sw t0, 0(s0)
    addi s0, s0, 4
    srli t0, s1, 31
    sw t0, 0(s0)
    addi s0, s0, 4
    srai t0, s1, 31
    sw t0, 0(s0)
    addi s0, s0, 4
    srai t0, s4, 0
    sw t0, 0(s0)
    addi s0, s0, 4

    add t0, s2, s2             # overflow wraps
    sw t0, 0(s0)
    addi s0, s0, 4
    sub t0, s1, s3             # INT_MIN - (-1)
    sw t0, 0(s0)
    addi s0, s0, 4
    sub t0, zero, s1           # -INT_MIN = INT_MIN
    sw t0, 0(s0)
    addi s0, s0, 4
    li t1, 36                  # shift amounts use the low 5 bits only: 36 -> 4
    sll t0, s4, t1
    sw t0, 0(s0)
    addi s0, s0, 4
    srl t0, s1, t1
    sw t0, 0(s0)
    addi s0, s0, 4
    sra t0, s1, t1
    sw t0, 0(s0)
    addi s0, s0, 4
    slt t0, s1, s2             # INT_MIN < INT_MAX signed
    sw t0, 0(s0)
    addi s0, s0, 4
    sltu t0, s1, s2            # 0x80000000 < 0x7fffffff unsigned: no
    sw t0, 0(s0)
    addi s0, s0, 4
    slt t0, s3, s3             # equal: no
    sw t0, 0(s0)
    addi s0, s0, 4
    xor t0, s4, s3
    sw t0, 0(s0)
    addi s0, s0, 4
    or t0, s4, s1
    sw t0, 0(s0)
    addi s0, s0, 4
    and t0, s4, s2
    sw t0, 0(s0)
    addi s0, s0, 4

    lui t0, 0xfffff            # upper 20 bits, low 12 zero
    sw t0, 0(s0)
    addi s0, s0, 4
    lui t0, 0x80000
    sw t0, 0(s0)
    addi s0, s0, 4
here:
    auipc t0, 0                # its own address
    la t1, here
    sub t0, t0, t1
    sw t0, 0(s0)
    addi s0, s0, 4
    auipc t0, 0x1              # pc + 0x1000
    sub t0, t0, t1
    sw t0, 0(s0)
    addi s0, s0, 4

    addi zero, s4, 1           # writes to x0 are discarded
    add zero, s4, s4
    lui zero, 0x12345
    sw zero, 0(s0)
    addi s0, s0, 4

    li a0, 0
    li a7, 93
    ecall

    .data
out:
    .space 128
