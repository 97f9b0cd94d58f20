/* Every cluster core runs ITERS iterations of a 4-instruction ALU loop (3 ALU operations and a
 * taken branch) between starting and stopping its performance counters; the FC prints each
 * core's cycles and instructions.  Hand count (CV32E40P manual, pipeline.rst, and GVSoC): 1
 * cycle per ALU instruction, 3 for the taken branch: 6 cycles per iteration. */
#include "pulp_open.h"

#ifndef ITERS
#define ITERS 25000
#endif

volatile uint32_t cycles[NB_CORES], instrs[NB_CORES];

void cluster_main(uint32_t core) {
    uint32_t n = ITERS, a = core, b = 1;
    barrier_setup((1u << NB_CORES) - 1);
    perf_start();
    __asm__ volatile(
        "1:\n"
        "add %1, %1, %2\n"
        "xor %2, %2, %1\n"
        "addi %0, %0, -1\n"
        "bnez %0, 1b\n"
        : "+r"(n), "+r"(a), "+r"(b));
    perf_stop();
    cycles[core] = perf_cycles();
    instrs[core] = perf_instrs();
    barrier();
    if (core != 0) return;
    for (int i = 0; i < NB_CORES; i++) {
        put_str("core ");
        put_dec(i);
        put_str(" cycles ");
        put_dec(cycles[i]);
        put_str(" instructions ");
        put_dec(instrs[i]);
        put_char('\n');
    }
    soc_exit(0);
}

int main(void) {
    cluster_fetch((1u << NB_CORES) - 1, (void (*)(void))0x1C008000);
    for (;;) __asm__ volatile("wfi");    /* no event comes: cluster core 0 ends the run */
}
