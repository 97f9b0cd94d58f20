/* L2 loads from the cluster: every core sums an L2 table (through the cluster's AXI port). */
#include "pulp_open.h"

#ifndef PASSES
#define PASSES 4
#endif
#define WORDS 256

volatile uint32_t table[WORDS];
volatile uint32_t sums[NB_CORES];

static void kernel(uint32_t core) {
    uint32_t s = 0;
    for (int k = 0; k < PASSES; k++)
        for (int i = 0; i < WORDS; i++) s += table[i];
    sums[core] = s;
}

void cluster_main(uint32_t core) { measure(core, NB_CORES, kernel); }

int main(void) { return run_cluster((1u << NB_CORES) - 1); }
