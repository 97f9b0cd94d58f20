"""The bfloat16 matmul kernels (matmul_fp16_gen.py, family matmul_bf16) against a bit-exact
model and against trainlib's golden model.

Format: bfloat16 (1 sign, 8 exponent, 7 fraction bits; Xf16alt ``.ah``), held in memory as the
upper half of a binary32 (numpy has no bfloat16 type: the arrays are uint16 bit patterns).

Bit-exact model (``exact``; the mmbl_ kernels accumulate in bfloat16 lanes, see there): the
kernels' rounding order, as for binary16 (``test_matmul_fp16``): per k pair
``vfdotpex.s.ah`` computes p = a0*b0 (exact in binary32: 8 + 8 significant bits), s = fma(a1, b1,
p) rounded to binary32, then acc + s rounded to binary32 (``f32_sum``); the final binary32 sum is
rounded once to bfloat16 (``trainlib.golden.round_to``, nearest even).  The outputs must equal
it bit for bit, and also lie within ``trainlib.golden.tolerance`` of trainlib's golden model of
the same product (``golden.arith("bf16", acc="fp32")``: bfloat16 storage, binary32
accumulation, its own summation order).

Layout and shapes as for binary16: A N x K2, B M x K2 (K2 = K rounded up to even, NaN in the
pad column), a sentinel half after C when N*M is odd; the 9 shapes of a Latin square of N, M, K
in 1..9 and two larger ones, accumulate in turn, on 8 cores and on one of 1, 2, 3, 5 cores, each
kernel under its own register-file model (mmb_: f registers, mmbx_: zfinx); ``--runslow``: the
full cube 1..9 on every kernel.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from asm_kernels.catalogue import catalogue, usable
from trainlib import golden as gm

from .checked_run import run_checked
from .cycle_baselines import check
from .test_matmul_fp16 import CORES, LARGER, LATIN, f32_sum

FAMILY = "matmul_bf16"
KERNELS = sorted(k.name for k in catalogue().values() if k.family == FAMILY)
BEST = "mmb_4x6_n"
BEST_X = "mmbx_2x4_n"
SENTINEL = np.uint16(0x7E5A)
NAN = np.uint16(0x7FC0)


def encode(values: np.ndarray) -> np.ndarray:
    """bfloat16 bit patterns of float64 values that are bfloat16 numbers."""
    return (np.asarray(values, np.float32).view(np.uint32) >> 16).astype(np.uint16)


def decode(bits: np.ndarray) -> np.ndarray:
    return (np.asarray(bits, np.uint16).astype(np.uint32) << 16).view(np.float32).astype(
        np.float64)


def operands(N, M, K, seed):
    """A, B (bfloat16 values in float64, K columns), C; a wide exponent spread so that sums
    round and tiny products meet large ones."""
    rng = np.random.default_rng(seed)
    A = gm.round_to(rng.standard_normal((N, K)) * 2.0 ** rng.integers(-8, 4, (N, K)), "bf16")
    B = gm.round_to(rng.standard_normal((M, K)) * 2.0 ** rng.integers(-8, 4, (M, K)), "bf16")
    C = gm.round_to(rng.standard_normal((N, M)) * 4, "bf16")
    return A, B, C


def exact(A, B, C, acc, lanes=False):
    """The kernels' result, bit for bit, as bfloat16 values in float64.  ``lanes``: the mmbl_
    kernels (vfmac.ah: per k, the product fused into lane k % 2 with one bfloat16 rounding; the
    sum of a 16-bit product and a bfloat16 lane is exact in float64 for these operands, so
    ``round_to`` rounds it once; fadd.ah of the lanes at the end)."""
    a, b = A, B
    if a.shape[1] % 2:                      # the last pair's upper lanes are zero
        a = np.concatenate([a, np.zeros((a.shape[0], 1))], axis=1)
        b = np.concatenate([b, np.zeros((b.shape[0], 1))], axis=1)
    if lanes:
        lane = [C.copy() if acc else np.zeros(C.shape), np.zeros(C.shape)]
        for j in range(a.shape[1]):
            lane[j % 2] = gm.round_to(np.outer(a[:, j], b[:, j]) + lane[j % 2], "bf16")
        return gm.round_to(lane[0] + lane[1], "bf16")
    d = C.astype(np.float32) if acc else np.zeros(C.shape, np.float32)
    for j in range(0, a.shape[1], 2):
        s = f32_sum(np.outer(a[:, j + 1], b[:, j + 1]), np.outer(a[:, j], b[:, j]))
        d = f32_sum(d.astype(np.float64), s.astype(np.float64))
    return gm.round_to(d.astype(np.float64), "bf16")


def run(name, N, M, K, acc, cores, seed=0, config="pulp-open"):
    """(C computed by the kernel as float64 values, cycles, operands)."""
    A, B, C = operands(N, M, K, seed)
    K2 = K + K % 2
    A2 = np.full((N, K2), NAN, np.uint16)
    B2 = np.full((M, K2), NAN, np.uint16)
    A2[:, :K], B2[:, :K] = encode(A), encode(B)
    flat = encode(C).reshape(-1)
    if flat.size % 2:
        flat = np.concatenate([flat, [SENTINEL]])
    args = dict(A=A2, B=B2, C=flat, N=N, M=M, K=K, trans_B=1, accumulate=acc)
    out, cycles = run_checked(name, args, ["C"], cores=cores, config=config)
    got = out["C"]
    if got.size > N * M:
        assert got[-1] == SENTINEL, f"{name}: wrote the half after C"
    return decode(got[:N * M]).reshape(N, M), cycles, (A, B, C)


def run_case(name, N, M, K, acc, cores, seed=0):
    got, _, (A, B, C) = run(name, N, M, K, acc, cores, seed)
    lanes = name.startswith("mmbl_")
    want = exact(A, B, C, acc, lanes)
    bad = encode(got) != encode(want)
    assert not bad.any(), (f"{name} N={N} M={M} K={K} accumulate={acc} cores={cores}: "
                           f"{int(bad.sum())} wrong, first at {tuple(np.argwhere(bad)[0])}")
    fmt = "bf16" if lanes else "fp32"
    ar = gm.arith("bf16", acc=fmt)
    ref = ar.einsum("nk,mk->nm", A, B)
    mag = np.abs(A) @ np.abs(B).T
    if acc:
        ref, mag = ar.add(ref, C), mag + np.abs(C)
    tol = gm.tolerance(mag, K + acc, "bf16", acc=fmt)
    assert (np.abs(got - ar.rs(ref)) <= tol).all(), f"{name}: outside golden.tolerance"


@pytest.mark.parametrize("name", KERNELS)
def test_matches_golden(name):
    i = KERNELS.index(name)
    pair = (CORES[i % 4], 8)
    for j, shape in enumerate(LATIN + LARGER):
        run_case(name, *shape, acc=(i + j) % 2, cores=pair[j % 2], seed=j)


@pytest.mark.slow
@pytest.mark.parametrize("name", KERNELS)
def test_matches_golden_exhaustive(name):
    """Every N, M, K in 1..9, accumulate and core count in turn; opt in with --runslow."""
    for j, shape in enumerate(itertools.product(range(1, 10), repeat=3)):
        run_case(name, *shape, acc=(j // 2) % 2, cores=CORES[j % 5], seed=j)


def test_exact_model_rounds_the_binary32_sum_once():
    """1 x 1, K = 2: 1 * 1 + 2^-8 * 2^-1 = 1 + 2^-9 is exact in binary32 and lies below the
    bfloat16 tie 1 + 2^-8 (spacing 2^-7 at 1): rounds to 1; adding C = 2^-9 (accumulate) puts it
    on 1 + 2^-8, a tie, to even: 1; with C = 2^-8 the sum 1 + 3 * 2^-9 rounds up to 1 + 2^-7."""
    for c, want in ((0.0, 1.0), (2.0 ** -9, 1.0), (2.0 ** -8, 1 + 2.0 ** -7)):
        A = np.array([[1.0, 2.0 ** -8]])
        B = np.array([[1.0, 2.0 ** -1]])
        C = np.array([[c]])
        assert float(exact(A, B, C, acc=1)[0, 0]) == want, c
        flat = np.concatenate([encode(C).reshape(-1), [SENTINEL]])
        for name in (BEST, BEST_X):
            out, _ = run_checked(name, dict(A=encode(A), B=encode(B), C=flat, N=1, M=1, K=2,
                                            trans_B=1, accumulate=1), ["C"], cores=1)
            assert float(decode(out["C"][:1])[0]) == want, (name, c)


def test_usable_needs_xf16alt_and_the_register_file():
    assert usable(BEST, "rv32imfc_xpulpv2_xf16alt_xfvec")
    assert not usable(BEST, "rv32imfc_xpulpv2_xf16_xfvec")          # binary16 only
    assert not usable(BEST, "rv32imc_zfinx_xpulpv2_xf16_xf16alt_xfvec")
    assert usable(BEST_X, "rv32imc_zfinx_xpulpv2_xf16_xf16alt_xfvec")


def test_isa_without_xf16alt_is_refused_before_the_run():
    from toolchain.asm import AsmError
    with pytest.raises(AsmError, match=r"matmul_bf16_4x6\.s:\d+:\d+: .*extension xf16alt"):
        run_checked(BEST, dict(A=np.zeros(4, np.uint16), B=np.zeros(4, np.uint16),
                               C=np.zeros(4, np.uint16), N=2, M=2, K=2, trans_B=1,
                               accumulate=0), ["C"], cores=2, xpulp="rv32imfc_xpulpv2_xf16_xfvec")


# ---------------------------------------------------------------------------------------------
# cycles


def _baseline_cases():
    cases = {}
    for name in KERNELS:
        cases[f"{name}/64x64x64_c8"] = lambda n=name: run(n, 64, 64, 64, 0, 8)[1]
        cases[f"{name}/23x19x17_acc_c5"] = lambda n=name: run(n, 23, 19, 17, 1, 5)[1]
    for name in (BEST, BEST_X):
        cases[f"{name}/64x64x64_c8_gvsoc2022"] = \
            lambda n=name: run(n, 64, 64, 64, 0, 8, config="gvsoc-2022")[1]
    return cases


BASELINE_CASES = _baseline_cases()


@pytest.mark.parametrize("case_id", sorted(BASELINE_CASES))
def test_cycles_match_baseline(case_id):
    check(FAMILY, case_id, BASELINE_CASES[case_id]())


def test_generated_files_are_current():
    from asm_kernels import matmul_fp16_gen
    stale = [p.name for p, text in matmul_fp16_gen.outputs().items()
             if not p.exists() or p.read_text() != text]
    assert not stale, f"regenerate with: python -m asm_kernels.matmul_fp16_gen ({stale})"
