"""16-bit steps on the simulator: element formats in memory, the lowering to the 16-bit kernel
families (and its refusals), conversions between precisions, fp32 master weights, and the ISA
check."""

from __future__ import annotations

import numpy as np
import pytest

from isasim.config import load_config
from trainlib import golden
from trainlib.driver import run_config
from trainlib.errors import ModelError, NotAvailable, PlanError
from trainlib.formats import decode, encode
from trainlib.layers import Conv2D, Linear
from trainlib.lowering import layer_step, unavailable
from trainlib.model import Model
from trainlib.planner import plan_step
from trainlib.precision import counterpart, missing_extensions
from trainlib.step import run_layer_step
from trainlib.workflow import plan_model, work_list

FC = Linear("fc", 20, 10, bias=False)


def test_formats_round_to_nearest_even_and_back():
    v = np.array([1.0, 1.0 + 2.0 ** -11, 1.0 + 3 * 2.0 ** -11, -2.5e-8, 70000.0, 0.1],
                 np.float32)
    f16 = decode(encode(v, "fp16"), "fp16")
    assert f16.dtype == np.float16 and f16[4] == np.inf                 # overflow to infinity
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(f16, v.astype(np.float16))   # 1 + 2^-11 is a tie: to 1
    assert f16[1] == 1.0 and f16[2] == np.float16(1.0 + 2.0 ** -9)
    b16 = decode(encode(v, "bf16"), "bf16")
    np.testing.assert_array_equal(b16, golden.round_to(v, "bf16").astype(np.float32))
    assert encode(np.float32(1.0 + 2.0 ** -8), "bf16")[0] == 0x3F80     # a tie: to even
    assert encode(np.float32(1.0 + 3 * 2.0 ** -8), "bf16")[0] == 0x3F82


@pytest.mark.parametrize("memory, tile", [("tcdm", None), ("l2", 4)])
def test_fp16_linear_forward_runs_with_the_binary16_matmul(memory, tile):
    run = run_layer_step(FC, (20,), "fw", precision="fp16", memory=memory, tile=tile, cores=4)
    assert run.kernel == "mmh_naive_n" and run.outputs["y"].dtype == np.float16
    run.check()
    # vfdotpex sums the binary16 products in binary32: the result is the golden model's
    # accumulating in fp32 (acc="fp32") to within one rounding of the binary16 result
    d = {k: v for k, v in run_layer_step(FC, (20,), "fw").golden.items()}
    ref = golden.forward(FC, *_fw_inputs(), precision="fp16", acc="fp32").astype(np.float64)
    ulp = np.spacing(np.abs(ref).astype(np.float16)).astype(np.float64)
    assert (np.abs(run.outputs["y"].astype(np.float64) - ref) <= ulp).all(), d
    # beyond the bound (golden.tolerance, 2 (K + 2) eps16 sum|terms|) the check fails
    w = run.bounds["y"]
    y = run.outputs["y"].astype(np.float64)
    i = int(np.argmax(w))
    run.outputs["y"] = (y + np.where(np.arange(y.size) == i, 1.5 * w, 0.0)).astype(np.float16)
    with pytest.raises(AssertionError, match=f"fw: y\\[{i}\\]"):
        run.check()


def _fw_inputs():
    from trainlib.step import step_inputs
    d = step_inputs(FC, (20,), "fw")
    return d["x"], {"weight": d["weight"]}


def test_fp16_steps_tune_among_fp16_kernels_only():
    from trainlib.lowering import kernel_candidates
    got = kernel_candidates(FC, "fw", "fp16")
    assert got and all(n.startswith("mmh") for n in got)
    assert not any(n.startswith("mmh") for n in kernel_candidates(FC, "fw"))
    with pytest.raises(ModelError, match="needs a matmul_fp16 kernel"):
        layer_step(FC, (20,), "fw", "mm_4x4_n", precision="fp16")
    with pytest.raises(ModelError, match="needs a matmul kernel"):
        layer_step(FC, (20,), "fw", "mmh_4x4_n")


def test_odd_half_word_tiles_are_refused_the_dma_moves_words():
    spec = layer_step(FC, (20,), "fw", precision="fp16")
    cfg = run_config("pulp-open", 8)
    with pytest.raises(PlanError, match="word boundary"):
        plan_step(spec, "l2", cfg, tile=3)
    assert plan_step(spec, "l2", cfg, tile=4).tiles == 3
    fp32 = layer_step(FC, (20,), "fw")
    assert plan_step(fp32, "l2", cfg, tile=3).tiles == 4


