"""Helpers of the cluster tests: assemble a source, run it, and check the cycle invariant.

Every run made through ``run_asm`` checks ``RunResult.check_invariant()`` (per core, the stall
categories plus the issued instructions sum to the core's cycles), so each test also proves
the accounting on its own scenario.  Sources are assembled without compressed instructions:
the hand-computed cycle counts in the tests then need no instruction-size bookkeeping.

The presets model the instruction cache (``icache``) and, on pulp-open, the cluster's one AXI
port to L2 (``l2_contention = "axi"``).  The hand counts of these tests are about other rules
(pipeline, banks, DMA, barriers, FPUs), so ``run_asm`` runs with ideal fetch and uncontended L2
unless a test asks for the cache or the contention itself (``icache=...``,
``l2_contention=...``), as ``test_icache.py``, ``test_l2_contention.py`` and the lockstep
reference do.
"""

from __future__ import annotations

import numpy as np

from isasim import layout as L
from isasim.machine import Machine
from isasim.result import RunResult
from toolchain.asm import assemble

EU = 0x10204000        # event unit, per-core demux (gvsoc-pulp archi/eu_v3.h)
DMA = 0x10204400       # cluster DMA, per-core demux (gvsoc-pulp pulp_open/soc.json)
EXIT = """
    li a7, 93
    li a0, 0
    ecall
"""                     # three 1-cycle instructions: every core stops with code 0


def run_asm(source: str, config: str = "pulp-open", *, max_cycles: int | None = None,
            **overrides) -> tuple[RunResult, Machine]:
    """Assemble ``source`` (Xpulpv2, no RVC), run it, check the invariant; (result, machine)."""
    result, machine, _ = _run(source, config, max_cycles, False, overrides)
    return result, machine


def run_asm_traced(source: str, config: str = "pulp-open", *, max_cycles: int | None = None,
                   **overrides) -> tuple[RunResult, Machine, np.ndarray]:
    """``run_asm`` with the event log: also the int64[n, TRW] trace records (``layout.TR_*``),
    for the cycles at which DMA transfers start and end."""
    return _run(source, config, max_cycles, True, overrides)


# the rules the hand counts leave out (see the module docstring); a test's own setting wins
HAND_COUNT_DEFAULTS = {"icache": "ideal", "l2_contention": "none"}


def _run(source: str, config: str, max_cycles: int | None, trace: bool,
         overrides: dict) -> tuple[RunResult, Machine, np.ndarray]:
    program = assemble(source, filename="cluster_test.s", family="xpulpv2", rvc=False)
    machine = Machine(config, **{**HAND_COUNT_DEFAULTS, **overrides}).load(program)
    chunks: list[np.ndarray] = []
    if trace:
        machine.enable_trace(chunks.append)
    result = machine.run(max_cycles)
    result.check_invariant()
    events = np.concatenate(chunks) if chunks else np.zeros((0, L.TRW), dtype=np.int64)
    return result, machine, events


def events_of(events: np.ndarray, kind: int) -> np.ndarray:
    """The trace records of one kind (``layout.TR_*``)."""
    return events[events[:, 0] == kind]


def words(values) -> str:
    """``.word`` lines for a data section."""
    return "".join(f"    .word {int(v)}\n" for v in values)


def per_core(setup: str, bodies: list[str]) -> str:
    """The text of an SPMD program: every core runs ``setup`` with its hart id in a0, then core
    c branches to label ``core<c>`` and runs ``bodies[c]`` (which must leave on its own)."""
    dispatch = "".join(f"    li t0, {c}\n    beq a0, t0, core{c}\n" for c in range(len(bodies)))
    return ("    .text\n    .globl _start\n_start:\n    csrr a0, mhartid\n" + setup + dispatch
            + "".join(f"core{c}:\n{body}" for c, body in enumerate(bodies)))


def bank_traffic(seed: int) -> tuple[str, int, list[list[int]]]:
    """Cores issuing TCDM loads in straight-line code (mostly to banks 0-3, where the DMA's
    first beats land) while core 0's transfer writes TCDM: (source, cores, bank of each
    instruction of each core's body, -1 for a nop)."""
    rng = np.random.default_rng(seed)
    cores = int(rng.choice([3, 4, 8]))
    banks = [[int(b) if rng.random() < 0.7 else -1
              for b in np.where(rng.random(60) < 0.8, rng.integers(0, 4, 60),
                                rng.integers(0, 16, 60))] for _ in range(cores)]
    bodies = ["".join(f"    lw t1, {4 * b + 64 * int(rng.integers(0, 4))}(t5)\n"
                      if b >= 0 else "    nop\n" for b in banks[c]) + "    j done\n"
              for c in range(cores)]
    cmd = (1 << 17) | (1 << 18) | int(rng.choice([128, 256, 512]))   # L2 -> TCDM, incrementing
    setup = f"""
    li s2, {DMA:#x}
    li t5, 0x10001000           # bank 0
    bnez a0, 1f
    la t3, dst
    la t4, src
    li t0, {cmd:#x}
    sw t0, 0(s2)
    sw t3, 0(s2)
    sw t4, 0(s2)
1:
"""
    source = per_core(setup, bodies) + "done:\n" + EXIT + """
    .data
src: .zero 512
    .section .l1, "aw"
    .p2align 6
dst: .zero 512
"""
    return source, cores, banks
