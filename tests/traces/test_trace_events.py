"""Derived views of the event log agree with the run's counters, whatever the chunking."""

from __future__ import annotations

import numpy as np
import pytest

from isasim import layout as L
from traces.eventlog import CLUSTER, EventLog
from traces.events import (
    OP_BEGIN,
    OP_END,
    OP_STALL,
    barrier_flows,
    conflict_pairs,
    dma_steps,
    pick_window,
    timeline_ops,
    window_stats,
)


@pytest.fixture
def whole(mm):
    """The same log, read in one chunk."""
    log = EventLog(mm[1].path)
    log.chunk = 1 << 20
    return log


def test_windows_sum_to_the_counters(mm):
    result, log = mm
    ws = window_stats(log)
    assert np.array_equal(ws.states.sum(axis=2), result.categories)
    assert np.array_equal(ws.conflicts.sum(axis=1), result.conflicts.sum(axis=0))
    assert (ws.window_lengths() > 0).all() and ws.window_lengths().sum() == result.total_cycles
    # every window is full: the state cycles of a core add up to the window length
    assert np.array_equal(ws.states.sum(axis=1)[0], ws.window_lengths())


def test_windows_do_not_depend_on_chunking(mm, whole):
    a, b = window_stats(mm[1], 7), window_stats(whole, 7)
    assert np.array_equal(a.states, b.states) and np.array_equal(a.conflicts, b.conflicts)


def test_pick_window_is_round():
    assert pick_window(150_000) == 200
    assert pick_window(981) == 10
    assert pick_window(10**9) == 1_000_000


def test_conflict_pairs_match_banks_and_instructions(mm, whole):
    result, log = mm
    pairs = conflict_pairs(log)
    assert np.array_equal(pairs.sum(axis=0), result.conflicts.sum(axis=0))
    assert np.array_equal(pairs.sum(axis=1), result.profile_stall[:, :, L.C_TCDM].sum(axis=0))
    assert np.array_equal(pairs, conflict_pairs(whole))


def _ops(log, core):
    return np.concatenate(list(timeline_ops(log, core)))


def test_timeline_nests_and_covers_every_stall(mm, whole):
    result, log = mm
    for c in range(result.ncores):
        ops = _ops(log, c)
        assert np.array_equal(ops, _ops(whole, c))
        assert (np.diff(ops[:, 1]) >= 0).all(), "time order"
        open_fn, open_since, fn_cycles = None, 0, 0
        stall = np.zeros(L.NCAT, dtype=np.int64)
        for op, t, dur, what, _slot in ops.tolist():
            if op == OP_BEGIN:
                assert open_fn is None
                open_fn, open_since = what, t
            elif op == OP_END:
                assert open_fn == what
                fn_cycles += t - open_since
                open_fn = None
            else:
                assert op == OP_STALL
                stall[what] += dur
        assert open_fn is None
        expect = result.categories[c].copy()
        expect[L.C_INSTR] = 0
        assert np.array_equal(stall, expect)
        # function slices cover everything but cycles tied to no instruction (idle at the end)
        assert fn_cycles == result.cycles[c] - result.categories[c, L.C_IDLE]


def test_barrier_flows_start_at_the_last_arrival(mm):
    _, log = mm
    recs = np.concatenate(list(log.records(CLUSTER)))
    releases = recs[recs[:, 0] == L.TR_BAR_RELEASE]
    flows = list(barrier_flows(log))
    episodes = sorted({f.dst_cycle for f in flows})
    assert len(episodes) == 2          # the kernel's two barriers
    for t in episodes:
        arrivals = recs[(recs[:, 0] == L.TR_BAR_ARRIVE) & (recs[:, 2] <= t)
                        & (recs[:, 3] == 0x1020421C)]
        last = arrivals[np.argmax(arrivals[:, 2])]
        mine = [f for f in flows if f.dst_cycle == t]
        assert {(f.src_core, f.src_cycle) for f in mine} == {(int(last[1]), int(last[2]))}
        woken = set(releases[releases[:, 2] == t][:, 1].tolist())
        assert {f.dst_core for f in mine} == woken - {int(last[1])}


def test_dma_steps_return_to_zero(mm):
    _, log = mm
    steps = np.concatenate(list(dma_steps(log)))
    assert steps[-1, 1] == 0 and steps[:, 1].min() == 0
    assert steps[:, 1].max() == 16 * 4        # one row of 16 floats at a time
    assert (np.diff(steps[:, 0]) >= 0).all()
