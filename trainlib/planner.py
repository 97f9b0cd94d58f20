"""Memory plans: does a step fit in TCDM whole, and if not, which tile does.

The TCDM budget of a run is the TCDM minus the per-core stacks; the driver's argument area (call
structures, DMA descriptors, time stamps) and every buffer come out of it, each rounded to 16
bytes as the driver places them.  Plans count exactly that, so a plan that fits runs and a plan
that does not is refused with the number of bytes missing.

For a step streamed from L2 the planner takes the fewest tiles that fit: one tile (load all,
compute, store all) when the whole step fits; otherwise the fewest balanced tiles that fit
double-buffered; otherwise the fewest that fit single-buffered.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from isasim.config import ClusterConfig
from trainlib.driver import ALIGN, STACK_BYTES, args_layout
from trainlib.errors import PlanError
from trainlib.lowering import StepSpec
from trainlib.schedule import Tiling, dma_tile_ok, in_place, items_and_buffers


def aligned(x: int) -> int:
    """Bytes a buffer of x bytes takes once the driver aligns it (16 B, at least one word)."""
    return (max(x, 4) + ALIGN - 1) // ALIGN * ALIGN


def tcdm_budget(cfg: ClusterConfig) -> int:
    """Bytes of TCDM for the argument area and the buffers (the rest holds the stacks)."""
    return cfg.tcdm_size - cfg.cores * STACK_BYTES


@dataclass(frozen=True)
class StepPlan:
    tiling: Tiling
    tiles: int
    tcdm_bytes: int         # argument area + every TCDM buffer
    l2_bytes: int           # tensors whose home is L2
    budget: int

    def describe(self) -> str:
        t = self.tiling
        how = ("resident in TCDM" if t.memory == "tcdm" else
               f"from L2, {self.tiles} tile(s) of {t.tile}"
               + (", double-buffered" if t.double_buffer and self.tiles > 1 else ""))
        return f"{how}; TCDM {self.tcdm_bytes} of {self.budget} B, L2 {self.l2_bytes} B"


def measure(spec: StepSpec, tiling: Tiling, resident: frozenset[str] = frozenset()
            ) -> tuple[int, int]:
    """(TCDM bytes, L2 bytes) of the step's program under ``tiling``; tensors in ``resident``
    (homed in TCDM by a whole-step plan, used in place) are counted in neither."""
    items, bufs = items_and_buffers(spec, tiling, resident=resident)
    tcdm = aligned(args_layout(items).size)
    tcdm += sum(aligned(b.nbytes) for b in bufs if b.place == "tcdm" and b.name not in resident)
    return tcdm, sum(aligned(b.nbytes) for b in bufs if b.place == "l2")


def _data_bytes(spec: StepSpec, n: int, nbuf: int, resident: frozenset[str]) -> int:
    """TCDM bytes of the buffers alone for tile n (a fast lower bound of ``measure``)."""
    moved = [t for t in spec.tensors if t.name not in resident]
    total = sum(aligned(t.nbytes) for t in moved if t.split is None)
    total += sum(nbuf * aligned(t.element_bytes * t.split.tile_size(n)) for t in moved
                 if t.split)
    total += sum(aligned(s.element_bytes * s.size(spec.extent if s.prologue else n))
                 for s in spec.scratch)
    return total + sum(aligned(4 * v.size) for v in spec.consts.values())


def _plan(spec: StepSpec, tiling: Tiling, budget: int,
          resident: frozenset[str] = frozenset()) -> StepPlan:
    tcdm, l2 = measure(spec, tiling, resident)
    return StepPlan(tiling, len(tiling.tiles(spec.extent)), tcdm, l2, budget)


def _fewest_tiles(spec: StepSpec, db: bool, budget: int,
                  resident: frozenset[str] = frozenset()) -> StepPlan | None:
    """The plan with the fewest balanced tiles that fits, or None."""
    for n_tiles in range(2 if db else 1, spec.extent + 1):
        n = math.ceil(spec.extent / n_tiles)
        if math.ceil(spec.extent / n) != n_tiles:
            continue                     # same tile size as a smaller count
        if not all(in_place(t, n, spec.extent) for t in spec.tensors if t.name in resident):
            break                        # a resident column-split tensor needs one tile
        if not dma_tile_ok(spec, n):
            continue
        if _data_bytes(spec, n, 2 if db else 1, resident) > budget:
            continue
        p = _plan(spec, Tiling("l2", n, db), budget, resident)
        if p.tcdm_bytes <= budget:
            return p
    return None


def plan_step(spec: StepSpec, memory: str, cfg: ClusterConfig, tile: int | None = None,
              double_buffer: bool | None = None, resident: frozenset[str] = frozenset(),
              reserve: int = 0) -> StepPlan:
    """The plan of one step in ``memory`` ("tcdm" resident or "l2" streamed).

    ``tile`` forces the tile size (streamed only); ``double_buffer`` forces buffering (default:
    double when there are several tiles and it fits).  A streamed step may have some tensors
    ``resident`` in TCDM (used in place); ``reserve`` bytes of the TCDM are not the step's
    (what a whole-step plan keeps there meanwhile).  Raises PlanError naming the step and the
    bytes missing when nothing fits.
    """
    budget = tcdm_budget(cfg) - reserve
    what = f"layer {spec.layer} {spec.step}"
    if memory == "tcdm":
        if tile is not None and tile < spec.extent:
            raise PlanError(f"{what}: a tile ({spec.dim}={tile}) needs the tensors in L2 "
                            f"(memory 'l2'); resident steps run whole")
        p = _plan(spec, Tiling("tcdm", spec.extent), budget)
        if p.tcdm_bytes > budget:
            raise PlanError(f"{what}: needs {p.tcdm_bytes} bytes of TCDM, {budget} available "
                            f"({p.tcdm_bytes - budget} bytes short); stream it from L2")
        return p
    if memory != "l2":
        raise PlanError(f"{what}: memory must be 'tcdm' or 'l2', not {memory!r}")
    if tile is not None:
        if not 1 <= tile <= spec.extent:
            raise PlanError(f"{what}: tile {spec.dim}={tile} outside 1..{spec.extent}")
        n_tiles = math.ceil(spec.extent / tile)
        db = n_tiles > 1 if double_buffer is None else double_buffer
        if not dma_tile_ok(spec, tile):
            raise PlanError(f"{what}: tile {spec.dim}={tile} splits its 16-bit tensors off a "
                            f"word boundary (the DMA moves words); take an even tile")
        if not all(in_place(t, tile, spec.extent) for t in spec.tensors if t.name in resident):
            raise PlanError(f"{what}: tile {spec.dim}={tile} cannot use its TCDM-homed "
                            f"tensors in place")
        p = _plan(spec, Tiling("l2", tile, db), budget, resident)
        if p.tcdm_bytes > budget:
            raise PlanError(f"{what}: tile {spec.dim}={tile} needs {p.tcdm_bytes} bytes of "
                            f"TCDM, {budget} available ({p.tcdm_bytes - budget} bytes short)")
        return p
    if double_buffer is None:
        one = _plan(spec, Tiling("l2", spec.extent), budget, resident)
        if one.tcdm_bytes <= budget:
            return one
        p = (_fewest_tiles(spec, True, budget, resident)
             or _fewest_tiles(spec, False, budget, resident))
    else:
        p = _fewest_tiles(spec, double_buffer, budget, resident)
    if p is not None:
        return p
    if resident:
        raise PlanError(f"{what}: does not fit with its TCDM-homed tensors")
    # the smallest tile the DMA can move (16-bit tensors: tiles that start on a word)
    n = next(n for n in range(1, spec.extent + 1) if dma_tile_ok(spec, n))
    worst = _plan(spec, Tiling("l2", n), budget)
    one = f"one {spec.dim} at a time" if n == 1 else f"the smallest word-aligned tile, {n},"
    raise PlanError(f"{what}: does not fit even tiled: {one} needs "
                    f"{worst.tcdm_bytes} bytes of TCDM, {budget} available "
                    f"({worst.tcdm_bytes - budget} bytes short)")


def plan_tile(spec: StepSpec, cfg: ClusterConfig, tile: int) -> StepPlan:
    """A streamed step in tiles of ``tile``: double-buffered where that fits, else
    single-buffered (how a fused weight-gradient/update phase runs its choice-table tile: its
    parameter tile, in and out, is one more buffer to double, and one tile of the size the
    weight gradient likes single-buffered may beat more, smaller tiles double-buffered)."""
    try:
        return plan_step(spec, "l2", cfg, tile)
    except PlanError:
        if math.ceil(spec.extent / min(max(tile, 1), spec.extent)) == 1:
            raise
        return plan_step(spec, "l2", cfg, tile, double_buffer=False)


def tile_candidates(spec: StepSpec, cfg: ClusterConfig, double_buffer: bool = True) -> list[int]:
    """Every tile size of a streamed step that fits (distinct tile counts; for the autotuner)."""
    budget = tcdm_budget(cfg)
    out = []
    for n_tiles in range(1, spec.extent + 1):
        n = math.ceil(spec.extent / n_tiles)
        if math.ceil(spec.extent / n) != n_tiles or not dma_tile_ok(spec, n):
            continue
        if _data_bytes(spec, n, 2 if double_buffer and n_tiles > 1 else 1,
                       frozenset()) > budget:
            continue
        if _plan(spec, Tiling("l2", n, double_buffer and n_tiles > 1), budget).tcdm_bytes \
                <= budget:
            out.append(n)
    return out
