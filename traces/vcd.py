"""VCD waveform of a run (pyvcd), for GTKWave or Surfer.

Scope ``cluster<id>.core<c>`` per core, with one change per state run:

* ``state``  4-bit code of the cycle category (the index in ``isasim.layout.CATEGORIES``;
  0 = issuing an instruction), ``state_name`` the same as a string;
* ``pc``     32-bit address of the instruction the run is charged to: the stalled instruction
  for a stall run, the first instruction for an issuing run (the engine merges consecutive
  issuing cycles, so the pc does not step within one), ``x`` for cycles tied to no instruction;
* ``symbol`` the function of that instruction.

plus ``cluster<id>.dma_inflight`` (bytes).  1 cycle = 1 ns (timescale 1 ns).  VCD needs changes
in global time order, and each core's runs are already in order, so the per-core streams are
merged with a heap: memory stays at one chunk per core.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from pathlib import Path

from vcd import VCDWriter

from isasim import layout as L
from traces.eventlog import EventLog
from traces.events import core_runs, dma_steps

DMA = -1     # pseudo core of the DMA stream in the merge


def _core_stream(log: EventLog, core: int) -> Iterator[tuple[int, int, int, int]]:
    for runs in core_runs(log, core):
        for start, _length, state, slot in runs.tolist():
            yield start, core, state, slot


def _dma_stream(log: EventLog) -> Iterator[tuple[int, int, int, int]]:
    for steps in dma_steps(log):
        for t, value in steps.tolist():
            yield t, DMA, value, 0


def write_vcd(log: EventLog, path: str | Path) -> int:
    """Write the waveform; returns the number of runs written."""
    code = log.code
    scope = f"cluster{log.meta.get('cluster_id', 0)}"
    n = 0
    with open(path, "w") as f, VCDWriter(f, timescale="1 ns", date=None, check_values=False,
                                         comment="isasim run: 1 cycle = 1 ns") as w:
        cores = []
        for c in range(log.ncores):
            s = f"{scope}.core{c}"
            cores.append((w.register_var(s, "state", "wire", size=4, init=0),
                          w.register_var(s, "state_name", "string", init="instr"),
                          w.register_var(s, "pc", "wire", size=32, init="x"),
                          w.register_var(s, "symbol", "string", init="-")))
        dma = w.register_var(scope, "dma_inflight", "wire", size=32, init=0)
        # per slot (and -1 at the end): pc value and function name; VCD strings have no spaces
        pcs = code.slot_pc + ["x"]
        names = [code.function(i).replace(" ", "_") for i in range(len(code.slot_pc))] + ["-"]
        shown = ["-"] * log.ncores      # the symbol each core shows: skip pyvcd when unchanged
        streams = [_core_stream(log, c) for c in range(log.ncores)] + [_dma_stream(log)]
        for t, core, value, slot in heapq.merge(*streams):
            if core == DMA:
                w.change(dma, t, value)
                continue
            state, state_name, pc, symbol = cores[core]
            w.change(state, t, value)
            w.change(state_name, t, L.CATEGORIES[value])
            w.change(pc, t, pcs[slot])
            if names[slot] != shown[core]:
                shown[core] = names[slot]
                w.change(symbol, t, shown[core])
            n += 1
        w.close(log.total_cycles)
    return n
