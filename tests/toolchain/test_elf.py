"""ELF writer and reader: binutils reads our files, we read ours and GCC's, bad input is refused
with a one-line ElfError."""

from __future__ import annotations

import random
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from toolchain.asm import assemble
from toolchain.commands import disassembly
from toolchain.elf import ElfError, elf_bytes, read_elf, write_elf

OBJDUMP = "riscv64-unknown-elf-objdump"
GCC = "riscv64-unknown-elf-gcc"

SOURCE = """
    .globl _start
_start:
    li a0, 100
    la a1, table
loop:
    lw a2, 0(a1)
    addi a1, a1, 4
    addi a0, a0, -1
    bnez a0, loop
    call helper
    ebreak
helper:
    fadd.s fa0, fa1, fa2
    mul a0, a0, a1
    ret
    .data
table: .word 1, 2, 3
    .bss
scratch: .zero 64
    .section .l1, "aw"
tile: .float 1.5
"""


@pytest.fixture(scope="module")
def program():
    return assemble(SOURCE, "k.s", family="xpulpv2")


def test_round_trip_keeps_sections_symbols_entry_family(program, tmp_path):
    path = tmp_path / "k.elf"
    write_elf(program, path)
    back = read_elf(path)
    assert back.entry == program.entry
    assert back.family == "xpulpv2"
    ours = {s.name: (s.addr, bytes(s.data), s.executable, s.writable, s.nobits)
            for s in program.sections if s.size}
    theirs = {s.name: (s.addr, bytes(s.data), s.executable, s.writable, s.nobits)
              for s in back.sections}
    assert theirs == ours
    assert back.symbols == program.symbols
    assert [(s.addr, s.size, s.data) for s in back.segments()] == [
        (s.addr, s.size, s.data) for s in program.segments()]
    assert back.symbolize(program.symbol("loop") + 4) == "loop+0x4"


@pytest.mark.parametrize("family", ["corev", "none"])
def test_family_is_recorded_and_can_be_overridden(family):
    data = elf_bytes(assemble("nop\n", "k.s", family=family))
    assert read_elf(data).family == family
    assert read_elf(data, family="xpulpv2").family == "xpulpv2"


@pytest.mark.needs_tool
def test_objdump_disassembles_our_elf(program, tmp_path):
    if shutil.which(OBJDUMP) is None:
        pytest.skip(f"{OBJDUMP} not installed")
    path = tmp_path / "k.elf"
    write_elf(program, path)
    out = subprocess.run([OBJDUMP, "-d", "-f", str(path)], capture_output=True, text=True,
                         check=True).stdout
    assert "file format elf32-littleriscv" in out and "EXEC_P" in out
    assert "1c000000 <_start>:" in out and "<helper>:" in out and "<loop>:" in out
    for mnemonic in ("auipc", "lw", "bnez", "jalr", "ebreak", "fadd.s", "mul", "ret"):
        assert f"\t{mnemonic}" in out, mnemonic
    assert "unknown" not in out and ".4byte" not in out


def _gcc_elf(tmp: Path) -> Path:
    if shutil.which(GCC) is None:
        pytest.skip(f"{GCC} not installed")
    (tmp / "start.s").write_text(
        ".section .text.start\n.globl _start\n_start:\n  li sp, 0x1c010000\n  call main\n"
        "  ebreak\n")
    (tmp / "k.c").write_text(
        "float scale = 2.5f;\nint counts[4] = {1, 2, 3, 4};\nint zeros[8];\n"
        "int main(void) {\n  float acc = 0;\n  for (int i = 0; i < 4; i++)\n"
        "    acc += counts[i] * scale + zeros[i];\n  return (int)acc / counts[1];\n}\n")
    (tmp / "link.ld").write_text(
        "ENTRY(_start)\nSECTIONS {\n  . = 0x1C000000;\n"
        "  .text : { *(.text.start) *(.text*) }\n  .rodata : { *(.rodata*) *(.srodata*) }\n"
        "  .data : { *(.data*) *(.sdata*) }\n  .bss : { *(.sbss*) *(.bss*) *(COMMON) }\n}\n")
    out = tmp / "k.elf"
    subprocess.run([GCC, "-march=rv32imfc", "-mabi=ilp32f", "-O2", "-nostdlib",
                    "-nostartfiles", "-T", str(tmp / "link.ld"), str(tmp / "start.s"),
                    str(tmp / "k.c"), "-lgcc", "-o", str(out)], check=True,
                   capture_output=True)
    return out