def test_untransposed_b_is_transposed_by_a_16_bit_kernel_or_refused_by_family():
    """mmh kernels take B transposed only: a product with B as K x M (K, M > 1) gets a 16-bit
    transpose first; M = 1 or K = 1 needs none (a vector is its own transpose)."""
    ig = layer_step(FC, (20,), "ig", precision="fp16")
    tr = counterpart("transpose", "fp16")
    if tr is None:
        assert "transpose_fp16" in unavailable(ig)
    else:
        calls = ig.tile(ig.extent)
        assert [c.label for c in calls] == ["transpose", "mm"]
        assert calls[1].args["trans_B"] == 1
    fw = layer_step(FC, (20,), "fw", precision="fp16")     # B = x, a vector: no transpose
    assert [(c.label, c.args["trans_B"]) for c in fw.tile(10)] == [("mm", 1)]


@pytest.mark.parametrize("precision", ["fp16", "bf16"])
def test_conv_weight_gradient_writes_b_transposed_for_the_packed_matmuls(precision):
    """The Conv2D weight gradient's B is the im2row rows (K = Ho*Wo x M = C*Hk*Wk); for the
    packed 16-bit matmuls (B transposed only) the prologue writes them transposed (im2col_16),
    so the tile is the matmul alone; fp32 keeps im2row with trans_B = 0.  An odd K keeps im2row:
    its rows padded to K + 1 are built through a transpose either way.  The steps run and meet
    the golden model (strided and padded layers, 3 cores)."""
    conv = Conv2D("c", 3, 4, (3, 2), (2, 1), (1, 0), bias=True)
    shape = (3, 7, 6)                                   # Ho x Wo = 4 x 5: K = 20
    wg = layer_step(conv, shape, "wg", precision=precision)
    assert [c.kernel for c in wg.prologue()] == ["im2col_16"]
    calls = wg.tile(wg.extent)
    assert [c.label for c in calls] == ["mm", "bias"]
    assert (calls[0].args["B"].buf, calls[0].args["trans_B"]) == ("i2r", 1)
    fp32 = layer_step(conv, shape, "wg")
    assert [c.kernel for c in fp32.prologue()] == ["im2row"]
    assert fp32.tile(fp32.extent)[0].args["trans_B"] == 0
    run_layer_step(conv, shape, "wg", precision=precision, cores=3).check()
    odd = Conv2D("c", 3, 4, (3, 3), (1, 1), (1, 1), bias=False)    # 5 x 5: K = 25
    wg = layer_step(odd, (3, 5, 5), "wg", precision=precision)
    assert [c.kernel for c in wg.prologue()] == ["im2row_16"]
    run_layer_step(odd, (3, 5, 5), "wg", precision=precision, cores=3).check()


def test_odd_k_pads_the_rows_the_binary16_matmuls_read():
    """The binary16 matmuls read rows padded to an even K: with K odd the tile pads the rows
    of A and B first (zero fill, transposes) unless an operand is a single row.  A linear
    weight gradient is an outer product (K = 1): both operands padded."""
    wg = layer_step(FC, (20,), "wg", precision="fp16")
    if counterpart("transpose", "fp16") is None or counterpart("copy", "fp16") is None:
        assert "row padding" in unavailable(wg)
        return
    calls = wg.tile(10)
    assert [c.label for c in calls] == ["pad"] * 6 + ["mm"]
    mm = calls[-1]
    assert (mm.args["A"].buf, mm.args["B"].buf, mm.args["K"]) == ("ap", "bp", 1)
    fw = layer_step(Linear("fc", 21, 10, bias=False), (21,), "fw", precision="fp16")
    assert [c.label for c in fw.tile(10)] == ["pad"] * 3 + ["mm"]       # A only: B is x


def test_a_missing_16_bit_family_is_named_not_crashed():
    spec = layer_step(Conv2D("c", 3, 4, (3, 3)), (3, 6, 6), "fw", precision="fp16")
    why = unavailable(spec)
    if counterpart("im2row", "fp16") is None:
        assert "im2row" in why and "im2col_fp16" in why
    else:
        assert why is None or "bias" in why


