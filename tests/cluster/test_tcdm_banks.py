"""TCDM bank arbitration: hand-computed conflict counts for round robin, FIFO and none.

Every core runs the same straight-line program (no branches, no compressed code), so all cores
reach their first load in the same cycle and the counts below follow from the arbitration rule
alone (cluster_interconnect xbar.sv): a lost arbitration costs one ``tcdm_conflict`` cycle and a
retry.
"""

from __future__ import annotations

import numpy as np
import pytest

from isasim import layout as L

from .common import EXIT, bank_traffic, per_core, run_asm, run_asm_traced

K = 16          # loads per core
T0 = 4          # cycle of the first load: four 1-cycle setup instructions before it


def hammer(mask: int, shift: int) -> str:
    """Core c issues K back-to-back loads of TCDM word ``(c & mask) << shift``."""
    return f"""
    .text
    .globl _start
_start:
    andi t2, a0, {mask}
    slli t2, t2, {shift}
    lui t0, 0x10000
    add t0, t0, t2
""" + "    lw t1, 0(t0)\n" * K + EXIT


ONE_BANK = hammer(7, 6)       # 64 bytes apart: 16 words, so every core is on bank 0
OWN_BANK = hammer(7, 2)       # one word apart: core c on bank c
PAIRS = hammer(3, 2)          # cores c and c + 4 share bank c


@pytest.mark.parametrize("policy", ["round_robin", "fifo"])
def test_eight_cores_on_one_bank_get_one_eighth_each(policy):
    """8 cores x K = 16 loads on bank 0: the bank serves one load per cycle.

    All eight request at T0 = 4.  Round robin starts at core 0 and rotates; FIFO serves the
    oldest request, ties to the lower core id, which with eight always-waiting cores is the same
    rotation.  So core c's k-th load is granted at T0 + 8k + c:
    * tcdm_conflict(c) = c (before its first load) + 7 (K - 1) (seven others between two of its
      loads) = c + 105;
    * core c lost (K - 1) = 15 cycles to every other core, plus one more to each lower core id;
    * core 7 ends at T0 + 8 (K - 1) + 7 + 1 + 3 (exit) = 8K + 7 = 135 cycles, and the bank
      served 8K = 128 loads in the 128 cycles from T0 to the last grant.
    """
    r, _ = run_asm(ONE_BANK, conflict_policy=policy)
    c = np.arange(8)
    assert r.category("tcdm_conflict").tolist() == (c + 7 * (K - 1)).tolist()
    assert r.conflicts[:, 0].tolist() == (c + 7 * (K - 1)).tolist()
    assert r.conflicts[:, 1:].sum() == 0                    # nobody else touched another bank
    expected_winners = (K - 1) + (c[None, :] < c[:, None])  # [victim, winner]
    np.fill_diagonal(expected_winners, 0)
    assert (r.conflict_winners[:, :8] == expected_winners).all()
    assert r.conflict_winners[:, 8:].sum() == 0             # the DMA did not take part
    assert r.perf["TCDM_CONT"].tolist() == r.category("tcdm_conflict").tolist()
    assert r.total_cycles == 8 * K + 7 == 135
    assert r.perf["LD"].tolist() == [K] * 8


def test_eight_cores_on_one_bank_with_policy_none_never_conflict():
    """Policy none (GVSoC HEAD since gvsoc-core 85b3198b): infinite bank bandwidth, every core runs
    as if
    alone: T0 + K loads + 3 exit instructions = 4 + 16 + 3 = 23 cycles, no conflicts."""
    r, _ = run_asm(ONE_BANK, conflict_policy="none")
    assert r.category("tcdm_conflict").sum() == 0
    assert r.conflicts.sum() == 0 and r.conflict_winners.sum() == 0
    assert r.cycles.tolist() == [T0 + K + 3] * 8


