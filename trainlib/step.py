"""Run one layer step on the simulator, and its golden reference: the autotuner's entry point.

``run_layer_step(layer, in_shape, "fw", kernel="mm_4x4_n", memory="l2", tile=8)`` builds the
step (``trainlib.lowering``), plans its memory (``trainlib.planner``), runs the driver program
(``trainlib.driver``) and returns a ``StepRun``: the outputs read back from simulator memory,
the ``RunResult``, the useful MACs, the plan, per-phase cycles, plus the golden outputs and an
error check.  ``run_spec`` is the same for a spec already built (losses, updates).

Tolerance (``StepRun.check``): an fp32 sum of K products may differ from the exact one by about
K * eps * sum|terms| whatever the order; the golden model evaluated on the absolute values of
the inputs gives sum|terms| per output element, so the bound adapts to every element, catches
any wrong or missing term, and needs no hand-tuned constant per layer (``golden.tolerance``,
which gives the same bound for the 16-bit formats).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from isasim.config import ClusterConfig
from isasim.result import RunResult
from trainlib import golden
from trainlib.driver import core_kernel, run_config, run_driver
from trainlib.layers import Add, Layer, Shape, Sigmoid
from trainlib.lowering import StepSpec, layer_step
from trainlib.planner import StepPlan, plan_step
from trainlib.schedule import driver_program


@dataclass
class StepRun:
    layer: str
    step: str
    outputs: dict[str, np.ndarray]
    result: RunResult
    macs: int
    plan: StepPlan
    phases: dict[str, int]
    kernel: str | None = None
    golden: dict[str, np.ndarray] = field(default_factory=dict)
    bounds: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def cycles(self) -> int:
        return self.result.total_cycles

    @property
    def mac_per_cycle(self) -> float:
        return self.macs / self.cycles if self.cycles else 0.0

    def errors(self) -> dict[str, float]:
        """Worst |got - golden| / bound per output (<= 1 passes)."""
        out = {}
        for k, ref in self.golden.items():
            got = self.outputs[k].astype(np.float64)
            err = np.abs(got - ref.astype(np.float64)) / self.bounds[k]
            out[k] = float(err.max()) if err.size else 0.0
        return out

    def check(self) -> None:
        """Raise AssertionError naming the output and element that missed the golden model."""
        for k, ratio in self.errors().items():
            if not ratio <= 1.0:
                got = self.outputs[k].reshape(-1)
                ref = self.golden[k].reshape(-1)
                i = int(np.argmax(np.abs(got.astype(np.float64) - ref) /
                                  self.bounds[k].reshape(-1)))
                bound = self.bounds[k].reshape(-1)[i]
                raise AssertionError(f"layer {self.layer} {self.step}: {k}[{i}] = {got[i]!r}, "
                                     f"golden {ref[i]!r} (bound {bound:.3g})")


def run_spec(spec: StepSpec, data: Mapping[str, np.ndarray], *, memory: str = "tcdm",
             tile: int | None = None, double_buffer: bool | None = None, cores: int = 8,
             config: str | ClusterConfig = "pulp-open", plan: StepPlan | None = None,
             machine_hook=None) -> StepRun:
    """Plan (unless given) and run a built step; outputs come back in their full shapes."""
    cfg = run_config(config, cores)
    plan = plan or plan_step(spec, memory, cfg, tile, double_buffer)
    run = run_driver(driver_program(spec, plan.tiling, data), cores=cores, config=cfg,
                     machine_hook=machine_hook)
    outs = {t.name: run.outputs[t.name].reshape(t.shape) for t in spec.tensors
            if t.role in ("out", "inout")}
    ran = spec.kernel and core_kernel(spec.kernel, cfg.xpulp)     # the kernel the cores called
    return StepRun(spec.layer, spec.step, outs, run.result, spec.macs, plan, run.phases,
                   ran or None)


# ---- golden reference of a layer step ---------------------------------------------------------
def step_inputs(layer: Layer, s: Shape, step: str, seed: int = 0) -> dict[str, np.ndarray]:
    """Random inputs of a step (normal, fixed seed), named as the spec names them."""
    rng = np.random.default_rng(seed)

    def r(shape):
        return rng.standard_normal(shape).astype(np.float32)
    out_s = layer.out_shape(s)
    d: dict[str, np.ndarray] = {}
    if step == "fw" or step == "wg" or isinstance(layer, Add):
        d["x"] = r(s)
    if step in ("wg", "ig"):
        d["dy"] = r(out_s)
    if step in ("fw", "ig"):
        d.update({k: r(v) for k, v in layer.params(s).items()})
    if isinstance(layer, Add):
        d["skip" if step == "fw" else "dskip"] = r(s)
        if step != "fw":
            d.pop("x")
    elif step == "ig" and not layer.has_params:
        if isinstance(layer, Sigmoid):
            d["y"] = golden.forward(layer, r(s), {})
        else:
            d["x"] = r(s)
    return d


def golden_outputs(layer: Layer, s: Shape, step: str, d: Mapping[str, np.ndarray],
                   precision: str = "fp32") -> dict[str, np.ndarray]:
    """The golden model's outputs of a step in ``precision``, named as the spec names them."""
    params = {k: d[k] for k in ("weight", "bias") if k in d}
    p = {"precision": precision}
    if isinstance(layer, Add):
        if step == "fw":
            return {"y": golden.forward(layer, d["x"], {}, skip=d["skip"], **p)}
        return {"dx": golden.forward(layer, d["dy"], {}, skip=d["dskip"], **p)}
    if step == "fw":
        return {"y": golden.forward(layer, d["x"], params, **p)}
    if step == "wg":
        g = golden.weight_grad(layer, d["x"], d["dy"], **p)
        return {"d" + k: v for k, v in g.items()}
    x = d.get("x", np.zeros(s, np.float32))
    return {"dx": golden.input_grad(layer, x, d["dy"], params, y=d.get("y"), **p)}


