"""Engine operation ids, and how the table's operation names map onto them.

The instruction table names each instruction's semantics (``op``).  The engine executes a smaller
set: every load and store — standard, post-increment, register-offset, ``p.elw`` — is one generic
memory operation described by bit fields of the record (``layout.F_MEM``), and everything else has
its own id.  ``ENGINE_OPS`` lists the ids; ``MEMORY_OPS`` gives the memory description of each
load/store op name.  A test checks that every op named in the table is one or the other.
"""

from __future__ import annotations

from isasim import layout as L
from isasim import smallfloat

ENGINE_OPS: tuple[str, ...] = tuple("""
illegal mem
lui auipc jal jalr beq bne blt bge bltu bgeu
addi slti sltiu xori ori andi slli srli srai add sub sll slt sltu xor srl sra or and
fence fence_i ecall ebreak mret wfi
mul mulh mulhsu mulhu div divu rem remu
csrrw csrrs csrrc csrrwi csrrsi csrrci
fmadd_s fmsub_s fnmsub_s fnmadd_s fadd_s fsub_s fmul_s fdiv_s fsqrt_s fsgnj_s fsgnjn_s fsgnjx_s
fmin_s fmax_s fcvt_w_s fcvt_wu_s fmv_x_w feq_s flt_s fle_s fclass_s fcvt_s_w fcvt_s_wu fmv_w_x
lp_starti lp_endi lp_count lp_counti lp_setup lp_setupi lp_start cv_endi cv_end cv_setup
cv_setupi
mac msu abs slet sletu min minu max maxu ror ff1 fl1 clb cnt exths exthz extbs extbz
clip clipu clipr clipur cv_clipr cv_clipur
extract extractu insert bclr bset extractr extractur insertr bclrr bsetr bitrev
addn addun addrn addurn subn subun subrn suburn
addnr addunr addrnr addurnr subnr subunr subrnr suburnr
mulsn mulhhsn mulun mulhhun mulsrn mulhhsrn mulurn mulhhurn
macsn machhsn macun machhun macsrn machhsrn macurn machhurn
beqimm bneimm
""".split()) + smallfloat.ENGINE_OPS

# Packed SIMD (pv.* / cv.*, isasim.simd).  The lane operations come in six variants each, in this
# order, so that the op id itself says which operation, lane width and second operand it is.
SIMD_LANE_OPS: tuple[str, ...] = tuple("""
add sub avg avgu min minu max maxu srl sra sll or xor and
dotup dotusp dotsp sdotup sdotusp sdotsp
cmpeq cmpne cmpgt cmpge cmplt cmple cmpgtu cmpgeu cmpltu cmpleu
""".split())
SIMD_VARIANTS: tuple[str, ...] = ("h", "b", "sc_h", "sc_b", "sci_h", "sci_b")
SIMD_OTHER_OPS: tuple[str, ...] = tuple("""
abs_h abs_b extract_h extract_b extractu_h extractu_b insert_h insert_b
shuffle_h shuffle_b shuffle_sci_h shufflei0_sci_b shufflei1_sci_b shufflei2_sci_b shufflei3_sci_b
shuffle2_h shuffle2_b pack_h pack_hi_h packhi_b packlo_b
""".split())
SIMD_OPS: tuple[str, ...] = (tuple(f"simd_{o}_{v}" for o in SIMD_LANE_OPS for v in SIMD_VARIANTS)
                             + tuple(f"simd_{o}" for o in SIMD_OTHER_OPS))
ENGINE_OPS += SIMD_OPS

OP_ID: dict[str, int] = {name: i for i, name in enumerate(ENGINE_OPS)}
# Module attributes OP_<NAME> for the compiled loop (numba freezes them as constants).
for _name, _i in OP_ID.items():
    globals()[f"OP_{_name.upper()}"] = _i
# the smallFloat block (isasim.smallfloat derives operation and format from the offset)
OP_SF_FIRST = OP_ID[smallfloat.ENGINE_OPS[0]]
OP_SF_LAST = OP_ID[smallfloat.ENGINE_OPS[-1]]


def _mem(kind: int, size: int, signed: bool, amode: int = L.AMODE_IMM,
         inc: int = L.INC_NONE) -> int:
    return (kind | (size.bit_length() - 1) << L.MEM_SIZE_SHIFT
            | (L.MEM_SIGNED if signed else 0) | amode << L.MEM_AMODE_SHIFT
            | inc << L.MEM_INC_SHIFT)


_LOADS = {"lb": (1, True), "lh": (2, True), "lw": (4, True), "lbu": (1, False),
          "lhu": (2, False)}
_STORES = {"sb": 1, "sh": 2, "sw": 4}

MEMORY_OPS: dict[str, int] = {}
for _n, (_size, _signed) in _LOADS.items():
    MEMORY_OPS[_n] = _mem(L.MEM_LOAD, _size, _signed)
    MEMORY_OPS[f"{_n}_pi"] = _mem(L.MEM_LOAD, _size, _signed, L.AMODE_BASE, L.INC_IMM)
    MEMORY_OPS[f"{_n}_pr"] = _mem(L.MEM_LOAD, _size, _signed, L.AMODE_BASE, L.INC_REG)
    MEMORY_OPS[f"{_n}_rr"] = _mem(L.MEM_LOAD, _size, _signed, L.AMODE_REG)
for _n, _size in _STORES.items():
    MEMORY_OPS[_n] = _mem(L.MEM_STORE, _size, False)
    MEMORY_OPS[f"{_n}_pi"] = _mem(L.MEM_STORE, _size, False, L.AMODE_BASE, L.INC_IMM)
    MEMORY_OPS[f"{_n}_pr"] = _mem(L.MEM_STORE, _size, False, L.AMODE_BASE, L.INC_REG)
    MEMORY_OPS[f"{_n}_rr"] = _mem(L.MEM_STORE, _size, False, L.AMODE_REG)
MEMORY_OPS["flw"] = _mem(L.MEM_LOAD, 4, False)
MEMORY_OPS["fsw"] = _mem(L.MEM_STORE, 4, False)
MEMORY_OPS["flh"] = _mem(L.MEM_LOAD, 2, False) | L.MEM_NANBOX
MEMORY_OPS["fsh"] = _mem(L.MEM_STORE, 2, False)
MEMORY_OPS["elw"] = _mem(L.MEM_LOAD, 4, True)


def engine_op(table_op: str) -> tuple[int, int]:
    """``(engine op id, memory description)`` for a table op name; KeyError if unknown."""
    if table_op in MEMORY_OPS:
        return OP_ID["mem"], MEMORY_OPS[table_op]
    return OP_ID[table_op], 0
