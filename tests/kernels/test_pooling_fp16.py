"""The 16-bit pooling kernels (pooling_fp16.s / pooling_bf16.s, generated from pooling.s by
asm_kernels/half_gen.py) against a reference in trainlib.golden's 16-bit arithmetic: each window
sum one rounded addition at a time in row-major order, the quotient by Hk*Wk rounded once, the
backward scatter-adds rounded in (ho, wo) order.  Bit-exact (+0 == -0).  On the unpadded shapes
the reference itself is checked against ``golden.forward`` / ``golden.input_grad``.  Shapes:
test_pooling.py's (stride, padding, overlapping windows, leftovers), on 1, 2, 3, 5, 8 cores;
``ties`` rounds x to integers so equal maxima meet (the first one wins)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from trainlib import golden
from trainlib.layers import AvgPool, MaxPool

from .cycle_baselines import check
from .half import PRECS, assert_bits_equal, bits, rand, run16
from .test_pooling import CORES, SHAPES, out_size

FAMILY = "pooling_fp16"


def reference(x, dy, Hk, Wk, sh, sw, pt, pl, prec):
    ar = golden.arith(prec)
    C, H, W = x.shape
    _, Ho, Wo = dy.shape
    ymax, yavg = np.zeros(dy.shape), np.zeros(dy.shape)
    dxm, dxa = np.zeros(x.shape), np.zeros(x.shape)
    for c, ho, wo in itertools.product(range(C), range(Ho), range(Wo)):
        ys = [y for y in range(ho * sh - pt, ho * sh - pt + Hk) if 0 <= y < H]
        xs = [v for v in range(wo * sw - pl, wo * sw - pl + Wk) if 0 <= v < W]
        win = x[c][np.ix_(ys, xs)].reshape(-1)
        ymax[c, ho, wo] = win.max()
        yavg[c, ho, wo] = ar.r(ar.sum_last(win) / (Hk * Wk))
        i = int(np.argmax(win))
        at = (c, ys[i // len(xs)], xs[i % len(xs)])
        dxm[at] = ar.add(dxm[at], dy[c, ho, wo])
        g = ar.r(dy[c, ho, wo] / (Hk * Wk))
        dxa[c][np.ix_(ys, xs)] = ar.add(dxa[c][np.ix_(ys, xs)], g)
    return ymax, yavg, dxm, dxa


def run_case(prec, shape, cores, seed, ties=False):
    C, H, W, Hk, Wk, sh, sw, pt, pb, pl, pr = shape
    Ho, Wo = out_size(H, Hk, sh, pt, pb), out_size(W, Wk, sw, pl, pr)
    rng = np.random.default_rng(seed)
    x = rand(rng, (C, H, W), prec, scale=3.0, zeros=False)
    if ties:
        x = np.round(x)
    dy = rand(rng, (C, Ho, Wo), prec, zeros=False)
    geom = dict(C=C, H=H, W=W, Hk=Hk, Wk=Wk, Ho=Ho, Wo=Wo, stride_h=sh, stride_w=sw,
                pad_top=pt, pad_left=pl)
    ref = reference(x, dy, Hk, Wk, sh, sw, pt, pl, prec)
    if pt == pb == pl == pr == 0 and (H - Hk) % sh == 0 and (W - Wk) % sw == 0:
        for la, r in ((MaxPool, ref[0::2]), (AvgPool, ref[1::2])):
            layer = la("p", kernel=(Hk, Wk), stride=(sh, sw))
            assert np.array_equal(golden.forward(layer, x, {}, precision=prec), r[0])
            assert np.array_equal(golden.input_grad(layer, x, dy, {}, precision=prec), r[1])
    X, DY = bits(x, prec), bits(dy, prec)
    y0 = np.full(C * Ho * Wo, 0xFFFF, np.uint16)
    dx0 = np.full(C * H * W, 0xFFFF, np.uint16)
    cycles = 0
    for name, args, o, want in (
            ("maxpool_fw", dict(x=X, y=y0), "y", ref[0]),
            ("avgpool_fw", dict(x=X, y=y0), "y", ref[1]),
            ("maxpool_bw", dict(x=X, dy=DY, dx=dx0), "dx", ref[2]),
            ("avgpool_bw", dict(dy=DY, dx=dx0), "dx", ref[3])):
        out, c = run16(f"{name}_{prec}", dict(args, **geom), [o], cores=cores)
        assert_bits_equal(out[o], want.reshape(-1), prec, f"{name}_{prec} {shape} {cores}")
        cycles += c
    return cycles


@pytest.mark.parametrize("prec", PRECS)
def test_matches_reference(prec):
    for j, shape in enumerate(SHAPES):
        run_case(prec, shape, CORES[j % 5], seed=j, ties=j % 3 == 0)


# all four kernels on a 16-channel 16x16 map, 2x2 windows stride 2, 8 cores
BASELINE_CASES = {f"pooling_{p}/C16_H16_k2_s2_c8": (lambda p=p: run_case(
    p, (16, 16, 16, 2, 2, 2, 2, 0, 0, 0, 0), 8, 0)) for p in PRECS}


@pytest.mark.parametrize("case_id", sorted(BASELINE_CASES))
def test_cycles_match_baseline(case_id):
    check(FAMILY, case_id, BASELINE_CASES[case_id]())
