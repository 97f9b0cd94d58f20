"""The search: which (tiling, kernel) candidates of a layer step to run, and in which order.

Per step, in two phases:

1. kernels: every applicable catalogue kernel at the reference tiling (the one the planner
   takes by default, so the tuned kernel is compared with every fixed kernel where they would
   really run); the default kernel is always measured (it is the speed-up's base);
2. tilings: for the ``top_kernels`` fastest kernels of phase 1, the ``tilings`` other tilings
   of the tiler that the estimate ranks best (border tiles included), each run only if its
   estimate is within ``explore`` times the best run so far (the estimate has learnt the
   kernel's real speed in phase 1, so one far above the best is not worth a run).  When the
   reference streams the step as one tile, the fastest kernel also tries the fewest
   double-buffered tiles (``overlap_option``), so transfers that one tile serialises with the
   compute get a chance to overlap it.

An SGD update searches its tiling only: its kernel is fixed by the precision.  So does the
fused weight-gradient/update phase of the reordered update order (``wg+update``): it runs its
weight gradient's tuned kernel; its tilings are double-buffered where that fits, else
single-buffered (``planner.plan_tile``), its reference is the tiling it takes without an entry
of its own (the weight gradient's tile, or the fewest tiles that fit when that one does not),
and the tiling phase always tries the weight gradient's own tile.

Candidates run best estimate first.  Before one is submitted its lower bound (``estimate``:
the kernel's unavoidable instructions on the busiest core, plus the helper calls measured at
that tiling, plus the DMA no schedule hides) is compared with the fastest correct run so far;
one that cannot win is pruned without running.  The winner is the fastest candidate whose
outputs matched the golden model; wrong, failed, hung and crashed candidates are kept in the
record with their status and never chosen.

``run_searches`` drives many steps at once through one executor: it keeps the executor's
capacity in flight, always feeding the step with the fewest runs in flight, so every result
can prune what its step still has queued; cached results are taken without running.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import dataclass

from isasim.config import ClusterConfig
from trainlib.choices import FUSED_STEP
from trainlib.driver import core_kernel
from trainlib.errors import ModelError, NotAvailable, PlanError
from trainlib.layers import Layer
from trainlib.lowering import (
    DEFAULT_KERNELS,
    MAIN_LABELS,
    StepSpec,
    kernel_candidates,
    layer_step,
    unavailable,
)
from trainlib.planner import StepPlan, measure, plan_step, tcdm_budget
from trainlib.precision import default_kernel
from trainlib.schedule import Tiling
from trainlib.tune.cache import ResultCache, cache_key
from trainlib.tune.estimate import (
    CALL_OVERHEAD,
    Calibration,
    dma_bound,
    dma_estimate,
    main_bound,
    main_estimate,
)
from trainlib.tune.executor import Executor, Outcome
from trainlib.tune.measure import Job, Measurement, fused_spec_of, update_spec_of
from trainlib.tune.tiler import TileOption, tilings

# The helper calls' cycles measured at a tiling bound those of another kernel at the same
# tiling, up to a few cycles of barrier timing (the cores leave the main call at different
# offsets) and DMA traffic overlapping them: measured over every kernel of the example models'
# steps, at most 5 cycles or 1.5%; the slack below covers that with margin.
NONMAIN_SLACK = 0.95
NONMAIN_JITTER = 20


@dataclass(frozen=True)
class SearchOptions:
    top_kernels: int = 2           # kernels carried into the tiling phase
    tilings: int = 3               # other tilings tried per carried kernel
    reserve: int = 0               # TCDM bytes the tiler leaves free
    max_tiles: int = 64
    seed: int = 0
    exhaustive: bool = False       # run every kernel at the reference tiling (no pruning)
    explore: float = 1.10          # tiling phase: run only estimates within this x the best


@dataclass(eq=False)
class Candidate:
    option: TileOption
    kernel: str
    bound: int = 0
    estimate: float = 0.0
    forced: bool = False           # measured whatever its bound (the default kernel)
    result: Measurement | None = None
    pruned: str = ""               # why it was not run: its bound cannot beat the best
    skipped: str = ""              # why it was not run: its estimate is far from the best

    @property
    def label(self) -> str:
        return f"{self.kernel} @ {self.option.describe()}"

    @property
    def status(self) -> str:
        if self.result is not None:
            return self.result.status
        return "pruned" if self.pruned else "skipped" if self.skipped else "queued"

    @property
    def cycles(self) -> int:
        return self.result.cycles if self.result is not None else 0


class StepSearch:
    """The candidates of one layer step and what is known about them."""

    def __init__(self, layer: Layer, in_shape: tuple[int, ...], step: str,
                 cfg: ClusterConfig, memory: str, opts: SearchOptions,
                 cal: Calibration, precision: str = "fp32",
                 optimizer: dict | None = None, kernel: str | None = None,
                 wg_tile: int | None = None) -> None:
        self.layer, self.in_shape, self.step = layer, tuple(in_shape), step
        self.cfg, self.memory, self.opts, self.cal = cfg, memory, opts, cal
        self.precision, self.optimizer = precision, optimizer
        self.wg_tile = wg_tile          # a fused phase: its weight gradient's tile
        self.local = Calibration()
        self.specs: dict[str, StepSpec] = {}
        self.rejected: dict[str, str] = {}
        self.fused = step == FUSED_STEP
        if self.fused:
            self._fused_kernel(kernel)
        elif optimizer is not None:
            self._update_kernel()
        else:
            self._layer_kernels()
        self.candidates: list[Candidate] = []
        self.queue: list[Candidate] = []
        self.in_flight: list[Candidate] = []
        self.phase = 1
        self.error = ""
        self.macs = 0
        self.reference: TileOption | None = None
        base = self.specs.get(self.default_kernel) or next(iter(self.specs.values()), None)
        if base is None:
            self.error = "no catalogue kernel can run this step: " + "; ".join(
                f"{k}: {w}" for k, w in self.rejected.items())
            self.options: list[TileOption] = []
            return
        self.macs = base.macs
        self.options = tilings(base, cfg, memory, opts.reserve, opts.max_tiles,
                               single_buffered=self.fused)
        if not self.options:
            self.error = self._does_not_fit(base)
            return
        self.reference = self._reference(base)
        for k in self.specs:
            self._add(self.reference, k, forced=opts.exhaustive or k == self.default_kernel)

    def _layer_kernels(self) -> None:
        """A layer step: every applicable catalogue kernel, the default's counterpart in the
        precision on the core's registers first."""
        layer, step, precision, xpulp = self.layer, self.step, self.precision, self.cfg.xpulp
        self.default_kernel = DEFAULT_KERNELS[(layer.kind, step)]
        try:
            self.default_kernel = core_kernel(default_kernel(self.default_kernel, precision),
                                              xpulp)
        except NotAvailable as e:
            self.rejected[self.default_kernel] = str(e)
        for k in kernel_candidates(layer, step, precision, xpulp):
            spec = layer_step(layer, self.in_shape, step, k, precision)
            why = unavailable(spec, xpulp)
            if why:
                self.rejected[k] = why
            else:
                self.specs[k] = spec

    def _update_kernel(self) -> None:
        """An SGD update: one kernel, fixed by the precision (only the tiling is searched)."""
        assert self.optimizer is not None
        spec = update_spec_of(self.layer, self.in_shape, self.step, self.optimizer,
                              self.precision)
        why = unavailable(spec, self.cfg.xpulp)
        self.default_kernel = "sgd" if why else core_kernel(spec.tile(1)[0].kernel,
                                                            self.cfg.xpulp)
        if why:
            self.rejected[self.default_kernel] = why
        else:
            self.specs[self.default_kernel] = spec

    def _fused_kernel(self, kernel: str | None) -> None:
        """A fused weight-gradient/update phase: the weight gradient's kernel (default: the
        planner's), only the tiling is searched."""
        assert self.optimizer is not None
        default = core_kernel(default_kernel(DEFAULT_KERNELS[(self.layer.kind, "wg")],
                                             self.precision), self.cfg.xpulp)
        self.default_kernel = kernel or default
        try:
            spec = fused_spec_of(self.layer, self.in_shape, self.default_kernel,
                                 self.optimizer, self.precision)
        except (NotAvailable, ModelError) as e:
            self.rejected[self.default_kernel] = str(e)
            return
        why = unavailable(spec, self.cfg.xpulp)
        if why:
            self.rejected[self.default_kernel] = why
        else:
            self.specs[self.default_kernel] = spec

    @property
    def name(self) -> str:
        tag = "" if self.precision == "fp32" else f" ({self.precision})"
        return f"{self.layer.name} {self.step}{tag}"

    def _does_not_fit(self, spec: StepSpec) -> str:
        budget = tcdm_budget(self.cfg) - self.opts.reserve
        if self.memory == "tcdm":
            need, _ = measure(spec, Tiling("tcdm", spec.extent))
            return f"does not fit resident: needs {need:,} B of TCDM, {budget:,} available"
        need, _ = measure(spec, Tiling("l2", 1))
        return (f"no tiling fits: one {spec.dim} per tile needs {need:,} B of TCDM, "
                f"{budget:,} available")

    def _reference(self, spec: StepSpec) -> TileOption:
        """The planner's default tiling if the tiler kept it, else the best estimated one."""
        try:
            tile = self._planned(spec).tiling.tile
        except PlanError:
            tile = None
        for o in self.options:
            if o.tile == tile:
                return o
        return min(self.options, key=lambda o: self.estimate(o, spec.kernel or ""))

    def _planned(self, spec: StepSpec) -> StepPlan:
        """The plan the step takes without a choice of its own: a fused phase the weight
        gradient's tile (double-buffered) if that fits, else the fewest tiles that fit, as
        ``trainlib.memplan`` plans it; any other step the planner's fewest tiles."""
        if self.wg_tile is not None:
            try:
                return plan_step(spec, self.memory, self.cfg, min(self.wg_tile, spec.extent))
            except PlanError:
                pass
        return plan_step(spec, self.memory, self.cfg)

    def _add(self, opt: TileOption, kernel: str, forced: bool = False) -> None:
        c = Candidate(opt, kernel, forced=forced)
        self.candidates.append(c)
        self.queue.append(c)

    # ---- figures ------------------------------------------------------------------------------
    def _measured_at(self, opt: TileOption) -> list[Measurement]:
        return [c.result for c in self.candidates
                if c.option == opt and c.result is not None and c.result.ok]

    def _helper_calls(self, spec: StepSpec, opt: TileOption) -> int:
        """Calls other than the main kernel's: the prologue and each tile's helpers."""
        per_tile = sum(c.label not in MAIN_LABELS for c in spec.tile(opt.tile))
        return len(spec.prologue()) + per_tile * opt.tiles

    def _nonmain(self, opt: TileOption, spec: StepSpec) -> tuple[int, float]:
        """(bound, estimate) of the helper calls at ``opt`` from the runs so far."""
        here = [m.nonmain_cycles for m in self._measured_at(opt)]
        if here:
            return max(0, int(NONMAIN_SLACK * min(here)) - NONMAIN_JITTER), float(min(here))
        ref_opt = self.reference
        ref = self._measured_at(ref_opt) if ref_opt is not None else []
        if ref:
            extra = self._helper_calls(spec, opt) - self._helper_calls(spec, ref_opt)
            return 0, max(0.0, min(m.nonmain_cycles for m in ref) + CALL_OVERHEAD * extra)
        return 0, 0.0

    def bound(self, opt: TileOption, kernel: str) -> int:
        spec = self.specs[kernel]
        return (main_bound(spec, opt.spans, self.cfg.cores) + self._nonmain(opt, spec)[0]
                + dma_bound(spec, opt, self.cfg))

    def estimate(self, opt: TileOption, kernel: str) -> float:
        """Expected cycles; the kernel's speed as learnt on this step if it ran here (so the
        tiling phase, which only sees kernels that ran, ranks from this step's runs alone and
        a rerun from the cache picks the same tilings), else as learnt on other steps."""
        spec = self.specs[kernel]
        ratio = self.local.ratio(kernel, self.cal)
        compute = main_estimate(spec, opt.spans, self.cfg.cores, ratio)
        compute += self._nonmain(opt, spec)[1]
        return compute + dma_estimate(spec, opt, self.cfg, compute)

    # ---- the state machine --------------------------------------------------------------------
    def best_cycles(self) -> int | None:
        ok = [c.cycles for c in self.candidates if c.result is not None and c.result.ok]
        return min(ok) if ok else None

    def next(self) -> Candidate | None:
        """The next candidate to run (pruning those that cannot win), or None for now."""
        for c in self.queue:
            c.bound, c.estimate = self.bound(c.option, c.kernel), \
                self.estimate(c.option, c.kernel)
        self.queue.sort(key=lambda c: (c.estimate, c.kernel))
        best = self.best_cycles()
        while self.queue:
            c = self.queue.pop(0)
            if not c.forced and best is not None and c.bound >= best:
                c.pruned = f"bound {c.bound:,} >= best {best:,}"
                continue
            if self.phase == 2 and best is not None and c.estimate > self.opts.explore * best:
                c.skipped = f"estimate {c.estimate:,.0f} > {self.opts.explore:g} x best"
                continue
            self.in_flight.append(c)
            return c
        return None

    def advance(self) -> bool:
        """Enter the tiling phase once the kernel phase is over; True if it did."""
        if self.phase == 2 or self.queue or self.in_flight:
            return False
        self.phase = 2
        self._tiling_phase()
        return True

    def _tiling_phase(self) -> None:
        done = sorted((c for c in self.candidates if c.result is not None and c.result.ok),
                      key=lambda c: c.cycles)
        for i, c in enumerate(done[:self.opts.top_kernels]):
            others = [o for o in self.options if o != self.reference]
            others.sort(key=lambda o: self.estimate(o, c.kernel))
            picks = others[:self.opts.tilings]
            for extra in (self.overlap_option(), self.wg_tile_option()):
                if i == 0 and extra is not None and extra not in picks:
                    picks.append(extra)
            for o in picks:
                self._add(o, c.kernel)

    def overlap_option(self) -> TileOption | None:
        """When the reference runs the step as one streamed tile (load all, compute, store
        all: nothing overlaps), the fewest tiles that double-buffer, else None.  The tiling
        phase always tries it with the fastest kernel: the estimate charges a tile one call's
        overhead, while a tile measures more (the instruction cache misses again as the tile's
        calls re-enter the code, and a DMA round), so it may rank more tiles, which hide more
        of the transfers on paper, above the fewest that turn out faster (a 2,304-weight
        fp16 master update: 4,712 cycles in two tiles, 4,798 in three, 6,007 in one)."""
        ref = self.reference
        if ref is None or ref.memory != "l2" or ref.tiles > 1:
            return None
        db = [o for o in self.options if o.double_buffer and o.tiles > 1]
        return min(db, key=lambda o: (o.tiles, o.border)) if db else None

    def wg_tile_option(self) -> TileOption | None:
        """A fused phase: the weight gradient's own tile (single-buffered where double
        buffers do not fit) unless it is the reference, else None.  The tiling phase always
        tries it: it is the tile the weight gradient's compute was tuned for (DS-CNN's dw1:
        13 tiles of 5 single-buffered, 152,808 cycles, against the reference's 16 double-
        buffered tiles of 4, 167,907)."""
        if not self.fused or self.wg_tile is None or not self.options:
            return None
        tile = min(self.wg_tile, self.options[0].extent)
        return next((o for o in self.options if o.tile == tile and o != self.reference), None)

    def record(self, c: Candidate, m: Measurement) -> None:
        """A candidate's result (running, or still queued when the cache had it)."""
        c.result = m
        (self.in_flight if c in self.in_flight else self.queue).remove(c)
        if m.ok:
            bound = main_bound(self.specs[c.kernel], c.option.spans, self.cfg.cores)
            self.cal.learn(c.kernel, m.main_cycles, bound)
            self.local.learn(c.kernel, m.main_cycles, bound)

    def job(self, c: Candidate) -> Job:
        return Job.make(self.layer, self.in_shape, self.step, c.kernel, self.memory,
                        c.option.run_tile, self.cfg, self.opts.seed, self.precision,
                        self.optimizer)

    def kernels_of(self, kernel: str) -> list[str]:
        """Every kernel the step's program contains with ``kernel`` as its main one (those the
        preset's cores call: ``core_kernel``)."""
        spec = self.specs[kernel]
        return sorted({core_kernel(c.kernel, self.cfg.xpulp)
                       for c in spec.prologue() + spec.tile(spec.extent)})

    def ranked(self) -> list[Candidate]:
        """Correct runs, fastest first (ties: fewer tiles, then by kernel name)."""
        ok = [c for c in self.candidates if c.result is not None and c.result.ok]
        return sorted(ok, key=lambda c: (c.cycles, c.option.tiles, c.kernel))


