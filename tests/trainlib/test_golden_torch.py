"""The numpy golden model against torch.nn on the same weights (skipped without torch)."""

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

torch = pytest.importorskip("torch")
nn = torch.nn

CASES = [
    (Linear("fc", in_features=7, out_features=4), (7,),
     lambda: nn.Linear(7, 4)),
    (Conv2D("conv", in_channels=3, out_channels=4, kernel=(3, 2), stride=(2, 1),
            padding=(1, 1)), (3, 7, 6), lambda: nn.Conv2d(3, 4, (3, 2), (2, 1), (1, 1))),
    (PointWise("pw", in_channels=3, out_channels=5, bias=True), (3, 4, 3),
     lambda: nn.Conv2d(3, 5, 1)),
    (DepthWise("dw", channels=3, kernel=(3, 3), stride=(2, 2), padding=(1, 1)), (3, 7, 6),
     lambda: nn.Conv2d(3, 3, 3, 2, 1, groups=3, bias=False)),
    (ReLU("relu"), (2, 3, 4), nn.ReLU),
    (LeakyReLU("lrelu", negative_slope=0.1), (2, 3, 4), lambda: nn.LeakyReLU(0.1)),
    (Sigmoid("sig"), (2, 3, 4), nn.Sigmoid),
    (MaxPool("maxp", kernel=(2, 2), stride=(2, 2)), (2, 5, 6), lambda: nn.MaxPool2d(2)),
    (AvgPool("avgp", kernel=(3, 2), stride=(2, 1)), (2, 5, 6), lambda: nn.AvgPool2d((3, 2),
                                                                                   (2, 1))),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c[0].name)
def test_golden_matches_torch(case):
    layer, s, make = case
    torch.manual_seed(0)
    mod = make().double()
    rng = np.random.default_rng(0)
    x = rng.standard_normal(s).astype(np.float32)
    params = {n: p.detach().numpy().astype(np.float32) for n, p in mod.named_parameters()}
    for p in mod.parameters():                 # the float32 values the golden model sees
        p.data = p.data.float().double()
    if isinstance(layer, PointWise):
        params["weight"] = params["weight"].reshape(params["weight"].shape[:2])
    xt = torch.tensor(x, dtype=torch.float64, requires_grad=True)
    yt = mod(xt.unsqueeze(0) if len(s) == 3 else xt)
    yt = yt.squeeze(0) if len(s) == 3 else yt
    dy = rng.standard_normal(tuple(yt.shape)).astype(np.float32)
    yt.backward(torch.tensor(dy, dtype=torch.float64))
    y = golden.forward(layer, x, params)
    np.testing.assert_allclose(y, yt.detach().numpy(), rtol=1e-5, atol=1e-6)
    dx = golden.input_grad(layer, x, dy, params, y=y)
    np.testing.assert_allclose(dx, xt.grad.numpy(), rtol=1e-5, atol=1e-6)
    if params:
        g = golden.weight_grad(layer, x, dy)
        for n, p in mod.named_parameters():
            np.testing.assert_allclose(g[n].reshape(p.shape), p.grad.numpy(), rtol=1e-5,
                                       atol=1e-6)


def test_losses_and_sgd_match_torch():
    rng = np.random.default_rng(1)
    z = rng.standard_normal(5).astype(np.float32)
    t = np.eye(5, dtype=np.float32)[3]
    for fn, tfn in ((golden.mse_loss, nn.MSELoss()), (golden.cross_entropy_loss,
                                                     nn.CrossEntropyLoss())):
        zt = torch.tensor(z, dtype=torch.float64, requires_grad=True)
        tt = torch.tensor(t, dtype=torch.float64)
        lt = tfn(zt.unsqueeze(0), tt.unsqueeze(0)) if fn is golden.cross_entropy_loss \
            else tfn(zt, tt)
        lt.backward()
        loss, dz = fn(z, t)
        assert loss == pytest.approx(lt.item(), rel=1e-6)
        np.testing.assert_allclose(dz, zt.grad.numpy(), rtol=1e-5, atol=1e-7)
    w = torch.tensor(z, dtype=torch.float64, requires_grad=True)
    w.grad = torch.tensor(t, dtype=torch.float64)
    torch.optim.SGD([w], lr=0.1, weight_decay=0.3).step()
    np.testing.assert_allclose(golden.sgd(z, t, 0.1, 0.3), w.detach().numpy(), rtol=1e-6)


def test_model_from_torch_sequential_trains_like_golden():
    from trainlib.model import Model
    from trainlib.train import golden_step

    torch.manual_seed(0)
    seq = nn.Sequential(nn.Conv2d(2, 3, 3, padding=1), nn.ReLU(), nn.Conv2d(3, 3, 1),
                        nn.Flatten(), nn.Linear(3 * 4 * 4, 2))
    m = Model.from_torch(seq, (2, 4, 4), lr=0.1, target="random")
    assert [la.kind for la in m.layers] == ["conv2d", "relu", "pointwise", "flatten", "linear"]
    x, t = m.sample()
    loss, new = golden_step(m, m.initial_params(), x, t)
    seq.double()
    opt = torch.optim.SGD(seq.parameters(), lr=0.1)
    lt = nn.MSELoss()(seq(torch.tensor(x, dtype=torch.float64).unsqueeze(0)).squeeze(0),
                      torch.tensor(t, dtype=torch.float64))
    lt.backward()
    opt.step()
    assert loss == pytest.approx(lt.item(), rel=1e-5)
    np.testing.assert_allclose(new["linear4"]["weight"], seq[4].weight.detach().numpy(),
                               rtol=1e-5, atol=1e-6)
