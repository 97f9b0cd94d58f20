"""Bit-exact IEEE-754 binary32 arithmetic for the RV32F instructions, compiled with numba.

Values are binary32 bit patterns held in int64 (0 .. 2**32-1); every function is an
``@numba.njit`` function returning int64s, so the simulator's compiled loop can call it directly.
Rounding modes are the RISC-V ``rm`` encodings (the caller resolves dynamic rm 7 from ``frm``):
0 RNE, 1 RTZ, 2 RDN, 3 RUP, 4 RMM.  Flags are RISC-V ``fflags`` bits: NX=1, UF=2, OF=4, DZ=8, NV=16.
Every NaN result is the canonical NaN 0x7FC00000; tininess is detected after rounding; subnormals
are kept (no flush to zero).

How the results are exact without a software multi-word significand:

* Every finite binary32 is exactly a float64, and the exact result of add/sub/mul/fma on binary32
  operands is exactly ``s + t`` for two float64 ``s`` (host rounded result) and ``t`` (the error):
  the product of two 24-bit significands has at most 48 bits, so it is exact in float64, and the
  error of a float64 addition is itself a float64 (TwoSum).  No intermediate gets anywhere near
  float64's overflow or subnormal range (magnitudes stay within 2**-298 .. 2**257), so this holds
  for all binary32 inputs, subnormals included.
* The pair is folded into one float64 rounded *to odd* (truncate, then force the last bit to 1 if
  anything was dropped).  A 53-bit round-to-odd value rounds to 24 bits (or fewer, for subnormals)
  in any mode exactly as the exact value does, because it carries 29 > 2 extra bits and its odd
  last bit stands for the discarded sticky bits.  It also decides inexactness and tininess
  correctly, since a binary32 value or rounding boundary never has its last float64 bit set.
* Division and square root need no error term.  Let the exact quotient or root x lie in
  [2**e, 2**(e+1)); the rounding boundaries there (binary32 values and midpoints, at any
  precision down to subnormal) are multiples of 2**(e-24).  Either x is such a boundary B, and
  then float64 holds it exactly, or it is at least 2**(e-50) away from every boundary: a/b - B is
  a nonzero multiple of 2**(e-24) divided by b's significand (< 2**24), and sqrt(a) - B is
  (a - B*B) / (sqrt(a) + B) with a - B*B a nonzero multiple of 2**(2e-48).  The float64 result is
  within 2**(e-53) of x, so it lies strictly between the same two boundaries as x, or equals it.
  Quotients stay within 2**-277 .. 2**277, normal float64 numbers.  tests/isa/test_softfloat.py
  checks this on quotients and roots built to fall as close to a boundary as 24-bit operands
  allow.
* The common case (rm == RNE, result a normal number) is then a single host float64 -> float32
  conversion, which rounds to nearest-even.  Everything else (directed modes, results below the
  smallest normal, overflow) goes through ``_round_slow``, which rounds the float64 with integer
  arithmetic in any mode and derives the flags.

The host's float32 <-> float64 conversions are only used on normal numbers (subnormal operands
are converted with integer arithmetic, results below 2**-126 are rounded by ``_round_slow``), so
the results do not change if some library in the process turned on the x86 flush-to-zero or
denormals-are-zero modes.
"""

from __future__ import annotations

import math

from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic

RNE = 0
RTZ = 1
RDN = 2
RUP = 3
RMM = 4

NX = 1
UF = 2
OF = 4
DZ = 8
NV = 16

CANONICAL_NAN = 0x7FC00000

_SIGN = 0x80000000
_EXP = 0x7F800000
_FRAC = 0x007FFFFF
_QUIET = 0x00400000
_INF = 0x7F800000
_MAX_FINITE = 0x7F7FFFFF
_MIN_NORMAL_BITS = 0x00800000
_FRAC64 = (1 << 52) - 1
_TWO_M149 = 2.0**-149


@intrinsic
def _f64_from_bits(typingctx, bits):
    """Reinterpret an integer's 64 bits as a float64 (an LLVM bitcast, no conversion)."""
    if not isinstance(bits, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        as_i64 = context.cast(builder, args[0], signature.args[0], types.int64)
        return builder.bitcast(as_i64, ir.DoubleType())

    return types.float64(bits), codegen


@intrinsic
def _bits_from_f64(typingctx, value):
    """The bit pattern of a float64 as int64 (negative when the sign bit is set)."""
    if value != types.float64:
        return None

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.IntType(64))

    return types.int64(value), codegen


