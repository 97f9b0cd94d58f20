"""``trainlib deploy`` of 16-bit and mixed-precision models: the program runs the same work
items as ``trainlib train`` (16-bit kernels, the conversions between formats, the fp32
master-weight updates), so the losses it prints and the parameters it leaves are the step
runs' bit for bit."""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np
import pytest

from isasim import cli as isasim_cli
from isasim.config import load_config
from isasim.machine import Machine
from trainlib import cli, golden
from trainlib.cli import rtol
from trainlib.deploy import deploy, read_back, run_deployed
from trainlib.errors import ModelError
from trainlib.memplan import plan_memory
from trainlib.model import Model
from trainlib.train import train

from .helpers import (
    LOSS_LINE,
    assert_same_as_step_runs_16,
    mixed_model_file,
    printed_losses,
)

STEPS = 3
NET0_16 = "examples/pulp_trainlib_net0_fp16.toml"


@pytest.mark.parametrize("memory,order", [("tcdm", "conventional"), ("l2", "reordered")])
def test_a_mixed_model_deploys_and_matches_the_step_runs(tmp_path, capsys, memory, order):
    path = mixed_model_file(tmp_path, memory)
    elf = str(tmp_path / "net.elf")
    assert cli.main(["deploy", path, "-o", elf, "--steps", str(STEPS), "--order", order]) == 0
    assert ("precision bf16+fp16+fp32, fp32 master weights; 8 conversion phase(s) per step"
            in capsys.readouterr().out)
    assert isasim_cli.main(["run", elf, "--cores", "8", "--quiet"]) == 0
    losses = printed_losses(capsys.readouterr().out)
    assert len(losses) == STEPS and losses[-1] < losses[0]
    model = Model.load(path)
    dep = deploy(model, STEPS, memory=memory, order=order)
    run = run_deployed(dep, program=elf)
    assert run.losses == losses
    res = train(model, STEPS, memory=memory)
    assert_same_as_step_runs_16(losses, run.params, res, model)
    steps = {ph.title for ph in dep.plan.phases}
    assert {"dw1 convert.x", "lrelu convert.x", "fc convert.x", "res convert.skip",
            "flat convert.dy", "res convert.dy", "relu1 convert.dy", "res convert.dskip"} <= steps
    # fp32 master copies: the trained parameters of the 16-bit layers, at their own symbols
    assert dep.param_symbols[("pw1", "weight")][::2] == ("master_pw1_weight", "fp32")
    assert dep.param_symbols[("fc", "weight")][::2] == ("param_fc_weight", "fp32")


def test_16_bit_tensors_take_two_bytes_and_masters_four():
    model = Model.load("examples/pulp_trainlib_net0_fp16.toml")
    plan = plan_memory(model, load_config("pulp-open").replace(cores=8), "l2")
    t = plan.tensors
    assert t["param.fc.weight"].fmt == "fp16" and t["param.fc.weight"].nbytes == 2 * 1024
    assert t["act1"].nbytes == 2 * 8 * 16 * 16
    # the loss (and its per-core partial sums) stay binary32: the printed bits are a float32
    assert t["loss"].fmt == "fp32"
    loss = next(ph for ph in plan.phases if ph.step == "loss")
    assert {s.name: s.fmt for s in loss.spec.scratch}["partial"] == "fp32"
    # conv1's K = 27 is odd: its phase pads the matmul rows from a zero constant, a buffer of
    # its own that its routine fills (by DMA, with the arguments) from the program's data
    conv1 = next(p for p, ph in enumerate(plan.phases) if ph.title == "conv1 fw")
    assert "conv1 fw/zeros16" in {b.name for b in plan.locals[conv1]}
    dep = deploy(model, 1, memory="l2")
    (const,) = dep.routines[conv1].consts
    assert const[1] == "const_zeros16"
    assert dep.program.symbol("const_zeros16") >= dep.cfg.l2_base
    routine = dep.driver.split("phase_conv1_fw:")[1].split("    ret")[0]
    assert "    la t0, const_zeros16" in routine


def test_the_fp16_default_net_matches_the_step_runs(tmp_path):
    model = Model.load("examples/pulp_trainlib_net0_fp16.toml")
    dep = deploy(model, 2)
    run = run_deployed(dep, program=dep.write(tmp_path / "net.elf"))
    assert printed_losses(run.stdout) == run.losses
    res = train(model, 2)
    assert_same_as_step_runs_16(run.losses, run.params, res, model)
    kernels = {c.kernel for ph in dep.plan.phases for c in ph.spec.tile(ph.spec.extent)}
    assert {"mmh_naive_n", "mm_dw_fp16", "mse_partial_fp16"} <= kernels


@pytest.mark.parametrize("order", ["conventional",
                                   pytest.param("reordered", marks=pytest.mark.slow)])
def test_the_fp16_ds_cnn_with_master_weights_matches_the_step_runs(tmp_path, order):
    model = Model.load("examples/ds_cnn_kws_fp16.toml")
    dep = deploy(model, 2, order=order)
    run = run_deployed(dep, program=dep.write(tmp_path / "net.elf"))
    res = train(model, 2)
    assert_same_as_step_runs_16(run.losses, run.params, res, model)
    if order == "reordered":
        # conv1's fused phase does not fit the TCDM with its fp32 master tiles: its weight
        # gradient and update stay two phases, one right after the other
        steps = [ph.title for ph in dep.plan.phases if ph.work.kind in ("wg", "wg+update",
                                                                         "update")]
        assert steps == ["fc wg+update", "pw1 wg+update", "dw1 wg+update", "conv1 wg",
                         "conv1 update.weight", "conv1 update.bias"]


