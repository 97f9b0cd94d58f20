"""PULP smallFloat semantics: Xf16 (binary16), Xf16alt (bfloat16 layout) and Xfvec (two lanes).

The engine gives every smallFloat instruction an op id from one block of ``isasim.opcodes``:
``KINDS`` (scalar) and ``VECTOR_KINDS`` (packed), each written once per format, first for ``h``
then for ``ah``.  ``sf_exec`` recovers the operation and the format from the id by arithmetic,
so one body serves both formats (the arithmetic itself is ``isasim.softfloat16``).

Where 16-bit values sit in 32-bit registers (``box``, which ``isasim.predecode`` stores in the
record's F_IMM2 from the register file the instruction uses):

* ``BOX_NAN`` (separate f registers, as Zfh with FLEN = 32): a 16-bit result is NaN-boxed (bits
  31..16 all ones) and a 16-bit operand whose bits 31..16 are not all ones reads as the canonical
  NaN (RISC-V unprivileged spec, "NaN Boxing of Narrower Values").  ``fmv.x.h`` copies bits 15..0
  sign-extended and ``fmv.h.x`` boxes, without either check.
* ``BOX_SEXT`` (single register file, Zhinx): operands are bits 15..0 of the x register, and a
  result is written sign-extended from bit 15 (the Zfinx chapter's rule for narrower values).
* ``BOX_ZEXT`` (single register file as GVSoC models pulp-open, config ``half_in_x = "zero"``):
  operands as BOX_SEXT, results zero-extended (gvsoc flexfloat ``flexfloat_get_bits`` returns
  only the format's bits).

Packed operations (Xfvec, pulp-platform/riscv-opcodes ``opcodes-sflt_CUSTOM``) always use both
16-bit lanes of the 32-bit register, lane 0 in bits 15..0; their ``.r`` forms replicate lane 0 of
rs2.  Their results follow GVSoC's RI5CY model (gvsoc ``include/isa/rv32Xfvec.hpp``,
``rv32Xfaux.hpp``): comparisons put each lane's 0/1 at bit 16*i, ``vfmac`` is ``fma(a, b, d)``
per lane, ``vfmre`` is ``a*b - d``, and ``vfdotpex.s`` adds ``fma(a1, b1, a0*b0)`` to the binary32
in rD, each step rounded in binary32.  All of them round per ``frm``; the flags of both lanes
accumulate.
"""

from __future__ import annotations

from isasim import softfloat as sf
from isasim import softfloat16 as h16
from isasim.jitcache import compiled

FORMATS = ("h", "ah")
FORMAT_BITS = (h16.FMT_H, h16.FMT_AH)      # fraction bits of each format, same order

# scalar operations ("{f}": this format, "{o}": the other 16-bit format)
KINDS = (
    "fmadd_{f}", "fmsub_{f}", "fnmsub_{f}", "fnmadd_{f}", "fadd_{f}", "fsub_{f}", "fmul_{f}",
    "fdiv_{f}", "fsqrt_{f}", "fcvt_w_{f}", "fcvt_wu_{f}", "fcvt_{f}_w", "fcvt_{f}_wu",
    "fcvt_s_{f}", "fcvt_{f}_s", "fcvt_{f}_{o}",
    # no rounding mode from here on
    "fsgnj_{f}", "fsgnjn_{f}", "fsgnjx_{f}", "fmin_{f}", "fmax_{f}", "feq_{f}", "flt_{f}",
    "fle_{f}", "fclass_{f}", "fmv_x_{f}", "fmv_{f}_x",
)
# packed operations on two lanes
VECTOR_KINDS = (
    "vfadd_{f}", "vfsub_{f}", "vfmul_{f}", "vfdiv_{f}", "vfmac_{f}", "vfmre_{f}", "vfsqrt_{f}",
    "vfadd_r_{f}", "vfsub_r_{f}", "vfmul_r_{f}", "vfdiv_r_{f}", "vfmac_r_{f}", "vfmre_r_{f}",
    "vfcpka_{f}_s", "vfdotpex_s_{f}", "vfdotpex_s_r_{f}",
    "vfcvt_x_{f}", "vfcvt_xu_{f}", "vfcvt_{f}_x", "vfcvt_{f}_xu", "vfcvt_{f}_{o}",
    # no rounding mode from here on
    "vfmin_{f}", "vfmax_{f}", "vfsgnj_{f}", "vfsgnjn_{f}", "vfsgnjx_{f}",
    "vfmin_r_{f}", "vfmax_r_{f}", "vfsgnj_r_{f}", "vfsgnjn_r_{f}", "vfsgnjx_r_{f}",
    "vfeq_{f}", "vfne_{f}", "vflt_{f}", "vfge_{f}", "vfle_{f}", "vfgt_{f}",
    "vfeq_r_{f}", "vfne_r_{f}", "vflt_r_{f}", "vfge_r_{f}", "vfle_r_{f}", "vfgt_r_{f}",
    "vfclass_{f}", "vfmv_x_{f}", "vfmv_{f}_x",
)


