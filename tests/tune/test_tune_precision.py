"""``trainlib tune`` across precisions: an fp16 layer tunes among the fp16 kernels, ``--precision
auto`` picks per layer the fastest precision within the error budget and says why, and a
precision the ISA cannot execute is refused before any run."""

from __future__ import annotations

import dataclasses
import tomllib

import pytest

from trainlib.model import Model
from trainlib.tune.autoprec import layer_errors
from trainlib.tune.cli import main
from trainlib.tune.tuner import model_steps

# fc1 is frozen (forward only), fc2 is updated; {n} inputs
MIXED_N = """
[model]
name = "mixed"
input = [{n}]
target = "random"
update = ["fc2"]

[[layer]]
type = "linear"
name = "fc1"
in_features = {n}
out_features = 32
bias = false

[[layer]]
type = "relu"
name = "r"

[[layer]]
type = "linear"
name = "fc2"
in_features = 32
out_features = 4
bias = false
"""
MIXED = MIXED_N.format(n=16)


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    """One tuning cache for the module: the same candidates are measured once."""
    return str(tmp_path_factory.mktemp("tune-cache"))


def test_an_fp16_layer_tunes_among_the_fp16_kernels(tmp_path, cache, capsys):
    model = tmp_path / "m.toml"
    model.write_text(MIXED.replace('bias = false\n', 'bias = false\nprecision = "fp16"\n', 1))
    m = Model.load(model)
    assert [(la.name, st, p) for la, _, st, p in model_steps(m)] == [
        ("fc1", "fw", "fp16"), ("fc2", "fw", "fp32"), ("fc2", "wg", "fp32")]
    out = tmp_path / "c.toml"
    assert main([str(model), "--cache", cache, "--workers", "2", "-o",
                 str(out), "--top-kernels", "1", "--tilings", "1"]) == 0
    assert "fc1" in capsys.readouterr().out
    kernels = {c["layer"] + " " + c["step"]: c["kernel"]
               for c in tomllib.loads(out.read_text())["choice"]}
    assert kernels["fc1 fw"].startswith("mmh")
    assert not any(k.startswith("mmh") for s, k in kernels.items() if s != "fc1 fw")


def test_auto_picks_per_layer_within_the_budget_and_explains(tmp_path, cache, capsys):
    model = tmp_path / "m.toml"
    model.write_text(MIXED_N.format(n=256))        # fc1 large enough to pay its conversion
    out = tmp_path / "m.auto.toml"
    argv = [str(model), "--precision", "auto", "--cache", cache,
            "--workers", "2", "-o", str(out), "--top-kernels", "1", "--tilings", "1"]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "fp16 rel. error" in text and "why" in text
    auto = Model.load(out)
    m = Model.load(model)
    err = layer_errors(m, "fp16")["fc1"]
    assert 0 < err < 1e-2                               # binary16: about 2^-11 relative
    assert auto.precision_of("fc1") == "fp16"           # fp16 is faster and within 1e-2
    assert auto.precision_of("r") == "fp16"             # follows the layer before it
    assert auto.choices.get("fc1", "fw").kernel.startswith("mmh")
    # a budget below binary16's error keeps fp32, and the table says why
    assert main([*argv[:-4], "--max-rel-error", f"{err / 2:g}", "-o", str(out),
                 "--top-kernels", "1"]) == 0
    text = capsys.readouterr().out
    assert "fp16 error" in text and Model.load(out).precision_of("fc1") == "fp32"


def test_auto_sets_back_a_layer_whose_conversions_cost_more_than_it_saves(tmp_path, cache,
                                                                         capsys):
    """fc1 with 8 inputs is faster in fp16 (348 cycles against 404), but converting its 32
    outputs for the fp32 classifier costs more than the 56 cycles saved (about 130).  Measured
    with ideal fetch: on layers this small the 16-bit kernels' cold instruction-cache misses
    (each candidate runs once, cold) outweigh the SIMD gain, and fp16 would not be chosen in
    the first place."""
    model = tmp_path / "m.toml"
    model.write_text(MIXED_N.format(n=8))
    ideal = tmp_path / "ideal.toml"
    ideal.write_text('base = "pulp-open"\nname = "ideal-fetch"\nicache = "ideal"\n')
    out = tmp_path / "m.auto.toml"
    assert main([str(model), "--config", str(ideal), "--precision", "auto", "--cache", cache,
                 "--workers", "2", "-o", str(out), "--top-kernels", "1", "--tilings", "1"]) == 0
    text = capsys.readouterr().out
    assert "set back to fp32 with fc1" in text
    assert Model.load(out).precisions == {"fp32"}


def test_layer_errors_grow_as_the_format_narrows():
    m = Model.from_dict(tomllib.loads(MIXED))
    e16, e_bf = layer_errors(m, "fp16"), layer_errors(m, "bf16")
    assert set(e16) == {"fc1", "fc2"}
    assert all(0 < e16[k] < e_bf[k] for k in e16)       # 11 bits against 8


@pytest.mark.parametrize("argv, msg", [
    (["--precision", "fp16", "--isa", "rv32imfc_xpulpv2_xf16"],
     "--precision fp16 needs the ISA extension(s) xfvec"),
    (["--precision", "bf16", "--isa", "rv32imfc_xpulpv2"],
     "--precision bf16 needs the ISA extension(s) xf16alt, xfvec"),
])
def test_a_precision_the_isa_lacks_is_refused_before_any_run(tmp_path, argv, msg, capsys):
    model = tmp_path / "m.toml"
    model.write_text(MIXED)
    assert main([str(model), "--cache", str(tmp_path / "c"), *argv]) == 2
    err = capsys.readouterr().err
    assert msg in err and err.count("\n") == 1
    assert not (tmp_path / "c").exists()                # nothing ran, nothing cached


def test_a_16_bit_model_file_on_an_isa_without_the_extension_is_refused(tmp_path, capsys):
    from trainlib.cli import main as trainlib_main
    model = tmp_path / "m.toml"
    m = Model.from_dict(tomllib.loads(MIXED))
    model.write_text(dataclasses.replace(m, precision="fp16").dumps())
    assert trainlib_main(["train", str(model), "--isa", "rv32imfc"]) == 2
    err = capsys.readouterr().err
    assert "needs the ISA extension(s) xf16, xfvec" in err and "rv32imfc" in err


@pytest.mark.parametrize("precision", ["fp16", "bf16"])
def test_the_bound_of_a_packed_matmul_never_exceeds_its_run(precision):
    """The pruning bound steps K by pairs for the 16-bit kernels; had it counted one MAC per
    instruction it would exceed the measured cycles and prune winners."""
    from trainlib.layers import Linear
    from trainlib.lowering import kernel_candidates, layer_step
    from trainlib.step import run_layer_step
    from trainlib.tune.estimate import main_bound
    layer = Linear("fc", 64, 40, bias=False)
    kernels = kernel_candidates(layer, "fw", precision)
    if not kernels:
        pytest.skip(f"no matmul_{precision} kernels in the catalogue")
    for k in kernels:
        spec = layer_step(layer, (64,), "fw", k, precision)
        run = run_layer_step(layer, (64,), "fw", kernel=k, precision=precision)
        run.check()
        bound = main_bound(spec, [(0, spec.extent)], 8)
        assert 0 < bound <= run.phases["mm"], k
