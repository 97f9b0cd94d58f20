"""Macros (.macro, .rept, .irp, .irpc), conditional assembly (.if/.ifdef/.ifb/.ifc ... .endif),
.include, symbol redefinition (.set/.equ/=, .equiv) and 8-byte data.

Whole files are compared byte for byte (and symbol for symbol) with GNU as + ld where GNU as
accepts them; the rules GNU as leaves to the linker, or refuses, are checked with explicit
values; bad input must give one located error each, never a traceback.
"""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from test_gnu_as_file import _compare

from toolchain.asm import AsmError, assemble, macros
from toolchain.asm.symbols import MAX_DEPTH
from toolchain.program import L2_BASE, Program

# ---- sources GNU as assembles (no `//` comments: GNU as for RISC-V does not know them) --------
REDEFINE = r"""
.data
.word x                 # before any definition: the first one
.set x, 1
.word x
.set x, 2
.word x
.set x, x + 10          # the previous x
.word x
.equ x, x * 2
.byte x
z = 3
.half z
z = z + 1
.half z
.equiv once, 0x55
.byte once
.set w, later           # a forward reference: later's first definition
.byte w
.set later, 7
.set later, 8
.byte later, w
.set i, 0
.rept 5
.byte i
.set i, i + 1
.endr
.byte i
.set p, 0x40
.set p, p + 1
.globl p
.text
.set v, 3
addi a0, a0, v          # c.addi
.set v, 100
addi a0, a0, v          # too big for c.addi
.set v, v - 90
addi a0, a0, v
li a1, v << 12
"""

REPEAT = r"""
.data
.rept 3
.byte 1, 2
.endr
.rept 0
.byte 0xee
.endr
.rept 2; .half 0x1234; .endr
.set N, 2
.rept N
.rept N + 1
.byte N
.endr
.byte 9
.endr
.irp v, 5, 6, 7
.byte \v, \v * 2
.endr
.irp v 8 9
.byte \v
.endr
.irp v
.byte 3\v
.endr
.irpc c, 123
.byte \c + '0', '\c'
.endr
.irp s, "ab", "c d"
.ascii "\s"
.endr
.rept 3
.byte 4
.exitm
.byte 5
.endr
.text
.globl _start
_start:
.irp r, a0, a1, a2
    addi \r, \r, 1
    lw \r, 4(sp)
.endr
    li a3, 4
.rept 2
1:  addi a3, a3, -1
    bnez a3, 1b
.endr
.rept 3
    c.nop
.endr
    .p2align 3
.rept 2
.irp r, s0, s1
    mv \r, a0
.endr
.endr
"""

MACRO = r"""
.macro store reg, off=0, base=sp
    sw \reg, \off(\base)
.endm
.macro load reg:req, off=0, base=sp
    lw \reg, \off(\base)
.endm
.macro inc reg, by=1
    addi \reg, \reg, \by
.endm
.macro inc2 reg
    inc \reg
    inc \reg, 2
.endm
.macro loop n, reg=t0
    li \reg, \n
loop\@:
    inc2 a0
    addi \reg, \reg, -1
    bnez \reg, loop\@
.endm
.macro early x
    inc a1, \x
    .exitm
    inc a1, 100
.endm
.macro defines name, value
.macro \name
    li a4, \value
.endm
.endm
.macro suffix r, n
    addi \r, \r, \n\()0
.endm
.macro all first, rest:vararg
    .byte \first
    .byte \rest
.endm
.macro blank
.endm
.macro Nop
    c.addi a5, 1
.endm
.macro mem op, reg, addr
    \op \reg, \addr
.endm
.text
.globl _start
_start:
    store a0
    store a1, 8
    store a2, 12, s0
    store base=s1, reg=a3
    store a4 off=16
    mem sw, a1, 8 (sp)
    mem lw a2 12(s0)
    load a5, base=t1
    inc2 a0
    loop 3
    loop 2, t1
    early 5
    defines seven, 7
    seven
    .purgem seven
    defines seven, 8
    seven
    suffix a6, 5
    label: blank
    nop
    NOP
    .irp r, a0, a1
    inc \r, 3
    .endr
    .rept 2
    inc2 s1
    .endr
.data
    all 1, 2, 3, 4
    all 5, 6
.macro str text
    .ascii "\text"
.endm
    str "x y, z"
    str plain
.macro inner
    .byte 1
    .rept 3
    .byte 2
    .exitm
    .endr
    .byte 3
.endm
    inner
.macro counted
    .irp q, 1, 2
    .byte \@, \q
    .endr
.endm
    counted
    counted
"""

