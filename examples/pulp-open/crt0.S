/* Start-up for bare-metal pulp-open programs: the FC runs main() on its L2 stack and ends the
 * computation with main's return value; a cluster core (started by cluster_fetch at _start)
 * runs cluster_main(core id) on its own stack at the top of L1, then sleeps. */
    .section .text.start
    .global _start
_start:
    csrr a0, mhartid
    srli t0, a0, 5
    li t1, 31
    bne t0, t1, 1f
    la sp, fc_stack_top
    la t0, __bss_start
    la t1, __bss_end
2:  bgeu t0, t1, 3f
    sw zero, 0(t0)
    addi t0, t0, 4
    j 2b
3:  call main
    li t0, 0x80000000
    or a0, a0, t0
    li t0, 0x1A1040A0
    sw a0, 0(t0)
4:  wfi
    j 4b
1:  andi a0, a0, 31
    la sp, cluster_stacks_top
    slli t0, a0, 10
    sub sp, sp, t0
    call cluster_main
5:  wfi
    j 5b

    .weak cluster_main
cluster_main:
    ret
