/* pulp-runtime barrier example: the 8 cluster cores meet at synch_barrier() 20 times; between
 * two barriers each publishes its round in L1 and checks everybody else's. */
#include "pulp.h"
#include <stdio.h>

#define ROUNDS 20
static volatile int *round_of;
static volatile int errors[8];

static int cluster_entry()
{
  int core = get_core_id();
  for (int r = 1; r <= ROUNDS; r++)
  {
    round_of[core] = r;
    synch_barrier();
    for (int i = 0; i < 8; i++)
      if (round_of[i] != r) errors[core]++;
    synch_barrier();
  }
  return 0;
}

int main()
{
  round_of = pi_l1_malloc(0, 8 * sizeof(int));
  cluster_start(0, cluster_entry);
  cluster_wait(0);
  int bad = 0;
  for (int i = 0; i < 8; i++) bad += errors[i];
  printf("%d barrier rounds, %d errors\n", ROUNDS, bad);
  return bad;
}
