"""A step spec plus a tile choice as a driver program: buffers, calls, DMA, barriers.

Two shapes of program:

* resident (``memory="tcdm"``): every tensor of the step is in TCDM; the prologue runs, then
  one tile covering the whole split dimension.  No DMA.
* streamed (``memory="l2"``): tensors live in L2.  Tensors that every tile needs are copied to
  TCDM once; split tensors get one TCDM buffer per tile (two when double-buffered) and move
  tile by tile.  Tensors named in ``resident`` live in TCDM even so (a whole-step plan homes
  them there, ``trainlib.memplan``): the calls use them in place, a tile as the run of the
  tensor it covers, and nothing moves; a split tensor whose tile is not one contiguous run
  (a column split over several tiles) cannot be used in place (``in_place``).  With double
  buffering, at the end of tile i core 0 waits for the batch issued at the end of tile i-1
  (tile i+1's inputs and tile i-1's outputs), then issues tile i's outputs and tile i+2's
  inputs, so transfers overlap the next tile's compute.  Only one batch is ever
  outstanding: the event unit has one DMA event bit, so one ``Wait`` per batch stays exact.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from trainlib.driver import Barrier, Buffer, DriverProgram, Issue, Item, Ref, Transfer, Wait
from trainlib.lowering import StepSpec, TensorUse, renamed


@dataclass(frozen=True)
class Tiling:
    """How a step runs: where its tensors live, the tile size, and double buffering."""

    memory: str                 # "tcdm" | "l2"
    tile: int                   # indices of the split dimension per tile
    double_buffer: bool = False

    def tiles(self, extent: int) -> list[tuple[int, int]]:
        return [(lo, min(lo + self.tile, extent)) for lo in range(0, extent, self.tile)]


def _transfer(t: TensorUse, inst: str, lo: int, hi: int, to_tcdm: bool) -> Transfer:
    sp = t.split
    assert sp is not None
    e = t.element_bytes
    line = e * (hi - lo) * sp.unit
    if sp.lines == 1 or sp.pitch == (hi - lo) * sp.unit:
        return Transfer(Ref(inst), Ref(t.name, lo * sp.unit), _words(line * sp.lines),
                        to_tcdm=to_tcdm)
    return Transfer(Ref(inst), Ref(t.name, lo * sp.unit), line, sp.lines, e * sp.pitch,
                    to_tcdm=to_tcdm)


def _whole(t: TensorUse, to_tcdm: bool) -> Transfer:
    return Transfer(Ref(f"{t.name}@"), Ref(t.name), _words(t.nbytes), to_tcdm=to_tcdm)


def _words(nbytes: int) -> int:
    """A contiguous transfer's length in whole words (the DMA moves words): an odd number of
    half-words ends a tensor, and its last word's other half is the buffer's alignment
    padding on both sides (``trainlib.driver.place`` aligns every buffer to 16 bytes)."""
    return (nbytes + 3) // 4 * 4


def dma_tile_ok(spec: StepSpec, n: int) -> bool:
    """Whether tiles of ``n`` keep every transfer of the step word-aligned: a 16-bit tensor
    split in tiles must start each tile on a word (an even number of half-words per tile), and
    a 2-D transfer (several lines) must move whole words per line, the last tile included."""
    last = spec.extent - (math.ceil(spec.extent / n) - 1) * n
    for t in spec.tensors:
        if t.split is None or t.element_bytes == 4 or n >= spec.extent:
            continue
        if (n * t.split.unit) % 2 or (t.split.lines > 1 and (last * t.split.unit) % 2):
            return False
    return True


def _reads(t: TensorUse) -> bool:
    return t.role in ("in", "inout")


def _writes(t: TensorUse) -> bool:
    return t.role in ("out", "inout")


def in_place(t: TensorUse, tile: int, extent: int) -> bool:
    """Whether every tile of ``t`` is one contiguous run of the tensor (usable in place)."""
    return t.split is None or t.split.lines == 1 or tile >= extent


def items_and_buffers(spec: StepSpec, tiling: Tiling,
                      data: Mapping[str, np.ndarray] | None = None,
                      resident: frozenset[str] = frozenset()
                      ) -> tuple[list[Item], list[Buffer]]:
    """The program of ``spec`` under ``tiling``; ``data`` fills the input tensors; the tensors
    named in ``resident`` are in TCDM and used in place by a streamed step."""
    data = data or {}

    def init(t: TensorUse) -> np.ndarray | None:
        if not _reads(t):
            return None
        return np.asarray(data[t.name]).reshape(-1) if t.name in data else None

    consts = [Buffer(k, v.size, "tcdm", v) for k, v in spec.consts.items()]
    if tiling.memory == "tcdm":
        bufs = [Buffer(t.name, t.size, "tcdm", init(t), _writes(t), t.fmt) for t in spec.tensors]
        bufs += [Buffer(s.name, s.size(spec.extent), fmt=s.fmt) for s in spec.scratch] + consts
        return spec.prologue() + spec.tile(spec.extent), bufs

    n = tiling.tile
    tiles = tiling.tiles(spec.extent)
    db = tiling.double_buffer and len(tiles) > 1
    nbuf = 2 if db else 1
    here = {t.name for t in spec.tensors if t.name in resident}
    for t in spec.tensors:
        if t.name in here and not in_place(t, n, spec.extent):
            raise ValueError(f"layer {spec.layer} {spec.step}: {t.name} cannot be used in "
                             f"place with tiles of {n}")
    whole = [t for t in spec.tensors if t.split is None and t.name not in here]
    split = [t for t in spec.tensors if t.split is not None and t.name not in here]
    bufs = [Buffer(t.name, t.size, "tcdm" if t.name in here else "l2", init(t), _writes(t),
                   t.fmt) for t in spec.tensors]
    bufs += [Buffer(f"{t.name}@", t.size, fmt=t.fmt) for t in whole]
    bufs += [Buffer(f"{t.name}@{j}", t.split.tile_size(n), fmt=t.fmt) for t in split
             for j in range(nbuf)]
    bufs += [Buffer(s.name, s.size(spec.extent if s.prologue else n), fmt=s.fmt)
             for s in spec.scratch]
    bufs += consts

    def ins(i: int) -> list[Transfer]:
        if i >= len(tiles):
            return []
        lo, hi = tiles[i]
        return [_transfer(t, f"{t.name}@{i % nbuf}", lo, hi, True) for t in split if _reads(t)]

    def outs(i: int) -> list[Transfer]:
        lo, hi = tiles[i]
        return [_transfer(t, f"{t.name}@{i % nbuf}", lo, hi, False) for t in split
                if _writes(t)]

    items: list[Item] = []
    first = [_whole(t, True) for t in whole if _reads(t)] + ins(0)
    if first:
        items += [Issue(first), Wait(), Barrier("dma")]
    pending = False
    if db and ins(1):
        items.append(Issue(ins(1)))
        pending = True
    whole_names = {t.name: f"{t.name}@" for t in whole}
    items += renamed(spec.prologue(), whole_names)
    for i, (lo, hi) in enumerate(tiles):
        names = dict(whole_names, **{t.name: f"{t.name}@{i % nbuf}" for t in split})
        shifts = {t.name: lo * t.split.unit for t in spec.tensors
                  if t.name in here and t.split is not None}
        items += renamed(spec.tile(hi - lo), names, shifts)
        if db:
            if pending:
                items.append(Wait())
            batch = outs(i) + ins(i + 2)
            pending = bool(batch)
            if batch:
                items.append(Issue(batch))
            items.append(Barrier("dma"))
        else:
            batch = outs(i) + ins(i + 1)
            if batch:
                items += [Issue(batch), Wait(), Barrier("dma")]
    if pending:
        items.append(Wait())
    last = [_whole(t, False) for t in whole if _writes(t)]
    if last:
        items += [Issue(last), Wait()]
    if pending or last:
        items.append(Barrier("dma"))
    return items, bufs


def driver_program(spec: StepSpec, tiling: Tiling,
                   data: Mapping[str, np.ndarray] | None = None) -> DriverProgram:
    items, bufs = items_and_buffers(spec, tiling, data)
    return DriverProgram(bufs, items, f"layer {spec.layer} {spec.step}")
