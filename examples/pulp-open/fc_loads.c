/* The FC alone: a load-use loop over an L2 table, then an ALU loop, each between starting and
 * stopping the FC's counters; prints "core 0 cycles C instructions N" for each. */
#include "pulp_open.h"

#ifndef ITERS
#define ITERS 2000
#endif
#define WORDS 64

volatile uint32_t table[WORDS];

static void show(void) {
    put_str("core 0 cycles ");
    put_dec(perf_cycles());
    put_str(" instructions ");
    put_dec(perf_instrs());
    put_char('\n');
}

int main(void) {
    uint32_t s = 0;
    perf_start();
    for (int k = 0; k < ITERS / WORDS; k++)
        for (int i = 0; i < WORDS; i++) s += table[i];
    perf_stop();
    show();
    uint32_t n = ITERS, b = 1;
    perf_start();
    __asm__ volatile("1:\nadd %1, %1, %2\nxor %2, %2, %1\naddi %0, %0, -1\nbnez %0, 1b\n"
                     : "+r"(n), "+r"(s), "+r"(b));
    perf_stop();
    show();
    return s == 12345;     /* (never: keeps s live) */
}
