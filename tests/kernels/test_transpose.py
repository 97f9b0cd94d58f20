"""blocktranspose and transpose against numpy, and their cycle counts.

References: ``bt[ci, co, i] = W[co, ci, HkWk-1-i]`` (numpy: swap the first two axes, reverse the
last) and ``dst = src.T``; outputs are NaN-filled and compared bit for bit.  Sizes 1 to 9 and
larger odd and even ones on every dimension (odd and even kernel sizes exercise the paired copy
and its single tail), 1, 2, 3, 5 and 8 cores.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from .checked_run import run_checked
from .cycle_baselines import check

FAMILY = "transpose"
CORES = (1, 2, 3, 5, 8)

BT_SHAPES = [(1, 1, 1), (2, 3, 2), (3, 5, 9), (4, 1, 4), (5, 7, 1), (6, 2, 25), (7, 9, 3),
             (8, 4, 5), (9, 6, 8), (16, 8, 9), (13, 17, 3)]          # (Co, Ci, HkWk)
TR_SHAPES = [(1, 1), (1, 9), (9, 1), (2, 3), (3, 2), (4, 7), (5, 5), (6, 8), (7, 4), (8, 6),
             (9, 9), (32, 17), (24, 40)]                             # (R, C)


def run_bt(Co, Ci, k, cores, seed):
    W = np.random.default_rng(seed).standard_normal((Co, Ci, k)).astype(np.float32)
    bt = np.full((Ci, Co, k), np.nan, np.float32)
    out, cycles = run_checked("blocktranspose", dict(W=W, bt=bt, Co=Co, Ci=Ci, HkWk=k), ["bt"],
                              cores=cores)
    assert np.array_equal(out["bt"], W.transpose(1, 0, 2)[:, :, ::-1]), (Co, Ci, k, cores)
    return cycles


def run_tr(R, C, cores, seed):
    src = np.random.default_rng(seed).standard_normal((R, C)).astype(np.float32)
    dst = np.full((C, R), np.nan, np.float32)
    out, cycles = run_checked("transpose", dict(src=src, dst=dst, R=R, C=C), ["dst"],
                              cores=cores)
    assert np.array_equal(out["dst"], src.T), (R, C, cores)
    return cycles


def test_blocktranspose_matches_numpy():
    for j, shape in enumerate(BT_SHAPES):
        run_bt(*shape, cores=CORES[j % 5], seed=j)


def test_transpose_matches_numpy():
    for j, shape in enumerate(TR_SHAPES):
        run_tr(*shape, cores=CORES[j % 5], seed=j)


@pytest.mark.slow
def test_all_cores():
    for (j, shape), cores in itertools.product(enumerate(BT_SHAPES), CORES):
        run_bt(*shape, cores=cores, seed=j)
    for (j, shape), cores in itertools.product(enumerate(TR_SHAPES), CORES):
        run_tr(*shape, cores=cores, seed=j)


BASELINE_CASES = {
    # Conv2D input-gradient weights: 16 out x 8 in channels, 3x3 (odd: paired copy + tail)
    "blocktranspose/Co16_Ci8_k9_c8": lambda: run_bt(16, 8, 9, 8, 0),
    "blocktranspose/Co8_Ci8_k4_c1": lambda: run_bt(8, 8, 4, 1, 0),
    # PointWise input-gradient weights: 32 x 24
    "transpose/R32_C24_c8": lambda: run_tr(32, 24, 8, 0),
    "transpose/R17_C9_c3": lambda: run_tr(17, 9, 3, 0),
}


@pytest.mark.parametrize("case_id", sorted(BASELINE_CASES))
def test_cycles_match_baseline(case_id):
    check(FAMILY, case_id, BASELINE_CASES[case_id]())
