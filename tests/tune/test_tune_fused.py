"""The fused weight-gradient/update phase of the reordered update order as a tuned step of its
own (``wg+update``): its candidates are checked against the golden weight gradient's update
and give the same bits at every tiling, the tuner measures its tilings with the weight
gradient's kernel on the deployed program's TCDM, and the choice table's entry tiles the
deployed phase (a table without one tiles it as the weight gradient), bit for bit."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from tests.deploy.helpers import assert_same_as_step_runs
from tests.tune.test_tune_update import MLP
from trainlib.choices import FUSED_STEP, Choice, ChoiceTable
from trainlib.deploy import deploy, deploy_config, run_deployed
from trainlib.errors import ModelError
from trainlib.layers import DepthWise
from trainlib.memplan import plan_memory
from trainlib.model import Model
from trainlib.planner import measure
from trainlib.schedule import Tiling
from trainlib.train import train
from trainlib.tune.cache import ResultCache
from trainlib.tune.measure import fused_spec_of, run_fused_step
from trainlib.tune.tuner import TuneOptions, tune_model, tune_steps, update_steps

KERNEL = "mmh_6x4_n"


def _fc1(master: bool = True):
    model = Model.from_dict(MLP)
    la, shape, _, prec, opt = update_steps(model)[0]
    return la, shape, prec, dict(opt, master_weights=master)


@pytest.mark.parametrize("master", [True, False])
def test_the_fused_candidate_follows_the_golden_update_with_the_same_bits_at_every_tiling(
        master):
    """One tile, double-buffered tiles, single-buffered tiles: the same parameters (and master
    copies), within the golden weight gradient's update; a wrong learning rate is caught."""
    la, shape, prec, opt = _fc1(master)
    runs = [run_fused_step(la, shape, KERNEL, opt, precision=prec, tile=t, cores=4)
            for t in (48, 24, 16)]
    # a TCDM that holds three tiles of 16 single-buffered only (the runs' stacks: 512 B)
    tcdm, _ = measure(fused_spec_of(la, shape, KERNEL, opt, prec), Tiling("l2", 16, False))
    single = run_fused_step(la, shape, KERNEL, opt, precision=prec, tile=16, cores=4,
                            config=deploy_config("pulp-open", 4).replace(
                                tcdm_size=tcdm + 4 * 512))
    assert [r.plan.tiles for r in runs] == [1, 2, 3]
    assert runs[2].plan.tiling.double_buffer and not single.plan.tiling.double_buffer
    assert set(runs[0].golden) == ({"weight", "bias", "master_weight", "master_bias"}
                                   if master else {"weight", "bias"})
    for r in [*runs, single]:
        r.check()
        for name, value in runs[0].outputs.items():
            assert np.array_equal(r.outputs[name].view(np.uint32), value.view(np.uint32)), name
    wrong = run_fused_step(la, shape, KERNEL, dict(opt, lr=0.06), precision=prec, tile=24,
                           cores=4)
    wrong.golden, wrong.bounds = runs[0].golden, runs[0].bounds
    with pytest.raises(AssertionError, match="fc1 wg[+]update"):
        wrong.check()


def _tight_config():
    """pulp-open with a TCDM where fc1's fused phase fits in two tiles of 24 single-buffered,
    not double-buffered (the deployed program's own 1 KiB stacks included)."""
    la, shape, prec, opt = _fc1()
    spec = fused_spec_of(la, shape, "mmh_naive_n", opt, prec)
    single, _ = measure(spec, Tiling("l2", 24, False))
    double, _ = measure(spec, Tiling("l2", 24, True))
    assert single < double
    cfg = deploy_config("pulp-open", 8)
    return cfg.replace(tcdm_size=single + 8 * cfg.stack_size + 256)   # + the load window


def test_the_fused_entry_tiles_the_phase_and_an_old_table_tiles_it_as_the_weight_gradient():
    model = Model.from_dict(MLP)
    cfg = _tight_config()
    old = ChoiceTable()
    old.add(Choice("fc1", "wg", tile=12))
    new = ChoiceTable(dict(old.entries))
    new.add(Choice("fc1", FUSED_STEP, tile=24))

    def fused(table):
        plan = plan_memory(model, cfg, "l2", "reordered", table)
        return next(ph for ph in plan.phases if ph.title == "fc1 wg+update")
    as_wg, own = fused(old), fused(new)
    assert (as_wg.plan.tiles, as_wg.plan.tiling.tile) == (4, 12)
    assert as_wg.plan.tiling.double_buffer and not as_wg.note
    # the weight gradient's tile, double-buffered, does not fit: single-buffered, no note
    assert (own.plan.tiles, own.plan.tiling.tile) == (2, 24)
    assert not own.plan.tiling.double_buffer and not own.note
    # conventional order: no fused phase, the entry changes nothing
    conv = plan_memory(model, cfg, "l2", "conventional", new)
    assert [ph.plan.tiling for ph in conv.phases] == [
        ph.plan.tiling for ph in plan_memory(model, cfg, "l2", "conventional", old).phases]