@pytest.mark.parametrize("policy", ["round_robin", "fifo", "none"])
def test_eight_cores_on_distinct_banks_never_conflict(policy):
    """Core c on bank c: no two requests meet, so every policy gives T0 + K + 3 = 23 cycles."""
    r, _ = run_asm(OWN_BANK, conflict_policy=policy)
    assert r.conflicts.sum() == 0
    assert r.category("tcdm_conflict").sum() == 0
    assert r.cycles.tolist() == [T0 + K + 3] * 8


@pytest.mark.parametrize("policy", ["round_robin", "fifo"])
def test_two_cores_per_bank_get_half_each(policy):
    """Cores c and c + 4 share bank c (c < 4): they alternate, c first (lower id / pointer 0).

    Core c (< 4) is granted at T0, T0 + 2, ... and loses the K - 1 = 15 cycles in between;
    core c + 4 is granted at T0 + 1, T0 + 3, ... and loses K = 16 (one more before its first).
    Core c + 4 ends at T0 + 2K - 1 + 1 + 3 = 2K + 7 = 39 cycles.
    """
    r, _ = run_asm(PAIRS, conflict_policy=policy)
    assert r.category("tcdm_conflict").tolist() == [K - 1] * 4 + [K] * 4
    for c in range(4):
        assert r.conflicts[c, c] == K - 1 and r.conflicts[c + 4, c] == K
        assert r.conflict_winners[c, c + 4] == K - 1 and r.conflict_winners[c + 4, c] == K
    assert r.total_cycles == 2 * K + 7


# Core 3 alone touches bank 0 one cycle before everybody hammers it; the other cores' first
# loads go to banks 13, 14, 15, 1, 2, 3, 4 (word (c + 13) & 15), so that cycle has no conflict.
TOUCH_THEN_HAMMER = """
    .text
    .globl _start
_start:
    addi t3, a0, 13
    andi t3, t3, 15
    slli t3, t3, 2
    lui t0, 0x10000
    add t3, t3, t0
    slli t2, a0, 6
    add t0, t0, t2
    lw t1, 0(t3)
""" + "    lw t1, 0(t0)\n" * K + EXIT


@pytest.mark.parametrize("policy, first", [("round_robin", 4), ("fifo", 0)])
def test_round_robin_remembers_the_last_winner_fifo_does_not(policy, first):
    """After core 3's lone access, bank 0's round-robin pointer is 4: the eight simultaneous
    requests are served 4, 5, 6, 7, 0, 1, 2, 3, ...  FIFO sees eight requests of the same age
    and serves 0, 1, ..., 7.  Core c's place in the rotation is p = (c - first) mod 8, and it
    loses p + 7 (K - 1) cycles: the two policies differ only in who pays the extra 0..7."""
    r, _ = run_asm(TOUCH_THEN_HAMMER, conflict_policy=policy)
    place = (np.arange(8) - first) % 8
    assert r.category("tcdm_conflict").tolist() == (place + 7 * (K - 1)).tolist()
    assert r.conflicts[:, 0].sum() == r.conflicts.sum()


def _request_starts(runs: np.ndarray) -> dict[tuple[int, int], int]:
    """(core, cycle) -> first cycle of the request it waits on or is granted in that cycle, for
    every cycle inside or just after a run of lost arbitrations."""
    starts: dict[tuple[int, int], int] = {}
    for _, core, start, length, state, _ in runs:
        if state == L.C_TCDM:
            for j in range(length + 1):
                starts.setdefault((int(core), int(start) + j), int(start))
    return starts


@pytest.mark.parametrize("seed", range(8))
def test_fifo_serves_older_requests_first_and_round_robin_makes_nobody_wait_long(seed):
    """Properties read from the event log of random bank traffic (cores on banks 0-3 with a
    DMA transfer competing): under FIFO, no core ever loses a cycle to a younger request; under
    round robin, no request waits more cycles than there are other requesters (9: seven cores,
    two DMA ports)."""
    source, cores, _ = bank_traffic(seed)
    for policy in ("fifo", "round_robin"):
        r, _, ev = run_asm_traced(source, cores=cores, conflict_policy=policy)
        runs = ev[ev[:, 0] == L.TR_RUN]
        starts = _request_starts(runs)
        lost = ev[ev[:, 0] == L.TR_CONFLICT]
        assert len(lost) == r.conflicts.sum() > 0
        if policy == "fifo":
            for _, victim, cycle, _, winner, _ in lost:
                if winner < 8:      # a core (the DMA's request is never younger)
                    assert starts.get((int(winner), int(cycle)), int(cycle)) <= starts[
                        (int(victim), int(cycle))]
        else:
            waits = runs[(runs[:, 4] == L.C_TCDM), 3]
            assert waits.max() <= L.NREQ - 1



