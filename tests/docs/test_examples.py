"""The complete 8-core program of docs/programming-guide.md runs and prints what it says."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from isasim.machine import Machine

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "cluster" / "parallel_sum.s"
GUIDE = Path(__file__).resolve().parents[2] / "docs" / "programming-guide.md"


def run(patch=None):
    machine = Machine("pulp-open").load(EXAMPLE)
    if patch:
        patch(machine)
    result = machine.run(1_000_000)
    result.check_invariant()
    return result, machine


def test_parallel_sum_prints_each_core_in_turn_and_the_total():
    """Core c sums words 8c..8c+7 of 0..63: 64c + 28; the lines come in hart order because the
    cores take turns between barriers; every core exits 0."""
    r, m = run()
    expected = "".join(f"core {c}: {64 * c + 28}\n" for c in range(8)) + "total: 2016\n"
    assert r.status == "exited" and r.exit_code == 0
    assert r.stdout == expected
    assert r.exit_codes == [0] * 8
    assert m.read("partial", 8).tolist() == [64 * c + 28 for c in range(8)]
    assert m.read("data", 64).tolist() == list(range(64))      # the DMA copied L2 into the TCDM


def test_data_sections_land_where_the_guide_says():
    """.data in L2 (0x1C000000...), .l1 in the TCDM (0x10000000...)."""
    _, m = run()
    assert 0x1C00_0000 <= m.address("input") < 0x1C19_0000
    assert 0x1000_0000 <= m.address("data") < 0x1001_0000


def test_a_wrong_total_ends_the_run_with_exit_code_1():
    r, _ = run(lambda m: m.write("input", np.array([5], dtype=np.uint32)))
    assert r.stdout.endswith("total: 2021\n")
    assert r.exit_code == 1 and r.exit_codes == [1] + [0] * 7


def test_the_guide_shows_the_example_output():
    text = GUIDE.read_text()
    assert "examples/cluster/parallel_sum.s" in text
    assert "total: 2016" in text
