"""Whole files, byte for byte against GNU binutils 2.40 (as + ld, ``-mno-relax``).

GNU as leaves address-dependent fields (la, call, tail, %hi/%lo) to the linker, so its object is
linked with a script that places the sections the way our assembler does (.text at L2, then
.rodata, .data, .bss, each aligned to at least 4); then every byte of every section must match.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from coverage_lines import standard_lines
from elftools.elf.elffile import ELFFile

from toolchain.asm import AsmError, assemble
from toolchain.elf import elf_bytes, read_elf
from toolchain.program import L2_BASE

AS = "riscv64-unknown-elf-as"
LD = "riscv64-unknown-elf-ld"
AS_FLAGS = ["-march=rv32imfc_zicsr_zifencei", "-mabi=ilp32f", "-mno-relax"]
SECTIONS = (".text", ".rodata", ".data")
LINKER_SCRIPT = f"""
SECTIONS {{
  . = {L2_BASE:#x};
  .text : {{ *(.text) }}
  .rodata ALIGN(4) : {{ *(.rodata) }}
  .data ALIGN(4) : {{ *(.data) }}
  .bss ALIGN(4) : {{ *(.bss) *(COMMON) }}
}}
"""

# directives, relocation operators and pseudo-instructions around data (no `//` comments: GNU
# as for RISC-V does not know them)
MIXED = r"""
.equ CONST, 0x1234
.set OTHER, CONST * 2 + 1
LIMIT = 1 << 4
.text
.globl _start
_start:
    la a0, table
    lla a1, msg
    lui a2, %hi(table)
    addi a2, a2, %lo(table)
    lw a3, %lo(table)(a2)
    sw a3, %lo(table+4)(a2)
1:  auipc a4, %pcrel_hi(msg)
    addi a4, a4, %pcrel_lo(1b)
    call func
    tail func
    lw a0, table
    lbu a1, table + 5
    lh a2, msg
    lhu a3, msg + 2
    lb a4, buf
    sw a0, table + 8, t0
    sh a1, buf, t1
    sb a2, buf + 15, t2
    flw fa0, table, t3
    fsw fa0, buf + 4, t4
    li a5, 0x12345678
    li a6, CONST
    li a7, LIMIT ; li t0, -LIMIT
    j 2f
    .p2align 3
2:  beqz a0, _start   # comment
func:   /* block */ ret
    .option push
    .option norvc
    addi a0, a0, 1
    .option pop
    addi a0, a0, 1
    .balign 16
    addi a0, a0, 1
    .align 3, 0
.section .rodata
msg: .string "hello\n", "a\"b"
     .asciz "x\101\x42"
     .ascii "ab"
.data
     .byte 1, 2, 'c', '\n'
     .p2align 2
table: .word 1, table, _start + 4, OTHER, . - table
     .half 0x1234, -1
     .short 7
     .float 1.5, -0.1, 3.4028235e38, 1e-45
     .zero 3
     .space 2, 0xaa
     .skip 1
     .2byte 5
     .4byte 6
     .byte (10 - 2) * 3 / 2 % 7, 1 << 3 | 1, ~0 & 0xff, -3 >> 1 & 0xff, 6 ^ 3, 8 - 1 & 3
.bss
buf: .zero 16
"""


def _gnu(source: str, tmp: Path, flags: list[str] | None = None
         ) -> tuple[dict[str, tuple[int, bytes]], dict[str, int]]:
    """Sections (address, bytes) and symbol values of ``source`` built by GNU as (with extra
    ``flags``) + ld."""
    if shutil.which(AS) is None or shutil.which(LD) is None:
        pytest.skip(f"{AS} / {LD} not installed")
    src, obj, exe, script = tmp / "t.s", tmp / "t.o", tmp / "t.elf", tmp / "link.ld"
    src.write_text(source)
    script.write_text(LINKER_SCRIPT)
    run = subprocess.run([AS, *AS_FLAGS, *(flags or []), str(src), "-o", str(obj)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    run = subprocess.run([LD, "-m", "elf32lriscv", "--no-relax", "-T", str(script), str(obj),
                          "-o", str(exe)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    with exe.open("rb") as fh:
        elf = ELFFile(fh)
        sections = {name: (sec["sh_addr"], sec.data()) for name in SECTIONS
                    if (sec := elf.get_section_by_name(name)) is not None}
        symbols = {s.name: s["st_value"] for s in elf.get_section_by_name(".symtab").iter_symbols()
                   if s.name and not s.name.startswith(".L")}
    return sections, symbols


def _first_difference(ours: bytes, theirs: bytes) -> str:
    for i in range(0, max(len(ours), len(theirs)), 2):
        if ours[i:i + 2] != theirs[i:i + 2]:
            return (f"first difference at +{i:#x}: ours {ours[i:i + 4].hex()}, "
                    f"GNU {theirs[i:i + 4].hex()} (sizes {len(ours)} / {len(theirs)})")
    return "equal"


def _compare(source: str, tmp: Path, family: str = "none",
             files: dict[str, str] | None = None) -> None:
    """``files`` (name -> text) are written next to the source for it to ``.include``, and that
    directory is an include directory of both assemblers (GNU as: ``-I``)."""
    for name, text in (files or {}).items():
        (tmp / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp / name).write_text(text)
    theirs, their_symbols = _gnu(source, tmp, ["-I", str(tmp)] if files else [])
    program = (assemble(source, str(tmp / "t.s"), family=family, include_dirs=[tmp]) if files
               else assemble(source, "t.s", family=family))
    for name, (addr, data) in theirs.items():
        sec = program.section(name)
        assert sec.addr == addr, f"{name} at {sec.addr:#x}, GNU ld put it at {addr:#x}"
        assert bytes(sec.data) == data, f"{name}: {_first_difference(bytes(sec.data), data)}"
    for name, sym in program.symbols.items():
        assert their_symbols.get(name) == sym.value, name


@pytest.mark.needs_tool
@pytest.mark.parametrize("option", ["rvc", "norvc"])
@pytest.mark.parametrize("family", ["none", "xpulpv2", "corev"])
def test_standard_lines_file_equals_gnu_as(option: str, family: str, tmp_path: Path) -> None:
    """The Xpulp selection must not change how standard code assembles."""
    source = f".text\n.option {option}\n" + "\n".join(standard_lines()) + "\n"
    _compare(source, tmp_path, family)


@pytest.mark.needs_tool
def test_directives_and_relocations_equal_gnu_as(tmp_path: Path) -> None:
    _compare(MIXED, tmp_path)


# values GNU as keeps quietly (anything whose magnitude fits, signed or not) and values it
# truncates with a warning
TRUNCATED = """.data
  .word 0x1ffffffff, -1, 0xffffffff, -0xffffffff
  .byte 300, -255, 255, -256
  .half -40000, 0x10000
  .dword 0x10000000000000000, -0x8000000000000001
"""


@pytest.mark.needs_tool
def test_truncated_data_values_warn_on_the_lines_gnu_as_warns(tmp_path: Path) -> None:
    _compare(TRUNCATED, tmp_path)
    run = subprocess.run([AS, *AS_FLAGS, str(tmp_path / "t.s"), "-o", str(tmp_path / "w.o")],
                         capture_output=True, text=True)
    theirs = [int(line.split(":")[1]) for line in run.stderr.splitlines()
              if ": Warning: " in line]
    ours = [int(w.split(":")[1]) for w in assemble(TRUNCATED, "t.s").warnings]
    assert ours == theirs == [2, 3, 3, 4, 5]


# .fill, .org (data and code: zeros, not nops), LEB128 (one value per line, as RISC-V GNU as
# takes them), visibility directives (no effect on a linked program), .end
MORE_DIRECTIVES = """.data
a: .fill 3
b: .fill 2, 2, 0x1234
c: .fill 1, 6, 0x11223344
d: .fill 2, 3, -1
e: .uleb128 0
   .uleb128 127
   .uleb128 128
   .uleb128 300
   .uleb128 -1
f: .sleb128 0
   .sleb128 -1
   .sleb128 63
   .sleb128 64
   .sleb128 -64
   .sleb128 -65
   .sleb128 1000000
g: .byte 1
   .org 0x40
h: .byte 2
   .org 0x48, 0xaa
i: .byte 3
   .hidden i
.text
.globl _start
_start: nop
   .org 8
   nop
   .end
   this line is not assembled
"""


@pytest.mark.needs_tool
def test_fill_org_leb128_and_end_equal_gnu_as(tmp_path: Path) -> None:
    _compare(MORE_DIRECTIVES, tmp_path)


@pytest.mark.needs_tool
def test_error_and_warning_directives_report_like_gnu_as(tmp_path: Path) -> None:
    source = '.data\n.fill 2, 9, 1\n.fill -1, 1, 1\n.warning\n.warning "careful, now"\n'
    (tmp_path / "w.s").write_text(source + '.error "bad"\n')
    run = subprocess.run([AS, *AS_FLAGS, str(tmp_path / "w.s"), "-o", str(tmp_path / "w.o")],
                         capture_output=True, text=True)
    theirs = [line.split(": ", 1)[1] for line in run.stderr.splitlines()[1:]]
    with pytest.raises(AsmError) as info:
        assemble(source + '.error "bad"\n', "w.s")
    assert [d.message for d in info.value.diagnostics] == ["bad"]
    ours = [w.split("\n")[0].split(": ", 1)[1] for w in assemble(source, "w.s").warnings]
    assert ours == [t.replace("Warning: ", "warning: ") for t in theirs[:-1]]
    assert theirs[-1] == "Error: bad"


# .weak: a defined weak symbol is an ordinary (global) one; an undefined one links to 0
WEAK = """.weak missing
.weak handler
.globl _start
.text
_start: la a0, missing
        lui a1, %hi(missing)
        call handler
handler: ret
.data
table: .word missing, handler, missing + 8
"""


@pytest.mark.needs_tool
def test_weak_symbols_equal_gnu_as_and_ld(tmp_path: Path) -> None:
    _compare(WEAK, tmp_path)
    program = assemble(WEAK, "t.s")
    assert program.symbols["handler"].binding == "weak" and "missing" not in program.symbols
    data = elf_bytes(program)
    assert read_elf(data).symbols["handler"].binding == "weak"


# common symbols as C compilers emit them (gcc -O0 puts a static array in `.local` + `.comm`,
# -fcommon a global in `.comm`), .lcomm, default and explicit alignments, in and around .bss
COMMON = """.text
.globl _start
_start:
    la a0, big
    la a1, lstat
    lw a2, lbuf
    sw a2, pad, t0
    ret
.bss
pad: .zero 3
.lcomm lbuf, 6
.local lstat
.comm lstat, 40, 4
.bss
tail: .zero 1
.lcomm one, 1
.lcomm five, 5
.comm big, 24, 4
.comm small, 3
"""


@pytest.mark.needs_tool
def test_common_symbols_equal_gnu_as_and_ld(tmp_path: Path) -> None:
    _compare(COMMON, tmp_path)
    program = assemble(COMMON, "t.s")
    bss = program.section(".bss")
    assert all(bss.addr <= program.symbols[s].value < bss.addr + len(bss.data)
               for s in ("lbuf", "lstat", "one", "five", "big", "small"))
    assert program.symbols["big"].binding == "global"
    assert program.symbols["lstat"].binding == program.symbols["lbuf"].binding == "local"


# .insn: every 32-bit format, named and numeric opcodes, both i/s operand shapes, pc-relative
# b/j targets backwards and forwards, and the raw forms
INSN = """.text
.globl _start
_start:
.insn r 0x33, 0, 0, a0, a1, a2
.insn r OP, 0, 0, a0, a1, a2
.insn r CUSTOM_0, 7, 0x7f, x1, x2, x3
.insn r4 0x43, 0, 0, fa0, fa1, fa2, fa3
.insn i 0x13, 0, a0, a1, -5
.insn i LOAD, 2, a0, 8(a1)
.insn s 0x23, 2, a0, -4(sp)
.insn b 0x63, 0, a0, a1, _start
.insn b BRANCH, 1, a0, a1, later
.insn u 0x37, a0, 0x12345
.insn j 0x6f, ra, _start
.insn j JAL, zero, later
.insn 0x00000013
.insn 4, 0x00a58533
.insn 2, 0x0001
.insn 0x4501
.insn sb BRANCH, 0, a0, a1, _start
.insn uj JAL, ra, later
later: nop
.insn cr C2, 9, a0, a1
.insn cr 2, 15, ft0, ft11
.insn ci C1, 0, a0, 31
.insn ci 1, 2, s0, -32
.insn ciw C0, 0, a5, 255
.insn ciw 0, 0, fs0, 1
.insn css 2, 6, a0, 63
.insn css C2, 7, fa1, 0
.insn cl C0, 2, a0, 31(a1)
.insn cl 0, 3, fa5, 0(s0)
.insn cs 0, 6, s1, 21(a5)
.insn ca C1, 0x23, 3, a0, a1
.insn cb C1, 6, a0, later
.insn cb 1, 7, s1, back
.insn cj C1, 5, later
.insn cj 1, 1, back
back: .insn cb 1, 6, a2, 2f
.space 200
2: .insn cj 1, 5, _start
"""


@pytest.mark.needs_tool
def test_insn_directive_equals_gnu_as(tmp_path: Path) -> None:
    _compare(INSN, tmp_path)


@pytest.mark.needs_tool
def test_incbin_equals_gnu_as(tmp_path: Path) -> None:
    source = ('.data\na: .incbin "blob.bin"\nb: .incbin "blob.bin", 2\n'
              'c: .incbin "sub/blob.bin", 3, 4\n')
    _compare(source, tmp_path, files={"blob.bin": "ABCDEFGHIJ", "sub/blob.bin": "0123456789"})
