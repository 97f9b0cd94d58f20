"""One candidate measured: a layer step run on the simulator with a kernel and a tile.

An SGD update (``update.weight``, ``update.bias``) is a candidate too: its kernel is fixed by
the precision, its tile is what is tuned, and its golden model is ``golden.sgd`` on the same
inputs (``run_update_step``).  So is the fused weight-gradient/update phase of the reordered
update order (``wg+update``, ``run_fused_step``): the weight gradient's kernel, the tile
tuned, the golden weight gradient's update as its golden model.

This is the job the executor runs in a worker process.  Its input (``Job``) and output (a plain
dict, see ``Measurement``) are plain data, so they cross process and host boundaries (a local
pool, a Dask cluster) and go into the on-disk cache as JSON.  The whole step runs — prologue,
every tile including the border tile, the DMA transfers and their overlap — so the cycles are
the layer's real latency, not one tile's extrapolated.  A result that misses the golden model
comes back as ``wrong`` with its error ratio, a step that cannot run as ``error`` with the
reason: the search reports both and never picks them.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field

import numpy as np

from isasim.config import ClusterConfig
from trainlib import golden
from trainlib.choices import FUSED_STEP
from trainlib.driver import run_config
from trainlib.errors import ModelError, TrainlibError
from trainlib.layers import Layer, layer_from_dict, layer_to_dict
from trainlib.lowering import MAIN_LABELS, StepSpec, fused_update, layer_step
from trainlib.planner import plan_tile
from trainlib.step import (
    StepRun,
    golden_bounds,
    golden_outputs,
    run_layer_step,
    run_spec,
)
from trainlib.workflow import sgd_spec


@dataclass(frozen=True)
class Job:
    """Everything a worker needs to rebuild and run one candidate."""

    layer: dict                      # layer_to_dict of the layer
    in_shape: tuple[int, ...]
    step: str
    kernel: str
    memory: str                      # tcdm | l2
    tile: int | None
    cores: int
    config: dict                     # dataclasses.asdict of the ClusterConfig
    seed: int = 0
    precision: str = "fp32"          # the arithmetic of the step (its kernels and tensors)
    optimizer: dict | None = None    # an update: lr, weight_decay, master_weights

    @classmethod
    def make(cls, layer: Layer, in_shape, step: str, kernel: str, memory: str,
             tile: int | None, cfg: ClusterConfig, seed: int = 0,
             precision: str = "fp32", optimizer: dict | None = None) -> Job:
        return cls(layer_to_dict(layer), tuple(in_shape), step, kernel, memory, tile,
                   cfg.cores, dataclasses.asdict(cfg), seed, precision, optimizer)

    def key_data(self) -> dict:
        """The job as JSON-able data (the cache key is built from it; an fp32 layer step's
        key is the same as before precisions and updates existed, so cached results stay
        valid)."""
        d = dataclasses.asdict(self)
        if d["precision"] == "fp32":
            del d["precision"]
        if d["optimizer"] is None:
            del d["optimizer"]
        return d


@dataclass
class Measurement:
    """What a run gave (``status``: ok | wrong | error | timeout | crashed)."""

    status: str
    cycles: int = 0
    macs: int = 0
    main_cycles: int = 0             # the chosen kernel's calls
    phases: dict[str, int] = field(default_factory=dict)
    categories: dict[str, int] = field(default_factory=dict)   # core-cycles, all cores
    core_cycles: list[int] = field(default_factory=list)
    error_ratio: float = 0.0         # worst |sim - golden| / bound (<= 1 passes)
    message: str = ""
    seconds: float = 0.0
    cached: bool = False

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def mac_per_cycle(self) -> float:
        return self.macs / self.cycles if self.cycles else 0.0

    @property
    def nonmain_cycles(self) -> int:
        """Cycles of the helper calls (im2row, bias, transposes): the same for every kernel."""
        return sum(v for k, v in self.phases.items() if k not in MAIN_LABELS and k != "dma")

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d.pop("cached")
        return d

    @classmethod
    def from_dict(cls, d: dict, cached: bool = False) -> Measurement:
        """From ``to_dict`` data; ValueError if it is not (a damaged cache entry)."""
        names = {f.name for f in dataclasses.fields(cls)}
        m = cls(**{k: v for k, v in d.items() if k in names}, cached=cached)
        ints = (m.cycles, m.macs, m.main_cycles, *m.phases.values(),
                *m.categories.values(), *m.core_cycles)
        if not (isinstance(m.status, str) and all(type(v) is int and v >= 0 for v in ints)
                and isinstance(m.error_ratio, int | float)):
            raise ValueError(f"not a measurement: {d!r:.200}")
        return m


def config_of(job: Job) -> ClusterConfig:
    return ClusterConfig(**job.config)


def run_candidate(job: Job) -> dict:
    """Run the job's step on the simulator; a Measurement as a dict (never raises for a
    candidate that cannot run: that is a result too)."""
    t0 = time.perf_counter()
    try:
        layer = layer_from_dict(dict(job.layer), 0)
        if job.step == FUSED_STEP:
            run = run_fused_step(layer, job.in_shape, job.kernel, job.optimizer or {},
                                 precision=job.precision, tile=job.tile, cores=job.cores,
                                 config=config_of(job), seed=job.seed)
        elif job.optimizer is not None:
            run = run_update_step(layer, job.in_shape, job.step, job.optimizer,
                                  precision=job.precision, tile=job.tile, memory=job.memory,
                                  cores=job.cores, config=config_of(job), seed=job.seed)
        else:
            run = run_layer_step(layer, job.in_shape, job.step, kernel=job.kernel,
                                 tile=job.tile, memory=job.memory, cores=job.cores,
                                 config=config_of(job), seed=job.seed,
                                 precision=job.precision)
    except TrainlibError as e:
        return Measurement("error", message=str(e),
                           seconds=time.perf_counter() - t0).to_dict()
    errors = run.errors()
    worst = max(errors.values(), default=0.0)
    res = run.result
    m = Measurement(
        status="ok" if worst <= 1.0 else "wrong",
        cycles=run.cycles, macs=run.macs,
        main_cycles=sum(v for k, v in run.phases.items() if k in MAIN_LABELS),
        phases=dict(run.phases),
        categories={n: int(v) for n, v in zip(res.category_names,
                                               res.categories.sum(axis=0), strict=True)},
        core_cycles=[int(c) for c in res.cycles],
        error_ratio=float(worst) if np.isfinite(worst) else float("inf"),
        message="" if worst <= 1.0 else
        "output differs from the golden model: " + ", ".join(
            f"{k} off by {v:.3g}x the bound" for k, v in errors.items() if not v <= 1.0),
        seconds=time.perf_counter() - t0)
    return m.to_dict()


def update_spec_of(layer: Layer, in_shape, step: str, optimizer: dict,
                   precision: str = "fp32") -> StepSpec:
    """The spec of ``step`` (``update.<param>``) of the layer, as a model with ``optimizer``
    (lr, weight_decay, master_weights) in ``precision`` runs it (``workflow.update_spec``)."""
    param = step.removeprefix("update.")
    shapes = layer.params(tuple(in_shape))
    if param not in shapes:
        raise ModelError(f"layer {layer.name}: no parameter {param!r} to update "
                         f"(it has {', '.join(shapes) or 'none'})")
    return sgd_spec(layer.name, param, shapes[param], precision,
                    bool(optimizer.get("master_weights")), float(optimizer["lr"]),
                    float(optimizer.get("weight_decay", 0.0)))


def run_update_step(layer: Layer, in_shape, step: str, optimizer: dict, *,
                    precision: str = "fp32", tile: int | None = None, memory: str = "l2",
                    cores: int = 8, config: str | ClusterConfig = "pulp-open",
                    seed: int = 0) -> StepRun:
    """Run one SGD update of the layer's parameter on random inputs (in their formats) with
    the given tile; the StepRun carries the golden outputs (``golden.sgd``: on the fp32 master
    copy, the 16-bit weights rounded from it, with master weights) and their bounds (two
    operations, ``golden.tolerance``)."""
    spec = update_spec_of(layer, in_shape, step, optimizer, precision)
    data = _random_inputs(spec, seed)
    run = run_spec(spec, data, memory=memory, tile=tile, cores=cores, config=config)
    w = data.get("master", data.get("w"))
    run.golden, run.bounds = sgd_reference(w, data["g"], optimizer, precision, "master" in data)
    return run


def _random_inputs(spec: StepSpec, seed: int) -> dict[str, np.ndarray]:
    """Normal random values, in their formats, for the spec's input tensors."""
    rng = np.random.default_rng(seed)
    return {t.name: golden.round_to(rng.standard_normal(t.shape), t.fmt).astype(np.float32)
            for t in spec.tensors if t.role in ("in", "inout")}