@pytest.mark.needs_tool
def test_gcc_built_elf_loads(tmp_path):
    path = _gcc_elf(tmp_path)
    p = read_elf(path)
    assert p.entry == p.symbol("_start") == 0x1C000000
    assert p.symbols["main"].kind == "func" and p.symbols["main"].binding == "global"
    assert p.symbols["counts"].kind == "object"
    assert p.family == "xpulpv2"
    text = p.section(".text")
    assert text.executable and not text.writable
    assert any(seg.executable and seg.addr == 0x1C000000 for seg in p.segments())
    listing = disassembly(p)
    assert "<main>:" in listing and ".word" not in listing and ".half" not in listing
    # an 8-word int array plus scalars in .bss / .sbss: zero-filled sections keep their size
    assert sum(s.size for s in p.sections if s.nobits) >= 32


# ---- bad input ---------------------------------------------------------------------------------
def _ours() -> bytes:
    return elf_bytes(assemble("_start: nop\n.data\nx: .word 1\n", "k.s"))


def _patched(offset: int, fmt: str, value: int) -> bytes:
    data = bytearray(_ours())
    struct.pack_into(fmt, data, offset, value)
    return bytes(data)


def _section_offset_past_end() -> bytes:
    """The first section after the null one claims data far beyond the end of the file."""
    data = bytearray(_ours())
    shoff = struct.unpack_from("<I", data, 32)[0]
    struct.pack_into("<I", data, shoff + 40 + 16, 0x00FFFFF0)   # sh_offset of section 1
    return bytes(data)


def _stripped(memsz_extra: int) -> bytes:
    """No section headers; the first loadable segment (the code) claims ``memsz_extra`` more
    bytes in memory than in the file."""
    data = bytearray(_ours())
    struct.pack_into("<I", data, 32, 0)          # e_shoff
    struct.pack_into("<H", data, 48, 0)          # e_shnum
    struct.pack_into("<H", data, 50, 0)          # e_shstrndx
    phoff = struct.unpack_from("<I", data, 28)[0]
    filesz = struct.unpack_from("<I", data, phoff + 16)[0]
    struct.pack_into("<I", data, phoff + 20, filesz + memsz_extra)   # p_memsz
    return bytes(data)


BAD = {
    "segment-too-large": (_stripped(0x7FFF0000), "loadable segment at 0x1c000000 claims"),
    "empty": (b"", "not an ELF file"),
    "script": (b"#!/bin/sh\necho hi\n", "not an ELF file"),
    "header-cut": (b"\x7fELF\x01\x01", "truncated ELF file"),
    "elf64": (_patched(4, "B", 2), "64-bit ELF file"),
    "big-endian": (_patched(5, "B", 2), "unsupported ELF encoding"),
    "x86-64": (_patched(18, "<H", 62), "not a RISC-V ELF file"),
    "cut-in-half": (_ours()[:200], "truncated ELF file"),
    "shoff-past-end": (_patched(32, "<I", 0x7FFFFFF0), "truncated ELF file"),
    "phoff-past-end": (_patched(28, "<I", 0x7FFFFFF0), "truncated ELF file"),
    "section-data-past-end": (_section_offset_past_end(), "truncated ELF file"),
    "bad-shentsize": (_patched(46, "<H", 7), "malformed ELF file"),
    "bad-shstrndx": (_patched(50, "<H", 99), "malformed ELF file"),
}


@pytest.mark.parametrize("data, message", list(BAD.values()), ids=list(BAD))
def test_bad_input_raises_one_line_elf_error(data, message):
    with pytest.raises(ElfError) as info:
        read_elf(data)
    text = str(info.value)
    assert text.startswith(message), text
    assert "\n" not in text


def test_random_corruption_never_escapes_as_another_exception():
    """Flip bytes and cut the file at random (fixed seed): reading and listing either work or
    raise ElfError, never a pyelftools exception."""
    rng = random.Random(2024)
    base = _ours()
    refused = 0
    for _ in range(300):
        data = bytearray(base)
        for _ in range(rng.randint(1, 4)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        if rng.random() < 0.2:
            data = data[:rng.randrange(len(data))]
        try:
            disassembly(read_elf(bytes(data)))
        except ElfError as e:
            assert "\n" not in str(e)
            refused += 1
    assert refused > 30


def test_stripped_file_takes_only_the_file_bytes_for_code():
    """A segment's zero-filled tail is data (like .bss), not code to list: a corrupt p_memsz
    once made `isasim disasm` print millions of c.unimp lines."""
    program = read_elf(_stripped(0x1000))
    code = program.executable_sections()
    assert [(s.name, s.size) for s in code] == [(".load0", 2)]
    tail = next(s for s in program.sections if s.name == ".load0.bss")
    assert tail.nobits and tail.addr == code[0].end and tail.size == 0x1000
    assert disassembly(program).count("\n") < 10


def test_missing_file_is_an_os_error(tmp_path):
    with pytest.raises(OSError):
        read_elf(tmp_path / "missing.elf")