# GNU as's argument splitting: (invocation of `m a, b=7, c=9` that emits .byte a, b, c, bytes)
ARGUMENTS = [
    ("m 1, 2, 3", [1, 2, 3]), ("m 1,,3", [1, 7, 3]), ("m 1 2 3", [1, 2, 3]),
    ("m c=4, a=5", [5, 7, 4]), ("m 1 + 1, 2", [2, 2, 9]), ("m 1 + 1", [2, 7, 9]),
    ("m 1+1 2 3", [2, 2, 3]), ("m 1 , 2", [1, 2, 9]), ("m 1 2, 3", [1, 2, 3]), ("m 1", [1, 7, 9]),
    ("m a=1 b=2", [1, 2, 9]), ("m 1, 2,", [1, 2, 9]), ("m ' ', 2", [32, 2, 9]),
    ("m 1<<1 2", [2, 2, 9]), ("m 1 - 1", [0, 7, 9]), ("m 1 -1", [0, 7, 9]), ("m a = 1", [1, 7, 9]),
]
ARGUMENT_MACRO = ".data\n.macro m a, b=7, c=9\n.byte \\a, \\b, \\c\n.endm\n"

DATA = r"""
.data
d: .dword 1 << 40, -2, 0xfedcba9876543210, d, d + 4
   .quad 3, -1
   .8byte 0x0102030405060708
   .2byte 0x102, -1
   .4byte 5, d
   .byte 7
   .p2align 3
   .dword . - d
"""

CONDITIONS = r"""
.data
.set yes, 1
.if yes
.byte 1
.if 0
.byte 0xee
.elseif yes - 1
.byte 0xee
.elseif 2
.byte 2
.else
.byte 0xee
.endif
.else
.byte 0xee
.if 1
.byte 0xee
.endif
.endif
.ifdef yes
.byte 3
.endif
.ifdef later
.byte 0xee
.endif
later:
.ifdef later
.byte 4
.endif
.ifndef nothing
.byte 5
.endif
.ifnotdef yes
.byte 0xee
.else
.byte 6
.endif
.if 0
.macro never
.endm
not an instruction, not even read
.include "no such file"
.endif
.macro opt a, b
.ifb \b
.byte \a
.exitm
.endif
.byte \a, \b
.endm
opt 7
opt 8, 9
.macro pick r
.ifc \r, a0
.byte 10
.endif
.ifnc \r,a0
.byte 11
.endif
.endm
pick a0
pick a1
.ifc "a b","a b"
.byte 12
.endif
.ifc "a0",a0
.byte 0xee
.endif
.rept 3
.if yes
.byte 13
.set yes, 0
.else
.byte 14
.endif
.endr
.ifnb
.byte 0xee
.else
.byte 15
.endif
.irp v, 1, 0
.if \v
.byte 16
.endif
.endr
"""

# comparison and logical operators, with the precedence GNU as 2.40 really applies (its manual
# puts the comparisons with + and -)
OPERATORS = r"""
.data
.set a, 5
.set b, 3
.byte a == 5, a != 5, a <> 4, a < -b, a > -b, -b <= -3, -b >= 0
.word (a > -b) + 2, 1 + 2 == 3, 3 == 1 + 2, a < -b || -b < a, a && 0, 0 || 0, 4 && 2
.word 1 + 2 < 4, 2 & 3 == 2, 1 | 2 + 3, 1 + 2 * 3, 6 ! 1, 1 - 1 == 0 && 2 > 1
.word -1 < 1, 0xffffffff < 1, 1 || 0 && 0, 1 < 2 == 1, 2 == 2 < 3, 4 > 3 > 2, 1 + -3
.word !0, !5, !(1 == 2), -(1 < 2), ~0 == -1, 2 ! 3 + 1
.if a >= 5 && -b < 0
.byte 0x11
.endif
.if a == b || a < 0
.byte 0xee
.elseif a - 5 == 0
.byte 0x22
.endif
.macro sized n
.if \n <= 2
.byte \n
.else
.half \n
.endif
.endm
sized 1
sized 300
"""

