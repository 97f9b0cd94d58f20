"""Macro expansion as GNU as does it: textual, on statement pieces, before they are parsed.

Directives: ``.macro name params`` ... ``.endm``, ``.exitm``, ``.purgem``, ``.rept count``,
``.irp sym, values``, ``.irpc sym, chars`` ... ``.endr``.  The expander sits between the lexer
and the parser and hands statements over one at a time, so a ``.rept`` count is evaluated with
the symbols the statements before it defined.  Its input is a stack of frames: the file, then one
per expansion in progress; a body is collected from the frame its directive was read from, so a
``.rept`` inside a macro repeats the macro's expanded text.  ``.exitm`` ends the innermost
expansion, whichever kind (GNU as: inside a ``.rept`` in a macro it ends the ``.rept``).

Substitution in a body: ``\\name`` becomes the argument (or .irp value) of parameter ``name``,
taking the longest run of name characters after the backslash (``\\a0`` is not ``\\a`` then 0:
write ``\\a\\()0``, since ``\\(text)`` becomes ``text``); ``\\@`` becomes the number of macro
invocations started before (in a macro: before this one).  Strings are substituted too, but not
character literals (``'\\c'`` stays: GNU as reads those first).  Other backslashes are kept, so
a nested ``.macro`` keeps its own parameters and ``"\\n"`` its escape; one still outside a string
when the statement reaches the parser is an unknown parameter.  ``.rept`` bodies are not
substituted (GNU as 2.40).

Arguments (of an invocation, of .irp, and the parameter list of .macro) are separated by commas,
or by blanks outside parentheses and quotes; blanks next to an operator, ``=`` or a parenthesis
do not separate, since GNU as squeezes them out first (``m 1 + 1`` and ``m 8 (sp)`` have one
argument each).  An argument that is one
double-quoted string loses its quotes (GNU as: they only group it).  An empty argument takes the
parameter's default.  Keyword arguments (``name=value``) may follow positional ones.  Macro
names are case-insensitive, as in GNU as, and a macro hides an instruction of the same name.

Errors name the invoking statement and the expanded line (see errors.py).  Expansions nest at
most MAX_NESTING deep (GNU as's limit too), which stops a macro that invokes itself; all
expansions of a file together produce at most MAX_EXPANDED statements.  Either limit abandons
every expansion in progress and goes on with the file.

The expander also reads the files ``.include`` names (includes.py: one more input frame, whose
macros stay defined after it) and does conditional assembly (conditions.py: each frame keeps
its own ``.if`` stack, and a branch not taken is skipped before any other directive is seen).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace

from toolchain.asm import conditions
from toolchain.asm.conditions import Conditions
from toolchain.asm.directives import DIRECTIVES
from toolchain.asm.errors import Collector, Location, Origin, SourceError
from toolchain.asm.lexer import Piece, Statement, skip_literal, split_statements, statement

MAX_NESTING = 100
MAX_EXPANDED = 1_000_000
_REPEATS = (".rept", ".irp", ".irpc")
_OWN = frozenset({".macro", ".endm", ".exitm", ".purgem", ".endr", ".include", *_REPEATS,
                  *conditions.DIRECTIVES})

_NAME = re.compile(r"[A-Za-z_.$][\w.$]*")
_NAME_CHARS = re.compile(r"[\w.$]+")
_PARAM = re.compile(r"([A-Za-z_.$][\w.$]*)(?::(\w*))?(?:\s*=\s*(.*))?", re.S)
_KEYWORD = re.compile(r"([A-Za-z_.$][\w.$]*)\s*=(?!=)\s*(.*)", re.S)
_JOINING = frozenset("+-*/%<>&|^!~=()")   # GNU as squeezes the blanks next to these


@dataclass(frozen=True)
class Param:
    name: str
    default: str = ""
    required: bool = False      # name:req
    vararg: bool = False        # name:vararg, the rest of the arguments as written


@dataclass(frozen=True)
class Macro:
    name: str
    params: tuple[Param, ...]
    body: tuple[Piece, ...]
    location: Location          # of the .macro statement

    def describe(self) -> str:
        return f"macro {self.name!r} defined at {self.location.filename}:{self.location.line}"


@dataclass(frozen=True)
class _Frame:
    """Input being read: the file, an included file, or one expansion."""

    pieces: Iterator[Piece]
    label: str = ""                       # "macro 'm'", ".irp": what substituted the text
    params: tuple[str, ...] | None = None  # what it substituted; None: nothing (file, .rept)
    file: bool = False                    # a source file rather than an expansion
    conditions: Conditions = field(default_factory=Conditions)


class Expander:
    """The statements of a file with every expansion done; iterate once."""

    def __init__(self, pieces: Iterable[Piece], constant: Callable[[str, int], int],
                 errors: Collector, defined: Callable[[str], bool] = lambda name: False,
                 include: Callable[[Statement], list[Piece]] | None = None):
        self.constant = constant          # the parser's: value of an expression known now
        self.defined = defined            # the parser's: is a symbol defined so far
        self.include = include            # the pieces of the file an .include names
        self.errors = errors
        self.macros: dict[str, Macro] = {}
        self.stack = [_Frame(iter(pieces), file=True)]
        self.invocations = 0
        self.expanded = 0

    def __iter__(self) -> Iterator[Statement]:
        while self.stack:
            frame = self.stack[-1]
            piece = next(frame.pieces, None)
            if piece is None:
                where = "the file" if frame.file else "the expansion it is part of"
                for location, message in frame.conditions.unclosed(where):
                    self.errors.add(location, message)
                self.stack.pop()
                continue
            st = statement(piece)
            if st is None:
                continue
            op = st.op.lower()
            if op not in conditions.DIRECTIVES and not frame.conditions.active:
                continue
            if not frame.file:
                self.expanded += 1
                if self.expanded > MAX_EXPANDED:
                    self._abandon(st, f"macro expansions produce more than {MAX_EXPANDED} "
                                      "statements")
                    continue
            own = op in _OWN or op in self.macros
            if own and st.labels and frame.conditions.active:
                yield replace(st, op="", args="")   # labels are defined before the expansion
            try:
                if own:
                    self._directive(st, op, frame)
                else:
                    self._check_substituted(piece)
                    yield st
            except SourceError as e:
                self.errors.add(st.at(e.column), e.message)

    def _directive(self, st: Statement, op: str, frame: _Frame) -> None:
        if op in conditions.DIRECTIVES:
            frame.conditions.directive(st, op, self._test)
        elif op == ".macro":
            self._define(st, frame)
        elif op in _REPEATS:
            self._repeat(st, op, frame)
        elif op == ".endm":
            raise SourceError(".endm without .macro")
        elif op == ".endr":
            raise SourceError(".endr without .rept, .irp or .irpc")
        elif op == ".exitm":
            self._exit()
        elif op == ".purgem":
            self._purge(st)
        elif op == ".include":
            if self.include is None:
                raise SourceError(".include is not available here")
            self._push(st, _Frame(iter(self.include(st)), file=True))
        else:
            self._invoke(st, self.macros[op])

    def _test(self, st: Statement, op: str) -> bool:
        """The value of a conditional's test (``op``: the opener, ``.if`` for ``.elseif``)."""
        if op in (".ifb", ".ifnb"):
            return (not st.args.strip()) == (op == ".ifb")
        if op in (".ifc", ".ifnc"):
            return conditions.strings_equal(st) == (op == ".ifc")
        if op == ".if":
            if not st.args:
                raise SourceError(f"{st.op.lower()} expects an expression", st.args_column)
            return self.constant(st.args, st.args_column) != 0
        if not _NAME.fullmatch(st.args):
            raise SourceError(f"{op} expects a symbol name", st.args_column)
        return self.defined(st.args) == (op == ".ifdef")

    # ---- definitions ---------------------------------------------------------------------------
    def _define(self, st: Statement, frame: _Frame) -> None:
        args = _arguments(st.args)
        # the body is taken first so that it is skipped, not assembled, if the header is bad
        body = self._body(st, frame, (".macro",), ".endm")
        if not args or not _NAME.fullmatch(args[0][0]):
            raise SourceError(".macro expects a name, then its parameters", st.args_column)
        name = args[0][0]
        key = name.lower()
        if key in DIRECTIVES or key in _OWN:
            raise SourceError(f"{name} is a directive; a macro cannot have its name",
                              st.args_column)
        if key in self.macros:
            raise SourceError(f"macro {name!r} is already defined (line "
                              f"{self.macros[key].location.line}); .purgem it first",
                              st.args_column)
        params = _params(args[1:], st.args_column)
        self.macros[key] = Macro(name, params, tuple(body), st.location)

    def _body(self, st: Statement, frame: _Frame, opens: tuple[str, ...], close: str
              ) -> list[Piece]:
        """The pieces up to the ``close`` matching ``st``, taken from ``frame``."""
        depth = 1
        body: list[Piece] = []
        for piece in frame.pieces:
            inner = statement(piece)
            op = inner.op.lower() if inner is not None else ""
            if op in opens:
                depth += 1
            elif op == close:
                depth -= 1
                if depth == 0:
                    return body
            body.append(piece)
        end = "the file" if frame.file else "the expansion it is part of"
        raise SourceError(f"{st.op.lower()} is not closed: no {close} before the end of {end}")

    def _purge(self, st: Statement) -> None:
        names = _arguments(st.args)
        if not names:
            raise SourceError(".purgem expects the name of a macro", st.args_column)
        for name, offset in names:
            if self.macros.pop(name.lower(), None) is None:
                raise SourceError(f"no macro named {name!r} to purge", st.args_column + offset)

    # ---- expansions ----------------------------------------------------------------------------
    def _repeat(self, st: Statement, op: str, frame: _Frame) -> None:
        body = self._body(st, frame, _REPEATS, ".endr")
        origin = Origin(op, st.location)
        if op == ".rept":
            if not st.args:
                raise SourceError(".rept expects a count", st.args_column)
            count = self.constant(st.args, st.args_column)
            if count < 0:
                raise SourceError(f".rept count {count} is negative", st.args_column)
            if not body:
                return      # nothing to repeat: a huge count must not spin (MAX_EXPANDED
                            # counts statements, and an empty body yields none)
            copies = (Piece(p.text, replace(p.line, origin=origin), p.offset)
                      for _ in range(count) for p in body)
            self._push(st, _Frame(copies))
            return
        args = _arguments(st.args)
        if not args or not _NAME.fullmatch(args[0][0]) or (op == ".irpc" and len(args) > 2):
            shape = "one string of characters" if op == ".irpc" else "values"
            raise SourceError(f"{op} expects a symbol, then {shape}", st.args_column)
        symbol = args[0][0]
        if op == ".irp":
            values = [_unquote(text) for text, _ in args[1:]] or [""]
        else:
            values = list(_unquote(args[1][0])) if len(args) > 1 else [""]
        counter = self.invocations   # GNU as expands every value at once
        copies = (piece for value in values
                  for piece in _expand(body, {symbol: value}, counter, origin))
        self._push(st, _Frame(copies, label=op, params=(symbol,)))

    def _invoke(self, st: Statement, macro: Macro) -> None:
        values = _bind(st, macro)
        copies = _expand(macro.body, values, self.invocations,
                         Origin(macro.describe(), st.location))
        self.invocations += 1
        self._push(st, _Frame(copies, f"macro {macro.name!r}",
                              tuple(p.name for p in macro.params)))

    def _push(self, st: Statement, frame: _Frame) -> None:
        if len(self.stack) > MAX_NESTING:
            if frame.file:   # not read: the files around it go on
                raise SourceError(f"files and expansions nested more than {MAX_NESTING} deep "
                                  "at this .include: does a file include itself?")
            name = f"macro {st.op!r}" if st.op.lower() in self.macros else st.op.lower()
            self._abandon(st, f"expansions nested more than {MAX_NESTING} deep (GNU as's limit "
                              f"too) when expanding {name}: does a macro invoke itself?")
            return
        self.stack.append(frame)

    def _abandon(self, st: Statement, message: str) -> None:
        """Report at the line of the file that started it all, and drop every expansion (and
        every file an expansion included), going on with the files included from the first."""
        self.errors.add(st.location.unwind()[0], message)
        keep = 1
        while keep < len(self.stack) and self.stack[keep].file:
            keep += 1
        del self.stack[keep:]

    def _exit(self) -> None:
        """End the innermost expansion: GNU as's .exitm inside a .rept in a macro ends the
        .rept (every repetition left), not the macro."""
        if self.stack[-1].file:
            raise SourceError(".exitm outside a macro, .rept or .irp")
        self.stack.pop()

    def _check_substituted(self, piece: Piece) -> None:
        """A backslash left outside a string is a parameter the expansion did not know."""
        i = _bare_backslash(piece.text)
        if i is None:
            return
        frames = [f for f in self.stack if f.params is not None]
        if not frames:
            return   # not in a substituted body: the parser reports the backslash
        m = _NAME_CHARS.match(piece.text, i + 1)
        token = "\\" + (m.group() if m else piece.text[i + 1:i + 2])
        known = ", ".join(frames[-1].params or ()) or "none"
        raise SourceError(f"'{token}' is not a parameter of {frames[-1].label} "
                          f"(parameters: {known})", piece.offset + i + 1)


