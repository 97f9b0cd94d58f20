"""ELF32 RISC-V files: write a linked Program, read one back (ours, or a GCC/LLVM build).

Writing produces an ordinary executable (ET_EXEC, one PT_LOAD per allocated section, a symbol
table) so binutils can inspect it; the Xpulp family is kept in a small non-allocated section
(``.isasim.xpulp``) because nothing standard records it.  Reading uses pyelftools and turns every
kind of bad input into an ``ElfError`` with a one-line message.
"""

from __future__ import annotations

import io
import os
import struct
from pathlib import Path

from toolchain.program import Program, Section, Segment, Symbol
from toolchain.table import DEFAULT_FAMILY, SelectionError, parse_selection

EM_RISCV = 243
ET_EXEC = 2
PT_LOAD = 1
PF_X, PF_W, PF_R = 1, 2, 4
SHT_PROGBITS, SHT_SYMTAB, SHT_STRTAB, SHT_NOBITS = 1, 2, 3, 8
SHT_RISCV_ATTRIBUTES = 0x70000003
SHF_WRITE, SHF_ALLOC, SHF_EXECINSTR = 1, 2, 4
SHN_ABS = 0xFFF1
EF_RISCV_RVC = 0x1
EF_RISCV_FLOAT_ABI_SINGLE = 0x2
FAMILY_SECTION = ".isasim.xpulp"
ARCH = "rv32i2p1_m2p0_f2p2_c2p0_zicsr2p0_zifencei2p0"

_EHDR = struct.Struct("<16sHHIIIIIHHHHHH")
_PHDR = struct.Struct("<IIIIIIII")
_SHDR = struct.Struct("<IIIIIIIIII")
_SYM = struct.Struct("<IIIBBH")
_BIND = {"local": 0, "global": 1, "weak": 2}
_TYPE = {"notype": 0, "object": 1, "func": 2}


class ElfError(ValueError):
    """The input is not an ELF32 RISC-V file we can load; the message is one line."""


# ---- writing -----------------------------------------------------------------------------------
class _Strings:
    """A string table: NUL-separated names, offset 0 is the empty name."""

    def __init__(self) -> None:
        self.data = bytearray(b"\0")
        self._at: dict[str, int] = {"": 0}

    def add(self, name: str) -> int:
        if name not in self._at:
            self._at[name] = len(self.data)
            self.data += name.encode() + b"\0"
        return self._at[name]


def _attributes() -> bytes:
    """``.riscv.attributes`` naming the ISA, so objdump decodes with the right extensions."""
    arch = b"\x05" + ARCH.encode() + b"\0"                 # Tag_RISCV_arch (5), NTBS
    file_sub = b"\x01" + struct.pack("<I", 5 + len(arch)) + arch   # Tag_File (1)
    vendor = b"riscv\0" + file_sub
    return b"A" + struct.pack("<I", 4 + len(vendor)) + vendor


