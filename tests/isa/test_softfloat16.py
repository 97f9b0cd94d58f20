"""isasim.softfloat16 (binary16 and bfloat16) and the packed Xfvec operations against references.

The reference decodes operands into exact rationals, computes the exact result, and rounds it
to the 16-bit format as IEEE 754 says (every rounding mode, tininess after rounding).  The
decoding is itself checked against numpy's float16 and ml_dtypes' bfloat16 (widened to float64,
which is exact), and in RNE the rounding against numpy's float64 -> float16 conversion of an
exact float64 sum or product (numpy rounds that conversion correctly, from the float64 bits).
Packed operations are checked lane by lane against the same scalar reference.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import numpy as np
import pytest
from test_softfloat import floor_log2

from isasim import smallfloat as sfl
from isasim import softfloat16 as h16
from isasim.opcodes import OP_ID, OP_SF_FIRST

ml_dtypes = pytest.importorskip("ml_dtypes")

NX, UF, OF, DZ, NV = 1, 2, 4, 8, 16
FORMATS = {"h": 10, "ah": 7}
RMS = (0, 1, 2, 3, 4)


# ---------------------------------------------------------------- the reference
def value(a: int, m: int) -> Fraction:
    e = (a >> m) & ((1 << (15 - m)) - 1)
    frac = a & ((1 << m) - 1)
    bias = (1 << (14 - m)) - 1
    mag = Fraction(frac) * Fraction(2) ** (1 - bias - m) if e == 0 else \
        Fraction(frac + (1 << m)) * Fraction(2) ** (e - bias - m)
    return -mag if a & 0x8000 else mag


def round_to(x: Fraction, rm: int, m: int, zero_negative: bool = False) -> tuple[int, int]:
    """The exact value x rounded to the format with m fraction bits: (bits, flags)."""
    if x == 0:
        return (0x8000 if zero_negative else 0), 0
    bias = (1 << (14 - m)) - 1
    neg = x < 0
    ax = abs(x)
    emin = 1 - bias

    def rnd(quantum: Fraction) -> tuple[Fraction, bool]:
        n = ax / quantum
        low = math.floor(n)
        rest = n - low
        up = rest != 0 and (
            (rest > Fraction(1, 2) or (rest == Fraction(1, 2) and low % 2 == 1)) if rm == 0
            else False if rm == 1 else neg if rm == 2 else (not neg) if rm == 3
            else rest >= Fraction(1, 2))
        return (low + up) * quantum, rest != 0

    e = floor_log2(ax)
    unbounded, _ = rnd(Fraction(2) ** (e - m))
    sign = 0x8000 if neg else 0
    emask = 0x7FFF & ~((1 << m) - 1)
    if unbounded >= Fraction(2) ** (bias + 1):
        toward_zero = rm == 1 or (rm == 2 and not neg) or (rm == 3 and neg)
        return sign | (emask - 1 if toward_zero else emask), OF | NX
    r, inexact = rnd(Fraction(2) ** (max(e, emin) - m))
    flags = (NX if inexact else 0) | (UF if inexact and unbounded < Fraction(2) ** emin else 0)
    if r == 0:
        return sign, flags
    if r < Fraction(2) ** emin:
        bits = int(r / Fraction(2) ** (emin - m))
    else:
        er = floor_log2(r)
        bits = ((er + bias) << m) | (int(r / Fraction(2) ** (er - m)) - (1 << m))
    if bits >= emask:
        return sign | emask, OF | NX
    return sign | bits, flags


def finite(m: int, rng: random.Random) -> int:
    """A random finite operand: often subnormal, tiny, huge or near 1."""
    emask = 0x7FFF & ~((1 << m) - 1)
    while True:
        r = rng.random()
        if r < 0.2:
            a = rng.getrandbits(m) | (rng.getrandbits(1) << 15)           # subnormal / zero
        elif r < 0.4:
            e = rng.choice([1, 2, (emask >> m) - 1, (emask >> m) - 2, (emask >> m) // 2])
            a = (e << m) | rng.getrandbits(m) | (rng.getrandbits(1) << 15)
        else:
            a = rng.getrandbits(16)
        if a & emask != emask:
            return a


def widened(a: int, fmt: str) -> float:
    dtype = np.float16 if fmt == "h" else ml_dtypes.bfloat16
    return float(np.array([a], dtype=np.uint16).view(dtype)[0])


# ---------------------------------------------------------------- the tests
@pytest.mark.parametrize("fmt", FORMATS)
def test_reference_decoding_matches_numpy_and_ml_dtypes(fmt):
    m = FORMATS[fmt]
    emask = 0x7FFF & ~((1 << m) - 1)
    for a in range(0, 0x10000, 7):
        if a & emask != emask:
            assert value(a, m) == Fraction(widened(a, fmt)), hex(a)
            assert h16.to_f64(a, m) == widened(a, fmt), hex(a)


def test_reference_rounding_matches_numpy_float16():
    rng = random.Random(1)
    for _ in range(3000):
        a, b = finite(10, rng), finite(10, rng)
        for exact in (widened(a, "h") + widened(b, "h"), widened(a, "h") * widened(b, "h")):
            if abs(exact) >= 65520:          # rounds to infinity (numpy warns)
                continue
            want = int(np.array([exact]).astype(np.float16).view(np.uint16)[0])
            got, _ = round_to(Fraction(exact), 0, 10)
            if exact != 0:
                assert got == want, (hex(a), hex(b), exact)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("rm", RMS)
def test_arithmetic_is_exactly_rounded(fmt, rm):
    m = FORMATS[fmt]
    rng = random.Random(100 * rm + m)
    for _ in range(600):
        a, b, c = finite(m, rng), finite(m, rng), finite(m, rng)
        va, vb, vc = value(a, m), value(b, m), value(c, m)
        zneg = rm == 2
        cases = [
            ("add", h16.add(a, b, rm, m), va + vb, (a & b & 0x8000) != 0 if va + vb == 0 and
             va == 0 and vb == 0 else zneg),
            ("mul", h16.mul(a, b, rm, m), va * vb, ((a ^ b) & 0x8000) != 0),
            ("fma", h16.fma(a, b, c, rm, 0, 0, m), va * vb + vc,
             ((a ^ b) & c & 0x8000) != 0 if va * vb == 0 and vc == 0 else zneg),
        ]
        if vb != 0:
            cases.append(("div", h16.div(a, b, rm, m), va / vb, ((a ^ b) & 0x8000) != 0))
        for name, got, exact, zero_neg in cases:
            want = round_to(exact, rm, m, zero_neg)
            assert tuple(got) == want, (name, fmt, rm, hex(a), hex(b), hex(c),
                                        [hex(x) for x in got], [hex(x) for x in want])
        if not a & 0x8000 and va != 0:
            # a square root is never exactly halfway: compare with a 200-bit root + sticky
            scaled = va * Fraction(4) ** 200
            r = math.isqrt(scaled.numerator // scaled.denominator)
            root = (Fraction(r) + (Fraction(1, 4) if r * r * scaled.denominator
                                   != scaled.numerator else 0)) / Fraction(2) ** 200
            assert tuple(h16.sqrt(a, rm, m)) == round_to(root, rm, m), (fmt, hex(a))


@pytest.mark.parametrize("fmt", FORMATS)
def test_conversions(fmt):
    m = FORMATS[fmt]
    rng = random.Random(7 + m)
    for _ in range(1500):
        rm = rng.choice(RMS)
        a = finite(m, rng)
        # to binary32 and back: exact
        wide, fl = h16.to_f32(a, m)
        assert fl == 0 and np.array([wide], np.uint32).view(np.float32)[0] == widened(a, fmt)
        assert tuple(h16.from_f32(wide, rm, m)) == (a, 0)
        # binary32 rounded to the format
        w = rng.getrandbits(32)
        if (w >> 23) & 0xFF != 0xFF:
            x = Fraction(float(np.array([w], np.uint32).view(np.float32)[0]))
            assert tuple(h16.from_f32(w, rm, m)) == round_to(x, rm, m, bool(w >> 31)), hex(w)
        # integers
        n = rng.choice([rng.getrandbits(32), rng.randrange(-70000, 70000) & 0xFFFFFFFF])
        signed = n - (1 << 32) if n >> 31 else n
        assert tuple(h16.from_int(n, True, rm, m)) == round_to(Fraction(signed), rm, m)
        assert tuple(h16.from_int(n, False, rm, m)) == round_to(Fraction(n), rm, m)
    # to integers: round, then saturate with NV
    assert h16.to_int(0x3E00, 0, -(1 << 31), (1 << 31) - 1, 10) == (2, NX)        # 1.5 -> 2
    assert h16.to_int(0xBE00, 1, -(1 << 31), (1 << 31) - 1, 10) == (0xFFFFFFFF, NX)
    assert h16.to_int(0xBC00, 0, 0, (1 << 32) - 1, 10) == (0, NV)                    # -1 unsigned
    assert h16.to_int(0x7F80, 0, -(1 << 31), (1 << 31) - 1, 7) == (0x7FFFFFFF, NV)  # bf16 inf
    assert h16.to_int(0x4F80, 0, 0, (1 << 32) - 1, 7) == (0xFFFFFFFF, NV)            # 2**32
    assert h16.to_int(0x4F7F, 0, 0, (1 << 32) - 1, 7) == (0xFF000000, 0)
    assert h16.to_int(0x7E00, 0, -(1 << 31), (1 << 31) - 1, 10) == (0x7FFFFFFF, NV)  # NaN


def test_specials():
    for m, qnan, inf in ((10, 0x7E00, 0x7C00), (7, 0x7FC0, 0x7F80)):
        snan = inf | 1
        one = value_bits(1.0, m)
        assert h16.add(inf, inf | 0x8000, 0, m) == (qnan, NV)
        assert h16.add(snan, one, 0, m) == (qnan, NV)
        assert h16.add(qnan | 0x8000, one, 0, m) == (qnan, 0)
        assert h16.mul(inf, 0, 0, m) == (qnan, NV)
        assert h16.fma(inf, 0, qnan, 0, 0, 0, m) == (qnan, NV)
        assert h16.div(one, 0x8000, 0, m) == (inf | 0x8000, DZ)
        assert h16.sqrt(0x8000, 0, m) == (0x8000, 0)
        assert h16.sqrt(one | 0x8000, 0, m) == (qnan, NV)
        assert h16.min_max(snan, one, False, m) == (one, NV)
        assert h16.min_max(0x8000, 0, False, m) == (0x8000, 0)
        assert h16.min_max(0x8000, 0, True, m) == (0, 0)
        assert h16.eq(qnan, qnan, m) == (0, 0) and h16.eq(snan, one, m) == (0, NV)
        assert h16.lt(qnan, one, m) == (0, NV) and h16.le(0x8000, 0, m) == (1, 0)
        assert [h16.classify(x, m) for x in (inf | 0x8000, 0x8000, 0, 1, inf, snan, qnan)] == \
            [1, 8, 16, 32, 128, 256, 512]
        assert h16.to_f32(snan, m) == (0x7FC00000, NV)
        # largest finite rounded up overflows; toward zero it stays
        big = inf - 1
        assert h16.add(big, big, 0, m) == (inf, OF | NX)
        assert h16.add(big, big, 1, m) == (big, OF | NX)
    assert h16.convert(0x7F7F, 0, 7, 10) == (0x7C00, OF | NX)        # bf16 max -> binary16 inf
    assert h16.convert(0x3C01, 0, 10, 7) == (0x3F80, NX)             # 1 + 2**-10 -> 1


def value_bits(x: float, m: int) -> int:
    dtype = np.float16 if m == 10 else ml_dtypes.bfloat16
    return int(np.array([x], dtype=dtype).view(np.uint16)[0])


# ---------------------------------------------------------------- packed operations
def op(name: str) -> int:
    return OP_ID[name]


def lanes(x: int) -> tuple[int, int]:
    return x & 0xFFFF, (x >> 16) & 0xFFFF


def pack(lo: int, hi: int) -> int:
    return lo | hi << 16


@pytest.mark.parametrize("fmt", FORMATS)
def test_packed_operations_lane_by_lane(fmt):
    m = FORMATS[fmt]
    rng = random.Random(31 + m)
    for _ in range(400):
        rm = rng.choice(RMS)
        a, b, d = (pack(finite(m, rng), finite(m, rng)) for _ in range(3))
        for name, scalar, replicate in (
            (f"vfadd_{fmt}", lambda x, y, z, rm=rm: h16.add(x, y, rm, m), False),
            (f"vfsub_r_{fmt}", lambda x, y, z, rm=rm: h16.sub(x, y, rm, m), True),
            (f"vfmul_{fmt}", lambda x, y, z, rm=rm: h16.mul(x, y, rm, m), False),
            (f"vfmac_{fmt}", lambda x, y, z, rm=rm: h16.fma(x, y, z, rm, 0, 0, m), False),
            (f"vfmac_r_{fmt}", lambda x, y, z, rm=rm: h16.fma(x, y, z, rm, 0, 0, m), True),
            (f"vfmre_{fmt}", lambda x, y, z, rm=rm: h16.fma(x, y, z, rm, 0, 1, m), False),
            (f"vfmax_{fmt}", lambda x, y, z, rm=rm: h16.min_max(x, y, True, m), False),
            (f"vflt_{fmt}", lambda x, y, z, rm=rm: h16.lt(x, y, m), False),
        ):
            bb = pack(lanes(b)[0], lanes(b)[0]) if replicate else b
            want = [scalar(x, y, z) for x, y, z in zip(lanes(a), lanes(bb), lanes(d),
                                                         strict=True)]
            got = sfl.sf_exec(OP_SF_FIRST, op(name), a, b, d, rm, 0)
            assert got == (pack(want[0][0], want[1][0]), want[0][1] | want[1][1]), name
        # the lanes of vfmac against the exact reference (independent of softfloat16)
        got, _ = sfl.sf_exec(OP_SF_FIRST, op(f"vfmac_{fmt}"), a, b, d, rm, 0)
        for i in (0, 1):
            x, y, z = lanes(a)[i], lanes(b)[i], lanes(d)[i]
            exact = value(x, m) * value(y, m) + value(z, m)
            zneg = (((x ^ y) & z & 0x8000) != 0 if value(x, m) * value(y, m) == 0
                    and value(z, m) == 0 else rm == 2)
            assert lanes(got)[i] == round_to(exact, rm, m, zneg)[0]


@pytest.mark.parametrize("fmt", FORMATS)
def test_cpka_and_dotpex(fmt):
    m = FORMATS[fmt]
    rng = random.Random(5)
    for _ in range(300):
        x, y = (np.float32(rng.uniform(-300, 300)) for _ in range(2))
        wx, wy = (int(np.array([v]).view(np.uint32)[0]) for v in (x, y))
        got, _ = sfl.sf_exec(OP_SF_FIRST, op(f"vfcpka_{fmt}_s"), wx, wy, 0, 0, 0)
        assert lanes(got) == (value_bits(float(x), m), value_bits(float(y), m))
        # vfdotpex.s: acc + (a1*b1 + a0*b0); with operands this small every product and sum is
        # exact in binary32, so the result is the exact dot product rounded once
        a = pack(value_bits(rng.randint(-40, 40) / 8, m), value_bits(rng.randint(-40, 40) / 8, m))
        b = pack(value_bits(rng.randint(-40, 40) / 4, m), value_bits(rng.randint(-40, 40) / 4, m))
        acc = np.float32(rng.randint(-1000, 1000) / 16)
        wacc = int(np.array([acc]).view(np.uint32)[0])
        got, fl = sfl.sf_exec(OP_SF_FIRST, op(f"vfdotpex_s_{fmt}"), a, b, wacc, 0, 0)
        want = float(acc) + sum(widened(lanes(a)[i], fmt) * widened(lanes(b)[i], fmt)
                                for i in (0, 1))
        assert np.array([got], np.uint32).view(np.float32)[0] == np.float32(want)
        assert fl == 0


def test_nan_boxing_of_scalar_operands_and_results():
    """Separate f registers: results NaN-boxed, operands not boxed read as the canonical NaN;
    x registers (Zhinx): results sign-extended, operands are the low 16 bits."""
    one, two = 0x3C00, 0x4000
    fadd = op("fadd_h")
    assert sfl.sf_exec(OP_SF_FIRST, fadd, 0xFFFF0000 | one, 0xFFFF0000 | one, 0, 0,
                       sfl.BOX_NAN) == (0xFFFF0000 | two, 0)
    assert sfl.sf_exec(OP_SF_FIRST, fadd, one, 0xFFFF0000 | one, 0, 0,
                       sfl.BOX_NAN) == (0xFFFF7E00, 0)
    assert sfl.sf_exec(OP_SF_FIRST, fadd, 0x12340000 | one, one, 0, 0,
                       sfl.BOX_SEXT) == (two, 0)
    assert sfl.sf_exec(OP_SF_FIRST, op("fsgnjn_h"), one, one, 0, 0,
                       sfl.BOX_ZEXT) == (0x0000BC00, 0)
    assert sfl.sf_exec(OP_SF_FIRST, op("fsgnjn_h"), one, one, 0, 0,
                       sfl.BOX_SEXT) == (0xFFFFBC00, 0)
    # fmv.x.h sign-extends whatever the register holds; fmv.h.x boxes
    assert sfl.sf_exec(OP_SF_FIRST, op("fmv_x_h"), 0x0000BC00, 0, 0, 0,
                       sfl.BOX_NAN) == (0xFFFFBC00, 0)
    assert sfl.sf_exec(OP_SF_FIRST, op("fmv_h_x"), 0x12343C00, 0, 0, 0,
                       sfl.BOX_NAN) == (0xFFFF3C00, 0)
    # bfloat16 canonical NaN for an unboxed .ah operand
    assert sfl.sf_exec(OP_SF_FIRST, op("fadd_ah"), 0x3F80, 0xFFFF3F80, 0, 0,
                       sfl.BOX_NAN) == (0xFFFF7FC0, 0)


@pytest.mark.parametrize("fmt", FORMATS)
def test_packed_conversions(fmt):
    """vfcvt to / from 16-bit integers lane by lane against the exact reference (saturating
    to the 16-bit range with NV, as fcvt.w does to 32 bits), and between the formats."""
    m = FORMATS[fmt]
    other = 7 if m == 10 else 10
    rng = random.Random(77 + m)
    for _ in range(500):
        rm = rng.choice(RMS)
        a = pack(finite(m, rng), finite(m, rng))
        got, fl = sfl.sf_exec(OP_SF_FIRST, op(f"vfcvt_x_{fmt}"), a, 0, 0, rm, 0)
        want_fl = 0
        for i in (0, 1):
            v = value(lanes(a)[i], m)
            q = round_to_int(v, rm)
            if -(1 << 15) <= q < (1 << 15):
                assert lanes(got)[i] == q & 0xFFFF
                want_fl |= NX if q != v else 0
            else:
                assert lanes(got)[i] == (0x8000 if v < 0 else 0x7FFF)
                want_fl |= NV
        assert fl == want_fl
        n = rng.getrandbits(32)
        got, fl = sfl.sf_exec(OP_SF_FIRST, op(f"vfcvt_{fmt}_x"), n, 0, 0, rm, 0)
        want = [round_to(Fraction((x ^ 0x8000) - 0x8000), rm, m) for x in lanes(n)]
        assert (got, fl) == (pack(want[0][0], want[1][0]), want[0][1] | want[1][1])
        got, fl = sfl.sf_exec(OP_SF_FIRST, op(f"vfcvt_{fmt}_xu"), n, 0, 0, rm, 0)
        want = [round_to(Fraction(x), rm, m) for x in lanes(n)]
        assert (got, fl) == (pack(want[0][0], want[1][0]), want[0][1] | want[1][1])
        b = pack(finite(other, rng), finite(other, rng))
        name = "vfcvt_h_ah" if fmt == "h" else "vfcvt_ah_h"
        got, fl = sfl.sf_exec(OP_SF_FIRST, op(name), b, 0, 0, rm, 0)
        want = [round_to(value(x, other), rm, m, bool(x & 0x8000)) for x in lanes(b)]
        assert (got, fl) == (pack(want[0][0], want[1][0]), want[0][1] | want[1][1])


def round_to_int(v: Fraction, rm: int) -> int:
    """v rounded to an integer under rm (the reference of the conversions)."""
    low = math.floor(v)
    rest = v - low
    if rest == 0:
        return low
    half = Fraction(1, 2)
    up = {0: rest > half or (rest == half and low % 2 == 1),    # RNE
          1: v < 0,                                             # RTZ
          2: False,                                             # RDN
          3: True,                                              # RUP
          4: rest > half or (rest == half and v > 0)}[rm]       # RMM
    return low + int(up)
