"""Running in slices changes nothing a run reports.

``Machine.run`` runs long runs in slices (so that Ctrl-C and the status line are served): at a
slice's end every core that passed it parks and resumes at the same instruction and cycle.
Here runs cut into slices of 1, 13 and 500 cycles must equal the run in one slice in every
figure: cycles, instructions, stall categories, the per-instruction profile, the conflict
matrices, the performance counters, registers, output, and each core's event log record by record.
(The whole engine and cluster suites also pass with ``ISASIM_SLICE_CYCLES=37``.)
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from isasim.machine import Machine, load_program

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = [ROOT / "docs" / "worked-example" / "matmul8.s",
            ROOT / "examples" / "cluster" / "dma_double_buffer.s",
            ROOT / "examples" / "cluster" / "perf_stats.s"]


def _run(program, slice_cycles: int, trace: bool, max_cycles: int | None = None):
    machine = Machine("pulp-open").load(program)
    machine.slice_cycles = slice_cycles
    records: list[np.ndarray] = []
    if trace:
        machine.enable_trace(records.append, 4096)
    result = machine.run(max_cycles)
    result.check_invariant()
    return result, (np.concatenate(records) if records else None)


def _sorted(records: np.ndarray) -> np.ndarray:
    """Each core's records by cycle (then kind), core after core: a slice's end may close a run
    record a few records earlier or later than one long call writes it, not change it."""
    return records[np.lexsort((records[:, 0], records[:, 2], records[:, 1]))]


def _same(a, b) -> None:
    assert (a.status, a.exit_code, a.exit_codes, a.stdout) == \
        (b.status, b.exit_code, b.exit_codes, b.stdout)
    for name in ("cycles", "instret", "categories", "profile_pc", "profile_count",
                 "profile_stall", "conflicts", "conflict_winners", "x", "f", "fcsr"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)
    for name in a.perf:
        np.testing.assert_array_equal(a.perf[name], b.perf[name], err_msg=name)
    assert (a.fault is None) == (b.fault is None)
    if a.fault is not None:
        assert a.fault.format() == b.fault.format()


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.name)
@pytest.mark.parametrize("trace", [False, True], ids=["plain", "traced"])
def test_slices_change_nothing(path, trace):
    program = load_program(path)
    whole, whole_log = _run(program, 1 << 40, trace)
    for cycles in (1, 13, 500):
        sliced, sliced_log = _run(program, cycles, trace)
        _same(sliced, whole)
        if trace:        # the same records; cores interleave in another order
            np.testing.assert_array_equal(_sorted(sliced_log), _sorted(whole_log))


def test_slices_change_nothing_at_the_cycle_limit():
    program = load_program(PROGRAMS[0])
    whole, _ = _run(program, 1 << 40, False, max_cycles=9_999)
    assert whole.status == "timeout"
    _same(_run(program, 7, False, max_cycles=9_999)[0], whole)
