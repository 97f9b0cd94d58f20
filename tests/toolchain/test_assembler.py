"""The GNU-as-compatible assembler: directives, labels, expressions, pseudo-instructions,
compression, section placement and error reports (no external tool needed)."""

from __future__ import annotations

import struct

import pytest

from toolchain import load_isa
from toolchain.asm import AsmError, assemble
from toolchain.asm.errors import MAX_ERRORS
from toolchain.program import L2_BASE, TCDM_BASE, Program


def text(program: Program, name: str = ".text") -> bytes:
    return bytes(program.section(name).data)


def decoded(program: Program, name: str = ".text", family: str = "none") -> list:
    """Every instruction of a section, decoded with the table."""
    isa = load_isa(family)
    data = text(program, name)
    out = []
    off = 0
    while off < len(data):
        d = isa.decode(int.from_bytes(data[off:off + 4], "little"))
        assert d is not None, f"undecodable at {off:#x}: {data[off:off + 4].hex()}"
        out.append(d)
        off += d.length
    return out


def names(program: Program, name: str = ".text", family: str = "none") -> list[str]:
    return [d.entry.name for d in decoded(program, name, family)]


def asm(source: str, **kw) -> Program:
    kw.setdefault("family", "none")
    return assemble(source, "t.s", **kw)


def errors_of(source: str, **kw) -> list[tuple[int, int, str]]:
    kw.setdefault("family", "none")
    with pytest.raises(AsmError) as info:
        assemble(source, "t.s", **kw)
    return [(d.location.line, d.location.column, d.message) for d in info.value.diagnostics]


def the_error(source: str, **kw) -> tuple[int, int, str]:
    errs = errors_of(source, **kw)
    assert len(errs) == 1, errs
    return errs[0]


# ---- data directives ---------------------------------------------------------------------------
def test_integer_data_directives():
    p = asm(".data\n.byte 1, -1, 'a', '\\n'\n.half 0x1234, -2\n.short 7\n.2byte 8\n"
            ".word 0xdeadbeef, -1\n.long 3\n.4byte 4\n")
    assert text(p, ".data") == (bytes([1, 0xFF, 0x61, 10]) + struct.pack("<HhHH", 0x1234, -2, 7, 8)
                                + struct.pack("<IiII", 0xDEADBEEF, -1, 3, 4))


def test_expressions_use_gnu_precedence_and_c_division():
    # GNU as binds & | ^ tighter than + -: 8 - 1 & 3 is 8 - (1 & 3)
    p = asm(".data\n.byte 8 - 1 & 3, (8 - 1) & 3, 7 / 2, -7 / 2 & 0xff, -7 % 3 & 0xff, "
            "1 << 4 | 1, ~0 & 0xff, 0b101, 0x1F, 2 * 3 + 1, -(-4)\n")
    assert list(text(p, ".data")) == [7, 3, 3, 0xFD, 0xFF, 17, 0xFF, 5, 31, 7, 4]


def test_word_dot_is_the_address_of_each_value():
    p = asm(".data\nt: .word 1, . - t, . - t\n")
    assert struct.unpack("<3I", text(p, ".data")) == (1, 4, 8)


def test_float_gives_exact_ieee_single_bits():
    p = asm(".data\n.float 1.5, -0.1, 3, 1e-45, 3.4028235e38, -0.0\n"
            # just above the midpoint of 1 and 1+2^-23: rounding through a double would give 1.0
            ".float 1.0000000596046447753906250001, 1.000000059604644775390625\n")
    assert struct.unpack("<8I", text(p, ".data")) == (
        0x3FC00000, 0xBDCCCCCD, 0x40400000, 0x00000001, 0x7F7FFFFF, 0x80000000,
        0x3F800001, 0x3F800000)


def test_strings_with_escapes():
    p = asm('.data\n.string "ab\\n", "c"\n.asciz "\\101\\x42\\"\\\\"\n.ascii "x;#y"\n')
    assert text(p, ".data") == b"ab\n\0c\0AB\"\\\0x;#y"


