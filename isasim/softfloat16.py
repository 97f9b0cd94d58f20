"""Bit-exact IEEE-754 arithmetic on the two 16-bit formats of PULP's smallFloat extensions.

``h``  is IEEE binary16 (1 sign, 5 exponent, 10 fraction bits: Xf16 / Zfh);
``ah`` is the "alternate half" of FPnew, the bfloat16 layout (1 / 8 / 7 bits: Xf16alt).
Every function takes the format as ``m``, its number of fraction bits (``FMT_H`` = 10,
``FMT_AH`` = 7); the exponent has ``15 - m`` bits.  Values are 16-bit patterns in int64,
rounding modes and flags are the RISC-V encodings of ``isasim.softfloat`` (RNE, RTZ, RDN, RUP,
RMM; NX, UF, OF, DZ, NV), every NaN result is the format's canonical NaN (0x7E00, 0x7FC0),
tininess is detected after rounding, and subnormals are kept.

How the results are exact.  Every finite value of both formats is exactly a float64 (at most 11
significant bits, exponents within 2**-133 .. 2**128), and so is the exact product of two of
them (at most 22 bits).  The error of a float64 addition is itself a float64 (TwoSum), so
add/sub/fma are an exact pair (s, t); the pair is folded into one float64 rounded to odd, which
keeps 53 - 11 > 2 extra bits and a sticky last bit, so rounding it once more to 16-bit
precision in any mode gives what rounding the exact value gives.  Quotients and roots need no
error term, by the argument of ``isasim.softfloat`` with 11-bit significands: a quotient or root
that is not itself a rounding boundary lies at least 2**(e-22) from every boundary of its binade
[2**e, 2**(e+1)), and float64 is within 2**(e-53) of it.  Rounding the float64 to 16 bits is done
with integer arithmetic in every mode (``round_f64``): no host float16 conversion is involved,
so the results are independent of the host's rounding and denormal modes.
"""

from __future__ import annotations

import math

from numba import njit

from isasim import softfloat as sf
from isasim.softfloat import DZ, NV, NX, OF, RDN, RNE, RTZ, RUP, UF

FMT_H = 10      # IEEE binary16
FMT_AH = 7      # bfloat16 layout
SIGN = 0x8000


@njit(cache=True, inline="always")
def exp_mask(m: int) -> int:
    return 0x7FFF & ~((1 << m) - 1)


@njit(cache=True, inline="always")
def canonical_nan(m: int) -> int:
    """0x7E00 for binary16, 0x7FC0 for bfloat16 (exponent all ones, top fraction bit)."""
    return exp_mask(m) | (1 << (m - 1))


@njit(cache=True, inline="always")
def _bias(m: int) -> int:
    return (1 << (14 - m)) - 1


@njit(cache=True)
def is_nan(a: int, m: int) -> bool:
    return (a & exp_mask(m)) == exp_mask(m) and (a & ((1 << m) - 1)) != 0


@njit(cache=True)
def is_snan(a: int, m: int) -> bool:
    return is_nan(a, m) and (a & (1 << (m - 1))) == 0


@njit(cache=True)
def is_inf(a: int, m: int) -> bool:
    return (a & 0x7FFF) == exp_mask(m)


@njit(cache=True)
def is_zero(a: int) -> bool:
    return (a & 0x7FFF) == 0


@njit(cache=True)
def special(a: int, m: int) -> bool:
    """Infinite or NaN (exponent all ones)."""
    return (a & exp_mask(m)) == exp_mask(m)


@njit(cache=True)
def to_f64(a: int, m: int) -> float:
    """Exact float64 value of a finite 16-bit pattern (integer significand times a power of 2)."""
    e = (a >> m) & ((1 << (15 - m)) - 1)
    sig = a & ((1 << m) - 1)
    scale = 1 - _bias(m) - m
    if e != 0:
        sig |= 1 << m
        scale += e - 1
    # 2**scale built from its bits (scale stays within -133 .. 120: a normal float64)
    v = float(sig) * sf._f64_from_bits((scale + 1023) << 52)
    return -v if a & SIGN else v