# ---- text ------------------------------------------------------------------------------------
def _arguments(text: str) -> list[tuple[str, int]]:
    """The arguments of ``text`` (see the module docstring) with their 0-based offsets."""
    if not text.strip():
        return []
    bounds: list[tuple[int, int]] = []
    start = depth = i = 0
    while i < len(text):
        ch = text[i]
        if ch in "\"'":
            i, _ = skip_literal(text, i)
            continue
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth = max(depth - 1, 0)
        elif depth == 0 and ch == ",":
            bounds.append((start, i))
            start = i + 1
        elif depth == 0 and ch in " \t":
            j = i
            while j < len(text) and text[j] in " \t":
                j += 1
            before, after = text[start:i].strip()[-1:], text[j:j + 1]
            if before and after and after != "," and not {before, after} & _JOINING:
                bounds.append((start, i))
                start = j
            i = j
            continue
        i += 1
    bounds.append((start, len(text)))
    out: list[tuple[str, int]] = []
    for a, b in bounds:
        part = text[a:b]
        out.append((part.strip(), a + len(part) - len(part.lstrip())))
    return out


def _unquote(text: str) -> str:
    if text.startswith('"') and skip_literal(text, 0) == (len(text), True):
        return text[1:-1]
    return text


def _params(args: list[tuple[str, int]], column: int) -> tuple[Param, ...]:
    params: list[Param] = []
    for text, offset in args:
        at = column + offset
        m = _PARAM.fullmatch(text)
        if m is None:
            raise SourceError(f"bad macro parameter {text!r} (expected name, name=default, "
                              "name:req or name:vararg)", at)
        name, qualifier, default = m.groups()
        if qualifier not in (None, "req", "vararg"):
            raise SourceError(f"unknown parameter qualifier ':{qualifier}' (use :req or "
                              ":vararg)", at)
        if any(p.name == name for p in params):
            raise SourceError(f"parameter {name!r} appears twice", at)
        if params and params[-1].vararg:
            raise SourceError(f"parameter {params[-1].name!r} is :vararg, so it must be last",
                              at)
        params.append(Param(name, _unquote(default or ""), qualifier == "req",
                            qualifier == "vararg"))
    return tuple(params)


