"""Tune a model or one layer: the API behind ``trainlib tune``.

``tune_model(model, TuneOptions(...))`` tunes every step of a training step that has a kernel
choice (forward, weight and input gradient of linear, conv2d, pointwise and depthwise layers,
as the model's work list runs them) under the model's memory plan (resident steps have one
tiling; streamed ones are tiled), and, for a model streamed from L2, the tiling of every SGD
update (its kernel is fixed by the precision; several double-buffered tiles overlap the
transfers with the update where one tile would serialise load, update and store), and
then, for each updated layer, the tiling of the fused weight-gradient/update phase that the
reordered update order of ``trainlib deploy`` runs (with the weight gradient's tuned kernel,
on the TCDM a deployed program leaves its phases: the configuration's own stacks), and
returns a ``Tuning``: per step the winner, the runner-up, the default kernel's run, every
candidate with its status, and the explanation.
``Tuning.choice_table()`` is what ``trainlib train --choices`` reads.

An executor and a cache can be passed in (tests inject a job function that hangs or lies);
by default a local pool of one worker per CPU and the user cache directory are used.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from isasim.config import ClusterConfig
from trainlib.choices import FUSED_STEP, Choice, ChoiceTable
from trainlib.deploy import deploy_config
from trainlib.driver import run_config
from trainlib.errors import ModelError, NotAvailable, PlanError
from trainlib.layers import Conv2D, DepthWise, Layer, Linear, PointWise
from trainlib.lowering import DEFAULT_KERNELS
from trainlib.memplan import planning_config
from trainlib.model import Model
from trainlib.planner import plan_step
from trainlib.precision import default_kernel
from trainlib.tune.cache import ResultCache, default_dir
from trainlib.tune.estimate import Calibration
from trainlib.tune.executor import Executor, make_executor
from trainlib.tune.explain import Explanation, explain
from trainlib.tune.measure import Job, fused_spec_of, run_candidate, warm_up
from trainlib.tune.search import (
    Candidate,
    SearchOptions,
    SearchStats,
    StepSearch,
    run_searches,
)
from trainlib.workflow import plan_model, work_list

TUNABLE = (Linear, Conv2D, PointWise, DepthWise)


@dataclass(frozen=True)
class TuneOptions:
    cores: int = 8
    config: str | ClusterConfig = "pulp-open"
    l1: int | None = None              # TCDM bytes of the simulated cluster (None: config's)
    isa: str | None = None             # ISA string of the cores (None: the config's)
    memory: str | None = None          # tcdm | l2 (None: the model's plan; a layer: l2)
    search: SearchOptions = SearchOptions()
    timeout: float = 120.0             # seconds per candidate before its worker is killed
    workers: int | None = None         # local pool size (None: one per CPU)
    executor: str | None = None        # None / "local" / "dask://host:port"
    cache_dir: str | None = ""         # "" : the user cache dir; None: no cache

    def cluster(self) -> ClusterConfig:
        """The cluster of the step runs (``trainlib train``: the driver's stacks)."""
        return self._with_overrides(run_config(self.config, self.cores))

    def deploy_cluster(self) -> ClusterConfig:
        """The cluster as a deployed program's phases are planned for (its own stacks:
        ``memplan.planning_config``); a run on it gives a phase that TCDM."""
        return planning_config(self._with_overrides(deploy_config(self.config, self.cores)))

    def _with_overrides(self, cfg: ClusterConfig) -> ClusterConfig:
        if self.l1 is not None or self.isa is not None:
            cfg = cfg.replace(tcdm_size=self.l1 if self.l1 is not None else cfg.tcdm_size,
                              xpulp=self.isa or cfg.xpulp)
            cfg.validate()
        return cfg


@dataclass
class StepTuning:
    layer: str
    step: str
    signature: str
    memory: str
    macs: int
    search: StepSearch
    error: str = ""

    @property
    def ranked(self) -> list[Candidate]:
        return self.search.ranked()

    @property
    def winner(self) -> Candidate | None:
        r = self.ranked
        return r[0] if r else None

    @property
    def runner_up(self) -> Candidate | None:
        r = self.ranked
        return r[1] if len(r) > 1 else None

    @property
    def default(self) -> Candidate | None:
        """The default kernel at the reference tiling (what an untuned model runs)."""
        for c in self.search.candidates:
            if c.kernel == self.search.default_kernel and c.option == self.search.reference:
                return c
        return None

    @property
    def speedup(self) -> float:
        d, w = self.default, self.winner
        if d is None or w is None or d.result is None or not d.result.ok:
            return 0.0
        return d.cycles / w.cycles

    def explanation(self) -> Explanation | None:
        w, r = self.winner, self.runner_up
        if w is None or r is None or w.result is None or r.result is None:
            return None
        return explain(w.result, r.result)

    @property
    def failures(self) -> list[Candidate]:
        return [c for c in self.search.candidates
                if c.result is not None and not c.result.ok]


@dataclass
class Tuning:
    steps: list[StepTuning]
    cfg: ClusterConfig
    stats: SearchStats
    seconds: float
    meta: dict = field(default_factory=dict)

    def choice_table(self) -> ChoiceTable:
        t = ChoiceTable(meta=dict(self.meta))
        for s in self.steps:
            w = s.winner
            if w is None:
                continue
            kernel = None if s.search.optimizer is not None else w.kernel
            t.add(Choice(s.layer, s.step, kernel, w.option.run_tile, s.signature, w.cycles))
        return t

    def dumps(self) -> str:
        """The choice table as TOML, each entry preceded by a comment with its figures."""
        table = self.choice_table()
        head, *entries = table.dumps().split("[[choice]]\n")
        out = [head]
        for (layer, step), body in zip(table.entries, entries, strict=True):
            s = next(t for t in self.steps if (t.layer, t.step) == (layer, step))
            w = s.winner
            assert w is not None and w.result is not None
            note = f"# {layer} {step}: {w.label}"
            if s.macs:
                note += f", {w.result.mac_per_cycle:.2f} MAC/cycle"
            if s.speedup and s.search.fused:
                note += (f", {s.speedup:.2f}x over its weight gradient's tiling "
                         f"({s.default.option.describe()})")
            elif s.speedup and s.search.optimizer is not None:
                note += f", {s.speedup:.2f}x over the planner's {s.default.option.describe()}"
            elif s.speedup:
                note += f", {s.speedup:.2f}x over {s.search.default_kernel}"
            out.append(f"{note}\n[[choice]]\n{body}")
        return "".join(out)


# (layer, input shape, step[, precision[, optimizer[, kernel, wg tile]]]): an update step's
# optimizer is a dict of lr, weight_decay and master_weights (``measure.Job.optimizer``); a
# fused weight-gradient/update phase has its weight gradient's kernel and tile too
Steps = list[tuple[Layer, tuple[int, ...], str] | tuple[Layer, tuple[int, ...], str, str]
             | tuple[Layer, tuple[int, ...], str, str, dict]
             | tuple[Layer, tuple[int, ...], str, str, dict, str | None, int | None]]


def model_steps(model: Model) -> list[tuple[Layer, tuple[int, ...], str, str]]:
    """The steps of a training step that have a kernel choice, in work-list order, each with
    its layer's precision (an fp16 layer tunes among the fp16 kernels)."""
    shapes = model.shapes()
    out = []
    for w in work_list(model):
        la = model.layers[w.layer] if w.layer >= 0 else None
        if w.kind in ("fw", "wg", "ig") and isinstance(la, TUNABLE):
            out.append((la, shapes[w.layer], w.kind, model.precision_of(la.name)))
    return out


def update_steps(model: Model) -> list[tuple[Layer, tuple[int, ...], str, str, dict]]:
    """The SGD updates of a training step (one per parameter tensor of each updated layer),
    each with its layer's precision and the model's optimizer."""
    shapes = model.shapes()
    optimizer = {"lr": model.lr, "weight_decay": model.weight_decay,
                 "master_weights": model.master_weights}
    return [(model.layers[w.layer], shapes[w.layer], f"update.{w.param}",
             model.precision_of(model.layers[w.layer].name), optimizer)
            for w in work_list(model) if w.kind == "update"]


def fused_steps(model: Model, tuning: Tuning, cfg: ClusterConfig) -> Steps:
    """The fused weight-gradient/update phases of the reordered update order, one per updated
    layer whose fused phase fits ``cfg``'s TCDM tiled (one that does not is deployed as two
    phases), each with the weight gradient's tuned kernel and tile (None: the default's)."""
    shapes = model.shapes()
    optimizer = {"lr": model.lr, "weight_decay": model.weight_decay,
                 "master_weights": model.master_weights}
    updated = {w.layer for w in work_list(model) if w.kind == "update"}
    out: Steps = []
    for w in work_list(model):
        if w.kind != "wg" or w.layer not in updated:
            continue
        la, s = model.layers[w.layer], shapes[w.layer]
        prec = model.precision_of(la.name)
        won = next((t.winner for t in tuning.steps if (t.layer, t.step) == (la.name, "wg")),
                   None)
        kernel = won.kernel if won is not None else None
        tile = won.option.run_tile if won is not None else None
        try:
            spec = fused_spec_of(la, s, kernel or default_kernel(
                DEFAULT_KERNELS[(la.kind, "wg")], prec), optimizer, prec)
            plan_step(spec, "l2", cfg)
        except (PlanError, NotAvailable, ModelError):
            continue
        out.append((la, s, FUSED_STEP, prec, optimizer, kernel, tile))
    return out


def tune_steps(steps: Steps, memory: str,
               opts: TuneOptions, *, executor: Executor | None = None,
               cache: ResultCache | None = None,
               job_fn: Callable[[Job], dict] = run_candidate,
               on_record: Callable[[StepSearch, Candidate], None] | None = None,
               on_start: Callable[[list[StepSearch]], None] | None = None,
               cfg: ClusterConfig | None = None) -> Tuning:
    """Search every step on ``cfg`` (default: ``opts.cluster()``); ``on_start`` sees the
    searches, ``on_record`` every result."""
    t0 = time.perf_counter()
    cfg = cfg or opts.cluster()
    cal = Calibration()
    searches = [StepSearch(la, s, st, cfg, memory, opts.search, cal, *prec)
                for la, s, st, *prec in steps]
    if cache is None:
        cache = ResultCache(default_dir() if opts.cache_dir == "" else opts.cache_dir)
    own = executor is None
    if executor is None:
        executor = make_executor(opts.executor, opts.workers, opts.timeout, warm_up)
    if on_start:
        on_start(searches)
    try:
        stats = run_searches(searches, executor, cache, job_fn, on_record)
    finally:
        if own:
            executor.close()
    results = [StepTuning(s.layer.name, s.step, s.layer.signature(s.in_shape), memory,
                          s.macs, s, s.error) for s in searches]
    for r in results:
        if not r.error and r.winner is None:
            r.error = "no candidate ran correctly"
    meta = {"cores": cfg.cores, "config": cfg.name, "l1": cfg.tcdm_size, "memory": memory}
    return Tuning(results, cfg, stats, time.perf_counter() - t0, meta)


def tune_model(model: Model, opts: TuneOptions, **kw) -> Tuning:
    """Tune the model's steps under its memory plan (``opts.memory`` overrides it); streamed,
    also its updates and then its fused weight-gradient/update phases (``fused_steps``)."""
    plan = plan_model(model, opts.cluster(), opts.memory)
    steps: Steps = list(model_steps(model))
    if plan.memory == "l2":          # resident updates run whole: nothing to tune
        steps += update_steps(model)
    own = kw.get("executor") is None
    if own:
        kw["executor"] = make_executor(opts.executor, opts.workers, opts.timeout, warm_up)
    try:
        tuning = tune_steps(steps, plan.memory, opts, **kw)
        fused = fused_steps(model, tuning, opts.deploy_cluster()) if plan.memory == "l2" else []
        if fused:
            more = tune_steps(fused, "l2", opts, cfg=opts.deploy_cluster(), **kw)
            tuning.steps += more.steps
            tuning.seconds += more.seconds
            for f in dataclasses.fields(SearchStats):
                setattr(tuning.stats, f.name,
                        getattr(tuning.stats, f.name) + getattr(more.stats, f.name))
    finally:
        if own:
            kw["executor"].close()
    tuning.meta["model"] = model.name
    return tuning


def tune_layer(layer: Layer, in_shape: tuple[int, ...], opts: TuneOptions,
               steps: tuple[str, ...] = ("fw", "wg", "ig"), precision: str = "fp32",
               **kw) -> Tuning:
    """Tune the given steps of one layer in ``precision`` (streamed from L2 unless
    ``opts.memory`` says)."""
    layer.out_shape(tuple(in_shape))
    tuning = tune_steps([(layer, tuple(in_shape), s, precision) for s in steps],
                        opts.memory or "l2", opts, **kw)
    tuning.meta["layer"] = layer.signature(tuple(in_shape))
    return tuning