def _names(kinds: tuple[str, ...]) -> list[str]:
    return [k.format(f=f, o=o) for f, o in (("h", "ah"), ("ah", "h")) for k in kinds]


SCALAR_OPS = _names(KINDS)
VECTOR_OPS = _names(VECTOR_KINDS)
ENGINE_OPS = tuple(SCALAR_OPS + VECTOR_OPS)

NK = len(KINDS)
NV = len(VECTOR_KINDS)
# kind indices the compiled code tests (module constants: numba freezes them)
(K_FMADD, K_FMSUB, K_FNMSUB, K_FNMADD, K_FADD, K_FSUB, K_FMUL, K_FDIV, K_FSQRT, K_CVT_W,
 K_CVT_WU, K_CVT_FROM_W, K_CVT_FROM_WU, K_CVT_S, K_CVT_FROM_S, K_CVT_OTHER, K_FSGNJ, K_FSGNJN,
 K_FSGNJX, K_FMIN, K_FMAX, K_FEQ, K_FLT, K_FLE, K_FCLASS, K_FMV_X, K_FMV_FROM_X) = range(NK)
K_ROUNDED_END = K_FSGNJ                  # scalar kinds below this one use the rounding mode
(V_ADD, V_SUB, V_MUL, V_DIV, V_MAC, V_MRE, V_SQRT, V_ADD_R, V_SUB_R, V_MUL_R, V_DIV_R, V_MAC_R,
 V_MRE_R, V_CPKA, V_DOTPEX, V_DOTPEX_R, V_CVT_X, V_CVT_XU, V_CVT_FROM_X, V_CVT_FROM_XU,
 V_CVT_OTHER, V_MIN, V_MAX, V_SGNJ, V_SGNJN, V_SGNJX, V_MIN_R, V_MAX_R, V_SGNJ_R, V_SGNJN_R,
 V_SGNJX_R, V_EQ, V_NE, V_LT, V_GE, V_LE, V_GT, V_EQ_R, V_NE_R, V_LT_R, V_GE_R, V_LE_R, V_GT_R,
 V_CLASS, V_MV_X, V_MV_FROM_X) = range(NV)
V_ROUNDED_END = V_MIN
# each .r form is its plain form's kind plus this (the plain kinds of a group come first)
assert V_ADD_R - V_ADD == V_MRE_R - V_MRE and V_MIN_R - V_MIN == V_SGNJX_R - V_SGNJX
assert V_EQ_R - V_EQ == V_GT_R - V_GT

BOX_NAN = 0
BOX_SEXT = 1
BOX_ZEXT = 2

# scalar kinds whose rs1 is not a 16-bit value (an integer, a binary32, or moved as bits)
_RAW_OPERAND = (K_CVT_FROM_W, K_CVT_FROM_WU, K_CVT_FROM_S, K_FMV_X, K_FMV_FROM_X)
# scalar kinds whose result is not a 16-bit value (an integer or a binary32)
_PLAIN_RESULT = (K_CVT_W, K_CVT_WU, K_CVT_S, K_FEQ, K_FLT, K_FLE, K_FCLASS, K_FMV_X)

@compiled
def needs_rm(first: int, op: int) -> bool:
    """Whether smallFloat op ``op`` (the block starts at ``first``) rounds: an invalid rounding
    mode makes it illegal."""
    i = op - first
    if i < 2 * NK:
        return i % NK < K_ROUNDED_END
    return (i - 2 * NK) % NV < V_ROUNDED_END


@compiled
def _operand(v: int, box: int, m: int) -> int:
    """A 16-bit operand read from a 32-bit register (canonical NaN if it is not NaN-boxed)."""
    if box == BOX_NAN and (v >> 16) & 0xFFFF != 0xFFFF:
        return h16.canonical_nan(m)
    return v & 0xFFFF


@compiled
def _result(v: int, box: int) -> int:
    v &= 0xFFFF
    if box == BOX_NAN or (box == BOX_SEXT and v & 0x8000):
        return v | 0xFFFF0000
    return v


