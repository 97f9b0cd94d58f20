"""What one training step of a model runs, in order, and the memory plan of all of it.

``work_list`` is the sequence PULP-TrainLib's deployer generates: every forward step, the loss,
then backward from the last layer down to the first updated one (weight gradient only for
updated layers, input gradient only while an updated layer lies further back; a residual's two
gradients are summed when the backward reaches the skip's source), then one SGD update per
parameter tensor of each updated layer.  Flatten is a view, and an Add's input gradient is its
output gradient, so neither runs anything.

``plan_model`` builds every step's spec (with the model's kernel choices) and plans it:
``memory = "tcdm"`` keeps every tensor of the model resident in TCDM (refused, with the bytes
missing, if the model's tensors plus the largest step's scratch do not fit); ``"l2"`` homes
every tensor in L2 and streams each step through TCDM in tiles; ``"auto"`` takes ``tcdm`` when
it fits.  A tensor's home is the same for every step, so passing tensors between the separate
step runs through the host moves no data the device would have had to move.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from isasim.config import ClusterConfig
from trainlib.choices import ChoiceTable
from trainlib.errors import ModelError, NotAvailable, PlanError
from trainlib.layers import Add, Flatten
from trainlib.lowering import (
    StepSpec,
    cross_entropy_loss,
    layer_step,
    mse_loss,
    sgd,
    unavailable,
)
from trainlib.model import Model
from trainlib.planner import StepPlan, aligned, measure, plan_step, tcdm_budget
from trainlib.schedule import Tiling


@dataclass(frozen=True)
class Work:
    kind: str              # fw | loss | wg | ig | skip | update
    layer: int = -1        # layer index (skip: the Add layer; loss: -1)
    param: str = ""        # update: weight | bias

    def key(self, model: Model) -> tuple[str, str]:
        """(layer name, step name) as shown in tables and choice tables."""
        if self.kind == "loss":
            return (model.loss, "loss")
        name = model.layers[self.layer].name
        return (name, f"update.{self.param}" if self.kind == "update" else self.kind)


def work_list(model: Model) -> list[Work]:
    """The steps of one training step, in order; every path that runs a model (train, deploy,
    tune, plan) starts here, so a model the lowering cannot run is refused here."""
    sixteen = sorted(p for p in model.precisions if p != "fp32")
    if sixteen:
        layers = [la.name for la in model.layers if model.precision_of(la.name) != "fp32"]
        raise ModelError(f"model {model.name}: precision {', '.join(sixteen)} (layer(s) "
                         f"{', '.join(layers)}) has no kernels in the lowering yet (16-bit "
                         "kernels and conversions between precisions): only fp32 layers run "
                         "on the simulator; trainlib.golden.train(model, steps) computes the "
                         "model in its precisions")
    layers = model.layers
    n = len(layers)
    first = model.first_updated
    updated = set(model.updated)
    out = [Work("fw", i) for i, la in enumerate(layers) if not isinstance(la, Flatten)]
    out.append(Work("loss"))
    for i in range(n - 1, first - 1, -1):
        la = layers[i]
        out += [Work("skip", a) for a, add in enumerate(layers)
                if isinstance(add, Add) and add.skip == la.name]
        if la.name in updated:
            out.append(Work("wg", i))
        if i > first and not isinstance(la, Flatten | Add):
            out.append(Work("ig", i))
    shapes = model.shapes()
    for i, la in enumerate(layers):
        if la.name in updated:
            out += [Work("update", i, p) for p in la.params(shapes[i])]
    return out


def build_spec(model: Model, w: Work, cores: int, choices: ChoiceTable | None = None
               ) -> StepSpec:
    """The step spec of one work item, with the model's (or the given) kernel choice."""
    shapes = model.shapes()
    if w.kind == "loss":
        fn = mse_loss if model.loss == "mse" else cross_entropy_loss
        return fn(model.loss, shapes[-1], cores)
    la = model.layers[w.layer]
    s = shapes[w.layer]
    if w.kind == "update":
        p = la.params(s)[w.param]
        spec = sgd(la.name, p, model.lr, model.weight_decay)
        spec.step = f"update.{w.param}"
        return spec
    if w.kind == "skip":
        return layer_step(la, s, "skip")
    c = (choices or model.choices).get(la.name, w.kind)
    return layer_step(la, s, w.kind, c.kernel if c else None)


