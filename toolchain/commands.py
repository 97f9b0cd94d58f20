"""What ``isasim asm`` and ``isasim disasm`` do, apart from argument parsing.

Kept out of the CLI module so other tools (tests, notebooks, the kernel catalogue) can assemble
a file or list a program's code the same way the command line does.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from toolchain.asm import assemble
from toolchain.asm.lexer import read_source
from toolchain.disasm import disassemble_word
from toolchain.elf import ElfError, read_elf, write_elf
from toolchain.program import Program
from toolchain.table import Isa, load_isa


def assemble_file(source: str | Path, output: str | Path | None = None,
                  family: str = "xpulpv2", rvc: bool = True,
                  include_dirs: Sequence[str | Path] = ()) -> tuple[Path, list[str]]:
    """Assemble ``source`` into an ELF (default: same name with ``.elf``): its path, and the
    assembler's warnings.

    ``.include`` looks next to the including file, then in ``include_dirs`` (like ``as -I``).

    Raises AsmError for bad source and OSError when a file cannot be read or written.
    """
    src = Path(source)
    out = Path(output) if output is not None else src.with_suffix(".elf")
    dirs = [Path(d) for d in include_dirs]
    if src.suffix == ".S":               # through the C preprocessor, as GNU toolchains do
        from toolchain.asm.preprocess import assemble_preprocessed

        program = assemble_preprocessed(src, dirs, family=family, rvc=rvc)
    else:
        program = assemble(read_source(src), str(src), family=family, rvc=rvc,
                           include_dirs=dirs)
    write_elf(program, out)
    return out, program.warnings


def disassembly(program: Program, aliases: bool = True) -> str:
    """objdump-like listing of every executable section: symbol headers, then one line per
    instruction with its address, raw hex and text (branch targets as ``<symbol+off>``)."""
    isa = load_isa(program.family)
    lines: list[str] = []
    for sec in program.executable_sections():
        lines += ["", f"Disassembly of section {sec.name}:"]
        data = bytes(sec.data)
        off = 0
        while off < len(data):
            addr = sec.addr + off
            name = program.symbolize(addr)
            if name is not None and "+" not in name:
                lines += ["", f"{addr:08x} <{name}>:"]
            length, raw, text = _instruction(data, off, addr, program, isa, aliases)
            lines.append(f"{addr:8x}:  {raw:<8}  {text}")
            off += length
    return "\n".join(lines).lstrip("\n") + "\n"


def _instruction(data: bytes, off: int, addr: int, program: Program, isa: Isa, aliases: bool
                 ) -> tuple[int, str, str]:
    """``(length, raw hex, text)`` of the instruction at ``data[off]``; a 16-bit or 8-bit
    remainder at the end of the section is shown as data."""
    rest = len(data) - off
    if rest < 2:
        return 1, f"{data[off]:02x}", f".byte {data[off]:#04x}"
    half = int.from_bytes(data[off:off + 2], "little")
    if half & 3 == 3 and rest < 4:
        return 2, f"{half:04x}", f".half {half:#06x}"
    length = 4 if half & 3 == 3 else 2
    word = int.from_bytes(data[off:off + length], "little")
    raw = f"{word:08x}" if length == 4 else f"{word:04x}"
    return length, raw, disassemble_word(isa, word, addr, program.symbolize, aliases)


def disassemble_file(path: str | Path, family: str | None = None, aliases: bool = True) -> str:
    """The listing of an ELF file; ElfError (naming the file) if it is not an RV32 ELF, OSError
    if it cannot be read."""
    try:
        program = read_elf(Path(path), family)
    except ElfError as e:
        raise ElfError(f"{path}: {e}") from None
    return disassembly(program, aliases)
