"""The golden model: every training step written as its textbook formula in numpy.

This is what the simulator's results are checked against, so it is written to be obviously
right rather than fast: explicit loops over output pixels and windows, float64 arithmetic, and
a final rounding to float32 (the tensors the device stores).  It shares nothing with the
lowering (no im2col, no transposes, no kernel layouts) so a mistake in one does not hide in the
other.  ``tests/trainlib/test_golden_torch.py`` checks it against ``torch.nn`` when torch is
installed, and ``tests/trainlib/test_golden_jax.py`` against JAX in every format.

Precision (``precision="fp32" | "fp16" | "bf16"`` on every function): fp32 is computed exactly
in float64 and rounded once to float32.  The 16-bit formats compute as a kernel does: every
product and every sum rounded to the accumulation format ``acc`` (the storage format by default;
``acc="fp32"`` is the ``vfdotpex`` kind of kernel, binary16 products summed in binary32), in
reduction order, and each result rounded to the storage format.  Rounding is round-to-nearest-
even done by ``round_to`` on float64 values: one operation on two values of a format with p
significand bits is exact in float64 or, by Figueroa's theorem ("When is double rounding
innocuous?", SIGNUM 1995: 53 >= 2p + 2), rounded twice without error.  Transcendentals (the
sigmoid, the softmax and logarithm of the cross-entropy) are evaluated in float64 and rounded
once.  16-bit results come back as ``numpy.float16`` arrays (fp16) or as float32 arrays holding
bfloat16 values (bf16: numpy has no bfloat16 type; every value is exactly a bfloat16).

Conventions (PyTorch's, which PULP-TrainLib's golden models use): CHW tensors, batch 1;
Linear weight (out, in); Conv2D weight (Co, Ci, Hk, Wk); DepthWise weight (C, 1, Hk, Wk);
PointWise weight (Co, Ci); symmetric zero padding; windows at ``o * stride - pad``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from trainlib.layers import (
    Add,
    AvgPool,
    Conv2D,
    DepthWise,
    Flatten,
    LeakyReLU,
    Linear,
    MaxPool,
    PointWise,
    ReLU,
    Sigmoid,
    update_channel_count,
)

F64 = np.float64


@dataclass(frozen=True)
class Format:
    """An IEEE-style binary format: significand bits (hidden bit included), smallest normal
    exponent, largest finite value, and the numpy type its values are returned in."""

    name: str
    bits: int
    emin: int
    max: float
    dtype: type

    @property
    def eps(self) -> float:
        """The distance from 1 to the next value (2 u, u the unit roundoff)."""
        return 2.0 ** (1 - self.bits)


FORMATS = {
    "fp32": Format("fp32", 24, -126, float(np.finfo(np.float32).max), np.float32),
    "fp16": Format("fp16", 11, -14, 65504.0, np.float16),                  # IEEE binary16
    "bf16": Format("bf16", 8, -126, (2.0 - 2.0 ** -7) * 2.0 ** 127, np.float32),  # bfloat16
}
PRECISIONS = tuple(FORMATS)


def round_to(a, fmt: str) -> np.ndarray:
    """float64 values rounded to nearest-even in ``fmt`` (subnormals, overflow to infinity),
    kept as float64: scale by the value's ulp, ``np.rint`` (ties to even), scale back."""
    f = FORMATS[fmt]
    a = np.asarray(a, dtype=F64)
    with np.errstate(over="ignore", invalid="ignore"):
        _, e = np.frexp(a)                            # |a| in [2^(e-1), 2^e)
        ulp = np.ldexp(1.0, np.maximum(e - 1, f.emin) - f.bits + 1)
        r = np.rint(a / ulp) * ulp
        r = np.where(np.abs(r) > f.max, np.copysign(np.inf, a), r)
    return np.where(np.isfinite(a), r, a)


def tolerance(magnitude: np.ndarray, k: int, precision: str = "fp32",
              acc: str | None = None) -> np.ndarray:
    """Per-element bound on |kernel - golden| for a result that sums ``k`` products, given
    ``magnitude`` = the exact result on the absolute values of the inputs (sum |terms|).

    Both sides round every one of about k + 2 operations (products, sums, bias, final
    rounding) to the accumulation format, in possibly different orders: each is within
    (k + 2) eps_acc sum|terms| of the exact value (Higham, "Accuracy and Stability of Numerical
    Algorithms", 2nd ed., section 3.1), hence twice that apart; the final rounding to storage
    adds eps_storage |result| on each side.  For fp32 this is the bound ``trainlib.step`` uses
    (2 (K + 2) eps)."""
    st = FORMATS[precision]
    ac = FORMATS[acc or precision]
    m = np.abs(np.asarray(magnitude, dtype=F64))
    floor = 1e-30 + st.eps * float(m.max(initial=0.0)) * 1e-3
    extra = 0.0 if ac is st else 2 * st.eps
    return (2 * (k + 2) * ac.eps + extra) * m + floor


