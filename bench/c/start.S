/* Every core: enable the FPU, call cluster_main(core id) on the stack isasim gave it, and end
 * with the exit system call (a7 = 93), which stops that core. */
    .section .text.start, "ax"
    .globl _start
_start:
    li t0, 0x6000
    csrs mstatus, t0
    csrr a0, mhartid
    andi a0, a0, 31
    call cluster_main
    li a7, 93
    ecall
