"""The symbol table while assembling: labels (positions in a section) and equates (expressions).

Labels are stored as positions, not addresses, because addresses change while the layout loop
settles instruction sizes; equates keep their expression and are evaluated where they are used.
Numeric local labels (``1:``) get unique internal names; ``1b``/``1f`` are resolved per statement
from the count of definitions seen so far.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from toolchain.asm.errors import Location, SourceError
from toolchain.asm.expr import Dot, LocalRef, Node, Sym, walk
from toolchain.asm.sections import SectionState

LOCAL_MARK = "\x02"   # numeric label "1", third definition -> "1\x023" (GNU as: ".L1^B3")


def local_name(number: str, instance: int) -> str:
    return f"{number}{LOCAL_MARK}{instance}"


def shown_name(name: str) -> str:
    """How an internal name reads in a message (``1\\x023`` -> ``1``)."""
    return name.split(LOCAL_MARK)[0]


@dataclass(frozen=True)
class Label:
    section: SectionState
    index: int
    location: Location


@dataclass(frozen=True)
class Equate:
    tree: Node
    section: SectionState        # where ``.`` in the expression points
    index: int
    locals: Mapping[str, int]
    location: Location


class SymbolTable:
    def __init__(self) -> None:
        self.labels: dict[str, Label] = {}
        self.equates: dict[str, Equate] = {}
        self.globals: set[str] = set()

    def where(self, name: str) -> Location | None:
        found = self.labels.get(name) or self.equates.get(name)
        return found.location if found else None

    def _check_new(self, name: str) -> None:
        previous = self.where(name)
        if previous is not None:
            raise SourceError(f"symbol {shown_name(name)!r} is already defined "
                              f"(line {previous.line})")

    def define_label(self, name: str, label: Label) -> None:
        self._check_new(name)
        self.labels[name] = label

    def define_equate(self, name: str, equate: Equate) -> None:
        if name in self.labels:
            self._check_new(name)
        previous = self.equates.get(name)
        if previous is not None and previous.tree != equate.tree:
            self._check_new(name)
        self.equates[name] = equate

    def is_address(self, name: str, seen: frozenset[str] = frozenset()) -> bool:
        """True if the symbol's value comes from the layout (a label, or an equate using one)."""
        if name in self.labels:
            return True
        eq = self.equates.get(name)
        if eq is None or name in seen:
            return False
        for n in walk(eq.tree):
            if isinstance(n, Dot | LocalRef):
                return True
            if isinstance(n, Sym) and self.is_address(n.name, seen | {name}):
                return True
        return False
