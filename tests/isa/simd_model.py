"""A lane-by-lane numpy model of the packed-SIMD instructions (pv.* / cv.*), for the tests.

Written from the instruction descriptions (PULP binutils' operand kinds, the CV32E40P user
manual's SIMD tables, the semantics summarised in the simulator's docs), not from
``isasim.simd``: lanes are numpy arrays of ``uint16`` / ``uint8`` (wrap-around comes from the
dtype), signed views are ``int16`` / ``int8`` views of the same bits.

``result(name, rd, rs1, rs2, imm)`` is the value rD holds after instruction ``name`` (``pv.*``
or ``cv.*`` mnemonic) with those register values and immediate.
"""

from __future__ import annotations

import numpy as np

M32 = 0xFFFFFFFF
_U = {16: np.uint16, 8: np.uint8}
_S = {16: np.int16, 8: np.int8}


def lanes(value: int, w: int) -> np.ndarray:
    """The lanes of a 32-bit value, lowest first, as unsigned ``w``-bit numbers."""
    return np.frombuffer(int(value & M32).to_bytes(4, "little"), dtype=_U[w]).copy()


def word(lane_values: np.ndarray, w: int) -> int:
    """The 32-bit value of lanes (taken modulo 2**w)."""
    return int.from_bytes(np.asarray(lane_values).astype(np.int64).astype(_U[w]).tobytes(),
                          "little")


def _signed(x: np.ndarray, w: int) -> np.ndarray:
    return x.view(_S[w])


def _operand2(variant: str, rs2: int, imm: int, w: int) -> np.ndarray:
    """rs2's lanes (.h/.b), its lowest lane everywhere (.sc), or the immediate's (.sci)."""
    n = 32 // w
    if variant == "":
        return lanes(rs2, w)
    scalar = lanes(rs2, w)[0] if variant == "sc" else np.array(imm).astype(np.int64) & (
        (1 << w) - 1)
    return np.full(n, scalar, dtype=_U[w])


def _lanewise(op: str, a: np.ndarray, b: np.ndarray, w: int) -> np.ndarray:
    sa, sb = _signed(a, w), _signed(b, w)
    ones = np.full_like(a, (1 << w) - 1)
    zero = np.zeros_like(a)
    shift = (b & (w - 1)).astype(np.int64)
    with np.errstate(over="ignore"):
        table = {
            "add": lambda: a + b,
            "sub": lambda: a - b,
            "avg": lambda: _signed(a + b, w) >> 1,          # the sum wraps, then >>> 1
            "avgu": lambda: (a + b) >> 1,
            "min": lambda: np.minimum(sa, sb),
            "minu": lambda: np.minimum(a, b),
            "max": lambda: np.maximum(sa, sb),
            "maxu": lambda: np.maximum(a, b),
            "srl": lambda: a.astype(np.int64) >> shift,
            "sra": lambda: sa.astype(np.int64) >> shift,
            "sll": lambda: a.astype(np.int64) << shift,
            "or": lambda: a | b,
            "xor": lambda: a ^ b,
            "and": lambda: a & b,
            "cmpeq": lambda: np.where(a == b, ones, zero),
            "cmpne": lambda: np.where(a != b, ones, zero),
            "cmpgt": lambda: np.where(sa > sb, ones, zero),
            "cmpge": lambda: np.where(sa >= sb, ones, zero),
            "cmplt": lambda: np.where(sa < sb, ones, zero),
            "cmple": lambda: np.where(sa <= sb, ones, zero),
            "cmpgtu": lambda: np.where(a > b, ones, zero),
            "cmpgeu": lambda: np.where(a >= b, ones, zero),
            "cmpltu": lambda: np.where(a < b, ones, zero),
            "cmpleu": lambda: np.where(a <= b, ones, zero),
        }
        return table[op]()


def _dot(op: str, rd: int, a: np.ndarray, b: np.ndarray, w: int) -> int:
    kind = op.removeprefix("s").removeprefix("dot")       # up / usp / sp
    x = (_signed(a, w) if kind == "sp" else a).astype(np.int64)
    y = (b if kind == "up" else _signed(b, w)).astype(np.int64)
    total = int(np.sum(x * y)) + (rd if op.startswith("sdot") else 0)
    return total & M32


def result(name: str, rd: int, rs1: int, rs2: int, imm: int = 0) -> int:
    """rD after ``name`` (e.g. ``pv.sdotsp.sc.b``, ``cv.shufflei2.sci.b``, ``cv.pack.h``)."""
    family, op, *rest = name.lower().split(".")
    suffix = ".".join(rest)
    w = 8 if suffix.endswith("b") else 16
    a = lanes(rs1, w)
    d = lanes(rd, w)
    if op in ("abs",):
        return word(np.abs(_signed(a, w).astype(np.int64)), w)
    if op in ("extract", "extractu"):
        x = a[imm % (32 // w)]
        return (int(_signed(np.array([x], dtype=_U[w]), w)[0]) & M32 if op == "extract"
                else int(x))
    if op == "insert":
        d[imm % (32 // w)] = a[0]
        return word(d, w)
    if op == "shuffle" and suffix == "h":                 # selector: bit 0 of each rs2 lane
        return word(a[lanes(rs2, 16) & 1], 16)
    if op == "shuffle" and suffix == "b":
        return word(a[lanes(rs2, 8) & 3], 8)
    if op == "shuffle" and suffix == "sci.h":             # selectors imm[0], imm[1]
        return word(a[[imm & 1, (imm >> 1) & 1]], 16)
    if op.startswith("shufflei"):                         # bytes 0..2 by imm, byte 3 fixed
        sel = [imm & 3, (imm >> 2) & 3, (imm >> 4) & 3, int(op[-1])]
        return word(a[sel], 8)
    if op == "shuffle2":                                  # bit 1 (.h) / 2 (.b) picks rs1 or rD
        sel = lanes(rs2, w)
        n = 32 // w
        pick = np.where(sel & n, a[sel & (n - 1)], d[sel & (n - 1)])
        return word(pick, w)
    if (family, op, suffix) in (("pv", "pack", "h"), ("cv", "pack", "")):
        return word([lanes(rs2, 16)[0], a[0]], 16)        # {rs1[15:0], rs2[15:0]}
    if (family, op, suffix) == ("cv", "pack", "h"):
        return word([lanes(rs2, 16)[1], a[1]], 16)        # {rs1[31:16], rs2[31:16]}
    if op == "packhi":
        d[3], d[2] = a[0], lanes(rs2, 8)[0]
        return word(d, 8)
    if op == "packlo":
        d[1], d[0] = a[0], lanes(rs2, 8)[0]
        return word(d, 8)
    variant = suffix[:-2] if "." in suffix else ""        # "", "sc" or "sci"
    b = _operand2(variant, rs2, imm, w)
    if "dot" in op:
        return _dot(op, rd, a, b, w)
    return word(_lanewise(op, a, b, w), w)
