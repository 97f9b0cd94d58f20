"""Layer steps as kernel calls: PULP-TrainLib section B, one function per (layer, step).

A ``StepSpec`` says what a step reads and writes (``TensorUse``: name, full shape, in / out,
and how a tile of the split dimension maps into it), what scratch it needs (im2row buffers,
transposed weights), and which calls compute it: ``prologue()`` once on whole tensors, then
``tile(n)`` for each tile of ``n`` indices of the split dimension.  The same spec runs
untiled with everything in TCDM (one tile covering the whole dimension) or tiled from L2; the
planner picks the tile, ``trainlib.program`` turns the spec and the plan into a driver program.

The split dimension is always one whose tiles are independent (output channels for forward and
weight gradient, input channels for the input gradient, channels for depthwise, elements for
element-wise steps), so a tile never needs a reduction across tiles.

Every call names a catalogue kernel.  The step's main operation (the matmul, the depthwise
product) takes the kernel from the choice; the helpers (im2row, transposes, bias) are fixed:
the bias of a tile of n output channels is ``bias_add`` over its n x HW outputs in place
(HW = 1 for a linear layer), its gradient ``bias_grad`` over the n x HW rows of dY (a linear
layer's is dY itself: ``copy``).
A kernel missing from the catalogue makes the step raise ``NotAvailable`` when it is built:
nothing here computes on the host.

Calls name the kernels written for the separate f registers; a core whose ISA keeps FP values
in the x registers (zfinx, the ``gvsoc-2022`` preset) calls each one's single-register-file
variant instead (``trainlib.driver.core_kernel``, applied to every call of a run).
``unavailable(spec, isa)`` refuses, before any run, a step with a kernel that has no variant
for the ISA's register-file model (the 16-bit depthwise kernels under zfinx).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from asm_kernels.catalogue import catalogue, usable
from trainlib.driver import Call, Ref, core_kernel
from trainlib.errors import ModelError, NotAvailable
from trainlib.formats import element_bytes
from trainlib.layers import (
    Add,
    AvgPool,
    Conv2D,
    DepthWise,
    LeakyReLU,
    Linear,
    MaxPool,
    PointWise,
    ReLU,
    Shape,
    Sigmoid,
    update_channel_count,
)

# PULP-TrainLib's one-size-fits-all defaults (A.4): naive matmul parallel over N, except the
# linear input gradient (N = 1) which is parallel over M; depthwise: the plain mm_dw kernels.
DEFAULT_KERNELS: dict[tuple[str, str], str] = {
    ("linear", "fw"): "mm_naive_n", ("linear", "wg"): "mm_naive_n",
    ("linear", "ig"): "mm_naive_m",
    ("conv2d", "fw"): "mm_naive_n", ("conv2d", "wg"): "mm_naive_n",
    ("conv2d", "ig"): "mm_naive_n",
    ("pointwise", "fw"): "mm_naive_n", ("pointwise", "wg"): "mm_naive_n",
    ("pointwise", "ig"): "mm_naive_n",
    ("depthwise", "fw"): "mm_dw", ("depthwise", "wg"): "mm_dw_in_grad",
    ("depthwise", "ig"): "mm_dw_in_grad",
}


# the ISA of a cluster configured with no ISA string (isasim.config: every PULP extension, the
# separate f registers): what a step is checked for when no preset is named
CLUSTER_ISA = "xpulpv2"


@dataclass(frozen=True)
class Split:
    """Where tile [lo, hi) of the split dimension sits in a tensor.

    ``lines`` runs of ``(hi - lo) * unit`` elements starting at ``l * pitch + lo * unit``:
    one line for a row split (contiguous), several for a column split (a 2-D DMA).
    """

    unit: int
    lines: int = 1
    pitch: int = 0

    def tile_size(self, n: int) -> int:
        return self.lines * n * self.unit


@dataclass(frozen=True)
class TensorUse:
    name: str
    shape: Shape
    role: str                       # "in" | "out" | "inout"
    split: Split | None = None      # None: every tile needs all of it
    fmt: str = "fp32"               # element format (trainlib.formats)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))

    @property
    def element_bytes(self) -> int:
        return element_bytes(self.fmt)

    @property
    def nbytes(self) -> int:
        return self.element_bytes * self.size


@dataclass(frozen=True)
class Scratch:
    """Working memory of a step: ``size(n)`` elements for a tile of n (or fixed if prologue)."""

    name: str
    size: Callable[[int], int]
    prologue: bool = False          # built once before the tiles (sized for the whole dim)
    fmt: str = "fp32"

    @property
    def element_bytes(self) -> int:
        return element_bytes(self.fmt)


@dataclass
class StepSpec:
    layer: str
    step: str                       # fw | wg | ig (or loss, update, skip)
    dim: str                        # name of the split dimension ("Co", "Ci", "C", "n")
    extent: int
    tensors: list[TensorUse]
    tile: Callable[[int], list[Call]]
    prologue: Callable[[], list[Call]] = lambda: []
    scratch: list[Scratch] = field(default_factory=list)
    consts: dict[str, np.ndarray] = field(default_factory=dict)
    macs: int = 0
    kernel: str | None = None       # the main operation's kernel (None: no choice to make)
    precision: str = "fp32"         # the arithmetic of its kernels (fp32 | fp16 | bf16)


# ---- call helpers -----------------------------------------------------------------------------
# Labels of a step's main (tunable) calls: the per-phase cycles of a run are keyed by call label,
# and the autotuner tells the chosen kernel's cycles from the helpers' by these.
MM_LABEL = "mm"
DW_LABEL = "depthwise"
MAIN_LABELS = (MM_LABEL, DW_LABEL)


def _mm(kernel: str, a: Ref, b: Ref, c: Ref, n: int, m: int, k: int, trans_b: int = 0,
        acc: int = 0) -> Call:
    return Call(kernel, dict(A=a, B=b, C=c, N=n, M=m, K=k, trans_B=trans_b, accumulate=acc),
                MM_LABEL)


def _dw(kernel: str, a: Ref, b: Ref, c: Ref, n: int, m: int, k: int, ker: int) -> Call:
    return Call(kernel, dict(A=a, B=b, C=c, N=n, M=m, K=k, ker_size=ker), DW_LABEL)


def _im2row(kernel: str, src: Ref, buf: Ref, c: int, hs: int, ws: int, layer,
            hout: int, wout: int) -> Call:
    (kh, kw), (sh, sw), (ph, pw) = layer.kernel, layer.stride, layer.padding
    return Call(kernel, dict(src=src, buf=buf, C=c, Hs=hs, Ws=ws, Hk=kh, Wk=kw, Hout=hout,
                             Wout=wout, stride_h=sh, stride_w=sw, pad_top=ph, pad_left=pw),
                kernel)


def reads_untransposed_b(kernel: str) -> bool:
    """Whether matmul ``kernel`` takes B as K x M (``trans_B == 0``); the packed-SIMD 16-bit
    kernels read only M x K rows, pairs along K in one word."""
    return catalogue()[kernel].violated(
        {"N": 2, "M": 2, "K": 2, "trans_B": 0, "accumulate": 0}) is None


def _ew(kernel: str, label: str, **args) -> Call:
    return Call(kernel, args, label)


def _bias_add(n: int, hw: int) -> Call:
    """y[c][p] += bias[c] for the tile's n output channels of hw positions each."""
    return Call("bias_add", dict(y=Ref("y"), b=Ref("bias"), C=n, HW=hw), "bias")