def elf_bytes(program: Program) -> bytes:
    """The ELF32 image of ``program``."""
    alloc = [s for s in program.sections if s.alloc]
    shstr = _Strings()
    strtab = _Strings()

    # (name, type, flags, addr, data, size, link, info, align, entsize)
    headers: list[list] = [["", 0, 0, 0, b"", 0, 0, 0, 0, 0]]
    index: dict[str, int] = {}
    for s in alloc:
        index[s.name] = len(headers)
        flags = SHF_ALLOC | (SHF_WRITE if s.writable else 0) | (SHF_EXECINSTR if s.executable
                                                                else 0)
        headers.append([s.name, SHT_NOBITS if s.nobits else SHT_PROGBITS, flags, s.addr,
                        b"" if s.nobits else bytes(s.data), s.size, 0, 0, 4, 0])
    headers.append([".riscv.attributes", SHT_RISCV_ATTRIBUTES, 0, 0, _attributes(), None, 0, 0,
                    1, 0])
    headers.append([FAMILY_SECTION, SHT_PROGBITS, 0, 0, program.family.encode(), None, 0, 0, 1,
                    0])

    # ELF puts every local symbol before the global and weak ones
    symbols = sorted(program.symbols.values(), key=lambda s: (s.binding != "local", s.value))
    symdata = bytearray(_SYM.size)   # the null symbol
    first_global = 1 + sum(1 for s in symbols if s.binding == "local")
    for sym in symbols:
        shndx = index.get(sym.section, SHN_ABS) if sym.section is not None else SHN_ABS
        symdata += _SYM.pack(strtab.add(sym.name), sym.value & 0xFFFFFFFF, sym.size,
                             _BIND.get(sym.binding, 0) << 4 | _TYPE.get(sym.kind, 0), 0, shndx)
    symtab_index = len(headers)
    headers.append([".symtab", SHT_SYMTAB, 0, 0, bytes(symdata), None, symtab_index + 1,
                    first_global, 4, _SYM.size])
    headers.append([".strtab", SHT_STRTAB, 0, 0, bytes(strtab.data), None, 0, 0, 1, 0])
    shstrndx = len(headers)
    headers.append([".shstrtab", SHT_STRTAB, 0, 0, b"", None, 0, 0, 1, 0])
    for h in headers:
        h[0] = shstr.add(h[0])
    headers[-1][4] = bytes(shstr.data)

    loads = [s for s in alloc if s.size]
    out = bytearray(_EHDR.size + _PHDR.size * len(loads))
    offsets: list[int] = []
    for h in headers:
        data, addr = h[4], h[3]
        if h[1] == SHT_NOBITS or not data:
            offsets.append(len(out) if h[1] != 0 else 0)
            continue
        while len(out) % 4 != addr % 4:   # offset congruent to address for p_align = 4
            out.append(0)
        offsets.append(len(out))
        out += data
    while len(out) % 4:
        out.append(0)
    shoff = len(out)
    for h, off in zip(headers, offsets, strict=True):
        name, typ, flags, addr, data, size, link, info, align, entsize = h
        out += _SHDR.pack(name, typ, flags, addr, off, len(data) if size is None else size,
                          link, info, align, entsize)

    phdrs = bytearray()
    for s in loads:
        off = offsets[index[s.name]]
        flags = PF_R | (PF_W if s.writable else 0) | (PF_X if s.executable else 0)
        phdrs += _PHDR.pack(PT_LOAD, off, s.addr, s.addr, 0 if s.nobits else s.size, s.size,
                            flags, 4)
    out[_EHDR.size:_EHDR.size + len(phdrs)] = phdrs
    ident = b"\x7fELF" + bytes([1, 1, 1, 0]) + bytes(8)
    out[:_EHDR.size] = _EHDR.pack(
        ident, ET_EXEC, EM_RISCV, 1, program.entry, _EHDR.size if loads else 0, shoff,
        EF_RISCV_RVC | EF_RISCV_FLOAT_ABI_SINGLE, _EHDR.size, _PHDR.size, len(loads),
        _SHDR.size, len(headers), shstrndx)
    return bytes(out)


def write_elf(program: Program, path: str | os.PathLike[str]) -> None:
    Path(path).write_bytes(elf_bytes(program))


# ---- reading -----------------------------------------------------------------------------------
def read_elf(source: str | os.PathLike[str] | bytes, family: str | None = None) -> Program:
    """A Program from an ELF32 RISC-V executable; ElfError if the input is not one.

    ``family`` overrides the Xpulp family recorded in the file (default: recorded, else
    xpulpv2).  OSError propagates when a path cannot be read.
    """
    data = bytes(source) if isinstance(source, bytes | bytearray) else Path(source).read_bytes()
    if family is not None:
        parse_selection(family)    # SelectionError (a ValueError) names what is wrong
    if len(data) < 4 or data[:4] != b"\x7fELF":
        raise ElfError("not an ELF file (no \\x7fELF magic)")
    if len(data) < _EHDR.size:
        raise ElfError(f"truncated ELF file: {len(data)} bytes, shorter than the ELF header")
    if data[4] == 2:
        raise ElfError("64-bit ELF file; only ELF32 (RV32) programs are supported")
    if data[4] != 1 or data[5] != 1:
        raise ElfError("unsupported ELF encoding; expected ELF32 little-endian")
    header = _EHDR.unpack_from(data)
    machine = header[2]
    if machine != EM_RISCV:
        raise ElfError(f"not a RISC-V ELF file (e_machine = {machine}, RISC-V is {EM_RISCV})")
    phoff, shoff, phentsize, phnum, shentsize, shnum = (header[5], header[6], header[9],
                                                        header[10], header[11], header[12])
    for what, offset, size in (("program", phoff, phentsize * phnum),
                               ("section", shoff, shentsize * shnum)):
        if size and offset + size > len(data):
            raise ElfError(f"truncated ELF file: the {what} header table ends at byte "
                           f"{offset + size}, past the end of the file ({len(data)} bytes)")
    try:
        return _parse(data, family)
    except ElfError:
        raise
    except Exception as e:   # pyelftools raises many types on corrupt input; one line each
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise ElfError(f"malformed ELF file: {first}") from None


# an allocated section or segment larger than this is refused before memory is set aside for
# it: far beyond any PULP memory, and a corrupt size field must not exhaust the host
MAX_ALLOC_BYTES = 1 << 28


