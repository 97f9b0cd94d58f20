/* The FC starts the 8 cluster cores, each writes its result and meets the others at a
 * hardware barrier; core 0 then raises a flag in L2, which the FC polls (pulp-runtime's
 * cluster_wait does the same).  Exit status 0 when every result is right. */
#include "pulp_open.h"

volatile uint32_t results[NB_CORES];
volatile uint32_t cluster_done;

void cluster_main(uint32_t core) {
    barrier_setup((1u << NB_CORES) - 1);
    results[core] = core * 100 + 7;
    barrier();
    if (core == 0) cluster_done = 1;
}

int main(void) {
    cluster_fetch((1u << NB_CORES) - 1, (void (*)(void))0x1C008000);
    while (!cluster_done) {}
    int bad = 0;
    for (int i = 0; i < NB_CORES; i++) {
        put_str("core ");
        put_dec(i);
        put_str(": ");
        put_dec(results[i]);
        put_char('\n');
        bad += results[i] != (uint32_t)(i * 100 + 7);
    }
    return bad;
}
