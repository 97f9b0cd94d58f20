"""The linked program: what the assembler and the ELF reader produce and the simulator loads.

A Program is fully linked: every section has its absolute address and final bytes, every symbol
its value; nothing is left to relocate.  The model is deliberately plain data so the simulator,
the trace viewers and the tests can use it without knowing where it came from.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass, field

from toolchain.table import DEFAULT_FAMILY

L2_BASE = 0x1C000000     # PULP L2 memory: default home of .text, .rodata, .data, .bss
TCDM_BASE = 0x10000000   # cluster L1 / TCDM: sections named .l1, .tcdm, .l1.*, .tcdm.*


def is_tcdm_section(name: str) -> bool:
    """Sections that the PULP memory map puts in the cluster's TCDM rather than in L2."""
    return name in (".l1", ".tcdm") or name.startswith((".l1.", ".tcdm."))


@dataclass
class Section:
    """One section at its load address; ``data`` holds zeros for ``nobits`` (.bss-like)."""

    name: str
    addr: int
    data: bytearray
    executable: bool = False
    writable: bool = False
    alloc: bool = True
    nobits: bool = False

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def end(self) -> int:
        return self.addr + len(self.data)

    def contains(self, addr: int) -> bool:
        return self.addr <= addr < self.end


@dataclass(frozen=True)
class Symbol:
    name: str
    value: int
    size: int = 0
    section: str | None = None        # None: an absolute value (``.equ``), not an address
    binding: str = "local"            # "local" | "global" | "weak"
    kind: str = "notype"              # "func" | "object" | "notype"


@dataclass(frozen=True)
class Segment:
    """A piece of memory to load: ``data`` at ``addr``, then zeros up to ``size`` bytes."""

    addr: int
    data: bytes
    size: int
    executable: bool
    writable: bool


@dataclass
class Program:
    sections: list[Section]
    symbols: dict[str, Symbol]
    entry: int
    family: str = DEFAULT_FAMILY
    # explicit load image (an ELF's PT_LOAD headers); None: load the allocated sections
    load: list[Segment] | None = None
    # the assembler's warnings, formatted like its errors (file:line:column, source, caret)
    warnings: list[str] = field(default_factory=list)
    _index: tuple[list[int], list[str]] | None = field(default=None, repr=False, compare=False)

    def section(self, name: str) -> Section:
        for s in self.sections:
            if s.name == name:
                return s
        raise KeyError(f"no section {name!r}")

    def symbol(self, name: str) -> int:
        """Value of symbol ``name``; KeyError with the name if it is not defined."""
        try:
            return self.symbols[name].value
        except KeyError:
            raise KeyError(f"undefined symbol {name!r}") from None

    def section_at(self, addr: int) -> Section | None:
        for s in self.sections:
            if s.alloc and s.contains(addr):
                return s
        return None

    def symbolize(self, addr: int) -> str | None:
        """``"func"`` or ``"func+0x10"``: the nearest symbol at or below ``addr`` in its section."""
        sec = self.section_at(addr)
        if sec is None:
            return None
        values, names = self._symbol_index()
        i = bisect.bisect_right(values, addr) - 1
        while i >= 0:
            value, name = values[i], names[i]
            if value < sec.addr:
                return None
            if self.symbols[name].section == sec.name:
                return name if value == addr else f"{name}+{addr - value:#x}"
            i -= 1
        return None

    def _symbol_index(self) -> tuple[list[int], list[str]]:
        # at one address globals sort after locals, so they win the lookup (nearest = last);
        # built on first use: a Program is not edited once it is being symbolized
        if self._index is None:
            ranked = sorted((s.value, s.binding != "local", s.name)
                            for s in self.symbols.values() if s.section is not None)
            self._index = ([v for v, _, _ in ranked], [n for _, _, n in ranked])
        return self._index

    def segments(self) -> list[Segment]:
        """What to put in memory before running, lowest address first."""
        if self.load is not None:
            return sorted(self.load, key=lambda s: s.addr)
        return [Segment(s.addr, b"" if s.nobits else bytes(s.data), s.size, s.executable,
                        s.writable)
                for s in sorted(self.sections, key=lambda s: s.addr) if s.alloc and s.size]

    def executable_sections(self) -> list[Section]:
        return [s for s in self.sections if s.alloc and s.executable and not s.nobits]
