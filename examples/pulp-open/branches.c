/* Branches: every core walks a loop whose inner branch is taken on every other iteration. */
#include "pulp_open.h"

#ifndef ITERS
#define ITERS 20000
#endif

static void kernel(uint32_t core) {
    uint32_t n = ITERS, acc = core;
    __asm__ volatile(
        "1:\n"
        "andi t0, %0, 1\n"
        "beqz t0, 2f\n"
        "addi %1, %1, 3\n"
        "2:\n"
        "addi %0, %0, -1\n"
        "bnez %0, 1b\n"
        : "+r"(n), "+r"(acc)::"t0");
}

void cluster_main(uint32_t core) { measure(core, NB_CORES, kernel); }

int main(void) { return run_cluster((1u << NB_CORES) - 1); }
