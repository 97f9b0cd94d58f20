"""The 16-bit bias kernels (bias_fp16.s / bias_bf16.s, asm_kernels/half_gen.py) against
trainlib's golden model in the same format.

bias_add rounds each y + b once, as the golden model does: bit-exact.  bias_grad sums a channel
in binary32 (exact products by vfdotpex.s, one final rounding), the golden model one rounded
16-bit addition at a time: they must agree within ``golden.tolerance`` (k = HW), and the kernel
must be the binary32 sum rounded once (checked exactly: float64 sum of at most a few hundred
16-bit values rounded to binary32 and then to the format, the order-free reference).
Shapes: C in 1..9 with HW in 1..9 and 16, 17, 64 (odd HW leaves channels starting mid-word),
C < cores, on 1, 2, 3, 5, 8 cores.
"""

from __future__ import annotations

import numpy as np
import pytest

from trainlib import golden

from .cycle_baselines import check
from .half import PRECS, assert_bits_equal, bits, rand, run16, values

FAMILY = "bias_fp16"
CORES = (1, 2, 3, 5, 8)
SHAPES = [(1, 1), (1, 9), (2, 3), (3, 1), (3, 17), (5, 7), (7, 16), (8, 5), (9, 64), (4, 2),
          (11, 13), (6, 0)]


def run_add(prec, C, HW, cores, seed=0):
    rng = np.random.default_rng(seed)
    y = rand(rng, (C, HW), prec, scale=3.0)
    b = rand(rng, C, prec)
    out, cycles = run16(f"bias_add_{prec}", dict(y=bits(y, prec), b=bits(b, prec), C=C, HW=HW),
                        ["y"], cores=cores)
    assert_bits_equal(out["y"], golden.arith(prec).add(y, b[:, None]), prec,
                      f"bias_add_{prec} C={C} HW={HW} cores={cores}")
    return cycles


def run_grad(prec, C, HW, cores, seed=0):
    rng = np.random.default_rng(seed)
    dy = rand(rng, (C, HW), prec, scale=3.0)
    out, cycles = run16(f"bias_grad_{prec}", dict(dy=bits(dy, prec), db=np.zeros(C, np.uint16),
                                                  C=C, HW=HW), ["db"], cores=cores)
    got = values(out["db"], prec)
    want = golden.arith(prec).sum_last(dy)
    tol = golden.tolerance(np.abs(dy).sum(axis=1), HW, prec)
    assert (np.abs(got - want) <= tol).all(), (prec, C, HW, got, want)
    exact = golden.round_to(dy.sum(axis=1).astype(np.float32), prec)
    assert_bits_equal(out["db"], exact, prec, f"bias_grad_{prec} C={C} HW={HW}")
    return cycles


@pytest.mark.parametrize("prec", PRECS)
@pytest.mark.parametrize("kind", ["add", "grad"])
def test_matches_golden(kind, prec):
    for j, (C, HW) in enumerate(SHAPES):
        (run_add if kind == "add" else run_grad)(prec, C, HW, CORES[j % 5], seed=j)


def _baseline_cases():
    cases = {}
    for prec in PRECS:
        for C, HW, cores in ((16, 196, 8), (3, 1000, 8), (10, 1, 8)):
            cases[f"bias_add_{prec}/{C}x{HW}_c{cores}"] = \
                lambda p=prec, C=C, HW=HW, c=cores: run_add(p, C, HW, c)
        for C, HW, cores in ((16, 196, 8), (64, 49, 8), (10, 1, 8)):
            cases[f"bias_grad_{prec}/{C}x{HW}_c{cores}"] = \
                lambda p=prec, C=C, HW=HW, c=cores: run_grad(p, C, HW, c)
    return cases


BASELINE_CASES = _baseline_cases()


@pytest.mark.parametrize("case_id", sorted(BASELINE_CASES))
def test_cycles_match_baseline(case_id):
    check(FAMILY, case_id, BASELINE_CASES[case_id]())
