"""examples/simd/dot8.s: the 8-core int8 SIMD dot product is right (numpy) and conflict-free."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from isasim.machine import Machine

DOT8 = Path(__file__).resolve().parents[2] / "examples" / "simd" / "dot8.s"
N = 2048


def _run(machine: Machine):
    r = machine.run(max_cycles=1_000_000)
    assert r.status == "exited" and r.exit_code == 0, r.fault.format() if r.fault else r.status
    r.check_invariant()
    return r


def test_the_assembled_inputs_give_numpys_sum_without_bank_conflicts():
    i = np.arange(N)
    a = ((37 * i + 11) % 256).astype(np.uint8).view(np.int8)
    b = ((73 * i + 5) % 256).astype(np.uint8).view(np.int8)
    want = int(a.astype(np.int64) @ b.astype(np.int64))
    # ideal fetch: the cores' first-touch instruction-cache misses would put them out of step,
    # and the no-conflict count below is of the data layout in step
    m = Machine("pulp-open", icache="ideal").load(DOT8)
    r = _run(m)
    assert int(m.read("result", 1, np.int32)[0]) == want
    assert int(r.x[0][18]) == want & 0xFFFFFFFF                     # core 0's s2
    # core c reads words c, c + 8, ...: eight cores in step touch eight different banks
    assert int(r.category("tcdm_conflict").sum()) == 0
    # 32 iterations of 4 loads and 2 dot products, all single-cycle and stall-free
    dots = [k for k, t in enumerate(r.profile_text) if t.startswith("pv.sdotsp.b")]
    assert r.profile_count[:, dots].sum(axis=1).tolist() == [64] * 8
    assert int(r.profile_stall[:, dots].sum()) == 0


@pytest.mark.parametrize("translate", [False, True], ids=["loop", "translated"])
def test_random_inputs(translate):
    rng = np.random.default_rng(8)
    a = rng.integers(-128, 128, N, dtype=np.int8)
    b = rng.integers(-128, 128, N, dtype=np.int8)
    m = Machine("pulp-open", translate=translate).load(DOT8)
    m.write("vec_a", a)
    m.write("vec_b", b)
    _run(m)
    assert int(m.read("result", 1, np.int32)[0]) == int(a.astype(np.int64) @ b.astype(np.int64))
    partial = m.read("partial", 8, np.int32)
    for c in range(8):
        words = np.arange(N // 4).reshape(-1, 8)[:, c]          # core c's words
        idx = (words[:, None] * 4 + np.arange(4)).ravel()
        assert int(partial[c]) == int(a[idx].astype(np.int64) @ b[idx].astype(np.int64))