def golden_bounds(layer: Layer, s: Shape, step: str, d: Mapping[str, np.ndarray],
                  spec: StepSpec) -> dict[str, np.ndarray]:
    """Per-element error bounds: (K + 2) eps * (the golden model on |inputs|) + a floor, in
    the step's precision (``golden.tolerance``: a 16-bit kernel accumulating in binary32 is
    within the bound of one accumulating in its storage format)."""
    absd = {k: np.abs(np.asarray(v, np.float64)) for k, v in d.items()}
    mag = golden_outputs(layer, s, step, absd)
    outs = [t for t in spec.tensors if t.role == "out"]
    size = sum(t.size for t in outs) or 1
    k = max(1, spec.macs // max(1, size))
    return {name: golden.tolerance(m, k, spec.precision) for name, m in mag.items()}


def run_layer_step(layer: Layer, in_shape: Shape, step: str, *, kernel: str | None = None,
                   tile: int | None = None, memory: str = "tcdm",
                   double_buffer: bool | None = None, cores: int = 8,
                   config: str | ClusterConfig = "pulp-open",
                   data: Mapping[str, np.ndarray] | None = None, seed: int = 0,
                   precision: str = "fp32") -> StepRun:
    """Run ``step`` ("fw" | "wg" | "ig") of one layer with a kernel choice and tile, in
    ``precision`` (the inputs are rounded to it when written).

    ``data`` gives the inputs (default: ``step_inputs(layer, in_shape, step, seed)``); the
    returned StepRun carries the golden outputs and bounds, so ``.check()`` or ``.errors()``
    tells whether the kernel computed the step right.
    """
    spec = layer_step(layer, tuple(in_shape), step, kernel, precision)
    d = dict(data) if data is not None else step_inputs(layer, tuple(in_shape), step, seed)
    run = run_spec(spec, d, memory=memory, tile=tile, double_buffer=double_buffer,
                   cores=cores, config=config)
    run.golden = golden_outputs(layer, tuple(in_shape), step, d, precision)
    run.bounds = golden_bounds(layer, tuple(in_shape), step, d, spec)
    return run
