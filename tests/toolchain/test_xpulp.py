"""The Xpulp tables (xpulpv2.toml, xcorev.toml) against their primary sources and llvm-mc-19.

Expected words and MATCH/MASK values below are typed in from
PULP binutils (pulp-platform/pulp-riscv-binutils-gdb ``include/opcode/riscv-opc.h``), the
CV32E40P v2 manual (``docs/source/instruction_set_extensions.rst``), llvm-mc-19 output and GNU
binutils' ``gas/testsuite/gas/riscv/cv-*.d``; not computed from the table.
"""

import shutil
import subprocess

import pytest

from toolchain import load_isa
from toolchain.disasm import disassemble_word
from toolchain.operands import OperandError, match_instruction, unknown_mnemonic_message
from toolchain.registers import XREGS
from toolchain.table import EncodeError

LLVM_MC = "llvm-mc-19"
LLVM_ATTRS = "+m,+f,+c,+xcvalu,+xcvmac,+xcvmem,+xcvbi,+xcvbitmanip,+xcvelw,+xcvsimd"


def _ev(text, field):
    return int(text, 0)


def _assemble(isa, line, pc=0):
    mnemonic, _, ops = line.strip().partition(" ")
    m = match_instruction(isa, mnemonic, ops, pc, _ev)
    return m, isa.encode(m.entry, m.values)


def _family_entries(family):
    return [e for e in load_isa(family).entries if e.family == family]


# ---- worked encodings (PULP binutils MATCH values, llvm-mc-19) ---------------------------------
# (PULP text, PULP word, PULP entry, its field values,
#  CV text, CV word, CV entry, its field values,
#  what LLVM 19 decodes the PULP word as: our corev entry name, or None for "unknown")
# Hardware-loop targets are addresses with the instruction at pc 0: PULP end = last body
# instruction (pc+20), CORE-V end = the address after it (pc+24).
A6 = [
    ("p.lw a0, 4(a1!)", 0x0045A50B, "p.lw", {"rd": 10, "rs1": 11, "imm12": 4},
     "cv.lw a0, (a1), 4", 0x0045A50B, "cv.lw", {"rd": 10, "rs1": 11, "imm12": 4}, "cv.lw"),
    ("p.sw a0, 4(a1!)", 0x00A5A22B, "p.sw", {"rs2": 10, "rs1": 11, "simm12": 4},
     "cv.sw a0, (a1), 4", 0x00A5A22B, "cv.sw", {"rs2": 10, "rs1": 11, "simm12": 4}, "cv.sw"),
    ("p.lw a0, a2(a1!)", 0x20C5F50B, "p.lw", {"rd": 10, "rs1": 11, "rs2": 12},
     "cv.lw a0, (a1), a2", 0x04C5B52B, "cv.lw", {"rd": 10, "rs1": 11, "rs2": 12}, "cv.bneimm"),
    ("p.lw a0, a2(a1)", 0x20C5F503, "p.lw", {"rd": 10, "rs1": 11, "rs2": 12},
     "cv.lw a0, a2(a1)", 0x0CC5B52B, "cv.lw", {"rd": 10, "rs1": 11, "rs2": 12}, None),
    ("p.sw a0, a2(a1!)", 0x00A5E62B, "p.sw", {"rs2": 10, "rs1": 11, "rs3": 12},
     "cv.sw a0, (a1), a2", 0x24A5B62B, "cv.sw", {"rs2": 10, "rs1": 11, "rs3": 12}, None),
    ("lp.setupi x0, 100, 20", 0x0645507B, "lp.setupi",
     {"lp_l": 0, "lp_count": 100, "lp_off5": 20},
     "cv.setupi 0, 100, 24", 0x0643462B, "cv.setupi",
     {"cv_l": 0, "lp_count": 100, "cv_off5": 24}, None),
    ("lp.setup x1, a0, 20", 0x00A540FB, "lp.setup", {"lp_l": 1, "rs1": 10, "lp_off12": 20},
     "cv.setup 1, a0, 24", 0x006547AB, "cv.setup", {"cv_l": 1, "rs1": 10, "cv_off12": 24},
     "cv.add.sc.h"),  # LLVM decodes it as this SIMD instruction too
    ("p.mac a0, a1, a2", 0x42C58533, "p.mac", {"rd": 10, "rs1": 11, "rs2": 12},
     "cv.mac a0, a1, a2", 0x90C5B52B, "cv.mac", {"rd": 10, "rs1": 11, "rs2": 12}, None),
    ("p.abs a0, a1", 0x04058533, "p.abs", {"rd": 10, "rs1": 11},
     "cv.abs a0, a1", 0x5005B52B, "cv.abs", {"rd": 10, "rs1": 11}, None),
    ("p.addn a0, a1, a2, 3", 0x06C5A55B, "p.addn", {"rd": 10, "rs1": 11, "rs2": 12, "is3": 3},
     "cv.addN a0, a1, a2, 3", 0x06C5A55B, "cv.addn", {"rd": 10, "rs1": 11, "rs2": 12, "is3": 3},
     "cv.addn"),
    ("p.addrnr a0, a1, a2", 0x40C5E55B, "p.addrnr", {"rd": 10, "rs1": 11, "rs2": 12},
     "cv.addRNr a0, a1, a2", 0x84C5B52B, "cv.addrnr", {"rd": 10, "rs1": 11, "rs2": 12},
     "cv.machhsn"),
    ("p.muls a0, a1, a2", 0x80C5855B, "p.mulsn", {"rd": 10, "rs1": 11, "rs2": 12, "is3": 0},
     "cv.muls a0, a1, a2", 0x00C5C55B, "cv.mulsn", {"rd": 10, "rs1": 11, "rs2": 12, "is3": 0},
     "cv.insert"),
]


