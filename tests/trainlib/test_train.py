"""Whole models trained on the simulator: the loss trajectory and the weights follow the golden
model step by step, in TCDM and streamed from L2, with sparse update, a residual and both
losses."""

from __future__ import annotations

import numpy as np
import pytest

from trainlib.choices import Choice, ChoiceTable
from trainlib.cli import main, matches
from trainlib.layers import Add, Conv2D, DepthWise, Flatten, LeakyReLU, Linear, PointWise, ReLU
from trainlib.model import Model
from trainlib.train import train

from .test_model_cli import TINY

STEPS = 3


def _residual_model(skip: str = "relu1", **kw) -> Model:
    layers = [Conv2D("conv1", in_channels=2, out_channels=4, kernel=(3, 3), stride=(2, 2),
                     padding=(1, 1)), ReLU("relu1"),
              DepthWise("dw1", channels=4, kernel=(3, 3), padding=(1, 1)),
              PointWise("pw1", in_channels=4, out_channels=4),
              Add("res", skip=skip), LeakyReLU("lrelu", negative_slope=0.1), Flatten("flat"),
              Linear("fc", in_features=4 * 4 * 3, out_features=5)]
    return Model((2, 7, 5), layers, lr=0.05, weight_decay=0.01, **kw)


def _assert_follows_golden(res, model: Model, steps: int) -> None:
    assert len(res.losses) == steps
    assert not matches(res), matches(res)
    assert res.losses[-1] < res.losses[0]                  # it trains
    init = model.initial_params()
    for name, ps in res.params.items():
        for k, v in ps.items():
            changed = not np.array_equal(v, init[name][k])
            assert changed == (name in model.updated), (name, k)


def test_residual_model_resident_in_tcdm():
    m = _residual_model(memory="tcdm")
    res = train(m, STEPS)
    assert res.plan.memory == "tcdm"
    _assert_follows_golden(res, m, STEPS)
    kinds = {s.step for s in res.stats[0]}
    assert {"fw", "loss", "wg", "ig", "skip", "update.weight", "update.bias"} <= kinds


def test_sparse_update_streamed_from_l2_with_tiles_and_blocked_kernels():
    choices = ChoiceTable()
    for layer, step, kernel, tile in (("fc", "fw", "mm_4x4_n", 2), ("fc", "ig", "mm_1x4_m", 16),
                                      ("pw1", "ig", "mm_2x2_n", 3),
                                      ("dw1", "wg", "mm_dw_in_grad_1x2", 3)):
        choices.add(Choice(layer, step, kernel, tile))
    m = _residual_model(skip="dw1", memory="l2", update={"dw1", "fc"}, choices=choices)
    res = train(m, STEPS)
    assert res.plan.memory == "l2"
    _assert_follows_golden(res, m, STEPS)
    keys = [(s.layer, s.step) for s in res.stats[0]]
    # the backward stops at dw1, the first updated layer: no dw1 input gradient, nothing before
    assert ("dw1", "wg") in keys and ("dw1", "ig") not in keys and ("relu1", "ig") not in keys
    assert ("pw1", "ig") in keys and ("pw1", "wg") not in keys     # frozen, but passed through
    assert keys.index(("res", "skip")) < keys.index(("dw1", "wg"))  # both gradients summed
    fc_fw = next(s for s in res.stats[0] if (s.layer, s.step) == ("fc", "fw"))
    assert fc_fw.kernel == "mm_4x4_n" and "3 tile(s) of 2" in fc_fw.plan


def test_cross_entropy_model():
    layers = [PointWise("pw", in_channels=3, out_channels=4, bias=True), ReLU("relu"),
              Linear("fc", in_features=4 * 3 * 2, out_features=6)]
    m = Model((3, 3, 2), layers, loss="cross_entropy", target="class:2", lr=0.1)
    res = train(m, STEPS)
    _assert_follows_golden(res, m, STEPS)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["pulp_trainlib_net0", "ds_cnn_kws", "resnet8_like",
                                  "pulp_trainlib_net0_fp16", "ds_cnn_kws_fp16",
                                  "resnet8_like_fp16"])
def test_example_models_train(name):
    """The full example models (up to a minute per step each on this machine): -m slow."""
    from pathlib import Path

    from trainlib.errors import NotAvailable
    m = Model.load(Path(__file__).resolve().parents[2] / "examples" / f"{name}.toml")
    try:
        res = train(m, 2)
    except NotAvailable as e:
        assert m.precisions != {"fp32"}, e
        pytest.skip(f"{name}: {e}")
    assert not matches(res, m), matches(res, m)


def test_cli_train_prints_losses_and_the_table(tmp_path, capsys):
    p = tmp_path / "tiny.toml"
    p.write_text(TINY)
    assert main(["train", str(p), "--steps", "2", "--cores", "4"]) == 0
    out = capsys.readouterr().out
    assert out.count("   golden ") == 2 and "MAC/cycle" in out and "fc" in out
    assert "match the golden model" in out