def test_space_skip_zero():
    p = asm(".data\n.space 3\n.skip 2, 0xab\n.zero 2\n.space 1, -1\n")
    assert text(p, ".data") == b"\0\0\0\xab\xab\0\0\xff"


def test_equ_set_and_assignment():
    p = asm(".equ A, 3\n.set B, A * 2\nC = B + 1\n.data\n.byte A, B, C, D\n.equ D, C << 1\n")
    assert list(text(p, ".data")) == [3, 6, 7, 14]
    assert p.symbol("C") == 7 and p.symbols["C"].section is None


# ---- alignment ---------------------------------------------------------------------------------
def test_align_in_data_pads_with_zeros_and_fill():
    p = asm(".data\n.byte 1\n.align 2\n.byte 2\n.p2align 3, 0xee\n.byte 3\n.balign 4\n"
            ".byte 4\n.balign 8, 0x55, 2\n.byte 5\n")
    # the last .balign would need 3 bytes but may skip at most 2: no padding
    assert text(p, ".data") == bytes([1, 0, 0, 0, 2] + [0xEE] * 3 + [3, 0, 0, 0, 4, 5])


def test_align_in_code_pads_with_nops_and_pads_the_section_end():
    p = asm(".text\naddi a0, a0, 1\n.balign 8\nnop\n.p2align 4\naddi a0, a0, 2\n")
    # c.addi, c.nop + nop up to 8; the written nop (c.nop), c.nop + nop up to 16; c.addi; and
    # GNU as pads a code section at the end to its alignment (16) with nops
    assert names(p) == ["c.addi", "c.nop", "addi", "c.nop", "c.nop", "addi", "c.addi",
                        "c.nop", "addi", "addi", "addi"]
    assert len(text(p)) == 32


def test_balign_needs_a_power_of_two():
    assert the_error(".balign 6\n") == (1, 9, "alignment 6 is not a power of two up to 65536")


# ---- labels ------------------------------------------------------------------------------------
def test_labels_and_numeric_local_labels():
    p = asm("""
start: one: nop
1:  addi a0, a0, -1
    bnez a0, 1b
    j 1f
1:  nop
    j 1b
    beqz a1, 1f
1:  j 1b       # the label of this very line
""")
    d = decoded(p)
    assert p.symbol("start") == p.symbol("one") == L2_BASE
    addr = [L2_BASE]
    for x in d:
        addr.append(addr[-1] + x.length)
    targets = [a + x.base_values.get("bimm", x.base_values.get("jimm", 0))
               for a, x in zip(addr, d, strict=False)]
    assert targets[2] == addr[1]          # bnez a0, 1b -> first 1:
    assert targets[3] == addr[4]          # j 1f -> second 1:
    assert targets[5] == addr[4]          # j 1b -> second 1:
    assert targets[6] == addr[7]          # beqz a1, 1f -> third 1:
    assert targets[7] == addr[7]          # 1: j 1b -> itself
    assert "1" not in p.symbols and not any("\x02" in n for n in p.symbols)


def test_comments_separators_and_char_literals():
    p = asm("""
    addi a0, a0, '#'   # a comment with ; and 'quotes
    addi a1, a1, 1 ; addi a2, a2, 2 // slash comment
    /* a block
       comment */ addi a3, a3, 3 /* inline */ ; nop
""", rvc=False)
    d = decoded(p)
    assert [(x.entry.name, x.values["rd"], x.values["imm12"]) for x in d[:4]] == [
        ("addi", 10, 35), ("addi", 11, 1), ("addi", 12, 2), ("addi", 13, 3)]
    assert len(d) == 5


def test_globl_local_and_symbol_kinds():
    p = asm(".globl main\n.global helper\n.local helper\nmain: ret\nhelper: ret\n.L1: ret\n"
            ".data\nvalue: .word 1\n")
    assert p.symbols["main"].binding == "global" and p.symbols["main"].kind == "func"
    assert p.symbols["helper"].binding == "local"
    assert p.symbols["value"].kind == "object" and p.symbols["value"].section == ".data"
    assert ".L1" not in p.symbols
    assert p.entry == p.symbol("main")
    assert p.symbolize(p.symbol("helper") + 1) == "helper+0x1"


