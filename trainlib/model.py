"""Model descriptions: TOML files, a Python API, and import of a ``torch.nn.Sequential``.

A model is an input shape, a list of layers (``trainlib.layers``), a loss, SGD settings, the
set of layers that are updated (sparse update: frozen layers skip their weight gradient, and
the backward pass stops at the first updated layer), the memory mode, and optionally a choice
table.  File format (see ``examples/*.toml``)::

    [model]
    name = "tiny"
    input = [3, 8, 8]            # C, H, W (or [n] for a vector)
    loss = "mse"                 # mse | cross_entropy
    target = "ones"              # ones | class:<k> (one-hot) | random
    seed = 0                     # initial parameters and the input sample
    memory = "auto"              # auto | tcdm (all resident) | l2 (streamed, DMA tiles)
    update = ["conv1", "fc"]     # optional: updated layers (default: all with parameters)
    precision = "fp32"           # fp32 | fp16 (IEEE binary16) | bf16 (bfloat16); also per layer
    master_weights = false       # 16-bit layers: SGD on an fp32 master copy of the weights

    [optimizer]
    lr = 0.01
    weight_decay = 0.0

    [[layer]]
    type = "conv2d"              # linear conv2d pointwise depthwise relu leakyrelu sigmoid
    name = "conv1"               #   maxpool avgpool flatten add
    in_channels = 3
    out_channels = 4
    kernel = 3                   # or [kh, kw]; same for stride and padding
    update = false               # per-layer alternative to [model].update (layers with
                                 #   parameters and no flag are updated); "bias": only the
                                 #   bias is updated (no weight gradient)
    update_channels = 0.25       # optional: only the first quarter of the output channels
                                 #   is updated (a sliced weight gradient)

    [[choice]]                   # optional, the choice-table format (trainlib.choices)
    layer = "conv1"
    step = "fw"
    kernel = "mm_2x4_n"

Every error names the layer (and the file), so a user can fix the file from one line.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from isasim.config import read_toml
from trainlib.choices import ChoiceTable, toml_value
from trainlib.errors import ModelError, checked
from trainlib.layers import (
    Add,
    AvgPool,
    Conv2D,
    DepthWise,
    Flatten,
    Layer,
    LeakyReLU,
    Linear,
    MaxPool,
    PointWise,
    ReLU,
    Shape,
    Sigmoid,
    layer_from_dict,
    layer_to_dict,
)

LOSSES = ("mse", "cross_entropy")
MEMORIES = ("auto", "tcdm", "l2")
PRECISIONS = ("fp32", "fp16", "bf16")     # IEEE binary32, IEEE binary16, bfloat16
# the keys of [model] and [optimizer] and the kind of value each takes (errors.checked)
MODEL_KEYS = {"name": "str", "input": "ints", "loss": "str", "target": "str", "seed": "int",
              "memory": "str", "update": "strs", "precision": "str", "master_weights": "bool"}
OPT_KEYS = {"type": "str", "lr": "number", "weight_decay": "number"}

Params = dict[str, dict[str, np.ndarray]]


@dataclass
class Model:
    input_shape: Shape
    layers: list[Layer]
    name: str = "model"
    loss: str = "mse"
    target: str = "ones"
    lr: float = 0.01
    weight_decay: float = 0.0
    update: set[str] | None = None          # None: every layer with parameters
    seed: int = 0
    memory: str = "auto"
    choices: ChoiceTable = field(default_factory=ChoiceTable)
    params: Params | None = None            # initial parameters (None: drawn from ``seed``)
    update_bias_only: set[str] = field(default_factory=set)     # sparse: bias-only layers
    update_channels: dict[str, float] = field(default_factory=dict)  # sparse: channel fraction
    precision: str = "fp32"                 # the arithmetic of every layer without its own
    layer_precision: dict[str, str] = field(default_factory=dict)   # per-layer overrides
    master_weights: bool = False            # 16-bit layers update an fp32 master copy

    def __post_init__(self) -> None:
        self.input_shape = tuple(int(v) for v in self.input_shape)
        self.validate()

    # ---- structure ----------------------------------------------------------------------------
    def shapes(self) -> list[Shape]:
        """Input shape of every layer, then the output shape (validated)."""
        out = [self.input_shape]
        for layer in self.layers:
            out.append(tuple(layer.out_shape(out[-1])))
        return out

    def index(self, name: str) -> int:
        for i, layer in enumerate(self.layers):
            if layer.name == name:
                return i
        raise KeyError(name)

    @property
    def updated(self) -> list[str]:
        if self.update is None:
            return [la.name for la in self.layers if la.has_params]
        return [la.name for la in self.layers if la.name in self.update]

    @property
    def first_updated(self) -> int:
        return min(self.index(n) for n in self.updated)

    def precision_of(self, name: str) -> str:
        """The arithmetic layer ``name`` computes in (its own, else the model's); a Flatten is
        a view and keeps the format of its input (the previous layer's)."""
        i = self.index(name)
        if isinstance(self.layers[i], Flatten) and i > 0:
            return self.precision_of(self.layers[i - 1].name)
        return self.layer_precision.get(name, self.precision)

    @property
    def precisions(self) -> set[str]:
        return {self.precision_of(la.name) for la in self.layers}

    def signatures(self) -> dict[str, str]:
        s = self.shapes()
        return {la.name: la.signature(s[i]) for i, la in enumerate(self.layers)}

    def validate(self) -> None:
        if not self.layers:
            raise ModelError(f"model {self.name}: no layers")
        if any(v < 1 for v in self.input_shape) or len(self.input_shape) not in (1, 3):
            raise ModelError(f"model {self.name}: input must be [C, H, W] or [n] with "
                             f"positive sizes, got {list(self.input_shape)}")
        seen: set[str] = set()
        for la in self.layers:
            if la.name in seen:
                raise ModelError(f"layer {la.name}: name used twice")
            seen.add(la.name)
        shapes = self.shapes()
        for i, la in enumerate(self.layers):
            if isinstance(la, Add):
                if la.skip not in seen or self.index(la.skip) >= i:
                    raise ModelError(f"layer {la.name} (add): skip must name an earlier layer, "
                                     f"got {la.skip!r}")
                src = shapes[self.index(la.skip) + 1]
                if src != shapes[i]:
                    raise ModelError(f"layer {la.name} (add): its input {shapes[i]} and the "
                                     f"output of {la.skip} {src} differ in shape")
        if self.loss not in LOSSES:
            raise ModelError(f"model {self.name}: loss must be one of {', '.join(LOSSES)}, "
                             f"not {self.loss!r}")
        if self.memory not in MEMORIES:
            raise ModelError(f"model {self.name}: memory must be one of "
                             f"{', '.join(MEMORIES)}, not {self.memory!r}")
        for who, p in [(f"model {self.name}", self.precision)] + [
                (f"layer {n}", p) for n, p in self.layer_precision.items()]:
            if p not in PRECISIONS:
                raise ModelError(f"{who}: precision must be one of {', '.join(PRECISIONS)}, "
                                 f"not {p!r}")
        unknown = set(self.layer_precision) - seen
        if unknown:
            raise ModelError(f"model {self.name}: precision given for unknown layer(s) "
                             f"{', '.join(sorted(unknown))}")
        for n in self.layer_precision:
            if isinstance(self.layers[self.index(n)], Flatten):
                raise ModelError(f"layer {n} (flatten): a view has no precision of its own "
                                 f"(it keeps its input's format)")
        if self.update is not None:
            for n in self.update:
                if n not in seen:
                    raise ModelError(f"model {self.name}: update names unknown layer {n!r}")
                if not self.layers[self.index(n)].has_params:
                    raise ModelError(f"layer {n}: listed in update but has no parameters")
        if not self.updated:
            raise ModelError(f"model {self.name}: no layer is updated (nothing to train)")
        self._check_sparse(shapes)
        self._check_target(shapes[-1])
        self.choices.check_against(self.signatures())

    def _check_sparse(self, shapes: list[Shape]) -> None:
        for n in self.update_bias_only | set(self.update_channels):
            if n not in self.updated:
                raise ModelError(f"layer {n}: a sparse update form is given but the layer is "
                                 f"not updated")
            i = self.index(n)
            if n in self.update_bias_only and "bias" not in self.layers[i].params(shapes[i]):
                raise ModelError(f"layer {n}: update = \"bias\" but the layer has no bias")
        for n, f in self.update_channels.items():
            if n in self.update_bias_only:
                raise ModelError(f"layer {n}: update = \"bias\" and update_channels exclude "
                                 f"each other")
            if isinstance(f, bool) or not isinstance(f, int | float) or not 0 < f <= 1:
                raise ModelError(f"layer {n}: update_channels must be a fraction in (0, 1], "
                                 f"got {f!r}")

    def _check_target(self, out: Shape) -> None:
        t = self.target
        if t in ("ones", "random"):
            return
        if t.startswith("class:") and t[6:].isdigit() and int(t[6:]) < int(np.prod(out)):
            return
        raise ModelError(f"model {self.name}: target must be ones, random or class:<k> with "
                         f"k < {int(np.prod(out))}, not {t!r}")

    # ---- data ---------------------------------------------------------------------------------
    def initial_params(self) -> Params:
        """Given parameters, or uniform(+-1/sqrt(fan_in)) from ``seed`` (PyTorch's default)."""
        if self.params is not None:
            return {k: {n: np.asarray(v, np.float32).copy() for n, v in p.items()}
                    for k, p in self.params.items()}
        rng = np.random.default_rng(self.seed)
        shapes = self.shapes()
        out: Params = {}
        for i, la in enumerate(self.layers):
            ps = la.params(shapes[i])
            if not ps:
                continue
            fan_in = int(np.prod(ps["weight"][1:]))
            bound = 1.0 / np.sqrt(fan_in)
            out[la.name] = {n: rng.uniform(-bound, bound, s).astype(np.float32)
                            for n, s in ps.items()}
        return out

    def sample(self) -> tuple[np.ndarray, np.ndarray]:
        """The one (input, target) pair the model trains on (online learning, batch 1)."""
        rng = np.random.default_rng(self.seed + 1)
        x = rng.uniform(-1.0, 1.0, self.input_shape).astype(np.float32)
        out = self.shapes()[-1]
        if self.target == "ones":
            t = np.ones(out, np.float32)
        elif self.target == "random":
            t = rng.uniform(-1.0, 1.0, out).astype(np.float32)
        else:
            t = np.zeros(int(np.prod(out)), np.float32)
            t[int(self.target[6:])] = 1.0
            t = t.reshape(out)
        return x, t

    # ---- files --------------------------------------------------------------------------------
    @classmethod
    def from_dict(cls, data: dict, where: str = "model") -> Model:
        for table in ("model", "optimizer"):
            if not isinstance(data.get(table, {}), dict):
                raise ModelError(f"{where}: {table} must be a table ([{table}])")
        for array in ("layer", "choice"):
            entries = data.get(array, [])
            if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
                raise ModelError(f"{where}: {array} must be an array of tables ([[{array}]])")
        m = dict(data.get("model", {}))
        unknown = set(m) - MODEL_KEYS.keys()
        if unknown:
            raise ModelError(f"{where}: [model] has unknown key(s) {', '.join(sorted(unknown))}")
        if "input" not in m:
            raise ModelError(f"{where}: [model] needs input = [C, H, W]")
        opt = dict(data.get("optimizer", {}))
        unknown = set(opt) - OPT_KEYS.keys()
        if unknown:
            raise ModelError(f"{where}: [optimizer] has unknown key(s) "
                             f"{', '.join(sorted(unknown))}")
        for table, values, kinds in (("model", m, MODEL_KEYS), ("optimizer", opt, OPT_KEYS)):
            for key, value in values.items():
                checked(value, kinds[key], f"{where}: [{table}] {key}", key)
        if opt.get("type", "sgd") != "sgd":
            raise ModelError(f"{where}: optimizer type {opt['type']!r}: only sgd is available")
        unknown = set(data) - {"model", "optimizer", "layer", "choice"}
        if unknown:
            raise ModelError(f"{where}: unknown table(s) {', '.join(sorted(unknown))}")
        layers, update = [], m.get("update")
        flags: dict[str, bool] = {}
        bias_only: set[str] = set()
        channels: dict[str, float] = {}
        precision: dict[str, str] = {}
        try:
            for i, spec in enumerate(data.get("layer", [])):
                layers.append(_layer(spec, i, flags, bias_only, channels, precision))
        except ModelError as e:
            raise ModelError(f"{where}: {e}") from None
        if update is not None and flags:
            raise ModelError(f"{where}: give update either in [model] or per layer, not both")
        if flags:                           # per-layer flags: parameter layers default to true
            update = [la.name for la in layers if la.has_params and flags.get(la.name, True)]
        choices = ChoiceTable.from_entries(data.get("choice", []), where=where)
        try:
            return cls(input_shape=tuple(m["input"]), layers=layers,
                       name=m.get("name", where), loss=m.get("loss", "mse"),
                       target=m.get("target", "ones"), lr=float(opt.get("lr", 0.01)),
                       weight_decay=float(opt.get("weight_decay", 0.0)),
                       update=set(update) if update is not None else None,
                       seed=int(m.get("seed", 0)), memory=m.get("memory", "auto"),
                       choices=choices, update_bias_only=bias_only, update_channels=channels,
                       precision=m.get("precision", "fp32"), layer_precision=precision,
                       master_weights=bool(m.get("master_weights", False)))
        except ModelError as e:
            raise ModelError(f"{where}: {e}") from None

    @classmethod
    def load(cls, path: str | Path) -> Model:
        p = Path(path)
        data = read_toml(p, ModelError, "model ")
        return cls.from_dict(data, p.name)

    def to_dict(self) -> dict:
        m: dict = {"name": self.name, "input": list(self.input_shape), "loss": self.loss,
                   "target": self.target, "seed": self.seed, "memory": self.memory}
        if self.precision != "fp32":
            m["precision"] = self.precision
        if self.master_weights:
            m["master_weights"] = True
        layers = [layer_to_dict(la) for la in self.layers]
        if self.update_bias_only:           # bias-only is a per-layer flag: give them all so
            for la, t in zip(self.layers, layers, strict=True):
                if la.has_params:
                    t["update"] = ("bias" if la.name in self.update_bias_only else
                                   la.name in self.updated)
        elif self.update is not None:
            m["update"] = self.updated
        for t in layers:
            if t["name"] in self.update_channels:
                t["update_channels"] = self.update_channels[t["name"]]
            if t["name"] in self.layer_precision:
                t["precision"] = self.layer_precision[t["name"]]
        return {"model": m, "optimizer": {"lr": self.lr, "weight_decay": self.weight_decay},
                "layer": layers}

    def dumps(self, choices: ChoiceTable | None = None) -> str:
        """The model file (``to_dict``) as TOML text, with ``choices`` inline."""
        d = self.to_dict()
        lines: list[str] = []
        for table in ("model", "optimizer"):
            lines += [f"[{table}]", *(f"{k} = {toml_value(v)}" for k, v in d[table].items()), ""]
        for la in d["layer"]:
            lines += ["[[layer]]", *(f"{k} = {toml_value(v)}" for k, v in la.items()), ""]
        if choices is not None:                  # its entries; [meta] is not a model table
            entries = type(choices)(dict(choices.entries)).dumps()
            lines += entries.split("\n", 1)[1].lstrip("\n").split("\n")
        return "\n".join(lines)

    # ---- PyTorch ------------------------------------------------------------------------------
    @classmethod
    def from_torch(cls, seq, input_shape: Shape, **kw) -> Model:
        """A model (with its current parameters) from a ``torch.nn.Sequential``.

        Maps Linear, Conv2d (1x1 stride-1 unpadded ones to PointWise, channel-grouped ones to
        DepthWise), ReLU, LeakyReLU, Sigmoid, MaxPool2d, AvgPool2d and Flatten; anything else is
        refused by name.  ``kw`` sets the other Model fields (loss, lr, update, ...).
        """
        import torch.nn as nn

        layers: list[Layer] = []
        params: Params = {}
        for i, (child_name, mod) in enumerate(seq.named_children()):
            name = f"{type(mod).__name__.lower()}{child_name}"
            p: dict[str, np.ndarray] = {}
            if isinstance(mod, nn.Linear):
                layers.append(Linear(name, mod.in_features, mod.out_features,
                                     mod.bias is not None))
            elif isinstance(mod, nn.Conv2d):
                layers.append(_conv_from_torch(mod, name))
            elif isinstance(mod, nn.ReLU):
                layers.append(ReLU(name))
            elif isinstance(mod, nn.LeakyReLU):
                layers.append(LeakyReLU(name, float(mod.negative_slope)))
            elif isinstance(mod, nn.Sigmoid):
                layers.append(Sigmoid(name))
            elif isinstance(mod, nn.MaxPool2d | nn.AvgPool2d):
                k, s = _torch_pair(mod.kernel_size), _torch_pair(mod.stride or mod.kernel_size)
                if _torch_pair(mod.padding) != (0, 0):
                    raise ModelError(f"layer {name}: pooling with padding is not supported")
                cls_ = MaxPool if isinstance(mod, nn.MaxPool2d) else AvgPool
                layers.append(cls_(name, k, s))
            elif isinstance(mod, nn.Flatten):
                layers.append(Flatten(name))
            else:
                raise ModelError(f"layer {i} ({type(mod).__name__}): not supported by trainlib")
            for pname in ("weight", "bias"):
                t = getattr(mod, pname, None)
                if t is not None:
                    p[pname] = t.detach().cpu().numpy().astype(np.float32)
            if p:
                if isinstance(layers[-1], PointWise):
                    p["weight"] = p["weight"].reshape(p["weight"].shape[:2])
                params[name] = p
        return cls(input_shape=tuple(input_shape), layers=layers, params=params, **kw)


def _layer(spec: dict, index: int, flags: dict[str, bool], bias_only: set[str],
           channels: dict[str, float], precision: dict[str, str]) -> Layer:
    """Layer ``index`` of a model file.  Its ``update`` flag, if given, goes to ``flags``; the
    sparse forms go to ``bias_only`` (``update = "bias"``) and ``channels``
    (``update_channels``); its ``precision`` to ``precision``."""
    spec = dict(spec)
    up = spec.pop("update", None)
    frac = spec.pop("update_channels", None)
    prec = spec.pop("precision", None)
    layer = layer_from_dict(spec, index)
    if prec is not None:
        precision[layer.name] = checked(prec, "str", f"layer {layer.name}: precision")
    if frac is not None:
        channels[layer.name] = checked(frac, "number", f"layer {layer.name}: update_channels")
    if up == "bias":
        bias_only.add(layer.name)
        up = True
    if up is not None:
        if not isinstance(up, bool):
            raise ModelError(f"layer {layer.name}: update must be true, false or \"bias\"")
        if not layer.has_params:
            raise ModelError(f"layer {layer.name}: update given but it has no parameters")
        flags[layer.name] = up
    return layer


def _torch_pair(v) -> tuple[int, int]:
    return (v, v) if isinstance(v, int) else (int(v[0]), int(v[1]))


def _conv_from_torch(mod, name: str) -> Layer:
    k, s, p = _torch_pair(mod.kernel_size), _torch_pair(mod.stride), _torch_pair(mod.padding)
    if _torch_pair(mod.dilation) != (1, 1) or mod.padding_mode != "zeros":
        raise ModelError(f"layer {name}: dilated or non-zero-padded convolutions are not "
                         f"supported")
    if mod.groups == 1:
        if k == (1, 1) and s == (1, 1) and p == (0, 0):
            return PointWise(name, mod.in_channels, mod.out_channels, mod.bias is not None)
        return Conv2D(name, mod.in_channels, mod.out_channels, k, s, p, mod.bias is not None)
    if mod.groups == mod.in_channels == mod.out_channels and mod.bias is None:
        return DepthWise(name, mod.in_channels, k, s, p)
    raise ModelError(f"layer {name}: grouped convolution (groups={mod.groups}) is only "
                     f"supported as a bias-free depthwise one")


def load_with_choices(path: str, choices_path: str | None) -> tuple[Model, ChoiceTable | None]:
    """A model file and, when given, a choice table checked against its layer steps (what every
    trainlib command that takes ``--choices`` loads)."""
    model = Model.load(path)
    choices = None
    if choices_path:
        choices = ChoiceTable.load(choices_path)
        choices.check_against(model.signatures())
    return model, choices
