"""A core resumed where it parked in translated code skips the run's entry checks, exactly.

A run's entry checks the core's state (an active hardware loop ending inside the run, the FPU
off, the rounding mode): the loop takes over when the run cannot go on.  A core that parked at
an access inside a run and is resumed there by a scheduling round has executed nothing since it
passed those checks, so ``run_translated_cores`` enters it with ``granted = RESUMED`` and the
run does not repeat them.  ``CS_TX_PARKED`` marks such a park: ``engine.park`` clears it (every
park, the loop's included), ``run_translated_cores`` sets it after parking a core from
translated code, and a CSR written from Python clears it, so the resumed run checks again (a
debugger session runs without translated code).  On 8 cores contending for the TCDM nearly
every resume is one of these; the runs must equal the interpreted path in every figure.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import tests.engine.test_translate as translate_tests
from isasim import engine
from isasim import layout as L
from isasim.machine import Machine, load_program
from tests.engine.test_slices import _same

ROOT = Path(__file__).resolve().parents[2]
MATMUL = ROOT / "docs" / "worked-example" / "matmul8.s"


def test_contended_cores_resume_in_translated_code(monkeypatch):
    program = load_program(MATMUL)
    monkeypatch.setenv("ISASIM_TRANSLATE", "eager")
    translated = Machine("pulp-open").load(program)
    assert translated._translated is not None
    interpreted = Machine("pulp-open", translate=False).load(program)
    _same(translated.run(), interpreted.run())


def _marked(machine: Machine, core: int) -> np.int64:
    return machine.CS[core * L.NCS + L.CS_TX_PARKED]


def test_every_park_clears_the_mark():
    machine = Machine("pulp-open").load(load_program(MATMUL))
    machine.CS[3 * L.NCS + L.CS_TX_PARKED] = 1
    engine.park.py_func(machine.CS, 3 * L.NCS, 100, 5, 7)
    assert _marked(machine, 3) == 0
    assert machine.CS[3 * L.NCS + L.CS_STATUS] == L.ST_PARKED


def test_a_csr_written_from_python_clears_the_mark():
    machine = Machine("pulp-open").load(load_program(MATMUL))
    csrs = machine.isa.csrs
    for name in ("lpcount0", "lpend1", "mstatus", "frm"):
        machine.CS[2 * L.NCS + L.CS_TX_PARKED] = 1
        machine.csrs.writers[csrs[name]](2, 4)
        assert _marked(machine, 2) == 0, name



@pytest.mark.parametrize("name", ["xpulpv2_hwloop", "corev_hwloop", "traps"])
def test_state_checked_at_entry(name, monkeypatch):
    """The state checks themselves, which resumed entries skip: the hardware-loop programs and
    the trap program (the FPU turned off), every run translated, against the loop (the whole
    ISA sweep is a slow test).  Checked to fail with the checks skipped at every entry."""
    monkeypatch.setenv("ISASIM_TRANSLATE", "all")
    translate_tests.test_isa_programs_same_translated(name)
