"""The golden model: every training step written as its textbook formula in numpy.

This is what the simulator's results are checked against, so it is written to be obviously
right rather than fast: explicit loops over output pixels and windows, float64 arithmetic, and
a final rounding to float32 (the tensors the device stores).  It shares nothing with the
lowering (no im2col, no transposes, no kernel layouts) so a mistake in one does not hide in the
other.  ``tests/trainlib/test_golden_torch.py`` checks it against ``torch.nn`` when torch is
installed.

Conventions (PyTorch's, which PULP-TrainLib's golden models use): CHW tensors, batch 1;
Linear weight (out, in); Conv2D weight (Co, Ci, Hk, Wk); DepthWise weight (C, 1, Hk, Wk);
PointWise weight (Co, Ci); symmetric zero padding; windows at ``o * stride - pad``.
"""

from __future__ import annotations

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
            skip: np.ndarray | None = None) -> np.ndarray:
    """The layer's output for input ``x`` (``skip``: the residual operand of Add)."""
    x64 = np.asarray(x, dtype=F64)
    p = {k: np.asarray(v, dtype=F64) for k, v in params.items()}
    if isinstance(layer, Linear):
        y = p["weight"] @ x64.reshape(-1)
        if "bias" in p:
            y = y + p["bias"]
        return _f32(y)
    if isinstance(layer, Conv2D | DepthWise):
        out = layer.out_shape(x.shape)
        xp = _pad(x64, *layer.padding)
        y = np.zeros(out, dtype=F64)
        w = p["weight"]
        for ho, wo, rs, cs in _windows(layer, out[1:]):
            patch = xp[:, rs, cs]                                   # (Ci, Hk, Wk)
            if isinstance(layer, Conv2D):
                y[:, ho, wo] = np.einsum("oikl,ikl->o", w, patch)
            else:
                y[:, ho, wo] = np.einsum("ckl,ckl->c", w[:, 0], patch)
        if "bias" in p:
            y += p["bias"][:, None, None]
        return _f32(y)
    if isinstance(layer, PointWise):
        y = np.einsum("oi,ihw->ohw", p["weight"], x64)
        if "bias" in p:
            y += p["bias"][:, None, None]
        return _f32(y)
    if isinstance(layer, ReLU):
        return _f32(np.where(x64 > 0, x64, 0.0))
    if isinstance(layer, LeakyReLU):
        return _f32(np.where(x64 > 0, x64, layer.negative_slope * x64))
    if isinstance(layer, Sigmoid):
        return _f32(1.0 / (1.0 + np.exp(-x64)))
    if isinstance(layer, Flatten):
        return _f32(x64.reshape(-1))
    if isinstance(layer, Add):
        return _f32(x64 + np.asarray(skip, dtype=F64))
    if isinstance(layer, MaxPool | AvgPool):
        out = layer.out_shape(x.shape)
        y = np.zeros(out, dtype=F64)
        for ho, wo, rs, cs in _windows(layer, out[1:]):
            win = x64[:, rs, cs].reshape(out[0], -1)
            y[:, ho, wo] = win.max(axis=1) if isinstance(layer, MaxPool) else win.mean(axis=1)
        return _f32(y)
    raise TypeError(f"no golden forward for {layer.kind}")


