# Machine-mode traps with a handler installed in mtvec: ecall, ebreak, c.ebreak, illegal
# instructions (c.unimp, an unknown CSR, a write to a read-only CSR, a reserved rounding mode),
# each logged as (mcause, mepc - start, mtval); the handler skips the instruction and mrets.
    .option norvc
    .text
    .globl _start
_start:
    la s10, log
    la s11, start
    la t0, handler
    csrw mtvec, t0
    csrr s9, mtvec
    sub s9, s9, t0             # mtvec reads back (direct mode)
start:
    ecall                      # cause 11: environment call from M-mode
    ebreak                     # cause 3: breakpoint
    .option rvc
    c.ebreak
    c.unimp                    # illegal (cause 2)
    .option norvc
    csrr t1, 0x5c0             # no such CSR: illegal
    csrw cycle, t1             # read-only CSR: illegal
    fadd.s f1, f1, f0, dyn     # legal while frm = 0
    csrwi frm, 5               # frm = 5 (reserved) makes dynamic-rm FP instructions illegal
    fadd.s f1, f1, f0, dyn     # illegal now (word 0x0000f0d3)
    csrwi frm, 0
    li s8, 0x1234              # after the traps: normal flow continues
    csrr s7, mcause            # the handler's last cause stays visible
    csrr s6, mstatus
    srli s6, s6, 11
    andi s6, s6, 3             # MPP after mret: still M (the only privilege mode here)
    li a0, 0
    li a7, 93
    ecall                      # still trapped: the handler sees a7 = 93 and exits

handler:
    csrr t3, mcause
    csrr t4, mepc
    csrr t5, mtval
    li t6, 11
    bne t3, t6, 1f
    li t6, 93
    bne a7, t6, 1f
    li a7, 0                   # exit through the simulator device instead (a0 = 0)
    li t6, 0x1a110004
    sw a0, 0(t6)
1:  sw t3, 0(s10)
    sub t6, t4, s11
    sw t6, 4(s10)
    li t6, 3
    bne t3, t6, 3f
    sub t5, t5, s11            # ebreak: mtval holds its pc; log it relative to `start`
3:  sw t5, 8(s10)
    addi s10, s10, 12
    lhu t6, 0(t4)              # skip the trapping instruction: 2 or 4 bytes
    andi t6, t6, 3
    li t3, 3
    addi t4, t4, 2
    bne t6, t3, 2f
    addi t4, t4, 2
2:  csrw mepc, t4
    csrr t6, mstatus
    srli t6, t6, 11
    andi t6, t6, 3
    sw t6, 0(s10)              # mstatus.MPP = 3 (M) inside the handler; overwritten next trap
    mret

    .data
log:
    .space 160
