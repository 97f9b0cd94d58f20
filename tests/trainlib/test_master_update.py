"""The fp32 master-weight update of 16-bit layers (``trainlib.precision.master_update``): one
``sgd_master_<precision>`` call per tile, whose master copy is bit for bit the binary32 update
(two fused operations, as ``sgd_update`` computes it: tests/kernels/test_sgd_master.py's exact
reference) and within one binary32 rounding of the golden model's ``sgd``, whose 16-bit weights
are that master rounded, on both register-file models; and whole models with master weights
that follow their golden model step by step."""

from __future__ import annotations

import numpy as np
import pytest

from tests.kernels.test_sgd_master import reference
from trainlib import golden
from trainlib.errors import NotAvailable
from trainlib.formats import decode, encode
from trainlib.model import Model
from trainlib.precision import master_kernel, master_update
from trainlib.step import run_spec
from trainlib.workflow import update_spec

PRECS = ("fp16", "bf16")


@pytest.mark.parametrize("prec", PRECS)
def test_one_call_per_tile_and_no_binary32_gradient_buffer(prec):
    spec = master_update("fc", (5, 7), prec, 0.01, 0.0)
    assert [c.kernel for c in spec.tile(35)] == [f"sgd_master_{prec}"]
    assert spec.tile(12)[0].args["n"] == 12 and not spec.scratch
    assert {t.name: t.fmt for t in spec.tensors} == {"master": "fp32", "g": prec, "w": prec}
    with pytest.raises(NotAvailable, match="sgd_master_fp32"):
        master_kernel("fp32")


@pytest.mark.parametrize("prec", PRECS)
@pytest.mark.parametrize("memory, tile, config", [("tcdm", None, "pulp-open"),
                                                  ("l2", 10, "pulp-open"),
                                                  ("tcdm", None, "gvsoc-2022")])
def test_the_update_is_the_binary32_sgd_rounded_into_the_16_bit_weights(prec, memory, tile,
                                                                         config):
    rng = np.random.default_rng(3)
    master = rng.standard_normal(37).astype(np.float32)
    g = decode(encode(rng.standard_normal(37), prec), prec)
    lr, wd = 0.01, (0.1 if memory == "l2" else 0.0)
    spec = master_update("fc", (37,), prec, lr, wd)
    run = run_spec(spec, {"master": master, "g": g}, memory=memory, tile=tile, cores=4,
                   config=config)
    want_m, want_w = reference(master, g.astype(np.float64), lr, wd, prec)
    got_m = run.outputs["master"]
    assert np.array_equal(got_m.view(np.uint32), want_m.view(np.uint32))
    np.testing.assert_allclose(got_m, golden.sgd(master, g.astype(np.float32), lr, wd),
                               rtol=2.0 ** -22, atol=1e-30)
    assert np.array_equal(encode(run.outputs["w"], prec), encode(want_w, prec))
    assert np.array_equal(encode(run.outputs["w"], prec), encode(got_m, prec))


MLP = {"model": {"name": "mlp", "input": [24], "target": "random", "master_weights": True},
       "optimizer": {"lr": 0.05, "weight_decay": 0.01},
       "layer": [{"type": "linear", "name": "fc1", "in_features": 24, "out_features": 16},
                 {"type": "relu", "name": "r"},
                 {"type": "linear", "name": "fc2", "in_features": 16, "out_features": 6}]}


@pytest.mark.parametrize("prec, wd", [("fp16", 0.01), ("bf16", 0.0)])
def test_a_model_with_master_weights_follows_its_golden_model(prec, wd):
    """Losses and the fp32 master parameters after each of 4 steps on the simulator (packed
    16-bit layers, fused master updates) against the golden model's, within trainlib train's
    tolerances; the update is one call per parameter and step."""
    from trainlib.cli import matches
    from trainlib.train import train
    spec = {**MLP, "model": {**MLP["model"], "precision": prec},
            "optimizer": {**MLP["optimizer"], "weight_decay": wd}}
    m = Model.from_dict(spec)
    res = train(m, 4, cores=4)
    assert not matches(res, m), matches(res, m)
    assert all(res.params[la][p].dtype == np.float32 for la in ("fc1", "fc2")
               for p in ("weight", "bias"))
    updates = [s for s in res.stats[-1] if s.step.startswith("update")]
    assert len(updates) == 4 and all(s.cycles > 0 for s in updates)
    assert [c.kernel for c in update_spec(m, "fc1", "weight", (16, 24)).tile(384)] == [
        f"sgd_master_{prec}"]
