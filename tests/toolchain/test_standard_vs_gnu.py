"""The standard tables (RV32IMFC, Zicsr, mret/wfi) against GNU binutils 2.40.

Every line of ``coverage_lines`` is assembled once by GNU as with a marker label in front of it;
the marker offsets (from the object's symbol table) cut the section into per-line slices, which
must equal what the table encodes for that line (compressed the way GNU as does when RVC is on).
objdump's text for the same bytes must equal our disassembly, which checks alias order and
operand templates.  Multi-instruction pseudo-instructions (la, call, tail, large li) are the
assembler's business; their bytes are compared by its whole-file tests.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from coverage_lines import rvc_lines, standard_lines
from elftools.elf.elffile import ELFFile

from toolchain import load_isa
from toolchain.disasm import disassemble
from toolchain.fields import Field
from toolchain.operands import OperandError, match_instruction
from toolchain.table import Isa

AS = "riscv64-unknown-elf-as"
OBJDUMP = "riscv64-unknown-elf-objdump"
AS_FLAGS = ["-march=rv32imfc_zicsr_zifencei", "-mabi=ilp32f", "-mno-relax"]
MULTI = {"la", "call", "tail"}           # always several instructions
_LABEL = re.compile(r"^(\w+):$")
_NUMREF = re.compile(r"^(\d+)([fb])$")

# (line set, rvc): standard_lines under both settings, the explicit c.* lines with rvc only
CASES = [("standard", True), ("standard", False), ("rvc", True)]


def _lines(which: str) -> list[str]:
    return standard_lines() if which == "standard" else rvc_lines()


@dataclass
class Assembled:
    lines: list[str]
    text: bytes
    starts: list[int]    # offset of each line; starts[len(lines)] is the end
    # objdump output by address, {False: default (aliases), True: -M no-aliases}
    objdump: dict[bool, dict[int, tuple[int, str, str]]]

    def labels(self, index: int) -> dict[str, int]:
        """Label values as seen from line ``index`` (numeric labels as GNU as resolves 1f/1b)."""
        out: dict[str, int] = {}
        for i, line in enumerate(self.lines):
            m = _LABEL.match(line)
            if not m:
                continue
            name = m.group(1)
            if name.isdigit():
                if i < index:
                    out[name + "b"] = self.starts[i]
                elif name + "f" not in out:
                    out[name + "f"] = self.starts[i]
            else:
                out[name] = self.starts[i]
        return out


_CACHE: dict[tuple[str, bool], Assembled] = {}


def _gnu(which: str, rvc: bool) -> Assembled:
    """Assemble the lines with marker labels; cached per (lines, rvc) for the module."""
    key = (which, rvc)
    if key not in _CACHE:
        if shutil.which(AS) is None or shutil.which(OBJDUMP) is None:
            pytest.skip(f"{AS} / {OBJDUMP} not installed")
        lines = _lines(which)
        src = [".text", f".option {'rvc' if rvc else 'norvc'}"]
        for i, line in enumerate(lines):
            src += [f"__line_{i}:", line]
        src.append(f"__line_{len(lines)}:")
        with tempfile.TemporaryDirectory() as tmp:
            s, o = Path(tmp, "t.s"), Path(tmp, "t.o")
            s.write_text("\n".join(src) + "\n")
            run = subprocess.run([AS, *AS_FLAGS, str(s), "-o", str(o)],
                                 capture_output=True, text=True)
            assert run.returncode == 0, run.stderr
            with o.open("rb") as fh:
                elf = ELFFile(fh)
                text = elf.get_section_by_name(".text").data()
                marks = {sym.name: sym["st_value"]
                         for sym in elf.get_section_by_name(".symtab").iter_symbols()
                         if sym.name.startswith("__line_")}
            dumps = {}
            for opt in ([], ["-M", "no-aliases"]):
                dumps[bool(opt)] = subprocess.run([OBJDUMP, "-d", *opt, str(o)],
                                                  capture_output=True, text=True,
                                                  check=True).stdout
        starts = [marks[f"__line_{i}"] for i in range(len(lines) + 1)]
        _CACHE[key] = Assembled(lines, text, starts,
                                {k: _parse_objdump(v) for k, v in dumps.items()})
    return _CACHE[key]


def _evaluator(labels: dict[str, int]) -> Callable[[str, Field], int]:
    """Numbers, and labels at their GNU as offsets."""
    def evaluate(text: str, field: Field) -> int:
        text = text.strip()
        if text in labels:
            return labels[text]
        if _NUMREF.match(text) or re.match(r"^[A-Za-z_]\w*$", text):
            raise OperandError(f"label {text!r} is not defined here")
        return int(text, 0)
    return evaluate


def _encode_line(isa: Isa, line: str, pc: int, labels: dict[str, int], rvc: bool
                 ) -> bytes | None:
    """Our bytes for one source line; None for lines that are not one instruction."""
    if _LABEL.match(line) or line.startswith("."):
        return None
    mnemonic, _, ops = line.partition(" ")
    if mnemonic in MULTI:
        return None
    try:
        m = match_instruction(isa, mnemonic, ops, pc, _evaluator(labels))
    except OperandError:
        if mnemonic == "li":          # a value beyond 12 bits: lui + addi
            return None
        raise
    entry, values = m.entry, m.values
    if rvc:
        packed = isa.compress(entry, values, m.written)
        if packed is not None:
            entry, values = packed
    return isa.encode(entry, values).to_bytes(entry.length, "little")


@pytest.mark.needs_tool
@pytest.mark.parametrize("which, rvc", CASES)
def test_bytes_equal_gnu_as(which: str, rvc: bool) -> None:
    asm = _gnu(which, rvc)
    isa = load_isa("none")
    compared = 0
    wrong: list[str] = []
    for i, line in enumerate(asm.lines):
        start, end = asm.starts[i], asm.starts[i + 1]
        try:
            ours = _encode_line(isa, line, start, asm.labels(i), rvc)
        except (OperandError, ValueError) as e:
            wrong.append(f"{line!r}: we refuse it ({e}); GNU as: {asm.text[start:end].hex()}")
            continue
        if ours is None:
            continue
        compared += 1
        if ours != asm.text[start:end]:
            wrong.append(f"{line!r} at {start:#x}: ours {ours.hex()}, "
                         f"GNU as {asm.text[start:end].hex()}")
    assert not wrong, f"{len(wrong)} of {compared} lines differ:\n" + "\n".join(wrong[:40])
    assert compared > len(asm.lines) // 2


# ---- disassembly text against objdump ----------------------------------------------------------
_OBJ_LINE = re.compile(r"^\s*([0-9a-f]+):\s+([0-9a-f]+)\s+(\S+)\s*(.*)$")


def _parse_objdump(out: str) -> dict[int, tuple[int, str, str]]:
    """address -> (word, mnemonic, operands without the ``# ...`` / ``<sym>`` annotations)."""
    rows: dict[int, tuple[int, str, str]] = {}
    for raw in out.splitlines():
        m = _OBJ_LINE.match(raw)
        if not m:
            continue
        ops = re.sub(r"\s*#.*$", "", m.group(4))
        ops = re.sub(r"\s*<[^>]*>", "", ops).strip()
        rows[int(m.group(1), 16)] = (int(m.group(2), 16), m.group(3), ops)
    return rows


def _objdump_text(isa: Isa, row: tuple[int, str, str], word: int, ours: str) -> str:
    """objdump's text in our spelling (``ours``: the mnemonic we print).

    - Branch and jump targets: objdump writes bare hex (``32``), we write ``0x32``.
    - objdump prints register-immediate instructions under the register-register name when
      rd, rs1 and the immediate are written out (``add a0,a1,-5`` for addi, likewise
      xor/or/and/sll/srl/sra) and ``andi rd,rs,255`` as ``zext.b``; we print the real name
      (and have no zext.b alias).
    - objdump -M no-aliases writes c.nop as ``c.addi zero,0``.
    """
    _, mnemonic, ops = row
    d = isa.decode(word)
    assert d is not None
    if any(f.kind == "pcrel" for f in d.entry.fields.values()):
        head, _, target = ops.rpartition(",")
        ops = (head + "," if head else "") + f"{int(target, 16):#x}"
    renamed = (mnemonic in ("add", "xor", "or", "and", "sll", "srl", "sra")
               and d.entry.name == mnemonic + "i") or (d.entry.name, mnemonic) == ("andi", "zext.b")
    if renamed and ours != mnemonic:
        mnemonic = d.entry.name
        if ops.count(",") == 1:
            ops += ",255"
    if (mnemonic, ops) == ("c.addi", "zero,0"):
        mnemonic, ops = "c.nop", ""
    return f"{mnemonic} {ops}".strip()


@pytest.mark.needs_tool
@pytest.mark.parametrize("which, rvc", CASES)
def test_disassembly_equals_objdump(which: str, rvc: bool) -> None:
    """Every instruction GNU as emitted reads the same in objdump and in our disassembler
    (objdump's alias spelling for 32-bit words, its ``-M no-aliases`` c.* names for RVC)."""
    asm = _gnu(which, rvc)
    isa = load_isa("none")
    spaces = [(asm.starts[i], asm.starts[i + 1]) for i, line in enumerate(asm.lines)
              if line.startswith(".space")]
    wrong: list[str] = []
    rows = asm.objdump
    compared = 0
    for addr, row in sorted(rows[False].items()):
        if any(a <= addr < b for a, b in spaces):
            continue
        compared += 1
        word = int.from_bytes(asm.text[addr:addr + 4], "little")
        d = isa.decode(word)
        assert d is not None, f"{addr:#x}: we cannot decode {word:#010x} ({row})"
        mnemonic, ops = disassemble(isa, d, addr)
        theirs = _objdump_text(isa, rows[True][addr] if d.length == 2 else row, d.word, mnemonic)
        ours = f"{mnemonic} {ops}".strip()
        if ours != theirs:
            wrong.append(f"{addr:#x} {d.word:#x}: ours {ours!r}, objdump {theirs!r}")
    assert not wrong, f"{len(wrong)} of {compared} differ:\n" + "\n".join(wrong[:40])
    assert compared > len(asm.lines) // 2


# ---- the lines themselves cover the table (no tool needed) -------------------------------------
def test_lines_use_every_standard_entry_and_alias() -> None:
    """standard_lines (compressed as with RVC on) and rvc_lines together reach every entry and
    every alias of the standard files; only c.jal needs its explicit spelling."""
    isa = load_isa("none")
    used_entries: dict[str, set[str]] = {"standard": set(), "rvc": set()}
    used_aliases: set[int] = set()
    for which in ("standard", "rvc"):
        for line in _lines(which):
            if _LABEL.match(line) or line.startswith("."):
                continue
            mnemonic, _, ops = line.partition(" ")
            try:
                m = match_instruction(isa, mnemonic, ops, 0, lambda t, f: 0 if
                                      (_NUMREF.match(t) or t.isidentifier()) else int(t, 0))
            except OperandError:
                assert mnemonic in MULTI | {"li"}, line
                continue
            used_entries[which].add(m.entry.key)
            packed = isa.compress(m.entry, m.values, m.written)
            if packed is not None:
                used_entries[which].add(packed[0].key)
            if m.alias is not None:
                used_aliases.add(id(m.alias))
    every = {e.key for e in isa.entries if not e.hint}      # HINTs are never emitted
    assert every - used_entries["standard"] == {"c.jal"}
    assert every - used_entries["rvc"] == {e.key for e in isa.entries if e.length == 4}
    missing = [a.name for a in isa.aliases if id(a) not in used_aliases]
    assert not missing, f"aliases never used: {missing}"