def _side(row, family):
    if family == "xpulpv2":
        return row[0], row[1], row[2], row[3]
    return row[4], row[5], row[6], row[7]


@pytest.mark.parametrize("family", ["xpulpv2", "corev"])
@pytest.mark.parametrize("row", A6, ids=[f"{r[0]} | {r[4]}" for r in A6])
def test_a6_worked_encodings(row, family):
    text, word, name, values = _side(row, family)
    isa = load_isa(family)
    d = isa.decode(word)
    assert d is not None, f"{word:#010x} does not decode under {family}"
    assert d.entry.name == name and d.entry.family == family
    assert d.values == values
    m, got = _assemble(isa, text)
    assert got == word, f"{text}: {got:#010x} != {word:#010x}"
    assert m.entry.family == family
    # the disassembly assembles back to the same word
    mnemonic, _, ops = disassemble_word(isa, word).partition(" ")
    assert _assemble(isa, f"{mnemonic} {ops}")[1] == word


@pytest.mark.parametrize("row", A6, ids=[r[0] for r in A6])
def test_a6_cross_family(row):
    """A PULP word means something else under corev (and a CV word under xpulpv2)."""
    pulp_word, cv_word, llvm_name = row[1], row[5], row[8]
    pulp = load_isa("xpulpv2").decode(pulp_word)
    cv = load_isa("corev").decode(cv_word)
    under_cv = load_isa("corev").decode(pulp_word)
    assert (under_cv.entry.name if under_cv else None) == llvm_name
    under_pulp = load_isa("xpulpv2").decode(cv_word)
    if pulp_word == cv_word:   # the few bit-identical encodings (section 0)
        assert under_cv.entry.op == pulp.entry.op and under_pulp.entry.op == cv.entry.op
    else:
        assert under_cv is None or under_cv.entry.op != pulp.entry.op
        assert under_pulp is None or under_pulp.entry.op != cv.entry.op


# cv.* words as llvm-mc-19 and the GNU CORE-V tests (cv-*.d) give them (no tool needed)
SECTION_D = [
    ("cv.lw a0, (a1), 4", 0x0045A50B), ("cv.lw t0, (t2), -2048", 0x8003A28B),
    ("cv.lw a0, (a1), a2", 0x04C5B52B), ("cv.lw a0, a2(a1)", 0x0CC5B52B),
    ("cv.sw t5, (t2), t6", 0x25E3BFAB), ("cv.sw a0, a2(a1)", 0x2CA5B62B),
    ("cv.mac a0, a1, a2", 0x90C5B52B), ("cv.msu a0, a1, a2", 0x92C5B52B),
    ("cv.mac t0, t1, t2", 0x907332AB), ("cv.muls a0, a1, a2", 0x00C5C55B),
    ("cv.mulsN a0, a1, a2, 5", 0x0AC5C55B), ("cv.machhuRN a0, a1, a2, 5", 0xCAC5F55B),
    ("cv.abs a0, a1", 0x5005B52B), ("cv.slet a0, a1, a2", 0x52C5B52B),
    ("cv.clip a0, a1, 5", 0x7055B52B), ("cv.addN a0, a1, a2, 3", 0x06C5A55B),
    ("cv.adduRN a0, a1, a2, 3", 0xC6C5A55B), ("cv.addNr a0, a1, a2", 0x80C5B52B),
    ("cv.subuRNr a0, a1, a2", 0x8EC5B52B), ("cv.extract a0, a1, 3, 4", 0x0645855B),
    ("cv.bitrev a0, a1, 1, 4", 0xC245955B), ("cv.ror a0, a1, a2", 0x40C5B52B),
    ("cv.beqimm a0, 5, 16", 0x0055680B), ("cv.elw a0, 4(a1)", 0x0045B50B),
    ("cv.setupi 0, 100, 20", 0x0642C62B),
]