def _bias_grad(n: int, hw: int) -> Call:
    """dbias[c] = sum_p dy[c][p] for the tile's n output channels."""
    return Call("bias_grad", dict(dy=Ref("dy"), db=Ref("dbias"), C=n, HW=hw), "bias")


R = Ref


def main_family(kind: str, precision: str = "fp32") -> str:
    """The family of a step's main kernel: matmul or depthwise, with the 16-bit suffix."""
    base = "depthwise" if kind == "depthwise" else "matmul"
    return base if precision == "fp32" else f"{base}_{precision}"


def check_kernel(layer, step: str, name: str, precision: str = "fp32") -> None:
    """Refuse a main kernel that cannot compute this step (wrong family or precision), naming
    the layer."""
    cat = catalogue()
    if name not in cat:
        raise NotAvailable(f"layer {layer.name} {step}: kernel {name!r} is not in the "
                           f"asm_kernels catalogue")
    fam = cat[name].family
    want = main_family(layer.kind, precision)
    if fam != want:
        raise ModelError(f"layer {layer.name} {step}: kernel {name} is a {fam} kernel; this "
                         f"step ({precision}) needs a {want} kernel")
    if isinstance(layer, DepthWise):
        flipped = "in_grad" in name
        if flipped != (step in ("wg", "ig")):
            need = "an mm_dw_in_grad* (flipped)" if step != "fw" else "a plain mm_dw*"
            raise ModelError(f"layer {layer.name} {step}: kernel {name} does not fit; "
                             f"this step needs {need} kernel")