# ---- weight gradient ------------------------------------------------------------------------
def weight_grad(layer, x: np.ndarray, dy: np.ndarray) -> dict[str, np.ndarray]:
    """dL/dparam for every parameter of ``layer``, given its input and output gradient."""
    x64 = np.asarray(x, dtype=F64)
    dy64 = np.asarray(dy, dtype=F64)
    g: dict[str, np.ndarray] = {}
    if isinstance(layer, Linear):
        g["weight"] = np.outer(dy64.reshape(-1), x64.reshape(-1))
        if layer.bias:
            g["bias"] = dy64.reshape(-1)
    elif isinstance(layer, Conv2D | DepthWise):
        xp = _pad(x64, *layer.padding)
        w_shape = layer.params(x.shape)["weight"]
        dw = np.zeros(w_shape, dtype=F64)
        for ho, wo, rs, cs in _windows(layer, dy.shape[1:]):
            patch = xp[:, rs, cs]
            if isinstance(layer, Conv2D):
                dw += np.einsum("o,ikl->oikl", dy64[:, ho, wo], patch)
            else:
                dw[:, 0] += dy64[:, ho, wo][:, None, None] * patch
        g["weight"] = dw
        if isinstance(layer, Conv2D) and layer.bias:
            g["bias"] = dy64.sum(axis=(1, 2))
    elif isinstance(layer, PointWise):
        g["weight"] = np.einsum("ohw,ihw->oi", dy64, x64)
        if layer.bias:
            g["bias"] = dy64.sum(axis=(1, 2))
    else:
        raise TypeError(f"{layer.kind} has no parameters")
    return {k: _f32(v) for k, v in g.items()}


