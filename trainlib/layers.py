"""Layer descriptions: what each layer is, what shape it makes, what its steps cost.

A layer here is plain data (no tensors, no simulator): its hyper-parameters, the output shape it
gives for an input shape, the shapes of its parameters, and the multiply-accumulates of each of
its three training steps (forward ``fw``, weight gradient ``wg``, input gradient ``ig``).  How a
step becomes kernel calls lives in ``trainlib.lowering``; its reference values in
``trainlib.golden``.  Keeping the description separate lets the model checker, the planner, the
golden model and the lowering agree on one set of shapes.

Tensors are CHW, batch size 1, fp32.  Layers that see a (C, H, W) input and need a vector
(Linear) accept any shape with the right number of elements: CHW memory is already flat.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import ClassVar

from trainlib.errors import ModelError, checked

Shape = tuple[int, ...]
STEPS = ("fw", "wg", "ig")


def _pair(v: int | list[int] | tuple[int, ...], what: str, layer: str) -> tuple[int, int]:
    """(h, w) from one int or a pair, so model files can say ``kernel = 3``."""
    if isinstance(v, int) and not isinstance(v, bool):
        return (v, v)
    if isinstance(v, list | tuple) and len(v) == 2 and all(isinstance(x, int) for x in v):
        return (int(v[0]), int(v[1]))
    raise ModelError(f"layer {layer}: {what} must be an integer or a pair [h, w], got {v!r}")


@dataclass(frozen=True)
class Layer:
    """Base: a named layer; subclasses set ``kind`` and the shape rules."""

    name: str
    kind: ClassVar[str] = ""
    has_params: ClassVar[bool] = False

    def out_shape(self, s: Shape) -> Shape:
        raise NotImplementedError

    def params(self, s: Shape) -> dict[str, Shape]:
        """Parameter tensors by name (``weight``, ``bias``); empty for parameter-free layers."""
        return {}

    def macs(self, s: Shape, step: str) -> int:
        """Useful multiply-accumulates of ``step`` (0 for element-wise layers)."""
        return 0

    def signature(self, s: Shape) -> str:
        """Kind, hyper-parameters and input shape: what a kernel choice was tuned for."""
        hp = " ".join(f"{f.name}={getattr(self, f.name)}" for f in fields(self)
                      if f.name != "name")
        return f"{self.kind} in={'x'.join(map(str, s))} {hp}".strip()

    def _err(self, msg: str) -> ModelError:
        return ModelError(f"layer {self.name} ({self.kind}): {msg}")

    def _chw(self, s: Shape) -> tuple[int, int, int]:
        if len(s) != 3:
            raise self._err(f"needs a (C, H, W) input, got shape {s}")
        return s[0], s[1], s[2]


@dataclass(frozen=True)
class Linear(Layer):
    in_features: int = 0
    out_features: int = 0
    bias: bool = True
    kind: ClassVar[str] = "linear"
    has_params: ClassVar[bool] = True

    def out_shape(self, s: Shape) -> Shape:
        if math.prod(s) != self.in_features:
            raise self._err(f"in_features is {self.in_features} but the input {s} has "
                            f"{math.prod(s)} elements")
        return (self.out_features,)

    def params(self, s: Shape) -> dict[str, Shape]:
        p = {"weight": (self.out_features, self.in_features)}
        if self.bias:
            p["bias"] = (self.out_features,)
        return p

    def macs(self, s: Shape, step: str) -> int:
        return self.in_features * self.out_features


@dataclass(frozen=True)
class Conv2D(Layer):
    in_channels: int = 0
    out_channels: int = 0
    kernel: tuple[int, int] = (3, 3)
    stride: tuple[int, int] = (1, 1)
    padding: tuple[int, int] = (0, 0)
    bias: bool = True
    kind: ClassVar[str] = "conv2d"
    has_params: ClassVar[bool] = True

    def out_shape(self, s: Shape) -> Shape:
        c, h, w = self._chw(s)
        if c != self.in_channels:
            raise self._err(f"in_channels is {self.in_channels} but the input has {c} channels")
        return (self.out_channels, *_conv_out(self, h, w))

    def params(self, s: Shape) -> dict[str, Shape]:
        p = {"weight": (self.out_channels, self.in_channels, *self.kernel)}
        if self.bias:
            p["bias"] = (self.out_channels,)
        return p

    def macs(self, s: Shape, step: str) -> int:
        _, ho, wo = self.out_shape(s)
        return self.out_channels * self.in_channels * self.kernel[0] * self.kernel[1] * ho * wo


@dataclass(frozen=True)
class PointWise(Layer):
    in_channels: int = 0
    out_channels: int = 0
    bias: bool = False
    kind: ClassVar[str] = "pointwise"
    has_params: ClassVar[bool] = True

    def out_shape(self, s: Shape) -> Shape:
        c, h, w = self._chw(s)
        if c != self.in_channels:
            raise self._err(f"in_channels is {self.in_channels} but the input has {c} channels")
        return (self.out_channels, h, w)

    def params(self, s: Shape) -> dict[str, Shape]:
        p = {"weight": (self.out_channels, self.in_channels)}
        if self.bias:
            p["bias"] = (self.out_channels,)
        return p

    def macs(self, s: Shape, step: str) -> int:
        return self.out_channels * self.in_channels * s[1] * s[2]


@dataclass(frozen=True)
class DepthWise(Layer):
    channels: int = 0
    kernel: tuple[int, int] = (3, 3)
    stride: tuple[int, int] = (1, 1)
    padding: tuple[int, int] = (0, 0)
    kind: ClassVar[str] = "depthwise"
    has_params: ClassVar[bool] = True

    def out_shape(self, s: Shape) -> Shape:
        c, h, w = self._chw(s)
        if c != self.channels:
            raise self._err(f"channels is {self.channels} but the input has {c} channels")
        return (c, *_conv_out(self, h, w))

    def params(self, s: Shape) -> dict[str, Shape]:
        return {"weight": (self.channels, 1, *self.kernel)}

    def macs(self, s: Shape, step: str) -> int:
        _, ho, wo = self.out_shape(s)
        return self.channels * self.kernel[0] * self.kernel[1] * ho * wo


def _conv_out(layer: Conv2D | DepthWise, h: int, w: int) -> tuple[int, int]:
    (kh, kw), (sh, sw), (ph, pw) = layer.kernel, layer.stride, layer.padding
    if min(kh, kw, sh, sw) < 1 or min(ph, pw) < 0:
        raise layer._err("kernel and stride must be >= 1 and padding >= 0")
    if ph >= kh or pw >= kw:
        raise layer._err(f"padding {layer.padding} must be smaller than the kernel "
                         f"{layer.kernel}")
    ho = (h + 2 * ph - kh) // sh + 1
    wo = (w + 2 * pw - kw) // sw + 1
    if ho < 1 or wo < 1:
        raise layer._err(f"kernel {layer.kernel} does not fit the {h}x{w} input "
                         f"(padding {layer.padding})")
    return ho, wo


@dataclass(frozen=True)
class _Elementwise(Layer):
    """Same shape in and out; no parameters, no MACs."""

    def out_shape(self, s: Shape) -> Shape:
        return s


@dataclass(frozen=True)
class ReLU(_Elementwise):
    kind: ClassVar[str] = "relu"


@dataclass(frozen=True)
class LeakyReLU(_Elementwise):
    negative_slope: float = 0.01
    kind: ClassVar[str] = "leakyrelu"


@dataclass(frozen=True)
class Sigmoid(_Elementwise):
    kind: ClassVar[str] = "sigmoid"


@dataclass(frozen=True)
class Flatten(Layer):
    """A view: no step runs (CHW memory is already the flat vector)."""

    kind: ClassVar[str] = "flatten"

    def out_shape(self, s: Shape) -> Shape:
        return (math.prod(s),)


@dataclass(frozen=True)
class Add(_Elementwise):
    """Residual connection: output = input + output of the earlier layer ``skip``."""

    skip: str = ""
    kind: ClassVar[str] = "add"


@dataclass(frozen=True)
class _Pool(Layer):
    kernel: tuple[int, int] = (2, 2)
    stride: tuple[int, int] = (2, 2)

    def out_shape(self, s: Shape) -> Shape:
        c, h, w = self._chw(s)
        (kh, kw), (sh, sw) = self.kernel, self.stride
        if min(kh, kw, sh, sw) < 1:
            raise self._err("kernel and stride must be >= 1")
        if kh > h or kw > w:
            raise self._err(f"kernel {self.kernel} is larger than the {h}x{w} input")
        return (c, (h - kh) // sh + 1, (w - kw) // sw + 1)


@dataclass(frozen=True)
class MaxPool(_Pool):
    kind: ClassVar[str] = "maxpool"


@dataclass(frozen=True)
class AvgPool(_Pool):
    kind: ClassVar[str] = "avgpool"


LAYER_TYPES: dict[str, type[Layer]] = {
    cls.kind: cls for cls in (Linear, Conv2D, PointWise, DepthWise, ReLU, LeakyReLU, Sigmoid,
                              Flatten, Add, MaxPool, AvgPool)
}
PAIR_FIELDS = ("kernel", "stride", "padding")


def update_channel_count(channels: int, frac: float) -> int:
    """Output channels a sparse update ``update_channels = frac`` updates: the first
    ceil(frac * channels), at least one."""
    return max(1, min(channels, math.ceil(frac * channels - 1e-9)))


def layer_from_dict(spec: dict, index: int) -> Layer:
    """Build a layer from a model-file table; errors name the layer (or its position)."""
    spec = dict(spec)
    kind = spec.pop("type", None)
    checked(kind, "str", f"layer {index}: type")
    name = checked(spec.pop("name", None) or f"{kind}{index}", "str", f"layer {index}: name")
    if kind not in LAYER_TYPES:
        raise ModelError(f"layer {name}: unknown layer type {kind!r}; known: "
                         f"{', '.join(sorted(LAYER_TYPES))}")
    cls = LAYER_TYPES[kind]
    known = {f.name for f in fields(cls)} - {"name"}
    unknown = set(spec) - known
    if unknown:
        raise ModelError(f"layer {name} ({kind}): unknown setting(s) "
                         f"{', '.join(sorted(unknown))}; known: {', '.join(sorted(known))}")
    if issubclass(cls, _Pool) and "stride" not in spec and "kernel" in spec:
        spec["stride"] = spec["kernel"]          # PyTorch's default: non-overlapping windows
    for f in PAIR_FIELDS:
        if f in spec:
            spec[f] = tuple(checked(list(_pair(spec[f], f, name)), "ints", f"layer {name}: {f}",
                                    f))
    kinds = {"int": "int", "bool": "bool", "float": "number", "str": "str"}
    for f in fields(cls):
        if f.name in spec and f.type in kinds:
            checked(spec[f.name], kinds[f.type], f"layer {name}: {f.name}", f.name)
    for f in ("in_features", "out_features", "in_channels", "out_channels", "channels"):
        if f in known and spec.get(f, 0) < 1:
            raise ModelError(f"layer {name} ({kind}): {f} must be a positive integer")
    return cls(name=name, **spec)


def layer_to_dict(layer: Layer) -> dict:
    """The model-file table of a layer (inverse of ``layer_from_dict``)."""
    out: dict = {"type": layer.kind, "name": layer.name}
    for f in fields(layer):
        if f.name != "name":
            v = getattr(layer, f.name)
            out[f.name] = list(v) if isinstance(v, tuple) else v
    return out