# ---- per-layer lowerings ------------------------------------------------------------------------
def linear(layer: Linear, s: Shape, step: str, k: str) -> StepSpec:
    ci, co = layer.in_features, layer.out_features
    macs = layer.macs(s, step)
    if step == "fw":
        ts = [TensorUse("x", (ci,), "in"), TensorUse("weight", (co, ci), "in", Split(ci)),
              TensorUse("y", (co,), "out", Split(1))]
        if layer.bias:
            ts.insert(2, TensorUse("bias", (co,), "in", Split(1)))

        def tile(n: int) -> list[Call]:
            calls = [_mm(k, R("weight"), R("x"), R("y"), n, 1, ci)]
            if layer.bias:
                calls.append(_bias_add(n, 1))
            return calls
        return StepSpec(layer.name, step, "Co", co, ts, tile, macs=macs, kernel=k)
    if step == "wg":
        ts = [TensorUse("x", (ci,), "in"), TensorUse("dy", (co,), "in", Split(1)),
              TensorUse("dweight", (co, ci), "out", Split(ci))]
        if layer.bias:
            ts.append(TensorUse("dbias", (co,), "out", Split(1)))

        def tile(n: int) -> list[Call]:
            calls = [_mm(k, R("dy"), R("x"), R("dweight"), n, ci, 1)]
            if layer.bias:
                calls.append(_ew("copy", "bias", src=R("dy"), dst=R("dbias"), n=n))
            return calls
        return StepSpec(layer.name, step, "Co", co, ts, tile, macs=macs, kernel=k)
    ts = [TensorUse("dy", (co,), "in"), TensorUse("weight", (co, ci), "in", Split(1, co, ci)),
          TensorUse("dx", s, "out", Split(1))]
    return StepSpec(layer.name, step, "Ci", ci, ts,
                    lambda n: [_mm(k, R("dy"), R("weight"), R("dx"), 1, n, co)],
                    macs=macs, kernel=k)


def conv2d(layer: Conv2D, s: Shape, step: str, k: str) -> StepSpec:
    ci, h, w = s
    co, ho, wo = layer.out_shape(s)
    kk = layer.kernel[0] * layer.kernel[1]
    hw, howo, cikk = h * w, ho * wo, ci * kk
    macs = layer.macs(s, step)
    wshape = (co, ci, *layer.kernel)

    def im2row_of_x() -> list[Call]:
        """Forward and weight gradient both multiply by the im2row rows of the whole input."""
        return [_im2row("im2row", R("x"), R("i2r"), ci, h, w, layer, ho, wo)]

    if step == "fw":
        ts = [TensorUse("x", s, "in"), TensorUse("weight", wshape, "in", Split(cikk)),
              TensorUse("y", (co, ho, wo), "out", Split(howo))]
        if layer.bias:
            ts.insert(2, TensorUse("bias", (co,), "in", Split(1)))

        def tile(n: int) -> list[Call]:
            calls = [_mm(k, R("weight"), R("i2r"), R("y"), n, howo, cikk, trans_b=1)]
            if layer.bias:
                calls.append(_bias_add(n, howo))
            return calls
        return StepSpec(layer.name, step, "Co", co, ts, tile, prologue=im2row_of_x,
                        scratch=[Scratch("i2r", lambda n: howo * cikk, prologue=True)],
                        macs=macs, kernel=k)
    if step == "wg":
        ts = [TensorUse("x", s, "in"), TensorUse("dy", (co, ho, wo), "in", Split(howo)),
              TensorUse("dweight", wshape, "out", Split(cikk))]
        if layer.bias:
            ts.append(TensorUse("dbias", (co,), "out", Split(1)))
        # B = the im2row rows (K x M), or their transpose written directly (im2col) for a
        # kernel that reads B only transposed; with K odd such a kernel reads rows padded to
        # K + 1, built through a transpose of the K x M rows anyway (trainlib.precision)
        col = int(not reads_untransposed_b(k) and howo % 2 == 0)

        def tile(n: int) -> list[Call]:
            calls = [_mm(k, R("dy"), R("i2r"), R("dweight"), n, cikk, howo, trans_b=col)]
            if layer.bias:
                calls.append(_bias_grad(n, howo))
            return calls
        return StepSpec(layer.name, step, "Co", co, ts, tile,
                        prologue=lambda: [_im2row(("im2row", "im2col")[col], R("x"), R("i2r"),
                                                  ci, h, w, layer, ho, wo)],
                        scratch=[Scratch("i2r", lambda n: howo * cikk, prologue=True)],
                        macs=macs, kernel=k)
    ts = [TensorUse("dy", (co, ho, wo), "in"),
          TensorUse("weight", wshape, "in", Split(kk, co, cikk)),
          TensorUse("dx", s, "out", Split(hw))]

    def tile(n: int) -> list[Call]:
        return [Call("blocktranspose", dict(W=R("weight"), bt=R("bt"), Co=co, Ci=n, HkWk=kk),
                     "blocktranspose"),
                _mm(k, R("bt"), R("i2r"), R("dx"), n, hw, co * kk, trans_b=1)]
    return StepSpec(
        layer.name, step, "Ci", ci, ts, tile,
        prologue=lambda: [_im2row("im2row_ig", R("dy"), R("i2r"), co, ho, wo, layer, h, w)],
        scratch=[Scratch("i2r", lambda n: hw * co * kk, prologue=True),
                 Scratch("bt", lambda n: n * co * kk)],
        macs=macs, kernel=k)


