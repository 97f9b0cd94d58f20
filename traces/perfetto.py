"""Perfetto / chrome://tracing output: the track layout both trace forms share.

Layout (one cycle = one nanosecond of trace time):

* one process ``cluster<id>``; one thread track ``core<c>`` per core, holding function slices
  (consecutive runs in one symbol) with the stall runs nested inside them, named by category;
* counter tracks: ``ipc[core<c>]`` (instructions per cycle over a window), ``bank[<k>].conflicts``
  (conflict cycles per window, banks that had any) and ``dma.bytes_inflight``;
* flow arrows from the last core to arrive at a barrier to every core it releases.

``write_trace`` picks the form from the file name: ``.json`` writes Chrome trace JSON
(``traces.chrome_json``), ``.pftrace`` / ``.perfetto-trace`` / ``.pb`` the protobuf form
(``traces.pftrace``).  JSON viewers slow down past about a million events, so a JSON trace above
``MAX_JSON_EVENTS`` is refused with a message pointing to the protobuf form.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from isasim import layout as L
from traces.eventlog import EventLog, core_section
from traces.events import dma_steps, window_stats

MAX_JSON_EVENTS = 2_000_000
PROTO_SUFFIXES = (".pftrace", ".perfetto-trace", ".pb")


class TraceTooLarge(ValueError):
    """The run has more events than a JSON trace viewer can open comfortably."""


@dataclass(frozen=True)
class CounterSeries:
    """One counter track: its value changes, (cycle, value) in time order."""

    name: str
    unit: str
    cycles: np.ndarray
    values: np.ndarray


def process_name(log: EventLog) -> str:
    return f"cluster{log.meta.get('cluster_id', 0)}"


def thread_name(core: int) -> str:
    return f"core{core}"


def _changes(cycles: np.ndarray, values: np.ndarray, end: int) -> tuple[np.ndarray, np.ndarray]:
    """Keep the first value and every change, then a final point at ``end``."""
    keep = np.ones(len(values), dtype=bool)
    keep[1:] = values[1:] != values[:-1]
    return (np.append(cycles[keep], end), np.append(values[keep], values[-1] if len(values)
                                                     else 0))


def window_counters(log: EventLog) -> Iterator[CounterSeries]:
    """IPC per core and conflict cycles per bank, one value per window."""
    ws = window_stats(log)
    starts = np.arange(ws.nwin, dtype=np.int64) * ws.window
    end = ws.total_cycles
    for c, ipc in enumerate(ws.ipc()):
        t, v = _changes(starts, np.round(ipc, 4), end)
        yield CounterSeries(f"ipc[{thread_name(c)}]", f"instr/cycle over {ws.window} cycles",
                            t, v)
    for bank, conf in enumerate(ws.conflicts):
        if conf.any():
            t, v = _changes(starts, conf.astype(np.float64), end)
            yield CounterSeries(f"bank[{bank}].conflicts", f"cycles lost per {ws.window} cycles",
                                t, v)


def dma_counter(log: EventLog) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Chunks of (cycles, bytes in flight) for the ``dma.bytes_inflight`` track."""
    for steps in dma_steps(log):
        yield steps[:, 0], steps[:, 1].astype(np.float64)


DMA_TRACK = "dma.bytes_inflight"


def run_count(log: EventLog) -> int:
    """Number of state runs: an upper bound on the slices the trace will hold."""
    return sum(int((rec[:, 0] == L.TR_RUN).sum()) for c in range(log.ncores)
               for rec in log.records(core_section(c)))


def write_trace(log: EventLog, path: str | Path, max_json_events: int | None = None) -> str:
    """Write the trace in the form the suffix asks for; returns a one-line description."""
    path = Path(path)
    limit = MAX_JSON_EVENTS if max_json_events is None else max_json_events
    if path.suffix in PROTO_SUFFIXES:
        from traces.pftrace import write_pftrace

        n = write_pftrace(log, path)
        return f"Perfetto protobuf trace: {path} ({n:,} packets)"
    if path.suffix != ".json":
        raise ValueError(f"{path}: unknown trace form (use .json for Chrome trace JSON or "
                         f".pftrace for Perfetto protobuf)")
    runs = run_count(log)
    if runs > limit:
        raise TraceTooLarge(f"{path}: the run has {runs:,} state runs, too many for a JSON "
                            f"trace (limit {limit:,}); write the protobuf form "
                            f"instead: --trace {path.with_suffix('.pftrace')}")
    from traces.chrome_json import write_chrome_json

    n = write_chrome_json(log, path)
    return f"Chrome trace JSON: {path} ({n:,} events)"
