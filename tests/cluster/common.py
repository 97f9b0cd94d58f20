"""Helpers of the cluster tests: assemble a source, run it, and check the cycle invariant.

Every run made through ``run_asm`` checks ``RunResult.check_invariant()`` (per core, the stall
categories plus the issued instructions sum to the core's cycles), so each test also proves
the accounting on its own scenario.  Sources are assembled without compressed instructions:
the hand-computed cycle counts in the tests then need no instruction-size bookkeeping.
"""

from __future__ import annotations

import numpy as np

from isasim import layout as L
from isasim.machine import Machine
from isasim.result import RunResult
from toolchain.asm import assemble

EU = 0x10204000        # event unit, per-core demux (xpulp-spec C.6)
DMA = 0x10204400       # cluster DMA, per-core demux (C.4)
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


def _run(source: str, config: str, max_cycles: int | None, trace: bool,
         overrides: dict) -> tuple[RunResult, Machine, np.ndarray]:
    program = assemble(source, filename="cluster_test.s", family="xpulpv2", rvc=False)
    machine = Machine(config, **overrides).load(program)
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
