"""expf / logf, the MSE and cross-entropy kernels against numpy, and their cycle counts.

* expf, logf (through vexp / vlog) against numpy's float64 exp / log rounded to fp32, in ulps of
  the fp32 order: at most 1 ulp over the whole finite range of expf (normal and subnormal
  results) and of logf (normal and subnormal inputs), plus the special values.
* MSE: ``mean((y - t)^2)`` and ``2/n (y - t)``; CrossEntropy on raw logits with one-hot and soft
  targets: ``sum_i y_i (logsumexp(z) - z_i)`` and ``softmax(z) sum(y) - y``, all in float64.
  The tolerances are error bounds of the fp32 sums involved, ``(n + 8) eps`` times the sum of
  the magnitudes that enter them (plus ``|z - max z| eps`` for the rounded argument of each
  softmax exp) — which deliberately leave out the size of the logits themselves: a loss
  computed as ``lse - z_t`` would lose ``ulp(max z)`` and fail the shifted logits (+1000) case,
  the kernels' differences do not.
* The reductions are two launches (partials on every core, one combine), as a caller runs them;
  n from 1 to 9 puts idle cores' neutral partials into the combine.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from .checked_run import run_checked
from .cycle_baselines import check

FAMILY = "loss"
CORES = (1, 2, 3, 5, 8)
EPS = float(np.finfo(np.float32).eps)
SIZES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 33, 100)


def ulp_distance(got, ref64):
    """Distance in fp32 steps between ``got`` and ``ref64`` rounded to fp32."""
    def order(a):
        b = a.view(np.int32).astype(np.int64)
        return np.where(b < 0, -(b & 0x7FFFFFFF), b)
    return np.abs(order(got) - order(ref64.astype(np.float32)))


def vmath(name, x, cores=8):
    out, cycles = run_checked(name, dict(x=x, y=np.full(x.size, np.nan, np.float32), n=x.size),
                              ["y"], cores=cores)
    return out["y"], cycles


def test_expf_within_one_ulp():
    rng = np.random.default_rng(1)
    x = np.concatenate([np.linspace(-103.9, 88.7, 1500), rng.uniform(-88, 88, 500),
                        rng.uniform(-1, 1, 300), rng.uniform(-1e-3, 1e-3, 100),
                        rng.uniform(-103.9, -87.3, 100)]).astype(np.float32)
    y, _ = vmath("vexp", x)
    d = ulp_distance(y, np.exp(x.astype(np.float64)))
    assert d.max() <= 1, (x[np.argmax(d)], d.max())


def test_expf_special_values():
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 88.73, 1e4, -104.0, -1e4, 1e-30, -1e-30],
                 np.float32)
    y, _ = vmath("vexp", x, cores=3)
    assert y[[0, 1, 9, 10]].tolist() == [1.0] * 4
    assert y[[2, 5, 6]].tolist() == [np.inf] * 3
    assert y[[3, 7, 8]].tolist() == [0.0] * 3
    assert np.isnan(y[4])


def test_logf_within_one_ulp():
    rng = np.random.default_rng(2)
    x = np.concatenate([np.exp(rng.uniform(-87, 88.7, 1500)), rng.uniform(0.5, 2, 400),
                        1 + rng.uniform(-1e-3, 1e-3, 300), [1.0, 2.0, 0.5, 3.4e38, 1.18e-38],
                        np.exp(rng.uniform(-103, -87.4, 100))]).astype(np.float32)
    y, _ = vmath("vlog", x)
    d = ulp_distance(y, np.log(x.astype(np.float64)))
    assert d.max() <= 1, (x[np.argmax(d)], d.max())


def test_logf_special_values():
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -1.0, 1.0, 1.4e-45], np.float32)
    y, _ = vmath("vlog", x, cores=2)
    assert y[[0, 1]].tolist() == [-np.inf] * 2
    assert y[2] == np.inf and y[6] == 0.0
    assert np.isnan(y[[3, 4, 5]]).all()
    assert ulp_distance(y[7:], np.log(x[7:].astype(np.float64))).max() <= 1


def mse(y, t, cores):
    n = y.size
    part, c1 = run_checked("mse_partial", dict(y=y, t=t, partial=np.full(cores, np.nan,
                                                                          np.float32), n=n),
                           ["partial"], cores=cores)
    red, c2 = run_checked("reduce_sum", dict(partial=part["partial"], out=np.full(1, np.nan,
                                                                                 np.float32),
                                             count=cores, scale=1.0 / n), ["out"], cores=cores)
    grad, c3 = run_checked("mse_grad", dict(y=y, t=t, dy=np.full(n, np.nan, np.float32), n=n),
                           ["dy"], cores=cores)
    return red["out"][0], grad["dy"], (c1, c2, c3)


def run_mse(n, cores, seed):
    rng = np.random.default_rng(seed)
    y = rng.standard_normal(n).astype(np.float32)
    t = rng.standard_normal(n).astype(np.float32)
    loss, grad, _ = mse(y, t, cores)
    d = y.astype(np.float64) - t
    ref = np.mean(d * d)
    assert abs(loss - ref) <= (-(-n // cores) + cores + 4) * EPS * ref, (n, cores, loss, ref)
    np.testing.assert_allclose(grad, 2 / n * d, rtol=3 * EPS, atol=1e-30)


def cross_entropy(z, y, cores):
    n = z.size
    part, c1 = run_checked("ce_partial", dict(z=z, y=y, partial=np.full(4 * cores, np.nan,
                                                                         np.float32), n=n),
                           ["partial"], cores=cores)
    stats, c2 = run_checked("ce_combine", dict(partial=part["partial"],
                                               out=np.full(4, np.nan, np.float32),
                                               count=cores), ["out"], cores=cores)
    grad, c3 = run_checked("ce_grad", dict(z=z, y=y, dz=np.full(n, np.nan, np.float32), n=n,
                                           stats=stats["out"]), ["dz"], cores=cores)
    return stats["out"], grad["dz"], (c1, c2, c3)


def ce_inputs(n, seed, scale, soft, offset=0.0):
    rng = np.random.default_rng(seed)
    z = (rng.standard_normal(n) * scale + offset).astype(np.float32)
    if soft:
        y = rng.random(n).astype(np.float32)
        y /= y.sum()
    else:
        y = np.zeros(n, np.float32)
        y[rng.integers(n)] = 1
    return z, y


def run_ce(n, cores, seed, scale, soft, offset=0.0):
    z, y = ce_inputs(n, seed, scale, soft, offset)
    stats, grad, _ = cross_entropy(z, y, cores)
    z64, y64 = z.astype(np.float64), y.astype(np.float64)
    M = z64.max()
    e = np.exp(z64 - M)
    lse = M + np.log(e.sum())
    loss = np.sum(y64 * (lse - z64))
    k = (n + 8) * EPS
    what = (n, cores, scale, soft, offset)
    assert stats[1] == M, what                     # the max is exact
    assert soft or stats[3] == 1.0, what           # sum(y) of a one-hot target
    assert abs(stats[0] - loss) <= k * (y64.sum() + np.abs(y64 * (z64 - M)).sum()), what
    p = e / e.sum()
    ref = p * y64.sum() - y64
    # exp(z - M) also inherits the rounding of its argument: |z - M| eps relative
    kz = k + np.abs(z64 - M) * EPS
    assert (np.abs(grad - ref) <= kz * (p * y64.sum() + np.abs(y64)) + 1e-38).all(), what


def test_mse():
    for j, n in enumerate(SIZES + (1000,)):
        run_mse(n, CORES[j % 5], seed=j)


def test_cross_entropy():
    for j, n in enumerate(SIZES):
        run_ce(n, CORES[j % 5], seed=j, scale=(1, 30, 100)[j % 3], soft=j % 2 == 1)


def test_cross_entropy_large_logit_offset():
    """Logits all near 1000 lose nothing: the loss comes from differences of logits."""
    for soft in (False, True):
        run_ce(50, 8, seed=3, scale=2, soft=soft, offset=1000.0)


@pytest.mark.slow
def test_losses_all_cores():
    for (j, n), cores in itertools.product(enumerate(SIZES + (1000,)), CORES):
        run_mse(n, cores, seed=j)
        for scale, soft in itertools.product((1, 30), (False, True)):
            run_ce(n, cores, seed=j, scale=scale, soft=soft)


def _mse_cycles(n, cores, which):
    rng = np.random.default_rng(0)
    y, t = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(np.float32)
    return mse(y, t, cores)[2][which]


def _ce_cycles(n, cores, which):
    z, y = ce_inputs(n, 0, 3, soft=True)
    return cross_entropy(z, y, cores)[2][which]


def _vmath_cycles(name, n, cores):
    x = np.linspace(0.5, 8, n).astype(np.float32)
    return vmath(name, x, cores)[1]


BASELINE_CASES = {
    "vexp/n1024_c8": lambda: _vmath_cycles("vexp", 1024, 8),
    "vlog/n1024_c8": lambda: _vmath_cycles("vlog", 1024, 8),
    "mse_partial/n1000_c8": lambda: _mse_cycles(1000, 8, 0),
    "reduce_sum/count8_c8": lambda: _mse_cycles(1000, 8, 1),
    "mse_grad/n1000_c8": lambda: _mse_cycles(1000, 8, 2),
    "ce_partial/n1000_c8": lambda: _ce_cycles(1000, 8, 0),
    "ce_combine/count8_c8": lambda: _ce_cycles(1000, 8, 1),
    "ce_grad/n1000_c8": lambda: _ce_cycles(1000, 8, 2),
    "ce_partial/n10_c1": lambda: _ce_cycles(10, 1, 0),
    "ce_combine/count1_c1": lambda: _ce_cycles(10, 1, 1),
    "ce_grad/n10_c1": lambda: _ce_cycles(10, 1, 2),
}


@pytest.mark.parametrize("case_id", sorted(BASELINE_CASES))
def test_cycles_match_baseline(case_id):
    check(FAMILY, case_id, BASELINE_CASES[case_id]())
