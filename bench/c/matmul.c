/* C = A.B on the 8 cores of the cluster: 64x64 int32 or fp32 (-DFP32) matrices in the TCDM,
 * the rows split over the cores (core h takes rows h, h + 8, ...), the product repeated REPS
 * times.  Built by bench/engine.py with Debian's riscv64-unknown-elf-gcc -O2 for isasim's
 * cluster-only mode (no runtime: start.S, link.ld). */

#define N 64
#define CORES 8
#define REPS 20
#ifdef FP32
typedef float elem;
#else
typedef int elem;
#endif

/* the event unit's barrier 0 (PULP cluster event unit: trigger mask 0x200, target mask 0x20c,
 * event mask 0x8, trigger-wait-clear 0x21c) */
#define EU 0x10204000u
#define REG(off) (*(volatile unsigned *)(EU + (off)))

__attribute__((section(".l1"))) elem A[N][N];
__attribute__((section(".l1"))) elem B[N][N];
__attribute__((section(".l1"))) elem C[N][N];

static void barrier(void) { (void)REG(0x21c); }

int cluster_main(int core)
{
    REG(0x200) = (1u << CORES) - 1;
    REG(0x20c) = (1u << CORES) - 1;
    REG(0x8) = 1u << 16;
    for (int i = core; i < N; i += CORES)
        for (int j = 0; j < N; j++) {
            A[i][j] = (elem)((i * 3 + j) % 7 - 3);
            B[i][j] = (elem)((i + j * 5) % 11 - 5);
        }
    barrier();
    for (int r = 0; r < REPS; r++)
        for (int i = core; i < N; i += CORES)
            for (int j = 0; j < N; j++) {
                elem s = 0;
                for (int k = 0; k < N; k++)
                    s += A[i][k] * B[k][j];
                C[i][j] = s;
            }
    barrier();
    return 0;
}