@pytest.mark.parametrize("line, word", SECTION_D, ids=[r[0] for r in SECTION_D])
def test_section_d_cv_words(line, word):
    isa = load_isa("corev")
    assert _assemble(isa, line)[1] == word
    d = isa.decode(word)
    name = line.split()[0].lower()
    assert d.entry.name == {"cv.muls": "cv.mulsn"}.get(name, name)


def test_a6_disassembly_text():
    pulp = load_isa("xpulpv2")
    assert disassemble_word(pulp, 0x0045A50B) == "p.lw a0,4(a1!)"
    assert disassemble_word(pulp, 0x20C5F50B) == "p.lw a0,a2(a1!)"
    assert disassemble_word(pulp, 0x00A5E62B) == "p.sw a0,a2(a1!)"
    assert disassemble_word(pulp, 0x80C5855B) == "p.muls a0,a1,a2"
    assert disassemble_word(pulp, 0x0645507B, pc=0x100) == "lp.setupi x0,100,0x114"
    cv = load_isa("corev")
    assert disassemble_word(cv, 0x0045A50B) == "cv.lw a0,(a1),4"
    assert disassemble_word(cv, 0x0CC5B52B) == "cv.lw a0,a2(a1)"
    assert disassemble_word(cv, 0x25E3BFAB) == "cv.sw t5,(t2),t6"
    assert disassemble_word(cv, 0x0643462B, pc=0x100) == "cv.setupi 0,100,0x118"


# ---- Xpulpv2 MATCH / MASK (PULP binutils include/opcode/riscv-opc.h) --------------------------
_R, _R1, _BI, _I = 0xFE00707F, 0xFFF0707F, 0xC000707F, 0x707F
PULP_MATCH = {
    ("lp.starti", ""): (0x0007B, 0x000FF07F),
    ("lp.endi", ""): (0x0107B, 0x000FF07F),
    ("lp.count", ""): (0x0207B, 0xFFF0707F),
    ("lp.counti", ""): (0x0307B, 0x000FF07F),
    ("lp.setup", ""): (0x0407B, 0x0000707F),
    ("lp.setupi", ""): (0x0507B, 0x0000707F),
    ("p.elw", ""): (0x6003, _I),
    ("p.beqimm", ""): (0x2063, _I),
    ("p.bneimm", ""): (0x3063, _I),
    ("p.abs", ""): (0x04000033, _R1),
    ("p.slet", ""): (0x04002033, _R),
    ("p.sletu", ""): (0x04003033, _R),
    ("p.min", ""): (0x04004033, _R),
    ("p.minu", ""): (0x04005033, _R),
    ("p.max", ""): (0x04006033, _R),
    ("p.maxu", ""): (0x04007033, _R),
    ("p.ror", ""): (0x08005033, _R),
    ("p.ff1", ""): (0x10000033, _R1),
    ("p.fl1", ""): (0x10001033, _R1),
    ("p.clb", ""): (0x10002033, _R1),
    ("p.cnt", ""): (0x10003033, _R1),
    ("p.exths", ""): (0x10004033, _R1),
    ("p.exthz", ""): (0x10005033, _R1),
    ("p.extbs", ""): (0x10006033, _R1),
    ("p.extbz", ""): (0x10007033, _R1),
    ("p.clip", ""): (0x14001033, _R),
    ("p.clipu", ""): (0x14002033, _R),
    ("p.clipr", ""): (0x14005033, _R),
    ("p.clipur", ""): (0x14006033, _R),
    ("p.extract", ""): (0xC0000033, _BI),
    ("p.extractu", ""): (0xC0001033, _BI),
    ("p.insert", ""): (0xC0002033, _BI),
    ("p.bclr", ""): (0xC0003033, _BI),
    ("p.bset", ""): (0xC0004033, _BI),
    ("p.extractr", ""): (0x80000033, _R),
    ("p.extractur", ""): (0x80001033, _R),
    ("p.insertr", ""): (0x80002033, _R),
    ("p.bclrr", ""): (0x80003033, _R),
    ("p.bsetr", ""): (0x80004033, _R),
    ("p.addn", ""): (0x0000205B, _BI),
    ("p.addun", ""): (0x8000205B, _BI),
    ("p.addrn", ""): (0x0000605B, _BI),
    ("p.addurn", ""): (0x8000605B, _BI),
    ("p.subn", ""): (0x0000305B, _BI),
    ("p.subun", ""): (0x8000305B, _BI),
    ("p.subrn", ""): (0x0000705B, _BI),
    ("p.suburn", ""): (0x8000705B, _BI),
    ("p.addnr", ""): (0x4000205B, _R),
    ("p.addunr", ""): (0xC000205B, _R),
    ("p.addrnr", ""): (0x4000605B, _R),
    ("p.addurnr", ""): (0xC000605B, _R),
    ("p.subnr", ""): (0x4000305B, _R),
    ("p.subunr", ""): (0xC000305B, _R),
    ("p.subrnr", ""): (0x4000705B, _R),
    ("p.suburnr", ""): (0xC000705B, _R),
    ("p.mac", ""): (0x42000033, _R),
    ("p.msu", ""): (0x42001033, _R),
    # binutils' immediate spellings: the same MATCH/MASK as the plain names
    ("p.clipi", "alias"): (0x14001033, _R),
    ("p.clipui", "alias"): (0x14002033, _R),
    ("p.extracti", "alias"): (0xC0000033, _BI),
    ("p.extractui", "alias"): (0xC0001033, _BI),
    ("p.inserti", "alias"): (0xC0002033, _BI),
    ("p.bclri", "alias"): (0xC0003033, _BI),
    ("p.bseti", "alias"): (0xC0004033, _BI),
    ("p.addni", "alias"): (0x0000205B, _BI),
    ("p.adduni", "alias"): (0x8000205B, _BI),
    ("p.addrni", "alias"): (0x0000605B, _BI),
    ("p.addurni", "alias"): (0x8000605B, _BI),
    ("p.subni", "alias"): (0x0000305B, _BI),
    ("p.subuni", "alias"): (0x8000305B, _BI),
    ("p.subrni", "alias"): (0x0000705B, _BI),
    ("p.suburni", "alias"): (0x8000705B, _BI),
}
for _i, _v in enumerate(["u", "hhu", "s", "hhs"]):
    _f2 = _i << 30
    PULP_MATCH[(f"p.mul{_v}n", "")] = (_f2 | 0x005B, _BI)
    PULP_MATCH[(f"p.mul{_v}rn", "")] = (_f2 | 0x405B, _BI)
    PULP_MATCH[(f"p.mac{_v}n", "")] = (_f2 | 0x105B, _BI)
    PULP_MATCH[(f"p.mac{_v}rn", "")] = (_f2 | 0x505B, _BI)
    PULP_MATCH[(f"p.mul{_v}", "alias")] = (_f2 | 0x005B, _R)
    PULP_MATCH[(f"p.mac{_v}", "alias")] = (_f2 | 0x105B, _R)
