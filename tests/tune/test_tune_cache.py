"""The on-disk cache: keyed by everything a measurement depends on, outside the repository."""

from __future__ import annotations

from pathlib import Path

import pytest

from trainlib.driver import run_config
from trainlib.tune import cache as cache_mod
from trainlib.tune.cache import ResultCache, cache_key, default_dir
from trainlib.tune.layerspec import parse_layer
from trainlib.tune.measure import Job, Measurement

REPO = Path(__file__).resolve().parents[2]
CFG = run_config("pulp-open", 8)
LAYER, SHAPE = parse_layer("linear:ci=16,co=8")


def _job(**kw) -> Job:
    args = dict(kernel="mm_4x4_m", tile=4, cfg=CFG)
    args.update(kw)
    return Job.make(LAYER, SHAPE, "fw", args["kernel"], "l2", args["tile"], args["cfg"])


def test_roundtrip_and_only_deterministic_outcomes(tmp_path):
    c = ResultCache(tmp_path)
    ok = Measurement("ok", cycles=123, macs=128, phases={"mm": 100}, categories={"instr": 9},
                     core_cycles=[123, 120], seconds=0.5)
    c.put("a" * 64, ok)
    got = c.get("a" * 64)
    assert got is not None and got.cached and got.cycles == 123 and got.phases == {"mm": 100}
    for status in ("timeout", "crashed", "failed"):
        c.put(status.ljust(64, "0"), Measurement(status))
        assert c.get(status.ljust(64, "0")) is None
    c.put("b" * 64, Measurement("wrong", cycles=5, error_ratio=3.0))
    assert c.get("b" * 64).status == "wrong"
    assert ResultCache(None).get("a" * 64) is None


def test_key_changes_with_every_input():
    base = cache_key(_job(), ["mm_4x4_m", "mm_naive_n"])
    assert base == cache_key(_job(), ["mm_naive_n", "mm_4x4_m"])
    others = [cache_key(_job(kernel="mm_4x4_n"), ["mm_4x4_n", "mm_naive_n"]),
              cache_key(_job(tile=2), ["mm_4x4_m", "mm_naive_n"]),
              cache_key(_job(cfg=CFG.replace(l2_latency=11)), ["mm_4x4_m", "mm_naive_n"]),
              cache_key(_job(cfg=CFG.replace(cores=4)), ["mm_4x4_m", "mm_naive_n"]),
              cache_key(_job(), ["mm_4x4_m"])]
    assert len({base, *others}) == 6


def test_key_changes_with_the_kernel_source_and_the_code(monkeypatch):
    base = cache_key(_job(), ["mm_4x4_m"])
    monkeypatch.setattr(cache_mod, "kernel_file_hash", lambda f: "edited")
    assert cache_key(_job(), ["mm_4x4_m"]) != base
    monkeypatch.undo()
    monkeypatch.setattr(cache_mod, "code_fingerprint", lambda: "another simulator")
    assert cache_key(_job(), ["mm_4x4_m"]) != base


def test_default_dir_is_the_user_cache_never_the_repo(monkeypatch, tmp_path):
    monkeypatch.delenv("TRAINLIB_TUNE_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_dir() == tmp_path / "xdg" / "isasim" / "tune"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert REPO not in default_dir().parents
    monkeypatch.setenv("TRAINLIB_TUNE_CACHE", str(tmp_path / "mine"))
    assert default_dir() == tmp_path / "mine"


@pytest.mark.parametrize("bad", ["not json", '{"status": 1, "nope": 2}', "[1]",
                                 '{"status": "ok", "cycles": "many", "bogus": 1}'])
def test_a_damaged_entry_is_a_miss(tmp_path, bad):
    c = ResultCache(tmp_path)
    key = "c" * 64
    (tmp_path / key[:2]).mkdir()
    (tmp_path / key[:2] / f"{key}.json").write_text(bad)
    got = c.get(key)
    assert got is None or isinstance(got.cycles, int), got
