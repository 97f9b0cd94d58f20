"""The 16-bit golden model: its rounding against numpy's float16 and ml_dtypes' bfloat16, its
per-operation arithmetic, and the precision fields of model files."""

from __future__ import annotations

import numpy as np
import pytest

from trainlib import golden
from trainlib.errors import ModelError
from trainlib.layers import Linear
from trainlib.model import Model


def _awkward_values() -> np.ndarray:
    """Random float64 values over every binade of both formats, exact ties, subnormals,
    overflow boundaries and the specials."""
    rng = np.random.default_rng(0)
    r = rng.standard_normal(20000) * np.exp2(rng.integers(-140, 130, 20000))
    f16 = np.arange(0, 0x7C00, dtype=np.uint16).view(np.float16).astype(np.float64)
    ties = (f16[:-1] + f16[1:]) / 2                          # exactly halfway: to even
    special = [0.0, -0.0, np.inf, -np.inf, 65504.0, 65519.99, 65520.0, 2.0 ** -25,
               2.0 ** -25 * 1.0000001, 3.3895313892515355e38, 3.3961775292304e38]
    return np.concatenate([r, -r, ties, f16, special])


def test_round_to_fp16_equals_numpy_float16():
    v = _awkward_values()
    got = golden.round_to(v, "fp16")
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(got, v.astype(np.float16).astype(np.float64))


def test_round_to_bf16_equals_ml_dtypes_from_float32():
    """ml_dtypes rounds float32 to bfloat16 once (exact); from float64 it goes through float32
    and rounds twice, so the comparison is on float32 values, and the double-rounding cases
    are checked by hand."""
    ml_dtypes = pytest.importorskip("ml_dtypes")
    with np.errstate(over="ignore"):
        v = _awkward_values().astype(np.float32)
    bits = np.arange(0, 0x7F80, dtype=np.uint16)
    b = (bits.astype(np.uint32) << 16).view(np.float32)
    v = np.concatenate([v, b, ((b[:-1].astype(np.float64) + b[1:]) / 2).astype(np.float32)])
    got = golden.round_to(v, "bf16")
    np.testing.assert_array_equal(got, v.astype(ml_dtypes.bfloat16).astype(np.float64))
    # just above a tie: float32 first would make it a tie and round it to even (down)
    assert golden.round_to(1 + 2.0 ** -8 + 2.0 ** -40, "bf16") == 1 + 2.0 ** -7
    top = (2 - 2.0 ** -7) * 2.0 ** 127                 # the largest bfloat16
    assert golden.round_to(top + 2.0 ** 119 - 2.0 ** 90, "bf16") == top
    assert golden.round_to(top + 2.0 ** 119, "bf16") == np.inf     # the tie: to even


def test_fp16_sums_round_every_operation():
    """2048 + 1 + 1 in binary16: each sum rounds back to 2048 (ulp 2, ties to even); summed
    in binary32 and rounded once it is 2050."""
    la = Linear("fc", in_features=3, out_features=1, bias=False)
    w = {"weight": np.ones((1, 3), np.float32)}
    x = np.array([2048.0, 1.0, 1.0], np.float32)
    assert golden.forward(la, x, w, precision="fp16")[0] == 2048.0
    assert golden.forward(la, x, w, precision="fp16", acc="fp32")[0] == 2050.0
    assert golden.forward(la, x, w)[0] == 2050.0
    assert golden.forward(la, x, w, precision="fp16").dtype == np.float16


def test_unknown_precision_is_refused():
    with pytest.raises(ValueError, match="fp8"):
        golden.arith("fp8")
    with pytest.raises(ValueError, match="narrower"):
        golden.arith("fp32", "fp16")


MODEL = {"model": {"input": [2, 4, 4], "precision": "fp16"},
         "layer": [{"type": "conv2d", "in_channels": 2, "out_channels": 3, "kernel": 3,
                    "padding": 1},
                   {"type": "relu"},
                   {"type": "linear", "in_features": 48, "out_features": 2,
                    "precision": "bf16"}]}


def test_model_precision_fields_reach_the_golden_model():
    m = Model.from_dict(MODEL)
    assert [m.precision_of(la.name) for la in m.layers] == ["fp16", "fp16", "bf16"]
    assert Model.from_dict(m.to_dict()).layer_precision == m.layer_precision
    losses, p = golden.train(m, 3)
    x, t = m.sample()
    assert p["conv2d0"]["weight"].dtype == np.float16
    lw = p["linear2"]["weight"].astype(np.float64)
    np.testing.assert_array_equal(golden.round_to(lw, "bf16"), lw)     # bfloat16 values
    assert losses[-1] < losses[0]
    l32, _ = golden.train_step(Model.from_dict({**MODEL, "model": {"input": [2, 4, 4]},
                                                "layer": [dict(la, precision="fp32")
                                                          for la in MODEL["layer"]]}),
                               m.initial_params(), x, t)
    assert losses[0] == pytest.approx(l32, rel=2e-2) and losses[0] != l32


@pytest.mark.parametrize("model, match", [
    ({"precision": "fp8"}, "precision must be one of fp32, fp16, bf16, not 'fp8'"),
    ({"precision": 16}, "precision must be a string"),
])
def test_bad_precision_is_named(model, match):
    with pytest.raises(ModelError, match=match):
        Model.from_dict({**MODEL, "model": {"input": [2, 4, 4], **model}})
    layers = [dict(MODEL["layer"][0], **model)] + MODEL["layer"][1:]
    with pytest.raises(ModelError, match=match):
        Model.from_dict({**MODEL, "layer": layers})
