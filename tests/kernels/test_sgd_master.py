"""The mixed-precision SGD kernels sgd_master_fp16 / sgd_master_bf16 (optimizer_fp16.s /
optimizer_bf16.s, asm_kernels/half_gen.py) and their single-register-file variants (``_x``).

The reference is numpy, exact: binary32 fused multiply-adds emulated bit for bit (``fma32``:
the product of two binary32 values is exact in float64, the float64 sum is made round-to-odd
from its exact error (TwoSum), and rounding that to binary32 is the correctly rounded fma,
53 >= 2*24 + 2), then ``golden.round_to`` for the 16-bit weights.  Master and w must match
bit for bit, the gradient must be left as it was.  The same update as three kernels on the
simulator (widen g, sgd_update in fp32, narrow master) must give the same bits too.

Shapes: n = 1..9, 17, 100, 257 on 1, 2, 3, 5, 8 cores (group tails of every length, cores with
no group); master values include zeros of both signs, binary32 subnormals and values that
overflow the 16-bit format; weight decay +0 (the kernel's no-decay loop) and non-zero.
"""

from __future__ import annotations

import numpy as np
import pytest

from trainlib import golden

from .cycle_baselines import check
from .half import PRECS, assert_bits_equal, bits, rand, run16

FAMILY = "sgd_master"
CORES = (1, 2, 3, 5, 8)
SIZES = (1, 2, 3, 4, 5, 6, 7, 8, 9, 17, 100, 257)
LRS = (0.1, 0.37, 1e-3)
DECAYS = (0.01, 0.0, 5e-4)
ZFINX = "gvsoc-2022"            # the preset whose cores keep FP values in x registers


def fma32(a, b, c) -> np.ndarray:
    """Correctly rounded binary32 a*b + c (RISC-V fmadd.s, round to nearest even)."""
    a, b, c = (np.asarray(v, np.float32).astype(np.float64) for v in (a, b, c))
    with np.errstate(invalid="ignore", over="ignore"):
        p = a * b                                   # exact: 48 significant bits at most
        s = p + c
        bb = s - p
        err = (p - (s - bb)) + (c - bb)             # s + err = p + c exactly (TwoSum)
        odd = s.view(np.uint64) & 1
        nudge = np.isfinite(s) & (err != 0) & (odd == 0)
        s = np.where(nudge, np.nextafter(s, np.where(err > 0, np.inf, -np.inf)), s)
        return s.astype(np.float32)


def reference(master, g, lr, wd, prec):
    """(master, w) after the update: t = fma(wd, master, g), master = fma(-lr, t, master)."""
    t = fma32(np.float32(wd), master, np.asarray(g, np.float32))
    m = fma32(-np.float32(lr), t, master)
    return m, golden.round_to(m, prec)


def masters(rng, n, prec):
    m = (rng.standard_normal(n) * 2.0 ** rng.integers(-8, 4, n)).astype(np.float32)
    big = 70000.0 if prec == "fp16" else 3.3e38      # rounds to infinity in the format
    special = np.array([0.0, -0.0, 1e-40, -3e-39, big, -big], np.float32)
    k = min(n, special.size)
    m[n - k:] = special[:k]                           # at the end: the tails get them too
    return m


def run(prec, n, cores, seed=0, lr=0.1, wd=0.01, regfile="f"):
    rng = np.random.default_rng(seed)
    master = masters(rng, n, prec)
    g = rand(rng, n, prec, scale=0.5)
    name, kw = f"sgd_master_{prec}", {}
    if regfile == "x":
        name, kw = name + "_x", {"config": ZFINX}
    args = dict(master=master, g=bits(g, prec), w=np.zeros(n, np.uint16), n=n, lr=lr,
                weight_decay=wd)
    out, cycles = run16(name, args, ["master", "w"], cores=cores, **kw)
    want_m, want_w = reference(master, g, lr, wd, prec)
    what = f"{name} n={n} cores={cores} lr={lr} wd={wd}"
    assert np.array_equal(out["master"].view(np.uint32), want_m.view(np.uint32)), what
    assert_bits_equal(out["w"], want_w, prec, what + " (w)")
    assert (np.signbit(out["w"].view(np.int16)) == np.signbit(want_m)).all(), what
    return cycles


