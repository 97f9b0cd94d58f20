/* Cluster-to-FC event: the FC sleeps in wfi until cluster core 0 sets bit 3 of the FC's
 * interrupt controller status (STATUS_SET), after all cores have met at a barrier. */
#include "pulp_open.h"

volatile uint32_t arrived[NB_CORES];

void cluster_main(uint32_t core) {
    barrier_setup((1u << NB_CORES) - 1);
    arrived[core] = 1;
    barrier();
    if (core == 0) fc_event_send(1u << 3);
}

int main(void) {
    fc_event_mask_set(1u << 3);
    cluster_fetch((1u << NB_CORES) - 1, (void (*)(void))0x1C008000);
    int wakeups = 0;
    while (!(fc_event_status() & (1u << 3))) {
        __asm__ volatile("wfi");
        wakeups++;
    }
    fc_event_clear(1u << 3);
    int n = 0;
    for (int i = 0; i < NB_CORES; i++) n += arrived[i];
    put_str("FC woken, cores arrived: ");
    put_dec(n);
    put_char('\n');
    return n == NB_CORES ? 0 : 1;
}
