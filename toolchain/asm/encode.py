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
from toolchain.syntax import remember_short_texts, split_memory, split_operands
from toolchain.table import EncodeError, Entry, Isa

if TYPE_CHECKING:
    from toolchain.asm.items import Insn
    from toolchain.asm.layout import Scope

Word = tuple[Entry, dict[str, int]]
Choice = list[tuple[Word, "Word | None"]]

# The words of matched statements (by ``Encoder._cache_key``), shared by every assembly of the
# process: trainlib and its autotuner assemble the same kernel files into hundreds of programs,
# and matching operands against the table's templates was most of the time a tuning candidate
# took.
_MATCHED: dict[tuple, Choice] = {}
_MATCHED_BYTES: dict[tuple, bytes] = {}     # (key, size): the machine code emitted
_MATCHED_MAX = 200_000


@remember_short_texts
def _parsed(text: str) -> Node | ExprError:
    """``parse(text)``, or the error it raised.  Trees are immutable, so all the assemblies of
    a process share them (and operands like ``a0`` or ``4(sp)`` recur in every one)."""
    try:
        return parse(text)
    except ExprError as e:
        # a fresh error, without the traceback: its frames would keep the assembly that
        # first met the text (its layout, every statement) alive as long as the cache
        return ExprError(e.message, e.offset)


@remember_short_texts
def _expression_in(text: str) -> Node | None:
    """The expression of an operand: all of it, or the offset of ``offset(reg)``."""
    node = _parsed(text)
    if not isinstance(node, ExprError):
        return node
    mem = split_memory(text)
    node = _parsed(mem[0]) if mem is not None and mem[0] else None
    return None if isinstance(node, ExprError) else node


@remember_short_texts
def _operand_reads(text: str) -> tuple[tuple[str, ...], Node | None] | None:
    """``(names, label)`` for an operand: the names its expression reads, and the expression
    itself when it is a lone name, ``1b``/``1f`` or ``.`` (a branch target, say).  None when it
    reads ``.``, a numeric label or a relocation inside a larger expression: what
    ``Encoder._cache_key`` leaves alone."""
    node = _expression_in(text)
    if isinstance(node, Sym):
        return (node.name,), node
    if isinstance(node, Dot | LocalRef):
        return (), node
    names = []
    for n in walk(node) if node is not None else ():
        if isinstance(n, Dot | LocalRef | Reloc):
            return None
        if isinstance(n, Sym):
            names.append(n.name)
    return tuple(names), None


class Encoder:
    """Encodes instruction items for one ISA selection."""

    def __init__(self, isa: Isa):
        self.isa = isa

    # ---- expressions -----------------------------------------------------------------------
    @staticmethod
    def tree(text: str) -> Node:
        """The parsed expression (ExprError if malformed); layout passes reuse it."""
        node = _parsed(text)
        if isinstance(node, ExprError):
            raise ExprError(node.message, node.offset)
        return node

    def analyse(self, text: str, scope: Scope) -> tuple[bool, bool]:
        """``(uses %reloc, computed from an address)`` for one operand's text."""
        node = _expression_in(text)
        reloc = dependent = False
        for n in walk(node) if node is not None else ():
            if isinstance(n, Reloc):
                reloc = True
            elif isinstance(n, Dot | LocalRef) or (isinstance(n, Sym) and scope.is_address(n.name)):
                dependent = True
        return reloc, dependent

    # ---- sizing and emission ---------------------------------------------------------------
    def measure(self, insn: Insn, scope: Scope) -> tuple[int, int, bool]:
        """``(size with the RVC forms GNU as would use here, size without, fixed)``; fixed
        means no operand depends on an address, so the sizes cannot change with the layout."""
        key = self._cache_key(insn, scope)
        words = self._choose(insn, scope, key)
        short = sum((s or f)[0].length for f, s in words)
        full = sum(f[0].length for f, _ in words)
        fixed = (key is not None and key[-1] is None) or not any(
            self.analyse(text, scope)[1] for text, _ in insn.operands)
        if fixed:
            insn.key = key       # what it reads cannot change: emit needs no new key
        return short, full, fixed

    def emit(self, insn: Insn, scope: Scope) -> bytes:
        key = insn.key if insn.settled else self._cache_key(insn, scope)
        if key is not None and (done := _MATCHED_BYTES.get((key, insn.size))) is not None:
            return done
        out = self._emit(insn, scope, key)
        if key is not None and key in _MATCHED:
            _MATCHED_BYTES[key, insn.size] = out
        return out

    def _emit(self, insn: Insn, scope: Scope, key: tuple | None) -> bytes:
        words = self._choose(insn, scope, key)
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

    def _choose(self, insn: Insn, scope: Scope, key: tuple | None) -> Choice:
        """Each word of ``insn``: its full form and, if GNU as would use one, its RVC form
        (``key``: the statement's ``_cache_key``)."""
        words = _MATCHED.get(key) if key is not None else None
        if words is None:
            words = self._match(insn, scope)
            if key is None:
                return words
            if (len(words) == 1 and _pc_relative(words[0]) if key[-1] is not None
                    else not any(_pc_relative(w) for w in words)):
                if len(_MATCHED) >= _MATCHED_MAX:
                    _MATCHED.clear()
                    _MATCHED_BYTES.clear()
                _MATCHED[key] = words
        return words

    def _cache_key(self, insn: Insn, scope: Scope) -> tuple | None:
        """What the words of ``insn`` depend on, for the cache of matched statements.

        Settled statements (no operand reads an address, ``.``, a numeric label or a
        relocation): the text and the equates it reads (its other names are registers, CSRs or
        rounding modes).  The caller keeps them only without pc-relative fields (``j 0x100``
        depends on where it is).  A statement with one operand that is a lone label: the same,
        and where the label is from the statement; kept only for a single pc-relative word
        (a branch or jump: its words depend on that distance alone).  None otherwise, for the
        pseudo-instructions whose expansion depends on the pc, and for operands longer than
        200 characters (not worth keeping).
        """
        if insn.mnemonic in ("la", "lla", "call", "tail") or any(
                len(text) > 200 for text, _ in insn.operands):
            return None
        symbols = scope.layout.symbols
        env = []
        relative = None          # (operand, label - pc)
        for i, (text, _) in enumerate(insn.operands):
            reads = _operand_reads(text)
            if reads is None:
                return None
            names, label = reads
            at_address = isinstance(label, Dot | LocalRef)
            for name in names:
                if name in symbols.labels or name in symbols.versions or name in symbols.weak:
                    if not scope.is_address(name):
                        try:
                            env.append((name, scope.symbol(name)))
                        except ExprError:
                            return None
                    elif label is None:
                        return None        # an address inside a larger expression
                    else:
                        at_address = True
            if at_address:
                if relative is not None:
                    return None            # a second operand at an address
                try:
                    relative = (i, evaluate(_expression_in(text), scope) - scope.pc)
                except ExprError:
                    return None
        return (self.isa.name, insn.mnemonic, tuple(t for t, _ in insn.operands), insn.rvc,
                tuple(env), relative)

    def _match(self, insn: Insn, scope: Scope) -> Choice:
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
        return not dependent or entry.pc_relative


def _pc_relative(word: tuple[Word, Word | None]) -> bool:
    return any(w is not None and w[0].pc_relative for w in word)


def _column(insn: Insn, index: int | None) -> int | None:
    if index is not None and index < len(insn.operands):
        return insn.operands[index][1]
    return None