@dataclass
class ModelPlan:
    memory: str                          # tcdm | l2
    steps: list[tuple[Work, StepSpec, StepPlan]]
    tensor_bytes: int                    # every tensor of the model (activations, gradients,
                                         # parameters and their gradients, target)
    tcdm_peak: int                       # largest TCDM use of any step
    l2_bytes: int                        # tensors homed in L2
    budget: int

    def describe(self, model: Model) -> list[str]:
        where = ("all tensors resident in TCDM" if self.memory == "tcdm" else
                 "tensors in L2, steps streamed through TCDM")
        lines = [f"memory: {where}; model tensors {self.tensor_bytes} B; TCDM peak "
                 f"{self.tcdm_peak} of {self.budget} B; L2 {self.l2_bytes} B"]
        for w, _, p in self.steps:
            name, step = w.key(model)
            lines.append(f"  {name:>12} {step:<14} {p.describe()}")
        return lines


def model_tensor_bytes(model: Model) -> int:
    """Bytes of every tensor a training step keeps: activations, gradients, parameters."""
    shapes = model.shapes()
    acts = [s for i, s in enumerate(shapes)
            if i == 0 or not isinstance(model.layers[i - 1], Flatten)]
    total = sum(aligned(4 * int(np.prod(s))) for s in acts)               # activations
    total += sum(aligned(4 * int(np.prod(s))) for s in shapes[model.first_updated + 1:])  # grads
    for i, la in enumerate(model.layers):
        for p in la.params(shapes[i]).values():
            total += aligned(4 * int(np.prod(p))) * (2 if la.name in model.updated else 1)
    return total + 2 * aligned(4 * int(np.prod(shapes[-1]))) + aligned(4)    # target, dy, loss


def plan_model(model: Model, cfg: ClusterConfig, memory: str | None = None,
               choices: ChoiceTable | None = None) -> ModelPlan:
    """Specs and plans of every step of a training step; PlanError names what does not fit."""
    memory = memory or model.memory
    budget = tcdm_budget(cfg)
    specs = [(w, build_spec(model, w, cfg.cores, choices)) for w in work_list(model)]
    for w, spec in specs:
        why = unavailable(spec)
        if why:
            name, step = w.key(model)
            raise NotAvailable(f"layer {name} {step}: {why}")
    tensors = model_tensor_bytes(model)
    if tensors > cfg.l2_size:      # before any tiling search, which grows with the sizes
        raise PlanError(f"model {model.name}: its tensors need {tensors} bytes, more than the "
                        f"{cfg.l2_size} bytes of L2 ({tensors - cfg.l2_size} bytes short)")
    extra = 0
    for _, spec in specs:
        tcdm, _ = measure(spec, Tiling("tcdm", spec.extent))
        extra = max(extra, tcdm - sum(aligned(4 * t.size) for t in spec.tensors))
    resident = tensors + extra
    if memory == "auto":
        memory = "tcdm" if resident <= budget else "l2"
    elif memory == "tcdm" and resident > budget:
        raise PlanError(f"model {model.name}: resident in TCDM needs {resident} bytes "
                        f"({tensors} of tensors + {extra} for the largest step's scratch), "
                        f"{budget} available ({resident - budget} bytes short); use memory "
                        f"'l2'")
    ch = choices or model.choices
    steps = []
    for w, spec in specs:
        c = ch.get(model.layers[w.layer].name, w.kind) if w.kind in ("fw", "wg", "ig") else None
        tile = c.tile if c is not None and memory == "l2" else None   # resident: whole steps
        steps.append((w, spec, plan_step(spec, memory, cfg, tile)))
    peak = max(p.tcdm_bytes for _, _, p in steps)
    l2 = tensors if memory == "l2" else 0
    return ModelPlan(memory, steps, tensors, resident if memory == "tcdm" else peak, l2, budget)