@njit(cache=True)
def _overflow(negative: bool, rm: int, m: int) -> tuple[int, int]:
    toward_zero = rm == RTZ or (rm == RDN and not negative) or (rm == RUP and negative)
    mag = exp_mask(m) - 1 if toward_zero else exp_mask(m)
    return (SIGN | mag) if negative else mag, OF | NX


@njit(cache=True)
def round_f64(v: float, rm: int, m: int) -> tuple[int, int]:
    """Round the nonzero finite float64 ``v`` (the exact result or its round-to-odd stand-in) to
    the 16-bit format under ``rm``: (bits, flags).

    The float64 exponent gives the format's biased exponent E; for E >= 1 the 53-bit significand
    keeps m + 1 bits, below that the result is subnormal and keeps fewer.  Tininess is "after
    rounding": only a value in binade E == 0 can round up to the smallest normal number.
    """
    vb = sf._bits_from_f64(v)
    negative = vb < 0
    sign = SIGN if negative else 0
    biased = ((vb >> 52) & 0x7FF) - 1023 + _bias(m)
    sig = (vb & ((1 << 52) - 1)) | (1 << 52)
    drop = 52 - m
    if biased >= (1 << (15 - m)) - 1:
        return _overflow(negative, rm, m)
    if biased >= 1:
        rem = sig & ((1 << drop) - 1)
        q = sig >> drop
        q += sf._round_up(q, rem, 1 << (drop - 1), negative, rm)
        bits = ((biased - 1) << m) + q
        if bits >= exp_mask(m):
            return _overflow(negative, rm, m)
        return sign | bits, (NX if rem != 0 else 0)
    tiny = True
    if biased == 0:
        rem = sig & ((1 << drop) - 1)
        q = sig >> drop
        tiny = q + sf._round_up(q, rem, 1 << (drop - 1), negative, rm) < (1 << (m + 1))
    shift = drop + 1 - biased
    if shift > 55:
        shift = 55
    rem = sig & ((1 << shift) - 1)
    q = sig >> shift
    q += sf._round_up(q, rem, 1 << (shift - 1), negative, rm)
    flags = 0
    if rem != 0:
        flags = (NX | UF) if tiny else NX
    return sign | q, flags


@njit(cache=True)
def _round_sum(s: float, t: float, rm: int, m: int) -> tuple[int, int]:
    """Round the exact s + t (s the host sum, t its error) via s + t rounded to odd."""
    sb = sf._bits_from_f64(s)
    inexact = int(t != 0.0)
    differ = ((sb ^ sf._bits_from_f64(t)) >> 63) & 1
    return round_f64(sf._f64_from_bits((sb - (differ & inexact)) | inexact), rm, m)


@njit(cache=True)
def _add_f64(x: float, y: float, rm: int, m: int) -> tuple[int, int]:
    """Exact x + y (TwoSum) rounded to the format; an exact zero gets IEEE 754's sign."""
    s = x + y
    if s == 0.0:
        if rm == RDN:
            return (0 if (sf._bits_from_f64(x) | sf._bits_from_f64(y)) == 0 else SIGN), 0
        return (SIGN if sf._bits_from_f64(s) < 0 else 0), 0
    z = s - x
    t = (x - (s - z)) + (y - z)
    return _round_sum(s, t, rm, m)


@njit(cache=True)
def _nan(m: int, nv: bool) -> tuple[int, int]:
    return canonical_nan(m), (NV if nv else 0)


@njit(cache=True)
def add(a: int, b: int, rm: int, m: int) -> tuple[int, int]:
    if special(a, m) or special(b, m):
        if is_nan(a, m) or is_nan(b, m):
            return _nan(m, is_snan(a, m) or is_snan(b, m))
        if is_inf(a, m) and is_inf(b, m) and ((a ^ b) & SIGN) != 0:
            return canonical_nan(m), NV
        return (a if is_inf(a, m) else b), 0
    return _add_f64(to_f64(a, m), to_f64(b, m), rm, m)


@njit(cache=True)
def sub(a: int, b: int, rm: int, m: int) -> tuple[int, int]:
    return add(a, b ^ SIGN, rm, m)


