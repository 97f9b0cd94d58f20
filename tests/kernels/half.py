"""16-bit operands for the kernel tests: values of a format as the bit patterns the kernels
read and write (uint16 arrays), and a checked run that handles odd-length 16-bit outputs.

binary16 values are ``numpy.float16``; bfloat16 values are float32 values whose low 16 bits are
zero (``trainlib.golden``'s representation), their bits the high half of the float32 bits.
"""

from __future__ import annotations

import numpy as np

from trainlib import golden

from .checked_run import run_checked

PRECS = ("fp16", "bf16")
SENTINEL = np.uint16(0x7E5A)        # a NaN in both formats, produced by no kernel


def bits(values, prec: str) -> np.ndarray:
    """The uint16 patterns of ``values`` (exactly representable in ``prec``)."""
    v = np.asarray(values, dtype=np.float64)
    if prec == "fp16":
        h = v.astype(np.float16)
        assert np.array_equal(h.astype(np.float64), v, equal_nan=True), "not binary16 values"
        return h.view(np.uint16)
    f = v.astype(np.float32)
    b = f.view(np.uint32)
    assert not (b & 0xFFFF).any(), "not bfloat16 values"
    return (b >> 16).astype(np.uint16)


def values(b, prec: str) -> np.ndarray:
    """float64 values of the uint16 patterns ``b``."""
    b = np.asarray(b, dtype=np.uint16)
    if prec == "fp16":
        return b.view(np.float16).astype(np.float64)
    return (b.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def rand(rng, shape, prec: str, scale: float = 1.0, zeros: bool = True) -> np.ndarray:
    """Random normal values rounded to ``prec`` (float64), every third one an exact zero."""
    v = golden.round_to(rng.standard_normal(shape) * scale, prec)
    if zeros:
        v.reshape(-1)[::3] = 0.0
    return v


def run16(name: str, args: dict, outputs, *, cores: int, **kw) -> tuple[dict, int]:
    """``run_checked`` with 16-bit output arrays of any length: an odd-length one gets a
    sentinel half after its end, which must survive.  Returns the outputs unpadded."""
    padded = dict(args)
    for o in outputs:
        a = np.asarray(args[o])
        if a.dtype == np.uint16 and a.size % 2:
            padded[o] = np.concatenate([a.reshape(-1), [SENTINEL]]).astype(np.uint16)
    out, cycles = run_checked(name, padded, outputs, cores=cores, **kw)
    res = {}
    for o in outputs:
        got = out[o].reshape(-1)
        n = np.asarray(args[o]).size
        if got.size > n:
            assert got[n] == SENTINEL, f"{name}: wrote the half after {o}"
        res[o] = got[:n].reshape(np.shape(args[o]))
    return res, cycles


def assert_bits_equal(got, want, prec: str, what: str) -> None:
    """Bit-exact agreement, except that +0 and -0 are equal and any NaN matches any NaN."""
    g, w = values(got, prec), np.asarray(want, dtype=np.float64)
    same = (g == w) | (np.isnan(g) & np.isnan(w))
    if not same.all():
        i = int(np.argmin(same.reshape(-1)))
        raise AssertionError(f"{what}: {int((~same).sum())} wrong, first at {i}: "
                             f"{g.reshape(-1)[i]!r} != {w.reshape(-1)[i]!r}")
