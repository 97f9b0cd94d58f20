"""``trainlib tune`` end to end: the table, the choice file, and ``trainlib train`` using it."""

from __future__ import annotations

import tomllib

import pytest

from trainlib.choices import ChoiceTable
from trainlib.cli import main as trainlib_main
from trainlib.cli import matches
from trainlib.model import Model
from trainlib.train import train
from trainlib.tune.cache import ResultCache
from trainlib.tune.cli import main, size
from trainlib.tune.tuner import TuneOptions, tune_model

TINY = """
[model]
name = "tiny"
input = [4, 6, 6]
memory = "{memory}"

[[layer]]
type = "pointwise"
name = "pw"
in_channels = 4
out_channels = 6

[[layer]]
type = "relu"
name = "relu"

[[layer]]
type = "linear"
name = "fc"
in_features = 216
out_features = 5
"""


def test_sizes():
    assert size("65536") == size("64KiB") == size("64K") == size("64kB") == size("0x10000")
    assert size("2MiB") == 2 << 20
    with pytest.raises(Exception, match="not a size"):
        size("64 parsecs")


def test_tune_a_model_then_train_with_its_choices(tmp_path, capsys):
    model = tmp_path / "tiny.toml"
    model.write_text(TINY.format(memory="l2"))
    out = tmp_path / "tiny.choices.toml"
    args = [str(model), "--cache", str(tmp_path / "cache"), "-o", str(out), "--workers", "2",
            "--l1", "64KiB", "--top-kernels", "1", "--tilings", "2"]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "speed-up" in text and "why the winner wins" in text and "measured" in text
    table = ChoiceTable.load(out)
    keys = set(table.entries)
    assert keys == {("pw", "fw"), ("fc", "fw"), ("fc", "wg"), ("fc", "ig"), ("pw", "wg"),
                    ("pw", "update.weight"), ("fc", "update.weight"),
                    ("fc", "update.bias"), ("pw", "wg+update"), ("fc", "wg+update")}
    assert all(c.tile is not None for c in table.entries.values())
    assert all(c.kernel is None for (_, step), c in table.entries.items()
               if step.startswith("update.") or step == "wg+update")
    assert table.meta["memory"] == "l2" and table.meta["cores"] == 8
    assert "MAC/cycle" in out.read_text() and "x over mm_naive" in out.read_text()
    assert trainlib_main(["train", str(model), "--choices", str(out)]) == 0
    assert "match the golden model" in capsys.readouterr().out


def test_a_resident_model_gets_kernels_without_tiles(tmp_path, pool):
    model = Model.from_dict(tomllib.loads(TINY.format(memory="tcdm")))
    model.update = {"fc"}
    tuning = tune_model(model, TuneOptions(), executor=pool,
                        cache=ResultCache(tmp_path))
    assert tuning.meta["memory"] == "tcdm"
    table = ChoiceTable.load(_write(tmp_path / "t.toml", tuning.dumps()))
    assert set(table.entries) == {("pw", "fw"), ("fc", "fw"), ("fc", "wg")}
    assert all(c.tile is None for c in table.entries.values())
    res = train(model, 1, choices=table)
    assert not matches(res)
    assert [s.cycles for s in res.stats[0] if (s.layer, s.step) in table.entries] == \
        [table.get(s.layer, s.step).cycles for s in res.stats[0]
         if (s.layer, s.step) in table.entries]


def _write(path, text: str):
    path.write_text(text)
    return path


def test_tune_one_layer(tmp_path, capsys):
    out = tmp_path / "layer.toml"
    assert main(["--layer", "conv2d:ci=2,co=5,h=5,w=6,k=3,p=1", "--steps", "fw,wg",
                 "--top-kernels", "1", "--tilings", "1", "--cache", str(tmp_path / "c"),
                 "-o", str(out)]) == 0
    table = ChoiceTable.load(out)
    assert set(table.entries) == {("conv2d", "fw"), ("conv2d", "wg")}
    assert all(c.signature and c.cycles and c.kernel for c in table.entries.values())
    assert "conv2d" in capsys.readouterr().out


@pytest.mark.parametrize("argv, msg", [
    ([], "give a model file or --layer"),
    (["--layer", "lstm:h=1"], "KIND:key=value"),
    (["--layer", "linear:ci=4,co=2", "--steps", "bw"], "--steps: bw"),
    (["/nonexistent/model.toml"], "cannot read model"),
    (["--layer", "linear:ci=4,co=2", "--config", "no-such-preset"], "no-such-preset"),
])
def test_bad_arguments_exit_2_with_one_line(argv, msg, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert msg in err and err.count("\n") == 1


def test_a_step_that_cannot_fit_exits_1(tmp_path, capsys):
    assert main(["--layer", "linear:ci=64,co=64", "--steps", "fw", "--l1", "16KiB",
                 "--reserve", "10KiB", "--cache", str(tmp_path)]) == 1
    assert "no tiling fits" in capsys.readouterr().out
