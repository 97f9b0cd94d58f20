/* An 8-core fp32 matrix multiplication in L1, C = A x B (N x N), rows split over the cores.
 * GVSoC builds these cores with one register file for integer and FP values (Zfinx); Debian's
 * GCC 12 assembles Zfinx but does not generate it, so the FP operations are written as
 * Zfinx instructions on integer registers holding binary32 bit patterns. */
#include "pulp_open.h"

#ifndef N
#define N 32
#endif
#ifndef REPS
#define REPS 1      /* products in the counted region (bench/engine.py: 21, for a sustained rate) */
#endif

__attribute__((section(".l1"))) uint32_t A[N * N], B[N * N], C[N * N];

static inline uint32_t to_float(int32_t v) {
    uint32_t r;
    __asm__("fcvt.s.w %0, %1" : "=r"(r) : "r"(v));
    return r;
}

static void init(uint32_t core) {
    for (int i = core; i < N * N; i += NB_CORES) {
        A[i] = to_float((i * 7) % 13 - 6);
        B[i] = to_float((i * 5) % 11 - 5);
    }
}

static void kernel(uint32_t core) {
    for (int r = 0; r < REPS; r++)
        for (int i = core; i < N; i += NB_CORES)
            for (int j = 0; j < N; j++) {
                uint32_t s = 0;
                for (int k = 0; k < N; k++)
                    __asm__ volatile("fmadd.s %0, %1, %2, %0"
                                     : "+r"(s) : "r"(A[i * N + k]), "r"(B[k * N + j]));
                C[i * N + j] = s;
            }
}

void cluster_main(uint32_t core) {
    init(core);
    measure(core, NB_CORES, kernel);
}

int main(void) { return run_cluster((1u << NB_CORES) - 1); }
