"""Shared TCDM behaves as one memory in global cycle order, checked against a replay.

Cores store unique values to a few shared words and load them back in straight-line code,
each load's value logged to the core's own buffer.  The event log gives every instruction's
issue cycle; replaying all stores and loads in cycle order (a bank serves one core per cycle
under round robin and FIFO, so no word is stored and loaded in the same cycle) must give every
load the value of the last store before it.  This is what the engine's run-ahead scheme
promises: cores run private instructions out of step, yet touch shared state in cycle order.
"""

from __future__ import annotations

import numpy as np
import pytest

from isasim import layout as L

from .common import EXIT, per_core, run_asm_traced

SHARED = 0x10001000
LOG = 0x10002000        # core c logs its loads at LOG + 1 KiB c


def shared_traffic(seed: int) -> tuple[str, int, list[list[tuple[str, int, int]]]]:
    """(source, cores, per core the (kind, word, value) of each body instruction)."""
    rng = np.random.default_rng(seed)
    cores = int(rng.choice([2, 4, 8]))
    nwords = int(rng.choice([2, 4, 8]))
    bodies, ops = [], []
    for c in range(cores):
        text, body = "", []
        for k in range(40):
            word = int(rng.integers(0, nwords))
            if rng.random() < 0.45:
                value = 0x1000000 | c << 16 | k            # low 12 bits fit ori's immediate
                text += (f"    lui t1, {value >> 12}\n    ori t1, t1, {value & 0xFFF}\n"
                         f"    sw t1, {4 * word}(t5)\n")
                body += [("alu", 0, 0), ("alu", 0, 0), ("sw", word, value)]
            else:
                text += f"    lw t2, {4 * word}(t5)\n    sw t2, 0(t6)\n    addi t6, t6, 4\n"
                body += [("lw", word, 0), ("log", 0, 0), ("alu", 0, 0)]
        ops.append(body)
        bodies.append(f"    li t6, {LOG + 1024 * c:#x}\nbody{c}:\n{text}    j done\n")
    source = per_core(f"    li t5, {SHARED:#x}\n", bodies) + "done:\n" + EXIT
    return source, cores, ops


@pytest.mark.parametrize("policy", ["round_robin", "fifo"])
@pytest.mark.parametrize("seed", range(4))
def test_every_load_sees_the_last_store_in_cycle_order(seed, policy):
    source, cores, ops = shared_traffic(seed)
    r, m, ev = run_asm_traced(source, cores=cores, conflict_policy=policy)
    issued = ev[(ev[:, 0] == L.TR_RUN) & (ev[:, 4] == L.C_INSTR)]
    accesses = []          # (cycle, 0 for a store / 1 for a load, core, word, value or log index)
    for c in range(cores):
        cycle_at = {}
        for _, _, start, length, _, slot in issued[issued[:, 1] == c]:
            for j in range(length):
                cycle_at[m.slot_pc[slot] + 4 * j] = int(start) + j
        body = r.symbols[f"body{c}"]
        loads = 0
        for k, (kind, word, value) in enumerate(ops[c]):
            if kind == "sw":
                accesses.append((cycle_at[body + 4 * k], 0, c, word, value))
            elif kind == "lw":
                accesses.append((cycle_at[body + 4 * k], 1, c, word, loads))
                loads += 1
    memory: dict[int, int] = {}
    stored_at: set[tuple[int, int]] = set()
    from_others = 0
    for cycle, is_load, core, word, arg in sorted(accesses):
        if not is_load:
            assert (cycle, word) not in stored_at        # one store per word and cycle
            stored_at.add((cycle, word))
            memory[word] = arg
            continue
        got = int(m.read(LOG + 1024 * core + 4 * arg)[0])
        assert got == memory.get(word, 0), (core, cycle, word)
        from_others += got != 0 and (got >> 16) & 0xFF != core
    assert from_others > 0                               # the cores did communicate