@njit(cache=True)
def mul(a: int, b: int, rm: int, m: int) -> tuple[int, int]:
    if special(a, m) or special(b, m):
        if is_nan(a, m) or is_nan(b, m):
            return _nan(m, is_snan(a, m) or is_snan(b, m))
        if is_zero(a) or is_zero(b):
            return canonical_nan(m), NV
        return ((a ^ b) & SIGN) | exp_mask(m), 0
    p = to_f64(a, m) * to_f64(b, m)
    if p == 0.0:
        return (a ^ b) & SIGN, 0
    return round_f64(p, rm, m)


@njit(cache=True)
def fma(a: int, b: int, c: int, rm: int, negate_product: int, negate_addend: int, m: int
        ) -> tuple[int, int]:
    """(+-)(a*b) (+-) c with one rounding (fmadd/fmsub/fnmsub/fnmadd, vfmac)."""
    if special(a, m) or special(b, m) or special(c, m):
        psign = ((a ^ b) & SIGN) ^ (SIGN if negate_product else 0)
        csign = (c & SIGN) ^ (SIGN if negate_addend else 0)
        # RISC-V raises NV for inf * 0 even when c is a quiet NaN
        if (is_inf(a, m) and is_zero(b)) or (is_zero(a) and is_inf(b, m)):
            return canonical_nan(m), NV
        if is_nan(a, m) or is_nan(b, m) or is_nan(c, m):
            return _nan(m, is_snan(a, m) or is_snan(b, m) or is_snan(c, m))
        if is_inf(a, m) or is_inf(b, m):
            if is_inf(c, m) and psign != csign:
                return canonical_nan(m), NV
            return psign | exp_mask(m), 0
        return csign | exp_mask(m), 0
    p = to_f64(a, m) * to_f64(b, m)
    if negate_product:
        p = -p
    z = to_f64(c, m)
    if negate_addend:
        z = -z
    return _add_f64(p, z, rm, m)


@njit(cache=True, error_model="numpy")
def div(a: int, b: int, rm: int, m: int) -> tuple[int, int]:
    sign = (a ^ b) & SIGN
    if special(a, m) or special(b, m):
        if is_nan(a, m) or is_nan(b, m):
            return _nan(m, is_snan(a, m) or is_snan(b, m))
        if is_inf(a, m):
            return (canonical_nan(m), NV) if is_inf(b, m) else (sign | exp_mask(m), 0)
        return sign, 0
    if is_zero(b):
        return (canonical_nan(m), NV) if is_zero(a) else (sign | exp_mask(m), DZ)
    if is_zero(a):
        return sign, 0
    return round_f64(to_f64(a, m) / to_f64(b, m), rm, m)


@njit(cache=True)
def sqrt(a: int, rm: int, m: int) -> tuple[int, int]:
    if is_nan(a, m):
        return _nan(m, is_snan(a, m))
    if is_zero(a):
        return a, 0
    if a & SIGN:
        return canonical_nan(m), NV
    if is_inf(a, m):
        return a, 0
    return round_f64(math.sqrt(to_f64(a, m)), rm, m)


@njit(cache=True)
def _order_key(a: int) -> int:
    mag = a & 0x7FFF
    return -mag - 1 if a & SIGN else mag


@njit(cache=True)
def min_max(a: int, b: int, want_max: bool, m: int) -> tuple[int, int]:
    """fmin/fmax (RISC-V 2.2+): a lone NaN yields the other operand, two NaNs the canonical NaN,
    a signalling NaN raises NV, -0 < +0."""
    flags = NV if is_snan(a, m) or is_snan(b, m) else 0
    if is_nan(a, m):
        return (canonical_nan(m) if is_nan(b, m) else b), flags
    if is_nan(b, m):
        return a, flags
    if want_max:
        return (a if _order_key(a) >= _order_key(b) else b), flags
    return (a if _order_key(a) <= _order_key(b) else b), flags


@njit(cache=True)
def eq(a: int, b: int, m: int) -> tuple[int, int]:
    """feq: quiet, NV only for a signalling NaN; +0 == -0."""
    if is_nan(a, m) or is_nan(b, m):
        return 0, (NV if is_snan(a, m) or is_snan(b, m) else 0)
    return (1 if a == b or is_zero(a | b) else 0), 0