# ---- input gradient -------------------------------------------------------------------------
def input_grad(layer, x: np.ndarray, dy: np.ndarray, params: dict[str, np.ndarray],
               y: np.ndarray | None = None) -> np.ndarray:
    """dL/dx given the layer's input ``x``, output gradient ``dy`` (and output ``y``)."""
    x64 = np.asarray(x, dtype=F64)
    dy64 = np.asarray(dy, dtype=F64)
    p = {k: np.asarray(v, dtype=F64) for k, v in params.items()}
    if isinstance(layer, Linear):
        return _f32((dy64.reshape(-1) @ p["weight"]).reshape(x.shape))
    if isinstance(layer, Conv2D | DepthWise):
        ph, pw = layer.padding
        c, h, w = x.shape
        dxp = np.zeros((c, h + 2 * ph, w + 2 * pw), dtype=F64)
        wt = p["weight"]
        for ho, wo, rs, cs in _windows(layer, dy.shape[1:]):
            if isinstance(layer, Conv2D):
                dxp[:, rs, cs] += np.einsum("o,oikl->ikl", dy64[:, ho, wo], wt)
            else:
                dxp[:, rs, cs] += dy64[:, ho, wo][:, None, None] * wt[:, 0]
        return _f32(dxp[:, ph:ph + h, pw:pw + w])
    if isinstance(layer, PointWise):
        return _f32(np.einsum("oi,ohw->ihw", p["weight"], dy64))
    if isinstance(layer, ReLU):
        return _f32(np.where(x64 > 0, dy64, 0.0))
    if isinstance(layer, LeakyReLU):
        return _f32(np.where(x64 > 0, dy64, layer.negative_slope * dy64))
    if isinstance(layer, Sigmoid):
        s = np.asarray(y, dtype=F64) if y is not None else 1.0 / (1.0 + np.exp(-x64))
        return _f32(dy64 * s * (1.0 - s))
    if isinstance(layer, Flatten | Add):
        return _f32(dy64.reshape(x.shape))
    if isinstance(layer, AvgPool):
        dx = np.zeros(x.shape, dtype=F64)
        n = layer.kernel[0] * layer.kernel[1]
        for ho, wo, rs, cs in _windows(layer, dy.shape[1:]):
            dx[:, rs, cs] += dy64[:, ho, wo][:, None, None] / n
        return _f32(dx)
    if isinstance(layer, MaxPool):
        dx = np.zeros(x.shape, dtype=F64)
        kh, kw = layer.kernel
        for ho, wo, rs, cs in _windows(layer, dy.shape[1:]):
            for ch in range(x.shape[0]):
                win = x64[ch, rs, cs]
                i = int(np.argmax(win))             # the first maximum in row-major order
                dx[ch, rs.start + i // kw, cs.start + i % kw] += dy64[ch, ho, wo]
        return _f32(dx)
    raise TypeError(f"no golden input gradient for {layer.kind}")


# ---- losses and the update --------------------------------------------------------------------
def mse_loss(y: np.ndarray, target: np.ndarray) -> tuple[float, np.ndarray]:
    """mean((y - t)^2) and its gradient 2/n (y - t)."""
    d = np.asarray(y, dtype=F64).reshape(-1) - np.asarray(target, dtype=F64).reshape(-1)
    n = d.size
    return float(np.float32((d * d).sum() / n)), _f32((2.0 / n) * d).reshape(np.shape(y))


def cross_entropy_loss(z: np.ndarray, target: np.ndarray) -> tuple[float, np.ndarray]:
    """-sum t log softmax(z) on raw logits, and its gradient softmax(z) * sum(t) - t."""
    z64 = np.asarray(z, dtype=F64).reshape(-1)
    t = np.asarray(target, dtype=F64).reshape(-1)
    m = z64.max()
    lse = m + np.log(np.exp(z64 - m).sum())
    loss = -(t * (z64 - lse)).sum()
    soft = np.exp(z64 - lse)
    return float(np.float32(loss)), _f32(soft * t.sum() - t).reshape(np.shape(z))


LOSSES = {"mse": mse_loss, "cross_entropy": cross_entropy_loss}


def sgd(w: np.ndarray, g: np.ndarray, lr: float, weight_decay: float) -> np.ndarray:
    """w - lr * (g + weight_decay * w): plain SGD, no momentum (PULP-TrainLib B.11)."""
    w64 = np.asarray(w, dtype=F64)
    return _f32(w64 - lr * (np.asarray(g, dtype=F64) + weight_decay * w64))


# ---- a whole training step ----------------------------------------------------------------------
def train_step(model, params: dict, x: np.ndarray, target: np.ndarray) -> tuple[float, dict]:
    """One training step of ``model`` (a ``trainlib.model.Model``): forward, loss, backward to
    the first updated layer, SGD.  Sparse forms: a bias-only layer updates its bias alone; a
    layer with ``update_channels`` updates the first ``update_channel_count`` output channels
    of each parameter and leaves the rest (weight decay included) untouched."""
    shapes = model.shapes()
    acts = [x]
    for i, la in enumerate(model.layers):
        skip = acts[model.index(la.skip) + 1] if isinstance(la, Add) else None
        acts.append(forward(la, acts[i], params.get(la.name, {}), skip=skip))
    loss, dy = LOSSES[model.loss](acts[-1], target)
    n = len(model.layers)
    grads = {n: dy}
    extra: dict[int, np.ndarray] = {}
    new = {k: dict(v) for k, v in params.items()}
    for i in range(n - 1, model.first_updated - 1, -1):
        la = model.layers[i]
        g = grads[i + 1]
        if i + 1 in extra:
            g = (g.astype(F64) + extra.pop(i + 1)).astype(np.float32)
        if isinstance(la, Add):
            src = model.index(la.skip) + 1
            extra[src] = extra.get(src, 0.0) + g.astype(F64)
        if la.name in model.updated:
            new[la.name].update(_updated(model, la, weight_grad(la, acts[i], g),
                                         params[la.name]))
        if i > model.first_updated:
            grads[i] = input_grad(la, acts[i], g, params.get(la.name, {}),
                                  y=acts[i + 1]).reshape(shapes[i])
    return loss, new


def _updated(model, la, grads: dict[str, np.ndarray], params: dict[str, np.ndarray]
             ) -> dict[str, np.ndarray]:
    """The layer's parameters after SGD in its update form."""
    if la.name in model.update_bias_only:
        grads = {"bias": grads["bias"]}
    out = {}
    for name, g in grads.items():
        w = params[name].copy()
        k = update_channel_count(w.shape[0], model.update_channels.get(la.name, 1.0))
        w[:k] = sgd(w[:k], g[:k], model.lr, model.weight_decay)
        out[name] = w
    return out
