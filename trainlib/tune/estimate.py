"""Cheap cycle figures for a candidate without running it: a lower bound and an estimate.

The search runs a candidate only when it might win, so it needs, before running it, a bound
that the run can never beat (to prune safely) and a guess of what it will take (to run the
likely winner first, so that the bound prunes early).

Bound of a kernel call: every core issues at most one instruction per cycle, and a call lasts
as long as its busiest core.  The instructions a kernel cannot avoid are its loads, its
multiply-adds and its stores; their count follows from how the kernel splits the work over the
cores and how it covers its share with register blocks, which the catalogue (unroll, parallel
dimension) and the kernels' headers describe:

* generated matmuls (``mm_<U>x<V>_*``, ``mm_u2_*``): the parallel dimension in whole groups of U
  rows (``_n``) or V columns (``_m``), balanced; the share covered by U-row strips, then one
  strip of each smaller power-of-two row count that fits; along a strip, U x V blocks, then one
  block of each smaller power-of-two width that fits; a u x v block costs u + v loads and u * v
  multiply-adds per K step and u * v stores (plus u * v loads when accumulating); a 16-bit
  packed-SIMD kernel (family ``matmul_fp16`` / ``matmul_bf16``) steps K by pairs;
* naive matmuls: contiguous blocks of ceil(P / cores) rows or columns, 1 x 1 blocks;
* depthwise kernels: contiguous blocks of ceil(N / cores) channels (``channels``) or of
  ceil(M / cores) columns of every channel (``columns``); per channel, 1 x V column blocks each
  ker step (1 + V loads, V multiply-adds), the tail columns one by one.

A kernel split in a way not listed here gets a bound of 0: it is never pruned, only run.

Pointer bumps, loop set-up, load-use and bank-conflict stalls and the barrier come on top, so
the real call is slower; ``Calibration`` learns that ratio per kernel from the runs so far and
turns the bound into the estimate.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from asm_kernels.catalogue import Kernel, catalogue
from isasim.config import ClusterConfig
from trainlib.driver import Call, Ref
from trainlib.lowering import MAIN_LABELS, StepSpec
from trainlib.tune.tiler import TileOption, transfer_bytes, whole_bytes

CALL_OVERHEAD = 60                      # cycles per call: argument loads, barrier, time stamp
DMA_ISSUE = 12                          # cycles core 0 spends pushing one DMA command
PRIOR_RATIO = {"naive": 1.9, "u2": 1.7, "depthwise": 1.5, "blocked": 1.3}


def _ints(call: Call) -> dict[str, int]:
    return {k: v for k, v in call.args.items() if not isinstance(v, Ref)}


def main_calls(spec: StepSpec, n: int) -> list[Call]:
    """The calls of a tile of n that run the step's chosen kernel (not the helpers)."""
    return [c for c in spec.tile(n) if c.kernel == spec.kernel and c.label in MAIN_LABELS]


def _shares(extent: int, group: int, cores: int) -> list[int]:
    """Indices of the split dimension each core gets: whole groups, balanced."""
    groups = math.ceil(extent / group)
    q, r = divmod(groups, cores)
    out, first = [], 0
    for c in range(cores):
        end = min(extent, (first + q + (c < r)) * group)
        out.append(max(0, end - first * group))
        first += q + (c < r)
    return out


def _classes(main: int) -> list[int]:
    return [main] + [p for p in (8, 4, 2, 1) if p < main]