@pytest.mark.parametrize("entry, message", [
    ({"kernel": "mm_4x4_n"}, "runs its weight gradient's kernel"),
    ({"step": "wg+updates"}, "step must be one of"),
])
def test_bad_fused_entries_are_refused(entry, message):
    with pytest.raises(ModelError, match=message):
        ChoiceTable.from_entries([{"layer": "fc1", "step": "wg+update", "tile": 4, **entry}])


def test_the_deployed_fused_phase_in_the_tables_tiles_trains_bit_for_bit(tmp_path):
    """Reordered, fc1's fused phase in 2 or 3 tiles of its own entry instead of the one tile
    of its weight gradient: the same losses and parameters, bit for bit, as the step runs
    (conventional, separate update) give."""
    model = Model.from_dict(MLP)
    runs = []
    for tile in (None, 24, 16):
        table = ChoiceTable()
        if tile is not None:
            table.add(Choice("fc1", FUSED_STEP, tile=tile))
        dep = deploy(model, 2, order="reordered", memory="l2", choices=table)
        ph = next(p for p in dep.plan.phases if p.title == "fc1 wg+update")
        assert ph.plan.tiling.tile == (tile or 48)
        runs.append(run_deployed(dep, program=dep.write(tmp_path / f"net{tile}.elf")))
    res = train(model, 2)
    for run in runs:
        assert run.loss_bits == runs[0].loss_bits
        assert_same_as_step_runs(run.losses, run.params, res)


def test_tuning_a_model_tunes_its_fused_phases_with_the_weight_gradients_kernel(pool,
                                                                               tmp_path):
    model = Model.from_dict(MLP)
    tuning = tune_model(model, TuneOptions(), executor=pool, cache=ResultCache(tmp_path))
    by_key = {(s.layer, s.step): s for s in tuning.steps}
    for layer in ("fc1", "fc2"):
        wg, fused = by_key[(layer, "wg")], by_key[(layer, FUSED_STEP)]
        assert fused.winner is not None and fused.default is not None
        assert {c.kernel for c in fused.search.candidates} == {wg.winner.kernel}
        # its reference is what a table without the entry runs: the weight gradient's tile
        assert fused.default.option.tile == wg.winner.option.tile
        # measured on the deployed program's TCDM (pulp-open's 1 KiB stacks: 4 KiB less)
        assert fused.search.cfg.tcdm_size == tuning.cfg.tcdm_size - 4096
    table = tuning.choice_table()
    entry = table.get("fc1", FUSED_STEP)
    assert entry.kernel is None and entry.tile == by_key[("fc1", FUSED_STEP)].winner.option.tile
    assert "over its weight gradient's tiling" in tuning.dumps()


def test_ds_cnn_dw1_fused_phase_beats_its_weight_gradients_tiling(pool, tmp_path):
    """DS-CNN's depthwise dw1 (64 channels, 27 x 7): its weight gradient is tuned to 13 tiles
    of 5 double-buffered, which the fused phase (the fp32 weight tile in and out on top) cannot
    double-buffer in the deployed program's TCDM; without an entry of its own it runs the
    fewest tiles that do (16 of 4), with one the tuner finds 13 of 5 single-buffered faster.
    The weight gradient's tile is tried even when no other tiling is (``--tilings 0``)."""
    la = DepthWise("dw1", channels=64, kernel=(3, 3))
    opts = TuneOptions(search=dataclasses.replace(TuneOptions().search, tilings=0))
    opt = {"lr": 0.01, "weight_decay": 0.0, "master_weights": False}
    step = (la, (64, 7, 27), FUSED_STEP, "fp32", opt, "mm_dw_in_grad_1x4_u2", 5)
    tuning = tune_steps([step], "l2", opts, executor=pool, cache=ResultCache(tmp_path),
                        cfg=opts.deploy_cluster())
    s = tuning.steps[0]
    assert (s.default.option.tiles, s.default.option.tile) == (16, 4)
    assert s.default.option.double_buffer
    w = s.winner
    assert (w.option.tiles, w.option.tile, w.option.double_buffer) == (13, 5, False)
    assert w.cycles < 0.95 * s.default.cycles
    assert len([c for c in s.search.candidates if c.result is not None]) == 2
