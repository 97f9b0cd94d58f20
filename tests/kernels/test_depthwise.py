"""The depthwise kernels (mm_dw family) against numpy, and their committed cycle counts.

Reference: the per-channel dot products of PULP-TrainLib's mm_dw kernels
(lib/sources/pulp_matmul_fp32.c) written out in float64,
``C[k, j] = sum_t w[k, t] * B[j, k, t]`` with ``w`` the channel's weights (reversed for the
in-grad kernels).  Tolerance: the standard bound for an fp32 dot product of length ``ker``,
``(ker + 1) * eps * sum_t |w[k, t] * B[j, k, t]|``, which any summation order meets and any
wrong or missing term breaks.  Shapes cover every N, M, ker from 1 to 9, larger odd and even
sizes, B rows longer than N*ker, and 1, 2, 3, 5 and 8 cores; in the default run each kernel
gets 8 cores and one of 1, 2, 3, 5 in turn (assembling a kernel for one more core count costs
~0.3 s), all of them under ``-m slow``.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from asm_kernels.catalogue import catalogue

from .checked_run import run_checked
from .cycle_baselines import check

FAMILY = "depthwise"
KERNELS = sorted(k.name for k in catalogue().values()   # (zfinx variants: test_zfinx.py)
                 if k.family == FAMILY and k.regfile == "f")
CORES = (1, 2, 3, 5, 8)
EPS = float(np.finfo(np.float32).eps)

# (N channels, M columns, ker, extra B row padding): every M % 4, ker % 2 and ker % 3, fewer and
# more channels than cores, the 3x3 forward and the weight-gradient (ker = Ho*Wo) shapes.
SHAPES = [(1, 1, 1, 0), (2, 3, 2, 1), (3, 5, 3, 0), (4, 7, 4, 2), (5, 6, 5, 0), (9, 8, 9, 0),
          (9, 17, 25, 4), (11, 16, 64, 1)]
# more sizes from 1 to 9 and larger, for the slow sweep
MORE_SHAPES = [(6, 2, 6, 3), (7, 4, 7, 0), (8, 9, 8, 1), (16, 33, 9, 0), (3, 64, 1, 0),
               (13, 10, 49, 0)]


def reference(A, B, N, M, K, ker, flipped):
    """(C as float64 [N, M], per-element error bound)."""
    w = A.astype(np.float64).reshape(N, ker)
    if flipped:
        w = w[:, ::-1]
    b = B.astype(np.float64).reshape(M, K)[:, :N * ker].reshape(M, N, ker)
    C = np.einsum("kt,jkt->kj", w, b)
    bound = (ker + 1) * EPS * np.einsum("kt,jkt->kj", np.abs(w), np.abs(b))
    return C, bound


def run_case(name, N, M, ker, pad, cores, seed):
    rng = np.random.default_rng(seed)
    K = N * ker + pad
    A = rng.standard_normal(N * ker).astype(np.float32)
    B = rng.standard_normal(M * K).astype(np.float32)
    C = np.full(N * M, np.nan, np.float32)
    out, _ = run_checked(name, dict(A=A, B=B, C=C, N=N, M=M, K=K, ker_size=ker), ["C"],
                         cores=cores)
    ref, bound = reference(A, B, N, M, K, ker, "in_grad" in name)
    got = out["C"].reshape(N, M).astype(np.float64)
    bad = ~(np.abs(got - ref) <= bound + 1e-30)
    assert not bad.any(), (f"{name} N={N} M={M} ker={ker} pad={pad} cores={cores}: "
                           f"{int(bad.sum())} wrong, first at {np.argwhere(bad)[0]}")


@pytest.mark.parametrize("name", KERNELS)
def test_matches_numpy(name):
    i = KERNELS.index(name)
    pair = (CORES[i % 4], 8)
    for j, shape in enumerate(SHAPES):
        run_case(name, *shape, cores=pair[j % 2], seed=j)


@pytest.mark.slow
@pytest.mark.parametrize("name", KERNELS)
def test_matches_numpy_all_cores(name):
    for (j, shape), cores in itertools.product(enumerate(SHAPES + MORE_SHAPES), CORES):
        run_case(name, *shape, cores=cores, seed=j)


def test_flipped_kernel_reverses_weights():
    """A one-hot weight at t=0 picks B's first element forward and its last one flipped."""
    ker, M = 5, 3
    A = np.zeros(ker, np.float32)
    A[0] = 1
    B = np.arange(M * ker, dtype=np.float32)
    for name, pick in (("mm_dw", 0), ("mm_dw_in_grad", ker - 1)):
        out, _ = run_checked(name, dict(A=A, B=B, C=np.zeros(M, np.float32), N=1, M=M, K=ker,
                                        ker_size=ker), ["C"], cores=1)
        assert out["C"].tolist() == B.reshape(M, ker)[:, pick].tolist()


def cycles(name, N, M, ker, cores):
    K = N * ker
    args = dict(A=np.ones(N * ker, np.float32), B=np.ones(M * K, np.float32),
                C=np.zeros(N * M, np.float32), N=N, M=M, K=K, ker_size=ker)
    return run_checked(name, args, ["C"], cores=cores)[1]


def _baseline_cases():
    cases = {}
    for name in KERNELS:
        # forward of a 3x3 depthwise layer, 8 channels, 8x8 output, on 8 cores
        cases[f"{name}/N8_M64_ker9_c8"] = lambda n=name: cycles(n, 8, 64, 9, 8)
        # weight gradient of the same layer (ker = Ho*Wo, M = Hk*Wk), on 8 cores
        cases[f"{name}/N8_M9_ker64_c8"] = lambda n=name: cycles(n, 8, 9, 64, 8)
    for name in ("mm_dw", "mm_dw_1x4_u2"):
        cases[f"{name}/N3_M49_ker9_c1"] = lambda n=name: cycles(n, 3, 49, 9, 1)
    return cases


BASELINE_CASES = _baseline_cases()


@pytest.mark.parametrize("case_id", sorted(BASELINE_CASES))
def test_cycles_match_baseline(case_id):
    check(FAMILY, case_id, BASELINE_CASES[case_id]())
