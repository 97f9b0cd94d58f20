"""Turn decoded instructions into the engine's flat int32 records (``layout.F_*``).

Everything the compiled loop needs is computed here once per instruction: the engine operation
id, register-file indices of sources and destinations (so that x and f registers, x0 and "no
operand" all read and write uniformly), the timing class, and the memory-access description.
"""

from __future__ import annotations

import functools

import numpy as np

from isasim import layout as L
from isasim import opcodes as O
from isasim.opcodes import OP_ID, engine_op
from isasim.smallfloat import BOX_NAN, BOX_SEXT
from toolchain.table import Decoded, Entry, load_isa

_TIMING = {name: i for i, name in enumerate(L.TIMING_CLASSES)}


def _reg_index(entry: Entry, field_name: str, value: int) -> int:
    kind = entry.fields[field_name].kind
    return L.R_F + value if kind == "freg" else value


def record(d: Decoded, symbol_id: int = 0) -> np.ndarray:
    """The engine record of one decoded instruction (RVC: of the base instruction it means)."""
    e, v = d.base, d.base_values
    rec = np.zeros(L.NF, dtype=np.int32)
    op, mem = engine_op(e.op)
    rec[L.F_OP] = op
    rec[L.F_MEM] = mem
    rec[L.F_CLS] = _TIMING[e.timing]
    rec[L.F_LEN] = d.length
    rec[L.F_WORD] = np.int32(np.uint32(d.word).view(np.int32))
    rec[L.F_RM] = 7
    rec[L.F_WD] = rec[L.F_WD2] = L.R_SINK
    rec[L.F_S1] = rec[L.F_S2] = rec[L.F_S3] = L.R_ZERO
    rec[L.F_NEXT] = rec[L.F_TGT] = rec[L.F_TX] = -1
    sources: dict[str, int] = {}
    for name, f in e.fields.items():
        value = v[name]
        if f.slot in ("imm", "imm2", "rm"):
            rec[{"imm": L.F_IMM, "imm2": L.F_IMM2, "rm": L.F_RM}[f.slot]] = value
        if f.slot == "rd":
            rec[L.F_RD] = value
        if f.kind not in ("xreg", "freg"):
            continue
        if f.role in ("src", "srcdst") or name in e.reads:
            sources[f.slot] = _reg_index(e, name, value)
        if f.role in ("dst", "srcdst"):
            rec[L.F_WD] = _write_index(e, name, value)
        if name in e.writes:
            rec[L.F_WD2] = _write_index(e, name, value)
    # rs1 -> S1, rs2 -> S2, rs3 (or an accumulator read through rd) -> S3
    for slot, pos in (("rs1", L.F_S1), ("rs2", L.F_S2), ("rs3", L.F_S3)):
        if slot in sources:
            rec[pos] = sources[slot]
    if "rd" in sources:
        rec[L.F_S3] = sources["rd"]
    if O.OP_SF_FIRST <= op <= O.OP_SF_LAST:
        # where 16-bit FP values sit: NaN-boxed in f registers, sign-extended in x registers
        fregs = any(f.kind == "freg" for f in e.fields.values())
        rec[L.F_IMM2] = BOX_NAN if fregs else BOX_SEXT
    rec[L.F_SYM] = symbol_id
    return rec


def word_record(family: str, word: int, truncated: bool, symbol_id: int) -> np.ndarray:
    """The record of the instruction word ``word`` (of a 4-byte word cut short by the end of
    its region when ``truncated``: illegal).  Each distinct word is decoded once per process:
    words recur within a program, and trainlib builds hundreds of programs of the same kernels.
    """
    rec, decoded = _word_record(family, word, truncated)
    rec = rec.copy()
    if decoded:
        rec[L.F_SYM] = symbol_id
    return rec


@functools.lru_cache(maxsize=1 << 16)
def _word_record(family: str, word: int, truncated: bool) -> tuple[np.ndarray, bool]:
    d = None if truncated else load_isa(family).decode(word)
    rec = record(d) if d is not None else illegal_record(word)
    rec.flags.writeable = False
    return rec, d is not None


def _write_index(entry: Entry, field_name: str, value: int) -> int:
    if entry.fields[field_name].kind == "freg":
        return L.R_F + value
    return value if value != 0 else L.R_SINK


def illegal_record(word: int) -> np.ndarray:
    """Record for a word that is not an instruction (executing it raises illegal-instruction)."""
    rec = np.zeros(L.NF, dtype=np.int32)
    rec[L.F_OP] = OP_ID["illegal"]
    rec[L.F_LEN] = 2 if word & 3 != 3 else 4
    rec[L.F_WORD] = np.int32(np.uint32(word & 0xFFFFFFFF).view(np.int32))
    rec[L.F_WD] = rec[L.F_WD2] = L.R_SINK
    rec[L.F_S1] = rec[L.F_S2] = rec[L.F_S3] = L.R_ZERO
    rec[L.F_NEXT] = rec[L.F_TGT] = rec[L.F_TX] = -1
    return rec


# engine ops whose taken path goes to pc + imm (the record's F_TGT link)
PC_RELATIVE_OPS = frozenset(OP_ID[n] for n in ("beq", "bne", "blt", "bge", "bltu", "bgeu", "jal",
                                               "beqimm", "bneimm"))


def link(code: np.ndarray, slots: np.ndarray, slot_pc: np.ndarray, slot_of) -> None:
    """Fill the F_NEXT / F_TGT links of ``slots`` in ``code`` (int32[nslots, NF]).

    The engine follows them instead of looking the next pc up in the pc map, which takes a
    dependent load off every instruction's critical path.  ``slot_of(pc, region_pc)`` gives the
    slot decoded at ``pc`` or -1; a link never leaves the region of its instruction (the loop
    keeps the current region's bounds only when it looks a pc up).
    """
    for slot in slots:
        rec = code[slot]
        pc = int(slot_pc[slot])
        rec[L.F_NEXT] = slot_of(pc + int(rec[L.F_LEN]), pc)
        if int(rec[L.F_OP]) in PC_RELATIVE_OPS:
            rec[L.F_TGT] = slot_of((pc + int(rec[L.F_IMM])) & 0xFFFFFFFF, pc)
