"""The 16-bit depthwise kernels (depthwise_fp16.s / depthwise_bf16.s, asm_kernels/half_gen.py).

Two references: the kernels' own rounding (per k pair ``vfdotpex.s``: exact products,
``fma(a1, b1, a0*b0)`` rounded to binary32, added to the binary32 sum rounded; the odd last k a
pair with zero upper lanes; the sum rounded once to the format), emulated exactly with
``test_matmul_fp16.f32_sum``, which the outputs must equal bit for bit; and trainlib's golden
16-bit arithmetic (products and sums rounded in the format, ``arith().einsum``), which they
must agree with within ``golden.tolerance`` (k = ker).
Shapes: ker 1..9 and 25 (odd: the single last k; rows of A and B starting mid-word), M 1..9
(every column-group tail), N below and above the core count, K > N*ker (a padded B row), on 1,
2, 3, 5, 8 cores; the _sp kernels (columns split) also with fewer columns than cores.
"""

from __future__ import annotations

import numpy as np
import pytest

from trainlib import golden

from .cycle_baselines import check
from .half import PRECS, assert_bits_equal, bits, rand, run16, values
from .test_matmul_fp16 import f32_sum

FAMILY = "depthwise_fp16"
CORES = (1, 2, 3, 5, 8)
# (N channels, M columns, ker, extra B row length)
SHAPES = [(1, 1, 1, 0), (2, 3, 2, 0), (3, 5, 9, 1), (4, 4, 3, 0), (5, 7, 4, 2), (8, 9, 9, 0),
          (9, 2, 5, 1), (1, 8, 25, 0), (11, 6, 7, 3), (6, 13, 8, 0)]


def model(a, b, prec):
    """The kernels' sums: a (N x ker) weights as read, b (M x N x ker); -> N x M."""
    N, ker = a.shape
    if ker % 2:
        a = np.concatenate([a, np.zeros((N, 1))], axis=1)
        b = np.concatenate([b, np.zeros(b.shape[:2] + (1,))], axis=2)
    d = np.zeros((N, b.shape[0]), np.float32)
    for t in range(0, a.shape[1], 2):
        p = a[:, None, t] * b[:, :, t].T
        s = f32_sum(a[:, None, t + 1] * b[:, :, t + 1].T, p)
        d = f32_sum(d.astype(np.float64), s.astype(np.float64))
    return golden.round_to(d.astype(np.float64), prec)


def run(name, prec, N, M, ker, extra, cores, seed=0):
    rng = np.random.default_rng(seed)
    K = N * ker + extra
    A = rand(rng, (N, ker), prec, zeros=False)
    Bfull = rand(rng, (M, K), prec, scale=2.0, zeros=False)
    Bfull.reshape(-1)[1::5] = 0.0                   # exact zeros among B
    C = np.zeros(N * M, np.uint16)
    out, cycles = run16(name, dict(A=bits(A, prec), B=bits(Bfull, prec), C=C, N=N, M=M, K=K,
                                   ker_size=ker), ["C"], cores=cores)
    got = out["C"].reshape(N, M)
    a = A[:, ::-1] if "in_grad" in name else A
    b = Bfull[:, :N * ker].reshape(M, N, ker)
    what = f"{name} N={N} M={M} ker={ker} K={K} cores={cores}"
    assert_bits_equal(got, model(a, b, prec), prec, what)
    want = golden.arith(prec).einsum("nt,mnt->nm", a, b)
    tol = golden.tolerance(np.einsum("nt,mnt->nm", np.abs(a), np.abs(b)), ker, prec)
    assert (np.abs(values(got, prec) - want) <= tol).all(), what
    return cycles


@pytest.mark.parametrize("prec", PRECS)
@pytest.mark.parametrize("kind", ["mm_dw", "mm_dw_in_grad", "mm_dw_sp_1x4",
                                  "mm_dw_in_grad_sp_1x4"])
def test_matches_golden(kind, prec):
    for j, shape in enumerate(SHAPES):
        run(f"{kind}_{prec}", prec, *shape, cores=CORES[j % 5], seed=j)


def _baseline_cases():
    cases = {}
    for prec in PRECS:
        for kind in ("mm_dw", "mm_dw_in_grad", "mm_dw_sp_1x4", "mm_dw_in_grad_sp_1x4"):
            name = f"{kind}_{prec}"
            # DS-CNN-like forward tile: 16 channels, 3x3 kernel, 8x8 output, on 8 cores
            cases[f"{name}/N16_M64_ker9_c8"] = lambda n=name, p=prec: run(n, p, 16, 64, 9, 0, 8)
            # weight-gradient shape: ker = Ho*Wo = 64, M = 9
            cases[f"{name}/N16_M9_ker64_c8"] = lambda n=name, p=prec: run(n, p, 16, 9, 64, 0, 8)
            # a tile of 3 channels (fewer than the cores), 14x14 output
            cases[f"{name}/N3_M196_ker9_c8"] = lambda n=name, p=prec: run(n, p, 3, 196, 9, 0, 8)
    return cases


BASELINE_CASES = _baseline_cases()


@pytest.mark.parametrize("case_id", sorted(BASELINE_CASES))
def test_cycles_match_baseline(case_id):
    check(FAMILY, case_id, BASELINE_CASES[case_id]())
