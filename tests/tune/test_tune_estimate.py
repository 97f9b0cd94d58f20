"""The bounds the search prunes with: never above what a kernel really takes.

A bound above the real cycles would prune a candidate that might have won, so every kernel of
the catalogue runs here on shapes with leftovers (not multiples of the cores, of the block, of
the unroll; a border tile) and its measured main-call cycles must be at least the bound.
"""

from __future__ import annotations

import math

import pytest

from asm_kernels.catalogue import catalogue
from trainlib.driver import run_config
from trainlib.lowering import kernel_candidates, layer_step
from trainlib.step import run_layer_step
from trainlib.tune.estimate import (
    Calibration,
    _cover,
    _shares,
    dma_bound,
    main_bound,
)
from trainlib.tune.layerspec import parse_layer
from trainlib.tune.measure import Job, Measurement, run_candidate
from trainlib.tune.tiler import tilings

CFG = run_config("pulp-open", 8)


@pytest.mark.parametrize("u, v", [(1, 1), (1, 8), (4, 6), (6, 4), (8, 1), (2, 4)])
def test_cover_tiles_every_share_exactly(u, v):
    for rows in range(0, 20):
        for cols in range(0, 20):
            blocks = _cover(rows, cols, u, v)
            assert sum(r * c * n for r, c, n in blocks) == rows * cols
            assert all(r <= u and c <= v for r, c, _ in blocks)


def test_shares_are_whole_groups_covering_the_extent():
    for extent in range(1, 70):
        for g in (1, 2, 4, 6, 8):
            s = _shares(extent, g, 8)
            groups = [math.ceil(x / g) for x in s]
            assert sum(s) == extent and max(groups) - min(groups) <= 1
            assert sum(x % g != 0 for x in s) <= 1         # only the last group is partial


CASES = [("linear:ci=37,co=11", "ig", None), ("pw:ci=5,co=13,h=3,w=7", "wg", 6),
         ("dw:c=11,h=7,w=6,k=3,p=1", "fw", 4), ("dw:c=5,h=9,w=7,k=3,p=1", "ig", 2)]


def test_bound_never_exceeds_the_measured_kernel(pool):
    """Every matmul and depthwise kernel, measured in the pool, against its bound."""
    jobs = []
    for text, step, tile in CASES:
        layer, shape = parse_layer(text)
        for k in kernel_candidates(layer, step):
            spec = layer_step(layer, shape, step, k)
            n = tile or spec.extent
            spans = [(lo, min(lo + n, spec.extent)) for lo in range(0, spec.extent, n)]
            job = Job.make(layer, shape, step, k, "l2", tile, CFG)
            jobs.append((k, main_bound(spec, spans, 8), pool.submit(run_candidate, job)))
    assert {k for k, _, _ in jobs} == {k for k, v in catalogue().items()
                                      if v.family in ("matmul", "depthwise") and v.regfile == "f"}
    for k, bound, fut in jobs:
        m = Measurement.from_dict(fut.result().value)
        assert m.ok, m.message
        assert 0 < bound <= m.main_cycles, f"{k}: bound {bound} > measured {m.main_cycles}"


def test_dma_bound_is_below_the_streamed_step():
    layer, shape = parse_layer("linear:ci=300,co=40")
    spec = layer_step(layer, shape, "fw", "mm_4x4_m")
    for opt in tilings(spec, CFG, "l2")[:4]:
        run = run_layer_step(layer, shape, "fw", kernel="mm_4x4_m", memory="l2",
                             tile=opt.tile)
        assert dma_bound(spec, opt, CFG) <= run.phases.get("dma", 0)


def test_calibration_learns_per_kernel():
    cal = Calibration()
    prior = cal.ratio("mm_4x4_m")
    cal.learn("mm_4x4_m", 300, 100)
    cal.learn("mm_4x4_m", 100, 100)
    assert cal.ratio("mm_4x4_m") == 2.0 and prior != 2.0
    local = Calibration()
    local.learn("mm_2x2_n", 150, 100)
    assert local.ratio("mm_2x2_n", cal) == 1.5 and local.ratio("mm_4x4_m", cal) == 2.0
    assert cal.ratio("mm_naive_n") > cal.ratio("mm_dw_1x4")
    assert all(math.isfinite(cal.ratio(k)) for k in catalogue()
               if catalogue()[k].family in ("matmul", "depthwise"))
