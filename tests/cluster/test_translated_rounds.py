"""Scheduling rounds while the cores run translated code: the same arbitration as interpreted.

While every core to run resumes in translated code, the engine switches cores, grants lone
accesses and takes scheduling rounds in ``engine.run_translated_cores``, not in the loop.
These runs force translation of every run (``ISASIM_TRANSLATE=all``), so that the cores park
at translated loads and stores, and check the result against the lockstep reference of
``test_lockstep_reference`` and against the interpreted run, under each policy (rr_arb_tree
included), the banks' round-robin pointers included.
"""

from __future__ import annotations

import numpy as np
import pytest

from isasim import layout as L
from isasim.machine import Machine
from tests.cluster.test_lockstep_reference import (
    test_the_engine_times_cores_as_the_lockstep_reference_does as against_reference,
)
from tests.engine.test_translate import assert_same, bench, matrices, observables
from toolchain.asm import assemble

POLICIES = ["round_robin", "fifo", "none", "rr_arb_tree"]


@pytest.fixture(autouse=True)
def every_run(monkeypatch):
    monkeypatch.setenv("ISASIM_TRANSLATE", "all")


@pytest.mark.parametrize("seed", [1, 2])
@pytest.mark.parametrize("policy", POLICIES)
def test_translated_cores_time_as_the_lockstep_reference(policy, seed):
    """Random straight-line bodies of loads, stores and ALU work on 2-8 cores (seeds 1 and 2:
    8 and 5 cores; a DMA transfer, barriers, shared-unit and L2 traffic mixed in)."""
    against_reference(policy, seed, "private")


@pytest.mark.parametrize("policy", POLICIES)
def test_convoy_on_one_bank_same_translated(policy):
    """The bench's 8-core matmul, whose cores queue on one bank in turn (up to 7 losers a
    round): translated, every observable and every bank's pointer as interpreted."""
    program = assemble(bench.matmul(8), family="xpulpv2")
    out = []
    for translate in (False, True):
        m = Machine("pulp-open", cores=8, conflict_policy=policy, stack_size=256,
                    translate=translate).load(program)
        matrices(m)
        r = m.run()
        out.append((observables(r), m.CL[L.L_BANK_RR:L.L_BANK_RR + 64].copy(),
                    m._translated is not None))
    (plain, plain_rr, _), (fast, fast_rr, translated) = out
    assert translated
    assert_same(plain, fast)
    np.testing.assert_array_equal(plain_rr, fast_rr)
    assert plain["conflicts"].sum() > 0 or policy == "none"