# Core 0's loads straddle words 0 and 1 (banks 0 and 1); core 1 hammers word 1 (bank 1).
STRADDLE = """
    .text
    .globl _start
_start:
    seqz t2, a0
    slli t2, t2, 1
    lui t0, 0x10000
    addi t0, t0, 4
    sub t0, t0, t2
""" + "    lw t1, 0(t0)\n" * K + EXIT


@pytest.mark.parametrize("policy", ["round_robin", "fifo"])
def test_a_misaligned_access_takes_both_its_banks_one_after_the_other(policy):
    """RI5CY splits a load straddling two words into two accesses in consecutive cycles, each
    arbitrated at its own bank.  Core 0's loads (address 2) use bank 0 at T0 + 2k and bank 1 at
    T0 + 2k + 1, issuing with the second half; core 1 (address 4, bank 1) wants bank 1 every
    cycle.  Core 0's second half wins each meeting (round robin: core 1 was served last; FIFO:
    same age, lower id), so core 1 loses T0 + 1, T0 + 3, ...: K - 1 cycles, all to core 0 on
    bank 1, and core 0 loses none.  Core 0 takes 2K cycles of loads, core 1 2K - 1."""
    r, _ = run_asm(STRADDLE, cores=2, conflict_policy=policy)
    assert r.category("misaligned").tolist() == [K, 0]
    assert r.category("tcdm_conflict").tolist() == [0, K - 1]
    assert r.conflicts[1, 1] == K - 1 and r.conflicts.sum() == K - 1
    assert r.conflict_winners[1, 0] == K - 1
    assert r.cycles.tolist() == [T0 + 1 + 2 * K + 3] * 2
    assert r.category("idle").tolist() == [0, 1]


def _straddling_traffic(seed: int) -> tuple[str, int, list[list[tuple[int, ...]]]]:
    """Random straight-line loads and stores on banks 0-3 of several cores, half of them
    misaligned: (source, cores, per core and instruction the banks of its accesses: () for a
    nop, (bank,) for an aligned access or a misaligned half-word inside a word (one transaction
    in pulp-open, as in the RTL), (first word's bank, second word's bank) for one straddling
    two words)."""
    rng = np.random.default_rng(seed)
    cores = int(rng.choice([2, 3, 4, 8]))
    bodies, uses = [], []
    for _ in range(cores):
        lines, used = [], []
        for _ in range(40):
            kind = rng.integers(0, 6)
            word = int(rng.integers(0, 4)) + 16 * int(rng.integers(0, 4))
            bank, after = word & 15, (word + 1) & 15
            load = rng.random() < 0.7
            w, h = ("lw t1", "lh t1") if load else ("sw t2", "sh t2")
            if kind == 0:
                lines.append("    nop")
                used.append(())
            elif kind <= 2:
                lines.append(f"    {w}, {4 * word}(t5)")
                used.append((bank,))
            elif kind == 3:
                lines.append(f"    {w}, {4 * word + int(rng.integers(1, 4))}(t5)")
                used.append((bank, after))
            elif kind == 4:
                lines.append(f"    {h}, {4 * word + 3}(t5)")
                used.append((bank, after))
            else:
                lines.append(f"    {h}, {4 * word + 1}(t5)")
                used.append((bank,))
        bodies.append("\n".join(lines) + "\n    j done\n")
        uses.append(used)
    source = per_core("    li t5, 0x10001000\n", bodies) + "done:\n" + EXIT
    return source, cores, uses