def pointwise(layer: PointWise, s: Shape, step: str, k: str) -> StepSpec:
    ci, h, w = s
    co = layer.out_channels
    hw = h * w
    macs = layer.macs(s, step)
    if step == "fw":
        ts = [TensorUse("x", s, "in"), TensorUse("weight", (co, ci), "in", Split(ci)),
              TensorUse("y", (co, h, w), "out", Split(hw))]
        if layer.bias:
            ts.insert(2, TensorUse("bias", (co,), "in", Split(1)))

        def tile(n: int) -> list[Call]:
            calls = [_mm(k, R("weight"), R("x"), R("y"), n, hw, ci)]
            if layer.bias:
                calls.append(_bias_add(n, hw))
            return calls
        return StepSpec(layer.name, step, "Co", co, ts, tile, macs=macs, kernel=k)
    if step == "wg":
        ts = [TensorUse("x", s, "in"), TensorUse("dy", (co, h, w), "in", Split(hw)),
              TensorUse("dweight", (co, ci), "out", Split(ci))]
        if layer.bias:
            ts.append(TensorUse("dbias", (co,), "out", Split(1)))

        def tile(n: int) -> list[Call]:
            calls = [_mm(k, R("dy"), R("x"), R("dweight"), n, ci, hw, trans_b=1)]
            if layer.bias:
                calls.append(_bias_grad(n, hw))
            return calls
        return StepSpec(layer.name, step, "Co", co, ts, tile, macs=macs, kernel=k)
    ts = [TensorUse("dy", (co, h, w), "in"),
          TensorUse("weight", (co, ci), "in", Split(1, co, ci)),
          TensorUse("dx", s, "out", Split(hw))]

    def tile(n: int) -> list[Call]:
        return [Call("transpose", dict(src=R("weight"), dst=R("wt"), R=co, C=n), "transpose"),
                _mm(k, R("wt"), R("dy"), R("dx"), n, hw, co)]
    return StepSpec(layer.name, step, "Ci", ci, ts, tile,
                    scratch=[Scratch("wt", lambda n: n * co)], macs=macs, kernel=k)


