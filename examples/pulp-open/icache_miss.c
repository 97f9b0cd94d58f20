/* Instruction-cache misses: one core runs 8 KiB of straight-line code (2048 ALU instructions,
 * more than the cluster's instruction cache holds) PASSES times. */
#include "pulp_open.h"

#ifndef PASSES
#define PASSES 4
#endif

static void kernel(uint32_t core) {
    uint32_t a = core;
    for (int k = 0; k < PASSES; k++)
        __asm__ volatile(".option push\n.option norvc\n"
                         ".rept 2048\naddi %0, %0, 1\n.endr\n.option pop\n" : "+r"(a));
}

void cluster_main(uint32_t core) { measure(core, 1, kernel); }

int main(void) { return run_cluster(1); }