def _cover(rows: int, cols: int, u: int, v: int) -> list[tuple[int, int, int]]:
    """(block rows, block cols, count) of the blocks covering a rows x cols share."""
    blocks = []
    strips = []
    for i, ru in enumerate(_classes(u)):
        while rows >= ru:
            strips.append(ru)
            rows -= ru
            if i:
                break
    for ru in strips:
        if cols // v:
            blocks.append((ru, v, cols // v))
        left = cols % v
        for cv in _classes(v)[1:]:
            if left >= cv:
                blocks.append((ru, cv, 1))
                left -= cv
    return blocks


def _matmul_bound(k: Kernel, a: Mapping[str, int], cores: int) -> int:
    n, m, kk, acc = a["N"], a["M"], a["K"], a.get("accumulate", 0)
    if k.family.endswith(("_fp16", "_bf16")):   # packed SIMD: one load / MAC per k pair
        kk = math.ceil(kk / 2)
    u, v = k.unroll
    split_n = k.parallel == "N"
    p = n if split_n else m
    if "naive" in k.name:
        block = math.ceil(p / cores)
        shares = [max(0, min(p, (c + 1) * block) - c * block) for c in range(cores)]
    else:
        shares = _shares(p, u if split_n else v, cores)
    worst = 0
    for s in set(shares):
        rows, cols = (s, m) if split_n else (n, s)
        cost = sum(cnt * (kk * (ru + cv + ru * cv) + ru * cv * (2 if acc else 1))
                   for ru, cv, cnt in _cover(rows, cols, u, v))
        worst = max(worst, cost)
    return worst


def _depthwise_bound(k: Kernel, a: Mapping[str, int], cores: int) -> int:
    n, m, ker = a["N"], a["M"], a["ker_size"]
    v = k.unroll[1]
    if k.parallel == "channels":                 # whole channels, all columns
        n = min(n, math.ceil(n / cores))
    else:                                        # "columns": every channel, a column block
        m = min(m, math.ceil(m / cores))
    return n * ((m // v) * ker * (1 + 2 * v) + (m % v) * ker * 3 + m)


def call_bound(call: Call, cores: int) -> int:
    """Cycles the call takes at least: the busiest core's unavoidable instructions.  A kernel
    whose split this module does not model gets 0, so it is never pruned, only run."""
    k = catalogue()[call.kernel]
    if k.family in ("matmul", "matmul_fp16", "matmul_bf16") and k.parallel in ("N", "M"):
        return _matmul_bound(k, _ints(call), cores)
    if k.family == "depthwise" and k.parallel in ("channels", "columns"):
        return _depthwise_bound(k, _ints(call), cores)
    return 0


def kernel_kind(name: str) -> str:
    """Which prior ratio (real cycles / bound) a kernel starts from."""
    if "naive" in name:
        return "naive"
    if name.startswith("mm_u2"):
        return "u2"
    if name.startswith("mm_dw"):
        return "depthwise"
    return "blocked"


@dataclass
class Calibration:
    """Measured main-call cycles / bound, per kernel, over the runs so far (prior: by kind)."""

    sums: dict[str, list[float]] = field(default_factory=dict)

    def ratio(self, kernel: str, fallback: Calibration | None = None) -> float:
        """Learnt ratio of ``kernel``; else ``fallback``'s; else the prior of its kind."""
        seen = self.sums.get(kernel)
        if seen:
            return seen[0] / seen[1]
        if fallback is not None:
            return fallback.ratio(kernel)
        return PRIOR_RATIO[kernel_kind(kernel)]

    def learn(self, kernel: str, measured: int, bound: int) -> None:
        if bound > 0 and measured > 0:
            s = self.sums.setdefault(kernel, [0.0, 0.0])
            s[0] += measured
            s[1] += bound


def main_bound(spec: StepSpec, tiles: list[tuple[int, int]], cores: int) -> int:
    """Bound of every main call of the step under the given tiles (border tile included)."""
    sizes: dict[int, int] = {}
    for lo, hi in tiles:
        sizes[hi - lo] = sizes.get(hi - lo, 0) + 1
    return sum(cnt * sum(call_bound(c, cores) for c in main_calls(spec, n))
               for n, cnt in sizes.items())


def main_estimate(spec: StepSpec, tiles: list[tuple[int, int]], cores: int,
                  ratio: float) -> float:
    """Estimated cycles of the main calls: bound x learnt ratio + per-call overhead."""
    calls = sum(len(main_calls(spec, hi - lo)) for lo, hi in tiles)
    return main_bound(spec, tiles, cores) * ratio + CALL_OVERHEAD * calls


def dma_bound(spec: StepSpec, opt: TileOption, cfg: ClusterConfig) -> int:
    """DMA cycles no schedule hides: the first batch in and the last batch out (every batch
    when tiles are not double-buffered)."""
    if opt.memory == "tcdm":
        return 0
    spans = opt.spans
    w_in, w_out = whole_bytes(spec)
    total = w_in + transfer_bytes(spec, spans[0][1] - spans[0][0])[0]
    total += w_out + transfer_bytes(spec, spans[-1][1] - spans[-1][0])[1]
    if not opt.double_buffer:
        for (lo, hi), (lo2, hi2) in zip(spans, spans[1:], strict=False):
            total += transfer_bytes(spec, hi - lo)[1] + transfer_bytes(spec, hi2 - lo2)[0]
    return math.ceil(total / cfg.dma_bandwidth)


def dma_estimate(spec: StepSpec, opt: TileOption, cfg: ClusterConfig,
                 compute: float) -> float:
    """DMA cycles left exposed when ``compute`` cycles of work are spread over the tiles."""
    if opt.memory == "tcdm":
        return 0.0
    spans = opt.spans
    per_transfer = DMA_ISSUE + cfg.dma_setup_cycles
    exposed = float(dma_bound(spec, opt, cfg)) + 2 * per_transfer * len(spec.tensors)
    if opt.double_buffer and len(spans) > 1:
        per_tile = compute / len(spans)
        for (lo, hi), nxt in zip(spans, spans[2:] + [None], strict=False):
            moved = transfer_bytes(spec, hi - lo)[1]
            if nxt is not None:
                moved += transfer_bytes(spec, nxt[1] - nxt[0])[0]
            exposed += max(0.0, moved / cfg.dma_bandwidth + per_transfer - per_tile)
    return exposed
