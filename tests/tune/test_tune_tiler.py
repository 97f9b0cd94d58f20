"""The tiler: every tile size that fits (border tiles included), footprint as the planner
counts it, nothing over the budget."""

from __future__ import annotations

import math

from trainlib.driver import run_config
from trainlib.lowering import layer_step
from trainlib.planner import measure, plan_step, tcdm_budget
from trainlib.tune.layerspec import parse_layer
from trainlib.tune.tiler import tile_sizes, tilings

CFG = run_config("pulp-open", 8)


def _spec(text: str, step: str):
    layer, shape = parse_layer(text)
    return layer_step(layer, shape, step)


def test_tile_sizes_are_balanced_sizes_and_core_multiples():
    sizes = tile_sizes(64, 8, 64)
    assert {64, 32, 22, 16, 13, 11, 8, 1} <= set(sizes)       # 22, 13, 11: border tiles
    assert {24, 40, 48, 56} <= set(sizes)                      # multiples of the cores
    assert 63 not in sizes                                     # same count as 64, unbalanced
    assert min(tile_sizes(1600, 8, 64)) == 25                  # at most 64 tiles


def test_streamed_tilings_fit_and_count_what_the_planner_counts():
    spec = _spec("conv2d:ci=1,co=64,h=8,w=34,k=4x10,p=1", "fw")
    opts = tilings(spec, CFG, "l2")
    assert opts and all(o.tcdm_bytes <= tcdm_budget(CFG) for o in opts)
    for o in opts:
        assert o.tcdm_bytes == measure(spec, o.tiling)[0] == sum(b for _, b in o.footprint)
        kinds = dict(o.footprint)
        assert {"inputs", "weights", "bias", "outputs", "im2col", "arguments"} <= set(kinds)
        assert o.double_buffer == (o.tiles > 1)
    assert any(o.border for o in opts), "border tiles are allowed"
    # what the planner would pick by itself is among them
    assert plan_step(spec, "l2", CFG).tiling.tile in {o.tile for o in opts}
    # the whole step (one 64-channel tile) does not fit 64 KiB: the largest kept is smaller
    assert max(o.tile for o in opts) < 64


def test_double_buffering_doubles_the_split_tensors():
    spec = _spec("pw:ci=8,co=16,h=8,w=8", "fw")
    by_tile = {o.tile: dict(o.footprint) for o in tilings(spec, CFG, "l2")}
    whole, half = by_tile[16], by_tile[8]
    assert half["outputs"] == whole["outputs"]            # 2 buffers of 8 rows == 16 rows
    assert half["weights"] == whole["weights"]
    assert half["inputs"] == whole["inputs"]               # x is needed whole by every tile


def test_reserve_and_resident_memory():
    spec = _spec("linear:ci=1600,co=12", "fw")
    free = tilings(spec, CFG, "l2")
    tight = tilings(spec, CFG, "l2", reserve=30_000)
    assert len(tight) < len(free)
    assert all(o.tcdm_bytes <= tcdm_budget(CFG) - 30_000 for o in tight)
    assert max(o.tile for o in tight) < max(o.tile for o in free)
    small = _spec("linear:ci=64,co=12", "fw")
    (res,) = tilings(small, CFG, "tcdm")
    assert res.memory == "tcdm" and res.tile == 12 and res.run_tile is None
    assert res.describe() == "resident"


def test_tile_count_cap():
    spec = _spec("linear:ci=1600,co=12", "ig")
    opts = tilings(spec, CFG, "l2", max_tiles=8)
    assert all(math.ceil(1600 / o.tile) <= 8 for o in opts)
