/* pulp-runtime DMA example: core 0 of the cluster copies a table from L2 to L1 with the
 * cluster DMA (plp_dma_extToL1), every core doubles its slice, core 0 copies it back
 * (plp_dma_l1ToExt); the FC checks the result. */
#include "pulp.h"
#include <stdio.h>

#define N 256
static int table[N];
static int *local;

static int cluster_entry()
{
  int core = get_core_id();
  if (core == 0)
    plp_dma_wait(plp_dma_extToL1((unsigned int)local, (unsigned int)table, N * 4));
  synch_barrier();
  for (int i = core * (N / 8); i < (core + 1) * (N / 8); i++)
    local[i] *= 2;
  synch_barrier();
  if (core == 0)
    plp_dma_wait(plp_dma_l1ToExt((unsigned int)table, (unsigned int)local, N * 4));
  return 0;
}

int main()
{
  for (int i = 0; i < N; i++) table[i] = i;
  local = pi_l1_malloc(0, N * 4);
  cluster_start(0, cluster_entry);
  cluster_wait(0);
  int errors = 0;
  for (int i = 0; i < N; i++) errors += table[i] != 2 * i;
  printf("DMA round trip: %d errors\n", errors);
  return errors;
}