def depthwise(layer: DepthWise, s: Shape, step: str, k: str) -> StepSpec:
    c, h, w = s
    _, ho, wo = layer.out_shape(s)
    kk = layer.kernel[0] * layer.kernel[1]
    hw, howo = h * w, ho * wo
    macs = layer.macs(s, step)
    wshape = (c, 1, *layer.kernel)
    if step == "fw":
        ts = [TensorUse("x", s, "in", Split(hw)), TensorUse("weight", wshape, "in", Split(kk)),
              TensorUse("y", (c, ho, wo), "out", Split(howo))]

        def tile(n: int) -> list[Call]:
            return [_im2row("im2row", R("x"), R("i2r"), n, h, w, layer, ho, wo),
                    _dw(k, R("weight"), R("i2r"), R("y"), n, howo, n * kk, kk)]
        return StepSpec(layer.name, step, "C", c, ts, tile,
                        scratch=[Scratch("i2r", lambda n: howo * n * kk)], macs=macs, kernel=k)
    if step == "wg":
        # im2row gives [p][c][kk]; transpose -> [c][kk][p]; blocktranspose -> [kk][c][p
        # reversed]; the flipped (in_grad) product with dY then sums dY[c][p] x[c][kk, p].
        ts = [TensorUse("x", s, "in", Split(hw)), TensorUse("dy", (c, ho, wo), "in", Split(howo)),
              TensorUse("dweight", wshape, "out", Split(kk))]

        def tile(n: int) -> list[Call]:
            return [_im2row("im2row", R("x"), R("i2r"), n, h, w, layer, ho, wo),
                    Call("transpose", dict(src=R("i2r"), dst=R("t"), R=howo, C=n * kk),
                         "transpose"),
                    Call("blocktranspose", dict(W=R("t"), bt=R("i2r"), Co=n, Ci=kk, HkWk=howo),
                         "blocktranspose"),
                    _dw(k, R("dy"), R("i2r"), R("dweight"), n, kk, n * howo, howo)]
        return StepSpec(layer.name, step, "C", c, ts, tile,
                        scratch=[Scratch("i2r", lambda n: howo * n * kk),
                                 Scratch("t", lambda n: howo * n * kk)], macs=macs, kernel=k)
    ts = [TensorUse("dy", (c, ho, wo), "in", Split(howo)),
          TensorUse("weight", wshape, "in", Split(kk)),
          TensorUse("dx", s, "out", Split(hw))]

    def tile(n: int) -> list[Call]:
        return [_im2row("im2row_ig", R("dy"), R("i2r"), n, ho, wo, layer, h, w),
                _dw(k, R("weight"), R("i2r"), R("dx"), n, hw, n * kk, kk)]
    return StepSpec(layer.name, step, "C", c, ts, tile,
                    scratch=[Scratch("i2r", lambda n: hw * n * kk)], macs=macs, kernel=k)


def elementwise(layer, s: Shape, step: str) -> StepSpec:
    """Activations and the residual add: one kernel over the flat tensor, split by elements."""
    size = int(np.prod(s))
    sp = Split(1)
    if isinstance(layer, ReLU | LeakyReLU):
        kind = "relu" if isinstance(layer, ReLU) else "leakyrelu"
        extra = {} if isinstance(layer, ReLU) else {"slope": layer.negative_slope}
        if step == "fw":
            ts = [TensorUse("x", s, "in", sp), TensorUse("y", s, "out", sp)]
            return StepSpec(layer.name, step, "n", size, ts,
                            lambda n: [_ew(f"{kind}_fw", kind, x=R("x"), y=R("y"), n=n,
                                           **extra)])
        ts = [TensorUse("x", s, "in", sp), TensorUse("dy", s, "in", sp),
              TensorUse("dx", s, "out", sp)]
        return StepSpec(layer.name, step, "n", size, ts,
                        lambda n: [_ew(f"{kind}_bw", kind, x=R("x"), dy=R("dy"), dx=R("dx"), n=n,
                                       **extra)])
    if isinstance(layer, Sigmoid):
        return sigmoid(layer, s, step)
    if isinstance(layer, Add):
        # fw: y = x + skip; "skip" step: the two gradients meeting at the skip source, summed
        a, b, o = ("x", "skip", "y") if step == "fw" else ("dy", "dskip", "dx")
        ts = [TensorUse(a, s, "in", sp), TensorUse(b, s, "in", sp), TensorUse(o, s, "out", sp)]
        return StepSpec(layer.name, step, "n", size, ts,
                        lambda n: [_ew("add", "add", a=R(a), b=R(b), out=R(o), n=n)])
    raise TypeError(layer.kind)