# ---- relocation operators and pseudo-instructions --------------------------------------------
def _run(program: Program, start: str | None = None) -> dict[int, int]:
    """Register values after the straight-line lui/auipc/addi/jalr code of .text."""
    regs: dict[int, int] = {0: 0}
    pc = program.section(".text").addr
    for d in decoded(program):
        name, v = d.base.name, d.base_values
        if name == "lui":
            regs[v["rd"]] = v["uimm20"] & 0xFFFFFFFF
        elif name == "auipc":
            regs[v["rd"]] = (pc + v["uimm20"]) & 0xFFFFFFFF
        elif name == "addi":
            regs[v["rd"]] = (regs.get(v["rs1"], 0) + v["imm12"]) & 0xFFFFFFFF
        elif name == "jalr":
            regs[-1] = (regs.get(v["rs1"], 0) + v["imm12"]) & 0xFFFFFFFF   # jump target
        regs[0] = 0
        pc += d.length
    return regs


def test_hi_lo_and_pcrel_operators():
    p = asm("""
    lui a0, %hi(buf + 0x800)
    addi a0, a0, %lo(buf + 0x800)
1:  auipc a1, %pcrel_hi(buf)
    addi a1, a1, %pcrel_lo(1b)
    .data
    .space 0x7f0
buf: .word 0
""")
    regs = _run(p)
    assert regs[10] == p.symbol("buf") + 0x800
    assert regs[11] == p.symbol("buf")
    # relocated operands are never compressed (GNU as emits them at full size)
    assert names(p) == ["lui", "addi", "auipc", "addi"]


def test_lo_in_memory_operand():
    p = asm("lw a0, %lo(x)(a1)\nsw a0, %lo(x)(a1)\n.data\n.space 0x20\nx: .word 0\n")
    lw, sw = decoded(p)
    assert lw.values["imm12"] == sw.values["simm12"] == ((p.symbol("x") + 0x800) & 0xFFF) - 0x800


@pytest.mark.parametrize("value, sequence", [
    (5, ["c.li"]), (-32, ["c.li"]), (32, ["addi"]), (-2048, ["addi"]), (2047, ["addi"]),
    (0x1000, ["c.lui"]), (0x12345, ["c.lui", "addi"]), (0x1001, ["c.lui", "c.addi"]),
    (0x800, ["c.lui", "addi"]), (0x80000000, ["lui"]), (0x7FFFF800, ["lui", "addi"]),
    (0x80000003, ["lui", "c.addi"]), (0xFFFFFFFF, ["addi"]), (0xFFFFFFE0, ["addi"]),
    (-0x80000000, ["lui"]), (0x12345678, ["lui", "addi"]),
])
def test_li_sequences_match_gnu_as(value, sequence):
    p = asm(f"li a0, {value}\n")
    assert names(p) == sequence
    assert _run(p)[10] == value & 0xFFFFFFFF


def test_li_without_rvc_and_with_symbols():
    p = asm(".equ BIG, 0x12345\nli a0, BIG\nli a1, end\nend:\n", rvc=False)
    assert names(p) == ["lui", "addi", "lui", "addi"]
    regs = _run(p)
    assert regs[10] == 0x12345 and regs[11] == p.symbol("end")


def test_la_lla_call_tail():
    p = asm("""
    la a0, data
    lla a1, data
    call func
    tail func
func: ret
    .data
    .space 0x1234
data: .word 0
""")
    d = decoded(p)
    assert [x.entry.name for x in d[:8]] == ["auipc", "addi"] * 2 + ["auipc", "jalr"] * 2
    assert d[4].values["rd"] == 1 and d[5].values["rd"] == 1          # call: ra
    assert d[6].values["rd"] == 6 and d[7].values["rd"] == 0          # tail: t1, x0
    pcs = [L2_BASE + 4 * i for i in range(8)]
    for i, reg in ((0, 10), (2, 11)):
        assert d[i].values["rd"] == d[i + 1].values["rd"] == d[i + 1].values["rs1"] == reg
        assert (pcs[i] + d[i].values["uimm20"] + d[i + 1].values["imm12"]) == p.symbol("data")
    for i in (4, 6):
        assert pcs[i] + d[i].values["uimm20"] + d[i + 1].values["imm12"] == p.symbol("func")


