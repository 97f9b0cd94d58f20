# wfi on a two-core cluster: core 1 sleeps in wfi for good, core 0 works and exits; the run ends
# normally because a core exited (only "every core asleep" is a deadlock, see test_faults.py).
# Each core also reads its own mhartid.
    .text
    .globl _start
_start:
    csrr s1, mhartid
    bnez a0, sleeper           # a0 = hart id at entry
    li s2, 0
    li t0, 100
1:  addi s2, s2, 3
    addi t0, t0, -1
    bnez t0, 1b
    li a0, 0
    li a7, 93
    ecall
sleeper:
    li s2, 77
    wfi
    li s2, 99                  # never reached: nothing wakes core 1
    j sleeper
