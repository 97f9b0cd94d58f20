"""The 16-bit SGD update (optimizer_fp16.s / optimizer_bf16.s, asm_kernels/half_gen.py) against
``trainlib.golden.sgd`` in the same format: four rounded operations in the golden model's order,
so w must match bit for bit, and the written-back g must be g + wd*w rounded twice (product,
sum).  Sizes 1..9, 17, 100, 257 on 1, 2, 3, 5, 8 cores (group tails, idle cores)."""

from __future__ import annotations

import numpy as np
import pytest

from trainlib import golden

from .cycle_baselines import check
from .half import PRECS, assert_bits_equal, bits, rand, run16

FAMILY = "optimizer_fp16"
CORES = (1, 2, 3, 5, 8)
SIZES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 17, 100, 257)


def run(prec, n, cores, seed=0, lr=0.1, wd=0.01):
    rng = np.random.default_rng(seed)
    w = rand(rng, n, prec)
    g = rand(rng, n, prec, scale=0.5)
    out, cycles = run16(f"sgd_update_{prec}", dict(w=bits(w, prec), g=bits(g, prec), n=n, lr=lr,
                                                   weight_decay=wd), ["w", "g"], cores=cores)
    what = f"sgd_update_{prec} n={n} cores={cores}"
    assert_bits_equal(out["w"], golden.sgd(w, g, lr, wd, prec), prec, what)
    ar = golden.arith(prec)
    assert_bits_equal(out["g"], ar.add(g, ar.mul(ar.rs(wd), w)), prec, what + " (g)")
    return cycles


@pytest.mark.parametrize("prec", PRECS)
def test_matches_golden(prec):
    for j, n in enumerate(SIZES):
        run(prec, n, CORES[j % 5], seed=j, lr=(0.1, 0.37, 1e-3)[j % 3], wd=(0.01, 0.0, 5e-4)[j % 3])


BASELINE_CASES = {f"sgd_update_{p}/n{n}_c{c}": (lambda p=p, n=n, c=c: run(p, n, c))
                  for p in PRECS for n, c in ((1003, 8), (2048, 8), (256, 1))}


@pytest.mark.parametrize("case_id", sorted(BASELINE_CASES))
def test_cycles_match_baseline(case_id):
    check(FAMILY, case_id, BASELINE_CASES[case_id]())