def sigmoid(layer: Sigmoid, s: Shape, step: str) -> StepSpec:
    """Sigmoid: y = 1/(1 + exp(-x)) forward, dx = dy * y * (1 - y) backward (from y)."""
    size = int(np.prod(s))
    sp = Split(1)
    if step == "fw":
        ts = [TensorUse("x", s, "in", sp), TensorUse("y", s, "out", sp)]
        return StepSpec(layer.name, step, "n", size, ts,
                        lambda n: [_ew("sigmoid_fw", "sigmoid", x=R("x"), y=R("y"), n=n)])
    ts = [TensorUse("y", s, "in", sp), TensorUse("dy", s, "in", sp),
          TensorUse("dx", s, "out", sp)]
    return StepSpec(layer.name, step, "n", size, ts,
                    lambda n: [_ew("sigmoid_bw", "sigmoid", y=R("y"), dy=R("dy"), dx=R("dx"),
                                   n=n)])


def pool(layer: MaxPool | AvgPool, s: Shape, step: str) -> StepSpec:
    """Pooling (no padding), split over channels (windows never cross channels)."""
    c, h, w = s
    _, ho, wo = layer.out_shape(s)
    (kh, kw), (sh, sw) = layer.kernel, layer.stride
    kind = "maxpool" if isinstance(layer, MaxPool) else "avgpool"
    geo = dict(H=h, W=w, Hk=kh, Wk=kw, Ho=ho, Wo=wo, stride_h=sh, stride_w=sw, pad_top=0,
               pad_left=0)
    x = TensorUse("x", s, "in", Split(h * w))
    dy = TensorUse("dy", (c, ho, wo), "in", Split(ho * wo))
    if step == "fw":
        ts = [x, TensorUse("y", (c, ho, wo), "out", Split(ho * wo))]
        return StepSpec(layer.name, step, "C", c, ts,
                        lambda n: [_ew(f"{kind}_fw", kind, x=R("x"), y=R("y"), C=n, **geo)])
    dx = TensorUse("dx", s, "out", Split(h * w))
    if kind == "maxpool":                   # the argmax is recomputed from x
        return StepSpec(layer.name, step, "C", c, [x, dy, dx],
                        lambda n: [_ew("maxpool_bw", kind, x=R("x"), dy=R("dy"), dx=R("dx"),
                                       C=n, **geo)])
    return StepSpec(layer.name, step, "C", c, [dy, dx],
                    lambda n: [_ew("avgpool_bw", kind, dy=R("dy"), dx=R("dx"), C=n, **geo)])


def mse_loss(name: str, s: Shape, cores: int) -> StepSpec:
    """Per-core partial sums of (y - t)^2, one core reduces them (x 1/n); dy = 2/n (y - t)."""
    size = int(np.prod(s))
    ts = [TensorUse("y", s, "in"), TensorUse("target", s, "in"), TensorUse("dy", s, "out"),
          TensorUse("loss", (1,), "out")]

    def tile(n: int) -> list[Call]:
        return [_ew("mse_partial", "loss", y=R("y"), t=R("target"), partial=R("partial"),
                    n=size),
                _ew("reduce_sum", "loss", partial=R("partial"), out=R("loss"), count=cores,
                    scale=1.0 / size),
                _ew("mse_grad", "loss grad", y=R("y"), t=R("target"), dy=R("dy"), n=size)]
    return StepSpec(name, "loss", "all", 1, ts, tile,
                    scratch=[Scratch("partial", lambda n: cores)])


def cross_entropy_loss(name: str, s: Shape, cores: int) -> StepSpec:
    """Per-core (max, sum exp, sum t, sum t z) partials, a stable one-core combine, the gradient.

    ``loss`` holds ce_combine's [loss, max, sum exp, sum target]; the loss is its first word.
    """
    size = int(np.prod(s))
    ts = [TensorUse("y", s, "in"), TensorUse("target", s, "in"), TensorUse("dy", s, "out"),
          TensorUse("loss", (4,), "out")]

    def tile(n: int) -> list[Call]:
        return [_ew("ce_partial", "loss", z=R("y"), y=R("target"), partial=R("partial"),
                    n=size),
                _ew("ce_combine", "loss", partial=R("partial"), out=R("loss"), count=cores),
                _ew("ce_grad", "loss grad", z=R("y"), y=R("target"), dz=R("dy"), n=size,
                    stats=R("loss"))]
    return StepSpec(name, "loss", "all", 1, ts, tile,
                    scratch=[Scratch("partial", lambda n: 4 * cores)])


