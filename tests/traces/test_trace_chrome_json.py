"""Chrome trace JSON: schema-valid, well nested, and its totals are the run's counters."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np
import pytest

from isasim import layout as L
from traces.chrome_json import ts
from traces.perfetto import TraceTooLarge, write_trace

jsonschema = pytest.importorskip("jsonschema")
SCHEMA = json.loads((Path(__file__).parent / "chrome_trace.schema.json").read_text())


@pytest.fixture(scope="module")
def trace(mm, tmp_path_factory):
    path = tmp_path_factory.mktemp("json") / "mm.json"
    write_trace(mm[1], path)
    return json.loads(path.read_text())


def ns(value: float) -> int:
    """Trace microseconds back to cycles (1 cycle = 1 ns)."""
    return round(value * 1000)


def test_matches_the_trace_event_schema(trace):
    jsonschema.validate(trace, SCHEMA)
    assert trace["displayTimeUnit"] == "ns"


def test_schema_rejects_a_broken_event(trace):
    """The schema check can fail: an X event without a duration is caught."""
    broken = {"traceEvents": [{"ph": "X", "pid": 1, "tid": 1, "ts": 0, "name": "x"}]}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, SCHEMA)


def test_timestamps_are_exact_microseconds():
    assert ts(0) == "0.000" and ts(1) == "0.001" and ts(123_456_789) == "123456.789"


def test_one_track_per_core(mm, trace):
    result, _ = mm
    names = {e["tid"]: e["args"]["name"] for e in trace["traceEvents"]
             if e["ph"] == "M" and e["name"] == "thread_name"}
    assert sorted(names.values()) == [f"core{c}" for c in range(result.ncores)]
    procs = [e for e in trace["traceEvents"] if e["ph"] == "M" and e["name"] == "process_name"]
    assert [p["args"]["name"] for p in procs] == ["cluster0"]


def test_slices_nest_and_stall_totals_equal_the_counters(mm, trace):
    """Per track, replaying B/E and X in file order gives proper nesting; X durations per
    category are the run's stall cycles and function slices cover every attributed cycle."""
    result, _ = mm
    stall = defaultdict(Counter)
    covered = Counter()
    stack: dict[int, list] = defaultdict(list)
    for e in trace["traceEvents"]:
        if e["ph"] not in "BEX":
            continue
        tid, t = e["tid"], ns(e["ts"])
        if e["ph"] == "B":
            stack[tid].append(t)
        elif e["ph"] == "E":
            covered[tid] += t - stack[tid].pop()
        else:
            # idle after the core's exit belongs to no function (covered excludes it below)
            assert stack[tid] or e["name"] == "idle", "stall slice outside a function slice"
            end = t + ns(e["dur"])
            assert not stack[tid] or stack[tid][-1] <= t
            stall[tid][e["name"]] += end - t
    assert not any(stack.values()), "unbalanced B/E"
    for c in range(result.ncores):
        tid = c + 1
        for k, name in enumerate(L.CATEGORIES):
            if name in ("instr", "idle"):
                continue
            assert stall[tid][name] == result.categories[c, k], (c, name)
        assert covered[tid] == result.cycles[c] - result.categories[c, L.C_IDLE]


def test_counters(mm, trace):
    result, log = mm
    series = defaultdict(list)
    for e in trace["traceEvents"]:
        if e["ph"] == "C":
            series[e["name"]].append((ns(e["ts"]), e["args"]["value"]))
    # IPC steps integrate back to the instructions of each core
    for c in range(result.ncores):
        points = series[f"ipc[core{c}]"]
        instr = sum(v * (t2 - t1) for (t1, v), (t2, _) in zip(points, points[1:], strict=False))
        assert instr == pytest.approx(result.instret[c], rel=1e-3)
    banks = {int(n[5:n.index("]")]): pts for n, pts in series.items() if n.startswith("bank[")}
    per_bank = result.conflicts.sum(axis=0)
    assert set(banks) == set(np.nonzero(per_bank)[0].tolist())
    dma = series["dma.bytes_inflight"]
    assert dma[-1][1] == 0 and max(v for _, v in dma) == 64


def test_flows_pair_up(mm, trace):
    starts = {e["id"]: e for e in trace["traceEvents"] if e["ph"] == "s"}
    ends = {e["id"]: e for e in trace["traceEvents"] if e["ph"] == "f"}
    assert starts and starts.keys() == ends.keys()
    for k, s in starts.items():
        assert ends[k]["bp"] == "e" and ends[k]["tid"] != s["tid"]
        assert ns(ends[k]["ts"]) >= ns(s["ts"])


def test_too_large_for_json_points_to_protobuf(mm, tmp_path):
    with pytest.raises(TraceTooLarge, match=r"\.pftrace"):
        write_trace(mm[1], tmp_path / "big.json", max_json_events=10)
    assert not (tmp_path / "big.json").exists()


def test_unknown_suffix_is_refused(mm, tmp_path):
    with pytest.raises(ValueError, match="unknown trace form"):
        write_trace(mm[1], tmp_path / "t.txt")
