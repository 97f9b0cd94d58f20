"""One candidate measured: a layer step run on the simulator with a kernel and a tile.

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
from trainlib.errors import TrainlibError
from trainlib.layers import Layer, layer_from_dict, layer_to_dict
from trainlib.lowering import MAIN_LABELS
from trainlib.step import run_layer_step


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

    @classmethod
    def make(cls, layer: Layer, in_shape, step: str, kernel: str, memory: str,
             tile: int | None, cfg: ClusterConfig, seed: int = 0,
             precision: str = "fp32") -> Job:
        return cls(layer_to_dict(layer), tuple(in_shape), step, kernel, memory, tile,
                   cfg.cores, dataclasses.asdict(cfg), seed, precision)

    def key_data(self) -> dict:
        """The job as JSON-able data (the cache key is built from it; an fp32 job's key is
        the same as before precisions existed, so cached fp32 results stay valid)."""
        d = dataclasses.asdict(self)
        if d["precision"] == "fp32":
            del d["precision"]
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
        run = run_layer_step(layer, job.in_shape, job.step, kernel=job.kernel, tile=job.tile,
                             memory=job.memory, cores=job.cores, config=config_of(job),
                             seed=job.seed, precision=job.precision)
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


def warm_up() -> None:
    """Import and JIT-load the simulator before the first timed job of a worker."""
    from trainlib.layers import Linear

    run_layer_step(Linear("warm", 4, 3), (4,), "fw", kernel="mm_naive_n", cores=2)
