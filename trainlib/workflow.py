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

Precision: every layer step computes in its layer's precision (``Model.precision_of``), the
loss in the last layer's, and a tensor passed between two precisions is converted on the
device by a ``convert`` work item placed where the golden model rounds it (``golden.train_step``):
a layer's input when it arrives in another format (``x``; an Add's ``skip`` operand), and on
the way back the output gradient a layer (an Add or Flatten included) receives from a layer of
another precision (``dy``; a residual's ``dskip`` summed at its source).  The model's input and
target are given in the format of the first and the last layer.  With ``master_weights`` the
update of a 16-bit layer is SGD on an fp32 master copy, the 16-bit weights rounded from it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from isasim.config import ClusterConfig
from trainlib.choices import ChoiceTable
from trainlib.errors import NotAvailable, PlanError
from trainlib.formats import element_bytes
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
from trainlib.precision import check_isa, convert_spec, in_precision, master_update
from trainlib.schedule import Tiling


@dataclass(frozen=True)
class Work:
    kind: str              # fw | loss | wg | ig | skip | update | convert
    layer: int = -1        # layer index (skip: the Add layer; loss: -1)
    param: str = ""        # update: weight | bias; convert: x | skip | dy | dskip
    src: str = ""          # convert: from this format ...
    dst: str = ""          # ... to this one

    def key(self, model: Model) -> tuple[str, str]:
        """(layer name, step name) as shown in tables and choice tables."""
        if self.kind == "loss":
            return (model.loss, "loss")
        name = model.layers[self.layer].name
        if self.kind == "convert":
            return (name, f"convert.{self.param}")
        return (name, f"update.{self.param}" if self.kind == "update" else self.kind)


def work_list(model: Model) -> list[Work]:
    """The steps of one training step, in order (conversions between precisions included);
    every path that runs a model (train, deploy, tune, plan) starts here."""
    layers = model.layers
    prec = [model.precision_of(la.name) for la in layers]
    n = len(layers)
    first = model.first_updated
    updated = set(model.updated)
    out: list[Work] = []

    def convert(i: int, what: str, src: str, dst: str) -> None:
        if src != dst:
            out.append(Work("convert", i, what, src, dst))

    for i, la in enumerate(layers):
        convert(i, "x", prec[i - 1] if i else prec[0], prec[i])
        if isinstance(la, Add):
            convert(i, "skip", prec[model.index(la.skip)], prec[i])
        if not isinstance(la, Flatten):
            out.append(Work("fw", i))
    out.append(Work("loss"))
    grad = prec[-1]                      # the format of the gradient arriving at layer i
    for i in range(n - 1, first - 1, -1):
        la = layers[i]
        for a, add in enumerate(layers):
            if isinstance(add, Add) and add.skip == la.name:
                convert(i, "dy", grad, prec[i])
                convert(a, "dskip", prec[a], prec[i])
                grad = prec[i]
                out.append(Work("skip", a))
        convert(i, "dy", grad, prec[i])
        grad = prec[i]
        if la.name in updated:
            out.append(Work("wg", i))
        if i > first and not isinstance(la, Flatten | Add):
            out.append(Work("ig", i))
    shapes = model.shapes()
    for i, la in enumerate(layers):
        if la.name in updated:
            out += [Work("update", i, p) for p in la.params(shapes[i])]
    return out


def convert_shape(model: Model, w: Work) -> tuple[int, ...]:
    """The shape of the tensor a convert work item converts."""
    shapes = model.shapes()
    la = model.layers[w.layer]
    if w.param == "x":
        return shapes[w.layer]
    if w.param == "skip":
        return shapes[model.index(la.skip) + 1]
    return shapes[w.layer + 1]                       # dy, dskip: the layer's output gradient


def build_spec(model: Model, w: Work, cores: int, choices: ChoiceTable | None = None
               ) -> StepSpec:
    """The step spec of one work item, with the model's (or the given) kernel choice."""
    shapes = model.shapes()
    if w.kind == "loss":
        fn = mse_loss if model.loss == "mse" else cross_entropy_loss
        spec = fn(model.loss, shapes[-1], cores)
        last = model.precision_of(model.layers[-1].name)
        return spec if last == "fp32" else in_precision(spec, last)
    la = model.layers[w.layer]
    s = shapes[w.layer]
    prec = model.precision_of(la.name)
    if w.kind == "convert":
        return convert_spec(la.name, f"convert.{w.param}", convert_shape(model, w), w.src,
                            w.dst)
    if w.kind == "update":
        return update_spec(model, la.name, w.param, la.params(s)[w.param])
    if w.kind == "skip":
        return layer_step(la, s, "skip", precision=prec_of_skip(model, w))
    c = (choices or model.choices).get(la.name, w.kind)
    return layer_step(la, s, w.kind, c.kernel if c else None, prec)


def update_spec(model: Model, layer: str, param: str, shape: tuple[int, ...]) -> StepSpec:
    """The SGD update of ``param`` of ``layer`` over ``shape`` (the whole parameter, or the
    prefix a sparse form updates) in the layer's precision: on the fp32 master copy with
    ``master_weights``."""
    return sgd_spec(layer, param, shape, model.precision_of(layer), model.master_weights,
                    model.lr, model.weight_decay)


def sgd_spec(layer: str, param: str, shape: tuple[int, ...], precision: str,
             master_weights: bool, lr: float, weight_decay: float) -> StepSpec:
    """The SGD update of one parameter tensor: in ``precision``, or on its fp32 master copy
    (a 16-bit layer with ``master_weights``); the autotuner builds it from these alone."""
    if precision != "fp32" and master_weights:
        spec = master_update(layer, shape, precision, lr, weight_decay)
    else:
        spec = sgd(layer, shape, lr, weight_decay)
        spec = spec if precision == "fp32" else in_precision(spec, precision)
    spec.step = f"update.{param}"
    return spec


def prec_of_skip(model: Model, w: Work) -> str:
    """A residual's two gradients are summed in the precision of the skip's source layer (the
    layer whose output gradient the sum is, as ``golden.train_step`` does)."""
    return model.precision_of(model.layers[w.layer].skip)


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
    """Bytes of every tensor a training step keeps: activations, gradients, parameters (and
    fp32 master copies), converted copies, each in its element format."""
    shapes = model.shapes()
    prec = [model.precision_of(la.name) for la in model.layers]
    fmt = [prec[0]] + prec                               # activation i is layer i-1's output

    def b(shape, f: str) -> int:
        return aligned(element_bytes(f) * int(np.prod(shape)))
    acts = [i for i in range(len(shapes))
            if i == 0 or not isinstance(model.layers[i - 1], Flatten)]
    total = sum(b(shapes[i], fmt[i]) for i in acts)                      # activations
    total += sum(b(shapes[i], fmt[i]) for i in range(model.first_updated + 1, len(shapes)))
    for i, la in enumerate(model.layers):
        up = la.name in model.updated
        for p in la.params(shapes[i]).values():
            total += b(p, prec[i]) * (2 if up else 1)
            if up and prec[i] != "fp32" and model.master_weights:
                total += b(p, "fp32")
    total += sum(b(convert_shape(model, w), w.dst) for w in work_list(model)
                 if w.kind == "convert")
    return total + 2 * b(shapes[-1], prec[-1]) + aligned(4 * 4)          # target, dy, loss


def plan_model(model: Model, cfg: ClusterConfig, memory: str | None = None,
               choices: ChoiceTable | None = None) -> ModelPlan:
    """Specs and plans of every step of a training step; PlanError names what does not fit."""
    memory = memory or model.memory
    check_isa(model, cfg.xpulp)
    budget = tcdm_budget(cfg)
    specs = []
    for w in work_list(model):              # the first step that cannot run, in step order
        name, step = w.key(model)
        try:
            spec = build_spec(model, w, cfg.cores, choices)
        except NotAvailable as e:
            raise NotAvailable(f"layer {name} {step}: {e}") from None
        why = unavailable(spec, cfg.xpulp)
        if why:
            raise NotAvailable(f"layer {name} {step}: {why}")
        specs.append((w, spec))
    tensors = model_tensor_bytes(model)
    if tensors > cfg.l2_size:      # before any tiling search, which grows with the sizes
        raise PlanError(f"model {model.name}: its tensors need {tensors} bytes, more than the "
                        f"{cfg.l2_size} bytes of L2 ({tensors - cfg.l2_size} bytes short)")
    extra = 0
    for _, spec in specs:
        tcdm, _ = measure(spec, Tiling("tcdm", spec.extent))
        extra = max(extra, tcdm - sum(aligned(t.nbytes) for t in spec.tensors))
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
        c = ch.get(*w.key(model)) if w.kind in ("fw", "wg", "ig", "update") else None
        tile = c.tile if c is not None and memory == "l2" else None   # resident: whole steps
        steps.append((w, spec, plan_step(spec, memory, cfg, tile)))
    peak = max(p.tcdm_bytes for _, _, p in steps)
    l2 = tensors if memory == "l2" else 0
    return ModelPlan(memory, steps, tensors, resident if memory == "tcdm" else peak, l2, budget)