def test_call_with_explicit_register():
    d = decoded(asm("call t0, f\nf: ret\n"))
    assert (d[0].values["rd"], d[1].values["rd"], d[1].values["rs1"]) == (5, 5, 5)


# ---- compression -------------------------------------------------------------------------------
def test_compression_on_off_and_option():
    src = "addi a0, a0, 1\nmv a1, a2\nret\n"
    assert names(asm(src)) == ["c.addi", "c.mv", "c.jr"]
    assert names(asm(src, rvc=False)) == ["addi", "addi", "jalr"]
    p = asm(".option norvc\naddi a0, a0, 1\n.option push\n.option rvc\naddi a0, a0, 1\n"
            ".option pop\naddi a0, a0, 1\n")
    assert names(p) == ["addi", "c.addi", "addi"]


def _at(program: Program, offset: int) -> str:
    word = int.from_bytes(text(program)[offset:offset + 4], "little")
    return load_isa("none").decode(word).entry.name


@pytest.mark.parametrize("source, offset, name", [
    # c.beqz reaches +254, but GNU as starts a branch at full size (the target is then 256
    # away) and keeps it; 2 bytes closer it shrinks
    ("beqz s0, 1f\n.space 252\n1:\n", 0, "beq"),
    ("beqz s0, 1f\n.space 250\n1:\n", 0, "c.beqz"),
    ("1:\n.space 256\nbnez a5, 1b\n", 256, "c.bnez"),
    ("1:\n.space 258\nbnez a5, 1b\n", 258, "bne"),
    ("j 1f\n.space 2042\n1:\n", 0, "c.j"),
    ("j 1f\n.space 2044\n1:\n", 0, "jal"),
    ("1: jal 1b\n", 0, "jal"),             # GNU as never turns jal into c.jal
    ("beq x0, a0, 1f\n1:\n", 0, "beq"),   # only rs2 = x0 has a compressed form
])
def test_branches_relax_like_gnu_as(source, offset, name):
    assert _at(asm(source), offset) == name


def test_explicit_compressed_mnemonic():
    assert names(asm("c.addi a0, 1\nc.lwsp a0, 4(sp)\n")) == ["c.addi", "c.lwsp"]


# ---- sections and placement --------------------------------------------------------------------
def test_default_placement_in_l2_and_tcdm():
    p = asm("""
    .section .tcdm.tiles, "aw"
t1: .word 1
    .data
d: .byte 1
    .bss
b: .zero 8
    .rodata
r: .byte 2
    .text
_start: nop
    .section .l1
l: .word 2
""")
    sec = {s.name: s for s in p.sections}
    assert sec[".text"].addr == L2_BASE and sec[".text"].executable
    assert sec[".rodata"].addr == L2_BASE + 4 and not sec[".rodata"].writable
    assert sec[".data"].addr == L2_BASE + 8 and sec[".data"].writable
    assert sec[".bss"].addr == L2_BASE + 12 and sec[".bss"].nobits and sec[".bss"].size == 8
    assert sec[".tcdm.tiles"].addr == TCDM_BASE and sec[".l1"].addr == TCDM_BASE + 4
    assert p.entry == p.symbol("_start") == L2_BASE
    assert [(s.addr, s.size) for s in p.segments()] == [
        (TCDM_BASE, 4), (TCDM_BASE + 4, 4), (L2_BASE, 2), (L2_BASE + 4, 1), (L2_BASE + 8, 1),
        (L2_BASE + 12, 8)]


def test_bases_are_overridable_and_alignment_is_kept():
    p = asm(".text\nnop\n.data\n.p2align 4\nx: .word 1\n.section .l1\ny: .word 2\n",
            l2_base=0x80000000, tcdm_base=0x20000)
    assert p.section(".text").addr == 0x80000000
    assert p.symbol("x") == 0x80000010          # .data aligned to its 16-byte alignment
    assert p.symbol("y") == 0x20000