# p.mul, p.mulh*, p.div*, p.rem* are the RV32M encodings (OP, funct7 0000001; riscv-opc.c)
for _i, _n in enumerate(["mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu"]):
    PULP_MATCH[(f"p.{_n}", "alias")] = (0x02000033 | _i << 12, _R)
# memory forms: (b, bu, h, hu, w) as in riscv-opc.h
for _s, _m in zip(["b", "bu", "h", "hu", "w"], [0x0, 0x4, 0x1, 0x5, 0x2], strict=True):
    PULP_MATCH[(f"p.l{_s}", "rd, imm12(rs1!)")] = (_m << 12 | 0x0B, _I)
    PULP_MATCH[(f"p.l{_s}", "rd, rs2(rs1!)")] = (_m << 28 | 0x700B, _R)
    PULP_MATCH[(f"p.l{_s}", "rd, rs2(rs1)")] = (_m << 28 | 0x7003, _R)
for _s, _m in zip(["b", "h", "w"], [0x002B, 0x102B, 0x202B], strict=True):
    PULP_MATCH[(f"p.s{_s}", "rs2, simm12(rs1!)")] = (_m, _I)
    PULP_MATCH[(f"p.s{_s}", "rs2, rs3(rs1!)")] = (_m + 0x4000, _R)
    PULP_MATCH[(f"p.s{_s}", "rs2, rs3(rs1)")] = (_m + 0x4000 - 0x2B + 0x23, _R)


def _pulp_key(entry):
    memory = entry.op.endswith(("_pi", "_pr", "_rr"))
    return (entry.name, entry.templates[0].text if memory else "")