@compiled
def _scalar(kind: int, m: int, other: int, a: int, b: int, c: int, rm: int):
    """(result, flags) of a scalar kind on 16-bit operands (a, b, c already unboxed), or on the
    raw register for the kinds in _INT_OPERAND; a 16-bit result is returned unboxed."""
    if kind == K_FMADD:
        return h16.fma(a, b, c, rm, 0, 0, m)
    if kind == K_FMSUB:
        return h16.fma(a, b, c, rm, 0, 1, m)
    if kind == K_FNMSUB:
        return h16.fma(a, b, c, rm, 1, 0, m)
    if kind == K_FNMADD:
        return h16.fma(a, b, c, rm, 1, 1, m)
    if kind == K_FADD:
        return h16.add(a, b, rm, m)
    if kind == K_FSUB:
        return h16.sub(a, b, rm, m)
    if kind == K_FMUL:
        return h16.mul(a, b, rm, m)
    if kind == K_FDIV:
        return h16.div(a, b, rm, m)
    if kind == K_FSQRT:
        return h16.sqrt(a, rm, m)
    if kind == K_CVT_W:
        return h16.to_int(a, rm, -(1 << 31), (1 << 31) - 1, m)
    if kind == K_CVT_WU:
        return h16.to_int(a, rm, 0, (1 << 32) - 1, m)
    if kind == K_CVT_FROM_W:
        return h16.from_int(a, True, rm, m)
    if kind == K_CVT_FROM_WU:
        return h16.from_int(a, False, rm, m)
    if kind == K_CVT_S:
        return h16.to_f32(a, m)
    if kind == K_CVT_FROM_S:
        return h16.from_f32(a, rm, m)
    if kind == K_CVT_OTHER:
        return h16.convert(a, rm, other, m)
    if kind == K_FSGNJ:
        return (a & 0x7FFF) | (b & 0x8000), 0
    if kind == K_FSGNJN:
        return (a & 0x7FFF) | (~b & 0x8000), 0
    if kind == K_FSGNJX:
        return a ^ (b & 0x8000), 0
    if kind == K_FMIN:
        return h16.min_max(a, b, False, m)
    if kind == K_FMAX:
        return h16.min_max(a, b, True, m)
    if kind == K_FEQ:
        return h16.eq(a, b, m)
    if kind == K_FLT:
        return h16.lt(a, b, m)
    if kind == K_FLE:
        return h16.le(a, b, m)
    if kind == K_FCLASS:
        return h16.classify(a, m), 0
    if kind == K_FMV_X:
        return (a & 0xFFFF) | (0xFFFF0000 if a & 0x8000 else 0), 0
    return a & 0xFFFF, 0        # K_FMV_FROM_X


# the scalar kind computing one lane of each plain packed kind (V_NE, V_GE, V_GT: see _lane)
_LANE_KIND = (K_FADD, K_FSUB, K_FMUL, K_FDIV, K_FMADD, K_FMSUB, K_FSQRT)
_OTHER_LANE_KIND = tuple(
    {V_MIN: K_FMIN, V_MAX: K_FMAX, V_SGNJ: K_FSGNJ, V_SGNJN: K_FSGNJN, V_SGNJX: K_FSGNJX,
     V_EQ: K_FEQ, V_LT: K_FLT, V_LE: K_FLE, V_CLASS: K_FCLASS}.get(v, -1) for v in range(V_MIN, NV))


@compiled
def _lane(kind: int, m: int, x: int, y: int, d: int, rm: int):
    """(16-bit result, flags) of one lane of a packed operation (.r forms already folded)."""
    if kind < V_ADD_R:
        return _scalar(_LANE_KIND[kind], m, m, x, y, d, rm)
    if kind == V_NE:
        r, fl = h16.eq(x, y, m)
        return 1 - r, fl
    if kind == V_GE:
        return h16.le(y, x, m)
    if kind == V_GT:
        return h16.lt(y, x, m)
    # V_MIN .. V_SGNJX, V_EQ, V_LT, V_LE, V_CLASS: the scalar kind of the same name
    return _scalar(_OTHER_LANE_KIND[kind - V_MIN], m, m, x, y, d, rm)


@compiled
def _dotpex(m: int, a: int, b: int, d: int, rm: int):
    """vfdotpex.s: d + fma(a1, b1, a0*b0) in binary32, lanes widened exactly (GVSoC's order)."""
    a0, fl0 = h16.to_f32(a & 0xFFFF, m)
    b0, fl1 = h16.to_f32(b & 0xFFFF, m)
    a1, fl2 = h16.to_f32((a >> 16) & 0xFFFF, m)
    b1, fl3 = h16.to_f32((b >> 16) & 0xFFFF, m)
    p, fl4 = sf.f32_mul(a0, b0, rm)
    s, fl5 = sf.f32_fma(a1, b1, p, rm, 0, 0)
    r, fl6 = sf.f32_add(s, d & 0xFFFFFFFF, rm)
    return r, fl0 | fl1 | fl2 | fl3 | fl4 | fl5 | fl6