def test_section_flags_and_types():
    p = asm('.section .fast, "ax"\nnop\n.section .zeros, "aw", @nobits\n.zero 4\n'
            '.section .text.init\nnop\n')
    sec = {s.name: s for s in p.sections}
    assert sec[".fast"].executable and sec[".zeros"].nobits and sec[".text.init"].executable
    assert p.entry == sec[".fast"].addr   # no _start, main or .text code: first code section


def test_entry_prefers_start_then_main_then_text():
    assert asm("nop\nmain: nop\n").entry == L2_BASE + 2
    assert asm("nop\nmain: nop\n_start: nop\n").entry == L2_BASE + 4
    assert asm("nop\n").entry == L2_BASE


def test_ignored_directives_are_accepted():
    p = asm('.file "k.c"\n.ident "x"\n.attribute arch, "rv32imfc"\n.option arch, +c\n'
            '.option nopic\n.type f, @function\nf: ret\n.size f, .-f\n')
    assert names(p) == ["c.jr"]


# ---- hardware loops ----------------------------------------------------------------------------
def test_hardware_loop_labels():
    p = assemble("lp.setup x0, a2, 1f\naddi a0, a0, 1\n1: addi a1, a1, 1\n"
                 "lp.setupi x1, 10, 2f\nnop\n2: nop\n", "t.s")
    d = decoded(p, family="xpulpv2")
    assert d[0].entry.name == "lp.setup" and d[0].values["lp_off12"] == 6
    assert d[3].entry.name == "lp.setupi" and d[3].values["lp_off5"] == 6
    assert p.family == "xpulpv2"


def test_xpulp_instructions_assemble_with_labels_and_memory_forms():
    p = assemble("""
    lp.counti x1, 10
1:  p.lw a0, 4(a1!)
    p.lw a2, a3(a4!)
    p.lw a5, t0(t1)
    p.mac a0, a1, a2
    p.beqimm a0, -3, 1b
""", "t.s")
    d = decoded(p, family="xpulpv2")
    assert [x.entry.name for x in d] == ["lp.counti", "p.lw", "p.lw", "p.lw", "p.mac", "p.beqimm"]
    assert d[1].values["imm12"] == 4 and d[5].values["simm5"] == -3
    assert d[5].values["bimm"] == -16   # back to 1: over four 32-bit instructions


def test_family_from_option_and_argument():
    assert assemble(".option corev\ncv.mac a0, a1, a2\n", "t.s").family == "corev"
    assert assemble("cv.mac a0, a1, a2\n", "t.s", family="corev").family == "corev"


# ---- errors ------------------------------------------------------------------------------------
def test_unknown_mnemonic_suggests_the_nearest():
    assert the_error("  addi a0, a0, 1\n  ad a0, a1, a2\n") == (
        2, 3, "unknown instruction 'ad'; did you mean 'and'?")


def test_wrong_family_says_which_family_has_it():
    line, col, msg = the_error("nop\n    cv.mac a0, a1, a2\n", family="xpulpv2")
    assert (line, col) == (2, 5)
    assert "'cv.mac' is a corev instruction" in msg and "--xpulp corev" in msg


def test_conflicting_family_options():
    line, _, msg = the_error(".option corev\n.option xpulpv2\n")
    assert line == 2 and "already selects Xpulp family 'corev'" in msg


def test_operand_count_and_kind():
    assert the_error("addi a0, a1\n") == (1, 1, "expected 3 operands (rd, rs1, imm12), got 2")
    assert the_error("add a0, a1, 5\n") == (
        1, 13, "operand 3: expected an integer register, got '5'")
    assert the_error("li a0, a1\n") == (1, 8, "operand 2: expected a value, got register 'a1'")


def test_immediate_out_of_range_names_the_range():
    assert the_error("nop\n  addi a0, a1, 5000\n") == (
        2, 16, "operand 3: value 5000 out of range [-2048, 2047]")


def test_branch_out_of_reach():
    line, col, msg = the_error("beq a0, a1, far\n.space 5000\nfar: nop\n")
    assert (line, col) == (1, 13) and "bytes away" in msg


