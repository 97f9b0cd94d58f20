"""Whole-step memory plans: lifetimes, packing, the reordered update, the sparse forms, and
the budget that refuses what does not fit."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from trainlib import cli, golden
from trainlib.deploy import deploy, deploy_config, run_deployed
from trainlib.errors import ModelError, PlanError
from trainlib.memplan import _moved, plan_memory
from trainlib.model import Model
from trainlib.train import golden_step

from .helpers import assert_close_to_golden, small_model_file

CFG = deploy_config("pulp-open", 8)
EXAMPLES = ["examples/pulp_trainlib_net0.toml", "examples/ds_cnn_kws.toml"]
EXAMPLES_16 = ["examples/pulp_trainlib_net0_fp16.toml", "examples/ds_cnn_kws_fp16.toml",
               "tests/deploy/mixed.toml"]


def _overlap(a, b) -> bool:
    return (a.first <= b.last and b.first <= a.last
            and a.offset < b.offset + b.nbytes and b.offset < a.offset + a.nbytes)


@pytest.mark.parametrize("path", EXAMPLES + EXAMPLES_16)
@pytest.mark.parametrize("order", ["conventional", "reordered"])
def test_tensors_live_at_once_never_share_bytes(path, order):
    plan = plan_memory(Model.load(path), CFG, None, order)
    for place in ("tcdm", "l2"):
        packed = [t for t in plan.tensors.values()
                  if t.place == place and not (t.persistent and place == "l2")]
        packed += [t for ls in plan.locals for t in ls if t.place == place]
        for i, a in enumerate(packed):
            assert a.offset >= 0
            for b in packed[i + 1:]:
                assert not _overlap(a, b), (a.name, b.name)
        arena = plan.tcdm_arena if place == "tcdm" else plan.l2_arena
        assert all(t.offset + t.nbytes <= arena for t in packed)
    # every non-persistent tensor is first written, then read
    for t in plan.tensors.values():
        if not t.persistent:
            ph = plan.phases[t.first]
            assert any(ph.binds[u.name] == t.name and u.role != "in" for u in ph.spec.tensors)


@pytest.mark.parametrize("path", EXAMPLES)
def test_reordered_lowers_the_peak(path):
    model = Model.load(path)
    conv = plan_memory(model, CFG, None, "conventional")
    reord = plan_memory(model, CFG, None, "reordered")
    assert reord.l1_peak + reord.l2_peak < conv.l1_peak + conv.l2_peak
    # no weight gradient tensor exists at all: each is fused with its update, tile by tile
    assert not [n for n in reord.tensors if n.startswith("dparam.")]
    steps = [(p.layer, p.step) for p in reord.phases]
    for layer in model.updated:
        fused = steps.index((layer, "wg+update"))
        if (layer, "ig") in steps:
            assert steps.index((layer, "ig")) < fused       # the weights' last read first
    assert not [s for s in steps if s[1].startswith("update.")]


def test_sparse_forms_follow_the_golden_model(tmp_path):
    """Bias-only and channel-fraction updates, deployed in both orders and memories."""
    path = small_model_file(tmp_path, "auto", pw1_extra='update = "bias"',
                            fc_extra="update_channels = 0.4")
    model = Model.load(path)
    assert model.update_bias_only == {"pw1"} and model.update_channels == {"fc": 0.4}
    init = model.initial_params()
    for memory, order in (("tcdm", "conventional"), ("l2", "reordered")):
        run = run_deployed(deploy(model, 3, memory=memory, order=order))
        assert_close_to_golden(run.losses, run.params, model, 3)
        assert np.array_equal(run.params["pw1"]["weight"], init["pw1"]["weight"])
        assert not np.array_equal(run.params["pw1"]["bias"], init["pw1"]["bias"])
        changed = (run.params["fc"]["weight"] != init["fc"]["weight"]).any(axis=1)
        assert changed.tolist() == [True, True, False, False, False]     # ceil(0.4 * 5) = 2


def test_golden_sparse_forms_against_the_full_update(tmp_path):
    model = Model.load(small_model_file(tmp_path))
    x, t = model.sample()
    p = model.initial_params()
    loss, full = golden.train_step(model, p, x, t)
    ref_loss, ref = golden_step(model, p, x, t)         # the full update, as train runs it
    assert loss == ref_loss
    for layer, ps in ref.items():
        for name, v in ps.items():
            assert np.array_equal(full[layer][name], v)
    sparse = Model.load(small_model_file(tmp_path, pw1_extra='update = "bias"',
                                         fc_extra="update_channels = 0.5"))
    _, part = golden.train_step(sparse, p, x, t)
    assert np.array_equal(part["pw1"]["weight"], p["pw1"]["weight"])
    assert np.array_equal(part["pw1"]["bias"], full["pw1"]["bias"])
    k = 3                                                                  # ceil(0.5 * 5)
    assert np.array_equal(part["fc"]["weight"][:k], full["fc"]["weight"][:k])
    assert np.array_equal(part["fc"]["weight"][k:], p["fc"]["weight"][k:])
    assert np.array_equal(part["fc"]["bias"][k:], p["fc"]["bias"][k:])


@pytest.mark.parametrize("extra,message", [
    ('update = "bias"', "has no bias"),
    ("update_channels = 1.5", "fraction in (0, 1]"),
    ('update_channels = "half"', "must be a number"),
    ("update = 3", 'true, false or "bias"'),
])
def test_bad_sparse_forms_are_refused_by_layer(tmp_path, extra, message):
    with pytest.raises(ModelError, match=re.escape(message)):
        Model.load(_with_dw_extra(tmp_path, extra))


def _with_dw_extra(tmp_path, extra: str) -> str:
    """The small model with ``extra`` on the depthwise layer (which has no bias)."""
    path = small_model_file(tmp_path)
    p = Path(path)
    p.write_text(p.read_text().replace('padding = 1\n\n[[layer]]\ntype = "pointwise"',
                                       f'padding = 1\n{extra}\n\n[[layer]]\ntype = "pointwise"'))
    return path


def _peaks(path: str) -> tuple[int, int]:
    model = Model.load(path)
    return tuple(plan_memory(model, CFG, "l2", o).l2_peak for o in ("conventional",
                                                                     "reordered"))


def test_budget_names_the_tensor_and_suggests_the_reordered_form(tmp_path, capsys):
    path = small_model_file(tmp_path, "l2")
    conv, reord = _peaks(path)
    assert reord < conv
    budget = str((conv + reord) // 2)
    for cmd in (["plan", path, "--memory", "l2"],
                ["deploy", path, "-o", str(tmp_path / "x.elf"), "--memory", "l2"]):
        assert cli.main(cmd + ["--l2", budget]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err
        assert f"needs {conv} bytes of L2, the budget is {budget}" in err
        assert f"({conv - int(budget)} bytes short)" in err
        assert "the largest tensor is" in err
        assert "it fits with update order 'reordered'" in err
    assert not (tmp_path / "x.elf").exists()
    assert cli.main(["plan", path, "--memory", "l2", "--order", "reordered", "--l2",
                     budget]) == 0
    out = capsys.readouterr().out
    assert "peak L1" in out and "peak L2" in out and f"{reord:,}" in out


def test_a_model_that_fits_under_no_form_gets_one_error(tmp_path, capsys):
    path = small_model_file(tmp_path, "l2")
    assert cli.main(["deploy", path, "-o", str(tmp_path / "x.elf"), "--l2", "1KiB"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no update form fits (the smallest" in err


def test_tcdm_budget_is_refused_with_the_phase(tmp_path):
    """Every phase fits the TCDM alone, the resident tensors of the whole step do not."""
    model = Model.load(small_model_file(tmp_path, "tcdm"))
    cfg = deploy_config("pulp-open", 4).replace(tcdm_size=10240)
    with pytest.raises(PlanError) as e:
        plan_memory(model, cfg, None, "conventional")
    msg = str(e.value)
    assert re.search(r"needs \d+ bytes of TCDM, 6144 available \(\d+ bytes short\); at the "
                     r"peak \(dw1 wg\) the largest tensor is", msg), msg
    assert "it fits with the tensors in L2 (memory 'l2')" in msg
    with pytest.raises(PlanError, match="layer dw1 wg: needs 4128 bytes of TCDM"):
        plan_memory(model, cfg.replace(tcdm_size=8192), None, "conventional")


def test_plan_writes_the_memory_timeline(tmp_path, capsys):
    out = tmp_path / "memory.html"
    assert cli.main(["plan", EXAMPLES[0], "--timeline", str(out)]) == 0
    page = out.read_text()
    model = Model.load(EXAMPLES[0])
    for order in ("conventional", "reordered"):
        plan = plan_memory(model, CFG, None, order)
        assert f"{order} updates" in page and f"L2, {plan.l2_peak:,} bytes at the peak" in page
        for t in plan.tensors.values():                 # every tensor has its box
            assert f"<title>{t.name}: {t.nbytes:,} B" in page
    assert page.count("<svg") == 4


def test_sparse_forms_survive_the_model_file_round_trip(tmp_path):
    m = Model.load(small_model_file(tmp_path, pw1_extra='update = "bias"',
                                    fc_extra="update_channels = 0.4"))
    again = Model.from_dict(m.to_dict())
    assert again.update_bias_only == {"pw1"} and again.update_channels == {"fc": 0.4}
    assert again.updated == m.updated


@pytest.mark.parametrize("path", EXAMPLES)
def test_auto_homes_tensors_in_tcdm_where_the_step_still_fits(path):
    """Neither example fits resident; planned as a whole step, some tensors move to TCDM
    (used in place by the phases that read them), the DMA moves fewer bytes, and the packed
    TCDM still fits."""
    model = Model.load(path)
    streamed = plan_memory(model, CFG, "l2", "conventional")
    mixed = plan_memory(model, CFG, "auto", "conventional")
    assert streamed.memory == "l2" and mixed.memory == "mixed"
    homed = {n for n, t in mixed.tensors.items() if t.place == "tcdm"}
    assert homed and mixed.l1_peak <= mixed.tcdm_budget
    assert _moved(mixed) < _moved(streamed)
    assert mixed.l2_arena < streamed.l2_arena or any(mixed.tensors[n].persistent for n in homed)
    for ph in mixed.phases:
        assert ph.resident == {u.name for u in ph.spec.tensors if ph.binds[u.name] in homed}


def test_step_by_step_training_refuses_sparse_forms(tmp_path):
    """trainlib train lowers full updates only: a sparse model is sent to trainlib deploy
    instead of being trained silently with full updates."""
    from trainlib.errors import ModelError
    from trainlib.train import train
    sparse = Model.load(small_model_file(tmp_path, pw1_extra='update = "bias"'))
    with pytest.raises(ModelError, match="trainlib deploy"):
        train(sparse, 1, cores=1)
