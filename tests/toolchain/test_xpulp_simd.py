"""Packed SIMD in the tables: pv.* against PULP binutils and the worked encodings, errors.

The words and MATCH values below are typed in from the reference (PULP binutils'
``include/opcode/riscv-opc.h`` MATCH_V_OP_* values and ``opcodes/riscv-opc.c`` operand kinds,
the worked encodings computed from them), not computed from the table.  The cv.* SIMD entries
are compared with llvm-mc-19 (``+xcvsimd``) in test_xpulp.py, and every entry of both families
round-trips through the disassembler there.
"""

import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from toolchain import load_isa
from toolchain.asm import AsmError, assemble
from toolchain.disasm import disassemble_word
from toolchain.operands import OperandError, match_instruction

# `pv.OP.h a0, a1, a2` (one-operand `pv.abs.h a0, a1`) as the reference lists them
PV_H_WORDS = {
    "add": 0x00C58557, "sub": 0x08C58557, "avg": 0x10C58557, "avgu": 0x18C58557,
    "min": 0x20C58557, "minu": 0x28C58557, "max": 0x30C58557, "maxu": 0x38C58557,
    "srl": 0x40C58557, "sra": 0x48C58557, "sll": 0x50C58557, "or": 0x58C58557,
    "xor": 0x60C58557, "and": 0x68C58557, "dotup": 0x80C58557, "dotusp": 0x88C58557,
    "dotsp": 0x98C58557, "sdotup": 0xA0C58557, "sdotusp": 0xA8C58557, "sdotsp": 0xB8C58557,
    "cmpeq": 0x04C58557, "cmpne": 0x0CC58557, "cmpgt": 0x14C58557, "cmpge": 0x1CC58557,
    "cmplt": 0x24C58557, "cmple": 0x2CC58557, "cmpgtu": 0x34C58557, "cmpgeu": 0x3CC58557,
    "cmpltu": 0x44C58557, "cmpleu": 0x4CC58557,
}
# binutils operand kind of each .sci immediate: bs signed, bu unsigned, bU shift
SCI_KIND = {op: "bs" for op in PV_H_WORDS}
SCI_KIND.update({op: "bu" for op in ("avgu", "minu", "maxu", "dotup", "sdotup", "cmpgtu",
                                     "cmpgeu", "cmpltu", "cmpleu")})
SCI_KIND.update({op: "bU" for op in ("srl", "sra", "sll")})
SCI_RANGE = {"bs": (-32, 31), "bu": (0, 63), "bU": (0, 31)}
F3 = {"h": 0, "b": 1, "sc.h": 4, "sc.b": 5, "sci.h": 6, "sci.b": 7}
MASK_V_OP, MASK_V_OP1, MASK_V_OP2 = 0xFE00707F, 0xFC00707F, 0xFFF0707F
GNU_AS = "riscv64-unknown-elf-as"

WORKED = [
    ("pv.abs.h a0, a1", 0x70058557),
    ("pv.add.sci.h a0, a1, -3", 0x03E5E557),
    ("pv.extract.h a0, a1, 1", 0x7A05E557),
    ("pv.extract.b a0, a1, 3", 0x7A15F557),
    ("pv.extractu.h a0, a1, 1", 0x9205E557),
    ("pv.extractu.b a0, a1, 2", 0x9015F557),
    ("pv.insert.h a0, a1, 1", 0xB205E557),
    ("pv.insert.b a0, a1, 3", 0xB215F557),
    ("pv.shuffle.h a0, a1, a2", 0xC0C58557),
    ("pv.shuffle.sci.h a0, a1, 1", 0xC205E557),
    ("pv.shuffle.b a0, a1, a2", 0xC0C59557),
    ("pv.shufflei0.sci.b a0, a1, 27", 0xC2D5F557),
    ("pv.shufflei1.sci.b a0, a1, 27", 0xEAD5F557),
    ("pv.shufflei2.sci.b a0, a1, 27", 0xF2D5F557),
    ("pv.shufflei3.sci.b a0, a1, 27", 0xFAD5F557),
    ("pv.shuffle2.h a0, a1, a2", 0xC8C58557),
    ("pv.shuffle2.b a0, a1, a2", 0xC8C59557),
    ("pv.pack.h a0, a1, a2", 0xD0C58557),
    ("pv.packhi.b a0, a1, a2", 0xD8C59557),
    ("pv.packlo.b a0, a1, a2", 0xE0C59557),
] + [(f"pv.{op}.h a0, a1, a2", w) for op, w in PV_H_WORDS.items()]


def _ev(text, field):
    return int(text, 0)