MIXED = {"model": {"name": "mixed", "input": [16], "loss": "mse"},
         "layer": [{"type": "linear", "name": "fc1", "in_features": 16, "out_features": 8,
                    "bias": False, "precision": "fp16"},
                   {"type": "relu", "name": "r"},
                   {"type": "flatten", "name": "flat"},
                   {"type": "linear", "name": "fc2", "in_features": 8, "out_features": 4,
                    "precision": "bf16"}]}


def test_conversions_sit_where_the_golden_model_rounds():
    m = Model.from_dict(MIXED)
    assert [m.precision_of(la.name) for la in m.layers] == ["fp16", "fp32", "fp32", "bf16"]
    keys = [(w.key(m), w.src, w.dst) for w in work_list(m) if w.kind == "convert"]
    assert keys == [(("r", "convert.x"), "fp16", "fp32"),
                    (("fc2", "convert.x"), "fp32", "bf16"),
                    (("flat", "convert.dy"), "bf16", "fp32"),
                    (("fc1", "convert.dy"), "fp32", "fp16")]
    order = [w.key(m) for w in work_list(m)]
    assert order.index(("fc1", "convert.dy")) < order.index(("fc1", "wg"))
    with pytest.raises(ModelError, match="view has no precision"):
        Model.from_dict({**MIXED, "layer": [*MIXED["layer"][:2],
                                            {"type": "flatten", "precision": "fp16"},
                                            MIXED["layer"][3]]})


def test_a_missing_conversion_kernel_is_refused_by_name_before_any_run():
    from trainlib.precision import convert_kernel
    m = Model.from_dict(MIXED)
    try:
        convert_kernel("fp16", "fp32")
    except NotAvailable:
        with pytest.raises(NotAvailable, match="family convert"):
            plan_model(m, run_config("pulp-open", 8))


def test_a_precision_the_isa_lacks_is_refused_naming_the_extension():
    m = Model.from_dict(MIXED)
    cfg = run_config(load_config("pulp-open").replace(xpulp="rv32imfc_xpulpv2_xf16"), 8)
    with pytest.raises(ModelError, match=r"precision bf16 \(layer\(s\) fc2\) needs the ISA "
                                         r"extension\(s\) xf16alt, xfvec"):
        plan_model(m, cfg)
    assert missing_extensions("fp16", "rv32imfc_xpulpv2_xf16") == ["xfvec"]
    assert missing_extensions("fp16", "xpulpv2") == []
    assert missing_extensions("fp32", "rv32imc") == []


def test_master_weights_keep_updates_smaller_than_a_binary16_ulp():
    """SGD steps below half an ulp of a binary16 weight vanish when the weight itself is
    updated in fp16; on an fp32 master copy they accumulate (mixed-precision training)."""
    spec = {"model": {"input": [4], "precision": "fp16", "target": "random"},
            "optimizer": {"lr": 1e-4},
            "layer": [{"type": "linear", "in_features": 4, "out_features": 3}]}
    plain = Model.from_dict(spec)
    master = Model.from_dict({**spec, "model": {**spec["model"], "master_weights": True}})
    assert Model.from_dict(master.to_dict()).master_weights
    _, p16 = golden.train(plain, 5)
    _, p32 = golden.train(master, 5)
    w0 = plain.initial_params()["linear0"]["weight"]
    assert p16["linear0"]["weight"].dtype == np.float16
    assert p32["linear0"]["weight"].dtype == np.float32
    stuck = p16["linear0"]["weight"] == w0.astype(np.float16)
    moved = p32["linear0"]["weight"] != w0
    assert stuck.sum() > 0 and moved.all()


FROZEN16 = {"model": {"name": "mixf", "input": [16], "target": "random", "update": ["fc2"]},
            "layer": [{"type": "linear", "name": "fc1", "in_features": 16, "out_features": 8,
                       "precision": "fp16"},
                      {"type": "relu", "name": "r", "precision": "fp16"},
                      {"type": "linear", "name": "fc2", "in_features": 8, "out_features": 4}]}


def test_a_mixed_model_trains_with_its_conversions_counted():
    """fp16 linear + ReLU (frozen) feeding an fp32 classifier: the fp16 -> fp32 conversion is
    a step of its own on the simulator, and the losses and parameters follow the golden
    model, which rounds at the same place."""
    from trainlib.cli import matches, rtol
    from trainlib.train import train
    m = Model.from_dict(FROZEN16)
    res = train(m, 3, cores=4)
    assert not matches(res, m), matches(res, m)
    steps = {(s.layer, s.step): s for s in res.stats[-1]}
    assert steps[("fc2", "convert.x")].cycles > 50
    assert steps[("fc1", "fw")].kernel == "mmh_naive_n"
    assert sum(s.cycles for s in res.stats[-1]) == res.cycles_per_step()[-1]
    # the per-format tolerance is what lets it pass, and it is not loose enough to hide a
    # wrong loss: 2 % off fails
    assert rtol("fp16") == 8 * 2.0 ** -10 and rtol("fp32") == 1e-4
    res.losses[1] *= 1.02
    assert matches(res, m) == [f"step 2: loss {res.losses[1]:.7g}, golden "
                               f"{res.golden_losses[1]:.7g}"]