def _check_size(what: str, addr: int, size: int) -> None:
    if size > MAX_ALLOC_BYTES:
        raise ElfError(f"{what} at {addr:#010x} claims {size} bytes, more than the "
                       f"{MAX_ALLOC_BYTES >> 20} MiB a program may occupy")


def _parse(data: bytes, family: str | None) -> Program:
    from elftools.elf.constants import SH_FLAGS
    from elftools.elf.elffile import ELFFile

    elf = ELFFile(io.BytesIO(data))
    sections: list[Section] = []
    names_by_index: dict[int, str] = {}
    recorded: str | None = None
    for i, sec in enumerate(elf.iter_sections()):
        h = sec.header
        nobits = h["sh_type"] == "SHT_NOBITS"
        if not nobits and h["sh_type"] != "SHT_NULL" and h["sh_offset"] + h["sh_size"] > len(data):
            raise ElfError(f"truncated ELF file: section {sec.name or i} ends past the file end")
        if sec.name == FAMILY_SECTION:
            recorded = sec.data().decode(errors="replace")
        if not h["sh_flags"] & SH_FLAGS.SHF_ALLOC or h["sh_size"] == 0:
            continue
        names_by_index[i] = sec.name
        _check_size(f"section {sec.name or i}", h["sh_addr"], h["sh_size"])
        sections.append(Section(
            sec.name, h["sh_addr"], bytearray(h["sh_size"]) if nobits else bytearray(sec.data()),
            executable=bool(h["sh_flags"] & SH_FLAGS.SHF_EXECINSTR),
            writable=bool(h["sh_flags"] & SH_FLAGS.SHF_WRITE), nobits=nobits))

    load: list[Segment] = []
    for seg in elf.iter_segments():
        h = seg.header
        if h["p_type"] != "PT_LOAD" or h["p_memsz"] == 0:
            continue
        if h["p_offset"] + h["p_filesz"] > len(data):
            raise ElfError("truncated ELF file: a loadable segment ends past the file end")
        _check_size("loadable segment", h["p_paddr"], h["p_memsz"])
        load.append(Segment(h["p_paddr"], seg.data(), h["p_memsz"], bool(h["p_flags"] & PF_X),
                            bool(h["p_flags"] & PF_W)))
    if not sections:   # no section headers (stripped): sections from the loadable segments
        sections = _segment_sections(load)
    if not load:
        raise ElfError("ELF file has nothing to load (no PT_LOAD segment)")

    symbols = _symbols(elf, names_by_index)
    chosen = family or (recorded if _valid_selection(recorded) else DEFAULT_FAMILY)
    return Program(sections, symbols, elf.header["e_entry"], chosen, load=load)


def _valid_selection(text: str | None) -> bool:
    try:
        return text is not None and bool(parse_selection(text))
    except SelectionError:
        return False


def _segment_sections(load: list[Segment]) -> list[Section]:
    """What a stripped file's segments hold: the bytes of each, and its zero-filled tail
    (``p_memsz`` past ``p_filesz``, a linker's .bss) as a section of its own, so that only
    the file's bytes are taken for code."""
    out = []
    for i, s in enumerate(load):
        if s.data:
            out.append(Section(f".load{i}", s.addr, bytearray(s.data), executable=s.executable,
                               writable=s.writable))
        if s.size > len(s.data):
            out.append(Section(f".load{i}.bss", s.addr + len(s.data),
                               bytearray(s.size - len(s.data)), writable=s.writable,
                               nobits=True))
    return out


def _symbols(elf, names_by_index: dict[int, str]) -> dict[str, Symbol]:
    out: dict[str, Symbol] = {}
    table = elf.get_section_by_name(".symtab")
    if table is None or not hasattr(table, "iter_symbols"):
        return out
    kinds = {"STT_FUNC": "func", "STT_OBJECT": "object"}
    for sym in table.iter_symbols():
        e = sym.entry
        kind = e["st_info"]["type"]
        shndx = e["st_shndx"]
        if not sym.name or sym.name.startswith("$") or kind in ("STT_SECTION", "STT_FILE"):
            continue
        if shndx == "SHN_UNDEF":
            continue
        section = names_by_index.get(shndx) if isinstance(shndx, int) else None
        if isinstance(shndx, int) and section is None:
            continue   # a symbol of a section that is not loaded (debug info and such)
        binding = {"STB_GLOBAL": "global", "STB_WEAK": "weak"}.get(e["st_info"]["bind"],
                                                                    "local")
        if sym.name in out and (out[sym.name].binding != "local" or binding == "local"):
            continue   # one symbol per name: the global (or weak) one, else the first local
        out[sym.name] = Symbol(sym.name, e["st_value"], e["st_size"], section, binding,
                               kinds.get(kind, "notype"))
    return out