def _assemble(isa, line):
    mnemonic, _, ops = line.strip().partition(" ")
    m = match_instruction(isa, mnemonic, ops, 0, _ev)
    return m, isa.encode(m.entry, m.values)


@pytest.mark.parametrize("line, word", WORKED, ids=[w[0] for w in WORKED])
def test_worked_encodings_and_disassembly(line, word):
    isa = load_isa("xpulpv2")
    assert _assemble(isa, line)[1] == word
    assert disassemble_word(isa, word) == line.replace(", ", ",")


def test_every_lane_operation_has_binutils_match_mask_in_all_six_variants():
    """MATCH = the .h word's funct5/F | f3 << 12; MASK_V_OP (register forms) or MASK_V_OP1
    (.sci: bit 25 belongs to the immediate); pv.abs has MASK_V_OP2 (rs2 = 0)."""
    isa = load_isa("xpulpv2")
    seen = 0
    for op, h_word in PV_H_WORDS.items():
        base = h_word & 0xFC000000 | 0x57
        for variant, f3 in F3.items():
            (e,) = isa.by_name[f"pv.{op}.{variant}"]
            mask = MASK_V_OP1 if variant.startswith("sci") else MASK_V_OP
            assert (e.match, e.mask) == (base | f3 << 12, mask), e.name
            assert e.reads == (("rd",) if op.startswith("sdot") else ()), e.name
            seen += 1
    for w, f3 in (("h", 0), ("b", 1)):
        (e,) = isa.by_name[f"pv.abs.{w}"]
        assert (e.match, e.mask) == (0x70000057 | f3 << 12, MASK_V_OP2)
    assert seen == 180


@pytest.mark.parametrize("op", sorted(SCI_KIND))
def test_sci_immediates_take_binutils_ranges(op):
    isa = load_isa("xpulpv2")
    lo, hi = SCI_RANGE[SCI_KIND[op]]
    for w in ("h", "b"):
        for good in (lo, hi):
            m, word = _assemble(isa, f"pv.{op}.sci.{w} a0, a1, {good}")
            assert isa.decode(word).values[next(iter(
                n for n in m.values if n.startswith("sci")))] == good
        for bad in (lo - 1, hi + 1):
            with pytest.raises(OperandError, match="out of range"):
                _assemble(isa, f"pv.{op}.sci.{w} a0, a1, {bad}")


def test_sci_immediate_is_split_over_bits_24_20_and_25():
    """imm6 = {insn[24:20], insn[25]} (binutils ENCODE_I6TYPE_IMM): 1 sets bit 25 only, 2
    sets bit 20, -32 sets bit 24."""
    isa = load_isa("xpulpv2")
    assert _assemble(isa, "pv.add.sci.h x0, x0, 1")[1] == 0x02006057
    assert _assemble(isa, "pv.add.sci.h x0, x0, 2")[1] == 0x00106057
    assert _assemble(isa, "pv.add.sci.h x0, x0, -32")[1] == 0x01006057
    assert _assemble(load_isa("corev"), "cv.add.sci.h a0, a1, -32")[1] == 0x0105E57B


@pytest.mark.parametrize("family, line, why", [
    ("xpulpv2", "pv.extract.h a0, a1, 2", r"out of range \[0, 1\]"),
    ("xpulpv2", "pv.insert.b a0, a1, 4", r"out of range \[0, 3\]"),
    ("xpulpv2", "pv.sll.sci.b a0, a1, 32", r"out of range \[0, 31\]"),
    ("corev", "cv.sra.sci.h a0, a1, 16", r"out of range \[0, 15\]"),   # LLVM: [0, 15] too
    ("corev", "cv.sll.sci.b a0, a1, 8", r"out of range \[0, 7\]"),
    ("corev", "cv.shuffle.sci.h a0, a1, 64", r"out of range \[0, 63\]"),
])
def test_lane_indices_and_shift_amounts_out_of_range(family, line, why):
    with pytest.raises(OperandError, match=why):
        _assemble(load_isa(family), line)


@pytest.mark.parametrize("line, at, why", [
    ("pv.add.h a0, a1, 5", "5", "expected an integer register"),
    ("pv.add.sci.h a0, a1, a2", "a2", "expected an immediate"),
    ("pv.abs.b a0, a1, a2", "pv", "expected 2 operands"),
    ("pv.dotsp.h a0, a1", "pv", "expected 3 operands"),
    ("pv.sdotsp.sci.b a0, a1, 40", "40", "out of range"),
])
def test_wrong_operands_name_file_line_and_column(line, at, why):
    """The column is the operand at fault (the mnemonic for a wrong operand count)."""
    src = f"    .text\n    {line}\n"
    col = 5 + line.index(at)
    with pytest.raises(AsmError) as info:
        assemble(src, "simd.s")
    text = str(info.value)
    assert f"simd.s:2:{col}: error:" in text and why in text, text


