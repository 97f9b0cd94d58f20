"""Every number of a cluster preset and of a model file is range-checked: an extreme value
ends in one clear line naming the file, the key and what is allowed, never in a traceback
(a preset latency of 2**63 used to end in OverflowError, a model seed of -1 in ValueError)."""

from __future__ import annotations

import copy
import dataclasses
import math
import tomllib
from pathlib import Path

import pytest

from isasim import cli as isasim_cli
from isasim.config import INT_RANGES, ClusterConfig, ConfigError, load_config
from trainlib import cli as trainlib_cli
from trainlib.errors import ModelError
from trainlib.model import Model

ROOT = Path(__file__).resolve().parents[2]
NET0 = ROOT / "examples" / "pulp_trainlib_net0.toml"
EXTREME_INTS = [-1, -(2**63), 2**63, 2**64, 10**30]
EXTREME_FLOATS = [-1e308, 1e308, math.inf, -math.inf, math.nan]
INT_FIELDS = [f.name for f in dataclasses.fields(ClusterConfig)
              if type(getattr(ClusterConfig(), f.name)) is int]     # (not the bool switches)


def test_every_integer_setting_has_a_range():
    assert set(INT_FIELDS) - {"dma_bandwidth"} == set(INT_RANGES)


@pytest.mark.parametrize("key", INT_FIELDS)
def test_extreme_preset_values_name_file_key_and_range(tmp_path, key):
    for value in EXTREME_INTS:
        path = tmp_path / "cfg.toml"
        path.write_text(f"{key} = {value}\n")
        with pytest.raises(ConfigError) as e:
            load_config(path)
        message = str(e.value)
        assert message.startswith(f"{path}: {key}"), message
        assert "out of range: it must be" in message or "must be 1, 2, 4 or 8" in message


def test_preset_range_error_reaches_the_user_as_one_line(tmp_path, capsys):
    path = tmp_path / "slow.toml"
    path.write_text("base = \"pulp-open\"\nfdiv_latency = 9223372036854775808\n")
    source = tmp_path / "p.s"
    source.write_text(".globl _start\n_start:\n li a7, 93\n ecall\n")
    assert isasim_cli.main(["run", str(source), "--config", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.strip() == (f"isasim run: {path}: fdiv_latency = 9223372036854775808 is out "
                           f"of range: it must be 1..1,000,000")


def _numbers(data: dict):
    """(path into ``data``, key, value) of every number of a model file."""
    for table in ("model", "optimizer"):
        for key, value in data.get(table, {}).items():
            numbers = value if isinstance(value, list) else [value]
            if all(isinstance(v, int | float) and not isinstance(v, bool) for v in numbers):
                yield (table,), key, value
    for i, layer in enumerate(data["layer"]):
        for key, value in layer.items():
            if isinstance(value, int | float) and not isinstance(value, bool):
                yield ("layer", i), key, value


def _model_cases():
    data = tomllib.loads(NET0.read_text())
    data["choice"] = [{"layer": "fc", "step": "fw", "tile": 4, "cycles": 100}]
    cases = list(_numbers(data)) + [(("choice", 0), "tile", 4), (("choice", 0), "cycles", 100)]
    for where, key, value in cases:
        extremes = EXTREME_FLOATS if isinstance(value, float) else EXTREME_INTS
        for bad in extremes:
            yield data, where, key, bad


@pytest.mark.parametrize("case", list(_model_cases()),
                         ids=lambda c: f"{'.'.join(map(str, c[1]))}.{c[2]}={c[3]}")
def test_extreme_model_values_name_file_key_and_range(case):
    data, where, key, bad = case
    data = copy.deepcopy(data)
    node = data
    for step in where:
        node = node[step]
    node[key] = [bad] * len(node[key]) if isinstance(node[key], list) else bad
    with pytest.raises(ModelError) as e:
        Model.from_dict(data, "net0.toml")
    message = str(e.value)
    assert message.startswith("net0.toml: "), message
    assert f"{key} = " in message and "out of range: it must be" in message, message


def test_negative_seed_is_refused_by_plan_and_train(tmp_path, capsys):
    path = tmp_path / "seed.toml"
    path.write_text(NET0.read_text().replace("seed = 0", "seed = -1"))
    for command in ("plan", "train"):
        assert trainlib_cli.main([command, str(path)]) == 2
        err = capsys.readouterr().err
        assert err.strip() == ("trainlib: error: seed.toml: [model] seed = -1 is out of range: "
                               "it must be 0..4,294,967,295")
