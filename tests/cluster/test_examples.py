"""The cluster examples run, are right, and print what the simulator measured."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from isasim import layout as L
from isasim.machine import Machine

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "cluster"


def run_example(name: str, trace: bool = False, **overrides):
    machine = Machine("pulp-open", **overrides).load(EXAMPLES / name)
    chunks: list[np.ndarray] = []
    if trace:
        machine.enable_trace(chunks.append)
    result = machine.run(1_000_000)
    result.check_invariant()
    events = np.concatenate(chunks) if chunks else np.zeros((0, L.TRW), dtype=np.int64)
    return result, machine, events


@pytest.mark.parametrize("bandwidth", [8, 1])
def test_double_buffering_sums_right_and_overlaps_dma_with_compute(bandwidth):
    """Right at any DMA speed (the waits, not the timing, make it correct).  Overlap: the DMA
    of tile k + 1 starts before the barrier that ends the computation of tile k (core 1's
    barrier releases: 0 after the first tile arrived, k + 1 after tile k was summed)."""
    r, _, ev = run_example("dma_double_buffer.s", trace=True, dma_bandwidth=bandwidth)
    assert r.status == "exited" and r.exit_code == 0
    assert r.stdout == "double buffering: sum of 256 words = 32640, ok\n"
    starts = ev[ev[:, 0] == L.TR_DMA_START][:, 2]
    ends = ev[ev[:, 0] == L.TR_DMA_END][:, 2]
    release = ev[(ev[:, 0] == L.TR_BAR_RELEASE) & (ev[:, 1] == 1)][:, 2]
    assert len(starts) == len(ends) == 4 and len(release) == 6
    for k in range(3):
        assert release[k] < starts[k + 1] < release[k + 1]
        assert ends[k + 1] < release[k + 2]           # and it landed before tile k + 1 is used


def test_perf_stats_prints_the_stats_h_lines_with_the_measured_numbers():
    """The printout is stats.h's, line for line; each number is the counter the guest read
    (kept in s2..s8), and those agree with the simulator's per-instruction profile of the
    measured range [perf_start, perf_stop) on core 0."""
    r, m, _ = run_example("perf_stats.s")
    assert r.status == "exited" and r.exit_code == 0
    lines = r.stdout.split("\n")
    names = ["cycles", "instr", "active cycles", "ext load", "TCDM cont", "ld stall", "imiss"]
    assert lines[0] == "" and lines[-1] == "" and len(lines) == 2 + len(names)
    printed = {}
    for name, line in zip(names, lines[1:-1], strict=True):
        prefix = f"[0] {name} = "
        assert line.startswith(prefix) and line[len(prefix):].isdigit(), line
        printed[name] = int(line[len(prefix):])
    assert list(printed.values()) == r.x[0, 18:25].tolist()          # s2..s8

    window = (r.profile_pc >= r.symbols["perf_start"]) & (r.profile_pc < r.symbols["perf_stop"])
    stall = r.profile_stall[0][window]
    assert printed["instr"] == r.profile_count[0][window].sum()
    assert printed["TCDM cont"] == stall[:, L.C_TCDM].sum() > 0
    assert printed["ld stall"] == stall[:, L.C_LOAD_USE].sum() == 64   # one per fmadd on core 0
    assert printed["ext load"] == 2                                    # core 0's two biases
    # a fetch waits before its instruction issues: IMISS counts the waits of the instructions
    # after perf_start (which enables the counters) up to perf_stop (which stops them)
    fetched = (r.profile_pc > r.symbols["perf_start"]) & (r.profile_pc <= r.symbols["perf_stop"])
    assert printed["imiss"] == r.profile_stall[0][fetched][:, L.C_IMISS].sum() > 0
    assert printed["cycles"] == r.x[0, 27] - r.x[0, 26]                # mcycle: s11 - s10
    assert printed["instr"] < printed["active cycles"] <= printed["cycles"]

    w = np.arange(32)[None, :] - np.arange(16)[:, None]
    x = np.arange(32) % 5
    out = m.read("out", 16, np.float32)
    assert out.tolist() == (np.arange(16) + w @ x).astype(np.float32).tolist()
