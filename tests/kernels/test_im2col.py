"""im2row / im2col / im2row_ig against numpy, the Conv2D steps they feed, and their cycle counts.

References, written from the definitions (PULP-TrainLib lib/sources/pulp_im2col_fp32.c row layout):

* im2row: ``buf[ho*Wo + wo, c*Hk*Wk + hk*Wk + wk] = X[c, ho*sh - pt + hk, wo*sw - pl + wk]``, 0
  outside the image;
* im2col: the transpose of im2row's buffer, ``buf[c*Hk*Wk + hk*Wk + wk, ho*Wo + wo]``;
* im2row_ig: ``buf[hi*Wi + wi, c*Hk*Wk + hk*Wk + wk] = dY[c, y/sh, x/sw]`` for
  ``y = hi + pt - (Hk-1) + hk``, ``x = wi + pl - (Wk-1) + wk`` when both divide evenly and land
  inside dY, else 0.

The buffers are compared bit for bit (the kernels only move words), after NaN-filling them so
an unwritten word cannot pass.  Two end-to-end checks tie the layouts to the convolution they
serve: ``W . im2row(X)^T`` equals a direct strided, padded Conv2D, and
``blocktranspose(W) . im2row_ig(dY)^T`` equals its input gradient written as a scatter of dY
through W.  Shapes cover sizes 1 to 9, kernels larger than the image, strides 1 to 3, padding
on each side (bottom / right padding through Ho, Wo), and 1, 2, 3, 5, 8 cores.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from .checked_run import run_checked
from .cycle_baselines import check

FAMILY = "im2col"
CORES = (1, 2, 3, 5, 8)

# (C, H, W, Hk, Wk, sh, sw, pt, pb, pl, pr)
SHAPES = [(1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0), (2, 5, 6, 3, 3, 1, 1, 1, 1, 1, 1),
          (3, 7, 5, 3, 2, 2, 1, 1, 0, 0, 1), (4, 8, 8, 3, 3, 2, 2, 1, 1, 1, 1),
          (2, 9, 7, 5, 5, 3, 2, 2, 2, 2, 1), (5, 4, 4, 2, 2, 2, 2, 0, 0, 0, 0),
          (1, 6, 9, 1, 4, 1, 3, 0, 0, 3, 0), (6, 3, 2, 4, 3, 1, 1, 1, 2, 1, 1),
          (9, 2, 3, 2, 2, 1, 2, 1, 1, 0, 1), (3, 5, 7, 3, 3, 1, 1, 1, 1, 1, 1),
          (4, 5, 5, 3, 2, 1, 1, 0, 2, 1, 0), (2, 6, 4, 2, 1, 2, 1, 1, 0, 3, 1)]
MORE_SHAPES = [(7, 11, 10, 3, 3, 1, 1, 1, 1, 1, 1), (2, 14, 14, 5, 5, 2, 2, 2, 2, 2, 2),
               (3, 9, 9, 7, 7, 3, 3, 3, 3, 3, 3), (2, 12, 5, 4, 2, 3, 1, 0, 3, 1, 0),
               (2, 6, 6, 6, 6, 1, 1, 5, 5, 5, 5), (1, 13, 17, 3, 16, 2, 3, 1, 1, 8, 8)]


def out_size(H, Hk, s, p0, p1):
    return (H + p0 + p1 - Hk) // s + 1


def ref_im2row(X, Hk, Wk, Ho, Wo, sh, sw, pt, pl):
    C, H, W = X.shape
    buf = np.zeros((Ho * Wo, C * Hk * Wk), np.float32)
    for ho, wo, c, hk, wk in itertools.product(range(Ho), range(Wo), range(C), range(Hk),
                                               range(Wk)):
        y, x = ho * sh - pt + hk, wo * sw - pl + wk
        if 0 <= y < H and 0 <= x < W:
            buf[ho * Wo + wo, c * Hk * Wk + hk * Wk + wk] = X[c, y, x]
    return buf


def ref_im2row_ig(dY, Hk, Wk, Hi, Wi, sh, sw, pt, pl):
    C, Ho, Wo = dY.shape
    buf = np.zeros((Hi * Wi, C * Hk * Wk), np.float32)
    for hi, wi, c, hk, wk in itertools.product(range(Hi), range(Wi), range(C), range(Hk),
                                               range(Wk)):
        y, x = hi + pt - (Hk - 1) + hk, wi + pl - (Wk - 1) + wk
        if y >= 0 and x >= 0 and y % sh == 0 and x % sw == 0 and y // sh < Ho and x // sw < Wo:
            buf[hi * Wi + wi, c * Hk * Wk + hk * Wk + wk] = dY[c, y // sh, x // sw]
    return buf


def buf_shape(name, C, Hk, Wk, Hout, Wout):
    """im2col's buffer is the transpose of im2row's."""
    rows, cols = Hout * Wout, C * Hk * Wk
    return (cols, rows) if name.startswith("im2col") else (rows, cols)


def run_im2row(name, src, Hk, Wk, Hout, Wout, sh, sw, pt, pl, cores):
    C, Hs, Ws = src.shape
    buf = np.full(buf_shape(name, C, Hk, Wk, Hout, Wout), np.nan, np.float32)
    out, cycles = run_checked(name, dict(src=src, buf=buf, C=C, Hs=Hs, Ws=Ws, Hk=Hk, Wk=Wk,
                                         Hout=Hout, Wout=Wout, stride_h=sh, stride_w=sw,
                                         pad_top=pt, pad_left=pl), ["buf"], cores=cores)
    return out["buf"], cycles


def run_case(shape, cores, seed):
    C, H, W, Hk, Wk, sh, sw, pt, pb, pl, pr = shape
    Ho, Wo = out_size(H, Hk, sh, pt, pb), out_size(W, Wk, sw, pl, pr)
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((C, H, W)).astype(np.float32)
    ref = ref_im2row(X, Hk, Wk, Ho, Wo, sh, sw, pt, pl)
    got, _ = run_im2row("im2row", X, Hk, Wk, Ho, Wo, sh, sw, pt, pl, cores)
    assert np.array_equal(got, ref), (shape, cores)
    got, _ = run_im2row("im2col", X, Hk, Wk, Ho, Wo, sh, sw, pt, pl, cores)
    assert np.array_equal(got, ref.T), (shape, cores)
    dY = rng.standard_normal((C, Ho, Wo)).astype(np.float32)
    got, _ = run_im2row("im2row_ig", dY, Hk, Wk, H, W, sh, sw, pt, pl, cores)
    assert np.array_equal(got, ref_im2row_ig(dY, Hk, Wk, H, W, sh, sw, pt, pl)), (shape, cores)


def test_matches_numpy():
    for j, shape in enumerate(SHAPES):
        run_case(shape, CORES[j % 5], seed=j)


@pytest.mark.slow
def test_matches_numpy_all_cores():
    for (j, shape), cores in itertools.product(enumerate(SHAPES + MORE_SHAPES), CORES):
        run_case(shape, cores, seed=j)


def conv2d(X, Wt, sh, sw, pt, pb, pl, pr):
    """Direct Conv2D (cross-correlation), float64."""
    C, H, W = X.shape
    Co, _, Hk, Wk = Wt.shape
    Xp = np.zeros((C, H + pt + pb, W + pl + pr))
    Xp[:, pt:pt + H, pl:pl + W] = X
    Ho, Wo = out_size(H, Hk, sh, pt, pb), out_size(W, Wk, sw, pl, pr)
    Y = np.zeros((Co, Ho, Wo))
    for ho, wo in itertools.product(range(Ho), range(Wo)):
        patch = Xp[:, ho * sh:ho * sh + Hk, wo * sw:wo * sw + Wk]
        Y[:, ho, wo] = np.tensordot(Wt, patch, axes=3)
    return Y


def conv2d_input_grad(dY, Wt, H, W, sh, sw, pt, pl):
    """dX of conv2d: every dY[co, ho, wo] scattered through W[co] onto its input window."""
    Co, Ho, Wo = dY.shape
    _, C, Hk, Wk = Wt.shape
    dY, Wt = dY.astype(np.float64), Wt.astype(np.float64)
    dX = np.zeros((C, H, W))
    for co, ho, wo, hk, wk in itertools.product(range(Co), range(Ho), range(Wo), range(Hk),
                                                range(Wk)):
        y, x = ho * sh - pt + hk, wo * sw - pl + wk
        if 0 <= y < H and 0 <= x < W:
            dX[:, y, x] += Wt[co, :, hk, wk] * dY[co, ho, wo]
    return dX


@pytest.mark.parametrize("shape", [(3, 7, 6, 3, 3, 1, 1, 1, 1, 1, 1),
                                   (2, 8, 7, 3, 2, 2, 2, 1, 0, 0, 1),
                                   (4, 9, 9, 5, 3, 3, 2, 2, 1, 1, 0)])
def test_conv2d_steps(shape):
    """The buffers turn the Conv2D forward and input gradient into plain matmuls."""
    C, H, W, Hk, Wk, sh, sw, pt, pb, pl, pr = shape
    Co = 5
    rng = np.random.default_rng(sum(shape))
    X = rng.standard_normal((C, H, W)).astype(np.float32)
    Wt = rng.standard_normal((Co, C, Hk, Wk)).astype(np.float32)
    Ho, Wo = out_size(H, Hk, sh, pt, pb), out_size(W, Wk, sw, pl, pr)
    buf, _ = run_im2row("im2row", X, Hk, Wk, Ho, Wo, sh, sw, pt, pl, cores=3)
    Y = Wt.reshape(Co, -1).astype(np.float64) @ buf.T.astype(np.float64)
    np.testing.assert_allclose(Y.reshape(Co, Ho, Wo), conv2d(X, Wt, sh, sw, pt, pb, pl, pr),
                               rtol=1e-9, atol=1e-9)
    dY = rng.standard_normal((Co, Ho, Wo)).astype(np.float32)
    buf, _ = run_im2row("im2row_ig", dY, Hk, Wk, H, W, sh, sw, pt, pl, cores=5)
    bt = Wt.reshape(Co, C, Hk * Wk).transpose(1, 0, 2)[:, :, ::-1].reshape(C, -1)
    dX = bt.astype(np.float64) @ buf.T.astype(np.float64)
    np.testing.assert_allclose(dX.reshape(C, H, W), conv2d_input_grad(dY, Wt, H, W, sh, sw,
                                                                       pt, pl),
                               rtol=1e-9, atol=1e-9)


def cycles(name, C, H, k, s, p, cores):
    Ho = out_size(H, k, s, p, p)
    src_hw, out_hw = (Ho, H) if name == "im2row_ig" else (H, Ho)
    src = np.ones((C, src_hw, src_hw), np.float32)
    return run_im2row(name, src, k, k, out_hw, out_hw, s, s, p, p, cores)[1]


def _baseline_cases():
    cases = {}
    for name in ("im2row", "im2col", "im2row_ig"):
        # 8 channels, 8x8 image, 3x3 kernel: padding 1 stride 1, no padding, stride 2
        cases[f"{name}/C8_H8_k3_s1_p1_c8"] = lambda n=name: cycles(n, 8, 8, 3, 1, 1, 8)
        cases[f"{name}/C8_H8_k3_s1_p0_c8"] = lambda n=name: cycles(n, 8, 8, 3, 1, 0, 8)
        cases[f"{name}/C4_H16_k3_s2_p1_c8"] = lambda n=name: cycles(n, 4, 16, 3, 2, 1, 8)
        cases[f"{name}/C3_H8_k3_s1_p1_c1"] = lambda n=name: cycles(n, 3, 8, 3, 1, 1, 1)
    return cases


BASELINE_CASES = _baseline_cases()


@pytest.mark.parametrize("case_id", sorted(BASELINE_CASES))
def test_cycles_match_baseline(case_id):
    check(FAMILY, case_id, BASELINE_CASES[case_id]())
