"""The binary16 matmul kernels (matmul_fp16_gen.py) against a bit-exact numpy model.

Golden model: the kernels' own rounding order (``asm_kernels/matmul_fp16_gen.py``), emulated
exactly. The mmhl_ kernels: per k, ``fma`` of the product into lane k % 2 rounded to binary16
(the product is exact in float64, the sum rounded by ``f32_sum(..., float16)``), the lanes added
and rounded at the end. The mmh_ kernels: per k pair, ``vfdotpex.s.h`` computes p = a0*b0 (exact
in binary32: 11 + 11 bits), s = fma(a1, b1, p) rounded to binary32, then acc + s rounded to
binary32; the final binary32 sum is rounded to binary16. Each rounding of a sum of two exactly
known float64 values is done by ``f32_sum`` (float64 TwoSum, then the float64 sum rounded to
float32, corrected where it sits exactly on a float32 tie and the TwoSum error says on which
side the true sum is), so the model is correctly rounded whatever the exponent spread. The
outputs must equal it bit for bit, and lie within ``trainlib.golden.tolerance`` of trainlib's
golden model of the product (``golden.arith("fp16", acc=...)``). On random data the binary16
rounding hides most binary32 differences, so ``test_rounding_order_hand_cases`` pins two
outputs that a float64 sum or a product-by-product binary32 sum would get wrong.

Layout: A is N x K2, B M x K2 (K2 = K rounded up to even); with K odd the pad column holds NaN,
which the kernels must not read.  C is passed with a sentinel half after its end when N*M is odd
(on top of ``run_checked``'s guard words).

Shapes: each kernel on the 9 shapes of a Latin square of N, M, K in 1..9 (every leftover of
every block and of the x4 k-pair unroll, odd and even K) and two larger ones, accumulate in turn,
on 8 cores and on one of 1, 2, 3, 5 cores.  ``--runslow``: the full cube 1..9 on every kernel.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from asm_kernels import matmul_fp16_gen
from asm_kernels.catalogue import catalogue
from trainlib import golden as gm

from .checked_run import run_checked
from .cycle_baselines import check

FAMILY = "matmul_fp16"
KERNELS = sorted(k.name for k in catalogue().values() if k.family == FAMILY)
CORES = (1, 2, 3, 5, 8)
LATIN = [(1 + i, 1 + (4 * i + 2) % 9, 1 + (7 * i + 5) % 9) for i in range(9)]
LARGER = [(17, 13, 33), (10, 37, 12)]
BEST = "mmh_4x6_n"
BEST_X = "mmhx_2x4_n"
SENTINEL = np.uint16(0x7E5A)


def f32_sum(x: np.ndarray, y: np.ndarray, dtype=np.float32) -> np.ndarray:
    """x + y rounded once to ``dtype`` (binary32 or binary16, nearest even); x, y float64
    arrays of exact values."""
    s = x + y
    bb = s - x
    err = (x - (s - bb)) + (y - bb)                       # TwoSum: x + y = s + err exactly
    r = s.astype(dtype)
    other = np.nextafter(r, np.where(s > r, np.inf, -np.inf).astype(dtype))
    tie = (r.astype(np.float64) != s) & \
        ((r.astype(np.float64) + other.astype(np.float64)) / 2 == s) & (err != 0)
    up = np.maximum(r, other)
    down = np.minimum(r, other)
    return np.where(tie, np.where(err > 0, up, down), r)


def golden(A2, B2, C, K, acc, lanes=False):
    """The kernels' result, bit for bit (binary16 N x M); A2, B2 padded to K2 columns.
    ``lanes``: the mmhl_ kernels (vfmac.h into two binary16 lanes, fadd.h at the end)."""
    a = A2[:, :K].astype(np.float64)
    b = B2[:, :K].astype(np.float64)
    if K % 2:                       # the last pair's upper lanes are zero
        a = np.concatenate([a, np.zeros((a.shape[0], 1))], axis=1)
        b = np.concatenate([b, np.zeros((b.shape[0], 1))], axis=1)
    if lanes:
        lane = [C.copy() if acc else np.zeros(C.shape, np.float16),
                np.zeros(C.shape, np.float16)]
        for j in range(a.shape[1]):                     # lane j % 2: fma in binary16
            lane[j % 2] = f32_sum(np.outer(a[:, j], b[:, j]), lane[j % 2].astype(np.float64),
                                  np.float16)
        return f32_sum(lane[0].astype(np.float64), lane[1].astype(np.float64), np.float16)
    d = C.astype(np.float32) if acc else np.zeros(C.shape, np.float32)
    for j in range(0, a.shape[1], 2):
        p = np.outer(a[:, j], b[:, j])                    # exact (22 significant bits)
        s = f32_sum(np.outer(a[:, j + 1], b[:, j + 1]), p)
        d = f32_sum(d.astype(np.float64), s.astype(np.float64))
    return d.astype(np.float16)


def operands(N, M, K, seed):
    """A, B padded to K2 columns (NaN in the pad), and C."""
    rng = np.random.default_rng(seed)
    K2 = K + K % 2
    A2 = np.full((N, K2), np.nan, np.float16)
    B2 = np.full((M, K2), np.nan, np.float16)
    # a wide exponent spread, so that sums round and tiny products meet large ones
    A2[:, :K] = rng.standard_normal((N, K)) * 2.0 ** rng.integers(-8, 4, (N, K))
    B2[:, :K] = rng.standard_normal((M, K)) * 2.0 ** rng.integers(-8, 4, (M, K))
    C = (rng.standard_normal((N, M)) * 4).astype(np.float16)
    return A2, B2, C


def run(name, N, M, K, acc, cores, seed=0, config="pulp-open"):
    """(C computed by the kernel, cycles, operands)."""
    A2, B2, C = operands(N, M, K, seed)
    flat = C.reshape(-1)
    if flat.size % 2:
        flat = np.concatenate([flat, SENTINEL.view(np.float16).reshape(1)])
    args = dict(A=A2, B=B2, C=flat, N=N, M=M, K=K, trans_B=1, accumulate=acc)
    out, cycles = run_checked(name, args, ["C"], cores=cores, config=config)
    got = out["C"]
    if got.size > N * M:
        assert got[-1:].view(np.uint16)[0] == SENTINEL, f"{name}: wrote the half after C"
    return got[:N * M].reshape(N, M), cycles, (A2, B2, C)


def run_case(name, N, M, K, acc, cores, seed=0):
    got, _, (A2, B2, C) = run(name, N, M, K, acc, cores, seed)
    want = golden(A2, B2, C, K, acc, lanes=name.startswith("mmhl_"))
    bad = got.view(np.uint16) != want.view(np.uint16)
    if bad.any():
        first = tuple(np.argwhere(bad)[0])
        raise AssertionError(f"{name} N={N} M={M} K={K} accumulate={acc} cores={cores}: "
                             f"{int(bad.sum())} wrong, first at {first}: {got[first]} != "
                             f"{want[first]}")
    within_golden_tolerance(name, got, A2[:, :K], B2[:, :K], C, acc)


def within_golden_tolerance(name, got, A, B, C, acc):
    """``got`` within ``trainlib.golden.tolerance`` of trainlib's golden model of the product:
    binary16 storage, accumulation in binary32 (vfdotpex) or binary16 (the mmhl_ lanes)."""
    fmt = "fp16" if name.startswith("mmhl_") else "fp32"
    ar = gm.arith("fp16", acc=fmt)
    a, b = A.astype(np.float64), B.astype(np.float64)
    ref, mag = ar.einsum("nk,mk->nm", a, b), np.abs(a) @ np.abs(b).T
    if acc:
        ref, mag = ar.add(ref, C.astype(np.float64)), mag + np.abs(C.astype(np.float64))
    tol = gm.tolerance(mag, A.shape[1] + acc, "fp16", acc=fmt)
    assert (np.abs(got.astype(np.float64) - ar.rs(ref)) <= tol).all(), \
        f"{name}: outside golden.tolerance"


@pytest.mark.parametrize("name", KERNELS)
def test_matches_golden_bit_exact(name):
    i = KERNELS.index(name)
    pair = (CORES[i % 4], 8)
    for j, shape in enumerate(LATIN + LARGER):
        run_case(name, *shape, acc=(i + j) % 2, cores=pair[j % 2], seed=j)


@pytest.mark.slow
@pytest.mark.parametrize("name", KERNELS)
def test_matches_golden_exhaustive(name):
    for j, shape in enumerate(itertools.product(range(1, 10), repeat=3)):
        run_case(name, *shape, acc=(j // 2) % 2, cores=CORES[j % 5], seed=j)


@pytest.mark.parametrize("case", ["vs_float64", "vs_per_product"])
def test_rounding_order_hand_cases(case):
    """Two 1 x 1 outputs whose bits depend on the rounding order (derived by hand).

    vs_float64: C = 1 (accumulate), K = 3, A = [2^-6, 2^-15, 0], B = [2^-5, 2^-15, 0]: one
    vfdotpex.s.h gives s = 2^-11 + 2^-30 (exact in binary32), 1 + s rounds in binary32 to
    1 + 2^-11 (ulp 2^-23), a binary16 tie, to even: 1.0.  Summed exactly the value is above
    the tie: 1 + 2^-10.
    vs_per_product: K = 4, A = B = [1, 2^-6 | 2^-5, 2^-12, 2^-12]: pair 0 gives 1 + 2^-11,
    pair 1 adds 2^-24 + 2^-24 = 2^-23 exactly (fma), so 1 + 2^-11 + 2^-23 rounds up to
    1 + 2^-10.  Adding the four products one by one in binary32 loses both 2^-24 (ties to the
    even 1 + 2^-11) and ends on the binary16 tie: 1.0."""
    if case == "vs_float64":
        a, b, c, acc, want = [2 ** -6, 2 ** -15, 0], [2 ** -5, 2 ** -15, 0], 1.0, 1, 1.0
    else:
        a, b, c, acc, want = ([1, 2 ** -6, 2 ** -12, 2 ** -12], [1, 2 ** -5, 2 ** -12, 2 ** -12],
                              0.0, 0, 1 + 2 ** -10)
    K = len(a)
    A2 = np.zeros((1, K + K % 2), np.float16)
    B2 = np.zeros((1, K + K % 2), np.float16)
    A2[0, :K], B2[0, :K] = a, b
    C = np.array([[c]], np.float16)
    flat = np.concatenate([C.reshape(-1), SENTINEL.view(np.float16).reshape(1)])
    for name in ("mmh_naive_n", BEST, "mmhx_naive_n", BEST_X):
        out, _ = run_checked(name, dict(A=A2, B=B2, C=flat, N=1, M=1, K=K, trans_B=1,
                                        accumulate=acc), ["C"], cores=1)
        assert float(out["C"][0]) == want, (name, float(out["C"][0]))
    assert float(golden(A2, B2, C, K, acc)[0, 0]) == want


def test_f32_sum_rounds_ties_by_the_lost_bits():
    """1 + 2^-24 is a binary32 tie (to 1); with 2^-80 more it must round up, and the float64
    sum alone has lost that bit."""
    x = np.array([1.0 + 2.0 ** -24, 1.0 + 2.0 ** -24, 1.0])
    y = np.array([2.0 ** -80, -(2.0 ** -80), 2.0 ** -24])
    got = f32_sum(x, y)
    assert got[0] == np.nextafter(np.float32(1), np.float32(2))
    assert got[1] == np.float32(1)
    assert got[2] == np.float32(1)


def test_refuses_b_stored_k_by_m():
    from asm_kernels.runner import KernelArgumentError, run_kernel
    A2, B2, C = operands(2, 2, 2, 0)
    with pytest.raises(KernelArgumentError, match="trans_B == 1"):
        run_kernel(BEST, dict(A=A2, B=B2, C=C, N=2, M=2, K=2, trans_B=0, accumulate=0))


def test_generated_files_are_current():
    stale = [p.name for p, text in matmul_fp16_gen.outputs().items()
             if not p.exists() or p.read_text() != text]
    assert not stale, f"regenerate with: python -m asm_kernels.matmul_fp16_gen ({stale})"


@pytest.mark.parametrize("fam", matmul_fp16_gen.FAMILIES + matmul_fp16_gen.X_FAMILIES
                         + matmul_fp16_gen.BF16_FAMILIES, ids=lambda f: f.prefix)
def test_unrolled_bodies_have_no_load_use_stall(fam):
    if fam.uk == 1:
        pytest.skip("the naive kernel is not scheduled")
    for st in fam.strips(1):
        for steps, body in ((st.uk, st.body(st.uk)), (1, st.body(1))):
            allowed = int(st.POSTINC and st.u * st.v * steps == 1)    # as in test_matmul
            assert matmul_fp16_gen.stall_count(body) == allowed, (st, [o.text for o in body])


# ---------------------------------------------------------------------------------------------
# cycles


def _baseline_cases():
    cases = {}
    for name in KERNELS:
        # the square shape of the fp32 family's figure, on 8 cores
        cases[f"{name}/64x64x64_c8"] = lambda n=name: run(n, 64, 64, 64, 0, 8)[1]
        # leftovers everywhere (odd K), accumulating, on 5 cores
        cases[f"{name}/23x19x17_acc_c5"] = lambda n=name: run(n, 23, 19, 17, 1, 5)[1]
    for name in ("mmh_naive_n", BEST, "mmhx_naive_n", BEST_X):
        cases[f"{name}/64x64x64_c8_gvsoc2022"] = \
            lambda n=name: run(n, 64, 64, 64, 0, 8, config="gvsoc-2022")[1]
    return cases


BASELINE_CASES = _baseline_cases()


@pytest.mark.parametrize("case_id", sorted(BASELINE_CASES))
def test_cycles_match_baseline(case_id):
    check(FAMILY, case_id, BASELINE_CASES[case_id]())


def test_best_kernel_reaches_7_5_mac_per_cycle():
    """On 64 x 64 x 64, 8 cores, pulp-open with its instruction cache: >= 7.5 MAC/cycle (peak
    16; measured 8.23; the best binary16 kernel, mmh_4x4_n, 8.68 on a first call and 9.03 on a
    second: test_fp16_matmul_resident).  8 k pairs per loop iteration gave 9.49 with ideal
    fetch but 6.08 with the cache, whose 512-byte L0 the loop no longer fit."""
    macs = 64 ** 3
    assert macs / run(BEST, 64, 64, 64, 0, 8)[1] >= 7.5


def test_overwrites_c_without_accumulate():
    """accumulate = 0 must ignore C's old contents (NaN there would poison a C += A.B)."""
    A2, B2, _ = operands(5, 7, 3, 1)
    C = np.full((5, 8), np.nan, np.float16)           # 7 columns used, row-major 5 x 7 + pad
    for name in ("mmh_naive_m", "mmh_4x4_n", BEST, "mmhl_2x4_n", BEST_X, "mmhx_4x2_m"):
        out, _ = run_checked(name, dict(A=A2, B=B2, C=C.reshape(-1)[:36], N=5, M=7, K=3,
                                        trans_B=1, accumulate=0), ["C"], cores=3)
        got = out["C"][:35].reshape(5, 7)
        want = golden(A2, B2, np.zeros((5, 7), np.float16), 3, 0,
                      lanes=name.startswith("mmhl_"))
        assert np.array_equal(got.view(np.uint16), want.view(np.uint16)), name


def test_isa_without_xf16_is_refused_before_the_run():
    """A core whose ISA lacks the smallFloat extensions cannot run the kernels: the assembler
    refuses them naming the extension and the kernel file's line."""
    from toolchain.asm import AsmError
    A2, B2, C = operands(2, 2, 2, 0)
    with pytest.raises(AsmError, match=r"matmul_fp16_4x6\.s:\d+:\d+: .*extension xf(16|vec)"):
        run_checked(BEST, dict(A=A2, B=B2, C=C, N=2, M=2, K=2, trans_B=1, accumulate=0),
                    ["C"], cores=2, xpulp="rv32imfc_xpulpv2")
