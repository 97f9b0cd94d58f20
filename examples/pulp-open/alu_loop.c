/* Every cluster core runs ITERS iterations of a 4-instruction ALU loop (3 ALU operations and a
 * taken branch) between starting and stopping its performance counters; core 0 then prints
 * each core's counts and ends the computation (the FC sleeps in wfi all along).  Hand count
 * (CV32E40P manual, pipeline.rst, and GVSoC): 1 cycle per ALU instruction, 3 for the taken
 * branch: 6 cycles per iteration. */
#include "pulp_open.h"

#ifndef ITERS
#define ITERS 25000
#endif

static void kernel(uint32_t core) {
    uint32_t n = ITERS, a = core, b = 1;
    __asm__ volatile(
        "1:\n"
        "add %1, %1, %2\n"
        "xor %2, %2, %1\n"
        "addi %0, %0, -1\n"
        "bnez %0, 1b\n"
        : "+r"(n), "+r"(a), "+r"(b));
}

void cluster_main(uint32_t core) { measure(core, NB_CORES, kernel); }

int main(void) { return run_cluster((1u << NB_CORES) - 1); }
