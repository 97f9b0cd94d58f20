/* An 8-core int32 matrix multiplication in L1, C = A x B (N x N), rows split over the cores. */
#include "pulp_open.h"

#ifndef N
#define N 32
#endif
#ifndef REPS
#define REPS 1      /* products in the counted region (bench/engine.py: 21, for a sustained rate) */
#endif

__attribute__((section(".l1"))) int32_t A[N * N], B[N * N], C[N * N];

static void init(uint32_t core) {
    for (int i = core; i < N * N; i += NB_CORES) {
        A[i] = (i * 7) % 13 - 6;
        B[i] = (i * 5) % 11 - 5;
    }
}

static void kernel(uint32_t core) {
    for (int r = 0; r < REPS; r++)
        for (int i = core; i < N; i += NB_CORES)
            for (int j = 0; j < N; j++) {
                int32_t s = 0;
                for (int k = 0; k < N; k++) s += A[i * N + k] * B[k * N + j];
                C[i * N + j] = s;
            }
}

void cluster_main(uint32_t core) {
    init(core);
    measure(core, NB_CORES, kernel);
}

int main(void) { return run_cluster((1u << NB_CORES) - 1); }
