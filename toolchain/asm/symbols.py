"""The symbol table while assembling: labels (positions in a section) and equates (expressions).

Labels are stored as positions, not addresses, because addresses change while the layout loop
settles instruction sizes; equates keep their expression and are evaluated where they are used.
Numeric local labels (``1:``) get unique internal names; ``1b``/``1f`` are resolved per statement
from the count of definitions seen so far.

Equates may be redefined (``.set``/``.equ``/``=``, as GNU as allows), and redefinitions work the
same way: the first definition keeps the plain name, the n-th is stored as a version of it, and
each statement's *context* (the counts of definitions seen so far, shared with numeric labels)
says which version a name means there.  So a use refers to the latest definition before it in
source order, and a use before any definition (a forward reference) to the first one; an equate's
own expression is read in the context of its definition, so ``.set i, i + 1`` uses the previous
``i``.  This is what GNU as does: it clones a redefined symbol, leaving earlier uses on the old
copy.  The published symbol is the last definition.  ``.equiv`` defines a name that must not be
defined before or after, and labels are never redefined.  Two differences from GNU as: an
address-valued equate may be redefined and still be used in data or instructions (GNU as refuses
the relocation; a linked program simply has the value), and a label may not take the name of an
equate (GNU as lets the label replace it; here it stays an error, as it almost always is one).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from toolchain.asm.errors import Location, SourceError
from toolchain.asm.expr import Dot, LocalRef, Node, Sym, walk
from toolchain.asm.sections import SectionState

LOCAL_MARK = "\x02"   # numeric label "1", third definition -> "1\x023" (GNU as: ".L1^B3")

Context = Mapping[str, int]   # definitions so far: numeric labels, and equates redefined
MAX_DEPTH = 100               # equates evaluated inside one another: a guard against recursion


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
    locals: Context              # the context of the definition: what names mean in ``tree``
    location: Location
    once: bool = False           # defined by .equiv: may not be redefined


class SymbolTable:
    def __init__(self) -> None:
        self.labels: dict[str, Label] = {}
        self.equates: dict[str, Equate] = {}     # by internal name, in definition order
        self.versions: dict[str, int] = {}       # definitions of each equate name so far
        self.globals: set[str] = set()
        self.weak: set[str] = set()              # .weak: global, and 0 when never defined
        self._addresses: set[str] = set()        # internal names known to be addresses
        self._not_addresses: set[str] = set()    # ... and known not to be, for now

    def resolve(self, name: str, context: Context) -> str:
        """The internal name ``name`` refers to in ``context``."""
        return _version(name, context.get(name, 1))

    def latest(self, name: str) -> str:
        """The internal name of the last definition of equate ``name``."""
        return _version(name, self.versions[name])

    def where(self, name: str) -> Location | None:
        found = self.labels.get(name) or (self.equates[self.latest(name)]
                                          if name in self.versions else None)
        return found.location if found else None

    def _check_new(self, name: str) -> None:
        previous = self.where(name)
        if previous is not None:
            raise SourceError(f"symbol {shown_name(name)!r} is already defined "
                              f"(line {previous.line})")

    def define_label(self, name: str, label: Label) -> None:
        self._check_new(name)
        self.labels[name] = label
        if LOCAL_MARK not in name:   # 1b/1f are addresses anyway; a named label may be awaited
            self._not_addresses.clear()

    def define_equate(self, name: str, equate: Equate) -> int:
        """Record a definition of ``name``; its version (1 for the first definition), which
        the caller puts in the context of the statements that follow."""
        if name in self.labels or equate.once:
            self._check_new(name)
        version = self.versions.get(name, 0) + 1
        if version > 1 and (previous := self.equates[self.latest(name)]).once:
            raise SourceError(f"symbol {name!r} was defined with .equiv (line "
                              f"{previous.location.line}) and cannot be redefined")
        self.versions[name] = version
        self.equates[_version(name, version)] = equate
        if version == 1:   # a forward reference to it may now reach an address
            self._not_addresses.clear()
        return version

    def is_address(self, name: str, context: Context) -> bool:
        """True if the symbol's value comes from the layout (a label, or an equate using one).

        A search over the equates the name reaches, without recursion, and remembered: True
        for good (definitions are never removed), False until a new name is defined (a forward
        reference may then become an address).  So a chain of thousands of redefinitions
        (``.set p, p + 4`` in a ``.rept``) neither overflows the stack nor is walked again.
        """
        start = self.resolve(name, context)
        todo, seen = [start], {start}
        while todo:
            internal = todo.pop()
            if internal in self.labels or internal in self._addresses:
                self._addresses.add(start)
                return True
            eq = self.equates.get(internal)
            if eq is None or internal in self._not_addresses:
                continue
            for n in walk(eq.tree):
                if isinstance(n, Dot | LocalRef):
                    self._addresses.add(start)
                    return True
                if isinstance(n, Sym) and (ref := self.resolve(n.name, eq.locals)) not in seen:
                    seen.add(ref)
                    todo.append(ref)
        self._not_addresses |= seen
        return False


def _version(name: str, version: int) -> str:
    return name if version == 1 else local_name(name, version)