# a guarded macro file included twice, and one found through the include directory
INCLUDE = r"""
.data
.include "defs.inc"
.include "defs.inc"
.include "sub/more.inc"
twice 3
.byte LEVEL, MORE
.text
    bump a0
"""
INCLUDED = {
    "defs.inc": r""".ifndef DEFS_INC
.equ DEFS_INC, 1
.set LEVEL, 1
.macro twice v
.byte \v, \v
.endm
.else
.set LEVEL, LEVEL + 1
.endif
""",
    "sub/more.inc": """.include "sub/deeper.inc"
.set MORE, DEEPER + 1
""",
    "sub/deeper.inc": r""".set DEEPER, 40
.macro bump r
    addi \r, \r, DEEPER
.endm
""",
}

SOURCES = {"redefine": REDEFINE, "repeat": REPEAT, "macro": MACRO, "data": DATA,
           "conditions": CONDITIONS, "operators": OPERATORS,
           "arguments": ARGUMENT_MACRO + "\n".join(inv for inv, _ in ARGUMENTS) + "\n"}


@pytest.mark.needs_tool
@pytest.mark.parametrize("name", sorted(SOURCES))
def test_file_equals_gnu_as(name: str, tmp_path: Path) -> None:
    _compare(SOURCES[name], tmp_path)


@pytest.mark.needs_tool
def test_included_files_equal_gnu_as(tmp_path: Path) -> None:
    _compare(INCLUDE, tmp_path, files=INCLUDED)


# ---- the same rules with explicit values (no tool needed) --------------------------------------
def asm(source: str) -> Program:
    return assemble(source, "k.s", family="none")


def data(source: str) -> bytes:
    return bytes(asm(source).section(".data").data)


def test_redefinition_follows_source_order():
    p = asm(REDEFINE)
    d = data(REDEFINE)
    assert struct.unpack_from("<4I", d) == (1, 1, 2, 12)
    assert list(d[16:17]) == [24]                                  # .equ x, x * 2
    assert struct.unpack_from("<2H", d, 17) == (3, 4)
    assert list(d[21:]) == [0x55, 7, 8, 7, 0, 1, 2, 3, 4, 5]      # w keeps later's first value
    assert p.symbol("x") == 24 and p.symbol("later") == 8 and p.symbol("p") == 0x41
    assert p.symbols["p"].binding == "global"


def test_redefined_address_takes_the_value_current_at_each_use():
    # GNU as refuses a relocation against a redefined symbol; linked here, each use has a value
    p = asm(".data\nbuf: .word 0\n.word p\n.set p, buf\n.word p\n.set p, p + 4\n.word p, q\n"
            ".set q, .\n.set p, 0x40\n.word p\n")
    buf = p.symbol("buf")
    assert struct.unpack("<6I", bytes(p.section(".data").data)) == (
        0, buf, buf, buf + 4, buf + 20, 0x40)


def test_long_chains_of_redefinitions_are_not_evaluated_recursively():
    # .text is laid out first, so its `la` asks for the last link of the chain first
    p = asm(".data\nbuf:\n.set p, buf\n.rept 3000\n.set p, p + 4\n.endr\n.text\nla a0, p\n"
            ".rodata\n.word p\n.set i, 0\n.rept 3000\n.set i, i + 1\n.endr\n.space i\n")
    assert p.symbol("p") == p.symbol("buf") + 12000
    rodata = bytes(p.section(".rodata").data)
    assert struct.unpack_from("<I", rodata) == (p.symbol("p"),) and len(rodata) == 3004


