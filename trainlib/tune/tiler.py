"""Tilings of a layer step that fit the L1 budget, with their memory footprint.

A step streamed from L2 is split along one dimension whose tiles are independent
(``StepSpec.dim``: output channels, input channels, channels).  A tiling is the number of
indices per tile; the last tile may be smaller (a border tile), so every size counts, not only
the exact divisors PULP-TrainLib's naive tiler takes.  Sizes tried: the balanced ones (for each
tile count, the smallest size giving it) and the multiples of the core count (whole rows per
core, at the price of a border tile); at most ``max_tiles`` tiles, since every tile costs a
barrier and a DMA round and tiny tiles starve the cores.

The footprint counts what the planner counts, by kind: inputs, weights, bias, outputs (twice
when double-buffered), the im2col buffer and other scratch, constants, and the argument area
(call structures, DMA descriptors, time stamps); ``tcdm_bytes`` is the planner's own figure
(``trainlib.planner.measure``), so a kept tiling is one the planner accepts.  A step resident
in TCDM has one tiling: the whole step.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from isasim.config import ClusterConfig
from trainlib.lowering import StepSpec, TensorUse
from trainlib.planner import aligned, measure, tcdm_budget
from trainlib.schedule import Tiling, dma_tile_ok


@dataclass(frozen=True)
class TileOption:
    memory: str                      # "tcdm" | "l2"
    extent: int                      # size of the split dimension
    tile: int                        # indices per tile
    double_buffer: bool
    footprint: tuple[tuple[str, int], ...]   # (kind, bytes) in TCDM, copies included
    tcdm_bytes: int                  # the planner's figure: footprint + argument area

    @property
    def tiling(self) -> Tiling:
        return Tiling(self.memory, self.tile, self.double_buffer)

    @property
    def spans(self) -> list[tuple[int, int]]:
        return self.tiling.tiles(self.extent)

    @property
    def tiles(self) -> int:
        return math.ceil(self.extent / self.tile)

    @property
    def border(self) -> int:
        """Size of the smaller last tile, 0 when the tile size divides the extent."""
        return self.extent % self.tile

    @property
    def run_tile(self) -> int | None:
        """What ``run_layer_step(tile=...)`` and a choice table take (None: resident)."""
        return self.tile if self.memory == "l2" else None

    def describe(self) -> str:
        if self.memory == "tcdm":
            return "resident"
        d = f"{self.tiles}x{self.tile}"
        if self.border:
            d += f" (last {self.border})"
        return d + (" db" if self.double_buffer and self.tiles > 1 else "")


def _kind(t: TensorUse) -> str:
    if t.role != "in":
        return "outputs"
    return {"weight": "weights", "bias": "bias"}.get(t.name, "inputs")


def footprint(spec: StepSpec, memory: str, n: int, double_buffer: bool
              ) -> dict[str, int]:
    """TCDM bytes by kind of the buffers of a tile of n (without the argument area)."""
    out: dict[str, int] = {}

    def add(kind: str, nbytes: int) -> None:
        out[kind] = out.get(kind, 0) + nbytes
    whole = memory == "tcdm"
    for t in spec.tensors:
        if whole or t.split is None:
            add(_kind(t), aligned(t.nbytes))
        else:
            tile = aligned(t.element_bytes * t.split.tile_size(n))
            add(_kind(t), (2 if double_buffer else 1) * tile)
    for s in spec.scratch:
        size = s.size(spec.extent if whole or s.prologue else n)
        add("im2col" if s.name == "i2r" else "scratch", aligned(s.element_bytes * size))
    for v in spec.consts.values():
        add("constants", aligned(4 * v.size))
    return out


def tile_sizes(extent: int, cores: int, max_tiles: int) -> list[int]:
    """Balanced sizes and multiples of the core count, largest first, at most max_tiles tiles."""
    sizes = {math.ceil(extent / t) for t in range(1, extent + 1)}
    sizes |= set(range(cores, extent + 1, cores))
    return sorted((s for s in sizes if math.ceil(extent / s) <= max_tiles), reverse=True)


def tilings(spec: StepSpec, cfg: ClusterConfig, memory: str, reserve: int = 0,
            max_tiles: int = 64, single_buffered: bool = False) -> list[TileOption]:
    """Every tiling of the step that fits the TCDM budget less ``reserve`` bytes; several
    tiles are double-buffered, or with ``single_buffered`` single-buffered where double
    buffers do not fit (``planner.plan_tile``: a fused weight-gradient/update phase)."""
    budget = tcdm_budget(cfg) - reserve
    if memory == "tcdm":
        cands = [(spec.extent, False)]
    else:
        cands = [(n, math.ceil(spec.extent / n) > 1)
                 for n in tile_sizes(spec.extent, cfg.cores, max_tiles)]
    out = []
    for n, db in cands:
        if memory == "l2" and not dma_tile_ok(spec, n):
            continue
        opt = _option(spec, memory, n, db, budget)
        if opt is None and db and single_buffered:
            opt = _option(spec, memory, n, False, budget)
        if opt is not None:
            out.append(opt)
    return out


def _option(spec: StepSpec, memory: str, n: int, db: bool, budget: int) -> TileOption | None:
    """Tiles of n, double-buffered or not, with their footprint, if they fit ``budget``."""
    fp = footprint(spec, memory, n, db)
    if sum(fp.values()) > budget:
        return None
    total, _ = measure(spec, Tiling(memory, n, db))
    if total > budget:
        return None
    fp["arguments"] = total - sum(fp.values())
    return TileOption(memory, spec.extent, n, db, tuple(fp.items()), total)


def transfer_bytes(spec: StepSpec, n: int) -> tuple[int, int]:
    """(bytes in, bytes out) a tile of n moves between L2 and TCDM (split tensors only)."""
    ins = sum(t.element_bytes * t.split.tile_size(n) for t in spec.tensors
              if t.split is not None and t.role in ("in", "inout"))
    outs = sum(t.element_bytes * t.split.tile_size(n) for t in spec.tensors
               if t.split is not None and t.role in ("out", "inout"))
    return ins, outs


def whole_bytes(spec: StepSpec) -> tuple[int, int]:
    """(bytes in, bytes out) of the tensors every tile needs whole (moved once)."""
    ins = sum(t.nbytes for t in spec.tensors
              if t.split is None and t.role in ("in", "inout"))
    outs = sum(t.nbytes for t in spec.tensors
               if t.split is None and t.role in ("out", "inout"))
    return ins, outs