@intrinsic
def _rne_to_f32(typingctx, value):
    """Host float64 -> binary32 rounding (round to nearest even); returns (bits as int64, value).

    _round only keeps the result when it is a normal number, which the host's flush-to-zero
    setting cannot affect.
    """
    if value != types.float64:
        return None
    result = types.Tuple((types.int64, types.float64))

    def codegen(context, builder, signature, args):
        narrow = builder.fptrunc(args[0], ir.FloatType())
        bits = builder.zext(builder.bitcast(narrow, ir.IntType(32)), ir.IntType(64))
        wide = builder.fpext(narrow, ir.DoubleType())
        return context.make_tuple(builder, result, (bits, wide))

    return result(value), codegen


@intrinsic
def widen_f32(typingctx, bits):
    """float64 value of the binary32 pattern in the low 32 bits (bitcast, then host widening).

    Exact for every binary32 but a subnormal one, which a host in denormals-are-zero mode would
    read as zero: callers keep subnormals away from it.
    """
    if not isinstance(bits, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        low = builder.trunc(args[0], ir.IntType(32))
        return builder.fpext(builder.bitcast(low, ir.FloatType()), ir.DoubleType())

    return types.float64(bits), codegen


@njit(cache=True)
def _is_nan(a: int) -> bool:
    return (a & _EXP) == _EXP and (a & _FRAC) != 0


@njit(cache=True)
def _is_snan(a: int) -> bool:
    return (a & _EXP) == _EXP and (a & _FRAC) != 0 and (a & _QUIET) == 0


@njit(cache=True)
def _is_inf(a: int) -> bool:
    return (a & 0x7FFFFFFF) == _INF


@njit(cache=True)
def _is_zero(a: int) -> bool:
    return (a & 0x7FFFFFFF) == 0


@njit(cache=True)
def _finite_to_f64(a: int) -> float:
    """Exact float64 value of a finite binary32 pattern.

    Normal numbers use the host conversion; subnormals (and zeros) are their integer fraction
    times 2**-149, an exact float64 product that does not depend on the host's denormal mode.
    """
    if (a & _EXP) == 0:
        v = float(a & _FRAC) * _TWO_M149
        return -v if a & _SIGN else v
    return widen_f32(a)


@njit(cache=True)
def _round_up(q: int, rem: int, half: int, negative: bool, rm: int) -> int:
    """1 if the magnitude q (with discarded part rem out of 2*half) must be incremented under rm.

    The RNE case is bit arithmetic rather than `and`/`or`, which would compile to branches on
    data-dependent bits.
    """
    if rem == 0:
        return 0
    if rm == RNE:
        return int(rem > half) | (int(rem == half) & q & 1)
    if rm == RDN:
        return 1 if negative else 0
    if rm == RUP:
        return 0 if negative else 1
    if rm == RMM:
        return 1 if rem >= half else 0
    return 0


@njit(cache=True)
def _overflow(negative: bool, rm: int) -> tuple[int, int]:
    """Result of an overflow: infinity, or the largest finite number when rm rounds toward zero."""
    toward_zero = rm == RTZ or (rm == RDN and not negative) or (rm == RUP and negative)
    mag = _MAX_FINITE if toward_zero else _INF
    return (_SIGN | mag) if negative else mag, OF | NX


@njit(cache=True)
def _round_slow(v: float, rm: int) -> tuple[int, int]:
    """Round the nonzero, normal float64 v to binary32 under any rm with integer arithmetic.

    v's binade gives the binary32 biased exponent E directly (E = float64 exponent - 896).  For
    E >= 1 the 53-bit significand loses 29 bits; below that the result is subnormal and loses
    30 - E bits.  Tininess is "after rounding": the value is tiny unless rounding it to 24 bits with
    an unbounded exponent reaches 2**-126, which can only happen from E == 0.
    """
    vb = _bits_from_f64(v)
    negative = vb < 0
    sign = _SIGN if negative else 0
    biased = ((vb >> 52) & 0x7FF) - 896
    sig = (vb & _FRAC64) | (1 << 52)
    if biased >= 255:
        return _overflow(negative, rm)
    if biased >= 1:
        rem = sig & ((1 << 29) - 1)
        q = sig >> 29
        q += _round_up(q, rem, 1 << 28, negative, rm)
        bits = ((biased - 1) << 23) + q
        if bits >= _INF:
            return _overflow(negative, rm)
        return sign | bits, (NX if rem != 0 else 0)
    tiny = True
    if biased == 0:
        rem24 = sig & ((1 << 29) - 1)
        q24 = sig >> 29
        tiny = q24 + _round_up(q24, rem24, 1 << 28, negative, rm) < (1 << 24)
    shift = 30 - biased
    if shift > 55:
        shift = 55
    rem = sig & ((1 << shift) - 1)
    q = sig >> shift
    q += _round_up(q, rem, 1 << (shift - 1), negative, rm)
    flags = 0
    if rem != 0:
        flags = (NX | UF) if tiny else NX
    return sign | q, flags


@njit(cache=True)
def _round(v: float, rm: int) -> tuple[int, int]:
    """Round a nonzero float64 that stands for the exact result (see module doc) to binary32.

    Fast path: under RNE a result above the smallest normal and below infinity is one host
    conversion, and it is inexact exactly when converting back does not give v.  The range is
    checked on the converted bits (one unsigned comparison): a result of exactly 2**-126 may come
    from a tiny value rounded up, and a zero or infinite one needs the flags of _round_slow, so
    both take the slow path, as would a subnormal flushed to zero by a host in flush-to-zero mode.
    """
    if rm == RNE:
        bits, back = _rne_to_f32(v)
        if _MIN_NORMAL_BITS < (bits & 0x7FFFFFFF) <= _MAX_FINITE:
            return bits, (0 if back == v else NX)
    return _round_slow(v, rm)


@njit(cache=True)
def _round_sum(s: float, t: float, rm: int) -> tuple[int, int]:
    """Round the exact value s + t (s = host-rounded sum, t = its error) to binary32.

    When t != 0, s is first replaced by s + t rounded to odd: truncation toward zero is s when t
    has s's sign, else s's predecessor (bits - 1 in sign-magnitude), and its last bit is then set.
    Written without branches because whether a sum is exact, and the sign of its error, are
    data-dependent coin flips that a branch predictor cannot learn.
    """
    sb = _bits_from_f64(s)
    inexact = int(t != 0.0)
    differ = ((sb ^ _bits_from_f64(t)) >> 63) & 1
    return _round(_f64_from_bits((sb - (differ & inexact)) | inexact), rm)


@njit(cache=True)
def _exact_zero(s: float, x: float, y: float, rm: int) -> int:
    """Sign of an exactly zero sum x + y (IEEE 754 6.3): -0 under RDN unless both are +0,
    otherwise what the host's round-to-nearest addition s produced (-0 only for -0 + -0)."""
    if rm == RDN:
        return 0 if (_bits_from_f64(x) | _bits_from_f64(y)) == 0 else _SIGN
    return _SIGN if _bits_from_f64(s) < 0 else 0


@njit(cache=True)
def _add_f64(x: float, y: float, rm: int) -> tuple[int, int]:
    """Exact x + y of two binary32 values (as float64) rounded to binary32, via TwoSum."""
    s = x + y
    if s == 0.0:
        return _exact_zero(s, x, y, rm), 0
    z = s - x
    t = (x - (s - z)) + (y - z)
    return _round_sum(s, t, rm)


@njit(cache=True)
def _nan_result(nv: bool) -> tuple[int, int]:
    return CANONICAL_NAN, (NV if nv else 0)


@njit(cache=True)
def _add_special(a: int, b: int) -> tuple[int, int]:
    """a + b when at least one operand is infinite or NaN."""
    if _is_nan(a) or _is_nan(b):
        return _nan_result(_is_snan(a) or _is_snan(b))
    if _is_inf(a) and _is_inf(b) and ((a ^ b) & _SIGN) != 0:
        return CANONICAL_NAN, NV
    return (a if _is_inf(a) else b), 0


@njit(cache=True)
def f32_add(a: int, b: int, rm: int) -> tuple[int, int]:
    """fadd.s: (bits, flags) of a + b."""
    if (a & _EXP) == _EXP or (b & _EXP) == _EXP:
        return _add_special(a, b)
    return _add_f64(_finite_to_f64(a), _finite_to_f64(b), rm)


@njit(cache=True)
def f32_sub(a: int, b: int, rm: int) -> tuple[int, int]:
    """fsub.s: a + (-b); flipping b's sign is exact, and NaN handling ignores signs."""
    return f32_add(a, b ^ _SIGN, rm)


@njit(cache=True)
def f32_mul(a: int, b: int, rm: int) -> tuple[int, int]:
    """fmul.s: the float64 product of two binary32 values is exact, so it only needs rounding."""
    if (a & _EXP) == _EXP or (b & _EXP) == _EXP:
        if _is_nan(a) or _is_nan(b):
            return _nan_result(_is_snan(a) or _is_snan(b))
        if _is_zero(a) or _is_zero(b):
            return CANONICAL_NAN, NV
        return ((a ^ b) & _SIGN) | _INF, 0
    p = _finite_to_f64(a) * _finite_to_f64(b)
    if p == 0.0:
        return (a ^ b) & _SIGN, 0
    return _round(p, rm)


@njit(cache=True)
def _fma_special(a: int, b: int, c: int, product_sign: int, addend_sign: int) -> tuple[int, int]:
    """a*b + c when some operand is infinite or NaN; signs already include the negations.

    RISC-V raises NV for inf*0 even when c is a quiet NaN, so that check comes first.
    """
    if (_is_inf(a) and _is_zero(b)) or (_is_zero(a) and _is_inf(b)):
        return CANONICAL_NAN, NV
    if _is_nan(a) or _is_nan(b) or _is_nan(c):
        return _nan_result(_is_snan(a) or _is_snan(b) or _is_snan(c))
    if _is_inf(a) or _is_inf(b):
        if _is_inf(c) and product_sign != addend_sign:
            return CANONICAL_NAN, NV
        return product_sign | _INF, 0
    return addend_sign | _INF, 0


@njit(cache=True)
def f32_fma(
    a: int, b: int, c: int, rm: int, negate_product: int, negate_addend: int
) -> tuple[int, int]:
    """fmadd/fmsub/fnmsub/fnmadd.s: (+-)(a*b) (+-) c with a single rounding.

    The float64 product is exact and TwoSum gives the exact error of adding c, so the result is
    the pair (s, t) rounded once.
    """
    if (a & _EXP) == _EXP or (b & _EXP) == _EXP or (c & _EXP) == _EXP:
        product_sign = ((a ^ b) & _SIGN) ^ (_SIGN if negate_product else 0)
        addend_sign = (c & _SIGN) ^ (_SIGN if negate_addend else 0)
        return _fma_special(a, b, c, product_sign, addend_sign)
    p = _finite_to_f64(a) * _finite_to_f64(b)
    if negate_product:
        p = -p
    z = _finite_to_f64(c)
    if negate_addend:
        z = -z
    return _add_f64(p, z, rm)


@njit(cache=True, error_model="numpy")
def f32_div(a: int, b: int, rm: int) -> tuple[int, int]:
    """fdiv.s: the float64 quotient stands for the exact one (module doc), so it is just rounded.

    A zero divisor is dealt with before dividing, so numba's Python-style ZeroDivisionError check
    (error_model="numpy" drops it) would be dead weight in the simulator's loop.
    """
    sign = (a ^ b) & _SIGN
    if (a & _EXP) == _EXP or (b & _EXP) == _EXP:
        if _is_nan(a) or _is_nan(b):
            return _nan_result(_is_snan(a) or _is_snan(b))
        if _is_inf(a):
            return (CANONICAL_NAN, NV) if _is_inf(b) else (sign | _INF, 0)
        return sign, 0
    if _is_zero(b):
        return (CANONICAL_NAN, NV) if _is_zero(a) else (sign | _INF, DZ)
    if _is_zero(a):
        return sign, 0
    return _round(_finite_to_f64(a) / _finite_to_f64(b), rm)


@njit(cache=True)
def f32_sqrt(a: int, rm: int) -> tuple[int, int]:
    """fsqrt.s: the float64 root stands for the exact one (module doc); it is never tiny and
    never overflows."""
    if _is_nan(a):
        return _nan_result(_is_snan(a))
    if _is_zero(a):
        return a, 0
    if a & _SIGN:
        return CANONICAL_NAN, NV
    if a == _INF:
        return a, 0
    return _round(math.sqrt(_finite_to_f64(a)), rm)


@njit(cache=True)
def _order_key(a: int) -> int:
    """Integer that orders non-NaN binary32 patterns by value, with -0 just below +0."""
    mag = a & 0x7FFFFFFF
    return -mag - 1 if a & _SIGN else mag


@njit(cache=True)
def f32_min(a: int, b: int) -> tuple[int, int]:
    """fmin.s (RISC-V 2.2+): a lone NaN yields the other operand, two NaNs the canonical NaN,
    any signalling NaN raises NV, and -0 is less than +0."""
    flags = NV if _is_snan(a) or _is_snan(b) else 0
    if _is_nan(a):
        return (CANONICAL_NAN if _is_nan(b) else b), flags
    if _is_nan(b):
        return a, flags
    return (a if _order_key(a) <= _order_key(b) else b), flags


@njit(cache=True)
def f32_max(a: int, b: int) -> tuple[int, int]:
    """fmax.s: as f32_min, choosing the larger operand (+0 over -0)."""
    flags = NV if _is_snan(a) or _is_snan(b) else 0
    if _is_nan(a):
        return (CANONICAL_NAN if _is_nan(b) else b), flags
    if _is_nan(b):
        return a, flags
    return (a if _order_key(a) >= _order_key(b) else b), flags


@njit(cache=True)
def f32_eq(a: int, b: int) -> tuple[int, int]:
    """feq.s: quiet comparison, NV only for a signalling NaN; +0 == -0."""
    if _is_nan(a) or _is_nan(b):
        return 0, (NV if _is_snan(a) or _is_snan(b) else 0)
    return (1 if a == b or _is_zero(a | b) else 0), 0


@njit(cache=True)
def f32_lt(a: int, b: int) -> tuple[int, int]:
    """flt.s: signalling comparison, NV for any NaN operand."""
    if _is_nan(a) or _is_nan(b):
        return 0, NV
    if _is_zero(a | b):
        return 0, 0
    return (1 if _order_key(a) < _order_key(b) else 0), 0


@njit(cache=True)
def f32_le(a: int, b: int) -> tuple[int, int]:
    """fle.s: signalling comparison, NV for any NaN operand."""
    if _is_nan(a) or _is_nan(b):
        return 0, NV
    if _is_zero(a | b):
        return 1, 0
    return (1 if _order_key(a) <= _order_key(b) else 0), 0


@njit(cache=True)
def f32_classify(a: int) -> int:
    """fclass.s mask: bit 0 -inf, 1 -normal, 2 -subnormal, 3 -0, 4 +0, 5 +subnormal, 6 +normal,
    7 +inf, 8 signalling NaN, 9 quiet NaN."""
    exp = a & _EXP
    frac = a & _FRAC
    negative = (a & _SIGN) != 0
    if exp == _EXP:
        if frac == 0:
            return 1 if negative else 1 << 7
        return 1 << 9 if frac & _QUIET else 1 << 8
    if exp == 0:
        if frac == 0:
            return 1 << 3 if negative else 1 << 4
        return 1 << 2 if negative else 1 << 5
    return 1 << 1 if negative else 1 << 6


@njit(cache=True)
def _f32_to_int(a: int, rm: int, lo: int, hi: int) -> tuple[int, int]:
    """Round a to an integer under rm and saturate to [lo, hi] (RISC-V: NaN gives hi).

    Range is checked after rounding, so e.g. -0.4 converts to unsigned 0 with only NX.  Invalid
    conversions raise NV and not NX.  Exponents at or above 2**32 (field 159) are out of range of
    both targets, which keeps the left shift below 2**32.
    """
    exp = (a >> 23) & 0xFF
    frac = a & _FRAC
    negative = (a & _SIGN) != 0
    if exp == 0xFF and frac != 0:
        return hi & 0xFFFFFFFF, NV
    if exp >= 159:
        return (lo if negative else hi) & 0xFFFFFFFF, NV
    sig = frac | (1 << 23) if exp else frac
    return int_of(sig, 150 - (exp if exp else 1), negative, rm, lo, hi)


@njit(cache=True)
def int_of(sig: int, shift: int, negative: bool, rm: int, lo: int, hi: int) -> tuple[int, int]:
    """The integer (-1)**negative * sig * 2**-shift rounded under rm and saturated to [lo, hi]
    (NV when out of range, NX when inexact); sig * 2**-shift must stay below 2**40."""
    inexact = False
    if shift <= 0:
        mag = sig << -shift
    else:
        if shift > 40:
            shift = 40
        rem = sig & ((1 << shift) - 1)
        mag = sig >> shift
        mag += _round_up(mag, rem, 1 << (shift - 1), negative, rm)
        inexact = rem != 0
    value = -mag if negative else mag
    if value < lo:
        return lo & 0xFFFFFFFF, NV
    if value > hi:
        return hi & 0xFFFFFFFF, NV
    return value & 0xFFFFFFFF, (NX if inexact else 0)


@njit(cache=True)
def f32_to_i32(a: int, rm: int) -> tuple[int, int]:
    """fcvt.w.s: result as a uint32 pattern; saturates to -2**31 .. 2**31-1."""
    return _f32_to_int(a, rm, -(1 << 31), (1 << 31) - 1)


@njit(cache=True)
def f32_to_u32(a: int, rm: int) -> tuple[int, int]:
    """fcvt.wu.s: saturates to 0 .. 2**32-1."""
    return _f32_to_int(a, rm, 0, (1 << 32) - 1)


@njit(cache=True)
def i32_to_f32(x: int, rm: int) -> tuple[int, int]:
    """fcvt.s.w: x is a uint32 pattern read as two's complement; float64 holds it exactly."""
    x &= 0xFFFFFFFF
    if x == 0:
        return 0, 0
    return _round(float(x - (1 << 32) if x & _SIGN else x), rm)


@njit(cache=True)
def u32_to_f32(x: int, rm: int) -> tuple[int, int]:
    """fcvt.s.wu: x is a uint32 pattern; float64 holds it exactly."""
    x &= 0xFFFFFFFF
    if x == 0:
        return 0, 0
    return _round(float(x), rm)


# ---- inline fast path for the simulator's hot loop ---------------------------------------------
_FAST_MIN = 2.0**-126                 # smallest normal binary32
_FAST_MAX = 2.0**128 - 2.0**103       # RNE overflow threshold (see _RNE_OVERFLOW reasoning)


@njit(cache=True, inline="always")
def fast_operand(x: int) -> bool:
    """False for a subnormal binary32 pattern, the one operand the fast path leaves out.

    A NaN or infinite operand needs no test: the fused result is then not finite, and
    fma_fast_rne declines it.  A subnormal one does: the host widens it exactly only when it
    does not treat denormals as zero, a mode that a library loaded into the process may set.
    """
    return ((x & 0x7FFFFFFF) - 1) & 0xFFFFFFFF >= 0x7FFFFF


@njit(cache=True, inline="always")
def fma_fast_rne(p_a: float, p_b: float, z: float) -> tuple[bool, int, int]:
    """RNE binary32 result of p_a * p_b + z for exact binary32 inputs: (ok, bits, flags).

    The same method as f32_fma (exact product, TwoSum, round to odd, one host conversion),
    inlined into the caller for the common case only: ok is False when the result is not a
    normal binary32 or zero, or would overflow, and the caller then takes the general functions.
    That includes every NaN or infinite input: the host's sum is then NaN or infinite.
    An exact zero gets the sign IEEE 754 gives it under RNE, which is the host's own sum's sign.
    """
    p = p_a * p_b
    s = p + z
    if s == 0.0:
        return True, (_SIGN if _bits_from_f64(s) < 0 else 0), 0
    av = abs(s)
    if not (_FAST_MIN <= av < _FAST_MAX):
        return False, 0, 0
    bb = s - p
    t = (p - (s - bb)) + (z - bb)
    if t != 0.0:
        sb = _bits_from_f64(s)
        if (t < 0.0) != (sb < 0):
            sb -= 1
        s = _f64_from_bits(sb | 1)
    bits, back = _rne_to_f32(s)
    return True, bits, (NX if t != 0.0 or back != s else 0)
