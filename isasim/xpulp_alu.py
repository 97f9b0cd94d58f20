"""Xpulp / CORE-V integer operations that need more than one line (PULP binutils riscv-opc.c,
CV32E40P v2 manual).

Values are 32-bit patterns held in int64 (0..2**32-1).  Every function is a numba njit so the
compiled loop can call it; they are kept here, apart from the loop, because each one is a small
piece of arithmetic worth reading (and testing) on its own.
"""

from __future__ import annotations

from numba import njit

M32 = 0xFFFFFFFF


@njit(cache=True)
def sx32(v: int) -> int:
    """Signed value of a 32-bit pattern."""
    return (v ^ 0x80000000) - 0x80000000


@njit(cache=True)
def sx16(v: int) -> int:
    return ((v & 0xFFFF) ^ 0x8000) - 0x8000


@njit(cache=True)
def clz32(v: int) -> int:
    n = 0
    if v == 0:
        return 32
    while v & 0x80000000 == 0:
        v <<= 1
        n += 1
    return n


@njit(cache=True)
def ff1(v: int) -> int:
    """Index of the lowest set bit; 32 when none (p.ff1)."""
    if v == 0:
        return 32
    n = 0
    while v & 1 == 0:
        v >>= 1
        n += 1
    return n


@njit(cache=True)
def fl1(v: int) -> int:
    """Index of the highest set bit; 32 when none (p.fl1)."""
    if v == 0:
        return 32
    return 31 - clz32(v)


@njit(cache=True)
def clb(v: int) -> int:
    """Leading bits equal to the sign bit, minus one; 0 for 0 (p.clb / __builtin_clrsb)."""
    if v == 0:
        return 0
    if v & 0x80000000:
        v = ~v & M32
    return clz32(v) - 1


@njit(cache=True)
def popcount(v: int) -> int:
    n = 0
    while v:
        v &= v - 1
        n += 1
    return n


@njit(cache=True)
def ror(v: int, sh: int) -> int:
    sh &= 31
    if sh == 0:
        return v
    return ((v >> sh) | (v << (32 - sh))) & M32


@njit(cache=True)
def clip(v: int, lo: int, hi: int) -> int:
    s = sx32(v)
    if s < lo:
        s = lo
    elif s > hi:
        s = hi
    return s & M32


@njit(cache=True)
def clip_imm(v: int, is2: int, unsigned: bool) -> int:
    """p.clip / p.clipu: clamp to [-2^(is2-1), 2^(is2-1)-1] (or [0, ...]); is2 = 0 -> [-1, 0]."""
    hi = (1 << (is2 - 1)) - 1 if is2 > 0 else 0
    lo = 0 if unsigned else (-(1 << (is2 - 1)) if is2 > 0 else -1)
    return clip(v, lo, hi)


@njit(cache=True)
def clip_reg(v: int, bound: int, unsigned: bool) -> int:
    """p.clipr / p.clipur: clamp to [-(rs2+1), rs2] (or [0, rs2]); rs2 read as signed."""
    b = sx32(bound)
    lo = 0 if unsigned else -(b + 1)
    return clip(v, lo, b)


@njit(cache=True)
def field_mask(len_m1: int, pos: int) -> int:
    """Mask of bits pos .. pos+len_m1, clipped at bit 31."""
    top = pos + len_m1
    if top > 31:
        top = 31
    return ((1 << (top + 1)) - 1) & ~((1 << pos) - 1) & M32


@njit(cache=True)
def extract(v: int, len_m1: int, pos: int, signed: bool) -> int:
    mask = field_mask(len_m1, pos)
    width = fl1(mask) - pos + 1
    f = (v & mask) >> pos
    if signed and f >> (width - 1) & 1:
        f -= 1 << width
    return f & M32


@njit(cache=True)
def insert(dest: int, v: int, len_m1: int, pos: int) -> int:
    mask = field_mask(len_m1, pos)
    return ((dest & ~mask) | ((v << pos) & mask)) & M32


@njit(cache=True)
def bitrev(v: int, radix_m1: int, npts_log2: int) -> int:
    """cv.bitrev: digit-reverse for an FFT on 2^npts points in radix 2^(radix_m1+1).

    The 32-bit word is split into digits of radix_m1+1 bits (3 behaves as 0, per the CV32E40P
    note) from bit 0 up, the digit order is reversed into the top of the word, and the result
    is shifted down so that the low ``npts_log2`` bits hold the reversed index.
    """
    d = radix_m1 + 1
    if d == 4:
        d = 1
    out = 0
    ndig = 32 // d
    for i in range(ndig):
        digit = (v >> (i * d)) & ((1 << d) - 1)
        out |= digit << (32 - (i + 1) * d)
    if npts_log2 == 0:
        return 0
    return (out & M32) >> (32 - npts_log2)


@njit(cache=True)
def norm_shift(x: int, sh: int, rnd: bool, unsigned: bool) -> int:
    """(x [+ 2^(sh-1)]) >> sh on a 32-bit result, logical or arithmetic (p.addN family)."""
    if rnd and sh > 0:
        x += 1 << (sh - 1)
    x &= M32
    if unsigned:
        return x >> sh
    return (sx32(x) >> sh) & M32


@njit(cache=True)
def mul16(a: int, b: int, high: bool, unsigned: bool) -> int:
    """16x16 product of the low (or high) half-words, sign- or zero-extended (p.mul*N)."""
    if high:
        a >>= 16
        b >>= 16
    if unsigned:
        return (a & 0xFFFF) * (b & 0xFFFF)
    return sx16(a) * sx16(b)


@njit(cache=True)
def mul_norm(prod: int, acc: int, sh: int, rnd: bool, unsigned: bool) -> int:
    """(product + acc [+ 2^(sh-1)]) >> sh (p.mac*N / p.mul*N).

    The sum is formed exactly (the RTL multiplier keeps the extra bits before normalising), then
    shifted logically (u) or arithmetically (s) and truncated to 32 bits.
    """
    x = prod + (acc if unsigned else sx32(acc))
    if rnd and sh > 0:
        x += 1 << (sh - 1)
    return (x >> sh) & M32


@njit(cache=True)
def mulhu(a: int, b: int) -> int:
    """High word of the unsigned 64-bit product (int64 cannot hold the product itself)."""
    al, ah = a & 0xFFFF, a >> 16
    bl, bh = b & 0xFFFF, b >> 16
    ll = al * bl
    m1 = ah * bl
    m2 = al * bh
    carry = ((ll >> 16) + (m1 & 0xFFFF) + (m2 & 0xFFFF)) >> 16
    return (ah * bh + (m1 >> 16) + (m2 >> 16) + carry) & M32


@njit(cache=True)
def div_cycles(d: int, signed: bool) -> int:
    """RI5CY/CV32E40P divider cycles: clz(d)+3, 35 for d = 0, clz(~d)+2 for signed negative."""
    if d == 0:
        return 35
    if signed and d & 0x80000000:
        return clz32(~d & M32) + 2
    return clz32(d) + 3