@dataclass(frozen=True)
class _Arith:
    """The arithmetic of one precision: rounding of a stored value, of one operation, and the
    reductions written with them."""

    store: str
    acc: str

    @property
    def exact(self) -> bool:
        return self.store == "fp32"

    def rs(self, a) -> np.ndarray:
        """Round to the storage format (the input of a layer, its result)."""
        return np.asarray(a, dtype=F64) if self.exact else round_to(a, self.store)

    def r(self, a) -> np.ndarray:
        """Round one operation's result in the accumulation format."""
        return np.asarray(a, dtype=F64) if self.exact else round_to(a, self.acc)

    def add(self, a, b) -> np.ndarray:
        return self.r(np.asarray(a, dtype=F64) + b)

    def mul(self, a, b) -> np.ndarray:
        return self.r(np.asarray(a, dtype=F64) * b)

    def einsum(self, spec: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """``np.einsum(spec, a, b)``; in 16 bits every product rounded, then summed one term
        at a time over the contracted indices (row-major order), each sum rounded."""
        if self.exact:
            return np.einsum(spec, a, b)
        ins, out = spec.split("->")
        red = "".join(dict.fromkeys(c for c in ins if c.isalpha() and c not in out))
        prods = self.r(np.einsum(f"{ins}->{out}{red}", a, b))
        terms = prods.reshape(prods.shape[:len(out)] + (-1,))
        return self.sum_last(terms)

    def sum_last(self, terms: np.ndarray) -> np.ndarray:
        """Sum over the last axis, one rounded addition per term."""
        if self.exact:
            return terms.sum(axis=-1)
        acc = np.zeros(terms.shape[:-1], dtype=F64)
        for j in range(terms.shape[-1]):
            acc = self.add(acc, terms[..., j])
        return acc

    def out(self, a) -> np.ndarray:
        """The result as the device stores it."""
        return np.asarray(self.rs(a), dtype=FORMATS[self.store].dtype)


def arith(precision: str = "fp32", acc: str | None = None) -> _Arith:
    """The arithmetic of ``precision`` accumulating in ``acc`` (default: the same format)."""
    for what, v in (("precision", precision), ("accumulation format", acc or precision)):
        if v not in FORMATS:
            raise ValueError(f"{what} {v!r}: one of {', '.join(PRECISIONS)}")
    if FORMATS[acc or precision].bits < FORMATS[precision].bits:
        raise ValueError(f"accumulation in {acc} is narrower than the storage {precision}")
    return _Arith(precision, acc or precision)


def _f32(a: np.ndarray) -> np.ndarray:
    return np.asarray(a, dtype=np.float32)


def _pad(x: np.ndarray, ph: int, pw: int) -> np.ndarray:
    c, h, w = x.shape
    out = np.zeros((c, h + 2 * ph, w + 2 * pw), dtype=F64)
    out[:, ph:ph + h, pw:pw + w] = x
    return out


def _windows(layer, out_hw: tuple[int, int]):
    """(ho, wo, rows slice, cols slice) of every output pixel, in the padded input."""
    (kh, kw), (sh, sw) = layer.kernel, layer.stride
    for ho in range(out_hw[0]):
        for wo in range(out_hw[1]):
            yield ho, wo, slice(ho * sh, ho * sh + kh), slice(wo * sw, wo * sw + kw)


# ---- forward --------------------------------------------------------------------------------
def forward(layer, x: np.ndarray, params: dict[str, np.ndarray],
            skip: np.ndarray | None = None, precision: str = "fp32",
            acc: str | None = None) -> np.ndarray:
    """The layer's output for input ``x`` (``skip``: the residual operand of Add).  The
    product is stored before the bias is added (the bias is a kernel of its own): with a
    wider accumulation, rounded to the storage format first."""
    ar = arith(precision, acc)
    x64 = ar.rs(x)
    p = {k: ar.rs(v) for k, v in params.items()}
    if isinstance(layer, Linear):
        y = ar.einsum("oi,i->o", p["weight"], x64.reshape(-1))
        if "bias" in p:
            y = ar.add(ar.rs(y), p["bias"])
        return ar.out(y)
    if isinstance(layer, Conv2D | DepthWise):
        out = layer.out_shape(x.shape)
        xp = _pad(x64, *layer.padding)
        y = np.zeros(out, dtype=F64)
        w = p["weight"]
        for ho, wo, rs, cs in _windows(layer, out[1:]):
            patch = xp[:, rs, cs]                                   # (Ci, Hk, Wk)
            if isinstance(layer, Conv2D):
                y[:, ho, wo] = ar.einsum("oikl,ikl->o", w, patch)
            else:
                y[:, ho, wo] = ar.einsum("ckl,ckl->c", w[:, 0], patch)
        if "bias" in p:
            y = ar.add(ar.rs(y), p["bias"][:, None, None])
        return ar.out(y)
    if isinstance(layer, PointWise):
        y = ar.einsum("oi,ihw->ohw", p["weight"], x64)
        if "bias" in p:
            y = ar.add(ar.rs(y), p["bias"][:, None, None])
        return ar.out(y)
    if isinstance(layer, ReLU):
        return ar.out(np.where(x64 > 0, x64, 0.0))
    if isinstance(layer, LeakyReLU):
        return ar.out(np.where(x64 > 0, x64, ar.mul(ar.rs(layer.negative_slope), x64)))
    if isinstance(layer, Sigmoid):
        return ar.out(1.0 / (1.0 + np.exp(-x64)))
    if isinstance(layer, Flatten):
        return ar.out(x64.reshape(-1))
    if isinstance(layer, Add):
        return ar.out(ar.add(x64, ar.rs(skip)))
    if isinstance(layer, MaxPool | AvgPool):
        out = layer.out_shape(x.shape)
        y = np.zeros(out, dtype=F64)
        for ho, wo, rs, cs in _windows(layer, out[1:]):
            win = x64[:, rs, cs].reshape(out[0], -1)
            y[:, ho, wo] = (win.max(axis=1) if isinstance(layer, MaxPool)
                            else ar.r(ar.sum_last(win) / win.shape[1]))
        return ar.out(y)
    raise TypeError(f"no golden forward for {layer.kind}")


# ---- weight gradient ------------------------------------------------------------------------
def weight_grad(layer, x: np.ndarray, dy: np.ndarray, precision: str = "fp32",
                acc: str | None = None) -> dict[str, np.ndarray]:
    """dL/dparam for every parameter of ``layer``, given its input and output gradient."""
    ar = arith(precision, acc)
    x64 = ar.rs(x)
    dy64 = ar.rs(dy)
    g: dict[str, np.ndarray] = {}
    if isinstance(layer, Linear):
        g["weight"] = ar.mul(dy64.reshape(-1)[:, None], x64.reshape(-1)[None, :])
        if layer.bias:
            g["bias"] = dy64.reshape(-1)
    elif isinstance(layer, Conv2D | DepthWise):
        xp = _pad(x64, *layer.padding)
        w_shape = layer.params(x.shape)["weight"]
        dw = np.zeros(w_shape, dtype=F64)
        for ho, wo, rs, cs in _windows(layer, dy.shape[1:]):
            patch = xp[:, rs, cs]
            if isinstance(layer, Conv2D):
                dw = ar.add(dw, ar.r(np.einsum("o,ikl->oikl", dy64[:, ho, wo], patch)))
            else:
                dw[:, 0] = ar.add(dw[:, 0], ar.mul(dy64[:, ho, wo][:, None, None], patch))
        g["weight"] = dw
        if isinstance(layer, Conv2D) and layer.bias:
            g["bias"] = ar.sum_last(dy64.reshape(dy64.shape[0], -1))
    elif isinstance(layer, PointWise):
        g["weight"] = ar.einsum("ohw,ihw->oi", dy64, x64)
        if layer.bias:
            g["bias"] = ar.sum_last(dy64.reshape(dy64.shape[0], -1))
    else:
        raise TypeError(f"{layer.kind} has no parameters")
    return {k: ar.out(v) for k, v in g.items()}


# ---- input gradient -------------------------------------------------------------------------
def input_grad(layer, x: np.ndarray, dy: np.ndarray, params: dict[str, np.ndarray],
               y: np.ndarray | None = None, precision: str = "fp32",
               acc: str | None = None) -> np.ndarray:
    """dL/dx given the layer's input ``x``, output gradient ``dy`` (and output ``y``)."""
    ar = arith(precision, acc)
    x64 = ar.rs(x)
    dy64 = ar.rs(dy)
    p = {k: ar.rs(v) for k, v in params.items()}
    if isinstance(layer, Linear):
        return ar.out(ar.einsum("o,oi->i", dy64.reshape(-1), p["weight"]).reshape(x.shape))
    if isinstance(layer, Conv2D | DepthWise):
        ph, pw = layer.padding
        c, h, w = x.shape
        dxp = np.zeros((c, h + 2 * ph, w + 2 * pw), dtype=F64)
        wt = p["weight"]
        for ho, wo, rs, cs in _windows(layer, dy.shape[1:]):
            if isinstance(layer, Conv2D):
                dxp[:, rs, cs] = ar.add(dxp[:, rs, cs],
                                        ar.einsum("o,oikl->ikl", dy64[:, ho, wo], wt))
            else:
                dxp[:, rs, cs] = ar.add(dxp[:, rs, cs],
                                        ar.mul(dy64[:, ho, wo][:, None, None], wt[:, 0]))
        return ar.out(dxp[:, ph:ph + h, pw:pw + w])
    if isinstance(layer, PointWise):
        return ar.out(ar.einsum("oi,ohw->ihw", p["weight"], dy64))
    if isinstance(layer, ReLU):
        return ar.out(np.where(x64 > 0, dy64, 0.0))
    if isinstance(layer, LeakyReLU):
        return ar.out(np.where(x64 > 0, dy64, ar.mul(ar.rs(layer.negative_slope), dy64)))
    if isinstance(layer, Sigmoid):
        s = ar.rs(y) if y is not None else ar.rs(1.0 / (1.0 + np.exp(-x64)))
        return ar.out(ar.mul(dy64, ar.mul(s, ar.add(1.0, -s))))
    if isinstance(layer, Flatten | Add):
        return ar.out(dy64.reshape(x.shape))
    if isinstance(layer, AvgPool):
        dx = np.zeros(x.shape, dtype=F64)
        n = layer.kernel[0] * layer.kernel[1]
        for ho, wo, rs, cs in _windows(layer, dy.shape[1:]):
            dx[:, rs, cs] = ar.add(dx[:, rs, cs], ar.r(dy64[:, ho, wo][:, None, None] / n))
        return ar.out(dx)
    if isinstance(layer, MaxPool):
        dx = np.zeros(x.shape, dtype=F64)
        kh, kw = layer.kernel
        for ho, wo, rs, cs in _windows(layer, dy.shape[1:]):
            for ch in range(x.shape[0]):
                win = x64[ch, rs, cs]
                i = int(np.argmax(win))             # the first maximum in row-major order
                at = (ch, rs.start + i // kw, cs.start + i % kw)
                dx[at] = ar.add(dx[at], dy64[ch, ho, wo])
        return ar.out(dx)
    raise TypeError(f"no golden input gradient for {layer.kind}")


# ---- losses and the update --------------------------------------------------------------------
def mse_loss(y: np.ndarray, target: np.ndarray, precision: str = "fp32",
             acc: str | None = None) -> tuple[float, np.ndarray]:
    """mean((y - t)^2) and its gradient 2/n (y - t).  The loss value stays in the
    accumulation format (a binary32 word for the kernels summing in binary32)."""
    ar = arith(precision, acc)
    d = ar.add(ar.rs(y).reshape(-1), -ar.rs(target).reshape(-1))
    n = d.size
    loss = ar.r(ar.sum_last(ar.mul(d, d)) / n)       # kept in the accumulation format
    return float(np.float32(loss)), ar.out(ar.mul(ar.rs(2.0 / n), d)).reshape(np.shape(y))


def cross_entropy_loss(z: np.ndarray, target: np.ndarray, precision: str = "fp32",
                       acc: str | None = None) -> tuple[float, np.ndarray]:
    """-sum t log softmax(z) on raw logits, and its gradient softmax(z) * sum(t) - t."""
    ar = arith(precision, acc)
    z64 = ar.rs(z).reshape(-1)
    t = ar.rs(target).reshape(-1)
    m = z64.max()
    lse = m + np.log(np.exp(z64 - m).sum())
    loss = ar.r(-(t * (z64 - lse)).sum())
    soft = np.exp(z64 - lse)
    return float(np.float32(loss)), ar.out(soft * t.sum() - t).reshape(np.shape(z))


LOSSES = {"mse": mse_loss, "cross_entropy": cross_entropy_loss}


def sgd(w: np.ndarray, g: np.ndarray, lr: float, weight_decay: float, precision: str = "fp32",
        acc: str | None = None) -> np.ndarray:
    """w - lr * (g + weight_decay * w): plain SGD, no momentum (PULP-TrainLib B.11)."""
    ar = arith(precision, acc)
    w64 = ar.rs(w)
    step = ar.add(ar.rs(g), ar.mul(ar.rs(weight_decay), w64))
    return ar.out(ar.add(w64, -ar.mul(ar.rs(lr), step)))


# ---- a whole training step ----------------------------------------------------------------------
def train_step(model, params: dict, x: np.ndarray, target: np.ndarray,
               record: dict | None = None, wide_acc: bool = False) -> tuple[float, dict]:
    """One training step of ``model`` (a ``trainlib.model.Model``): forward, loss, backward to
    the first updated layer, SGD.  Sparse forms: a bias-only layer updates its bias alone; a
    layer with ``update_channels`` updates the first ``update_channel_count`` output channels
    of each parameter and leaves the rest (weight decay included) untouched.

    Each layer computes in its precision (``model.precision_of``): a tensor passed between
    layers of different precisions is converted (rounded) to the receiving layer's format; the
    loss computes in the last layer's precision; with ``model.master_weights`` the update is
    SGD in fp32 on fp32 master parameters.  ``record``, when given, receives the activations
    (``"acts"``) and the output gradient each layer received (``"grads"``, by layer index).

    ``wide_acc``: the 16-bit layers with parameters and the loss sum in binary32 (``acc =
    "fp32"``), as the simulator's packed kernels do (``vfdotpex`` matmuls, the losses' binary32
    partial sums); the element-wise layers and SGD round every operation in their format."""
    prec = [model.precision_of(la.name) for la in model.layers]
    acc = [("fp32" if wide_acc and la.has_params and p != "fp32" else None)
           for la, p in zip(model.layers, prec, strict=True)]
    shapes = model.shapes()
    acts = [x]
    for i, la in enumerate(model.layers):
        skip = acts[model.index(la.skip) + 1] if isinstance(la, Add) else None
        acts.append(forward(la, acts[i], params.get(la.name, {}), skip=skip,
                            precision=prec[i], acc=acc[i]))
    loss, dy = LOSSES[model.loss](acts[-1], target, precision=prec[-1],
                                  acc="fp32" if wide_acc else None)
    if record is not None:
        record["acts"] = acts
    n = len(model.layers)
    grads = {n: dy}
    extra: dict[int, np.ndarray] = {}
    new = {k: dict(v) for k, v in params.items()}
    for i in range(n - 1, model.first_updated - 1, -1):
        la = model.layers[i]
        ar = arith(prec[i])
        g = grads[i + 1]
        if i + 1 in extra:
            g = ar.out(ar.add(ar.rs(g), ar.rs(extra.pop(i + 1))))
        if isinstance(la, Add):
            src = model.index(la.skip) + 1
            extra[src] = g if src not in extra else ar.out(ar.add(extra[src], ar.rs(g)))
        if record is not None:
            record.setdefault("grads", {})[i] = g
        if la.name in model.updated:
            new[la.name].update(_updated(model, la, weight_grad(la, acts[i], g, prec[i], acc[i]),
                                         params[la.name], prec[i]))
        if i > model.first_updated:
            grads[i] = input_grad(la, acts[i], g, params.get(la.name, {}),
                                  y=acts[i + 1], precision=prec[i], acc=acc[i]).reshape(shapes[i])
    return loss, new


def train(model, steps: int, wide_acc: bool = False) -> tuple[list[float], dict]:
    """``steps`` training steps of ``model`` on its sample (``Model.sample``) from its initial
    parameters, in the golden model alone and in the model's precisions: the way to study a
    16-bit model before the simulator runs it.  Returns the losses and the final parameters."""
    x, target = model.sample()
    params = model.initial_params()
    losses = []
    for _ in range(steps):
        loss, params = train_step(model, params, x, target, wide_acc=wide_acc)
        losses.append(loss)
    return losses, params


def _updated(model, la, grads: dict[str, np.ndarray], params: dict[str, np.ndarray],
             precision: str = "fp32") -> dict[str, np.ndarray]:
    """The layer's parameters after SGD in its update form.  With ``model.master_weights`` a
    16-bit layer's parameters are fp32 master copies, updated in fp32 (the layer computes with
    them rounded to its format, as every step rounds its inputs)."""
    if getattr(model, "master_weights", False):
        precision = "fp32"
    if la.name in model.update_bias_only:
        grads = {"bias": grads["bias"]}
    out = {}
    for name, g in grads.items():
        w = np.asarray(params[name], dtype=FORMATS[precision].dtype).copy()
        k = update_channel_count(w.shape[0], model.update_channels.get(la.name, 1.0))
        w[:k] = sgd(w[:k], g[:k], model.lr, model.weight_decay, precision)
        out[name] = w
    return out
