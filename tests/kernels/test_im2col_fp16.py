"""im2row_16 / im2col_16 / im2row_ig_16 (im2col_16.s, generated from im2col.s by
asm_kernels/half_gen.py): 16-bit elements, any bit pattern, moved exactly: the references of
test_im2col.py on random uint16 patterns (nonzero, so a missed copy shows), buffers pre-filled
with 0xFFFF.  The same shapes (stride, padding, leftovers, channel counts below the core
count) on 1..8 cores."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from .cycle_baselines import check
from .half import run16
from .test_im2col import (
    CORES,
    MORE_SHAPES,
    SHAPES,
    buf_shape,
    out_size,
    ref_im2row,
    ref_im2row_ig,
)

FAMILY = "im2col_fp16"


def run(name, src, Hk, Wk, Hout, Wout, sh, sw, pt, pl, cores):
    C, Hs, Ws = src.shape
    buf = np.full(buf_shape(name, C, Hk, Wk, Hout, Wout), 0xFFFF, np.uint16)
    out, cycles = run16(name, dict(src=src, buf=buf, C=C, Hs=Hs, Ws=Ws, Hk=Hk, Wk=Wk,
                                   Hout=Hout, Wout=Wout, stride_h=sh, stride_w=sw, pad_top=pt,
                                   pad_left=pl), ["buf"], cores=cores)
    return out["buf"], cycles


def pattern(rng, shape):
    return rng.integers(1, 0xFFFF, shape).astype(np.uint16)


def run_case(shape, cores, seed):
    C, H, W, Hk, Wk, sh, sw, pt, pb, pl, pr = shape
    Ho, Wo = out_size(H, Hk, sh, pt, pb), out_size(W, Wk, sw, pl, pr)
    rng = np.random.default_rng(seed)
    X = pattern(rng, (C, H, W))
    ref = ref_im2row(X, Hk, Wk, Ho, Wo, sh, sw, pt, pl)
    got, _ = run("im2row_16", X, Hk, Wk, Ho, Wo, sh, sw, pt, pl, cores)
    assert np.array_equal(got, ref), (shape, cores)
    got, _ = run("im2col_16", X, Hk, Wk, Ho, Wo, sh, sw, pt, pl, cores)
    assert np.array_equal(got, ref.T), (shape, cores)
    dY = pattern(rng, (C, Ho, Wo))
    got, _ = run("im2row_ig_16", dY, Hk, Wk, H, W, sh, sw, pt, pl, cores)
    assert np.array_equal(got, ref_im2row_ig(dY, Hk, Wk, H, W, sh, sw, pt, pl)), (shape, cores)


def test_matches_reference():
    for j, shape in enumerate(SHAPES):
        run_case(shape, CORES[j % 5], seed=j)


# stride 1 along the rows, output rows as wide as the source's: the flat path, whose
# im2row_16 pairs units (wk, wk + 1) into words (odd widths: pairs on a half every other row;
# image width 1 and 2: pairs with no pixel where both columns hit)
FLAT = [(2, 5, 6, 3, 3, 1, 1, 1, 1, 1, 1), (3, 5, 7, 3, 3, 1, 1, 1, 1, 1, 1),
        (2, 4, 1, 3, 3, 1, 1, 1, 1, 1, 1), (3, 3, 2, 2, 4, 1, 1, 0, 1, 2, 1),
        (2, 6, 4, 2, 1, 2, 1, 1, 0, 3, 1), (4, 5, 5, 3, 2, 1, 1, 0, 2, 1, 0)]


@pytest.mark.parametrize("cores", (1, 3, 8))
def test_flat_pairs_match_reference(cores):
    for j, shape in enumerate(FLAT):
        run_case(shape, cores, seed=100 + j)


@pytest.mark.slow
def test_matches_reference_all_cores():
    for (j, shape), cores in itertools.product(enumerate(SHAPES + MORE_SHAPES + FLAT), CORES):
        run_case(shape, cores, seed=j)


def cycles(name, C, H, k, s, p, cores):
    Ho = out_size(H, k, s, p, p)
    src_hw, out_hw = (Ho, H) if name == "im2row_ig_16" else (H, Ho)
    src = np.ones((C, src_hw, src_hw), np.uint16)
    return run(name, src, k, k, out_hw, out_hw, s, s, p, p, cores)[1]


BASELINE_CASES = {f"{n}/C8_H8_k3_s1_p1_c8": (lambda n=n: cycles(n, 8, 8, 3, 1, 1, 8))
                  for n in ("im2row_16", "im2col_16", "im2row_ig_16")}
BASELINE_CASES.update({f"{n}/C4_H16_k3_s2_p1_c8": (lambda n=n: cycles(n, 4, 16, 3, 2, 1, 8))
                       for n in ("im2row_16", "im2col_16", "im2row_ig_16")})


@pytest.mark.parametrize("case_id", sorted(BASELINE_CASES))
def test_cycles_match_baseline(case_id):
    check(FAMILY, case_id, BASELINE_CASES[case_id]())