FP16_MLP = {"model": {"name": "mlp16", "input": [24], "target": "random", "precision": "fp16"},
            "optimizer": {"lr": 0.05},
            "layer": [{"type": "linear", "name": "fc1", "in_features": 24, "out_features": 16},
                      {"type": "relu", "name": "r"},
                      {"type": "linear", "name": "fc2", "in_features": 16, "out_features": 6}]}


def test_an_fp16_model_follows_its_golden_model_step_by_step():
    """Every step of an all-fp16 model on the simulator (packed matmuls, padded rows for the
    outer-product weight gradients, the 16-bit bias, ReLU, loss and SGD kernels): its loss
    trajectory is the fp16 golden model's, step by step, and not the fp32 one's."""
    from trainlib.cli import matches
    from trainlib.train import train
    m = Model.from_dict(FP16_MLP)
    try:
        res = train(m, 5, cores=4)
    except NotAvailable as e:
        pytest.skip(f"the fp16 kernels are not all in the catalogue: {e}")
    assert not matches(res, m), matches(res, m)
    g16 = np.array(res.golden_losses)
    assert np.abs(np.array(res.losses) - g16).max() <= 8 * 2.0 ** -10 * np.abs(g16).max()
    l32, _ = golden.train(Model.from_dict({**FP16_MLP, "model": {**FP16_MLP["model"],
                                                                  "precision": "fp32"}}), 5)
    assert not np.array_equal(np.float32(res.losses), np.float32(l32))
    assert res.losses[-1] < res.losses[0]


def test_plan_lists_the_conversions_and_the_whole_step_plans(tmp_path, capsys):
    from trainlib.cli import main
    p = tmp_path / "m.toml"
    p.write_text(Model.from_dict(FROZEN16).dumps())
    assert main(["plan", str(p)]) == 0
    out = capsys.readouterr().out
    assert "fc2 convert.x" in out and "whole-step memory plans" in out


def test_the_master_weight_update_runs_sgd_in_fp32_and_rounds_into_the_16_bit_weights():
    from trainlib.precision import master_update
    from trainlib.step import run_spec
    rng = np.random.default_rng(3)
    master = rng.standard_normal(37).astype(np.float32)
    g = rng.standard_normal(37).astype(np.float16)
    spec = master_update("fc", (37,), "fp16", 0.01, 0.1)
    assert [c.kernel for c in spec.tile(37)] == ["sgd_master_fp16"]
    for memory, tile in (("tcdm", None), ("l2", 10)):
        run = run_spec(spec, {"master": master, "g": g}, memory=memory, tile=tile, cores=4)
        want = golden.sgd(master, g.astype(np.float32), 0.01, 0.1)
        np.testing.assert_allclose(run.outputs["master"], want, rtol=2e-7, atol=1e-7)
        assert run.outputs["w"].dtype == np.float16
        np.testing.assert_array_equal(run.outputs["w"], run.outputs["master"].astype(np.float16))


@pytest.mark.parametrize("src, dst", [("fp32", "fp16"), ("fp16", "fp32"), ("fp32", "bf16"),
                                      ("bf16", "fp32"), ("fp16", "bf16"), ("bf16", "fp16")])
def test_conversions_round_as_the_golden_model(src, dst):
    from trainlib.precision import convert_spec
    from trainlib.step import run_spec
    rng = np.random.default_rng(5)
    x = (rng.standard_normal(29) * np.exp2(rng.integers(-20, 20, 29))).astype(np.float32)
    x = golden.round_to(x, src).astype(golden.FORMATS[src].dtype)
    spec = convert_spec("t", "convert.x", (29,), src, dst)
    run = run_spec(spec, {"x": x}, cores=3)
    with np.errstate(over="ignore"):
        want = golden.round_to(x.astype(np.float64), dst)
    np.testing.assert_array_equal(run.outputs["y"].astype(np.float64), want)