def test_pulp_match_mask_equal_binutils():
    seen = set()
    for e in _family_entries("xpulpv2"):
        if e.name.startswith("pv."):
            continue    # test_xpulp_simd.py
        key = _pulp_key(e)
        assert key in PULP_MATCH, f"{key} has no MATCH/MASK from the spec"
        seen.add(key)
        match, mask = PULP_MATCH[key]
        if e.name.startswith("lp."):
            # binutils' L operand is the 5-bit rd field limited to x0/x1 by the assembler; we
            # decode like GVSoC (L = bit 7, bits 11..8 must be 0), so those 4 bits join MASK.
            mask |= 0xF00
        assert (e.match, e.mask) == (match, mask), (
            f"{key}: ({e.match:#010x}, {e.mask:#010x}) != ({match:#010x}, {mask:#010x})")
    for a in load_isa("xpulpv2").aliases:
        if not a.name.startswith("p."):
            continue
        key = (a.name, "alias")
        assert key in PULP_MATCH
        seen.add(key)
        target = a.mapping.target
        match, mask = target.match, target.mask
        for tname, (kind, value) in a.mapping.sources:
            if kind == "const":
                match |= target.fields[tname].insert(value)
                mask |= target.fields[tname].inst_mask
        assert (match, mask) == PULP_MATCH[key], a.name
    assert seen == set(PULP_MATCH)


# ---- selections, contract with the simulator ----------------------------------------------------
def test_selections_keep_families_apart():
    none = load_isa("none")
    assert not [e for e in none.entries if e.family]
    assert not [n for n in none.by_name if n.startswith(("p.", "lp.", "cv."))]
    assert not [n for n in load_isa("xpulpv2").by_name if n.startswith("cv.")]
    assert not [n for n in load_isa("corev").by_name if n.startswith(("p.", "lp."))]
    assert len(_family_entries("xpulpv2")) == 97 + 200   # scalar + pv.* (test_xpulp_simd.py)
    assert len(_family_entries("corev")) == 100 + 201


OPS = {
    "lb_pi", "lh_pi", "lw_pi", "lbu_pi", "lhu_pi", "lb_pr", "lh_pr", "lw_pr", "lbu_pr", "lhu_pr",
    "lb_rr", "lh_rr", "lw_rr", "lbu_rr", "lhu_rr", "sb_pi", "sh_pi", "sw_pi", "sb_pr", "sh_pr",
    "sw_pr", "sb_rr", "sh_rr", "sw_rr", "elw", "lp_starti", "lp_endi", "lp_count", "lp_counti",
    "lp_setup", "lp_setupi", "lp_start", "cv_endi", "cv_end", "cv_setup", "cv_setupi", "mac",
    "msu", "abs", "slet", "sletu", "min", "minu", "max", "maxu", "ror", "ff1", "fl1", "clb",
    "cnt", "exths", "exthz", "extbs", "extbz", "clip", "clipu", "clipr", "clipur", "cv_clipr",
    "cv_clipur", "extract", "extractu", "insert", "bclr", "bset", "extractr", "extractur",
    "insertr", "bclrr", "bsetr", "bitrev", "addn", "addun", "addrn", "addurn", "subn", "subun",
    "subrn", "suburn", "addnr", "addunr", "addrnr", "addurnr", "subnr", "subunr", "subrnr",
    "suburnr", "mulsn", "mulhhsn", "mulun", "mulhhun", "mulsrn", "mulhhsrn", "mulurn", "mulhhurn",
    "macsn", "machhsn", "macun", "machhun", "macsrn", "machhsrn", "macurn", "machhurn", "beqimm",
    "bneimm"
} | {f"simd_{o}_{v}" for o in ("add sub avg avgu min minu max maxu srl sra sll or xor and dotup "
                               "dotusp dotsp sdotup sdotusp sdotsp cmpeq cmpne cmpgt cmpge cmplt "
                               "cmple cmpgtu cmpgeu cmpltu cmpleu").split()
     for v in ("h", "b", "sc_h", "sc_b", "sci_h", "sci_b")} | {
    "simd_abs_h", "simd_abs_b", "simd_extract_h", "simd_extract_b", "simd_extractu_h",
    "simd_extractu_b", "simd_insert_h", "simd_insert_b", "simd_shuffle_h", "simd_shuffle_b",
    "simd_shuffle_sci_h", "simd_shufflei0_sci_b", "simd_shufflei1_sci_b", "simd_shufflei2_sci_b",
    "simd_shufflei3_sci_b", "simd_shuffle2_h", "simd_shuffle2_b", "simd_pack_h", "simd_pack_hi_h",
    "simd_packhi_b", "simd_packlo_b"}
READS_RD = {"mac", "msu", "insert", "insertr", "simd_insert_h", "simd_insert_b", "simd_shuffle2_h",
            "simd_shuffle2_b", "simd_packhi_b", "simd_packlo_b"}


def _contract(e):
    slots = {f.slot: f.kind for f in e.fields.values() if f.slot != "none"}
    if e.timing == "hwloop":
        del slots["rd"]   # L is written x0/x1 in PULP syntax, 0/1 in CORE-V syntax
    return slots, e.reads, e.writes, e.timing


