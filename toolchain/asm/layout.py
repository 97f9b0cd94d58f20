"""Addresses for every item: the relaxation loop, symbol values, and the final bytes.

Instruction sizes depend on values (a forward branch is 2 bytes only if its target is near) and
values depend on sizes, so the loop alternates: lay out with the current sizes, then let every
instruction take the size it needs there.  Like GNU as, relaxable instructions start at their
full size and shrink (a forward ``beqz`` whose compressed form would reach exactly +254 stays
4 bytes, because at full size the target is 256 away); alignment padding is recomputed on every
sweep.

Equate values are remembered for one sweep (addresses do not move within it) and computed in
definition order at its start, so a long chain of redefinitions (``.set p, p + 4`` in a
``.rept``) is evaluated one link at a time rather than recursively from its far end.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from toolchain.asm.encode import Encoder
from toolchain.asm.errors import Collector, Location, SourceError
from toolchain.asm.expr import ExprError, Reloc, evaluate, lo12, walk
from toolchain.asm.items import Align, Insn
from toolchain.asm.sections import SectionState, place
from toolchain.asm.symbols import MAX_DEPTH, Context, SymbolTable, local_name, shown_name

SHRINK_PASSES = 16


class Layout:
    def __init__(self, sections: list[SectionState], symbols: SymbolTable, encoder: Encoder,
                 l2_base: int, tcdm_base: int):
        self.sections = sections
        self.symbols = symbols
        self.encoder = encoder
        self.l2_base = l2_base
        self.tcdm_base = tcdm_base
        self._busy: set[str] = set()
        self._values: dict[str, int] = {}     # equates evaluated in this sweep
        self._at: dict[int, tuple[SectionState, int]] | None = None   # instruction addresses
        self._emitting: tuple[Collector, Location] | None = None      # during emit()

    def warn(self, message: str, column: int | None) -> None:
        """Report a warning at ``column`` (None: the start) of the statement being emitted."""
        assert self._emitting is not None, "warnings are given while emitting"
        errors, location = self._emitting
        errors.warn(location if column is None else location.at(column), message)

    def scope(self, section: SectionState, index: int) -> Scope:
        locals_ = section.items[index].locals if index < len(section.items) else {}
        return Scope(self, section, index, locals_)

    # ---- the loop ----------------------------------------------------------------------------
    def run(self) -> None:
        self._sweep()
        for s, i, item in self._instructions():
            item.start(self.scope(s, i))
        passes = 0
        while True:
            self._sweep()
            passes += 1
            changed = False
            for s, i, item in self._instructions():
                if item.settled:
                    continue
                # shrinking can widen alignment padding and push a branch out of reach, which
                # grows it again; after SHRINK_PASSES only growth is allowed, so the loop ends
                size = item.resize(self.scope(s, i), shrink=passes <= SHRINK_PASSES)
                if size != item.size:
                    item.size = size
                    changed = True
            if not changed:
                return

    def _instructions(self) -> Iterator[tuple[SectionState, int, Insn]]:
        for s in self.sections:
            for i, item in enumerate(s.items):
                if isinstance(item, Insn):
                    yield s, i, item

    def _sweep(self) -> None:
        """Offsets from the current sizes (padding follows), then section addresses."""
        for s in self.sections:
            offset = 0
            s.offsets = []
            for item in s.items:
                if isinstance(item, Align):
                    item.size = item.padding(offset)
                s.offsets.append(offset)
                offset += item.size
            s.offsets.append(offset)
        place(self.sections, self.l2_base, self.tcdm_base)
        self._at = None
        self._values = {}
        for name in self.symbols.equates:   # in definition order, see the module docstring
            with contextlib.suppress(ExprError):   # reported where the value is used
                self.value_of(name)

    def emit(self, errors: Collector) -> dict[str, bytearray]:
        """Final bytes of every section; item errors go to ``errors`` (the item becomes zeros),
        and so do the warnings items give through ``Scope.warn``."""
        out: dict[str, bytearray] = {}
        for s in self.sections:
            data = bytearray()
            for i, item in enumerate(s.items):
                self._emitting = (errors, item.location)
                try:
                    chunk = item.emit(self.scope(s, i))
                except SourceError as e:
                    errors.add(item.location if e.column is None else item.location.at(e.column),
                               e.message)
                    chunk = bytes(item.size)
                assert len(chunk) == item.size, (item, len(chunk))
                data += chunk
            out[s.name] = data
        return out

    # ---- symbol values -----------------------------------------------------------------------
    def value_of(self, name: str) -> int:
        """Value of the symbol with internal name ``name`` at the current addresses."""
        label = self.symbols.labels.get(name)
        if label is not None:
            return label.section.address(label.index)
        if name in self._values:
            return self._values[name]
        eq = self.symbols.equates.get(name)
        if eq is None and name in self.symbols.weak:
            return 0            # an undefined weak symbol links to address 0, as in ld
        if eq is None:
            raise ExprError(f"undefined symbol {shown_name(name)!r}")
        if name in self._busy:
            raise ExprError(f"symbol {shown_name(name)!r} is defined in terms of itself")
        if len(self._busy) >= MAX_DEPTH:
            raise ExprError(f"symbol {shown_name(name)!r} is defined through more than "
                            f"{MAX_DEPTH} others")
        self._busy.add(name)
        try:
            value = self._values[name] = evaluate(eq.tree, Scope(self, eq.section, eq.index,
                                                                 eq.locals))
        finally:
            self._busy.discard(name)
        return value

    def pcrel_lo(self, addr: int) -> int:
        """Low part for the ``auipc ... %pcrel_hi(sym)`` at ``addr``: lo12(sym - addr)."""
        if self._at is None:
            self._at = {s.address(i): (s, i) for s in self.sections
                        for i, item in enumerate(s.items) if isinstance(item, Insn)}
        if addr in self._at:
            section, index = self._at[addr]
            item = section.items[index]
            scope = self.scope(section, index)
            for text, _ in item.operands:  # type: ignore[attr-defined]
                try:
                    tree = self.encoder.tree(text)
                except ExprError:
                    continue
                for node in walk(tree):
                    if isinstance(node, Reloc) and node.kind == "pcrel_hi":
                        return lo12(evaluate(node.operand, scope) - addr)
        raise ExprError(f"%pcrel_lo: no instruction with %pcrel_hi at {addr:#x} "
                        "(the operand must be the label of the auipc)")


class Scope:
    """Evaluation environment of one statement: its address and its context (which numeric
    label ``1b`` means, which definition of a redefined equate a name means)."""

    def __init__(self, layout: Layout, section: SectionState, index: int, locals_: Context):
        self.layout = layout
        self.pc = section.address(index)
        self.locals = locals_

    def shifted(self, delta: int) -> Scope:
        """The same statement seen ``delta`` bytes further (``.`` in ``.word a, .``)."""
        other = Scope.__new__(Scope)
        other.layout, other.pc, other.locals = self.layout, self.pc + delta, self.locals
        return other

    @property
    def encoder(self) -> Encoder:
        return self.layout.encoder

    def symbol(self, name: str) -> int:
        return self.layout.value_of(self.layout.symbols.resolve(name, self.locals))

    def local(self, number: str, forward: bool) -> str:
        instance = self.locals.get(number, 0) + (1 if forward else 0)
        name = local_name(number, instance)
        if instance == 0 or name not in self.layout.symbols.labels:
            where = "after" if forward else "before"
            raise ExprError(f"undefined local label {number}{'f' if forward else 'b'} "
                            f"(no '{number}:' {where} it)")
        return name

    def pcrel_lo(self, auipc_addr: int) -> int:
        return self.layout.pcrel_lo(auipc_addr)

    def warn(self, message: str, column: int | None) -> None:
        self.layout.warn(message, column)

    def is_address(self, name: str) -> bool:
        return self.layout.symbols.is_address(name, self.locals)

    def value(self, text: str) -> int:
        return evaluate(self.encoder.tree(text), self)
