"""Model files, choice tables and the CLI: good files plan, bad ones fail naming the layer."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from trainlib.choices import Choice, ChoiceTable
from trainlib.cli import main
from trainlib.driver import run_config
from trainlib.errors import ModelError, NotAvailable, PlanError
from trainlib.model import Model
from trainlib.workflow import plan_model, work_list

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.toml"))

TINY = """
[model]
name = "tiny"
input = [2, 6, 5]
loss = "mse"
target = "random"

[optimizer]
lr = 0.05

[[layer]]
type = "conv2d"
name = "conv1"
in_channels = 2
out_channels = 3
kernel = 3
padding = 1
update = false

[[layer]]
type = "relu"
name = "relu1"

[[layer]]
type = "flatten"
name = "flat"

[[layer]]
type = "linear"
name = "fc"
in_features = 90
out_features = 4
update = true
"""


def _write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "m.toml"
    p.write_text(text)
    return p


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_examples_load_and_plan(path):
    m = Model.load(path)
    try:
        plan = plan_model(m, run_config("pulp-open", 8))
    except NotAvailable as e:           # a 16-bit model waits for its kernel families
        assert m.precisions != {"fp32"} and "16" in str(e), e
        pytest.skip(f"{path.name}: {e}")
    assert all(p.tcdm_bytes <= p.budget for _, _, p in plan.steps)
    assert plan.describe(m)[0].startswith("memory:")


def test_net0_sparse_update_stops_backward_at_pw2():
    m = Model.load(ROOT / "examples" / "pulp_trainlib_net0.toml")
    keys = [w.key(m) for w in work_list(m)]
    assert ("pw2", "wg") in keys and ("pw2", "ig") not in keys
    assert not any(name in ("conv1", "dw1", "pw1", "dw2") and step != "fw"
                   for name, step in keys)
    assert ("dw3", "wg") not in keys and ("dw3", "ig") in keys
    assert [k for k in keys if k[1].startswith("update")] == [
        ("pw2", "update.weight"), ("fc", "update.weight"), ("fc", "update.bias")]


BAD = [
    ('type = "relu"\nname = "relu1"', 'type = "reluu"\nname = "relu1"',
     "layer relu1: unknown layer type 'reluu'"),
    ("in_features = 90", "in_features = 80",
     "layer fc (linear): in_features is 80 but the input (90,) has 90 elements"),
    ("in_channels = 2", "in_channels = 3",
     "layer conv1 (conv2d): in_channels is 3 but the input has 2 channels"),
    ("padding = 1", "padding = 1\nstrides = 2", "layer conv1 (conv2d): unknown setting(s) strides"),
    ("kernel = 3", "kernel = 9", "layer conv1 (conv2d): kernel (9, 9) does not fit"),
    ('name = "tiny"', 'name = "tiny"\ncolour = 1', "[model] has unknown key(s) colour"),
    # values of the wrong type (found by fuzzing: they escaped as TypeError / ValueError)
    ('name = "tiny"', 'name = "tiny"\nseed = "x"', "[model] seed must be an integer, got 'x'"),
    ('name = "tiny"', 'name = "tiny"\nupdate = 3', "[model] update must be a list of strings"),
    ('target = "random"', "target = [1]", "[model] target must be a string, got [1]"),
    ("lr = 0.05", 'lr = "fast"', "[optimizer] lr must be a number, got 'fast'"),
    ('type = "relu"', "type = [1]", "layer 1: type must be a string, got [1]"),
    ("padding = 1\nupdate = false", "padding = 1\nbias = 1\nupdate = false",
     "layer conv1: bias must be true or false, got 1"),
    ('type = "relu"\nname = "relu1"', 'type = "leakyrelu"\nname = "relu1"\nnegative_slope = "a"',
     "layer relu1: negative_slope must be a number, got 'a'"),
]


@pytest.mark.parametrize("old,new,msg", BAD, ids=[b[2][:20] for b in BAD])
def test_bad_model_files_name_the_layer(tmp_path, old, new, msg):
    p = _write(tmp_path, TINY.replace(old, new, 1))
    with pytest.raises(ModelError) as e:
        Model.load(p)
    assert msg in str(e.value)


def test_cli_bad_model_exits_2_with_one_line(tmp_path, capsys):
    p = _write(tmp_path, TINY.replace('type = "relu"', 'type = "reluu"'))
    assert main(["train", str(p), "--steps", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "layer relu1: unknown layer type" in err
    assert "Traceback" not in err


def test_cli_subprocess_no_traceback_for_a_model_that_cannot_fit(tmp_path):
    big = TINY.replace("input = [2, 6, 5]", "input = [2, 60, 60]").replace(
        "kernel = 3", "kernel = 11").replace("padding = 1", "padding = 5").replace(
        "in_features = 90", "in_features = 10800")
    p = _write(tmp_path, big)
    r = subprocess.run([sys.executable, "-m", "trainlib.cli", "plan", str(p)],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2, r.stdout + r.stderr
    assert r.stderr.startswith("trainlib: error: layer conv1 ") and "bytes short" in r.stderr
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


def test_choice_table_round_trip_and_checks(tmp_path):
    m = Model.load(_write(tmp_path, TINY))
    sig = m.signatures()["fc"]
    t = ChoiceTable(meta={"cores": 8})
    t.add(Choice("fc", "fw", "mm_4x4_n", tile=2, signature=sig, cycles=123))
    t.add(Choice("fc", "ig", "mm_1x8_m"))
    path = tmp_path / "c.toml"
    t.save(path)
    back = ChoiceTable.load(path)
    assert back.entries == t.entries and back.meta == {"cores": 8}
    plan = plan_model(m, run_config("pulp-open", 8), "l2", back)
    fw = next(p for w, s, p in plan.steps if w.key(m) == ("fc", "fw"))
    spec = next(s for w, s, p in plan.steps if w.key(m) == ("fc", "fw"))
    assert fw.tiling.tile == 2 and spec.kernel == "mm_4x4_n"
    with pytest.raises(ModelError, match="given twice"):
        t.add(Choice("fc", "fw", "mm_naive_n"))
    bad = ChoiceTable()
    bad.add(Choice("fc", "fw", signature="linear in=1 out=2"))
    with pytest.raises(ModelError, match="choice for layer fc fw was tuned for"):
        bad.check_against(m.signatures())
    bad = ChoiceTable()
    bad.add(Choice("nope", "fw", "mm_4x4_n"))
    with pytest.raises(ModelError, match="no such layer"):
        bad.check_against(m.signatures())
    wrong = ChoiceTable()
    wrong.add(Choice("fc", "wg", "mm_dw"))
    with pytest.raises(ModelError, match="layer fc wg: kernel mm_dw is a depthwise kernel"):
        plan_model(m, run_config("pulp-open", 8), None, wrong)


def test_inline_choices_in_a_model_file(tmp_path):
    text = TINY + '\n[[choice]]\nlayer = "fc"\nstep = "fw"\nkernel = "mm_2x2_n"\n'
    m = Model.load(_write(tmp_path, text))
    assert m.choices.get("fc", "fw").kernel == "mm_2x2_n"
    with pytest.raises(ModelError, match="choice for layer conv fw: no such layer"):
        Model.load(_write(tmp_path, text.replace('layer = "fc"', 'layer = "conv"')))


def test_model_dict_round_trip(tmp_path):
    m = Model.load(_write(tmp_path, TINY))
    back = Model.from_dict(m.to_dict())
    assert back.layers == m.layers and back.updated == m.updated == ["fc"]
    assert back.shapes() == m.shapes() and back.lr == m.lr


def test_a_kernel_constraint_is_reported_at_plan_time(tmp_path, capsys):
    """im2row takes kernels up to 16 wide: a 17-wide one is refused naming the layer."""
    text = TINY.replace("input = [2, 6, 5]", "input = [2, 6, 20]").replace(
        "kernel = 3", "kernel = [3, 17]").replace("in_features = 90", "in_features = 108")
    assert main(["plan", str(_write(tmp_path, text))]) == 2
    assert "layer conv1 fw: kernel im2row (im2row) refuses these shapes: '1 <= Wk <= 16'" \
        in capsys.readouterr().err


def test_top_level_tables_must_be_tables(tmp_path):
    text = "optimizer = 3\n" + TINY.replace("[optimizer]\nlr = 0.05\n", "")
    with pytest.raises(ModelError, match=r"optimizer must be a table \(\[optimizer\]\)"):
        Model.load(_write(tmp_path, text))
    with pytest.raises(ModelError, match=r"layer must be an array of tables \(\[\[layer\]\]\)"):
        Model.load(_write(tmp_path, "layer = 5\n" + TINY.split("[[layer]]")[0]))


def test_model_larger_than_l2_is_refused_before_tiling(tmp_path):
    """A classifier of a million outputs (8 GB of weights) used to send the planner's tile
    search through a million candidates; it is refused at once, in bytes."""
    p = _write(tmp_path, TINY.replace("out_features = 4", "out_features = 1000000"))
    with pytest.raises(PlanError, match=r"its tensors need \d+ bytes, more than the 1638400 "
                                        r"bytes of L2"):
        plan_model(Model.load(p), run_config("pulp-open", 8))