@njit(cache=True)
def lt(a: int, b: int, m: int) -> tuple[int, int]:
    """flt: signalling, NV for any NaN."""
    if is_nan(a, m) or is_nan(b, m):
        return 0, NV
    if is_zero(a | b):
        return 0, 0
    return (1 if _order_key(a) < _order_key(b) else 0), 0


@njit(cache=True)
def le(a: int, b: int, m: int) -> tuple[int, int]:
    """fle: signalling, NV for any NaN."""
    if is_nan(a, m) or is_nan(b, m):
        return 0, NV
    if is_zero(a | b):
        return 1, 0
    return (1 if _order_key(a) <= _order_key(b) else 0), 0


@njit(cache=True)
def classify(a: int, m: int) -> int:
    """fclass mask (bit 0 -inf ... 9 quiet NaN), as fclass.s."""
    e = a & exp_mask(m)
    frac = a & ((1 << m) - 1)
    negative = (a & SIGN) != 0
    if e == exp_mask(m):
        if frac == 0:
            return 1 if negative else 1 << 7
        return 1 << 9 if frac & (1 << (m - 1)) else 1 << 8
    if e == 0:
        if frac == 0:
            return 1 << 3 if negative else 1 << 4
        return 1 << 2 if negative else 1 << 5
    return 1 << 1 if negative else 1 << 6


@njit(cache=True)
def to_int(a: int, rm: int, lo: int, hi: int, m: int) -> tuple[int, int]:
    """Round to an integer under rm, saturating to [lo, hi] (NaN gives hi), as fcvt.w[u].s:
    the range is checked after rounding, an invalid conversion raises NV and not NX."""
    e = (a >> m) & ((1 << (15 - m)) - 1)
    frac = a & ((1 << m) - 1)
    negative = (a & SIGN) != 0
    if special(a, m) and frac != 0:
        return hi & 0xFFFFFFFF, NV
    if special(a, m) or e - _bias(m) >= 32:
        return (lo if negative else hi) & 0xFFFFFFFF, NV
    sig = frac | (1 << m) if e else frac
    return sf.int_of(sig, _bias(m) + m - (e if e else 1), negative, rm, lo, hi)


@njit(cache=True)
def from_int(x: int, signed: bool, rm: int, m: int) -> tuple[int, int]:
    """fcvt.{h,ah}.w[u]: the uint32 pattern x (two's complement when ``signed``), exact in
    float64, rounded once."""
    x &= 0xFFFFFFFF
    if x == 0:
        return 0, 0
    if signed and x & 0x80000000:
        return round_f64(float(x - (1 << 32)), rm, m)
    return round_f64(float(x), rm, m)


@njit(cache=True)
def to_f32(a: int, m: int) -> tuple[int, int]:
    """fcvt.s.{h,ah}: exact widening; a NaN becomes binary32's canonical NaN (NV if it
    signalled)."""
    if is_nan(a, m):
        return sf.CANONICAL_NAN, (NV if is_snan(a, m) else 0)
    if is_inf(a, m):
        return (0xFF800000 if a & SIGN else 0x7F800000), 0
    if is_zero(a):
        return (a & SIGN) << 16, 0
    return sf._round_slow(to_f64(a, m), RNE)


@njit(cache=True)
def from_f32(a: int, rm: int, m: int) -> tuple[int, int]:
    """fcvt.{h,ah}.s: binary32 rounded to the format."""
    a &= 0xFFFFFFFF
    if sf._is_nan(a):
        return _nan(m, sf._is_snan(a))
    if sf._is_inf(a):
        return ((a >> 16) & SIGN) | exp_mask(m), 0
    if sf._is_zero(a):
        return (a >> 16) & SIGN, 0
    return round_f64(sf._finite_to_f64(a), rm, m)


@njit(cache=True)
def convert(a: int, rm: int, m_from: int, m_to: int) -> tuple[int, int]:
    """fcvt.h.ah / fcvt.ah.h: one 16-bit format rounded to the other."""
    if is_nan(a, m_from):
        return _nan(m_to, is_snan(a, m_from))
    if is_inf(a, m_from):
        return (a & SIGN) | exp_mask(m_to), 0
    if is_zero(a):
        return a & SIGN, 0
    return round_f64(to_f64(a, m_from), rm, m_to)