def sgd_reference(w: np.ndarray, g: np.ndarray, optimizer: dict, precision: str, master: bool,
                  g_bound: np.ndarray | float = 0.0
                  ) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """The golden SGD update of ``w`` (the fp32 master copy with ``master``) from the gradient
    ``g`` known within ``g_bound``: outputs ``w`` (and ``master``) and their bounds (two
    operations, ``golden.tolerance``, plus the gradient's error times the learning rate)."""
    lr, wd = float(optimizer["lr"]), float(optimizer.get("weight_decay", 0.0))
    mag = np.abs(w.astype(np.float64)) + lr * (np.abs(g) + wd * np.abs(w))
    slack = lr * np.asarray(g_bound, np.float64)
    if master:
        new = golden.sgd(w, g, lr, wd)
        return ({"master": new, "w": golden.round_to(new, precision)},
                {"master": golden.tolerance(mag, 2) + slack,
                 "w": golden.tolerance(mag, 2, precision, acc="fp32") + slack})
    return ({"w": golden.sgd(w, g, lr, wd, precision)},
            {"w": golden.tolerance(mag, 2, precision) + slack})


def fused_spec_of(layer: Layer, in_shape, kernel: str, optimizer: dict,
                  precision: str = "fp32") -> StepSpec:
    """The fused weight-gradient/update phase of the layer (``lowering.fused_update``) with
    ``kernel`` for the weight gradient, as ``trainlib.memplan`` builds it for the reordered
    update order."""
    wg = layer_step(layer, tuple(in_shape), "wg", kernel, precision)
    updates = {p: update_spec_of(layer, in_shape, f"update.{p}", optimizer, precision)
               for p in layer.params(tuple(in_shape))}
    return fused_update(wg, updates)


