"""Training on the simulator, step by step beside the golden model.

One training step = the ``work_list`` of the model (forward, loss, backward, SGD updates), each
item a separate driver program run on the simulator with its tensors in their planned home.
Tensors pass from one run to the next through the host (a resident tensor stays in TCDM, a
streamed one in L2: nothing the device would move is left out).  The golden model runs the same
training step in numpy on its own copy of the parameters, so the two loss trajectories and the
final parameters are independent results that must agree.

PULP-TrainLib's online-learning setting: one sample (``Model.sample``), batch 1, N steps.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from isasim.config import ClusterConfig
from trainlib import golden
from trainlib.choices import ChoiceTable
from trainlib.driver import run_config
from trainlib.errors import ModelError
from trainlib.layers import Add, Flatten, Sigmoid
from trainlib.model import Model, Params
from trainlib.step import StepRun, run_spec
from trainlib.workflow import ModelPlan, Work, plan_model


@dataclass
class StepStat:
    """One simulated step run, as the tables and the benchmark show it."""

    layer: str
    step: str
    cycles: int
    macs: int
    categories: np.ndarray            # cycles per category, summed over cores
    phases: dict[str, int]
    kernel: str | None
    plan: str

    @property
    def mac_per_cycle(self) -> float:
        return self.macs / self.cycles if self.cycles else 0.0


@dataclass
class TrainResult:
    losses: list[float] = field(default_factory=list)
    golden_losses: list[float] = field(default_factory=list)
    params: Params = field(default_factory=dict)
    golden_params: Params = field(default_factory=dict)
    stats: list[list[StepStat]] = field(default_factory=list)   # per training step
    plan: ModelPlan | None = None
    last_runs: list[StepRun] = field(default_factory=list)       # runs of the last step
    last_inputs: list[dict[str, np.ndarray]] = field(default_factory=list)  # and their inputs

    def cycles_per_step(self) -> list[int]:
        return [sum(s.cycles for s in step) for step in self.stats]

    def macs_per_step(self) -> int:
        return sum(s.macs for s in self.stats[0]) if self.stats else 0


def _stat(run: StepRun, name: str, step: str, plan: str) -> StepStat:
    return StepStat(name, step, run.cycles, run.macs, run.result.categories.sum(axis=0),
                    dict(run.phases), run.kernel, plan)


def _grad(model: Model, grads: dict[int, np.ndarray], i: int) -> np.ndarray:
    """Gradient of activation i: computed, or (Flatten, Add) the next one seen as this shape."""
    if i in grads:
        return grads[i]
    la = model.layers[i]
    if not isinstance(la, Flatten | Add):
        raise KeyError(f"gradient of the input of layer {la.name} was never computed")
    return _grad(model, grads, i + 1).reshape(model.shapes()[i])


def _inputs(model: Model, w: Work, acts: list, grads: dict, params: Params,
            target: np.ndarray, converted: dict) -> dict[str, np.ndarray]:
    """The named inputs of a work item from the training state (``converted``: the tensors a
    convert work item gave in another format, by (layer index, what))."""
    if w.kind == "loss":
        return {"y": acts[-1], "target": target}
    la = model.layers[w.layer]
    i = w.layer
    p = params.get(la.name, {})
    x = converted.get((i, "x"), acts[i])
    if w.kind == "convert":
        if w.param == "x":
            return {"x": acts[i]}
        if w.param == "skip":
            return {"x": acts[model.index(la.skip) + 1]}
        return {"x": _grad(model, grads, i + 1)}           # dy, dskip: the output gradient
    if w.kind == "fw":
        d = {"x": x, **p}
        if isinstance(la, Add):
            d["skip"] = converted.get((i, "skip"), acts[model.index(la.skip) + 1])
        return d
    if w.kind == "wg":
        return {"x": x, "dy": _grad(model, grads, i + 1)}
    if w.kind == "ig":
        d = {"dy": _grad(model, grads, i + 1), **p}
        if isinstance(la, Sigmoid):
            d["y"] = acts[i + 1]
        else:
            d["x"] = x
        return d
    if w.kind == "skip":
        src = model.index(la.skip)
        return {"dy": _grad(model, grads, src + 1),
                "dskip": converted.get((i, "dskip"), _grad(model, grads, i + 1))}
    raise ValueError(w.kind)


def simulated_step(model: Model, plan: ModelPlan, params: Params, x: np.ndarray,
                   target: np.ndarray, cores: int, cfg: ClusterConfig,
                   masters: Params | None = None
                   ) -> tuple[float, Params, list[StepRun], list[dict[str, np.ndarray]]]:
    """One training step on the simulator: (loss, new parameters, the runs, their inputs).

    ``masters``: the fp32 master copies of the 16-bit layers' parameters (master weights),
    updated in place."""
    shapes = model.shapes()
    acts: list[np.ndarray] = [x]
    grads: dict[int, np.ndarray] = {}
    converted: dict[tuple[int, str], np.ndarray] = {}
    pgrads: dict[str, dict[str, np.ndarray]] = {}
    new_params = {k: dict(v) for k, v in params.items()}
    runs: list[StepRun] = []
    inputs: list[dict[str, np.ndarray]] = []
    loss = float("nan")

    def views_up_to(i: int) -> None:                # Flatten outputs: the same memory
        while len(acts) < i + 1:
            acts.append(acts[-1].reshape(shapes[len(acts)]))

    for w, spec, sp in plan.steps:
        if w.kind == "fw" or (w.kind == "convert" and w.param in ("x", "skip")):
            views_up_to(w.layer)
        elif w.kind == "loss":
            views_up_to(len(model.layers))
        la = model.layers[w.layer] if w.layer >= 0 else None
        if w.kind == "update" and "master" in {t.name for t in spec.tensors}:
            data = {"master": masters[la.name][w.param], "g": pgrads[la.name][w.param]}
        elif w.kind == "update":
            data = {"w": new_params[la.name][w.param], "g": pgrads[la.name][w.param]}
        else:
            data = _inputs(model, w, acts, grads, params, target, converted)
        run = run_spec(spec, data, cores=cores, config=cfg, plan=sp)
        runs.append(run)
        inputs.append(data)
        o = run.outputs
        if w.kind == "fw":
            acts.append(o["y"])
        elif w.kind == "convert":
            if w.param == "dy":
                grads[w.layer + 1] = o["y"].reshape(shapes[w.layer + 1])
            else:
                converted[(w.layer, w.param)] = o["y"]
        elif w.kind == "loss":
            loss = float(o["loss"].reshape(-1)[0])
            grads[len(model.layers)] = o["dy"]
        elif w.kind == "wg":
            pgrads[la.name] = {k[1:]: v for k, v in o.items()}
        elif w.kind == "ig":
            grads[w.layer] = o["dx"]
        elif w.kind == "skip":
            grads[model.index(la.skip) + 1] = o["dx"]
        elif "master" in o:
            masters[la.name][w.param] = o["master"]
            new_params[la.name][w.param] = o["w"]
        else:
            new_params[la.name][w.param] = o["w"]
    return loss, new_params, runs, inputs


def golden_step(model: Model, params: Params, x: np.ndarray,
                target: np.ndarray) -> tuple[float, Params]:
    """The same training step in the golden model (plain numpy formulas), summing in binary32
    where the simulator's 16-bit kernels do (``golden.train_step``'s ``wide_acc``)."""
    return golden.train_step(model, params, x, target, wide_acc=True)


def train(model: Model, steps: int, *, cores: int = 8, config: str | ClusterConfig = "pulp-open",
          memory: str | None = None, choices: ChoiceTable | None = None,
          on_step: Callable[[int, float, float], None] | None = None) -> TrainResult:
    """Train ``steps`` steps on the simulator and in the golden model, side by side.

    ``on_step(i, loss, golden_loss)`` is called after every step (the CLI prints with it).
    """
    if model.update_bias_only or model.update_channels:
        # the step-by-step runs lower full updates only; the whole-step program has the forms
        raise ModelError("sparse update forms (update = \"bias\", update_channels) are trained "
                         "by the deployed program: trainlib deploy MODEL -o net.elf, then "
                         "isasim run net.elf")
    cfg = run_config(config, cores)
    plan = plan_model(model, cfg, memory, choices)
    x, target = model.sample()
    params = model.initial_params()
    gparams = model.initial_params()
    masters = model.initial_params() if model.master_weights else None
    res = TrainResult(plan=plan)
    for i in range(steps):
        loss, params, runs, inputs = simulated_step(model, plan, params, x, target, cores,
                                                    cfg, masters)
        gloss, gparams = golden_step(model, gparams, x, target)
        res.losses.append(loss)
        res.golden_losses.append(gloss)
        res.stats.append([_stat(r, *w.key(model), sp.describe())
                          for r, (w, _, sp) in zip(runs, plan.steps, strict=True)])
        res.last_runs, res.last_inputs = runs, inputs
        if on_step:
            on_step(i, loss, gloss)
    if masters is not None:        # the trained parameters are the masters where there are
        params = {k: dict(v, **masters.get(k, {})) if model.precision_of(k) != "fp32" else v
                  for k, v in params.items()}
    res.params, res.golden_params = params, gparams
    return res
