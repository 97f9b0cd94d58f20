"""The golden model checked against calculus: finite differences of its own forward pass.

Gradients are checked on L = sum(r * forward(x)) with a random projection r, so dL/dy = r;
central differences in float64 on the forward formulas (evaluated through the float32 golden
functions, hence the step size and tolerance) must match weight_grad and input_grad.  This
does not depend on PyTorch (``test_golden_torch.py`` adds that check when torch is there).
"""

from __future__ import annotations

import numpy as np
import pytest

from trainlib import golden
from trainlib.layers import (
    AvgPool,
    Conv2D,
    DepthWise,
    LeakyReLU,
    Linear,
    MaxPool,
    PointWise,
    ReLU,
    Sigmoid,
)

H = 1e-2
CASES = [
    (Linear("fc", in_features=5, out_features=3), (5,)),
    (Conv2D("conv", in_channels=2, out_channels=3, kernel=(3, 2), stride=(2, 1),
            padding=(1, 1)), (2, 5, 4)),
    (PointWise("pw", in_channels=3, out_channels=2, bias=True), (3, 2, 3)),
    (DepthWise("dw", channels=2, kernel=(3, 3), stride=(2, 2), padding=(1, 1)), (2, 5, 5)),
    (ReLU("relu"), (2, 3, 3)),
    (LeakyReLU("lrelu", negative_slope=0.2), (2, 3, 3)),
    (Sigmoid("sig"), (2, 3, 3)),
    (MaxPool("maxp", kernel=(2, 2), stride=(2, 1)), (2, 4, 5)),
    (AvgPool("avgp", kernel=(2, 3), stride=(1, 2)), (2, 4, 5)),
]


def _numeric(f, a: np.ndarray) -> np.ndarray:
    g = np.zeros(a.shape)
    for i in np.ndindex(a.shape):
        ap, am = a.astype(np.float64), a.astype(np.float64)
        ap[i] += H
        am[i] -= H
        g[i] = (f(ap.astype(np.float32)) - f(am.astype(np.float32))) / (2 * H)
    return g


@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0].name)
def test_gradients_match_finite_differences(case):
    layer, s = case
    rng = np.random.default_rng(0)
    # x away from the kinks (relu at 0, max ties) so central differences are exact enough
    x = (rng.uniform(0.3, 1.0, s) * rng.choice([-1, 1], s)).astype(np.float32)
    if isinstance(layer, MaxPool):
        x = rng.permutation(np.arange(x.size, dtype=np.float32)).reshape(s) * 0.1
    params = {k: rng.standard_normal(v).astype(np.float32) for k, v in layer.params(s).items()}
    r = rng.standard_normal(layer.out_shape(s))

    def loss_x(xv):
        return float((r * golden.forward(layer, xv, params)).sum())
    dx = golden.input_grad(layer, x, r.astype(np.float32), params,
                           y=golden.forward(layer, x, params))
    np.testing.assert_allclose(dx, _numeric(loss_x, x), rtol=2e-3, atol=2e-3)
    if params:
        g = golden.weight_grad(layer, x, r.astype(np.float32))
        for k in params:
            def loss_p(pv, k=k):
                return float((r * golden.forward(layer, x, {**params, k: pv})).sum())
            np.testing.assert_allclose(g[k], _numeric(loss_p, params[k]), rtol=2e-3,
                                       atol=2e-3)


@pytest.mark.parametrize("name", ["mse", "cross_entropy"])
def test_loss_gradients_match_finite_differences(name):
    rng = np.random.default_rng(1)
    y = rng.standard_normal(6).astype(np.float32)
    t = np.zeros(6, np.float32)
    t[2] = 1.0
    fn = golden.LOSSES[name]
    _, dy = fn(y, t)
    np.testing.assert_allclose(dy, _numeric(lambda v: fn(v, t)[0], y), rtol=2e-3, atol=2e-3)


def test_losses_by_hand():
    loss, dy = golden.mse_loss(np.array([1.0, 3.0], np.float32), np.ones(2, np.float32))
    assert loss == pytest.approx(2.0) and np.allclose(dy, [0.0, 2.0])
    loss, dz = golden.cross_entropy_loss(np.zeros(4, np.float32), np.eye(4, dtype=np.float32)[1])
    assert loss == pytest.approx(np.log(4.0)) and np.allclose(dz, [0.25, -0.75, 0.25, 0.25])


def test_sgd_with_weight_decay():
    w = np.array([1.0, -2.0], np.float32)
    g = np.array([0.5, 0.5], np.float32)
    assert np.allclose(golden.sgd(w, g, lr=0.1, weight_decay=0.5), [1 - 0.1 * 1.0, -2 - 0.1 * -0.5])
