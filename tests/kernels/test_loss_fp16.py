"""The 16-bit loss kernels (loss_fp16.s / loss_bf16.s, asm_kernels/half_gen.py) with loss.s's
binary32 combines (reduce_sum, ce_combine), against ``trainlib.golden``'s 16-bit losses.

mse_grad rounds as the golden model does: bit-exact.  The MSE loss (squares summed exactly in
binary32, the golden model rounding every square and sum to the format) must agree within
``golden.tolerance`` (k = n) divided by n, plus the golden loss's own rounding.  The
cross-entropy kernels compute in binary32 and round dz once: within one 16-bit ulp of the golden
float64-then-rounded dz (plus binary32's error on softmax * sum(y)), and the loss within a
binary32-level relative error plus the golden loss's 16-bit rounding.
Sizes 1..9, 17, 100, 257 on 1, 2, 3, 5, 8 cores (idle cores write neutral slots).
"""

from __future__ import annotations

import numpy as np
import pytest

from trainlib import golden

from .checked_run import run_checked
from .cycle_baselines import check
from .half import PRECS, assert_bits_equal, bits, rand, run16, values

FAMILY = "loss_fp16"
CORES = (1, 2, 3, 5, 8)
SIZES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 17, 100, 257)


def run_mse(prec, n, cores, seed=0):
    rng = np.random.default_rng(seed)
    y, t = rand(rng, n, prec), rand(rng, n, prec, zeros=False)
    Y, T = bits(y, prec), bits(t, prec)
    part = np.full(8, np.nan, np.float32)
    out, c1 = run_checked(f"mse_partial_{prec}", dict(y=Y, t=T, partial=part, n=n), ["partial"],
                          cores=cores)
    loss = np.zeros(1, np.float32)
    res, c2 = run_checked("reduce_sum", dict(partial=out["partial"], out=loss, count=cores,
                                             scale=1.0 / n), ["out"], cores=cores)
    o, c3 = run16(f"mse_grad_{prec}", dict(y=Y, t=T, dy=np.zeros(n, np.uint16), n=n), ["dy"],
                  cores=cores)
    want_loss, want_dy = golden.mse_loss(y, t, prec)
    assert_bits_equal(o["dy"], want_dy, prec, f"mse_grad_{prec} n={n} cores={cores}")
    d = golden.arith(prec).add(y, -t)
    tol = golden.tolerance(np.sum(d * d), n, prec) / n + golden.FORMATS[prec].eps * want_loss
    assert abs(float(res["out"][0]) - want_loss) <= tol, (prec, n, res["out"][0], want_loss)
    return c1 + c3


def run_ce(prec, n, cores, seed=0):
    rng = np.random.default_rng(seed)
    z = rand(rng, n, prec, scale=3.0, zeros=False)
    t = golden.round_to(rng.dirichlet(np.ones(n)), prec)
    Z, T = bits(z, prec), bits(t, prec)
    part = np.full(4 * cores, np.nan, np.float32)
    out, c1 = run_checked(f"ce_partial_{prec}", dict(z=Z, y=T, partial=part, n=n), ["partial"],
                          cores=cores)
    stats = np.zeros(4, np.float32)
    res, _ = run_checked("ce_combine", dict(partial=out["partial"], out=stats, count=cores),
                         ["out"], cores=cores)
    o, c3 = run16(f"ce_grad_{prec}", dict(z=Z, y=T, dz=np.zeros(n, np.uint16), n=n,
                                          stats=res["out"]), ["dz"], cores=cores)
    want_loss, want_dz = golden.cross_entropy_loss(z, t, prec)
    fmt = golden.FORMATS[prec]
    assert abs(float(res["out"][0]) - want_loss) <= fmt.eps * abs(want_loss) + 1e-5, \
        (prec, n, res["out"][0], want_loss)
    got = values(o["dz"], prec)
    want = np.asarray(want_dz, np.float64)
    ulp = np.maximum(np.abs(want) * fmt.eps, 2.0 ** (fmt.emin - fmt.bits + 1))
    assert (np.abs(got - want) <= ulp + 1e-6 * t.sum()).all(), (prec, n, got, want)
    return c1 + c3


@pytest.mark.parametrize("prec", PRECS)
@pytest.mark.parametrize("loss", ["mse", "ce"])
def test_matches_golden(loss, prec):
    for j, n in enumerate(SIZES):
        (run_mse if loss == "mse" else run_ce)(prec, n, CORES[j % 5], seed=j)


# partial + grad kernels (the one-core combine is loss.s's)
BASELINE_CASES = {f"{kind}_{p}/n{n}_c8": (lambda f=f, p=p, n=n: f(p, n, 8))
                  for p in PRECS for kind, f in (("mse", run_mse), ("ce", run_ce))
                  for n in (1003, 2048)}


@pytest.mark.parametrize("case_id", sorted(BASELINE_CASES))
def test_cycles_match_baseline(case_id):
    check(FAMILY, case_id, BASELINE_CASES[case_id]())