def sgd(name: str, s: Shape, lr: float, weight_decay: float) -> StepSpec:
    """g += wd * w; w -= lr * g, in place, split by elements (PULP-TrainLib B.11)."""
    sp = Split(1)
    ts = [TensorUse("w", s, "inout", sp), TensorUse("g", s, "in", sp)]
    return StepSpec(name, "update", "n", int(np.prod(s)), ts,
                    lambda n: [_ew("sgd_update", "sgd", w=R("w"), g=R("g"), n=n, lr=lr,
                                   weight_decay=weight_decay)])


def layer_step(layer, s: Shape, step: str, kernel: str | None = None,
               precision: str = "fp32") -> StepSpec:
    """The spec of ``step`` of ``layer`` on input shape ``s`` (main kernel: choice or default)
    computing in ``precision`` (16-bit: ``trainlib.precision.in_precision``)."""
    if precision != "fp32":
        from trainlib.precision import default_kernel, in_precision
        if isinstance(layer, Linear | Conv2D | PointWise | DepthWise):
            kernel = kernel or default_kernel(DEFAULT_KERNELS[(layer.kind, step)], precision)
        return in_precision(_fp32_structure(layer, s, step, kernel, precision), precision)
    return _fp32_structure(layer, s, step, kernel, precision)


def _fp32_structure(layer, s: Shape, step: str, kernel: str | None, precision: str
                    ) -> StepSpec:
    if isinstance(layer, Linear | Conv2D | PointWise | DepthWise):
        k = kernel or DEFAULT_KERNELS[(layer.kind, step)]
        check_kernel(layer, step, k, precision)
        fn = {Linear: linear, Conv2D: conv2d, PointWise: pointwise, DepthWise: depthwise}
        return fn[type(layer)](layer, s, step, k)
    if kernel is not None:
        raise ModelError(f"layer {layer.name} {step}: a {layer.kind} step has no kernel choice")
    if step == "wg":
        raise ModelError(f"layer {layer.name} ({layer.kind}) has no weight gradient")
    if isinstance(layer, MaxPool | AvgPool):
        return pool(layer, s, step)
    return elementwise(layer, s, step)


def unavailable(spec: StepSpec, isa: str = CLUSTER_ISA) -> str | None:
    """Why the step cannot run on a core of ``isa`` with the catalogue as it is (a missing
    kernel, one with no variant for the ISA's register-file model, or a kernel constraint its
    shapes break, checked on the untiled calls), or None."""
    cat = catalogue()
    try:
        calls = spec.prologue() + spec.tile(spec.extent)
    except NotAvailable as e:
        return str(e)
    for c in calls:
        if c.kernel not in cat:
            return f"kernel {c.kernel} ({c.label}) is not in the asm_kernels catalogue"
        try:
            core_kernel(c.kernel, isa, c.label)
        except NotAvailable as e:
            return str(e)
        values = {k: v for k, v in c.args.items() if not isinstance(v, Ref)}
        why = cat[c.kernel].violated(values)
        if why:
            return f"kernel {c.kernel} ({c.label}) refuses these shapes: {why!r} is false"
    return None


def kernel_candidates(layer, step: str, precision: str = "fp32", isa: str = CLUSTER_ISA
                      ) -> list[str]:
    """Every catalogue kernel that can be the main kernel of ``step`` in ``precision`` on a
    core of ``isa`` (for the autotuner: an fp16 layer tunes among the fp16 kernels, a zfinx
    core among the kernels written for its single register file)."""
    if not isinstance(layer, Linear | Conv2D | PointWise | DepthWise):
        return []
    out = []
    for name in sorted(n for n, k in catalogue().items() if usable(k, isa)):
        try:
            check_kernel(layer, step, name, precision)
        except (ModelError, NotAvailable):
            continue
        out.append(name)
    return out


