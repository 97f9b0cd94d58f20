"""Hardware barrier with skewed arrivals: GVSoC's event-unit timing (eu_v3_impl.cpp).

A ``p.elw`` on TRIGGER_WAIT_CLEAR marks the core arrived and puts it to sleep; when the last
core of the trigger mask arrives, every core of the target mask is woken.  GVSoC charges the
request latency (6) and the wake-up latency (2) after that event, so the last arriver spends
1 + 7 = 8 cycles in its ``p.elw`` and every core runs again 8 cycles after the last arrival.
"""

from __future__ import annotations

import numpy as np
import pytest

from .common import EU, EXIT, run_asm

SKEW = 4        # core c spins 4c more loop iterations (16c more cycles) than core 0


def skewed_barrier(rounds: int = 1, skew: int = SKEW) -> str:
    """Each round: core c spins 4 skew c + 2 cycles, reads mcycle (s2), waits, reads mcycle."""
    body = ""
    for r in range(rounds):
        body += f"""
    li t1, {skew}
    mul t1, t1, a0
{r + 1}:  addi t1, t1, -1
    bgez t1, {r + 1}b
    csrr s{2 + 2 * r}, mcycle
    p.elw t0, 0x21c(s1)
    csrr s{3 + 2 * r}, mcycle
"""
    return f"""
    .text
    .globl _start
_start:
    li s1, {EU:#x}
    li t0, 0xff
    sw t0, 0x200(s1)          # barrier 0: trigger mask, all 8 cores
    sw t0, 0x20c(s1)          # barrier 0: target mask
    li t0, 1 << 16
    sw t0, 0x8(s1)            # listen to the barrier event
""" + body + EXIT


@pytest.mark.parametrize("req, wake", [(6, 2), (3, 1), (0, 1)])
def test_skewed_arrivals_leave_together_after_request_and_wakeup_latency(req, wake):
    """Cycle by cycle (instructions 1 cycle: mul has latency 1 in pulp-open; csrr mcycle 4,
    the CV32E40P manual's slow CSRs):

    * cycles 0..7: li, li, sw, sw, li, sw, li, mul; the spin loop from cycle 8 runs 4c + 1
      iterations of addi + bgez, 4c of them taken (+2 each): 2 (4c + 1) + 2 * 4c = 16c + 2;
    * csrr mcycle at A_c - 4 = 10 + 16c, the p.elw at A_c = 14 + 16c; the last is core 7 at
      A_7 = 126;
    * everybody resumes at R = A_7 + req + wake (134 with GVSoC's 6 + 2) and reads mcycle = R;
    * barrier(c) = R - (A_c + 1): the sleep from the cycle after the p.elw to R
      (119 - 16c with 6 + 2; core 7 pays req + wake - 1 = 7 on top of its issue cycle);
    * the run ends at R + 7: the csrr's 4 cycles, then the 3 exit instructions.
    """
    r, _ = run_asm(skewed_barrier(), barrier_req_latency=req, barrier_wakeup_latency=wake)
    c = np.arange(8)
    arrive = 14 + 16 * c
    assert r.x[:, 18].tolist() == (arrive - 4).tolist()        # s2: mcycle before the wait
    resume = arrive[7] + req + wake
    assert r.x[:, 19].tolist() == [resume] * 8                  # s3: everybody leaves together
    assert r.category("barrier").tolist() == (resume - arrive - 1).tolist()
    assert r.perf["ELW"].tolist() == [1] * 8
    assert r.cycles.tolist() == [resume + 7] * 8                # csrr, then 3 exit instructions


@pytest.mark.parametrize("policy", ["round_robin", "fifo", "none"])
def test_cores_arriving_in_the_same_cycle_leave_together(policy):
    """No skew: all 8 cores issue their p.elw in cycle 14 (after the 4-cycle csrr at 10) and
    every one resumes at 14 + 6 + 2 = 22, having slept 7 cycles.  Regression: the loop handles
    same-cycle arrivals one after the other, and the 7 cores handled before the last one woke a
    cycle late."""
    r, _ = run_asm(skewed_barrier(skew=0), conflict_policy=policy)
    assert r.x[:, 18].tolist() == [10] * 8
    assert r.x[:, 19].tolist() == [22] * 8
    assert r.category("barrier").tolist() == [7] * 8
    assert r.cycles.tolist() == [29] * 8


def test_barrier_is_reusable_and_each_round_costs_the_same():
    """Two rounds of the same skew: round 1 as above (resume at 134); in round 2 core c starts
    spinning at 134 + 4 (csrr) + 1 (li) + 1 (mul) = 140, reads mcycle at 140 + 16c + 2, arrives
    4 cycles later at 146 + 16c, and all leave at 146 + 112 + 8 = 266.  The barrier's status was
    cleared by the first release."""
    r, _ = run_asm(skewed_barrier(rounds=2))
    c = np.arange(8)
    assert r.x[:, 19].tolist() == [134] * 8
    assert r.x[:, 20].tolist() == (142 + 16 * c).tolist()     # s4: mcycle before the 2nd wait
    assert r.x[:, 21].tolist() == [266] * 8
    assert r.category("barrier").tolist() == (2 * (119 - 16 * c)).tolist()