def test_chain_through_a_forward_reference_is_bounded_not_a_crash():
    # each `a` waits for `c`, so none is a constant when defined: the layout evaluates the
    # chain link by link, but a value needed while parsing may nest only MAX_DEPTH deep
    source = ".set a, 0\n.rept 500\n.set a, a + c\n.endr\n.set c, 1\n.data\n.word a\n"
    assert data(source) == struct.pack("<I", 500)
    assert errors_of(source + ".space a\n") == [
        (8, 8, f"symbol 'a' is defined through more than {MAX_DEPTH} others")]


@pytest.mark.parametrize("invocation, values", ARGUMENTS)
def test_macro_arguments_split_like_gnu_as(invocation: str, values: list[int]):
    assert list(data(ARGUMENT_MACRO + invocation + "\n")) == values


def test_macro_features():
    d = data(r"""
.data
.macro m a, b=2, rest:vararg
.byte \a, \b, \@
.byte \rest
.endm
.macro two x
m \x, \x\()0, 7, 8
.exitm
.byte 0xff
.endm
m 1, rest=9
two 3
.irp v, 4, 5
m \v, rest=\@
.endr
M 6, 7, 1
""")
    # \@ numbers the invocations: m 0, two 1 (its m 2), the .irp's m 3 and 4, M 5; in the .irp
    # it is the count before it (3), for every value; names are case-insensitive
    assert list(d) == [1, 2, 0, 9, 3, 30, 2, 7, 8, 4, 2, 3, 3, 5, 2, 4, 3, 6, 7, 5, 1]


def test_rept_irp_and_nesting():
    # a character literal is not substituted ('\c' is c), a string is
    d = data(".data\n.set n, 2\n.rept n\n.irpc c, ab\n.rept n + 1\n.byte '\\c'\n.ascii \"\\c\"\n"
             ".endr\n.endr\n.endr\n.rept 0\n.byte 1\n.endr\n")
    assert d == b"cacacacbcbcb" * 2


def test_exitm_ends_the_innermost_expansion():
    d = data(".data\n.macro m\n.rept 3\n.byte 1\n.exitm\n.endr\n.byte 2\n.exitm\n.byte 3\n.endm\n"
             "m\n.irp v, 4, 5\n.byte \\v\n.exitm\n.endr\n")
    assert list(d) == [1, 2, 4]


def test_labels_and_local_labels_in_expansions():
    p = asm(".macro count reg\n\\reg\\()_top:\n1: addi \\reg, \\reg, -1\nbnez \\reg, 1b\n.endm\n"
            "start: count a0\ncount a1\n")
    assert p.symbol("start") == p.symbol("a0_top") == L2_BASE
    assert p.symbol("a1_top") == L2_BASE + 4


def test_conditional_assembly():
    assert list(data(CONDITIONS)) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 14, 15, 16]


