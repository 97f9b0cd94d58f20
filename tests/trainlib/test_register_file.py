"""Training under the single register file (zfinx) of the ``gvsoc-2022`` preset.

Its cores keep FP values in the x registers (``rv32imc_zfinx_xpulpv2_xf16_xf16alt_xfvec``): every
call of a step runs the kernel written for that register-file model (``mmx_*`` matmuls,
``<k>_x`` helpers), and a step whose kernel family has no such variant (depthwise, loss,
pooling) is refused before any run, naming the step, the family and the model.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from asm_kernels.catalogue import catalogue, usable
from isasim.config import load_config
from trainlib.driver import Call, for_core
from trainlib.errors import NotAvailable
from trainlib.layers import Conv2D, DepthWise, Linear, MaxPool, ReLU
from trainlib.lowering import kernel_candidates, layer_step, unavailable
from trainlib.model import Model
from trainlib.schedule import Tiling, driver_program
from trainlib.step import run_layer_step
from trainlib.workflow import plan_model

ZFINX = load_config("gvsoc-2022").xpulp


def _kernels_called(spec, isa: str) -> list[str]:
    items = driver_program(spec, Tiling("tcdm", spec.extent),
                           {t.name: np.zeros(t.shape, np.float32) for t in spec.tensors
                            if t.role != "out"}).items
    return [it.kernel for it in for_core(items, isa) if isinstance(it, Call)]


def test_preset_is_zfinx_and_every_call_runs_a_zfinx_kernel():
    assert "zfinx" in ZFINX
    conv = Conv2D("c", 2, 3, kernel=(3, 3), padding=(1, 1))
    cat = catalogue()
    for step in ("fw", "wg", "ig"):
        spec = layer_step(conv, (2, 5, 5), step)
        called = _kernels_called(spec, ZFINX)
        assert called and all(cat[k].regfile == "x" for k in called), called
        assert all(cat[k].regfile == "f" for k in _kernels_called(spec, "rv32imfc_xpulpv2"))
    # the default matmul keeps its shape: mm_naive_n -> mmx_naive_n
    assert "mmx_naive_n" in _kernels_called(layer_step(conv, (2, 5, 5), "fw"), ZFINX)


@pytest.mark.parametrize("layer, shape, steps", [
    (Linear("fc", 13, 5), (13,), ("fw", "wg", "ig")),      # odd K: the 16-bit rows are padded
    (Conv2D("conv", 2, 4, kernel=(3, 3), padding=(1, 1)), (2, 6, 6), ("fw", "wg", "ig")),
    (ReLU("relu"), (3, 4, 4), ("fw", "ig")),
])
@pytest.mark.parametrize("precision", ["fp32", "fp16"])
def test_layer_steps_match_the_golden_model_under_gvsoc_2022(layer, shape, steps, precision):
    for step in steps:
        run = run_layer_step(layer, shape, step, config="gvsoc-2022", cores=8, seed=3,
                             precision=precision)
        run.check()
        if run.kernel is not None:
            assert catalogue()[run.kernel].regfile == "x", run.kernel


def test_tiled_step_with_a_chosen_zfinx_kernel_from_l2():
    layer = Linear("fc", 16, 12)
    run = run_layer_step(layer, (16,), "fw", kernel="mmx_2x2_n", memory="l2", tile=4,
                         config="gvsoc-2022", cores=8, seed=1)
    run.check()
    assert run.kernel == "mmx_2x2_n"


def test_tuner_candidates_are_the_ones_the_core_runs():
    layer = Conv2D("c", 4, 8, kernel=(3, 3), padding=(1, 1))
    for isa, regfile in ((ZFINX, "x"), ("rv32imfc_xpulpv2", "f")):
        cands = kernel_candidates(layer, "fw", "fp32", isa)
        assert cands and all(usable(k, isa) for k in cands)
        assert {catalogue()[k].regfile for k in cands} == {regfile}
    assert "mm_4x4_n" not in kernel_candidates(layer, "fw", "fp32", ZFINX)
    assert "mmx_4x2_n" in kernel_candidates(layer, "fw", "fp32", ZFINX)


@pytest.mark.parametrize("layer, shape, family", [
    (DepthWise("dw", 3, kernel=(3, 3), padding=(1, 1)), (3, 5, 5), "depthwise"),
    (MaxPool("pool", kernel=(2, 2), stride=(2, 2)), (2, 4, 4), "pooling"),
])
def test_step_without_a_zfinx_kernel_is_refused(layer, shape, family):
    spec = layer_step(layer, shape, "fw")
    assert unavailable(spec, "rv32imfc_xpulpv2") is None
    why = unavailable(spec, ZFINX)
    assert why and f"family {family}" in why and "single register file (zfinx)" in why
    with pytest.raises(NotAvailable, match=f"family {family}.*zfinx"):
        run_layer_step(layer, shape, "fw", config="gvsoc-2022", cores=2)


def test_model_is_refused_at_its_loss_before_any_run():
    """The loss kernels (asm_kernels/loss.s) have no single-register-file variant, so a whole
    training step cannot run on a zfinx core: the plan names the loss step."""
    model = Model((8,), [Linear("fc1", 8, 6), ReLU("r"), Linear("fc2", 6, 3)], name="m")
    plan_model(model, load_config("pulp-open"))
    with pytest.raises(NotAvailable, match=r"layer mse loss: .*family loss.*zfinx"):
        plan_model(model, load_config("gvsoc-2022"))


def test_cli_train_and_deploy_refuse_gvsoc_2022_in_one_line(capsys):
    from trainlib.cli import main
    from trainlib.deploy import deploy
    model = Model((8,), [Linear("fc1", 8, 6), ReLU("r"), Linear("fc2", 6, 3)], name="m")
    with pytest.raises(NotAvailable, match="x registers.*needs f registers"):
        deploy(model, 1, config="gvsoc-2022")
    deploy(model, 1, config="pulp-open")
    net = str(Path(__file__).resolve().parents[2] / "examples" / "pulp_trainlib_net0.toml")
    assert main(["train", net, "--config", "gvsoc-2022"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "layer dw1 fw: kernel mm_dw (depthwise)" in err and "family depthwise" in err
    assert "single register file (zfinx)" in err
