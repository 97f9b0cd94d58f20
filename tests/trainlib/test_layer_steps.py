"""Every layer step on the simulator against the golden model, resident and streamed from L2.

Shapes have leftovers (sizes that are not multiples of the cores, of the unroll factors, or of
the tile), padding and stride.  The check is ``StepRun.check``: a per-element bound of
(K + 2) * eps * sum|terms| from the golden model on |inputs|, which any summation order meets
and any wrong or missing term breaks.  Streamed cases force a tile that leaves a smaller last
tile, so the double-buffered schedule, the 2-D DMA of column tiles and the leftover tile all
run.
"""

from __future__ import annotations

import numpy as np
import pytest

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
    Sigmoid,
)
from trainlib.step import run_layer_step

CONV = Conv2D("conv", in_channels=3, out_channels=5, kernel=(3, 2), stride=(2, 1),
              padding=(1, 1))
CONV_S1 = Conv2D("conv_s1", in_channels=3, out_channels=3, kernel=(3, 3), stride=(1, 1),
                 padding=(0, 0), bias=False)
LIN = Linear("fc", in_features=13, out_features=7)
PW = PointWise("pw", in_channels=5, out_channels=6, bias=True)
DW = DepthWise("dw", channels=5, kernel=(3, 3), stride=(2, 2), padding=(1, 1))
DW_S1 = DepthWise("dw_s1", channels=3, kernel=(2, 3), stride=(1, 1), padding=(0, 1))

PARAM_CASES = [(LIN, (13,)), (CONV, (3, 9, 7)), (CONV_S1, (3, 6, 5)), (PW, (5, 5, 3)),
               (DW, (5, 9, 7)), (DW_S1, (3, 5, 6))]
# (memory, tile): resident; streamed with the planner's tile; streamed with a forced tile of 2
# (leftover last tile, double-buffered).
MODES = [("tcdm", None), ("l2", 2)]


def _id(case) -> str:
    return case[0].name


@pytest.mark.parametrize("step", ["fw", "wg", "ig"])
@pytest.mark.parametrize("case", PARAM_CASES, ids=_id)
@pytest.mark.parametrize("mode", MODES, ids=lambda m: f"{m[0]}-{m[1]}")
def test_param_layer_step(case, step, mode):
    layer, shape = case
    run = run_layer_step(layer, shape, step, memory=mode[0], tile=mode[1], seed=3)
    run.check()
    assert run.result.status == "exited"
    run.result.check_invariant()
    assert run.macs == layer.macs(shape, step)
    if mode[0] == "l2":
        assert run.plan.tiles > 1 and run.phases.get("dma", 0) > 0


@pytest.mark.parametrize("kernel", ["mm_4x4_n", "mm_2x4_m", "mm_1x8_n"])
@pytest.mark.parametrize("step", ["fw", "wg", "ig"])
def test_conv_steps_with_blocked_kernels(kernel, step):
    run_layer_step(CONV, (3, 9, 7), step, kernel=kernel, seed=1).check()


@pytest.mark.parametrize("kernel", ["mm_dw_1x4_u2", "mm_dw_in_grad_u3"])
def test_depthwise_kernel_variants(kernel):
    step = "ig" if "in_grad" in kernel else "fw"
    run_layer_step(DW, (5, 9, 7), step, kernel=kernel, seed=2).check()


ACT_CASES = [(ReLU("relu"), (3, 4, 5)), (LeakyReLU("lrelu", negative_slope=0.1), (3, 4, 5)),
             (Sigmoid("sig"), (2, 3, 7)),
             (MaxPool("maxp", kernel=(2, 2), stride=(2, 2)), (3, 5, 7)),
             (AvgPool("avgp", kernel=(3, 2), stride=(2, 1)), (3, 5, 7)),
             (Add("add", skip="x"), (2, 3, 3))]


@pytest.mark.parametrize("step", ["fw", "ig"])
@pytest.mark.parametrize("case", ACT_CASES, ids=_id)
def test_parameter_free_step(case, step):
    layer, shape = case
    for memory, tile in (("tcdm", None), ("l2", 2)):
        run_layer_step(layer, shape, step, memory=memory, tile=tile, seed=5).check()


