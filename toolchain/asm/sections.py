"""Sections while assembling: their flags, their items, and where the linker step puts them.

Default flags follow GNU as's section-name conventions (``.text*`` code, ``.rodata*`` read-only,
``.bss*`` zero-filled).  Placement is what a linker script for the PULP memory map would do: code,
read-only data, data and zero-filled sections one after another in L2, and ``.l1``/``.tcdm``
sections in the cluster's TCDM.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from toolchain.asm.errors import SourceError
from toolchain.program import L2_BASE, TCDM_BASE, is_tcdm_section

if TYPE_CHECKING:
    from toolchain.asm.items import Item

SECTION_ALIGN = 4   # every placed section starts word-aligned, whatever it asked for


@dataclass
class SectionState:
    name: str
    executable: bool = False
    writable: bool = False
    alloc: bool = True
    nobits: bool = False
    items: list[Item] = field(default_factory=list)
    align: int = 1                          # largest alignment any directive asked for
    base: int = 0                           # address, once placed
    offsets: list[int] = field(default_factory=list)  # item start offsets, then the end

    @property
    def size(self) -> int:
        return self.offsets[-1] if self.offsets else 0

    def address(self, index: int) -> int:
        return self.base + self.offsets[index]


def default_flags(name: str) -> tuple[str, bool]:
    """``(flags, nobits)`` GNU as gives a section of this name when none are written.

    Names GNU as does not know get ``"aw"`` here (GNU as: no flags, i.e. not loaded) because a
    section in a program for the simulator is only useful if it is loaded.
    """
    base = name.split(".", 2)[1] if name.startswith(".") else name
    if base in ("text", "init", "fini"):
        return "ax", False
    if base in ("rodata", "srodata"):
        return "a", False
    if base in ("bss", "sbss", "tbss"):
        return "aw", True
    return "aw", False


def make_section(name: str, flags: str | None, kind: str | None) -> SectionState:
    """A new section from ``.section NAME, "flags", @kind`` (flags/kind None when omitted)."""
    default, nobits = default_flags(name)
    if flags is None:
        flags = default
    unknown = set(flags) - set("awxMSGTR?o")
    if unknown:
        raise SourceError(f"unknown section flag {''.join(sorted(unknown))!r} "
                          "(a = alloc, w = write, x = execute)")
    if kind is not None:
        if kind not in ("progbits", "nobits"):
            raise SourceError(f"unknown section type @{kind} (use @progbits or @nobits)")
        nobits = kind == "nobits"
    return SectionState(name, executable="x" in flags, writable="w" in flags,
                        alloc="a" in flags, nobits=nobits)


def _rank(s: SectionState) -> int:
    """Order within one memory: code, read-only data, data, then zero-filled sections."""
    if s.nobits:
        return 3
    if s.executable:
        return 0
    return 2 if s.writable else 1


_FIRST = {".text": 0, ".rodata": 1, ".data": 2, ".bss": 3}


def place(sections: list[SectionState], l2_base: int = L2_BASE, tcdm_base: int = TCDM_BASE
          ) -> None:
    """Set every allocated section's ``base``; non-allocated sections stay at 0."""
    memories: dict[bool, list[SectionState]] = {False: [], True: []}
    for s in sections:
        if s.alloc:
            memories[is_tcdm_section(s.name)].append(s)
    for in_tcdm, members in memories.items():
        # stable sort keeps source order within a rank; the classic names lead their rank
        members.sort(key=lambda s: (_rank(s), _FIRST.get(s.name, 4) != _rank(s)))
        addr = tcdm_base if in_tcdm else l2_base
        for s in members:
            align = max(s.align, SECTION_ALIGN)
            addr = (addr + align - 1) & -align
            s.base = addr
            addr += s.size
