"""Tuning the SGD updates of a model streamed from L2: the tiling is searched (the kernel is
fixed by the precision), an overlapped tiling wins where one tile serialises load, update and
store, and the choice table carries the tile to ``trainlib train`` and the deployed program's
phases."""

from __future__ import annotations

import pytest

from tests.deploy.helpers import assert_same_as_step_runs
from trainlib.choices import Choice, ChoiceTable
from trainlib.cli import matches
from trainlib.deploy import deploy, run_deployed
from trainlib.driver import run_config
from trainlib.errors import ModelError
from trainlib.memplan import plan_memory
from trainlib.model import Model
from trainlib.train import train
from trainlib.tune.cache import ResultCache
from trainlib.tune.measure import run_update_step
from trainlib.tune.tuner import TuneOptions, tune_steps, update_steps
from trainlib.workflow import plan_model

# fc1's weight is 48 x 48 = 2304 elements: with fp32 master copies one tile moves 27,648 bytes
# (master in and out, the fp16 gradient in, the fp16 weights out) around a 2,300-cycle update
MLP = {"model": {"name": "mlp16", "input": [48], "target": "random", "memory": "l2",
                 "precision": "fp16", "master_weights": True},
       "optimizer": {"lr": 0.05, "weight_decay": 0.01},
       "layer": [{"type": "linear", "name": "fc1", "in_features": 48, "out_features": 48},
                 {"type": "relu", "name": "r"},
                 {"type": "linear", "name": "fc2", "in_features": 48, "out_features": 4}]}


def _model() -> Model:
    return Model.from_dict(MLP)


def _update(res, layer: str, step: str = "update.weight"):
    return next(s for s in res.stats[-1] if (s.layer, s.step) == (layer, step))


def test_a_tuned_update_overlaps_its_transfers_and_trains_like_the_golden_model(pool,
                                                                                 tmp_path):
    model = _model()
    tuning = tune_steps(update_steps(model), "l2", TuneOptions(), executor=pool,
                        cache=ResultCache(tmp_path))
    fc1 = next(s for s in tuning.steps if (s.layer, s.step) == ("fc1", "update.weight"))
    assert fc1.default is not None and fc1.default.option.tiles == 1   # the planner's plan
    w = fc1.winner
    assert w.option.tiles > 1 and w.option.double_buffer
    # the estimate ranks three tiles first; the fewest double-buffered tiles are tried anyway
    # and win (2 x 1152: about 5,000 cycles against 5,070 for three tiles and 6,290 for one)
    assert w.option == fc1.search.overlap_option() and w.option.tiles == 2
    assert w.cycles < 0.9 * fc1.default.cycles
    assert fc1.explanation() is not None
    assert "over the planner's 1x2304" in tuning.dumps()
    table = tuning.choice_table()
    assert table.get("fc1", "update.weight") == Choice(
        "fc1", "update.weight", None, w.option.tile, fc1.signature, w.cycles)

    plain = train(model, 2)
    tuned = train(model, 2, choices=table)
    assert not matches(tuned, model), matches(tuned, model)
    step = next(p for wk, _, p in tuned.plan.steps if wk.key(model) == ("fc1", "update.weight"))
    assert step.tiling.tile == w.option.tile and "double-buffered" in step.describe()
    assert _update(tuned, "fc1").cycles < 0.9 * _update(plain, "fc1").cycles
    assert _update(tuned, "fc1").cycles == w.cycles          # the cycles do not depend on data


@pytest.mark.parametrize("master", [True, False])
def test_the_update_candidate_is_checked_against_the_golden_sgd(master):
    """The job the tuner runs for an update: the golden SGD's outputs, within the bound; a
    wrong learning rate in the kernel's arguments is caught."""
    model = _model()
    la, shape, step, prec, opt = update_steps(model)[0]
    opt = dict(opt, master_weights=master)
    run = run_update_step(la, shape, step, opt, precision=prec, tile=20, cores=4)
    assert set(run.golden) == ({"master", "w"} if master else {"w"})
    run.check()
    wrong = run_update_step(la, shape, step, dict(opt, lr=0.06), precision=prec, tile=20,
                            cores=4)
    wrong.golden = run.golden
    with pytest.raises(AssertionError, match="fc1 update.weight"):
        wrong.check()


def test_update_tiles_round_trip_through_the_choice_table(tmp_path):
    model = _model()
    sig = model.layers[0].signature((48,))
    t = ChoiceTable(meta={"cores": 8})
    t.add(Choice("fc1", "update.weight", tile=768, signature=sig, cycles=4321))
    t.add(Choice("fc2", "update.bias", tile=4))
    path = tmp_path / "c.toml"
    t.save(path)
    back = ChoiceTable.load(path)
    assert back.entries == t.entries
    cfg = run_config("pulp-open", 8)
    steps = {wk.key(model): p for wk, _, p in plan_model(model, cfg, choices=back).steps}
    assert steps[("fc1", "update.weight")].tiling.tile == 768
    assert steps[("fc1", "update.weight")].tiles == 3
    assert steps[("fc2", "update.weight")].tiles == 1              # no entry: the planner's
    phases = {(ph.layer, ph.step): ph
              for ph in plan_memory(model, cfg, "l2", choices=back).phases}
    assert phases[("fc1", "update.weight")].plan.tiling.tile == 768
    assert phases[("fc1", "update.weight")].plan.tiling.double_buffer
    res = train(model, 1, choices=back)
    assert not matches(res, model)


@pytest.mark.parametrize("entry, message", [
    ({"kernel": "mm_4x4_n"}, "an update has no kernel choice"),
    ({"step": "update.gamma"}, "step must be one of"),
    ({"tile": 0}, "tile = 0 is out of range"),
])
def test_bad_update_entries_are_refused(entry, message):
    e = {"layer": "fc1", "step": "update.weight", "tile": 4, **entry}
    with pytest.raises(ModelError, match=message):
        ChoiceTable.from_entries([e])


def test_the_deployed_program_runs_the_update_in_the_tables_tiles(tmp_path):
    """``trainlib deploy --choices``: the update phase takes the table's tile and the program
    trains bit for bit like the step-by-step runs with the same table, which follow the golden
    model."""
    model = _model()
    table = ChoiceTable()
    table.add(Choice("fc1", "update.weight", tile=1152))
    dep = deploy(model, 2, order="conventional", choices=table)
    ph = next(p for p in dep.plan.phases if (p.layer, p.step) == ("fc1", "update.weight"))
    assert ph.plan.tiles == 2 and ph.plan.tiling.double_buffer and not ph.note
    run = run_deployed(dep, program=dep.write(tmp_path / "net.elf"))
    res = train(model, 2, choices=table)
    assert_same_as_step_runs(run.losses, run.params, res)
    assert not matches(res, model)
