"""The assembler's driver: statements to items (parse), then layout, then a linked Program.

Statements reach the parser through the macro expander (``macros.py``), one at a time, so that a
``.rept`` count or a macro argument sees the symbols defined by the statements before it.
Parsing records what each statement asks for without computing any address; the layout loop
(``layout.py``) settles sizes and addresses; emission produces bytes.  Errors from every phase go
to one collector so the user gets them all in one report.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass

from toolchain.asm.directives import DIRECTIVES
from toolchain.asm.encode import Encoder
from toolchain.asm.errors import Collector, Location, SourceError
from toolchain.asm.expr import Dot, ExprError, LocalRef, Node, Num, Reloc, evaluate, parse, walk
from toolchain.asm.includes import IncludeDir, Includer
from toolchain.asm.items import Align, Blob, Insn, Item
from toolchain.asm.layout import Layout
from toolchain.asm.lexer import Statement, pieces
from toolchain.asm.macros import Expander
from toolchain.asm.sections import SectionState, make_section
from toolchain.asm.symbols import (
    LOCAL_MARK,
    MAX_DEPTH,
    Context,
    Equate,
    Label,
    SymbolTable,
    local_name,
)
from toolchain.program import L2_BASE, TCDM_BASE, Program, Section, Symbol
from toolchain.table import DEFAULT_FAMILY, load_isa, parse_selection, with_family


class Parser:
    """Turns statements into section items and symbols; the state directives act upon."""

    def __init__(self, family: str, rvc: bool):
        self.sections: dict[str, SectionState] = {}
        self.symbols = SymbolTable()
        self.errors = Collector()
        self.rvc = rvc
        self.filled = 0      # bytes of .space/.skip/.zero so far (capped: directives.py)
        self.ended = False   # .end seen: the rest of the file is not assembled
        self.includer: Includer | None = None     # finds .include and .incbin files
        self.option_stack: list[bool] = []
        self.family = family
        self.family_chosen_at: Location | None = None
        self.locals: Context = {}   # numeric labels and redefined equates so far
        self.declared_local: set[str] = set()    # named by .local
        self.commons: dict[str, Common] = {}     # .comm/.lcomm, in order of first declaration
        self.section = self.switch_section(".text", None, None)

    # ---- statements ----------------------------------------------------------------------------
    def statement(self, st: Statement) -> None:
        try:
            for name, column in st.labels:
                self._label(name, st.at(column))
            if st.op == "=":
                self.define_equate(st.target, st.args, st.args_column, st)
            elif st.op.startswith("."):
                handler = DIRECTIVES.get(st.op.lower())
                if handler is None:
                    raise SourceError(f"unknown directive {st.op!r}")
                handler(self, st)
            elif st.op:
                self.add(Insn(st.location, self.locals, 4, mnemonic=st.op.lower(),
                              operands=tuple(st.operands()), rvc=self.rvc), st)
        except SourceError as e:
            self.errors.add(st.at(e.column), e.message)

    def _label(self, name: str, where: Location) -> None:
        if name.isdigit():
            self.locals = {**self.locals, name: self.locals.get(name, 0) + 1}
            name = local_name(name, self.locals[name])
        if name in self.commons:
            self.errors.add(where, f"symbol {name!r} is already defined as a common symbol "
                                   f"(line {self.commons[name].location.line})")
            return
        try:
            self.symbols.define_label(name, Label(self.section, len(self.section.items), where))
        except SourceError as e:
            self.errors.add(where, e.message)

    # ---- what directives use -------------------------------------------------------------------
    def add(self, item: Item, st: Statement, zero: bool = False) -> None:
        if self.section.nobits and not zero:
            raise SourceError(f"{st.op} puts data into {self.section.name}, which holds only "
                              "zeros (@nobits); use .zero/.space/.align there")
        self.section.items.append(item)

    def switch_section(self, name: str, flags: str | None, kind: str | None) -> SectionState:
        section = self.sections.get(name)
        if section is None:
            section = self.sections[name] = make_section(name, flags, kind)
        self.section = section
        return section

    def define_equate(self, name: str, text: str, column: int, st: Statement,
                      once: bool = False) -> None:
        """``.set``/``.equ``/``=`` (``once``: ``.equiv``); see symbols.py for redefinition.

        An expression that is a constant now is stored as its value, as GNU as does: then a
        counter stepped by ``.set i, i + 1`` in a ``.rept`` does not grow a chain of equates.
        """
        try:
            tree = parse(text)
        except ExprError as e:
            raise SourceError(e.message, column + (e.offset or 0)) from None
        with contextlib.suppress(ExprError):   # else an address or a forward reference
            tree = Num(_Constants(self.symbols, self.locals).value(tree))
        version = self.symbols.define_equate(name, Equate(
            tree, self.section, len(self.section.items), self.locals, st.at(column), once))
        if version > 1:
            self.locals = {**self.locals, name: version}

    def defined(self, name: str) -> bool:
        """``.ifdef``: a label or an equate of that name is defined so far."""
        return name in self.symbols.labels or name in self.symbols.versions

    def constant(self, text: str, column: int) -> int:
        """Value of an expression that must be known now (sizes, alignments, fills)."""
        try:
            return _Constants(self.symbols, self.locals).value(parse(text))
        except ExprError as e:
            raise SourceError(e.message, column + (e.offset or 0)) from None

    def select_family(self, family: str, where: Location) -> None:
        current = parse_selection(self.family).family
        if self.family_chosen_at is not None and family != current:
            raise SourceError(f"this file already selects Xpulp family {current!r} "
                              f"(line {self.family_chosen_at.line}); a program uses one family")
        self.family = with_family(self.family, family)
        self.family_chosen_at = where

    def declare_common(self, name: str, size: int, align: int, local: bool,
                       where: Location) -> None:
        """``.comm``/``.lcomm`` of a symbol not defined otherwise (``directives._common``)."""
        local = local or name in self.declared_local
        known = self.commons.get(name)
        if known is None:
            self.commons[name] = Common(size, align, local, where)
        elif local or known.local:
            raise SourceError(f"symbol {name!r} is already defined (line {known.location.line})")
        else:
            if size != known.size:
                self.errors.warn(where, f"size of {name!r} is already {known.size}; not "
                                        f"changing to {size}")
            known.align = max(known.align, align)
        if not local:
            self.symbols.globals.add(name)

    def finish(self) -> None:
        """Common symbols take their space at the end of .bss: the local ones first, as GNU as
        allocates them after the section's own contents, then the global ones, as the linker
        does; each in declaration order.  GNU as pads code sections at the end to their
        alignment, with nops."""
        commons = sorted(self.commons.items(), key=lambda item: not item[1].local)
        if commons:
            bss = self.switch_section(".bss", None, None)
            for name, common in commons:
                bss.items.append(Align(common.location, {}, boundary=common.align))
                bss.align = max(bss.align, common.align)
                self.symbols.define_label(name, Label(bss, len(bss.items), common.location))
                bss.items.append(Blob(common.location, {}, data=bytes(common.size)))
        for s in self.sections.values():
            if s.executable and s.align > 1:
                last = s.items[-1]   # an alignment directive made align > 1, so there is one
                s.items.append(Align(last.location, last.locals, boundary=s.align, code=True,
                                     rvc=self.rvc))


@dataclass
class Common:
    """A ``.comm``/``.lcomm`` symbol: its length, alignment and first declaration."""

    size: int
    align: int
    local: bool
    location: Location


class _Constants:
    """Evaluates parse-time constants: numbers and equates already defined, no addresses."""

    pc = 0

    def __init__(self, symbols: SymbolTable, context: Context):
        self.symbols = symbols
        self.context = context     # what names mean in the expression being evaluated
        self.seen: set[str] = set()

    def value(self, node: Node) -> int:
        for n in walk(node):
            if isinstance(n, Dot | LocalRef | Reloc):
                raise ExprError("expected a constant, not an address")
        return evaluate(node, self)

    def symbol(self, name: str) -> int:
        internal = self.symbols.resolve(name, self.context)
        if self.symbols.is_address(name, self.context):
            raise ExprError(f"expected a constant; {name!r} is an address")
        eq = self.symbols.equates.get(internal)
        if eq is None:
            raise ExprError(f"undefined symbol {name!r} (constants must be defined before use)")
        if internal in self.seen:
            raise ExprError(f"symbol {name!r} is defined in terms of itself")
        if len(self.seen) >= MAX_DEPTH:
            raise ExprError(f"symbol {name!r} is defined through more than {MAX_DEPTH} others")
        self.seen.add(internal)
        outer, self.context = self.context, eq.locals
        try:
            return self.value(eq.tree)
        finally:
            self.seen.discard(internal)
            self.context = outer

    def local(self, number: str, forward: bool) -> str:
        raise ExprError("expected a constant, not a label")

    def pcrel_lo(self, auipc_addr: int) -> int:
        raise ExprError("expected a constant, not %pcrel_lo")


def assemble(source: str, filename: str = "<input>", family: str = DEFAULT_FAMILY,
             rvc: bool = True, l2_base: int = L2_BASE, tcdm_base: int = TCDM_BASE,
             include_dirs: Sequence[IncludeDir] = ()) -> Program:
    """Assemble GNU-as source into a linked Program; AsmError lists everything wrong with it.

    ``family`` is the ISA selection (``toolchain.table.parse_selection``: an ISA string such as
    "rv32imc_zfinx_xpulpv2_xf16", or "xpulpv2", "corev", "none"); a file may select its Xpulp
    family itself with ``.option xpulpv2``/``.option corev``.  ``rvc`` is the initial
    ``.option rvc`` state.  ``l2_base`` is where .text starts; ``tcdm_base`` where .l1/.tcdm
    sections start.
    ``.include "name"`` looks next to the including file (``filename``'s directory for
    ``source``), then in ``include_dirs`` (paths or importlib.resources traversables).
    """
    parse_selection(family)        # SelectionError (a ValueError) names what is wrong
    parser = Parser(family, rvc)
    source_pieces, lex_errors = pieces(source, filename)
    for where, message in lex_errors:
        parser.errors.add(where, message)
    parser.includer = Includer(include_dirs, parser.errors)
    expander = Expander(source_pieces, parser.constant, parser.errors, parser.defined,
                        parser.includer)
    for st in expander:
        parser.statement(st)
        if parser.ended:
            break
    parser.finish()

    sections = list(parser.sections.values())
    layout = Layout(sections, parser.symbols, Encoder(load_isa(parser.family)), l2_base,
                    tcdm_base)
    layout.run()
    data = layout.emit(parser.errors)
    symbols = _symbols(layout, parser.errors)
    parser.errors.raise_if_any()

    program_sections = [
        Section(s.name, s.base, data[s.name], executable=s.executable, writable=s.writable,
                alloc=s.alloc, nobits=s.nobits)
        for s in sections]
    return Program(program_sections, symbols, _entry(symbols, sections, l2_base),
                   parser.family, warnings=parser.errors.formatted_warnings())


def _binding(table: SymbolTable, name: str) -> str:
    if name in table.weak:
        return "weak"
    return "global" if name in table.globals else "local"


def _symbols(layout: Layout, errors: Collector) -> dict[str, Symbol]:
    table = layout.symbols
    out: dict[str, Symbol] = {}
    for name, label in table.labels.items():
        if LOCAL_MARK in name or name.startswith(".L"):
            continue   # assembler-local names, as GNU as leaves them out of the object
        section = label.section
        out[name] = Symbol(name, section.address(label.index), 0, section.name,
                           _binding(table, name),
                           "func" if section.executable else "object")
    values: dict[str, int] = {}
    for name, eq in table.equates.items():   # every definition, so each one's errors show
        try:
            values[name] = layout.value_of(name)
        except ExprError as e:
            errors.add(eq.location, e.message)
    for name in table.versions:               # published: the last definition
        if (latest := table.latest(name)) in values:
            out[name] = Symbol(name, values[latest], 0, None,
                               _binding(table, name), "notype")
    return out


def _entry(symbols: dict[str, Symbol], sections: list[SectionState], l2_base: int) -> int:
    for name in ("_start", "main"):
        if name in symbols and symbols[name].section is not None:
            return symbols[name].value
    for s in sections:
        if s.name == ".text" and s.size:
            return s.base
    code = [s for s in sections if s.executable and s.size]
    return code[0].base if code else l2_base