def test_other_family_simd_mnemonic_is_named():
    with pytest.raises(AsmError, match="'cv.add.h' is a corev instruction"):
        assemble("    cv.add.h a0, a1, a2\n", "t.s", family="xpulpv2")
    with pytest.raises(AsmError, match="'pv.sdotsp.b' is a xpulpv2 instruction"):
        assemble("    pv.sdotsp.b a0, a1, a2\n", "t.s", family="corev")


def test_binutils_immediate_spellings():
    """p.clipi, p.extracti, ... assemble to the plain instruction and disassemble as it."""
    isa = load_isa("xpulpv2")
    for alias, plain in [("p.clipi a0, a1, 5", "p.clip a0, a1, 5"),
                         ("p.clipui a0, a1, 5", "p.clipu a0, a1, 5"),
                         ("p.extracti a0, a1, 3, 4", "p.extract a0, a1, 3, 4"),
                         ("p.extractui a0, a1, 3, 4", "p.extractu a0, a1, 3, 4"),
                         ("p.inserti a0, a1, 3, 4", "p.insert a0, a1, 3, 4"),
                         ("p.bclri a0, a1, 3, 4", "p.bclr a0, a1, 3, 4"),
                         ("p.bseti a0, a1, 3, 4", "p.bset a0, a1, 3, 4"),
                         ("p.addni a0, a1, a2, 3", "p.addn a0, a1, a2, 3"),
                         ("p.suburni a0, a1, a2, 3", "p.suburn a0, a1, a2, 3")]:
        word = _assemble(isa, alias)[1]
        assert word == _assemble(isa, plain)[1]
        assert disassemble_word(isa, word) == plain.replace(", ", ",")


def _gnu_words(lines: list[str]) -> list[int]:
    """The words GNU as assembles ``lines`` (all 32-bit) to."""
    elftools = pytest.importorskip("elftools.elf.elffile")
    if shutil.which(GNU_AS) is None:
        pytest.skip(f"{GNU_AS} not installed")
    with tempfile.TemporaryDirectory() as tmp:
        s, o = Path(tmp, "t.s"), Path(tmp, "t.o")
        s.write_text(".option norvc\n.text\n" + "\n".join(lines) + "\n")
        run = subprocess.run([GNU_AS, "-march=rv32i", "-mabi=ilp32", str(s), "-o", str(o)],
                             capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        with o.open("rb") as fh:
            text = elftools.ELFFile(fh).get_section_by_name(".text").data()
    return [int.from_bytes(text[i:i + 4], "little") for i in range(0, len(text), 4)]


@pytest.mark.needs_tool
def test_layout_matches_gnu_insn_forms():
    """Every pv.* lane operation in all six variants, written as GNU as ``.insn`` from the
    reference's layout: register forms ``.insn r 0x57, f3, funct5:F:0, rd, rs1, rs2``; .sci
    forms ``.insn i 0x57, f3, rd, rs1, imm12`` with imm12 = funct5:F:imm[0]:imm[5:1] (the
    split done by hand here)."""
    isa = load_isa("xpulpv2")
    ours, insn = [], []
    for op, h_word in PV_H_WORDS.items():
        f5f = h_word >> 26
        lo, hi = SCI_RANGE[SCI_KIND[op]]
        for variant, f3 in F3.items():
            name = f"pv.{op}.{variant}"
            if variant.startswith("sci"):
                for imm in (lo, -1 if lo < 0 else 1, hi):
                    ours.append(_assemble(isa, f"{name} a0, a1, {imm}")[1])
                    imm12 = f5f << 6 | (imm & 1) << 5 | (imm >> 1) & 31
                    insn.append(f".insn i 0x57, {f3}, a0, a1, {imm12 - (imm12 >> 11 << 12)}")
            else:
                ours.append(_assemble(isa, f"{name} t0, s1, t6")[1])
                insn.append(f".insn r 0x57, {f3}, {f5f << 1}, t0, s1, t6")
    gnu = _gnu_words(insn)
    bad = [f"{line}: ours {o:#010x}, GNU as {g:#010x}"
           for line, o, g in zip(insn, ours, gnu, strict=True) if o != g]
    assert not bad, "\n".join(bad)
    assert len(gnu) == 30 * (4 + 2 * 3)
