/* The cluster DMA: core 0 copies a table from L2 to L1, the 8 cores each double a slice of
 * it, core 0 copies it back; the FC checks the table in L2. */
#include "pulp_open.h"

#define N 512
volatile uint32_t table[N];
__attribute__((section(".l1"))) uint32_t local[N];
volatile uint32_t cluster_done;

void cluster_main(uint32_t core) {
    barrier_setup((1u << NB_CORES) - 1);
    if (core == 0) perf_start();
    if (core == 0) dma_wait(dma_copy((uint32_t)(uintptr_t)local, (uint32_t)(uintptr_t)table, N * 4, 1));
    barrier();
    for (int i = core * (N / NB_CORES); i < (int)(core + 1) * (N / NB_CORES); i++) local[i] *= 2;
    barrier();
    if (core == 0) {
        dma_wait(dma_copy((uint32_t)(uintptr_t)local, (uint32_t)(uintptr_t)table, N * 4, 0));
        perf_stop();
        counted_cycles[0] = perf_cycles();
        counted_instrs[0] = perf_instrs();
        cluster_done = 1;
    }
}

int main(void) {
    for (int i = 0; i < N; i++) table[i] = i + 1;
    cluster_fetch((1u << NB_CORES) - 1, (void (*)(void))0x1C008000);
    while (!cluster_done) {}
    uint32_t bad = 0, sum = 0;
    for (int i = 0; i < N; i++) {
        bad += table[i] != (uint32_t)(2 * (i + 1));
        sum += table[i];
    }
    put_str("dma: sum ");
    put_dec(sum);
    put_str(", errors ");
    put_dec(bad);
    put_char('\n');
    put_str("core 0 cycles ");
    put_dec(counted_cycles[0]);
    put_str(" instructions ");
    put_dec(counted_instrs[0]);
    put_char('\n');
    return bad != 0;
}
