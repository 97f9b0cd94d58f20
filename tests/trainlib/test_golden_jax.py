"""The golden model against JAX, in fp32, fp16 and bfloat16, on every step of every layer kind.

Each layer step (forward, input gradient by ``jax.vjp``, weight gradient by ``jax.vjp``), both
losses (value and gradient by ``jax.value_and_grad``) and the SGD update are computed by JAX on
``jnp.float32`` / ``jnp.float16`` / ``jnp.bfloat16`` arrays holding the same values the golden
model gets.  JAX (XLA's CPU back end) rounds in its own order and may accumulate wider, so the
two results are compared with ``golden.tolerance``: 2 (K + 2) eps sum|terms| + the storage
rounding, K the products summed per output, sum|terms| the fp32 golden model on the absolute
values of the inputs, eps that of the format (2^-23, 2^-10, 2^-7).  Exact zeros are in the
activations' inputs: ReLU's and LeakyReLU's gradient at 0 takes the negative branch, as in
trainlib, torch and ``jax.nn.relu`` (``jax.nn.leaky_relu`` takes the positive one, so the test
writes LeakyReLU as ``where(x > 0, ...)`` like torch).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from trainlib import golden
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
)

jax = pytest.importorskip("jax")
jnp = jax.numpy
lax = jax.lax

JNP_TYPES = {"fp32": jnp.float32, "fp16": jnp.float16, "bf16": jnp.bfloat16}
PRECISIONS = tuple(JNP_TYPES)


def _conv(la, x, w, groups=1):
    (ph, pw) = la.padding
    return lax.conv_general_dilated(x[None], w, la.stride, [(ph, ph), (pw, pw)],
                                    feature_group_count=groups)[0]


def _bias(y, p):
    return y + p["bias"][:, None, None] if "bias" in p else y


def _pool(la, x, op, init):
    return lax.reduce_window(x, init, op, (1, *la.kernel), (1, *la.stride), "VALID")


def jax_forward(la, x, p, skip=None):
    """The layer written with JAX primitives, independently of trainlib.golden."""
    if isinstance(la, Linear):
        y = p["weight"] @ x.reshape(-1)
        return y + p["bias"] if "bias" in p else y
    if isinstance(la, Conv2D):
        return _bias(_conv(la, x, p["weight"]), p)
    if isinstance(la, DepthWise):
        return _conv(la, x, p["weight"], groups=la.channels)
    if isinstance(la, PointWise):
        return _bias(jnp.einsum("oi,ihw->ohw", p["weight"], x), p)
    if isinstance(la, ReLU):
        return jax.nn.relu(x)
    if isinstance(la, LeakyReLU):
        return jnp.where(x > 0, x, jnp.asarray(la.negative_slope, x.dtype) * x)
    if isinstance(la, Sigmoid):
        return jax.nn.sigmoid(x)
    if isinstance(la, Flatten):
        return x.reshape(-1)
    if isinstance(la, Add):
        return x + skip
    if isinstance(la, MaxPool):
        return _pool(la, x, lax.max, -jnp.inf)
    if isinstance(la, AvgPool):
        n = la.kernel[0] * la.kernel[1]
        return _pool(la, x, lax.add, jnp.asarray(0, x.dtype)) / jnp.asarray(n, x.dtype)
    raise TypeError(la.kind)


CASES = [
    (Linear("fc", in_features=12, out_features=5), (3, 2, 2)),
    (Conv2D("conv", in_channels=3, out_channels=4, kernel=(3, 2), stride=(2, 1),
            padding=(1, 1)), (3, 7, 6)),
    (PointWise("pw", in_channels=3, out_channels=5, bias=True), (3, 4, 3)),
    (DepthWise("dw", channels=3, kernel=(3, 3), stride=(2, 2), padding=(1, 1)), (3, 7, 6)),
    (ReLU("relu"), (2, 3, 4)),
    (LeakyReLU("lrelu", negative_slope=0.1), (2, 3, 4)),
    (Sigmoid("sig"), (2, 3, 4)),
    (Flatten("flat"), (2, 3, 4)),
    (Add("add", skip="x"), (2, 3, 4)),
    (MaxPool("maxp", kernel=(2, 2), stride=(2, 2)), (2, 5, 6)),
    (AvgPool("avgp", kernel=(3, 2), stride=(2, 1)), (2, 5, 6)),
]


def _reduction(la, s, step: str, out_size: int) -> int:
    """K: the products (or terms) summed into one output element of ``step``."""
    if isinstance(la, AvgPool):
        return la.kernel[0] * la.kernel[1]
    return la.macs(s, step) // max(1, out_size)


def _q(a, precision: str) -> np.ndarray:
    """Values of the format, held in float32 (both sides start from the same numbers)."""
    return golden.round_to(a, precision).astype(np.float32)


def _close(got, ref, bound, what: str) -> None:
    got = np.asarray(got, dtype=np.float64)
    ref = np.asarray(ref, dtype=np.float64).reshape(got.shape)
    err = np.abs(got - ref)
    i = int(np.argmax(err / bound.reshape(got.shape)))
    assert np.all(err <= bound.reshape(got.shape)), (
        f"{what}: golden {got.reshape(-1)[i]!r}, jax {ref.reshape(-1)[i]!r}, "
        f"bound {bound.reshape(-1)[i]:.3g}")


def _inputs(la, s, precision: str):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(s)
    if isinstance(la, ReLU | LeakyReLU):
        x.reshape(-1)[::5] = 0.0                     # exact zeros: the gradient's edge case
    params = {k: rng.standard_normal(v) * 0.5 for k, v in la.params(s).items()}
    skip = rng.standard_normal(s) if isinstance(la, Add) else None
    q = {k: _q(v, precision) for k, v in params.items()}
    return _q(x, precision), q, None if skip is None else _q(skip, precision), rng


@pytest.mark.parametrize("precision", PRECISIONS)
@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0].name)
def test_layer_steps_match_jax(case, precision):
    la, s = case
    x, p, skip, rng = _inputs(la, s, precision)
    dt = JNP_TYPES[precision]
    y = golden.forward(la, x, p, skip=skip, precision=precision)
    dy = _q(rng.standard_normal(y.shape), precision)

    jp = {k: jnp.asarray(v, dt) for k, v in p.items()}
    jskip = None if skip is None else jnp.asarray(skip, dt)
    yj, vjp = jax.vjp(lambda x_, p_: jax_forward(la, x_, p_, jskip), jnp.asarray(x, dt), jp)
    dxj, dpj = vjp(jnp.asarray(dy, dt))

    ax, ap = np.abs(x), {k: np.abs(v) for k, v in p.items()}
    mag_y = golden.forward(la, ax, ap, skip=None if skip is None else np.abs(skip))
    k = _reduction(la, s, "fw", y.size)
    if isinstance(la, Sigmoid):                      # 1/(1+e^-x): exp, add, divide
        k = 3
    _close(y, yj, golden.tolerance(mag_y, k, precision), f"{la.name} fw {precision}")

    dx = golden.input_grad(la, x, dy, p, y=y, precision=precision)
    mag_dx = golden.input_grad(la, ax, np.abs(dy), ap, y=np.abs(y))
    k = _reduction(la, s, "ig", dx.size)
    if isinstance(la, Sigmoid):                      # dy s (1 - s) on a rounded s
        k, mag_dx = 4, np.abs(dy) * np.abs(y) * (1 + np.abs(y))
    _close(dx, dxj, golden.tolerance(mag_dx, k, precision), f"{la.name} ig {precision}")

    if p:
        g = golden.weight_grad(la, x, dy, precision=precision)
        mag_g = golden.weight_grad(la, ax, np.abs(dy))
        for name in p:
            kk = _reduction(la, s, "wg", g[name].size) if name == "weight" else \
                math.prod(dy.shape[1:])
            _close(g[name], dpj[name], golden.tolerance(mag_g[name], kk, precision),
                   f"{la.name} wg.{name} {precision}")


@pytest.mark.parametrize("precision", PRECISIONS)
def test_losses_and_sgd_match_jax(precision):
    rng = np.random.default_rng(1)
    n = 10
    dt = JNP_TYPES[precision]
    z = _q(rng.standard_normal(n) * 2, precision)
    for target in (np.eye(n, dtype=np.float32)[3], _q(rng.standard_normal(n), precision)):
        t = jnp.asarray(target, dt)
        loss, dz = golden.mse_loss(z, target, precision=precision)
        lj, dzj = jax.value_and_grad(lambda z_, t=t: jnp.mean((z_ - t) ** 2))(
            jnp.asarray(z, dt))
        d = np.abs(z) + np.abs(target)
        _close(loss, lj, golden.tolerance(np.mean(d * d), n, precision), f"mse {precision}")
        _close(dz, dzj, golden.tolerance(2 / n * d, 2, precision), f"mse grad {precision}")

        loss, dz = golden.cross_entropy_loss(z, target, precision=precision)
        lj, dzj = jax.value_and_grad(
            lambda z_, t=t: -(t * jax.nn.log_softmax(z_)).sum())(jnp.asarray(z, dt))
        lse = float(np.log(np.exp(z.astype(np.float64)).sum()))
        mag = np.sum(np.abs(target) * (np.abs(z) + abs(lse)))
        _close(loss, lj, golden.tolerance(mag, n, precision), f"cross-entropy {precision}")
        soft = np.exp(z - lse)
        _close(dz, dzj, golden.tolerance(soft * np.abs(target).sum() + np.abs(target), n,
                                         precision), f"cross-entropy grad {precision}")

    w, g = _q(rng.standard_normal(n), precision), _q(rng.standard_normal(n), precision)
    lr, wd = 0.1, 0.3
    new = golden.sgd(w, g, lr, wd, precision=precision)
    wj, gj = jnp.asarray(w, dt), jnp.asarray(g, dt)
    ref = wj - jnp.asarray(lr, dt) * (gj + jnp.asarray(wd, dt) * wj)
    mag = np.abs(w) + lr * (np.abs(g) + wd * np.abs(w))
    _close(new, ref, golden.tolerance(mag, 2, precision), f"sgd {precision}")
