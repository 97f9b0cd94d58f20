"""Shared pieces of the deploy tests: a small model file, golden losses, result checks."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from trainlib import golden
from trainlib.model import Model

# conv (frozen, with bias) -> relu -> depthwise -> pointwise -> residual add -> leaky relu ->
# flatten -> linear: every kind of phase (fw, loss, wg, ig, skip, update) and both memories.
SMALL = """
[model]
name = "small"
input = [2, 7, 5]
loss = "mse"
target = "random"
memory = "{memory}"

[optimizer]
lr = 0.05
weight_decay = 0.01

[[layer]]
type = "conv2d"
name = "conv1"
in_channels = 2
out_channels = 4
kernel = 3
stride = 2
padding = 1

[[layer]]
type = "relu"
name = "relu1"

[[layer]]
type = "depthwise"
name = "dw1"
channels = 4
kernel = 3
padding = 1

[[layer]]
type = "pointwise"
name = "pw1"
in_channels = 4
out_channels = 4
bias = true
{pw1_extra}

[[layer]]
type = "add"
name = "res"
skip = "relu1"

[[layer]]
type = "leakyrelu"
name = "lrelu"
negative_slope = 0.1

[[layer]]
type = "flatten"
name = "flat"

[[layer]]
type = "linear"
name = "fc"
in_features = 48
out_features = 5
{fc_extra}
"""

LOSS_LINE = re.compile(r"^step (\d+) loss (\S+) \(0x([0-9a-f]{8})\)$", re.M)


def small_model_file(tmp_path, memory: str = "auto", pw1_extra: str = "",
                     fc_extra: str = "") -> str:
    p = tmp_path / "small.toml"
    p.write_text(SMALL.format(memory=memory, pw1_extra=pw1_extra, fc_extra=fc_extra))
    return str(p)


def printed_losses(stdout: str) -> list[float]:
    """The losses a deployed program printed, from their exact bits; the decimal rendering
    printed beside them must agree to 6 significant digits."""
    out = []
    for i, (step, dec, bits) in enumerate(LOSS_LINE.findall(stdout), start=1):
        assert int(step) == i
        value = float(np.uint32(int(bits, 16)).view(np.float32))
        assert abs(float(dec) - value) <= 2e-6 * abs(value), (dec, value)
        out.append(value)
    return out


def golden_run(model: Model, steps: int) -> tuple[list[float], dict]:
    x, target = model.sample()
    params = model.initial_params()
    losses = []
    for _ in range(steps):
        loss, params = golden.train_step(model, params, x, target)
        losses.append(loss)
    return losses, params


def assert_close_to_golden(losses, params, model: Model, steps: int) -> None:
    ref_losses, ref_params = golden_run(model, steps)
    np.testing.assert_allclose(losses, ref_losses, rtol=1e-5)
    for layer, ps in ref_params.items():
        for name, ref in ps.items():
            scale = max(1e-3, float(np.abs(ref).max()))
            err = float(np.abs(params[layer][name] - ref).max())
            assert err <= 1e-5 * scale, (layer, name, err)


def assert_same_as_step_runs(losses, params, res) -> None:
    """Bit for bit what the step-by-step runs computed (same kernels, same order of sums)."""
    assert np.array_equal(np.float32(losses), np.float32(res.losses))
    for layer, ps in res.params.items():
        for name, v in ps.items():
            assert np.array_equal(params[layer][name], v), (layer, name)


MIXED = Path(__file__).parent / "mixed.toml"


def mixed_model_file(tmp_path, memory: str = "auto") -> str:
    """``mixed.toml`` (every kind of conversion, master weights) with ``memory``."""
    p = tmp_path / "mixed.toml"
    p.write_text(MIXED.read_text().replace('memory = "auto"', f'memory = "{memory}"'))
    return str(p)


def assert_same_as_step_runs_16(losses, params, res, model: Model) -> None:
    """Bit for bit what the step-by-step runs computed: the losses, the updated parameters
    (the fp32 master copies where the model keeps them), and every frozen parameter as its
    initial value rounded to the layer's format (the step runs never write those back)."""
    assert np.array_equal(np.float32(losses), np.float32(res.losses))
    updated = set(model.updated)
    for layer, ps in res.params.items():
        for name, v in ps.items():
            if layer not in updated:
                v = golden.round_to(v, model.precision_of(layer))
            assert np.array_equal(params[layer][name], v), (layer, name)
