"""Perfetto protobuf trace: parses as a Trace, nests, and its totals are the run's counters."""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest

from isasim import layout as L
from traces.perfetto import write_trace

pb = pytest.importorskip("perfetto.protos.perfetto.trace.perfetto_trace_pb2")


@pytest.fixture(scope="module")
def packets(mm, tmp_path_factory):
    path = tmp_path_factory.mktemp("pf") / "mm.pftrace"
    write_trace(mm[1], path)
    trace = pb.Trace()
    trace.ParseFromString(path.read_bytes())
    return list(trace.packet)


def test_tracks(mm, packets):
    result, _ = mm
    desc = [p.track_descriptor for p in packets if p.HasField("track_descriptor")]
    procs = [d for d in desc if d.HasField("process")]
    threads = {d.uuid: d.thread.thread_name for d in desc if d.HasField("thread")}
    counters = {d.name for d in desc if d.HasField("counter")}
    assert [p.process.process_name for p in procs] == ["cluster0"]
    assert sorted(threads.values()) == [f"core{c}" for c in range(result.ncores)]
    assert {f"ipc[core{c}]" for c in range(result.ncores)} <= counters
    assert "dma.bytes_inflight" in counters
    assert all(p.trusted_packet_sequence_id for p in packets)
    first: dict[int, int] = {}
    for p in packets:
        first.setdefault(p.trusted_packet_sequence_id, p.sequence_flags)
    cleared = pb.TracePacket.SEQ_INCREMENTAL_STATE_CLEARED
    assert len(first) == result.ncores + 3 and set(first.values()) == {cleared}


def test_slices_nest_and_totals_equal_the_counters(mm, packets):
    result, _ = mm
    names = {p.track_descriptor.uuid: p.track_descriptor.thread.thread_name for p in packets
             if p.HasField("track_descriptor") and p.track_descriptor.HasField("thread")}
    T = pb.TrackEvent
    stack = defaultdict(list)
    stall = defaultdict(Counter)
    covered = Counter()
    last = {}
    for p in packets:
        ev = p.track_event
        if not p.HasField("track_event") or ev.type not in (T.TYPE_SLICE_BEGIN,
                                                            T.TYPE_SLICE_END):
            continue
        seq = p.trusted_packet_sequence_id
        assert p.timestamp >= last.get(seq, 0), "a sequence goes back in time"
        last[seq] = p.timestamp
        core = names[ev.track_uuid]
        if ev.type == T.TYPE_SLICE_BEGIN:
            stack[core].append((p.timestamp, ev.name, list(ev.categories)))
            continue
        t0, name, cats = stack[core].pop()
        if cats == ["stall"]:
            # idle after the core's exit belongs to no function (covered excludes it below)
            assert stack[core] or name == "idle", "stall outside a function"
            stall[core][name] += p.timestamp - t0
        else:
            assert cats == ["function"]
            covered[core] += p.timestamp - t0
    assert not any(stack.values())
    for c in range(result.ncores):
        for k, name in enumerate(L.CATEGORIES):
            if name not in ("instr", "idle"):
                assert stall[f"core{c}"][name] == result.categories[c, k], (c, name)
        assert covered[f"core{c}"] == result.cycles[c] - result.categories[c, L.C_IDLE]


def test_flows_and_counters(mm, packets):
    result, _ = mm
    events = [p.track_event for p in packets if p.HasField("track_event")]
    out = {i for e in events for i in e.flow_ids}
    done = {i for e in events for i in e.terminating_flow_ids}
    assert out and out == done
    dma = next(p.track_descriptor.uuid for p in packets if p.HasField("track_descriptor")
               and p.track_descriptor.name == "dma.bytes_inflight")
    values = [e.double_counter_value for e in events
              if e.type == pb.TrackEvent.TYPE_COUNTER and e.track_uuid == dma]
    assert max(values) == 64 and values[-1] == 0     # one row of 16 floats at a time
    ipc0 = next(p.track_descriptor.uuid for p in packets if p.HasField("track_descriptor")
                and p.track_descriptor.name == "ipc[core0]")
    stamps = [p.timestamp for p in packets if p.HasField("track_event")
              and p.track_event.track_uuid == ipc0]
    values = [e.double_counter_value for e in events if e.track_uuid == ipc0]
    instr = sum(v * (t2 - t1) for v, t1, t2 in zip(values, stamps, stamps[1:], strict=False))
    assert instr == pytest.approx(result.instret[0], rel=1e-3)
