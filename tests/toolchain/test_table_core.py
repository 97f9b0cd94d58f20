"""The table core: loading, overlap refusal, encode/decode/disassemble of RV32I."""

import pytest

from toolchain import load_isa
from toolchain.disasm import disassemble_word
from toolchain.fields import TableError
from toolchain.operands import OperandError, match_instruction
from toolchain.table import _check_overlaps, _make_entry


def _ev(text, field):
    return int(text, 0)


@pytest.mark.parametrize("family", ["xpulpv2", "corev", "none"])
def test_every_selection_loads(family):
    isa = load_isa(family)
    assert isa.by_name["addi"]


@pytest.mark.parametrize(
    "line, word, text",
    [
        ("addi a0, a1, -5", 0xFFB58513, "addi a0,a1,-5"),
        ("lui a0, 0xfffff", 0xFFFFF537, "lui a0,0xfffff"),
        ("sw a0, 4(a1)", 0x00A5A223, "sw a0,4(a1)"),
        ("srai a0, a1, 3", 0x4035D513, "srai a0,a1,0x3"),
        ("jalr ra, 0(a0)", 0x000500E7, "jalr a0"),
        ("fence", 0x0FF0000F, "fence"),
        ("fence rw, w", 0x0310000F, "fence rw,w"),
    ],
)
def test_rv32i_encode_decode_disassemble(line, word, text):
    isa = load_isa("none")
    mnemonic, _, ops = line.partition(" ")
    m = match_instruction(isa, mnemonic, ops, 0, _ev)
    assert isa.encode(m.entry, m.values) == word
    assert disassemble_word(isa, word) == text


def test_branch_target_is_an_address():
    isa = load_isa("none")
    m = match_instruction(isa, "beq", "a0, a1, 0x120", 0x100, _ev)
    assert m.values["bimm"] == 0x20
    assert disassemble_word(isa, isa.encode(m.entry, m.values), 0x100) == "beq a0,a1,0x120"


def test_immediate_out_of_range_names_the_range():
    isa = load_isa("none")
    with pytest.raises(OperandError, match=r"out of range \[-2048, 2047\]"):
        match_instruction(isa, "addi", "a0, a1, 5000", 0, _ev)


def test_overlapping_entries_are_refused():
    from toolchain.table import load_isa as _load

    fields = {**_load("none").by_name["add"][0].fields}
    a, _ = _make_entry({"name": "x1", "syntax": "rd, rs1, rs2",
                        "bits": "31..25=0 14..12=0 6..0=0x33"}, "t", None, 4, fields)
    b, _ = _make_entry({"name": "x2", "syntax": "rd, rs1, rs2",
                        "bits": "31..25=0 14..12=0 6..0=0x33"}, "t", None, 4, fields)
    with pytest.raises(TableError, match="overlapping encodings"):
        _check_overlaps([a, b], "none")
