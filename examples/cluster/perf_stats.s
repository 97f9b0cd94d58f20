# PULP-TrainLib's stats.h on the simulated cluster: core 0 measures a parallel fp32
# fully-connected forward step with the RI5CY performance counters and prints them, line for
# line, as stats.h does.  Run:  isasim run examples/cluster/perf_stats.s
#
# stats.h configures the counters with pi_perf_conf (PCER, CSR 0xCC0), resets them with
# pi_perf_reset (a write to PCCR31, CSR 0x79F, sets every counter), starts and stops them with
# pi_perf_start / pi_perf_stop (PCMR, CSR 0xCC1) and reads them with pi_perf_read (PCCR(n),
# CSR 0x780 + n).  "cycles" is the cluster timer, sleep included (here: mcycle); "active
# cycles" is PCCR0; then INSTR (1), LD_EXT (12), TCDM_CONT (16), LD_STALL (2), IMISS (4).
# Output (numbers depend on the configuration):
#
#   (empty line)
#   [0] cycles = ...
#   [0] instr = ...
#   [0] active cycles = ...
#   [0] ext load = ...
#   [0] TCDM cont = ...
#   [0] ld stall = ...
#   [0] imiss = ...
#
# The step: out[j] = b[j] + sum_i W[j][i] * x[i], 32 inputs, 16 outputs, 2 outputs per core.
# W and x are in TCDM and every core reads x[i] in the same cycles, so the cores lose cycles to
# bank conflicts (TCDM cont); the bias b is read from L2 (ext load); each fmadd uses the value
# loaded just before it (ld stall).  W[j][i] = i - j, x[i] = i mod 5, b[j] = j.  Core 0
# counts from perf_start to perf_stop (tests/cluster/test_examples.py checks the printout
# against the simulator's per-instruction profile of that range).

    .equ EU, 0x10204000          # event unit, per-core view
    .equ SIMDEV, 0x1A110000      # simulator device: +0 putchar
    .equ IN, 32
    .equ OUT, 16
    .equ EVENTS, (1 << 0) | (1 << 1) | (1 << 2) | (1 << 4) | (1 << 12) | (1 << 16)

    .text
    .globl _start
_start:
    csrr s0, mhartid
    andi s0, s0, 0x1f            # core id
    li s1, EU
    li t0, 0xff
    sw t0, 0x200(s1)             # barrier 0: all 8 cores
    sw t0, 0x20c(s1)
    li t0, 1 << 16
    sw t0, 0x8(s1)               # listen to the barrier event

    # set-up, not measured: core c fills x[4c .. 4c+3] and rows 2c, 2c+1 of W
    la t1, x
    slli t2, s0, 2               # first input of this core
    slli t0, t2, 2
    add t1, t1, t0
    li t3, 4
    li t4, 5
1:  remu t0, t2, t4
    fcvt.s.w ft0, t0
    fsw ft0, 0(t1)
    addi t1, t1, 4
    addi t2, t2, 1
    addi t3, t3, -1
    bnez t3, 1b
    slli t2, s0, 1               # first row of this core
    slli t0, t2, 7               # 128 bytes per row
    la t1, w
    add t1, t1, t0
    li t3, 2
2:  li t4, 0                     # i
3:  sub t0, t4, t2
    fcvt.s.w ft0, t0
    fsw ft0, 0(t1)
    addi t1, t1, 4
    addi t4, t4, 1
    li t0, IN
    bltu t4, t0, 3b
    addi t2, t2, 1
    addi t3, t3, -1
    bnez t3, 2b

    bnez s0, 4f
    li t0, EVENTS
    csrw pcer, t0                # pi_perf_conf
    csrw 0x79f, zero             # pi_perf_reset: PCCR31 sets all counters
    csrr s10, mcycle             # the "cycles" timer
perf_start:
    csrwi pcmr, 3                # pi_perf_start: enable (+ saturate)