def _bind(st: Statement, macro: Macro) -> dict[str, str]:
    """Parameter values of one invocation."""
    names = [p.name for p in macro.params]
    listing = f"parameters: {', '.join(names)}" if names else "no parameters"
    values: dict[str, str] = {}
    positional = 0
    keywords = False
    for text, offset in _arguments(st.args):
        at = st.args_column + offset
        keyword = _KEYWORD.fullmatch(text)
        if keyword is not None:
            name = keyword.group(1)
            if name not in names:
                raise SourceError(f"macro {macro.name!r} has no parameter {name!r} ({listing})",
                                  at)
            if name in values:
                raise SourceError(f"parameter {name!r} is given twice", at)
            values[name] = _unquote(keyword.group(2).strip())
            keywords = True
            continue
        if keywords:
            raise SourceError("a positional argument cannot follow keyword arguments", at)
        if positional >= len(names):
            raise SourceError(f"too many arguments: macro {macro.name!r} takes {len(names)} "
                              f"({listing})", at)
        param = macro.params[positional]
        positional += 1
        if param.vararg:
            values[param.name] = st.args[offset:].strip()
            break
        values[param.name] = _unquote(text)
    for p in macro.params:
        if not values.get(p.name):
            if p.required:
                raise SourceError(f"macro {macro.name!r} needs a value for parameter "
                                  f"{p.name!r} (:req)")
            values[p.name] = p.default
    return values