def run_fused_step(layer: Layer, in_shape, kernel: str, optimizer: dict, *,
                   precision: str = "fp32", tile: int | None = None, cores: int = 8,
                   config: str | ClusterConfig = "pulp-open", seed: int = 0) -> StepRun:
    """Run the fused weight-gradient/update phase of the layer streamed from L2 in tiles of
    ``tile`` (``planner.plan_tile``: double-buffered where that fits, else single-buffered) on
    random inputs; the golden outputs are the golden weight gradient's SGD update
    (``sgd_reference``, its bound widened by the gradient's)."""
    spec = fused_spec_of(layer, in_shape, kernel, optimizer, precision)
    s = tuple(in_shape)
    data = _random_inputs(spec, seed)
    cfg = run_config(config, cores)
    plan = plan_tile(spec, cfg, tile) if tile is not None else None
    run = run_spec(spec, data, memory="l2", plan=plan, cores=cores, config=cfg)
    grads = golden_outputs(layer, s, "wg", data, precision)
    g_bounds = golden_bounds(layer, s, "wg", data, layer_step(layer, s, "wg", kernel,
                                                               precision))
    master = bool(optimizer.get("master_weights")) and precision != "fp32"
    for p in layer.params(s):
        w = data[f"master_{p}"] if master else data[p]
        ref, bounds = sgd_reference(w, grads["d" + p], optimizer, precision, master,
                                    g_bounds["d" + p])
        names = {"w": p, "master": f"master_{p}"}
        run.golden |= {names[k]: v for k, v in ref.items()}
        run.bounds |= {names[k]: v for k, v in bounds.items()}
    return run


def warm_up() -> None:
    """Import and JIT-load the simulator before the first timed job of a worker."""
    from trainlib.layers import Linear

    run_layer_step(Linear("warm", 4, 3), (4,), "fw", kernel="mm_naive_n", cores=2)