4:  p.elw t0, 0x21c(s1)          # the cores start together (the fork)

    # measured: rows 2c and 2c+1 of the layer
    slli s2, s0, 1               # row j
    li s3, 2
5:  la t0, b
    slli t1, s2, 2
    add t0, t0, t1
    flw fa0, 0(t0)               # bias from L2
    la t1, w
    slli t0, s2, 7
    add t1, t1, t0               # &W[j][0]
    la t2, x
    lp.setupi x0, IN, 6f
    flw ft1, 0(t1)
    flw ft2, 0(t2)
    fmadd.s fa0, ft1, ft2, fa0   # uses ft2 at once: a load-use stall
    addi t1, t1, 4
6:  addi t2, t2, 4
    la t0, out
    slli t1, s2, 2
    add t0, t0, t1
    fsw fa0, 0(t0)
    addi s2, s2, 1
    addi s3, s3, -1
    bnez s3, 5b
    p.elw t0, 0x21c(s1)          # the join
    li a0, 0
    bnez s0, exit

perf_stop:
    csrwi pcmr, 0                # pi_perf_stop
    csrr s11, mcycle
    sub s2, s11, s10             # cycles
    csrr s3, 0x781               # instr
    csrr s4, 0x780               # active cycles
    csrr s5, 0x78c               # ext load
    csrr s6, 0x790               # TCDM cont
    csrr s7, 0x782               # ld stall
    csrr s8, 0x784               # imiss
    li t1, SIMDEV
    li t0, 10
    sb t0, 0(t1)                 # printf("\n")
    la a0, s_cycles
    mv a1, s2
    call line
    la a0, s_instr
    mv a1, s3
    call line
    la a0, s_active
    mv a1, s4
    call line
    la a0, s_ldext
    mv a1, s5
    call line
    la a0, s_tcdm
    mv a1, s6
    call line
    la a0, s_ldstall
    mv a1, s7
    call line
    la a0, s_imiss
    mv a1, s8
    call line
    li a0, 0
exit:
    li a7, 93
    ecall

# line(a0 = name, a1 = value): printf("[%d] %s = %lu\n", core id, name, value)
line:
    mv s9, ra
    mv a2, a0
    li a0, '['
    call putc
    mv a0, s0
    call putu
    la a0, s_close
    call puts
    mv a0, a2
    call puts
    la a0, s_equals
    call puts
    mv a0, a1
    call putu
    li a0, 10
    call putc
    mv ra, s9
    ret

# putu(a0): the unsigned decimal digits of a0 (the stack holds them, last digit first)
putu:
    addi sp, sp, -16
    addi t1, sp, 16
    li t2, 10
1:  remu t0, a0, t2
    divu a0, a0, t2
    addi t0, t0, '0'
    addi t1, t1, -1
    sb t0, 0(t1)
    bnez a0, 1b
    li t3, SIMDEV
    addi t2, sp, 16
2:  lbu t0, 0(t1)
    sb t0, 0(t3)
    addi t1, t1, 1
    bne t1, t2, 2b
    addi sp, sp, 16
    ret

# puts(a0 = NUL-terminated string)
puts:
    li t1, SIMDEV
1:  lbu t0, 0(a0)
    beqz t0, 2f
    sb t0, 0(t1)
    addi a0, a0, 1
    j 1b
2:  ret

# putc(a0 = character)
putc:
    li t1, SIMDEV
    sb a0, 0(t1)
    ret

    .data
b:  .float 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
s_cycles:  .asciz "cycles"
s_instr:   .asciz "instr"
s_active:  .asciz "active cycles"
s_ldext:   .asciz "ext load"
s_tcdm:    .asciz "TCDM cont"
s_ldstall: .asciz "ld stall"
s_imiss:   .asciz "imiss"
s_close:   .asciz "] "
s_equals:  .asciz " = "

    .section .l1, "aw"
    .p2align 2
w:   .zero IN * OUT * 4
x:   .zero IN * 4
out: .zero OUT * 4