@pytest.mark.parametrize("seed", range(10))
def test_no_bank_serves_two_accesses_in_a_cycle_when_accesses_straddle_words(seed):
    """From the event log, under round robin and FIFO: no bank serves two accesses in one
    cycle, counting both halves of misaligned ones.  An aligned access uses its bank in its
    issue cycle; a misaligned one makes its first access in its ``misaligned`` cycle and, when
    it straddles two words, its second (the next word's bank) in its issue cycle.  Regression:
    the second half was not arbitrated, and shared its bank with another core's access."""
    source, cores, uses = _straddling_traffic(seed)
    for policy in ("round_robin", "fifo"):
        r, m, ev = run_asm_traced(source, cores=cores, conflict_policy=policy)
        assert r.status == "exited"
        runs = ev[ev[:, 0] == L.TR_RUN]
        users: dict[tuple[int, int], int] = {}
        last_half = [-1] * cores       # each core's latest misaligned cycle (runs are in order)
        for _, core, start, length, state, slot in runs[np.lexsort((runs[:, 2], runs[:, 1]))]:
            if state == L.C_MISALIGNED:
                assert length == 1
                last_half[core] = int(start)
            if state != L.C_INSTR:
                continue
            first = (m.slot_pc[slot] - r.symbols[f"core{core}"]) // 4
            for j in range(length):
                k = first + j
                banks = uses[core][k] if 0 <= k < len(uses[core]) else ()
                issue = int(start) + j
                used = [(issue, banks[0])] if len(banks) == 1 else [
                    (last_half[core], banks[0]), (issue, banks[1])] if banks else []
                for key in used:
                    users[key] = users.get(key, 0) + 1
        accesses = sum(len(u) for c in range(cores) for u in uses[c])
        assert sum(users.values()) == accesses
        assert max(users.values()) == 1


POINTER_PROBE = """
    .text
    .globl _start
_start:
    slli t2, a0, 2
    la t3, first
    add t3, t3, t2
    lw t4, 0(t3)              # core c's address for load A (from L2: the same cycles on all)
    lw t5, 16(t3)             # ... and for load B
    nop
    lw t1, 0(t4)              # A: core 3 alone on bank 0, cores 0-2 on banks 4-6
    lw t1, 0(t5)              # B, the next cycle: cores 1 and 2 on bank 0, 0 and 3 on 8 and 9
""" + EXIT + """
    .data
first: .word 0x10001010, 0x10001014, 0x10001018, 0x10001000
second: .word 0x10001020, 0x10001000, 0x10001000, 0x10001024
"""


@pytest.mark.parametrize(("policy", "loser", "winner"), [
    ("rr_arb_tree", 1, 2), ("round_robin", 2, 1), ("fifo", 2, 1)])
def test_rr_arb_tree_picks_by_the_pointers_bits_and_moves_it_to_the_next_requester(
        policy, loser, winner):
    """4 cores run the same code; bank 0's pointer starts at 0.  In load A's cycle core 3 is
    bank 0's only requester: rr_arb_tree (common_cells rr_arb_tree.sv, FairArb) moves the
    pointer to the first requester after it, 3; round robin moves it past the winner, to 4.
    In load B's cycle cores 1 and 2 ask for bank 0.  The tree's nodes take the right subtree
    when both ask and the pointer's bit of that level is set: 1 = 0b01 and 2 = 0b10 first
    differ in bit 1, where the pointer 3 = 0b11 has a 1, so core 2 (index ^ pointer = 1, less
    than core 1's 2) wins and core 1 loses one cycle.  Round robin from 4 reaches core 1 first
    (4, ..., 9, 0, 1), and FIFO takes the lower id of two requests of the same age: core 2
    loses."""
    r, _ = run_asm(POINTER_PROBE, cores=4, conflict_policy=policy)
    assert r.status == "exited"
    expected = [0, 0, 0, 0]
    expected[loser] = 1
    assert r.conflicts[:, 0].tolist() == expected
    assert r.conflicts[:, 1:].sum() == 0
    assert r.conflict_winners[loser, winner] == 1