def outcome_measurement(out: Outcome) -> Measurement:
    """The executor's record as a Measurement (``failed``: the job itself raised)."""
    if out.status == "done":
        try:
            return Measurement.from_dict(out.value)
        except (TypeError, AttributeError, ValueError) as e:
            return Measurement("failed", message=f"malformed job result: {e}")
    status = "failed" if out.status == "error" else out.status
    return Measurement(status, message=out.error, seconds=out.seconds)


@dataclass
class SearchStats:
    measured: int = 0
    cached: int = 0
    failed: int = 0
    seconds_simulated: float = 0.0


def run_searches(searches: list[StepSearch], executor: Executor, cache: ResultCache,
                 job_fn: Callable[[Job], dict],
                 on_record: Callable[[StepSearch, Candidate], None] | None = None
                 ) -> SearchStats:
    """Run every search to the end; results go to the cache as they come."""
    stats = SearchStats()
    live = [s for s in searches if not s.error]
    in_flight: dict[Future, tuple[StepSearch, Candidate, str]] = {}
    keys: dict[Candidate, str] = {}

    def record(s: StepSearch, c: Candidate, m: Measurement) -> None:
        s.record(c, m)
        if m.cached:
            stats.cached += 1
        else:
            stats.measured += 1
            stats.seconds_simulated += m.seconds
        if not m.ok:
            stats.failed += 1
        if on_record:
            on_record(s, c)

    def key_of(s: StepSearch, c: Candidate) -> str:
        if c not in keys:
            keys[c] = cache_key(s.job(c), s.kernels_of(c.kernel))
        return keys[c]

    def preload(s: StepSearch) -> None:
        """Record every queued candidate the cache has, before choosing what to run: with all
        known results in, pruning is as strong as it gets, so a rerun runs nothing new."""
        for c in list(s.queue):
            if c not in keys:
                hit = cache.get(key_of(s, c))
                if hit is not None:
                    record(s, c, hit)

    def take() -> bool:
        """Submit one candidate of the least busy search that has one; False if none has."""
        for s in sorted(live, key=lambda s: len(s.in_flight)):
            while True:
                preload(s)
                c = s.next()
                if c is not None:
                    in_flight[executor.submit(job_fn, s.job(c))] = (s, c, key_of(s, c))
                    return True
                if not s.advance():
                    break
        return False

    while True:
        while len(in_flight) < executor.capacity and take():
            pass
        if not in_flight:             # nothing runs and no search has a candidate left
            return stats
        done, _ = wait(list(in_flight), return_when=FIRST_COMPLETED)
        for f in done:
            s, c, key = in_flight.pop(f)
            m = outcome_measurement(f.result())
            cache.put(key, m)
            record(s, c, m)

