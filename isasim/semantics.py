"""Instruction semantics: pure scalar functions, 32-bit patterns in int64 in, result out.

Spike keeps semantics apart from decode, timing and tracing; so do we.  They are easy to test on
their own, and two executors share them: the engine's loop and the code ``isasim.translate``
generates per program.  The common ones (``alu_result``, ``branch_taken``, ``fma_family_fast``)
are inlined into both (with a constant ``op`` the translated code keeps only its own case); the
rest (FP, Xpulp ALU, multiply/divide) is called out of line, which keeps the loop's hot part
small enough to compile well.
"""

from __future__ import annotations

from numba import njit

from isasim import opcodes as O
from isasim import simd
from isasim import smallfloat as sfl
from isasim import softfloat as sf
from isasim import xpulp_alu as X
from isasim.jitcache import compiled

M32 = 0xFFFFFFFF


@compiled(inline=True)
def alu_result(op, a, b, imm, pc):
    """Result of an RV32I computational instruction (``lui`` and ``auipc`` included) or ``mul``:
    ``a``/``b`` are rs1/rs2, ``pc`` the instruction's address.  0 for any other op."""
    if op == O.OP_ADDI:
        return (a + imm) & M32
    if op == O.OP_ADD:
        return (a + b) & M32
    if op == O.OP_LUI:
        return imm & M32
    if op == O.OP_AUIPC:
        return (pc + imm) & M32
    if op == O.OP_SLLI:
        return (a << (imm & 31)) & M32
    if op == O.OP_SRLI:
        return a >> (imm & 31)
    if op == O.OP_SRAI:
        return (((a ^ 0x80000000) - 0x80000000) >> (imm & 31)) & M32
    if op == O.OP_ANDI:
        return a & imm & M32
    if op == O.OP_ORI:
        return (a | imm) & M32
    if op == O.OP_XORI:
        return (a ^ imm) & M32
    if op == O.OP_SLTI:
        return 1 if (a ^ 0x80000000) - 0x80000000 < imm else 0
    if op == O.OP_SLTIU:
        return 1 if a < (imm & M32) else 0
    if op == O.OP_SUB:
        return (a - b) & M32
    if op == O.OP_SLL:
        return (a << (b & 31)) & M32
    if op == O.OP_SRL:
        return a >> (b & 31)
    if op == O.OP_SRA:
        return (((a ^ 0x80000000) - 0x80000000) >> (b & 31)) & M32
    if op == O.OP_AND:
        return a & b
    if op == O.OP_OR:
        return a | b
    if op == O.OP_XOR:
        return a ^ b
    if op == O.OP_SLT:
        return 1 if (a ^ 0x80000000) < (b ^ 0x80000000) else 0
    if op == O.OP_SLTU:
        return 1 if a < b else 0
    if op == O.OP_MUL:
        return (((a ^ 0x80000000) - 0x80000000) * ((b ^ 0x80000000) - 0x80000000)) & M32
    return 0


@compiled(inline=True)
def branch_taken(op, a, b):
    """Is a conditional branch taken?  For ``p.beqimm``/``p.bneimm`` ``b`` is the immediate."""
    if op == O.OP_BEQ or op == O.OP_BEQIMM:
        return a == b
    if op == O.OP_BNE or op == O.OP_BNEIMM:
        return a != b
    if op == O.OP_BLT:
        return (a ^ 0x80000000) < (b ^ 0x80000000)
    if op == O.OP_BGE:
        return (a ^ 0x80000000) >= (b ^ 0x80000000)
    if op == O.OP_BLTU:
        return a < b
    return a >= b


@compiled(inline=True)
def fma_family_fast(op, a, b, c):
    """``(done, result, fflags)`` of an RNE ``fmadd/fmsub/fnmsub/fnmadd/fadd/fsub/fmul.s`` on
    normal or zero operands, by one rounding of the exact host result; ``done`` is False when
    the fast path cannot decide and ``fp_exec`` must."""
    x = a
    y = b if op != O.OP_FADD_S and op != O.OP_FSUB_S else 0x3F800000
    # a plain product adds -0 (x + -0 = x for every x, including -0)
    z = c if op <= O.OP_FNMADD_S else (b if op != O.OP_FMUL_S else 0x80000000)
    if not (sf.fast_operand(x) and sf.fast_operand(y) and sf.fast_operand(z)):
        return False, 0, 0
    px = sf.widen_f32(x)
    zz = sf.widen_f32(z)
    if op == O.OP_FNMSUB_S or op == O.OP_FNMADD_S:
        px = -px
    if op == O.OP_FMSUB_S or op == O.OP_FNMADD_S or op == O.OP_FSUB_S:
        zz = -zz
    return sf.fma_fast_rne(px, sf.widen_f32(y), zz)