def test_maxpool_ties_go_to_the_first_maximum():
    """After a ReLU whole windows are 0: the gradient goes to the window's first element."""
    layer = MaxPool("maxp", kernel=(2, 2), stride=(2, 2))
    x = np.zeros((2, 4, 4), np.float32)
    dy = np.arange(1, 9, dtype=np.float32).reshape(2, 2, 2)
    run = run_layer_step(layer, (2, 4, 4), "ig", data={"x": x, "dy": dy})
    run.check()
    assert run.outputs["dx"][0, 0, 0] == 1.0 and run.outputs["dx"][0, 0, 1] == 0.0


def test_check_catches_a_wrong_result():
    """The bound is tight enough that a stride mistake in the reference is caught."""
    run = run_layer_step(CONV, (3, 9, 7), "fw", seed=4)
    wrong = run_layer_step(Conv2D("conv", in_channels=3, out_channels=5, kernel=(3, 2),
                                  stride=(2, 1), padding=(0, 1)), (3, 11, 7), "fw", seed=4)
    run.golden = {"y": wrong.golden["y"][:, :5, :]}
    with pytest.raises(AssertionError, match="layer conv fw: y"):
        run.check()


def test_one_element_off_is_caught():
    run = run_layer_step(LIN, (13,), "ig", seed=6)
    run.outputs["dx"] = run.outputs["dx"].copy()
    run.outputs["dx"][3] *= 1 + 1e-4
    with pytest.raises(AssertionError, match=r"dx\[3\]"):
        run.check()


def test_kernel_candidates_are_the_right_families():
    from trainlib.lowering import kernel_candidates

    fc = kernel_candidates(LIN, "fw")
    assert "mm_naive_n" in fc and "mm_4x4_m" in fc and not any("dw" in k for k in fc)
    assert kernel_candidates(DW, "fw") and all(k.startswith("mm_dw") and "in_grad" not in k
                                               for k in kernel_candidates(DW, "fw"))
    assert all("in_grad" in k for k in kernel_candidates(DW, "wg"))
    assert kernel_candidates(ReLU("r"), "fw") == []


@pytest.mark.slow
@pytest.mark.parametrize("case", PARAM_CASES, ids=_id)
def test_every_candidate_kernel_computes_every_step(case):
    """All matmul / depthwise kernels on every step of every layer: -m slow."""
    from trainlib.lowering import kernel_candidates

    layer, shape = case
    for step in ("fw", "wg", "ig"):
        for k in kernel_candidates(layer, step):
            run_layer_step(layer, shape, step, kernel=k, seed=7).check()


@pytest.mark.parametrize("memory", ["tcdm", "l2"])
@pytest.mark.parametrize("loss", ["mse", "cross_entropy"])
def test_loss_steps(loss, memory):
    from trainlib import golden
    from trainlib.lowering import cross_entropy_loss, mse_loss
    from trainlib.step import run_spec

    rng = np.random.default_rng(8)
    y = (3 * rng.standard_normal(11)).astype(np.float32)
    t = np.eye(11, dtype=np.float32)[4] if loss == "cross_entropy" else \
        rng.standard_normal(11).astype(np.float32)
    spec = (mse_loss if loss == "mse" else cross_entropy_loss)(loss, (11,), 8)
    run = run_spec(spec, {"y": y, "target": t}, memory=memory)
    ref_loss, ref_dy = golden.LOSSES[loss](y, t)
    assert run.outputs["loss"][0] == pytest.approx(ref_loss, rel=1e-5)
    np.testing.assert_allclose(run.outputs["dy"], ref_dy, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("mode", MODES, ids=lambda m: f"{m[0]}-{m[1]}")
def test_sgd_step(mode):
    from trainlib import golden
    from trainlib.lowering import sgd
    from trainlib.step import run_spec

    rng = np.random.default_rng(9)
    w = rng.standard_normal((5, 7)).astype(np.float32)
    g = rng.standard_normal((5, 7)).astype(np.float32)
    run = run_spec(sgd("fc", (5, 7), lr=0.1, weight_decay=0.2), {"w": w, "g": g},
                   memory=mode[0], tile=mode[1])
    np.testing.assert_allclose(run.outputs["w"], golden.sgd(w, g, 0.1, 0.2), rtol=1e-6,
                               atol=1e-7)