@compiled
def _convert_lane(kind: int, m: int, other: int, x: int, rm: int):
    """(16-bit result, flags) of one lane of vfcvt: to and from 16-bit integers (saturating,
    as fcvt.w does to 32 bits), or to the other 16-bit format."""
    if kind == V_CVT_X:
        r, fl = h16.to_int(x, rm, -(1 << 15), (1 << 15) - 1, m)
        return r & 0xFFFF, fl
    if kind == V_CVT_XU:
        r, fl = h16.to_int(x, rm, 0, (1 << 16) - 1, m)
        return r & 0xFFFF, fl
    if kind == V_CVT_FROM_X:
        return h16.from_int(((x ^ 0x8000) - 0x8000) & 0xFFFFFFFF, True, rm, m)
    if kind == V_CVT_FROM_XU:
        return h16.from_int(x, False, rm, m)
    return h16.convert(x, rm, other, m)          # V_CVT_OTHER


@compiled
def _vector(kind: int, m: int, a: int, b: int, d: int, rm: int):
    if kind >= V_MV_X:                           # V_MV_X, V_MV_FROM_X: bit copies
        return a & 0xFFFFFFFF, 0
    if V_CVT_X <= kind <= V_CVT_OTHER:
        other = h16.FMT_AH if m == h16.FMT_H else h16.FMT_H
        r0, fl0 = _convert_lane(kind, m, other, a & 0xFFFF, rm)
        r1, fl1 = _convert_lane(kind, m, other, (a >> 16) & 0xFFFF, rm)
        return (r0 & 0xFFFF) | ((r1 & 0xFFFF) << 16), fl0 | fl1
    if kind == V_CPKA:
        lo, fl0 = h16.from_f32(a & 0xFFFFFFFF, rm, m)
        hi, fl1 = h16.from_f32(b & 0xFFFFFFFF, rm, m)
        return lo | (hi << 16), fl0 | fl1
    if kind == V_DOTPEX:
        return _dotpex(m, a, b, d, rm)
    if kind == V_DOTPEX_R:
        return _dotpex(m, a, (b & 0xFFFF) * 0x10001, d, rm)
    replicate = False
    base = kind
    if V_ADD_R <= kind <= V_MRE_R:
        replicate = True
        base = kind - (V_ADD_R - V_ADD)
    elif V_MIN_R <= kind <= V_SGNJX_R:
        replicate = True
        base = kind - (V_MIN_R - V_MIN)
    elif V_EQ_R <= kind <= V_GT_R:
        replicate = True
        base = kind - (V_EQ_R - V_EQ)
    if replicate:
        b = (b & 0xFFFF) * 0x10001
    r0, fl0 = _lane(base, m, a & 0xFFFF, b & 0xFFFF, d & 0xFFFF, rm)
    r1, fl1 = _lane(base, m, (a >> 16) & 0xFFFF, (b >> 16) & 0xFFFF, (d >> 16) & 0xFFFF, rm)
    return (r0 & 0xFFFF) | ((r1 & 0xFFFF) << 16), fl0 | fl1


@compiled
def sf_exec(first: int, op: int, a: int, b: int, c: int, rm: int, box: int):
    """(result, fflags) of smallFloat op ``op`` (its block starts at ``first``) on the 32-bit
    registers a = rs1, b = rs2, c = rs3 or rD; ``rm`` resolved, ``box`` as the module says."""
    i = op - first
    if i < 2 * NK:
        fmt = i // NK
        kind = i % NK
        m = h16.FMT_H if fmt == 0 else h16.FMT_AH
        other = h16.FMT_AH if fmt == 0 else h16.FMT_H
        if kind in _RAW_OPERAND:
            x = a
        elif kind == K_CVT_OTHER:
            x = _operand(a, box, other)
        else:
            x = _operand(a, box, m)
        y = _operand(b, box, m)
        z = _operand(c, box, m)
        r, fl = _scalar(kind, m, other, x, y, z, rm)
        if kind in _PLAIN_RESULT:
            return r & 0xFFFFFFFF, fl
        return _result(r, box), fl
    j = i - 2 * NK
    fmt = j // NV
    m = h16.FMT_H if fmt == 0 else h16.FMT_AH
    return _vector(j % NV, m, a, b, c, rm)