def _timing(op):
    if op.endswith(("_pi", "_pr", "_rr")):
        return "load" if op.startswith("l") else "store"
    if op in ("elw", "beqimm", "bneimm"):
        return "elw" if op == "elw" else "branch"
    if op.startswith(("lp_", "cv_end", "cv_setup")):
        return "hwloop"
    return "alu"


@pytest.mark.parametrize("family", ["xpulpv2", "corev"])
def test_ops_roles_and_slots(family):
    for e in _family_entries(family):
        assert e.op in OPS, e.name
        reads_rd = (e.op in READS_RD or e.op.startswith(("mac", "simd_sdot"))
                    or (e.op.endswith("nr") and e.op[:3] in ("add", "sub")))
        assert e.reads == (("rd",) if reads_rd else ()), e.name
        post = e.op.endswith(("_pi", "_pr"))
        assert e.writes == (("rs1",) if post else ()), e.name
        assert e.timing == _timing(e.op), e.name
        if e.timing == "hwloop":
            (lf,) = [f for f in e.fields.values() if f.slot == "rd"]
            assert lf.role == "none" and lf.value_range() == (0, 1)


def test_same_op_same_operands_across_families():
    pulp = {e.op: e for e in _family_entries("xpulpv2")}
    cv = {e.op: e for e in _family_entries("corev")}
    assert len(pulp) == len(_family_entries("xpulpv2")) and len(cv) == len(_family_entries("corev"))
    common = set(pulp) & set(cv)
    assert set(pulp) - common == {"lp_endi", "lp_setup", "lp_setupi", "clipr", "clipur"}
    assert set(cv) - common == {"lp_start", "cv_endi", "cv_end", "cv_setup", "cv_setupi",
                                "cv_clipr", "cv_clipur", "bitrev", "simd_pack_hi_h"}
    for op in common:
        assert _contract(pulp[op]) == _contract(cv[op]), op


# ---- wrong family ---------------------------------------------------------------------------
@pytest.mark.parametrize("family, line, other", [
    ("corev", "p.mac a0, a1, a2", "xpulpv2"),
    ("corev", "lp.setupi x0, 10, 20", "xpulpv2"),
    ("corev", "P.ADDN a0, a1, a2, 3", "xpulpv2"),
    ("xpulpv2", "cv.mac a0, a1, a2", "corev"),
    ("xpulpv2", "cv.setupi 0, 10, 20", "corev"),
    ("none", "p.lw a0, 4(a1!)", "xpulpv2"),
    ("none", "cv.lw a0, (a1), 4", "corev"),
])
def test_other_family_mnemonic_is_named(family, line, other):
    isa = load_isa(family)
    mnemonic, _, ops = line.partition(" ")
    with pytest.raises(OperandError) as info:
        match_instruction(isa, mnemonic, ops, 0, _ev)
    assert info.value.message == unknown_mnemonic_message(isa, mnemonic.lower())
    assert f"is a {other} instruction" in info.value.message


def test_pulp_rv32m_aliases():
    """p.mul, p.mulh*, p.div*, p.rem* are the RV32M words and disassemble as RV32M."""
    isa = load_isa("xpulpv2")
    for n in ("mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu"):
        m, word = _assemble(isa, f"p.{n} a0, a1, a2")
        assert m.entry.name == n and word == _assemble(isa, f"{n} a0, a1, a2")[1]
        assert disassemble_word(isa, word) == f"{n} a0,a1,a2"


def test_mnemonics_are_case_insensitive():
    assert _assemble(load_isa("xpulpv2"), "P.MULSN a0, a1, a2, 5")[1] == 0x8AC5855B
    assert _assemble(load_isa("corev"), "cv.mulsN a0, a1, a2, 5")[1] == 0x0AC5C55B


