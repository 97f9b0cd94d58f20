/* TCDM loads: every core sums its own 256-word slice of L1 several times, each load used by
 * the next instruction (a load-use stall), the cores contending for the 16 banks. */
#include "pulp_open.h"

#ifndef PASSES
#define PASSES 20
#endif
#define WORDS 256

__attribute__((section(".l1"))) uint32_t data[NB_CORES * WORDS];
volatile uint32_t sums[NB_CORES];

static void kernel(uint32_t core) {
    uint32_t s = 0;
    volatile uint32_t *p = data + core * WORDS;
    for (int k = 0; k < PASSES; k++)
        for (int i = 0; i < WORDS; i++) s += p[i];
    sums[core] = s;
}

void cluster_main(uint32_t core) { measure(core, NB_CORES, kernel); }

int main(void) { return run_cluster((1u << NB_CORES) - 1); }