def test_undefined_and_duplicate_labels():
    assert the_error("j nowhere\n") == (1, 3, "operand 1: undefined symbol 'nowhere'")
    assert the_error("x: nop\n  x: nop\n") == (2, 3, "symbol 'x' is already defined (line 1)")
    assert the_error("j 1f\n") == (1, 3, "operand 1: undefined local label 1f (no '1:' after it)")
    assert the_error(".data\n.word missing\n") == (2, 7, "undefined symbol 'missing'")


def test_hardware_loop_end_misaligned_or_out_of_reach():
    line, col, msg = the_error("lp.setup x0, a2, 1f\n.byte 0\n1: nop\n", family="xpulpv2")
    assert (line, col) == (1, 18) and "steps of 2" in msg and "+5 bytes" in msg
    line, col, msg = the_error("lp.setupi x0, 10, 1f\n.space 100\n1: nop\n", family="xpulpv2")
    assert (line, col) == (1, 19) and "+104 bytes away" in msg
    line, col, msg = the_error("1: nop\nlp.setup x0, a2, 1b\n", family="xpulpv2")
    assert line == 2 and "-2 bytes away" in msg
    line, col, msg = the_error("cv.setup 0, a2, 1f\nc.nop\n1: nop\n", family="corev")
    assert (line, col) == (1, 17) and "steps of 4" in msg


def test_unknown_directive_and_option():
    assert the_error("  .wrod 1\n") == (1, 3, "unknown directive '.wrod'")
    line, col, msg = the_error(".option bogus\n")
    assert (line, col) == (1, 9) and msg.startswith("unknown .option 'bogus'")


def test_data_in_nobits_section_is_refused():
    line, _, msg = the_error(".bss\n.word 1\n")
    assert line == 2 and "@nobits" in msg


def test_errors_are_collected_formatted_and_capped():
    src = "addi a0, a0, 1\n  bogus a0\n\tj nowhere\n.word\n"
    with pytest.raises(AsmError) as info:
        assemble(src, "kernel.s", family="none")
    report = str(info.value)
    assert len(info.value.diagnostics) == 3
    assert "kernel.s:2:3: error: unknown instruction 'bogus'" in report
    assert "\n    bogus a0\n    ^\n" in report
    assert "kernel.s:3:4: error: operand 1: undefined symbol 'nowhere'\n  \tj nowhere\n  \t  ^" \
        in report
    assert "kernel.s:4:6: error: .word expects" in report
    many = "\n".join(f"bogus{i}" for i in range(MAX_ERRORS + 5))
    with pytest.raises(AsmError) as info:
        assemble(many, "k.s")
    assert len(info.value.diagnostics) == MAX_ERRORS
    assert str(info.value).endswith(f"too many errors; stopped after {MAX_ERRORS}")


def test_lexical_errors():
    errs = errors_of('nop\n.ascii "open\n/* never closed\n')
    assert (2, 8, "unterminated string") in errs
    assert (3, 1, "unterminated /* comment") in errs


def test_constant_expressions_must_be_known_when_read():
    assert the_error(".space N\n.equ N, 4\n") == (
        1, 8, "undefined symbol 'N' (constants must be defined before use)")
    assert the_error("x: .space x\n") == (1, 11, "expected a constant; 'x' is an address")
    assert the_error(".option pop\n") == (1, 9, ".option pop without a matching .option push")


def test_pcrel_lo_needs_the_label_of_an_auipc():
    line, col, msg = the_error("x: nop\naddi a0, a0, %pcrel_lo(x)\n")
    assert (line, col) == (2, 14) and "no instruction with %pcrel_hi" in msg


def test_symbol_loads_and_stores_need_an_address():
    """``lw rd, sym`` / ``sw rs, sym, rt`` take an address; a plain number is an error (GNU as:
    illegal operands), and the forms without the temporary register are not pseudo-instructions."""
    assert the_error("lw a0, 5\n") == (1, 8, "operand 2: expected an address (symbol) or "
                                              "offset(register)")
    assert the_error("lw a0, nowhere\n")[2] == "operand 2: undefined symbol 'nowhere'"
    assert "expected a memory operand" in the_error("x: sw a0, x\n")[2]
    assert "expected a memory operand" in the_error("x: flw fa0, x\n")[2]


