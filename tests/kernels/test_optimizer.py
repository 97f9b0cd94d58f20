"""The SGD update against numpy, and its cycle counts.

Reference (PULP-TrainLib B.11): ``g' = g + weight_decay * w`` (written back) and
``w' = w - lr * g'`` in float64 from the fp32 inputs.  The kernel computes each as one fused
multiply-add, so each output is within one fp32 rounding of the exact value given its inputs:
``g'`` within 1 ulp, ``w'`` within 1 ulp plus lr times g's rounding.  Every n from 1 to 9 and
larger ones on 1, 2, 3, 5, 8 cores; weight decay 0 and not.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from .checked_run import run_checked
from .cycle_baselines import check

FAMILY = "optimizer"
CORES = (1, 2, 3, 5, 8)
EPS = float(np.finfo(np.float32).eps)
SIZES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 15, 16, 17, 100, 1001)


def run_case(n, cores, seed, lr=0.05, wd=0.01):
    rng = np.random.default_rng(seed)
    w = rng.standard_normal(n).astype(np.float32)
    g = rng.standard_normal(n).astype(np.float32)
    out, cycles = run_checked("sgd_update", dict(w=w, g=g, n=n, lr=lr, weight_decay=wd),
                              ["w", "g"], cores=cores)
    lr64, wd64 = float(np.float32(lr)), float(np.float32(wd))
    w64, g64 = w.astype(np.float64), g.astype(np.float64)
    g2 = g64 + wd64 * w64
    w2 = w64 - lr64 * g2
    assert (np.abs(out["g"] - g2) <= EPS * np.abs(g2) + 1e-38).all(), (n, cores)
    assert (np.abs(out["w"] - w2) <= EPS * (np.abs(w2) + lr64 * np.abs(g2)) + 1e-38).all(), \
        (n, cores)
    return cycles


def test_matches_numpy():
    for j, n in enumerate(SIZES):
        run_case(n, CORES[j % 5], seed=j, wd=(0.0, 0.01)[j % 2])


@pytest.mark.slow
def test_matches_numpy_all_cores():
    for (j, n), cores, wd in itertools.product(enumerate(SIZES), CORES, (0.0, 0.01)):
        run_case(n, cores, seed=j, wd=wd)


BASELINE_CASES = {
    "sgd_update/n2048_c8": lambda: run_case(2048, 8, 0),
    "sgd_update/n1003_c8": lambda: run_case(1003, 8, 0),
    "sgd_update/n256_c1": lambda: run_case(256, 1, 0),
}


@pytest.mark.parametrize("case_id", sorted(BASELINE_CASES))
def test_cycles_match_baseline(case_id):
    check(FAMILY, case_id, BASELINE_CASES[case_id]())
