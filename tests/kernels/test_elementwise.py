"""The element-wise kernels against numpy, their edge values, and their cycle counts.

References are the plain fp32 formulas evaluated by numpy (``np.where(x > 0, dy, 0)``,
``x + y``, ``np.float32(alpha) * x``, ...), whose single fp32 roundings the kernels must
reproduce exactly: outputs are NaN-filled and compared by value (``+0 == -0``; the one place the
kernels differ in the sign of a zero is leakyrelu_fw with a negative slope at x = +0, see
elementwise.s).  Every n from 1 to 9, odd and even larger ones and n smaller than the core count
give every core count (1, 2, 3, 5, 8) a group tail, idle cores and a last core with the tail.
Inputs contain exact zeros (x > 0 must be strict), and the slopes cover < 1, > 1 and < 0.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from asm_kernels.catalogue import catalogue

from .checked_run import run_checked
from .cycle_baselines import check

FAMILY = "elementwise"
KERNELS = sorted(k.name for k in catalogue().values()   # (zfinx variants: test_zfinx.py)
                 if k.family == FAMILY and k.regfile == "f")
CORES = (1, 2, 3, 5, 8)
SIZES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 17, 100, 257)
SLOPES = (0.01, 3.0, -0.5)


def f32(v):
    return np.float32(v)


def case(name, n, rng, slope=0.01):
    """(args, output name, numpy reference) for kernel ``name`` on n random elements."""
    x = rng.standard_normal(n).astype(np.float32)
    x[::3] = 0                                     # x > 0 must be strict
    d = rng.standard_normal(n).astype(np.float32)
    out = np.full(n, np.nan, np.float32)
    s = f32(slope)
    table = {
        "relu_fw": (dict(x=x, y=out, n=n), "y", np.where(x > 0, x, f32(0))),
        "relu_bw": (dict(x=x, dy=d, dx=out, n=n), "dx", np.where(x > 0, d, f32(0))),
        "leakyrelu_fw": (dict(x=x, y=out, n=n, slope=slope), "y", np.where(x > 0, x, s * x)),
        "leakyrelu_bw": (dict(x=x, dy=d, dx=out, n=n, slope=slope), "dx",
                         np.where(x > 0, d, s * d)),
        "add": (dict(a=x, b=d, out=out, n=n), "out", x + d),
        "scale": (dict(x=d, y=out, n=n, alpha=slope), "y", s * d),
        "copy": (dict(src=d, dst=out, n=n), "dst", d),
        "fill": (dict(dst=out, n=n, value=slope), "dst", np.full(n, s)),
    }
    return table[name]


def run_case(name, n, cores, seed, slope=0.01):
    args, o, ref = case(name, n, np.random.default_rng(seed), slope)
    out, cycles = run_checked(name, args, [o], cores=cores)
    assert np.array_equal(out[o], ref), (name, n, cores, slope)
    return cycles


@pytest.mark.parametrize("name", KERNELS)
def test_matches_numpy(name):
    i = KERNELS.index(name)
    for j, n in enumerate(SIZES):
        run_case(name, n, (CORES[i % 4], 8)[j % 2], seed=j, slope=SLOPES[j % 3])


@pytest.mark.slow
@pytest.mark.parametrize("name", KERNELS)
def test_matches_numpy_all_cores(name):
    for (j, n), cores, slope in itertools.product(enumerate(SIZES), CORES, SLOPES):
        run_case(name, n, cores, seed=j, slope=slope)


def test_edge_values():
    """Signed zeros, infinities and NaN through the activations."""
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1e-45, -1e-45], np.float32)
    dy = np.arange(1, x.size + 1, dtype=np.float32)
    n = x.size
    out, _ = run_checked("relu_fw", dict(x=x, y=np.zeros(n, np.float32), n=n), ["y"], cores=3)
    bits = out["y"].view(np.uint32)
    # +0 for both zeros and for -inf / -NaN / negative subnormals; x itself otherwise
    assert bits[[0, 1, 3, 5, 7]].tolist() == [0] * 5
    assert out["y"][2] == np.inf and np.isnan(out["y"][4]) and out["y"][6] == x[6]
    out, _ = run_checked("relu_bw", dict(x=x, dy=dy, dx=np.zeros(n, np.float32), n=n), ["dx"],
                         cores=2)
    assert out["dx"].tolist() == [0, 0, 3, 0, 0, 0, 7, 0]        # NaN > 0 is false
    out, _ = run_checked("leakyrelu_bw", dict(x=x, dy=dy, dx=np.zeros(n, np.float32), n=n,
                                              slope=0.5), ["dx"], cores=2)
    assert out["dx"].tolist() == [0.5, 1.0, 3, 2.0, 2.5, 3.0, 7, 4.0]


def cycles(name, n, cores):
    args, o, _ = case(name, n, np.random.default_rng(0))
    return run_checked(name, args, [o], cores=cores)[1]


BASELINE_CASES = {f"{name}/n{n}_c{c}": (lambda name=name, n=n, c=c: cycles(name, n, c))
                  for name in KERNELS for n, c in ((2048, 8), (1003, 8), (256, 1))}


@pytest.mark.parametrize("case_id", sorted(BASELINE_CASES))
def test_cycles_match_baseline(case_id):
    check(FAMILY, case_id, BASELINE_CASES[case_id]())