def test_sparse_update_forms_on_16_bit_layers_follow_the_golden_model(tmp_path):
    """Bias-only (pw1, fp16) and channel fractions (dw1 fp16 with a master copy, fc fp32):
    the step runs have no sparse forms, so the golden model (binary32 sums where the kernels
    sum in binary32) is the reference, within the 16-bit loss tolerance of trainlib train."""
    text = Path(mixed_model_file(tmp_path)).read_text()
    for layer, extra in (("pw1", 'update = "bias"'), ("dw1", "update_channels = 0.5"),
                         ("fc", "update_channels = 0.4")):
        text = text.replace(f'name = "{layer}"\n', f'name = "{layer}"\n{extra}\n')
    model = Model.from_dict(tomllib.loads(text))
    assert model.update_bias_only == {"pw1"}
    x, target = model.sample()
    init = model.initial_params()
    params, ref = init, []
    for _ in range(STEPS):
        loss, params = golden.train_step(model, params, x, target, wide_acc=True)
        ref.append(loss)
    for memory, order in (("tcdm", "conventional"), ("l2", "reordered")):
        run = run_deployed(deploy(model, STEPS, memory=memory, order=order))
        np.testing.assert_allclose(run.losses, ref, rtol=rtol("fp16"))
        # the frozen parts keep their initial values (pw1's weight: rounded to binary16, it
        # has no master copy as it is never updated)
        w = run.params["pw1"]["weight"]
        assert w.dtype == np.float16 and np.array_equal(w, init["pw1"]["weight"].astype(w.dtype))
        assert run.params["pw1"]["bias"].dtype == np.float32            # its master copy
        for layer, k in (("dw1", 2), ("fc", 2)):
            got, before = run.params[layer]["weight"], init[layer]["weight"]
            assert np.array_equal(got[k:], before[k:]) and (got[:k] != before[:k]).any()


def test_the_printed_loss_is_the_binary32_word(tmp_path):
    """A 16-bit model's loss is a binary32 value (the loss kernels sum in binary32): the
    printed hex is its float32 bits, not a half-word widened."""
    model = Model.load(mixed_model_file(tmp_path, "tcdm"))
    run = run_deployed(deploy(model, 1))
    (_, dec, bits), = LOSS_LINE.findall(run.stdout)
    assert int(bits, 16) == run.loss_bits[0]
    assert np.float32(run.losses[0]) != np.float32(np.float16(run.losses[0]))
    assert abs(float(dec) / run.losses[0] - 1) < 2e-6


def test_a_precision_the_isa_lacks_is_refused_before_any_run(tmp_path, capsys):
    path = mixed_model_file(tmp_path)
    toml = tmp_path / "nof16.toml"
    toml.write_text('base = "pulp-open"\nxpulp = "rv32imfc_xpulpv2"\n')
    assert cli.main(["deploy", path, "-o", str(tmp_path / "x.elf"), "--config",
                     str(toml)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "precision bf16 (layer(s) lrelu, flat) needs the ISA extension(s) xf16alt, xfvec" in err
    toml.write_text('base = "pulp-open"\nxpulp = "rv32imfc_xpulpv2_xf16alt_xfvec"\n')
    with pytest.raises(ModelError, match=r"precision fp16 \(layer\(s\) dw1, pw1, res\) needs "
                                         r"the ISA extension\(s\) xf16,"):
        deploy(Model.load(path), 1, config=load_config(str(toml)))


def test_mixed_model_deployed_under_a_single_register_file_equals_train(tmp_path):
    """gvsoc-2022 (zfinx): every phase calls the kernels written for the x registers (the
    16-bit depthwise, conversions, loss and SGD ones included); the program's losses and
    parameters are those of ``trainlib train`` on the same preset."""
    model = Model.load(mixed_model_file(tmp_path))
    dep = deploy(model, 2, config="gvsoc-2022")
    run = run_deployed(dep)
    res = train(model, 2, config="gvsoc-2022")
    assert_same_as_step_runs_16(run.losses, run.params, res, model)


@pytest.mark.parametrize("path,memory", [(NET0_16, "l2"), (NET0_16, "auto"), (None, "tcdm")])
def test_no_phase_reads_tcdm_it_did_not_fill(tmp_path, path, memory):
    """The TCDM arena filled with binary16 NaNs before the run changes nothing: every phase
    writes its buffers (DMA of tiles, its zero-row constant for odd-K padding, the resident
    tensors' load) before it reads them."""
    model = Model.load(path or mixed_model_file(tmp_path))
    dep = deploy(model, 2, memory=memory)
    clean = run_deployed(dep)
    machine = Machine(dep.cfg).load(dep.program)
    nans = np.full(dep.plan.tcdm_arena // 4, 0x7E007E00, np.uint32)
    machine.write(dep.program.symbol("__deploy_l1"), nans)
    assert machine.run().exit_code == 0
    dirty = read_back(machine, dep)
    assert dirty.loss_bits == clean.loss_bits
