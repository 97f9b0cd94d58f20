"""A program translated before on this machine is translated at load, however short its run.

The default path translates a program once a run outlasts its first slice (``FIRST_SLICE``):
a short run never pays a compile.  A program run again (a benchmark, a deployed training
program) would then stay interpreted on every short run; the translation cache remembers
which programs were translated (``Machine._marker``) so that they are translated at load the
next time, from the cached object code, with every observable as interpreted.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from isasim.machine import Machine
from tests.engine.test_translate import assert_same, matrices, observables
from toolchain.asm import assemble

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import engine as bench  # noqa: E402  (bench/engine.py: the speed benchmark's programs)


def fresh_program():
    """A new Program object each time: nothing is shared through the process's own memo."""
    return assemble(bench.matmul(8), family="xpulpv2")


def test_short_run_of_a_new_program_is_interpreted(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("ISASIM_TRANSLATE", "1")
    monkeypatch.setenv("ISASIM_TRANSLATE_CACHE", str(tmp_path))
    m = Machine("pulp-open", cores=8, stack_size=256).load(fresh_program())
    matrices(m)
    r = m.run()
    assert r.status == "exited"
    assert r.cycles[0] < 1 << 20 and m._translated is None      # shorter than a slice
    assert not any(tmp_path.iterdir())                           # nothing compiled


def test_program_translated_before_is_translated_at_load(monkeypatch, tmp_path) -> None:
    monkeypatch.setenv("ISASIM_TRANSLATE_CACHE", str(tmp_path))
    monkeypatch.setenv("ISASIM_TRANSLATE", "eager")       # a first run that translates
    first = Machine("pulp-open", cores=8, stack_size=256).load(fresh_program())
    assert first._translated is not None
    assert [p for p in tmp_path.iterdir() if p.name.startswith("ran")]
    monkeypatch.setenv("ISASIM_TRANSLATE", "1")           # the default path from now on
    again = Machine("pulp-open", cores=8, stack_size=256).load(fresh_program())
    assert again._translated is not None
    np.testing.assert_array_equal(again._translated.reshape(-1, 4)[:, 1:],
                                  first._translated.reshape(-1, 4)[:, 1:])
    plain = Machine("pulp-open", cores=8, stack_size=256, translate=False).load(fresh_program())
    for m in (again, plain):
        matrices(m)
    assert_same(observables(plain.run()), observables(again.run()))
    # another configuration predecodes other records: not the same program for the marker
    other = Machine("pulp-open", cores=4, stack_size=256,
                    fpu_sharing="gvsoc4").load(fresh_program())
    assert other._translated is None