def write_files(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def test_include_looks_next_to_the_including_file_then_in_the_include_dirs(tmp_path: Path):
    write_files(tmp_path, {"src/main.s": '.data\n.include "lib/a.inc"\n.byte 9\n',
                           "src/lib/a.inc": '.byte 1\n.include "b.inc"\n.include "c.inc"\n',
                           "src/lib/b.inc": ".byte 2\n",   # next to a.inc
                           "inc/c.inc": ".byte 3\n",       # in an include directory
                           "inc/b.inc": ".byte 0xee\n"})   # hidden by src/lib/b.inc
    main = tmp_path / "src" / "main.s"
    p = assemble(main.read_text(), str(main), family="none", include_dirs=[tmp_path / "inc"])
    assert list(p.section(".data").data) == [1, 2, 3, 9]
    # a string source has no directory of its own: the current one, then the include dirs
    p = assemble('.data\n.include "c.inc"\n', family="none", include_dirs=[str(tmp_path / "inc")])
    assert list(p.section(".data").data) == [3]


def test_include_dir_may_be_a_package_resource():
    from asm_kernels.catalogue import kernel_dir
    p = assemble('.include "common.inc"\n.include "common.inc"\ncore_id t0\n',
                 include_dirs=[kernel_dir()])
    assert len(p.section(".text").data) == 8          # csrr, andi: the guard read it once


def include_errors(tmp_path: Path, source: str, files: dict[str, str]) -> AsmError:
    write_files(tmp_path, files)
    with pytest.raises(AsmError) as info:
        assemble(source, str(tmp_path / "main.s"), family="none")
    return info.value


def test_errors_in_included_files_name_the_file_line_and_column(tmp_path: Path):
    error = include_errors(tmp_path, 'bogus1\n.include "a.inc"\nbogus3\n', {
        "a.inc": 'nop\n  bogus_a\n.include "b.inc"\n.macro m\n  bad_in_m\n.endm\n',
        "b.inc": ".byte 1 /* open\n"})
    a, b = str(tmp_path / "a.inc"), str(tmp_path / "b.inc")
    main = str(tmp_path / "main.s")
    # in reading order: main.s line 1, then a.inc (line 2 of main.s), then b.inc, then line 3
    assert [(d.location.filename, d.location.line, d.location.column, d.message)
            for d in error.diagnostics] == [
        (main, 1, 1, "unknown instruction 'bogus1'; did you mean 'bgtu'?"),
        (a, 2, 3, "unknown instruction 'bogus_a'"),
        (b, 1, 9, "unterminated /* comment"),
        (main, 3, 1, "unknown instruction 'bogus3'; did you mean 'bgtu'?")]
    assert f"""\
{b}:1:9: error: unterminated /* comment
  .byte 1 /* open
          ^
{a}:3:1: note: included from here
  .include "b.inc"
  ^
{main}:2:1: note: included from here
  .include "a.inc"
  ^""" in str(error)


def test_macro_of_an_included_file_names_its_body_line(tmp_path: Path):
    error = include_errors(tmp_path, '.include "m.inc"\n  m\n', {
        "m.inc": ".macro m\n  bad_in_m\n.endm\n"})
    m = str(tmp_path / "m.inc")
    assert str(error).startswith(f"""\
{tmp_path / "main.s"}:2:3: error: unknown instruction 'bad_in_m'
    m
    ^
{m}:2:3: note: in expansion of macro 'm' defined at {m}:1
    bad_in_m
    ^""")


def test_a_file_including_itself_stops_with_one_error(tmp_path: Path):
    error = include_errors(tmp_path, '.include "self.inc"\nnop\n', {
        "self.inc": '.byte 1\n.include "self.inc"\n'})
    assert [d.message for d in error.diagnostics] == [
        f"files and expansions nested more than {macros.MAX_NESTING} deep at this .include: "
        "does a file include itself?"]
    assert "(and 96 more .include sites)" in str(error)


def test_eight_byte_data():
    p = asm(DATA)
    d = bytes(p.section(".data").data)
    base = p.symbol("d")
    assert struct.unpack_from("<5Q", d) == (1 << 40, (1 << 64) - 2, 0xFEDCBA9876543210, base,
                                            base + 4)
    assert struct.unpack_from("<qqQHhII", d, 40) == (3, -1, 0x0102030405060708, 0x102, -1, 5,
                                                     base)
    assert d[76] == 7 and struct.unpack_from("<Q", d, 80) == (80,)


# ---- errors ------------------------------------------------------------------------------------
def errors_of(source: str) -> list[tuple[int, int, str]]:
    with pytest.raises(AsmError) as info:
        asm(source)
    return [(d.location.line, d.location.column, d.message) for d in info.value.diagnostics]


@pytest.mark.parametrize("source, error", [
    (".macro m\nnop\n", (1, 1, ".macro is not closed: no .endm before the end of the file")),
    ("nop\n.rept 3\nnop\n.rept 2\n.endr\n",
     (2, 1, ".rept is not closed: no .endr before the end of the file")),
    (".irp r, a0\nnop\n", (1, 1, ".irp is not closed: no .endr before the end of the file")),
    ("nop\n  .endm\n", (2, 3, ".endm without .macro")),
    (".endr\n", (1, 1, ".endr without .rept, .irp or .irpc")),
    (".exitm\n", (1, 1, ".exitm outside a macro, .rept or .irp")),
    (".macro m a\n.byte \\a\n.endm\n.data\nm z=1\n",
     (5, 3, "macro 'm' has no parameter 'z' (parameters: a)")),
    (".macro m a\n.byte \\z\n.endm\n.data\nm 1\n",
     (5, 1, "'\\z' is not a parameter of macro 'm' (parameters: a)")),
    (".macro m\n.word \\x\n.endm\n.data\nm\n", (5, 1, "'\\x' is not a parameter of macro 'm' "
                                                  "(parameters: none)")),
    (".data\n.irp r, 1\n.byte \\s\n.endr\n", (2, 1, "'\\s' is not a parameter of .irp "
                                                  "(parameters: r)")),
    (".macro m a\n.endm\nm 1, 2\n", (3, 6, "too many arguments: macro 'm' takes 1 "
                                         "(parameters: a)")),
    (".macro m\n.endm\nm 1\n", (3, 3, "too many arguments: macro 'm' takes 0 (no parameters)")),
    (".macro m a, b\n.endm\nm b=1, 2\n",
     (3, 8, "a positional argument cannot follow keyword arguments")),
    (".macro m a\n.endm\nm a=1, a=2\n", (3, 8, "parameter 'a' is given twice")),
    (".macro m a:req\n.endm\n  m\n", (3, 3, "macro 'm' needs a value for parameter 'a' (:req)")),
    (".rept -1\nnop\n.endr\n", (1, 7, ".rept count -1 is negative")),
    (".rept N\nnop\n.endr\n.set N, 1\n",
     (1, 7, "undefined symbol 'N' (constants must be defined before use)")),
    (".rept\n.endr\n", (1, 6, ".rept expects a count")),
    (".irpc c, a, b\n.endr\n", (1, 7, ".irpc expects a symbol, then one string of characters")),
    (".macro m\n.endm\n.macro M\n.endm\n",
     (3, 8, "macro 'M' is already defined (line 1); .purgem it first")),
    (".macro .word\n.endm\n", (1, 8, ".word is a directive; a macro cannot have its name")),
    (".macro 1x\n.endm\n", (1, 8, ".macro expects a name, then its parameters")),
    (".macro m a, a\n.endm\n", (1, 13, "parameter 'a' appears twice")),
    (".macro m a:opt\n.endm\n", (1, 10, "unknown parameter qualifier ':opt' (use :req or "
                                      ":vararg)")),
    (".macro m a:vararg, b\n.endm\n", (1, 20, "parameter 'a' is :vararg, so it must be last")),
    (".purgem m\n", (1, 9, "no macro named 'm' to purge")),
    (".set 1, 2\n", (1, 6, "expected a symbol name, got '1'")),
    ("x: nop\n.set x, 1\n", (2, 1, "symbol 'x' is already defined (line 1)")),
    (".set y, 1\n.set y, 2\ny: nop\n", (3, 1, "symbol 'y' is already defined (line 2)")),
    (".set z, 1\n.equiv z, 2\n", (2, 1, "symbol 'z' is already defined (line 1)")),
    (".equiv z, 1\n.set z, 2\n",
     (2, 1, "symbol 'z' was defined with .equiv (line 1) and cannot be redefined")),
    (".equiv z, 1\nz = 2\n",
     (2, 1, "symbol 'z' was defined with .equiv (line 1) and cannot be redefined")),
    (".if 1\nnop\n", (1, 1, ".if is not closed: no .endif before the end of the file")),
    (".macro m\n  .ifdef x\n.endm\nm\n",
     (4, 1, ".ifdef is not closed: no .endif before the end of the expansion it is part of")),
    ("nop\n .endif\n", (2, 2, ".endif without .if")),
    (".else\n", (1, 1, ".else without .if")),
    (".if 0\n.else\n.elseif 1\n.endif\n", (3, 1, ".elseif after .else (line 2)")),
    (".if\n.endif\n", (1, 4, ".if expects an expression")),
    # shifts are checked before they are computed: a huge count is an error, not a hang
    (".data\n.word 1 + (1 << 100000000000)\n",
     (2, 7, "shift count 100000000000 out of range [0, 63]")),
    (".if 1 <\n.endif\n", (1, 8, "expression ends too early")),
    (".if N\n.byte 1\n.endif\n.set N, 1\n",
     (1, 5, "undefined symbol 'N' (constants must be defined before use)")),
    (".ifdef 1x\n.endif\n", (1, 8, ".ifdef expects a symbol name")),
    (".ifc a0\n.endif\n", (1, 6, ".ifc expects two strings separated by a comma")),
    ('.include "nowhere.inc"\n', (1, 10, "include file 'nowhere.inc' not found (looked for "
                                         "nowhere.inc)")),
    (".include nowhere.inc\n", (1, 10, ".include expects a file name in double quotes")),
])
def test_bad_input_gives_one_located_error(source: str, error: tuple[int, int, str]):
    assert errors_of(source) == [error]


def test_recursion_stops_at_the_nesting_limit():
    # two invocations per level would take 2**100 expansions if the limit only stopped one path
    source = ".macro r\n  r\n  r\n.endm\n.macro s\n  .rept 1\n  s\n  .endr\n.endm\nr\ns\nnop\n"
    assert errors_of(source) == [
        (10, 1, f"expansions nested more than {macros.MAX_NESTING} deep (GNU as's limit too) "
                "when expanding macro 'r': does a macro invoke itself?"),
        (11, 1, f"expansions nested more than {macros.MAX_NESTING} deep (GNU as's limit too) "
                "when expanding macro 's': does a macro invoke itself?")]


def test_expansion_budget(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(macros, "MAX_EXPANDED", 50)
    assert errors_of(".rept 10\n.rept 10\nnop\n.endr\n.endr\nj nowhere\n") == [
        (1, 1, "macro expansions produce more than 50 statements"),
        (6, 3, "operand 1: undefined symbol 'nowhere'")]


def test_a_huge_count_of_nothing_takes_no_time():
    """An empty (or comment-only) body yields no statements, so the statement budget never
    stopped `.rept 10**12`: the assembler spun for hours.  Now it repeats nothing at once."""
    program = asm(".rept 1 << 40\n# nothing\n.endr\n.rept 2\nnop\n.endr\n")
    assert len(program.section(".text").data) == 4


def test_errors_in_expansions_name_the_invocation_and_the_body_line():
    source = """\
.macro inner r
  bogus \\r
.endm
.macro outer x
  nop
  inner \\x
.endm
  outer a0
.rept 2
  j nowhere
.endr
.irp v, 1, 2
  addi a0, a0, \\v * 2000
.endr
"""
    with pytest.raises(AsmError) as info:
        assemble(source, "k.s", family="none")
    report = str(info.value)
    assert report.startswith("""\
k.s:8:3: error: unknown instruction 'bogus'; did you mean 'bgtu'?
    outer a0
    ^
k.s:6:3: note: in expansion of macro 'outer' defined at k.s:4
    inner a0
    ^
k.s:2:3: note: in expansion of macro 'inner' defined at k.s:1
    bogus a0
    ^
k.s:9:1: error: operand 1: undefined symbol 'nowhere'
  .rept 2
  ^
k.s:10:5: note: in expansion of .rept
    j nowhere
      ^
""")
    # the same error in every repetition is reported once; .irp values make the lines differ
    diagnostics = info.value.diagnostics
    assert [(d.location.line, d.message) for d in diagnostics] == [
        (8, "unknown instruction 'bogus'; did you mean 'bgtu'?"),
        (9, "operand 1: undefined symbol 'nowhere'"),
        (12, "operand 3: value 4000 out of range [-2048, 2047]")]
    assert [(s.line, s.column, s.text) for s in diagnostics[2].expansion] == [
        (13, 16, "  addi a0, a0, 2 * 2000")]
