"""Engine records -> what the viewers draw: slices, windowed counters, flows, (pc, bank) pairs.

Every writer (Perfetto JSON and protobuf, VCD, HTML, terminal report) reads the event log through
these functions, so they all show the same numbers.  Each one is a single streaming pass over
a section of the log (``EventLog.records``) with numpy work per chunk; what they keep between
chunks is bounded by the number of cores, banks, windows or code slots, never by the run length.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from isasim import layout as L
from traces.eventlog import CLUSTER, EventLog, core_section

# timeline operations of one core, in the order a viewer must apply them
OP_END, OP_BEGIN, OP_STALL = 0, 1, 2
NO_FUNCTION = -2         # symbol key of cycles tied to no instruction (e.g. idle after exit)


def core_runs(log: EventLog, core: int) -> Iterator[np.ndarray]:
    """The core's runs in time order, as ``int64[k, 4]`` = (start, length, state, slot)."""
    for rec in log.records(core_section(core)):
        runs = rec[rec[:, 0] == L.TR_RUN]
        if len(runs):
            yield runs[:, 2:6]


def timeline_ops(log: EventLog, core: int) -> Iterator[np.ndarray]:
    """One core's nested slices as ``int64[k, 5]`` rows (op, time, duration, what, slot).

    OP_BEGIN / OP_END open and close a function slice (``what`` = symbol id, -1 for code before
    any symbol); OP_STALL is a complete stall slice (``what`` = category) nested in the open
    function.  Consecutive runs in one function form one function slice; issuing cycles are the
    function slice's time not covered by a stall slice.  Rows come in time order, and at equal
    times an END precedes the BEGIN that follows it, and a BEGIN precedes its first stall.
    """
    syms = log.code.sym_array()
    open_sym = NO_FUNCTION
    end = 0
    for runs in core_runs(log, core):
        start, length, state, slot = runs.T
        sym = syms[slot]
        prev = np.concatenate(([open_sym], sym[:-1]))
        change = np.nonzero(sym != prev)[0]
        ends = change[prev[change] != NO_FUNCTION]
        begins = change[sym[change] != NO_FUNCTION]
        stalls = np.nonzero(state != L.C_INSTR)[0]
        rows = np.concatenate([
            np.column_stack([np.full(len(ends), OP_END), start[ends], np.zeros_like(ends),
                             prev[ends], np.full(len(ends), -1)]),
            np.column_stack([np.full(len(begins), OP_BEGIN), start[begins],
                             np.zeros_like(begins), sym[begins], np.full(len(begins), -1)]),
            np.column_stack([np.full(len(stalls), OP_STALL), start[stalls], length[stalls],
                             state[stalls], slot[stalls]]),
        ]).astype(np.int64)
        key = np.concatenate([ends * 3, begins * 3 + 1, stalls * 3 + 2])
        yield rows[np.argsort(key, kind="stable")]
        open_sym = int(sym[-1])
        end = int(start[-1] + length[-1])
    if open_sym != NO_FUNCTION:
        yield np.array([[OP_END, end, 0, open_sym, -1]], dtype=np.int64)


def pick_window(total_cycles: int, target: int = 1000) -> int:
    """A round window (1, 2 or 5 x 10^k cycles, at least 10) giving about ``target`` windows."""
    raw = max(total_cycles / target, 10.0)
    base = 10 ** math.floor(math.log10(raw))
    return int(next(m * base for m in (1, 2, 5, 10) if m * base >= raw))


@dataclass
class WindowStats:
    """Cycle counts per fixed window of ``window`` cycles (the last window may be shorter)."""

    window: int
    total_cycles: int
    states: np.ndarray          # int64[ncores, NCAT, nwin]: cycles of each state per window
    conflicts: np.ndarray       # int64[nbanks, nwin]: conflict cycles per bank per window

    @property
    def nwin(self) -> int:
        return self.states.shape[2]

    def window_lengths(self) -> np.ndarray:
        starts = np.arange(self.nwin, dtype=np.int64) * self.window
        return np.minimum(self.window, self.total_cycles - starts)

    def ipc(self) -> np.ndarray:
        """float[ncores, nwin]: instructions issued per cycle in each window."""
        return self.states[:, L.C_INSTR, :] / np.maximum(self.window_lengths(), 1)


def _add_spans(acc: np.ndarray, mid: np.ndarray, row: np.ndarray, start: np.ndarray,
               length: np.ndarray, w: int) -> None:
    """Add each span [start, start+length) to the windows it covers, in row ``row``.

    Whole windows inside a span go to the difference array ``mid`` (summed at the end) so that
    a long span costs O(1), not O(windows).
    """
    end = start + length
    ws = start // w
    we = (end - 1) // w
    one = ws == we
    np.add.at(acc, (row[one], ws[one]), length[one])
    many = ~one
    r, s, e, a, b = row[many], start[many], end[many], ws[many], we[many]
    np.add.at(acc, (r, a), (a + 1) * w - s)
    np.add.at(acc, (r, b), e - b * w)
    inner = b - a > 1
    np.add.at(mid, (r[inner], a[inner] + 1), w)
    np.add.at(mid, (r[inner], b[inner]), -w)


