"""Packed SIMD of Xpulpv2 (``pv.*``) and CORE-V (``cv.*``): lane arithmetic on 32-bit patterns.

A register holds two 16-bit lanes (``.h``, lane i = bits 16i+15..16i) or four 8-bit lanes
(``.b``).  Every lane is computed on its own and truncated to the lane width: no saturation, no
carry between lanes, no flags.  The second operand is rs2 (``.h``/``.b``), the lowest lane of rs2
replicated (``.sc``), or the 6-bit immediate, already sign- or zero-extended by the decoder,
replicated (``.sci``).  Shifts use only the low 4 (``.h``) or 3 (``.b``) bits of each lane's
amount; the average truncates the lane sum before shifting (the carry is lost); compares set a
lane to all ones or zero; dot products sum the lane products in 32 bits, and the ``sdot`` forms
add rD.  Sources: PULP binutils' opcode table (``opcodes/riscv-opc.c``), the CV32E40P user
manual's SIMD section and its RTL (``cv32e40p_alu.sv``, ``cv32e40p_decoder.sv``), GVSoC's
``isa_lib/int.h``.

The engine op id says everything (see ``opcodes.SIMD_OPS``): the lane operations come in six
variants each, in the order ``h b sc_h sc_b sci_h sci_b``, so ``id // 6`` is the operation and
``id % 6`` the variant (bit 0: byte lanes, >= 2: scalar, >= 4: immediate).
"""

from __future__ import annotations

from numba import njit

from isasim import opcodes as O

M32 = 0xFFFFFFFF
NVAR = len(O.SIMD_VARIANTS)
NLANE_OPS = len(O.SIMD_LANE_OPS)
FIRST = O.OP_SIMD_ADD_H
LAST = FIRST + len(O.SIMD_OPS) - 1

# lane operations, in the order of opcodes.SIMD_LANE_OPS
(ADD, SUB, AVG, AVGU, MIN, MINU, MAX, MAXU, SRL, SRA, SLL, OR, XOR, AND,
 DOTUP, DOTUSP, DOTSP, SDOTUP, SDOTUSP, SDOTSP,
 CMPEQ, CMPNE, CMPGT, CMPGE, CMPLT, CMPLE, CMPGTU, CMPGEU, CMPLTU, CMPLEU) = range(30)
assert NLANE_OPS == 30


@njit(cache=True)
def lane(k: int, x: int, y: int, w: int) -> int:
    """Lane operation ``k`` (not a dot product) on the ``w``-bit lane patterns x and y."""
    m = (1 << w) - 1
    sign = 1 << (w - 1)
    sx = (x ^ sign) - sign
    sy = (y ^ sign) - sign
    if k == ADD:
        return (x + y) & m
    if k == SUB:
        return (x - y) & m
    if k == AVG:
        s = (x + y) & m
        return (((s ^ sign) - sign) >> 1) & m
    if k == AVGU:
        return ((x + y) & m) >> 1
    if k == MIN:
        return x if sx < sy else y
    if k == MINU:
        return x if x < y else y
    if k == MAX:
        return x if sx > sy else y
    if k == MAXU:
        return x if x > y else y
    if k == SRL:
        return x >> (y & (w - 1))
    if k == SRA:
        return (sx >> (y & (w - 1))) & m
    if k == SLL:
        return (x << (y & (w - 1))) & m
    if k == OR:
        return x | y
    if k == XOR:
        return x ^ y
    if k == AND:
        return x & y
    # compares: gt ge lt le come signed, then unsigned (gtu geu ltu leu)
    if k == CMPEQ:
        t = x == y
    elif k == CMPNE:
        t = x != y
    else:
        p, q, r = (x, y, k - CMPGTU) if k >= CMPGTU else (sx, sy, k - CMPGT)
        if r == 0:
            t = p > q
        elif r == 1:
            t = p >= q
        elif r == 2:
            t = p < q
        else:
            t = p <= q
    return m if t else 0


