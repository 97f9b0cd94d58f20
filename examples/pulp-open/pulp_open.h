/* The bare-metal interface of GVSoC's pulp-open chip, as a program without a runtime uses it.
 *
 * Addresses: gvsoc-pulp pulp/chips/pulp_open/soc.json (APB mappings), pulp/cluster/archi/
 * cluster_ctrl_v2.h (cluster control), pulp/chips/pulp/archi/apb_soc.h (SoC control),
 * pulp-runtime include/archi/eu/eu_v3.h (event unit), include/archi/dma/mchan_v7.h (DMA),
 * include/archi/itc/itc_v1.h (the FC's interrupt controller).  isasim's preset pulp-open-soc
 * models the same chip (docs/soc.md). */
#ifndef PULP_OPEN_H
#define PULP_OPEN_H

#include <stdint.h>

#define NB_CORES 8
#define FC_CLUSTER_ID 31

#define CLUSTER_CTRL 0x10200000u      /* FETCH_EN +0x08, BOOT_ADDR(i) +0x40 + 4*i */
#define ICACHE_CTRL 0x10201400u
#define EU_DEMUX 0x00204000u          /* per-core event unit, seen by the cluster cores only */
#define DMA_DEMUX 0x00204400u         /* per-core DMA (mchan v7) */
#define SOC_CTRL_CORE_STATUS 0x1A1040A0u
#define FC_ITC 0x1A109800u            /* MASK +0x0, MASK_SET +0x4, STATUS_SET +0x10, STATUS_CLR +0x14 */
#define STDOUT 0x1A10F000u
#define L1_BASE 0x10000000u

#define REG(a) (*(volatile uint32_t *)(uintptr_t)(a))

static inline uint32_t hart_id(void) {
    uint32_t v;
    __asm__ volatile("csrr %0, mhartid" : "=r"(v));
    return v;
}
static inline uint32_t core_id(void) { return hart_id() & 0x1F; }
static inline uint32_t cluster_id(void) { return hart_id() >> 5; }
static inline int is_fc(void) { return cluster_id() == FC_CLUSTER_ID; }

/* stdout: one byte at a time to this core's channel; GVSoC prints the line at '\n' */
static inline void put_char(char c) {
    *(volatile uint8_t *)(uintptr_t)(STDOUT + (cluster_id() << 7) + (core_id() << 3)) = c;
}
static inline void put_str(const char *s) {
    while (*s) put_char(*s++);
}
static inline void put_dec(uint32_t v) {
    char buf[11];
    int n = 0;
    do { buf[n++] = '0' + v % 10; v /= 10; } while (v);
    while (n) put_char(buf[--n]);
}
static inline void put_hex(uint32_t v) {
    put_str("0x");
    for (int i = 28; i >= 0; i -= 4) put_char("0123456789abcdef"[(v >> i) & 15]);
}

/* end of computation: the status is the simulator's exit status */
static inline void __attribute__((noreturn)) soc_exit(uint32_t status) {
    REG(SOC_CTRL_CORE_STATUS) = 0x80000000u | status;
    for (;;) __asm__ volatile("wfi");
}

/* start cluster cores `mask` at `entry` (the instruction cache enabled, as GVSoC wants) */
static inline void cluster_fetch(uint32_t mask, void (*entry)(void)) {
    REG(ICACHE_CTRL) = 0xFFFFFFFFu;
    for (int i = 0; i < NB_CORES; i++) REG(CLUSTER_CTRL + 0x40 + 4 * i) = (uint32_t)(uintptr_t)entry;
    REG(CLUSTER_CTRL + 0x08) = mask;
}

/* hardware barrier 0 of the cluster's event unit; the waiting core must have the barrier
 * event (16) in its event mask to be woken */
static inline void barrier_setup(uint32_t mask) {
    REG(EU_DEMUX + 0x08) = 1u << 16;        /* event mask |= barrier event */
    REG(EU_DEMUX + 0x200 + 0x00) = mask;    /* trigger mask */
    REG(EU_DEMUX + 0x200 + 0x0C) = mask;    /* target mask */
}
static inline void barrier(void) {
    (void)REG(EU_DEMUX + 0x200 + 0x1C);     /* trigger, wait, clear */
}
static inline void evt_mask_set(uint32_t mask) { REG(EU_DEMUX + 0x08) = mask; }

/* the FC's interrupt controller: an event from the cluster wakes the FC's wfi */
static inline void fc_event_mask_set(uint32_t mask) { REG(FC_ITC + 0x04) = mask; }
static inline void fc_event_send(uint32_t bits) { REG(FC_ITC + 0x10) = bits; }
static inline uint32_t fc_event_status(void) { return REG(FC_ITC + 0x0C); }
static inline void fc_event_clear(uint32_t bits) { REG(FC_ITC + 0x14) = bits; }

/* the cluster DMA (mchan v7): one 1-D transfer, L2 -> L1 when `to_l1` */
static inline uint32_t dma_copy(uint32_t l1, uint32_t ext, uint32_t len, int to_l1) {
    uint32_t id = REG(DMA_DEMUX + 0x0);
    REG(DMA_DEMUX + 0x0) = len | (to_l1 ? 1u << 17 : 0) | (1u << 18);
    REG(DMA_DEMUX + 0x0) = l1;
    REG(DMA_DEMUX + 0x0) = ext;
    return id;
}
static inline void dma_wait(uint32_t id) {
    while (REG(DMA_DEMUX + 0x4) & (1u << id)) {}
    REG(DMA_DEMUX + 0x4) = 1u << id;
}

/* PULP performance counters as GVSoC numbers them: PCER 0xCC0, PCMR 0xCC1, reset 0x79F,
 * cycles 0x780, instructions 0x781 */
static inline void perf_start(void) {
    __asm__ volatile("csrw 0xCC0, %0" ::"r"(3));
    __asm__ volatile("csrw 0x79F, zero");
    __asm__ volatile("csrw 0xCC1, %0" ::"r"(1));
}
static inline void perf_stop(void) { __asm__ volatile("csrw 0xCC1, zero"); }
static inline uint32_t perf_cycles(void) {
    uint32_t v;
    __asm__ volatile("csrr %0, 0x780" : "=r"(v));
    return v;
}
static inline uint32_t perf_instrs(void) {
    uint32_t v;
    __asm__ volatile("csrr %0, 0x781" : "=r"(v));
    return v;
}

/* The bench programs' common frame: every core started runs `kernel` between starting and
 * stopping its counters; after a barrier, core 0 prints each core's counts
 * ("core I cycles C instructions N") and ends the computation with status 0. */
static volatile uint32_t counted_cycles[NB_CORES], counted_instrs[NB_CORES];

static inline void measure(uint32_t core, uint32_t ncores, void (*kernel)(uint32_t)) {
    barrier_setup((1u << ncores) - 1);
    barrier();
    perf_start();
    kernel(core);
    perf_stop();
    counted_cycles[core] = perf_cycles();
    counted_instrs[core] = perf_instrs();
    barrier();
    if (core != 0) return;
    for (uint32_t i = 0; i < ncores; i++) {
        put_str("core ");
        put_dec(i);
        put_str(" cycles ");
        put_dec(counted_cycles[i]);
        put_str(" instructions ");
        put_dec(counted_instrs[i]);
        put_char('\n');
    }
    soc_exit(0);
}

/* the FC's main of a cluster program: start the cores at _start, sleep (core 0 ends the run) */
static inline int run_cluster(uint32_t mask) {
    cluster_fetch(mask, (void (*)(void))0x1C008000);
    for (;;) __asm__ volatile("wfi");
    return 0;
}

#endif