def window_stats(log: EventLog, window: int | None = None) -> WindowStats:
    """Per-window state cycles of every core and conflict cycles of every bank."""
    total = log.total_cycles
    w = window or pick_window(total)
    nwin = max(1, -(-total // w))
    states = np.zeros((log.ncores, L.NCAT, nwin + 1), dtype=np.int64)
    conflicts = np.zeros((log.nbanks, nwin + 1), dtype=np.int64)
    for c in range(log.ncores):
        acc = states[c]
        mid = np.zeros_like(acc)
        for rec in log.records(core_section(c)):
            runs = rec[rec[:, 0] == L.TR_RUN]
            _add_spans(acc, mid, runs[:, 4], runs[:, 2], runs[:, 3], w)
            conf = rec[rec[:, 0] == L.TR_CONFLICT]
            np.add.at(conflicts, (conf[:, 3], conf[:, 2] // w), 1)
        acc += np.cumsum(mid, axis=1)
    return WindowStats(window=w, total_cycles=total, states=states[:, :, :nwin],
                       conflicts=conflicts[:, :nwin])


def conflict_pairs(log: EventLog) -> np.ndarray:
    """int64[nslots, nbanks]: conflict cycles of each instruction (slot) in each bank.

    A conflict event gives (victim core, cycle, bank); the victim's tcdm_conflict run covering
    that cycle gives the instruction.  A run is written when it closes, after its conflicts, so
    conflicts not yet covered wait for the next chunk of the same core.
    """
    out = np.zeros((len(log.code.slot_pc), log.nbanks), dtype=np.int64)
    for c in range(log.ncores):
        pending = np.zeros((0, 2), dtype=np.int64)
        for rec in log.records(core_section(c)):
            conf = rec[rec[:, 0] == L.TR_CONFLICT][:, 2:4]
            runs = rec[(rec[:, 0] == L.TR_RUN) & (rec[:, 4] == L.C_TCDM) & (rec[:, 5] >= 0)]
            pending = np.concatenate([pending, conf])
            if not len(runs) or not len(pending):
                continue
            i = np.searchsorted(runs[:, 2], pending[:, 0], side="right") - 1
            ok = i >= 0
            ok[ok] = pending[ok, 0] < runs[i[ok], 2] + runs[i[ok], 3]
            np.add.at(out, (runs[i[ok], 5], pending[ok, 1]), 1)
            pending = pending[~ok & (pending[:, 0] >= runs[-1, 2] + runs[-1, 3])]
    return out


@dataclass(frozen=True)
class Flow:
    """A barrier release: from the last core to arrive to one core it wakes."""

    src_core: int
    src_cycle: int       # the last arrival (the cycle its p.elw issued)
    dst_core: int
    dst_cycle: int       # the cycle the core was woken (its barrier wait ends here)


def barrier_flows(log: EventLog) -> Iterator[Flow]:
    """Barrier releases, each tied to the last arrival at the same barrier address.

    The last core to arrive gets no flow to itself.

    Arrivals are kept per core (the latest one); a release of core i closes the episode of the
    address core i arrived at.  All releases of one episode share its last arrival even though
    the waking cores drop their own arrivals as they go.
    """
    arrival: dict[int, tuple[int, int]] = {}      # core -> (cycle, address)
    episode: tuple | None = None      # (release cycle, address, source core, its cycle)
    for rec in log.records(CLUSTER):
        for kind, core, t, addr, _b, _s in rec.tolist():
            if kind == L.TR_BAR_ARRIVE:
                arrival[core] = (t, addr)
            elif kind == L.TR_BAR_RELEASE:
                addr = arrival[core][1] if core in arrival else None
                if episode is None or episode[:2] != (t, addr):
                    same = [(at, c) for c, (at, a) in arrival.items()
                            if (addr is None or a == addr) and at <= t]
                    src_t, src = max(same) if same else (t, core)
                    episode = (t, addr, src, src_t)
                arrival.pop(core, None)
                if episode[2] != core:
                    yield Flow(episode[2], episode[3], core, t)


def dma_steps(log: EventLog) -> Iterator[np.ndarray]:
    """DMA bytes in flight as a step function: ``int64[k, 2]`` = (cycle, bytes from then on).

    A transfer is in flight from its first beat (TR_DMA_START) to the cycle after its last one
    (TR_DMA_END), as the engine stamps them.
    """
    level = 0
    for rec in log.records(CLUSTER):
        ev = rec[(rec[:, 0] == L.TR_DMA_START) | (rec[:, 0] == L.TR_DMA_END)]
        if not len(ev):
            continue
        ev = ev[np.argsort(ev[:, 2], kind="stable")]
        delta = np.where(ev[:, 0] == L.TR_DMA_START, ev[:, 4], -ev[:, 4])
        values = level + np.cumsum(delta)
        level = int(values[-1])
        yield np.column_stack([ev[:, 2], values])
