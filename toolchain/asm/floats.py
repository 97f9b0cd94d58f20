"""IEEE-754 single-precision bits of a decimal literal, rounded once (to nearest, ties to even).

Going through a Python float would round twice (to double, then to single) and can be off by one
ulp for literals near a halfway point; exact rational arithmetic gives the bits GNU as emits.
"""

from __future__ import annotations

import math
from fractions import Fraction

# GNU as spells NaN with every fraction bit set
_SPECIAL = {"inf": 0x7F800000, "infinity": 0x7F800000, "nan": 0x7FFFFFFF}


def float32_bits(text: str) -> int:
    """Bits of ``text`` (decimal, hex-float or integer literal, inf, nan); ValueError if it is
    not a number or too large (GNU as refuses those too)."""
    t = text.strip().lower().replace("_", "")
    sign = 0
    if t and t[0] in "+-":
        sign = 0x80000000 if t[0] == "-" else 0
        t = t[1:]
    if t in _SPECIAL:
        return sign | _SPECIAL[t]
    try:
        q = Fraction(float.fromhex(t)) if t.startswith("0x") else Fraction(t)
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"expected a floating-point number, got {text.strip()!r}") from None
    bits = _magnitude_bits(q)
    if bits == _SPECIAL["inf"]:
        raise ValueError(f"{text.strip()} is too large for a single-precision float")
    return sign | bits


def _magnitude_bits(q: Fraction) -> int:
    if q == 0:
        return 0
    e = q.numerator.bit_length() - q.denominator.bit_length()   # 2**e <= q < 2**(e+2)
    if Fraction(2) ** e > q:
        e -= 1
    if Fraction(2) ** (e + 1) <= q:
        e += 1
    if e < -126:   # subnormal: multiples of 2**-149
        return _round_even(q * 2 ** 149)
    m = _round_even(q * Fraction(2) ** (23 - e))
    if m == 1 << 24:
        m >>= 1
        e += 1
    if e > 127:
        return 0x7F800000
    return (e + 127) << 23 | (m - (1 << 23))


def _round_even(q: Fraction) -> int:
    floor = math.floor(q)
    rest = q - floor
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and floor % 2):
        return floor + 1
    return floor