@njit(cache=True)
def fp_needs_rm(op: int) -> bool:
    """Operations whose result depends on a rounding mode (a bad rm makes them illegal)."""
    if op >= O.OP_SF_FIRST and op <= O.OP_SF_LAST:
        return sfl.needs_rm(O.OP_SF_FIRST, op)
    return (op == O.OP_FMADD_S or op == O.OP_FMSUB_S or op == O.OP_FNMSUB_S
            or op == O.OP_FNMADD_S or op == O.OP_FADD_S or op == O.OP_FSUB_S
            or op == O.OP_FMUL_S or op == O.OP_FDIV_S or op == O.OP_FSQRT_S
            or op == O.OP_FCVT_W_S or op == O.OP_FCVT_WU_S or op == O.OP_FCVT_S_W
            or op == O.OP_FCVT_S_WU)


@njit(cache=True)
def fp_exec(op: int, a: int, b: int, c: int, rm: int):
    """(result, fflags) of an RV32F operation on bit patterns (rm already resolved)."""
    if op == O.OP_FMADD_S:
        return sf.f32_fma(a, b, c, rm, 0, 0)
    if op == O.OP_FADD_S:
        return sf.f32_add(a, b, rm)
    if op == O.OP_FMUL_S:
        return sf.f32_mul(a, b, rm)
    if op == O.OP_FSUB_S:
        return sf.f32_sub(a, b, rm)
    if op == O.OP_FMSUB_S:
        return sf.f32_fma(a, b, c, rm, 0, 1)
    if op == O.OP_FNMSUB_S:
        return sf.f32_fma(a, b, c, rm, 1, 0)
    if op == O.OP_FNMADD_S:
        return sf.f32_fma(a, b, c, rm, 1, 1)
    if op == O.OP_FDIV_S:
        return sf.f32_div(a, b, rm)
    if op == O.OP_FSQRT_S:
        return sf.f32_sqrt(a, rm)
    if op == O.OP_FSGNJ_S:
        return (a & 0x7FFFFFFF) | (b & 0x80000000), 0
    if op == O.OP_FSGNJN_S:
        return (a & 0x7FFFFFFF) | (~b & 0x80000000), 0
    if op == O.OP_FSGNJX_S:
        return a ^ (b & 0x80000000), 0
    if op == O.OP_FMIN_S:
        return sf.f32_min(a, b)
    if op == O.OP_FMAX_S:
        return sf.f32_max(a, b)
    if op == O.OP_FCVT_W_S:
        return sf.f32_to_i32(a, rm)
    if op == O.OP_FCVT_WU_S:
        return sf.f32_to_u32(a, rm)
    if op == O.OP_FMV_X_W or op == O.OP_FMV_W_X:
        return a, 0
    if op == O.OP_FEQ_S:
        return sf.f32_eq(a, b)
    if op == O.OP_FLT_S:
        return sf.f32_lt(a, b)
    if op == O.OP_FLE_S:
        return sf.f32_le(a, b)
    if op == O.OP_FCLASS_S:
        return sf.f32_classify(a), 0
    if op == O.OP_FCVT_S_W:
        return sf.i32_to_f32(a, rm)
    return sf.u32_to_f32(a, rm)