@njit(cache=True)
def dot(k: int, a: int, b: int, c: int, w: int) -> int:
    """Dot product ``k`` of the ``w``-bit lanes of a and b (plus c for the ``sdot`` forms)."""
    m = (1 << w) - 1
    sign = 1 << (w - 1)
    signed_a = k in (DOTSP, SDOTSP)
    signed_b = k != DOTUP and k != SDOTUP
    acc = c if k >= SDOTUP else 0
    for i in range(32 // w):
        x = (a >> (i * w)) & m
        y = (b >> (i * w)) & m
        if signed_a:
            x = (x ^ sign) - sign
        if signed_b:
            y = (y ^ sign) - sign
        acc += x * y
    return acc & M32


@njit(cache=True)
def half(v: int, i: int) -> int:
    return (v >> (16 * (i & 1))) & 0xFFFF


@njit(cache=True)
def byte(v: int, i: int) -> int:
    return (v >> (8 * (i & 3))) & 0xFF


@njit(cache=True)
def other(j: int, a: int, b: int, c: int, imm: int) -> int:
    """The operations of ``opcodes.SIMD_OTHER_OPS`` (index j): abs, extract, insert, shuffles,
    packs.  ``c`` is the old rD (insert, shuffle2, packhi/packlo keep or pick from it)."""
    if j <= 1:                                        # abs.h, abs.b
        w = 16 if j == 0 else 8
        m = (1 << w) - 1
        sign = 1 << (w - 1)
        out = 0
        for i in range(32 // w):
            x = (a >> (i * w)) & m
            if x & sign:
                x = (sign * 2 - x) & m
            out |= x << (i * w)
        return out
    if j == 2:                                        # extract.h
        return ((half(a, imm) ^ 0x8000) - 0x8000) & M32
    if j == 3:                                        # extract.b
        return ((byte(a, imm) ^ 0x80) - 0x80) & M32
    if j == 4:                                        # extractu.h
        return half(a, imm)
    if j == 5:                                        # extractu.b
        return byte(a, imm)
    if j == 6:                                        # insert.h
        sh = 16 * (imm & 1)
        return (c & ~(0xFFFF << sh) & M32) | ((a & 0xFFFF) << sh)
    if j == 7:                                        # insert.b
        sh = 8 * (imm & 3)
        return (c & ~(0xFF << sh) & M32) | ((a & 0xFF) << sh)
    if j == 8:                                        # shuffle.h: lane i = a.half[b.half[i][0]]
        return half(a, b) | (half(a, b >> 16) << 16)
    if j == 9:                                        # shuffle.b: byte i = a.byte[b.byte[i][1:0]]
        out = 0
        for i in range(4):
            out |= byte(a, byte(b, i)) << (8 * i)
        return out
    if j == 10:                                       # shuffle.sci.h: selectors imm[0], imm[1]
        return half(a, imm) | (half(a, imm >> 1) << 16)
    if j <= 14:                                       # shuffleI{0..3}.sci.b
        return (byte(a, imm) | (byte(a, imm >> 2) << 8) | (byte(a, imm >> 4) << 16)
                | (byte(a, j - 11) << 24))
    if j == 15:                                       # shuffle2.h: b.half[i][1] picks rs1 or rD
        out = 0
        for i in range(2):
            sel = half(b, i)
            out |= half(a if sel & 2 else c, sel) << (16 * i)
        return out
    if j == 16:                                       # shuffle2.b: b.byte[i][2] picks rs1 or rD
        out = 0
        for i in range(4):
            sel = byte(b, i)
            out |= byte(a if sel & 4 else c, sel) << (8 * i)
        return out
    if j == 17:                                       # pack.h (lower halves)
        return ((a & 0xFFFF) << 16) | (b & 0xFFFF)
    if j == 18:                                       # cv.pack.h (upper halves)
        return (a & 0xFFFF0000) | (b >> 16)
    if j == 19:                                       # packhi.b
        return (c & 0xFFFF) | ((a & 0xFF) << 24) | ((b & 0xFF) << 16)
    return (c & 0xFFFF0000) | ((a & 0xFF) << 8) | (b & 0xFF)   # packlo.b


@njit(cache=True)
def exec_simd(op: int, a: int, b: int, c: int, imm: int) -> int:
    """Result of SIMD operation ``op``: a = rs1, b = rs2, c = old rD, imm = the decoded
    immediate (lane index, selectors or ``.sci`` operand)."""
    i = op - FIRST
    if i >= NLANE_OPS * NVAR:
        return other(i - NLANE_OPS * NVAR, a, b, c, imm)
    k = i // NVAR
    v = i - k * NVAR
    w = 8 if v & 1 else 16
    m = (1 << w) - 1
    if v >= 2:
        y = (imm if v >= 4 else b) & m
        b = y | (y << w)
        if w == 8:
            b |= b << 16
    if k >= DOTUP and k <= SDOTSP:
        return dot(k, a, b, c, w)
    out = 0
    for j in range(32 // w):
        out |= lane(k, (a >> (j * w)) & m, (b >> (j * w)) & m, w) << (j * w)
    return out