def test_huge_fills_are_errors_not_out_of_memory():
    assert the_error(".data\n.zero 1 << 40\n") == (
        2, 7, "size 1099511627776 is too large: the file would fill more than 256 MiB")
    line, col, msg = the_error(".bss\n.rept 5\n.skip 100000000\n.endr\n")
    assert (line, col) == (2, 1) and "too large" in msg


def test_common_symbol_errors_and_warnings():
    assert the_error("x: nop\n.comm x, 4\n") == (2, 7, "symbol 'x' is already defined (line 1)")
    assert the_error(".comm y, 4\ny: nop\n") == (
        2, 1, "symbol 'y' is already defined as a common symbol (line 1)")
    assert the_error(".lcomm z, 4\n.lcomm z, 4\n") == (
        2, 1, "symbol 'z' is already defined (line 1)")
    assert the_error(".comm w, 4, 3\n") == (1, 13, "alignment 3 is not a power of two up to 65536")
    assert the_error(".lcomm v, 4, 4\n")[2] == ".lcomm expects 2 operands (symbol, length), got 3"
    assert the_error(".comm u, 1 << 40\n")[2].startswith("size 1099511627776 is too large")
    program = assemble(".comm a, 8\n.comm a, 16\n.comm b, -4\n")
    warnings = "\n".join(program.warnings)
    assert "size of 'a' is already 8; not changing to 16" in warnings
    assert "size (-4) out of range, ignored" in warnings and "b" not in program.symbols


def test_expressions_too_deep_are_errors_not_host_recursion_errors():
    from toolchain.asm.expr import MAX_NESTING, MAX_TREE_DEPTH
    ok = "(" * 60 + "1" + ")" * 60
    assert text(asm(f".data\n.word {ok}, {'+'.join(['1'] * 200)}\n"), ".data")[:4] == bytes(
        [1, 0, 0, 0])
    for expr in ("(" * 5000 + "1" + ")" * 5000, "-" * 100_000 + "1"):
        line, col, msg = the_error(f".data\n.word {expr}\n")
        assert line == 2 and msg.startswith(f"expression nested too deeply (more than "
                                            f"{MAX_NESTING} parentheses")
    assert the_error(".data\n.word " + "+".join(["1"] * 100_000) + "\n") == (
        2, 7, f"expression too deep to evaluate (more than {MAX_TREE_DEPTH} operators one "
              "under another)")


def test_insn_directive_errors_name_the_field():
    assert the_error(".insn i 0x13, 0, a0, a1, 5000\n") == (
        1, 26, "simm12 5000 out of range [-2048, 2047]")
    assert the_error(".insn r 0x33, 8, 0, a0, a1, a2\n") == (1, 15, "func3 8 out of range [0, 7]")
    assert the_error(".insn r 0x33, 0, 0, a0, a1, 5\n")[2] == "expected a register, got '5'"
    assert the_error(".option norvc\n.insn cr 2, 9, a0, a1\n") == (
        2, 7, ".insn cr is a compressed format: it needs the C extension (.option rvc)")
    assert the_error(".insn ci 1, 0, a0, 32\n") == (1, 20, "simm6 32 out of range [-32, 31]")
    assert the_error(".insn cl 0, 2, t0, 4(a1)\n") == (
        1, 16, "'t0' is not one of the compressed registers s0, s1, a0-a5 (fs0, fs1, fa0-fa5)")
    assert the_error(".insn ciw 3, 0, a0, 8\n") == (
        1, 11, "opcode2 3 is not a compressed opcode (0, 1, 2)")
    assert the_error(".insn cj 1, 5\n")[2] == ".insn cj expects opcode2, func3, target"
    assert the_error(".insn 3, 0x13\n")[2] == ".insn length 3: only 2 and 4 are supported"


def test_incbin_errors():
    assert the_error('.incbin "no-such.bin"\n')[2].startswith("file 'no-such.bin' not found")
    assert the_error(".incbin blob\n")[2] == ".incbin expects a file name in double quotes"
