"""VCD waveform: read back with vcdvcd (and pyvcd's tokenizer for the string signals)."""

from __future__ import annotations

from collections import Counter

import pytest
from vcd.reader import TokenKind, tokenize

from isasim import layout as L
from traces.vcd import write_vcd

vcdvcd = pytest.importorskip("vcdvcd")


@pytest.fixture(scope="module")
def vcd_path(mm, tmp_path_factory):
    path = tmp_path_factory.mktemp("vcd") / "mm.vcd"
    write_vcd(mm[1], path)
    return path


def _durations(tv, end):
    """Cycles spent at each value of a signal, from its (time, value) changes."""
    out = Counter()
    for (t, v), (t2, _) in zip(tv, tv[1:] + [(end, None)], strict=True):
        out[v] += t2 - t
    return out


def test_state_signal_integrates_to_the_counters(mm, vcd_path):
    result, _ = mm
    v = vcdvcd.VCDVCD(str(vcd_path))
    assert v.endtime == result.total_cycles
    for c in range(result.ncores):
        per_state = _durations(v[f"cluster0.core{c}.state"].tv, result.cycles[c])
        for k, name in enumerate(L.CATEGORIES):
            assert per_state.get(format(k, "b"), 0) == result.categories[c, k], (c, name)


def test_pc_points_at_profiled_instructions(mm, vcd_path):
    result, _ = mm
    v = vcdvcd.VCDVCD(str(vcd_path))
    known = set(result.profile_pc.tolist())
    for c in range(result.ncores):
        pcs = {val for _, val in v[f"cluster0.core{c}.pc"].tv}
        assert {int(p, 2) for p in pcs if "x" not in p} <= known
        assert len(pcs) > 10


def test_string_signals(mm, vcd_path):
    """state_name and symbol changes (string variables, which vcdvcd skips) via pyvcd."""
    result, log = mm
    ids, seen = {}, Counter()
    with open(vcd_path, "rb") as f:
        for tok in tokenize(f):
            if tok.kind is TokenKind.VAR:
                ids[tok.var.id_code] = tok.var.reference
            elif tok.kind is TokenKind.CHANGE_STRING:
                seen[(ids[tok.data.id_code], tok.data.value)] += 1
    assert ("symbol", "matmul_rows") in seen and ("symbol", "barrier") in seen
    assert ("state_name", "tcdm_conflict") in seen and ("state_name", "barrier") in seen
    assert {name for (ref, name) in seen if ref == "symbol"} <= set(log.code.symbol_names) | {"-"}