# ---- hardware-loop offsets ---------------------------------------------------------------------
@pytest.mark.parametrize("family, line, pc, why", [
    ("xpulpv2", "lp.setup x0, a0, 0xfe", 0x100, r"reaches \[0, 8191\] in steps of 2"),
    ("xpulpv2", "lp.endi x1, 0x105", 0x100, r"reaches \[0, 8191\] in steps of 2"),
    ("xpulpv2", "lp.starti x0, 0x2100", 0x100, r"reaches \[0, 8191\]"),
    ("xpulpv2", "lp.setupi x0, 5, 0xf0", 0x100, r"reaches \[0, 63\]"),
    ("xpulpv2", "lp.setupi x0, 5, 0x140", 0x100, r"reaches \[0, 63\]"),
    ("xpulpv2", "lp.setupi x0, 5, 0x103", 0x100, r"reaches \[0, 63\] in steps of 2"),
    ("xpulpv2", "lp.setupi x2, 5, 0x104", 0x100, r"x0 or x1"),
    ("xpulpv2", "lp.counti x0, 4096", 0x100, r"\[0, 4095\]"),
    ("corev", "cv.setup 0, a0, 0xfc", 0x100, r"reaches \[0, 16383\] in steps of 4"),
    ("corev", "cv.endi 1, 0x106", 0x100, r"reaches \[0, 16383\] in steps of 4"),
    ("corev", "cv.starti 0, 0x4100", 0x100, r"reaches \[0, 16383\]"),
    ("corev", "cv.setupi 0, 5, 0x180", 0x100, r"reaches \[0, 127\]"),
    ("corev", "cv.setupi 0, 5, 0x112", 0x100, r"reaches \[0, 127\] in steps of 4"),
    ("corev", "cv.setupi 2, 5, 0x110", 0x100, r"\[0, 1\]"),
])
def test_hwloop_bad_targets_are_refused(family, line, pc, why):
    with pytest.raises(OperandError, match=why):
        _assemble(load_isa(family), line, pc)


def test_hwloop_limits_are_accepted_and_encode_refuses_raw_values():
    pulp = load_isa("xpulpv2")
    assert _assemble(pulp, "lp.setup x0, a0, 0x2100", 0x102)[0].values["lp_off12"] == 8190
    assert _assemble(pulp, "lp.setupi x1, 4095, 0x13e", 0x100)[1] == 0xFFFFD0FB
    (e,) = pulp.by_name["lp.setupi"]
    for bad, msg in [(-2, r"out of range \[0, 63\]"), (64, r"out of range \[0, 63\]"),
                     (3, "multiple of 2")]:
        with pytest.raises(EncodeError, match=msg):
            pulp.encode(e, {"lp_l": 0, "lp_count": 1, "lp_off5": bad})
    cv = load_isa("corev")
    (e,) = cv.by_name["cv.setup"]
    with pytest.raises(EncodeError, match=r"out of range \[0, 16383\]"):
        cv.encode(e, {"cv_l": 0, "rs1": 10, "cv_off12": -4})


# ---- llvm-mc-19: every cv.* entry, and .insn for the hardware loops -----------------------------
_REGS = [
    {"rd": "a0", "rs1": "a1", "rs2": "a2", "rs3": "a3"},
    {"rd": "t6", "rs1": "s0", "rs2": "ra", "rs3": "zero"},
    {"rd": "ra", "rs1": "t6", "rs2": "s11", "rs3": "gp"},
]


def _imm_choices(f):
    lo, hi = f.value_range()
    a = f.align
    hi -= hi % a
    mid = (-3 if f.signed else 3) * a
    return [min(mid, hi), lo, hi]


def _fill(tpl, fields, variant, pc=0):
    """Operand text for ``tpl`` with registers of ``variant`` and its immediate choice; targets
    are written as pc + offset (llvm-mc takes the offset itself: use pc 0)."""
    def one(name):
        f = fields[name]
        if f.kind == "xreg":
            return _REGS[variant][name]
        if f.kind == "loop":
            return f"x{variant % 2}"
        value = _imm_choices(f)[variant]
        return hex(pc + value) if f.kind == "pcrel" else str(value)

    parts = []
    for p in tpl.patterns:
        if p.literal is not None:
            parts.append(p.literal)
        elif p.is_memory:
            off = one(p.field) if p.field else ""
            parts.append(f"{off}({one(p.base)}{'!' if p.bang else ''})")
        else:
            parts.append(one(p.field))
    return ", ".join(parts)


@pytest.mark.parametrize("family", ["xpulpv2", "corev"])
def test_every_entry_round_trips(family):
    """text -> word -> decode (same entry) -> disassembly -> the same word, 3 operand choices."""
    isa = load_isa(family)
    for e in _family_entries(family):
        for variant in range(3):
            line = f"{e.name} {_fill(e.templates[0], e.fields, variant, pc=0x10000)}"
            m, word = _assemble(isa, line, 0x10000)
            assert m.entry is e, line
            d = isa.decode(word)
            assert d.entry is e and d.values == m.values, line
            mnemonic, _, ops = disassemble_word(isa, word, 0x10000).partition(" ")
            assert _assemble(isa, f"{mnemonic} {ops}", 0x10000)[1] == word, line


def _cv_lines():
    """(line, our word) for every cv.* entry and alias LLVM supports (not the hardware loops)."""
    isa = load_isa("corev")
    out = []
    owners = [e for e in _family_entries("corev") if e.timing != "hwloop"]
    owners += [a for a in isa.aliases if a.name.startswith("cv.")]
    for owner in owners:
        for variant in range(3):
            line = f"{owner.name} {_fill(owner.templates[0], owner.fields, variant)}"
            out.append((line, _assemble(isa, line)[1]))
    return out


