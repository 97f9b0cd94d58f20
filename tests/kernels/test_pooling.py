"""Max / average pooling forward and backward against numpy, and their cycle counts.

The reference walks every window (rows ``ho*sh - pt ..``, columns ``wo*sw - pl ..``, clipped to
the image) in float64: max and its first argmax in row-major order, the sum divided by Hk*Wk
(padding counts as zeros); the backward passes scatter dy into a zero dx (to the argmax /
spread over the in-image window elements).  maxpool_fw must match bit for bit; the others
within a few fp32 roundings of the float64 reference.  Shapes: sizes 1 to 9 and larger,
non-square kernels, strides 1 to 3 (overlapping and gapped windows), padding on each side, and
1, 2, 3, 5, 8 cores.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from .checked_run import run_checked
from .cycle_baselines import check

FAMILY = "pooling"
CORES = (1, 2, 3, 5, 8)
EPS = float(np.finfo(np.float32).eps)

# (C, H, W, Hk, Wk, sh, sw, pt, pb, pl, pr)
SHAPES = [(1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0), (2, 4, 4, 2, 2, 2, 2, 0, 0, 0, 0),
          (3, 5, 7, 3, 3, 2, 2, 1, 1, 1, 1), (4, 6, 5, 3, 2, 1, 2, 1, 0, 0, 1),
          (1, 9, 9, 2, 2, 2, 2, 0, 0, 0, 0), (5, 7, 7, 3, 3, 3, 3, 1, 1, 1, 1),
          (2, 8, 3, 4, 1, 2, 1, 2, 0, 0, 0), (9, 2, 6, 2, 3, 1, 3, 1, 1, 2, 0),
          (6, 3, 8, 1, 2, 1, 1, 0, 0, 1, 0)]
MORE_SHAPES = [(8, 16, 16, 2, 2, 2, 2, 0, 0, 0, 0), (3, 11, 13, 3, 3, 2, 2, 1, 1, 1, 1),
               (7, 12, 9, 5, 4, 3, 2, 2, 2, 3, 1), (16, 4, 4, 4, 4, 1, 1, 0, 0, 0, 0)]


def out_size(H, Hk, s, p0, p1):
    return (H + p0 + p1 - Hk) // s + 1


def reference(x, dy, Hk, Wk, sh, sw, pt, pl):
    """(max, avg, max backward, avg backward), float64."""
    C, H, W = x.shape
    _, Ho, Wo = dy.shape
    ymax, yavg = np.zeros(dy.shape), np.zeros(dy.shape)
    dxm, dxa = np.zeros(x.shape), np.zeros(x.shape)
    for c, ho, wo in itertools.product(range(C), range(Ho), range(Wo)):
        ys = [y for y in range(ho * sh - pt, ho * sh - pt + Hk) if 0 <= y < H]
        xs = [v for v in range(wo * sw - pl, wo * sw - pl + Wk) if 0 <= v < W]
        win = x[c][np.ix_(ys, xs)].astype(np.float64)
        ymax[c, ho, wo] = win.max()
        yavg[c, ho, wo] = win.sum() / (Hk * Wk)
        i = int(np.argmax(win))                    # first maximum, row-major
        g = float(dy[c, ho, wo])
        dxm[c, ys[i // len(xs)], xs[i % len(xs)]] += g
        dxa[c][np.ix_(ys, xs)] += g / (Hk * Wk)
    return ymax, yavg, dxm, dxa


def run_case(shape, cores, seed, ties=False):
    C, H, W, Hk, Wk, sh, sw, pt, pb, pl, pr = shape
    Ho, Wo = out_size(H, Hk, sh, pt, pb), out_size(W, Wk, sw, pl, pr)
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((C, H, W)).astype(np.float32)
    if ties:
        x = np.round(x)                            # many equal maxima: the first one wins
    dy = rng.standard_normal((C, Ho, Wo)).astype(np.float32)
    geom = dict(C=C, H=H, W=W, Hk=Hk, Wk=Wk, Ho=Ho, Wo=Wo, stride_h=sh, stride_w=sw,
                pad_top=pt, pad_left=pl)
    ymax, yavg, dxm, dxa = reference(x, dy, Hk, Wk, sh, sw, pt, pl)
    y0 = np.full((C, Ho, Wo), np.nan, np.float32)
    dx0 = np.full((C, H, W), np.nan, np.float32)
    what = (shape, cores)
    out, _ = run_checked("maxpool_fw", dict(x=x, y=y0, **geom), ["y"], cores=cores)
    assert np.array_equal(out["y"], ymax), what
    out, _ = run_checked("avgpool_fw", dict(x=x, y=y0, **geom), ["y"], cores=cores)
    # a sum of Hk*Wk terms, then a product: (Hk*Wk + 1) roundings of at most max|x| each
    np.testing.assert_allclose(out["y"], yavg, rtol=0,
                               atol=(Hk * Wk + 1) * EPS * np.abs(x).max(), err_msg=str(what))
    out, _ = run_checked("maxpool_bw", dict(x=x, dy=dy, dx=dx0, **geom), ["dx"], cores=cores)
    np.testing.assert_allclose(out["dx"], dxm, rtol=0,
                               atol=2 * EPS * Hk * Wk * np.abs(dy).max(), err_msg=str(what))
    out, _ = run_checked("avgpool_bw", dict(dy=dy, dx=dx0, **geom), ["dx"], cores=cores)
    np.testing.assert_allclose(out["dx"], dxa, rtol=0,
                               atol=4 * EPS * Hk * Wk * np.abs(dy).max(), err_msg=str(what))


def test_matches_numpy():
    for j, shape in enumerate(SHAPES):
        run_case(shape, CORES[j % 5], seed=j, ties=j % 3 == 0)


@pytest.mark.slow
def test_matches_numpy_all_cores():
    for (j, shape), cores in itertools.product(enumerate(SHAPES + MORE_SHAPES), CORES):
        run_case(shape, cores, seed=j, ties=j % 2 == 0)


def cycles(name, C, H, k, s, p, cores):
    Ho = out_size(H, k, s, p, p)
    geom = dict(C=C, H=H, W=H, Hk=k, Wk=k, Ho=Ho, Wo=Ho, stride_h=s, stride_w=s, pad_top=p,
                pad_left=p)
    x = np.ones((C, H, H), np.float32)
    y = np.ones((C, Ho, Ho), np.float32)
    args = {"maxpool_fw": dict(x=x, y=y), "avgpool_fw": dict(x=x, y=y),
            "maxpool_bw": dict(x=x, dy=y, dx=x.copy()), "avgpool_bw": dict(dy=y, dx=x)}[name]
    out = "y" if name.endswith("fw") else "dx"
    return run_checked(name, {**args, **geom}, [out], cores=cores)[1]


def _baseline_cases():
    cases = {}
    for name in ("maxpool_fw", "avgpool_fw", "maxpool_bw", "avgpool_bw"):
        # 2x2 / 2 on 16 channels of 16x16; 3x3 / 2 padded on 8 channels of 9x9
        cases[f"{name}/C16_H16_k2_s2_p0_c8"] = lambda n=name: cycles(n, 16, 16, 2, 2, 0, 8)
        cases[f"{name}/C8_H9_k3_s2_p1_c8"] = lambda n=name: cycles(n, 8, 9, 3, 2, 1, 8)
        cases[f"{name}/C3_H8_k2_s2_p0_c1"] = lambda n=name: cycles(n, 3, 8, 2, 2, 0, 1)
    return cases


BASELINE_CASES = _baseline_cases()


@pytest.mark.parametrize("case_id", sorted(BASELINE_CASES))
def test_cycles_match_baseline(case_id):
    check(FAMILY, case_id, BASELINE_CASES[case_id]())
