"""The activation kernels (sigmoid_fw, sigmoid_bw, mul) against numpy, and their cycle counts.

* sigmoid_fw against numpy's float64 ``1 / (1 + exp(-x))`` rounded to fp32, in ulps of the fp32
  order: at most 2 ulp over [-110, 110] (a dense grid, random points near 0, the range where
  the result is subnormal, the +-104 switch to the out-of-line path), exact 0.5 at +-0, 0 / 1
  beyond +-104 and for infinities, NaN for NaN.  That is far inside trainlib's bound for the
  step (``trainlib.step.golden_bounds``), which no longer needs the |x| eps allowance of the
  exp/log chain the kernel replaced.
* sigmoid_bw against float64 ``dy * y * (1 - y)``: two roundings (the fused y - y*y, then the
  product) so within eps relative; exact zeros at y = 0 and y = 1.
* mul bit-exact against numpy's fp32 ``a * b``.
Every n from 0 to 9, odd and even larger ones and n smaller than the core count give every core
count (1, 2, 3, 5, 8) idle cores, a group tail and a last core with the tail; the checked runner
catches any write past the end, any write to an input and any callee-saved register left
changed.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from asm_kernels.catalogue import catalogue

from .checked_run import run_checked
from .cycle_baselines import check

FAMILY = "activation"
KERNELS = sorted(k.name for k in catalogue().values()   # (zfinx variants: test_zfinx.py)
                 if k.family == FAMILY and k.regfile == "f")
CORES = (1, 2, 3, 5, 8)
SIZES = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 17, 100, 257)
EPS = float(np.finfo(np.float32).eps)


def ulp_distance(got, ref64):
    """Distance in fp32 steps between ``got`` and ``ref64`` rounded to fp32."""
    def order(a):
        b = a.view(np.int32).astype(np.int64)
        return np.where(b < 0, -(b & 0x7FFFFFFF), b)
    return np.abs(order(got) - order(ref64.astype(np.float32)))


def sigmoid64(x):
    with np.errstate(over="ignore"):
        return 1.0 / (1.0 + np.exp(-x.astype(np.float64)))


def case(name, n, rng):
    """(args, output name, check(out)) for kernel ``name`` on n random elements."""
    x = (4 * rng.standard_normal(n)).astype(np.float32)
    y = rng.uniform(0, 1, n).astype(np.float32)
    d = rng.standard_normal(n).astype(np.float32)
    out = np.full(n, np.nan, np.float32)
    if name == "sigmoid_fw":
        return (dict(x=x, y=out, n=n), "y",
                lambda got: ulp_distance(got, sigmoid64(x)).max(initial=0) <= 2)
    if name == "sigmoid_bw":
        ref = d.astype(np.float64) * y * (1 - y.astype(np.float64))
        return (dict(y=y, dy=d, dx=out, n=n), "dx",
                lambda got: (np.abs(got - ref) <= EPS * np.abs(ref)).all())
    assert name == "mul"
    return dict(a=x, b=d, out=out, n=n), "out", lambda got: np.array_equal(got, x * d)


def run_case(name, n, cores, seed):
    args, o, ok = case(name, n, np.random.default_rng(seed))
    out, cycles = run_checked(name, args, [o], cores=cores)
    assert ok(out[o]), (name, n, cores)
    return cycles


def test_catalogue_has_the_kernels():
    assert KERNELS == ["mul", "sigmoid_bw", "sigmoid_fw"]


@pytest.mark.parametrize("name", KERNELS)
def test_matches_numpy(name):
    i = KERNELS.index(name)
    for j, n in enumerate(SIZES):
        run_case(name, n, (CORES[i % 4], 8)[j % 2], seed=j)


@pytest.mark.slow
@pytest.mark.parametrize("name", KERNELS)
def test_matches_numpy_all_cores(name):
    for (j, n), cores in itertools.product(enumerate(SIZES), CORES):
        run_case(name, n, cores, seed=j)


def sigmoid(x, cores=8):
    out, _ = run_checked("sigmoid_fw", dict(x=x, y=np.full(x.size, np.nan, np.float32),
                                             n=x.size), ["y"], cores=cores)
    return out["y"]


def test_sigmoid_within_two_ulp():
    rng = np.random.default_rng(1)
    x = np.concatenate([np.linspace(-110, 110, 4001), rng.uniform(-20, 20, 1000),
                        rng.uniform(-1, 1, 500), rng.uniform(-1e-3, 1e-3, 100),
                        rng.uniform(-104, -87, 300),           # subnormal results
                        np.nextafter(np.float32([104, -104]), 0),
                        [1e-30, -1e-30, 1e-45, -1e-45, 16.63, 17.33, -88.72]]).astype(np.float32)
    y = sigmoid(x)
    d = ulp_distance(y, sigmoid64(x))
    assert d.max() <= 2, (x[np.argmax(d)], d.max())
    assert (y >= 0).all() and (y <= 1).all()


def test_sigmoid_special_values():
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 104.0, -104.0, 1e30, -1e30, -np.nan],
                 np.float32)
    y = sigmoid(x, cores=3)
    assert y[[0, 1]].tolist() == [0.5, 0.5]
    assert y[[2, 5, 7]].tolist() == [1.0] * 3
    assert y[[3, 6, 8]].view(np.uint32).tolist() == [0] * 3      # +0
    assert np.isnan(y[[4, 9]]).all()


def test_sigmoid_bw_edges():
    y = np.array([0.0, 1.0, 0.5, 1 - 2**-24, 2**-30], np.float32)
    dy = np.array([3.0, -2.0, 4.0, 1.0, 1.0], np.float32)
    out, _ = run_checked("sigmoid_bw", dict(y=y, dy=dy, dx=np.zeros(5, np.float32), n=5),
                         ["dx"], cores=2)
    ref = dy.astype(np.float64) * y * (1 - y.astype(np.float64))
    assert out["dx"][:3].tolist() == [0.0, 0.0, 1.0]
    assert (np.abs(out["dx"] - ref) <= EPS * np.abs(ref)).all()    # no cancellation near 1


def cycles(name, n, cores):
    args, o, _ = case(name, n, np.random.default_rng(0))
    return run_checked(name, args, [o], cores=cores)[1]


BASELINE_CASES = {f"{name}/n{n}_c{c}": (lambda name=name, n=n, c=c: cycles(name, n, c))
                  for name in KERNELS for n, c in ((1024, 8), (1003, 8), (256, 1))}


@pytest.mark.parametrize("case_id", sorted(BASELINE_CASES))
def test_cycles_match_baseline(case_id):
    check(FAMILY, case_id, BASELINE_CASES[case_id]())