# Hardware-loop layouts as PULP binutils and the CV32E40P v2 manual give them: operand shape and
# funct3/funct4.
PULP_HWLOOP = {"lp.starti": ("off", 0), "lp.endi": ("off", 1), "lp.count": ("reg", 2),
               "lp.counti": ("cnt", 3), "lp.setup": ("reg,off", 4), "lp.setupi": ("cnt,off5", 5)}
CV_HWLOOP = {"cv.starti": ("off", 0), "cv.start": ("reg", 1), "cv.endi": ("off", 2),
             "cv.end": ("reg", 3), "cv.counti": ("cnt", 4), "cv.count": ("reg", 5),
             "cv.setupi": ("cnt,off5", 6), "cv.setup": ("reg,off", 7)}


def _hwloop_lines():
    """(.insn line built from the spec's layout, our word for the same hardware loop)."""
    out = []
    for family, table, scale in [("xpulpv2", PULP_HWLOOP, 2), ("corev", CV_HWLOOP, 4)]:
        isa = load_isa(family)
        for name, (shape, funct) in table.items():
            for loop, reg, cnt, off, off5 in [(0, "a0", 100, 5, 5), (1, "t6", 4095, 4095, 31),
                                              (1, "ra", 0, 0, 0), (0, "s1", 2048, 2048, 16)]:
                ops = [f"x{loop}" if family == "xpulpv2" else str(loop)]
                hi, lo = 0, 0   # the values of bits 31..20 and 19..15
                for part in shape.split(","):
                    if part == "reg":
                        ops.append(reg)
                        lo = XREGS[reg]
                    elif part == "cnt":
                        ops.append(str(cnt))
                        hi = cnt
                    elif part == "off":
                        ops.append(str(off * scale))
                        hi = off
                    else:
                        ops.append(str(off5 * scale))
                        lo = off5
                word = _assemble(isa, f"{name} {', '.join(ops)}")[1]
                simm = hi - 4096 if hi >= 2048 else hi
                if family == "xpulpv2":
                    insn = f".insn i 0x7b, {funct}, x{loop}, x{lo}, {simm}"
                else:
                    insn = f".insn i 0x2b, 4, x{funct * 2 + loop}, x{lo}, {simm}"
                out.append((insn, word))
    return out


def test_hwloop_insn_forms_of_section_d():
    """The two .insn equivalences section D ran through both llvm-mc-19 and GNU as."""
    assert _assemble(load_isa("xpulpv2"), "lp.setupi x0, 100, 20")[1] == 0x0645507B
    assert _assemble(load_isa("corev"), "cv.setupi 0, 100, 20")[1] == 0x0642C62B


@pytest.fixture(scope="module")
def llvm_words():
    """Run llvm-mc-19 once on every generated line; map line -> encoded word."""
    if shutil.which(LLVM_MC) is None:
        pytest.skip(f"{LLVM_MC} not installed")
    cv = _cv_lines()
    hw = _hwloop_lines()
    lines = [line for line, _ in cv] + [line for line, _ in hw]
    proc = subprocess.run([LLVM_MC, "-triple=riscv32", f"-mattr={LLVM_ATTRS}", "-show-encoding"],
                          input="\n".join(lines) + "\n", capture_output=True, text=True,
                          timeout=60)
    assert "error" not in proc.stderr, proc.stderr[:3000]
    words = []
    for out in proc.stdout.splitlines():
        if "# encoding: [" in out:
            raw = out.split("# encoding: [", 1)[1].split("]", 1)[0]
            words.append(int.from_bytes(bytes(int(b, 16) for b in raw.split(",")), "little"))
    assert len(words) == len(lines)
    return dict(zip(lines, words, strict=True)), cv, hw


@pytest.mark.needs_tool
def test_cv_matches_llvm_mc(llvm_words):
    ref, cv, _ = llvm_words
    # every non-loop cv.* entry (92 scalar, 201 SIMD) and the 4 aliases
    assert len(cv) == 3 * (92 + 201 + 4)
    bad = [f"{line}: ours {ours:#010x}, llvm {ref[line]:#010x}"
           for line, ours in cv if ref[line] != ours]
    assert not bad, "\n".join(bad)


@pytest.mark.needs_tool
def test_hwloops_match_insn_forms(llvm_words):
    ref, _, hw = llvm_words
    assert len(hw) == 4 * (len(PULP_HWLOOP) + len(CV_HWLOOP))
    bad = [f"{line}: ours {ours:#010x}, llvm {ref[line]:#010x}"
           for line, ours in hw if ref[line] != ours]
    assert not bad, "\n".join(bad)