@pytest.mark.parametrize("regfile", ["f", "x"])
@pytest.mark.parametrize("prec", PRECS)
def test_matches_exact_reference(prec, regfile):
    for j, n in enumerate(SIZES):
        run(prec, n, CORES[j % 5], seed=j, lr=LRS[j % 3], wd=DECAYS[(j // 3) % 3],
            regfile=regfile)


@pytest.mark.parametrize("prec", PRECS)
def test_an_infinite_master_stays_infinite_without_weight_decay(prec):
    """The one difference of the no-decay loop (weight_decay = +0) from the fused operations
    (the kernel's header): fma(0, inf, g) is NaN, master - lr*g keeps the infinity.  With a
    decay the update is NaN, as fmadd.s makes it; finite elements beside them follow the
    exact reference in both cases (n = 11: a group per core on 2 cores, and a tail)."""
    master = np.array([np.inf, -np.inf, 1.5, -2.0, 0.25, np.inf, 3.0, -1.0, 2.0, -np.inf, 0.5],
                      np.float32)
    g = golden.round_to(np.linspace(-1, 1, master.size), prec)
    for wd in (0.0, 0.01):
        out, _ = run16(f"sgd_master_{prec}", dict(master=master, g=bits(g, prec),
                                                  w=np.zeros(master.size, np.uint16),
                                                  n=master.size, lr=0.1, weight_decay=wd),
                       ["master", "w"], cores=2)
        inf = np.isinf(master)
        want_m, want_w = reference(master, g, 0.1, wd, prec)
        if wd == 0.0:
            assert np.array_equal(out["master"][inf], master[inf])
            assert_bits_equal(out["w"][inf], master[inf], prec, "w of the infinities")
        else:
            assert np.isnan(out["master"][inf]).all() and np.isnan(want_m[inf]).all()
        assert np.array_equal(out["master"][~inf].view(np.uint32), want_m[~inf].view(np.uint32))
        assert_bits_equal(out["w"][~inf], want_w[~inf], prec, f"w, wd={wd}")


def three_phases(prec, n, cores, lr, wd, seed=0):
    """master, w and cycles of the same update as widen g / sgd_update / narrow master."""
    rng = np.random.default_rng(seed)
    master = masters(rng, n, prec)
    g = bits(rand(rng, n, prec, scale=0.5), prec)
    g32, c1 = run16(f"{prec}_to_fp32", dict(src=g, dst=np.zeros(n, np.float32), n=n), ["dst"],
                    cores=cores)
    upd, c2 = run16("sgd_update", dict(w=master, g=g32["dst"], n=n, lr=lr, weight_decay=wd),
                    ["w", "g"], cores=cores)
    w, c3 = run16(f"fp32_to_{prec}", dict(src=upd["w"], dst=np.zeros(n, np.uint16), n=n),
                  ["dst"], cores=cores)
    fused, c = run16(f"sgd_master_{prec}", dict(master=master, g=g, w=np.zeros(n, np.uint16),
                                               n=n, lr=lr, weight_decay=wd),
                     ["master", "w"], cores=cores)
    return upd["w"], w["dst"], c1 + c2 + c3, fused["master"], fused["w"], c


@pytest.mark.parametrize("prec", PRECS)
def test_same_bits_as_the_three_kernel_sequence(prec):
    for n, cores, wd in ((257, 8, 5e-4), (37, 3, 0.0)):
        m3, w3, _, m1, w1, _ = three_phases(prec, n, cores, 0.37, wd)
        assert np.array_equal(m3.view(np.uint32), m1.view(np.uint32)), (prec, n)
        assert np.array_equal(w3, w1), (prec, n)


BASELINE_CASES = {f"sgd_master_{p}{x}/n{n}_c{c}_wd{wd}": (
    lambda p=p, n=n, c=c, wd=wd, x=x: run(p, n, c, wd=wd, regfile="x" if x else "f"))
    for p in PRECS for x in ("", "_x") for n, c in ((1003, 8), (2048, 8), (256, 1))
    for wd in (0.0, 0.01)}


@pytest.mark.parametrize("case_id", sorted(BASELINE_CASES))
def test_cycles_match_baseline(case_id):
    check(FAMILY, case_id, BASELINE_CASES[case_id]())
