"""Training under the single register file (zfinx) of the ``gvsoc-2022`` preset.

Its cores keep FP values in the x registers (``rv32imc_zfinx_xpulpv2_xf16_xf16alt_xfvec``): every
call of a step runs the kernel written for that register-file model (``mmx_*`` matmuls,
``<k>_x`` kernels of asm_kernels/zfinx_gen.py, depthwise, loss and pooling included), so whole
training steps of the default net and the DS-CNN run there, on the simulator and deployed, and
equal the golden model, fp32 and fp16 (the depthwise kernels whose routines hold more values
than x registers keep some in stack slots).  A step whose kernel has no such variant (a
matmul whose register block needs more than the x registers, e.g. ``mm_4x6_n``, when a choice
table names one) is refused before any run, naming the step, the family and the model.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from asm_kernels.catalogue import catalogue, usable
from isasim.config import load_config
from tests.deploy.helpers import (
    assert_close_to_golden,
    assert_same_as_step_runs,
    printed_losses,
)
from trainlib.choices import Choice, ChoiceTable
from trainlib.cli import matches
from trainlib.driver import Call, for_core, kernels_of
from trainlib.errors import NotAvailable
from trainlib.layers import AvgPool, Conv2D, DepthWise, Linear, MaxPool, ReLU
from trainlib.lowering import kernel_candidates, layer_step, unavailable
from trainlib.model import Model
from trainlib.schedule import Tiling, driver_program
from trainlib.step import run_layer_step
from trainlib.train import train
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
    (MaxPool("pool", kernel=(2, 2), stride=(2, 2)), (3, 5, 4), ("fw", "ig")),
    (AvgPool("pool", kernel=(3, 2), stride=(2, 1)), (3, 6, 5), ("fw", "ig")),
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


@pytest.mark.parametrize("shape", [(3, 5, 5), (10, 4, 3)])
def test_depthwise_steps_match_the_golden_model_under_gvsoc_2022(shape):
    """Fewer and more channels than cores; the kernel is the single-register-file one."""
    layer = DepthWise("dw", shape[0], kernel=(3, 3), padding=(1, 1))
    for step in ("fw", "wg", "ig"):
        run = run_layer_step(layer, shape, step, config="gvsoc-2022", cores=8, seed=2)
        run.check()
        if run.kernel is not None:
            assert catalogue()[run.kernel].regfile == "x", run.kernel


@pytest.mark.parametrize("kernel, precision", [("mmh_4x6_n", "fp16"), ("mm_4x6_n", "fp32")])
def test_step_with_a_kernel_without_a_zfinx_variant_is_refused(kernel, precision):
    """4x6 register blocks of C need more values at once than the x registers hold (no
    ``mmx_4x6_n`` / ``mmhx_4x6_n``): a step that names one is refused before any run, naming
    the family and the model; the tuner never offers it under gvsoc-2022."""
    layer, shape = Linear("fc", 12, 8), (12,)
    fam = catalogue()[kernel].family
    spec = layer_step(layer, shape, "fw", kernel=kernel, precision=precision)
    assert unavailable(spec, "rv32imfc_xpulpv2_xf16_xfvec") is None
    why = unavailable(spec, ZFINX)
    assert why and f"family {fam} has no variant" in why and "(zfinx)" in why
    with pytest.raises(NotAvailable, match=f"family {fam} .*zfinx"):
        run_layer_step(layer, shape, "fw", kernel=kernel, config="gvsoc-2022", cores=2,
                       precision=precision)
    assert kernel not in kernel_candidates(layer, "fw", precision, ZFINX)


@pytest.mark.parametrize("kernel, step, precision", [
    ("mm_dw_1x4_u2", "fw", "fp32"), ("mm_dw_in_grad_1x4_u2", "ig", "fp32"),
    ("mm_dw_sp_1x4", "fw", "fp32"), ("mm_dw_in_grad_sp_1x4", "ig", "fp32"),
    ("mm_dw_in_grad_sp_1x4_fp16", "ig", "fp16"), ("mm_dw_in_grad_sp_1x4_bf16", "ig", "bf16")])
def test_depthwise_kernels_keeping_values_in_the_stack_run_under_gvsoc_2022(kernel, step,
                                                                            precision):
    """The depthwise kernels whose routines hold more values than the x registers (their
    variants keep outer-loop counts and strides in stack slots) are offered by the tuner and
    run there, equal to the golden model."""
    layer, shape = DepthWise("dw", 3, kernel=(3, 3), padding=(1, 1)), (3, 9, 9)
    assert kernel + "_x" in kernel_candidates(layer, step, precision, ZFINX)
    run = run_layer_step(layer, shape, step, kernel=kernel, config="gvsoc-2022", cores=8,
                         seed=3, precision=precision)
    run.check()
    assert run.kernel == kernel + "_x"


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize("name", ["pulp_trainlib_net0", "ds_cnn_kws", "pulp_trainlib_net0_fp16",
                                  "ds_cnn_kws_fp16"])
def test_whole_training_steps_match_the_golden_model_under_gvsoc_2022(name):
    """Every layer step and the loss (MSE for the default net, cross entropy for the DS-CNN)
    on the single register file: losses and parameters equal the golden model's (fp16: within
    its tolerance)."""
    model = Model.load(EXAMPLES / f"{name}.toml")
    res = train(model, 2, config="gvsoc-2022")
    assert not matches(res, model), matches(res, model)
    called = [s.kernel for s in res.stats[-1] if s.kernel]
    assert called and all(catalogue()[k].regfile == "x" for k in called), called
    assert any(catalogue()[k].family.startswith("depthwise") for k in called)


def test_an_fp16_model_trains_under_gvsoc_2022():
    """The 16-bit loss, bias, ReLU, SGD and matmul kernels in x registers."""
    model = Model.from_dict({
        "model": {"name": "mlp16", "input": [12], "target": "random", "precision": "fp16"},
        "optimizer": {"lr": 0.05},
        "layer": [{"type": "linear", "name": "fc1", "in_features": 12, "out_features": 8},
                  {"type": "relu", "name": "r"},
                  {"type": "linear", "name": "fc2", "in_features": 8, "out_features": 5}]})
    res = train(model, 2, config="gvsoc-2022")
    assert not matches(res, model), matches(res, model)


def test_model_is_refused_at_a_chosen_kernel_without_variant_before_any_run():
    model = Model.load(EXAMPLES / "ds_cnn_kws_fp16.toml")
    choices = ChoiceTable()
    choices.add(Choice("fc", "fw", "mmh_4x6_n"))
    plan_model(model, load_config("pulp-open"), choices=choices)
    with pytest.raises(NotAvailable, match=r"layer fc fw: .*family matmul_fp16.*zfinx"):
        plan_model(model, load_config("gvsoc-2022"), choices=choices)


@pytest.mark.parametrize("name, kernels", [
    ("ds_cnn_kws", {"fw": "mm_dw_1x4_u2", "wg": "mm_dw_in_grad_1x4_u2",
                    "ig": "mm_dw_in_grad_sp_1x4"}),
    ("ds_cnn_kws_fp16", {"ig": "mm_dw_in_grad_sp_1x4_fp16"})])
def test_ds_cnn_trains_with_the_depthwise_kernels_keeping_values_in_the_stack(name, kernels):
    """A choice table naming them for the DS-CNN's depthwise layer (the tuner's picks there
    for fp32) plans and trains under gvsoc-2022, equal to the golden model."""
    model = Model.load(EXAMPLES / f"{name}.toml")
    choices = ChoiceTable()
    for step, kernel in kernels.items():
        choices.add(Choice("dw1", step, kernel))
    plan_model(model, load_config("gvsoc-2022"), choices=choices)
    res = train(model, 2, config="gvsoc-2022", choices=choices)
    assert not matches(res, model), matches(res, model)
    called = {s.kernel for s in res.stats[-1] if s.kernel}
    assert {k + "_x" for k in kernels.values()} <= called, called


def test_deployed_net_under_gvsoc_2022_equals_train():
    """The whole-step program (every call the zfinx kernel, the loss printing without f
    registers) gives the losses and parameters of ``trainlib train`` on the same preset."""
    from trainlib.deploy import deploy, run_deployed
    model = Model.load(EXAMPLES / "pulp_trainlib_net0.toml")
    dep = deploy(model, 2, config="gvsoc-2022")
    assert "mm_dw_x" in {k.name for k in kernels_of([it for r in dep.routines
                                                      for it in r.items])}
    run = run_deployed(dep)
    res = train(model, 2, config="gvsoc-2022")
    assert printed_losses(run.stdout) == run.losses == res.losses
    assert_same_as_step_runs(run.losses, run.params, res)
    assert_close_to_golden(run.losses, run.params, model, 2)


def test_cli_train_and_deploy_refuse_a_kernel_without_variant_in_one_line(capsys, tmp_path):
    from trainlib.cli import main
    from trainlib.deploy import deploy
    model = Model.load(EXAMPLES / "pulp_trainlib_net0.toml")
    choices = ChoiceTable()
    choices.add(Choice("pw1", "fw", "mm_4x6_n"))
    with pytest.raises(NotAvailable, match="family matmul .*zfinx"):
        deploy(model, 1, config="gvsoc-2022", choices=choices)
    table = tmp_path / "choices.toml"
    choices.save(table)
    net = str(EXAMPLES / "pulp_trainlib_net0.toml")
    for argv in (["train", net, "--config", "gvsoc-2022", "--choices", str(table)],
                 ["deploy", net, "--config", "gvsoc-2022", "--choices", str(table), "-o",
                  str(tmp_path / "n.elf")]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err
        assert "layer pw1 fw: kernel mm_4x6_n (mm)" in err
        assert "family matmul has no variant" in err and "(zfinx)" in err
