"""Instruction statements to machine words, with GNU as's choice of compressed forms.

GNU as compresses an instruction when its operands are constants known while assembling and an
RVC form exists for the way it was written (the table's ``compress_from``: ``j`` compresses,
``jal x0, ...`` does not).  An operand computed from an address is a relocation for GNU as,
emitted at full size, except a branch or jump target, which GNU as relaxes to the 2-byte form
when it is in reach.  Operands written with ``%hi``/``%lo``/``%pcrel_*`` are never compressed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolchain.asm.errors import SourceError
from toolchain.asm.expr import Dot, ExprError, LocalRef, Node, Reloc, Sym, evaluate, parse, walk
from toolchain.asm.pseudo import PSEUDOS, Part, expand, is_symbol_access
from toolchain.fields import Field
from toolchain.operands import OperandError, match_instruction
from toolchain.registers import FREGS, XREGS
from toolchain.syntax import split_memory, split_operands
from toolchain.table import EncodeError, Entry, Isa

if TYPE_CHECKING:
    from toolchain.asm.items import Insn
    from toolchain.asm.layout import Scope

Word = tuple[Entry, dict[str, int]]


class Encoder:
    """Encodes instruction items for one ISA selection; caches parsed operand expressions."""

    def __init__(self, isa: Isa):
        self.isa = isa
        self._trees: dict[str, Node] = {}

    # ---- expressions -----------------------------------------------------------------------
    def tree(self, text: str) -> Node:
        """The parsed expression (ExprError if malformed); layout passes reuse it."""
        node = self._trees.get(text)
        if node is None:
            node = self._trees[text] = parse(text)
        return node

    def analyse(self, text: str, scope: Scope) -> tuple[bool, bool]:
        """``(uses %reloc, computed from an address)`` for one operand's text."""
        node = self._expression_in(text)
        reloc = dependent = False
        for n in walk(node) if node is not None else ():
            if isinstance(n, Reloc):
                reloc = True
            elif isinstance(n, Dot | LocalRef) or (isinstance(n, Sym) and scope.is_address(n.name)):
                dependent = True
        return reloc, dependent

    def _expression_in(self, text: str) -> Node | None:
        """The expression of an operand: all of it, or the offset of ``offset(reg)``."""
        try:
            return self.tree(text)
        except ExprError:
            pass
        mem = split_memory(text)
        try:
            return self.tree(mem[0]) if mem is not None and mem[0] else None
        except ExprError:
            return None

    # ---- sizing and emission ---------------------------------------------------------------
    def measure(self, insn: Insn, scope: Scope) -> tuple[int, int, bool]:
        """``(size with the RVC forms GNU as would use here, size without, fixed)``; fixed
        means no operand depends on an address, so the sizes cannot change with the layout."""
        words = self._choose(insn, scope)
        short = sum((s or f)[0].length for f, s in words)
        full = sum(f[0].length for f, _ in words)
        fixed = not any(self.analyse(text, scope)[1] for text, _ in insn.operands)
        return short, full, fixed

    def emit(self, insn: Insn, scope: Scope) -> bytes:
        words = self._choose(insn, scope)
        if sum((s or f)[0].length for f, s in words) != insn.size:
            # the layout kept this instruction long; only a single word can be kept long
            if len(words) != 1 or words[0][0][0].length != insn.size:
                raise SourceError(f"internal: {insn.mnemonic} changed size during layout")
            words = [(words[0][0], None)]
        out = bytearray()
        for full, short in words:
            entry, values = short or full
            try:
                word = self.isa.encode(entry, values)
            except EncodeError as e:
                raise SourceError(str(e)) from None
            out += word.to_bytes(entry.length, "little")
        return bytes(out)

    def _choose(self, insn: Insn, scope: Scope) -> list[tuple[Word, Word | None]]:
        """Each word of ``insn``: its full form and, if GNU as would use one, its RVC form."""
        try:
            parts = self._parts(insn, scope)
            out: list[tuple[Word, Word | None]] = []
            pc = scope.pc
            for part in parts:
                m = match_instruction(self.isa, part.mnemonic, part.operands, pc,
                                      self._evaluator(scope))
                full = (m.entry, m.values)
                short = None
                if (insn.rvc and part.compress and m.entry.length == 4
                        and self._may_compress(part.operands, m.entry, scope)):
                    short = self.isa.compress(m.entry, m.values, m.written)
                out.append((full, short))
                pc += short[0].length if short else m.entry.length
            return out
        except OperandError as e:
            raise SourceError(e.message, _column(insn, e.index)) from None

    def _parts(self, insn: Insn, scope: Scope) -> list[Part]:
        args = ", ".join(text for text, _ in insn.operands)
        texts = [text for text, _ in insn.operands]
        if insn.mnemonic not in PSEUDOS and not is_symbol_access(insn.mnemonic, texts):
            return [Part(insn.mnemonic, args)]

        def value(i: int) -> int:
            text = texts[i].strip()
            if text.lower() in XREGS or text.lower() in FREGS:
                raise OperandError(f"operand {i + 1}: expected a value, got register {text!r}",
                                   i)
            try:
                return evaluate(self.tree(text), scope)
            except ExprError as e:
                raise OperandError(f"operand {i + 1}: {e.message}", i) from None

        return expand(insn.mnemonic, texts, scope.pc, value,
                      lambda i: any(self.analyse(texts[i], scope)))

    def _evaluator(self, scope: Scope):
        def evaluate_operand(text: str, field: Field) -> int:
            return evaluate(self.tree(text), scope)
        return evaluate_operand

    def _may_compress(self, operands: str, entry: Entry, scope: Scope) -> bool:
        reloc = dependent = False
        for text in split_operands(operands):
            r, d = self.analyse(text, scope)
            reloc |= r
            dependent |= d
        if reloc:
            return False
        return not dependent or any(f.kind == "pcrel" for f in entry.fields.values())


def _column(insn: Insn, index: int | None) -> int | None:
    if index is not None and index < len(insn.operands):
        return insn.operands[index][1]
    return None