def _expand(body: Iterable[Piece], values: dict[str, str], counter: int, origin: Origin
            ) -> Iterator[Piece]:
    """The pieces of ``body`` substituted; each keeps its body line, up to where it starts, so
    its columns read like the body's."""
    for piece in body:
        text = _substitute(piece.text, values, counter)
        line = Location(piece.line.filename, piece.line.line, 1,
                        piece.line.text[:piece.offset] + text, origin, piece.line.included_from)
        for offset, part in split_statements(text):
            yield Piece(part, line, piece.offset + offset)


_SUBSTITUTE_STOP = re.compile(r"[\\'\"]")   # what _substitute looks at: the rest is copied


def _substitute(text: str, values: dict[str, str], counter: int) -> str:
    if "\\" not in text:     # substitutions all start with a backslash
        return text
    out: list[str] = []
    start = i = 0
    in_string = False
    while (stop := _SUBSTITUTE_STOP.search(text, i)) is not None:
        i = stop.start()
        ch = text[i]
        if ch == "'" and not in_string:   # GNU as reads '\c' before expanding: kept as is
            i, _ = skip_literal(text, i)
            continue
        if ch != "\\":
            in_string ^= ch == '"'
            i += 1
            continue
        out.append(text[start:i])
        close = text.find(")", i) if text.startswith("\\(", i) else -1
        name = _NAME_CHARS.match(text, i + 1)
        if close >= 0:
            out.append(text[i + 2:close])
            i = close + 1
        elif text.startswith("\\@", i):
            out.append(str(counter))
            i += 2
        elif name is not None and name.group() in values:
            out.append(values[name.group()])
            i = name.end()
        else:   # kept with the next character, so an escaped backslash or quote stays one
            out.append(text[i:i + 2])
            i += 2
        start = i
    out.append(text[start:])
    return "".join(out)


def _bare_backslash(text: str) -> int | None:
    """Index of the first backslash outside string and character literals."""
    if "\\" not in text:
        return None
    i = 0
    while i < len(text):
        if text[i] in "\"'":
            i, _ = skip_literal(text, i)
        elif text[i] == "\\":
            return i
        else:
            i += 1
    return None
