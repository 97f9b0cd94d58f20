"""The explanation splits the cycle difference by stall category."""

from __future__ import annotations

from trainlib.tune.explain import explain
from trainlib.tune.measure import Measurement


def _m(cycles: int, cats: dict[str, int], phases: dict[str, int]) -> Measurement:
    return Measurement("ok", cycles=cycles, categories=cats, phases=phases,
                       core_cycles=[cycles] * 4)


def test_deltas_are_runner_up_minus_winner_per_core():
    win = _m(1000, {"instr": 3000, "barrier": 800, "tcdm_conflict": 200},
             {"mm": 900, "dma": 100})
    other = _m(1500, {"instr": 4200, "barrier": 1600, "tcdm_conflict": 200},
               {"mm": 1400, "dma": 100})
    ex = explain(win, other)
    assert ex.saved == 500
    assert ex.deltas == {"instr": 300.0, "barrier": 200.0}       # unchanged ones left out
    assert ex.phases == {"mm": 500}
    text = ex.text()
    assert text.startswith("per core: instructions -300")
    assert "barrier waits (imbalance) -200" in text


def test_identical_runs():
    m = _m(10, {"instr": 40}, {"mm": 10})
    assert explain(m, m).text() == "same breakdown"