@njit(cache=True)
def muldiv_exec(op: int, a: int, b: int):
    """(result, extra cycles) of an RV32M operation; extra cycles are the structural stall."""
    if op == O.OP_MUL:
        return (X.sx32(a) * X.sx32(b)) & M32, 0
    if op == O.OP_MULH:
        return ((X.sx32(a) * X.sx32(b)) >> 32) & M32, -1
    if op == O.OP_MULHSU:
        return ((X.sx32(a) * b) >> 32) & M32, -1
    if op == O.OP_MULHU:
        return X.mulhu(a, b), -1
    signed = op == O.OP_DIV or op == O.OP_REM
    cycles = X.div_cycles(b, signed) - 1
    if b == 0:
        return (M32 if op == O.OP_DIV or op == O.OP_DIVU else a), cycles
    if signed:
        x = X.sx32(a)
        y = X.sx32(b)
        if x == -0x80000000 and y == -1:
            return (a if op == O.OP_DIV else 0), cycles
        q = abs(x) // abs(y)
        if (x < 0) != (y < 0):
            q = -q
        return (q if op == O.OP_DIV else x - q * y) & M32, cycles
    return (a // b if op == O.OP_DIVU else a % b), cycles


@njit(cache=True)
def xpulp_exec(op: int, a: int, b: int, c: int, imm: int, imm2: int) -> int:
    """Result of an Xpulp / CORE-V ALU, bit-manipulation or multiply-accumulate operation.

    ``a``/``b`` are rs1/rs2, ``c`` is the third source (rd for accumulating forms), ``imm`` the
    Is2 / position immediate and ``imm2`` the Is3 / length-1 / shift immediate.
    """
    if op == O.OP_MAC:
        return (c + X.sx32(a) * X.sx32(b)) & M32
    if op == O.OP_MSU:
        return (c - X.sx32(a) * X.sx32(b)) & M32
    if O.OP_MULSN <= op <= O.OP_MACHHURN:
        i = op - O.OP_MULSN
        high = (i & 1) == 1
        unsigned = ((i >> 1) & 1) == 1
        rnd = ((i >> 2) & 1) == 1
        acc = c if i >= 8 else 0
        return X.mul_norm(X.mul16(a, b, high, unsigned), acc, imm2, rnd, unsigned)
    if op == O.OP_ABS:
        return ((-X.sx32(a)) & M32) if a & 0x80000000 else a
    if op == O.OP_SLET:
        return 1 if X.sx32(a) <= X.sx32(b) else 0
    if op == O.OP_SLETU:
        return 1 if a <= b else 0
    if op == O.OP_MIN:
        return a if X.sx32(a) < X.sx32(b) else b
    if op == O.OP_MINU:
        return a if a < b else b
    if op == O.OP_MAX:
        return a if X.sx32(a) > X.sx32(b) else b
    if op == O.OP_MAXU:
        return a if a > b else b
    if op == O.OP_ROR:
        return X.ror(a, b)
    if op == O.OP_FF1:
        return X.ff1(a)
    if op == O.OP_FL1:
        return X.fl1(a)
    if op == O.OP_CLB:
        return X.clb(a)
    if op == O.OP_CNT:
        return X.popcount(a)
    if op == O.OP_EXTHS:
        return X.sx16(a) & M32
    if op == O.OP_EXTHZ:
        return a & 0xFFFF
    if op == O.OP_EXTBS:
        return (((a & 0xFF) ^ 0x80) - 0x80) & M32
    if op == O.OP_EXTBZ:
        return a & 0xFF
    if op == O.OP_CLIP or op == O.OP_CLIPU:
        return X.clip_imm(a, imm, op == O.OP_CLIPU)
    if op == O.OP_CLIPR or op == O.OP_CLIPUR:
        return X.clip_reg(a, b, op == O.OP_CLIPUR)
    if op == O.OP_CV_CLIPR or op == O.OP_CV_CLIPUR:
        return X.clip_reg(a, b & 0x7FFFFFFF, op == O.OP_CV_CLIPUR)
    if O.OP_EXTRACT <= op <= O.OP_BITREV:
        if O.OP_EXTRACTR <= op <= O.OP_BSETR:
            lm1 = (b >> 5) & 31
            pos = b & 31
        else:
            lm1 = imm2
            pos = imm
        if op == O.OP_EXTRACT or op == O.OP_EXTRACTR:
            return X.extract(a, lm1, pos, True)
        if op == O.OP_EXTRACTU or op == O.OP_EXTRACTUR:
            return X.extract(a, lm1, pos, False)
        if op == O.OP_INSERT or op == O.OP_INSERTR:
            return X.insert(c, a, lm1, pos)
        if op == O.OP_BCLR or op == O.OP_BCLRR:
            return a & ~X.field_mask(lm1, pos) & M32
        if op == O.OP_BSET or op == O.OP_BSETR:
            return a | X.field_mask(lm1, pos)
        return X.bitrev(a, lm1 & 3, pos)
    # the add/sub-with-normalisation family: imm forms shift by Is3, register forms
    # add rD and rs1 and shift by rs2[4:0]
    j = op - O.OP_ADDN
    sub = (j & 7) >= 4
    unsigned = (j & 1) == 1
    rnd = ((j >> 1) & 1) == 1
    if j >= 8:
        x, y, sh = c, a, b & 31
    else:
        x, y, sh = a, b, imm2
    return X.norm_shift((x - y) if sub else (x + y), sh, rnd, unsigned)


@compiled
def exec_scalar(op, a, b, c, imm, imm2, rm):
    """RV32M (but mul), Xpulp ALU and packed SIMD, the general RV32F path and smallFloat:
    ``(result, fflags, extra)``.

    ``extra`` is the structural stall of mulh (-1: use the configured cycles) and div/rem.
    For smallFloat ops ``imm2`` says where 16-bit values sit in registers (``smallfloat.BOX_*``).
    """
    if op >= O.OP_MUL and op <= O.OP_REMU:
        res, extra = muldiv_exec(op, a, b)
        return res, 0, extra
    if op >= O.OP_FMADD_S and op <= O.OP_FMV_W_X:
        res, fl = fp_exec(op, a, b, c, rm)
        return res, fl, 0
    if op >= simd.FIRST and op <= simd.LAST:
        return simd.exec_simd(op, a, b, c, imm), 0, 0
    if op >= O.OP_SF_FIRST and op <= O.OP_SF_LAST:
        res, fl = sfl.sf_exec(O.OP_SF_FIRST, op, a, b, c, rm, imm2)
        return res, fl, 0
    return xpulp_exec(op, a, b, c, imm, imm2), 0, 0
