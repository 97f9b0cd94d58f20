/* 8 cluster cores go through ROUNDS hardware barriers; between two, each core bumps its own
 * counter in L1 and checks that every other core has reached the same round. */
#include "pulp_open.h"

#ifndef ROUNDS
#define ROUNDS 50
#endif

__attribute__((section(".l1"))) volatile uint32_t round_of[NB_CORES];
volatile uint32_t errors[NB_CORES];
volatile uint32_t cluster_done;

void cluster_main(uint32_t core) {
    barrier_setup((1u << NB_CORES) - 1);
    round_of[core] = 0;
    barrier();
    if (core == 0) perf_start();
    for (uint32_t r = 1; r <= ROUNDS; r++) {
        round_of[core] = r;
        barrier();
        for (int i = 0; i < NB_CORES; i++)
            if (round_of[i] != r) errors[core]++;
        barrier();
    }
    if (core == 0) {
        perf_stop();
        counted_cycles[0] = perf_cycles();
        counted_instrs[0] = perf_instrs();
    }
    if (core == 0) cluster_done = 1;
}

int main(void) {
    cluster_fetch((1u << NB_CORES) - 1, (void (*)(void))0x1C008000);
    while (!cluster_done) {}
    uint32_t bad = 0;
    for (int i = 0; i < NB_CORES; i++) bad += errors[i];
    put_str("barrier rounds: ");
    put_dec(ROUNDS);
    put_str(", errors: ");
    put_dec(bad);
    put_char('\n');
    put_str("core 0 cycles ");
    put_dec(counted_cycles[0]);
    put_str(" instructions ");
    put_dec(counted_instrs[0]);
    put_char('\n');
    return bad != 0;
}
