"""The conversion kernels (convert.s, asm_kernels/half_gen.py): binary32 -> 16-bit rounded to
nearest even (``golden.round_to``), 16-bit -> binary32 exact.  Values span the formats'
ranges: ties, overflow to infinity, subnormals, signed zeros, infinities.  Sizes 1..9, 17, 100,
257 on 1, 2, 3, 5, 8 cores."""

from __future__ import annotations

import numpy as np
import pytest

from trainlib import golden

from .checked_run import run_checked
from .cycle_baselines import check
from .half import PRECS, assert_bits_equal, bits, run16, values

FAMILY = "convert"
CORES = (1, 2, 3, 5, 8)
SIZES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 17, 100, 257)
SPECIAL = {"fp16": [65504.0, 65520.0, 2.0 ** -24, 2.0 ** -25, 3 * 2.0 ** -26, 1 + 2.0 ** -11],
           "bf16": [3.4e38, 2.0 ** -133, 2.0 ** -134, 1 + 2.0 ** -8, 1 + 3 * 2.0 ** -9]}


def wide(rng, n, prec):
    x = (rng.standard_normal(n) * 2.0 ** rng.integers(-30, 20, n)).astype(np.float32)
    sp = np.array([0.0, -0.0, np.inf, -np.inf] + SPECIAL[prec], np.float32)
    k = min(n, sp.size)
    x[:k] = sp[:k]
    return x


def run_narrow(prec, n, cores, seed=0):
    x = wide(np.random.default_rng(seed), n, prec)
    out, cycles = run16(f"fp32_to_{prec}", dict(src=x, dst=np.zeros(n, np.uint16), n=n), ["dst"],
                        cores=cores)
    assert_bits_equal(out["dst"], golden.round_to(x, prec), prec, f"fp32_to_{prec} n={n}")
    assert (np.signbit(values(out["dst"], prec)) == np.signbit(x)).all()
    return cycles


def run_widen(prec, n, cores, seed=0):
    v = golden.round_to(wide(np.random.default_rng(seed), n, prec), prec)
    dst = np.zeros(n, np.float32)
    out, cycles = run_checked(f"{prec}_to_fp32", dict(src=bits(v, prec), dst=dst, n=n), ["dst"],
                              cores=cores)
    assert np.array_equal(out["dst"].view(np.uint32), v.astype(np.float32).view(np.uint32))
    return cycles


@pytest.mark.parametrize("prec", PRECS)
@pytest.mark.parametrize("way", ["narrow", "widen"])
def test_conversions(way, prec):
    for j, n in enumerate(SIZES):
        (run_narrow if way == "narrow" else run_widen)(prec, n, CORES[j % 5], seed=j)


BASELINE_CASES = {f"{name}/n{n}_c{c}": (lambda f=f, p=p, n=n, c=c: f(p, n, c))
                  for p in PRECS
                  for f, name in ((run_narrow, f"fp32_to_{p}"), (run_widen, f"{p}_to_fp32"))
                  for n, c in ((1003, 8), (2048, 8))}


@pytest.mark.parametrize("case_id", sorted(BASELINE_CASES))
def test_cycles_match_baseline(case_id):
    check(FAMILY, case_id, BASELINE_CASES[case_id]())
