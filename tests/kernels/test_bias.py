"""bias_add and bias_grad against numpy, and their cycle counts.

* bias_add: ``y + b[:, None]`` in fp32, bit-exact (one rounding per element, as numpy).
* bias_grad: float64 row sums, within the fp32 sum bound ``(HW + 1) eps sum|dy|`` that any
  summation order meets and a missing or wrong term breaks; and the same bits for every core
  count (each channel is summed by one core in an order that depends only on HW).
Shapes (C x HW) cover C = 0 and HW = 0, C and HW of 1 (HW = 1 is bias_add's vector path),
odd sizes, fewer and more channels than cores, channel boundaries inside a core's chunk and
every HW % 4; cores 1, 2, 3, 5, 8.  The checked runner catches writes past the end, writes to
inputs and callee-saved registers left changed.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from asm_kernels.catalogue import catalogue

from .checked_run import run_checked
from .cycle_baselines import check

FAMILY = "bias"
KERNELS = sorted(k.name for k in catalogue().values()   # (zfinx variants: test_zfinx.py)
                 if k.family == FAMILY and k.regfile == "f")
CORES = (1, 2, 3, 5, 8)
EPS = float(np.finfo(np.float32).eps)
SHAPES = [(0, 5), (4, 0), (1, 1), (1, 7), (3, 1), (13, 1), (2, 3), (3, 5), (5, 9), (7, 17),
          (8, 64), (3, 189), (9, 6), (11, 2)]


def run_case(name, C, HW, cores, seed):
    rng = np.random.default_rng(seed)
    y = rng.standard_normal((C, HW)).astype(np.float32)
    b = rng.standard_normal(C).astype(np.float32)
    if name == "bias_add":
        out, _ = run_checked(name, dict(y=y, b=b, C=C, HW=HW), ["y"], cores=cores)
        assert np.array_equal(out["y"], y + b[:, None]), (C, HW, cores)
        return out["y"]
    out, _ = run_checked(name, dict(dy=y, db=np.full(C, np.nan, np.float32), C=C, HW=HW),
                         ["db"], cores=cores)
    ref = y.astype(np.float64).sum(axis=1)
    bound = (HW + 1) * EPS * np.abs(y.astype(np.float64)).sum(axis=1)
    assert (np.abs(out["db"] - ref) <= bound).all(), (C, HW, cores, out["db"], ref)
    return out["db"]


def test_catalogue_has_the_kernels():
    assert KERNELS == ["bias_add", "bias_grad"]


@pytest.mark.parametrize("name", KERNELS)
def test_matches_numpy(name):
    i = KERNELS.index(name)
    for j, shape in enumerate(SHAPES):
        run_case(name, *shape, cores=(CORES[(i + j) % 4], 8)[j % 2], seed=j)


@pytest.mark.slow
@pytest.mark.parametrize("name", KERNELS)
def test_matches_numpy_all_cores(name):
    for (j, shape), cores in itertools.product(enumerate(SHAPES), CORES):
        run_case(name, *shape, cores=cores, seed=j)


def test_bias_grad_same_bits_on_any_core_count():
    got = [run_case("bias_grad", 6, 37, cores, seed=11) for cores in (1, 3, 8)]
    assert all(np.array_equal(g.view(np.uint32), got[0].view(np.uint32)) for g in got)


def cycles(name, C, HW, cores):
    y = np.ones((C, HW), np.float32)
    args = (dict(y=y, b=np.ones(C, np.float32), C=C, HW=HW) if name == "bias_add" else
            dict(dy=y, db=np.zeros(C, np.float32), C=C, HW=HW))
    return run_checked(name, args, ["y" if name == "bias_add" else "db"], cores=cores)[1]


# a conv tile (13 channels of 27 x 7), few channels with a large plane, a linear layer's bias
# (HW = 1), and one core
BASELINE_CASES = {f"{name}/C{C}_HW{HW}_c{c}": (lambda name=name, C=C, HW=HW, c=c:
                                               cycles(name, C, HW, c))
                  for name in KERNELS
                  for C, HW, c in ((13, 189, 8), (3, 1024, 8), (64, 1, 8), (8, 64, 1))}


@pytest.mark.parametrize("case_id", sorted(BASELINE_CASES))
def test_cycles_match_baseline(case_id):
    check(FAMILY, case_id, BASELINE_CASES[case_id]())