def fused_update(wg: StepSpec, updates: dict[str, StepSpec]) -> StepSpec:
    """A weight gradient whose update is applied tile by tile, in place (the reordered update
    of Tiny Training Engine / PockEngine): each tile's gradient lives in a scratch buffer, the
    same tile of the parameter is updated from it at once, and the whole gradient tensor never
    exists.  The parameter becomes an in-out tensor with the gradient's split.

    ``updates`` maps each parameter (``weight``, ``bias``) to the spec of its separate update
    step (tensors ``w`` and ``g``, and ``master`` for an fp32 master copy, split by
    elements): its calls for a tile's elements run on the tile, so the numbers are the
    separate step's.  The weight gradient's outputs (``dweight``, ``dbias``) are contiguous
    runs of the split dimension (one line), so a gradient tile and the parameter tile it
    updates are the same ``n * unit`` elements; a master copy is split the same way
    (``master_weight``), and so is any scratch buffer of the update's own.
    """
    grads = [t for t in wg.tensors if t.role == "out"]
    tensors = [t for t in wg.tensors if t.role != "out"]
    scratch = list(wg.scratch)
    for g in grads:
        if g.split is not None and g.split.lines != 1:
            raise ModelError(f"layer {wg.layer}: {g.name} is not split in contiguous runs; "
                             f"its update cannot be fused")
        p, upd, size = g.name[1:], updates[g.name[1:]], _tile_elements(g)
        tensors.append(TensorUse(p, g.shape, "inout", g.split, g.fmt))
        tensors += [TensorUse(f"{t.name}_{p}", g.shape, t.role, g.split, t.fmt)
                    for t in upd.tensors if t.name not in ("w", "g")]
        scratch.append(Scratch(g.name, size, fmt=g.fmt))
        scratch += [Scratch(f"{s.name}_{p}", lambda n, s=s, size=size: s.size(size(n)),
                            fmt=s.fmt) for s in upd.scratch]

    def tile(n: int) -> list[Call]:
        calls = wg.tile(n)
        for g in grads:
            p, upd = g.name[1:], updates[g.name[1:]]
            names = {t.name: f"{t.name}_{p}" for t in upd.tensors} | {
                s.name: f"{s.name}_{p}" for s in upd.scratch} | {"w": p, "g": g.name}
            calls += renamed(upd.tile(_tile_elements(g)(n)), names)
        return calls
    return dataclasses.replace(wg, step="wg+update", tensors=tensors, tile=tile,
                               scratch=scratch, consts=dict(wg.consts))


def renamed(calls: list[Call], names: Mapping[str, str],
            shifts: Mapping[str, int] | None = None) -> list[Call]:
    """The calls with buffer names replaced (``names``) and offsets moved (``shifts``)."""
    shifts = shifts or {}
    out = []
    for c in calls:
        args = {k: Ref(names.get(v.buf, v.buf), v.offset + shifts.get(v.buf, 0))
                if isinstance(v, Ref) else v for k, v in c.args.items()}
        out.append(Call(c.kernel, args, c.label))
    return out


def _tile_elements(t: TensorUse) -> Callable[[int], int]:
    """Elements of ``t`` a tile of n indices covers (all of it when it is not split)."""
    if t.split is None:
        return lambda n: t.size
    sp = t.split
    return lambda n: sp.tile_size(n)


def sparse_weight_grad(layer, s: Shape, spec: StepSpec, mode: str, frac: float) -> StepSpec:
    """The weight gradient of a sparse update form, from the full one (``spec``), in its
    precision.

    ``mode == "bias"``: only the bias gradient (``bias_grad`` over dY, a linear layer's is dY
    itself).  Otherwise the gradient of the first ``k`` output channels: the same lowering on
    the layer narrowed to k output channels, whose dY (and, for depthwise, x) is the first k
    channels of the full tensor, a prefix of its memory.  ``k`` is ``update_channel_count``.
    """
    prec = spec.precision
    if mode == "bias":
        co = layer.out_features if isinstance(layer, Linear) else layer.out_channels
        out_s = layer.out_shape(s)
        hw = int(np.prod(out_s)) // co
        ts = [TensorUse("dy", out_s, "in", Split(hw)), TensorUse("dbias", (co,), "out", Split(1))]
        if isinstance(layer, Linear):
            bias = StepSpec(layer.name, "wg", "Co", co, ts,
                            lambda n: [_ew("copy", "bias", src=R("dy"), dst=R("dbias"), n=n)])
        else:
            bias = StepSpec(layer.name, "wg", "Co", co, ts, lambda n: [_bias_grad(n, hw)])
        if prec == "fp32":
            return bias
        from trainlib.precision import in_precision
        return in_precision(bias, prec)
    if isinstance(layer, DepthWise):
        k = update_channel_count(layer.channels, frac)
        return layer_step(dataclasses.replace(layer, channels=k), (k, *s[1:]), "wg",
                          spec.kernel, prec)
    field_name = "out_features" if isinstance(layer, Linear) else "out_channels"
    k = update_channel_count(getattr(layer, field_name), frac)
    return layer_step(dataclasses.replace(layer, **{field_name: k}), s, "wg", spec.kernel, prec)
