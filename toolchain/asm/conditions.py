"""Conditional assembly, as GNU as does it: which lines of a file or an expansion are assembled.

Openers: ``.if expr`` (nonzero; an expression known now), ``.ifdef sym`` / ``.ifndef sym``
(``.ifnotdef``: a label or equate defined before this line), ``.ifb text`` / ``.ifnb text``
(blank or not: for optional macro arguments), ``.ifc a, b`` / ``.ifnc a, b`` (the two strings
equal or not, case-sensitive, blanks around them ignored; quotes are part of a string, so
``"a0"`` differs from ``a0``).  Then any number of
``.elseif expr``, at most one ``.else``, and ``.endif``.  Inside a branch that is not taken only
these directives are read (and counted, so nested ones pair up); everything else, ``.macro`` and
``.include`` included, is skipped without being looked at.

Each input frame (the file, an included file, one expansion) keeps its own stack: a conditional
must end where it began, so one left open at the end of a file or of an expansion is an error
(GNU as warns and closes it), and ``.exitm`` inside a branch simply drops the expansion's stack.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from toolchain.asm.errors import Location, SourceError
from toolchain.asm.lexer import Statement

OPENERS = frozenset({".if", ".ifdef", ".ifndef", ".ifnotdef", ".ifb", ".ifnb", ".ifc", ".ifnc"})
DIRECTIVES = OPENERS | {".elseif", ".else", ".endif"}

Test = Callable[[Statement, str], bool]   # the value of an opener or .elseif (op given)


@dataclass
class _Open:
    op: str
    location: Location
    outer: bool          # the lines around it are assembled
    done: bool           # a branch was taken: the rest of them are skipped
    active: bool         # the lines read now are assembled
    else_line: int = 0   # line of its .else, once seen


class Conditions:
    """The conditionals open in one input frame."""

    def __init__(self) -> None:
        self.open: list[_Open] = []

    @property
    def active(self) -> bool:
        return not self.open or self.open[-1].active

    def directive(self, st: Statement, op: str, test: Test) -> None:
        if op in OPENERS:
            outer = self.active
            entry = _Open(op, st.location, outer, False, False)
            self.open.append(entry)            # first, so that .endif pairs up after an error
            entry.done = entry.active = outer and test(st, op)
            return
        if not self.open:
            raise SourceError(f"{op} without .if")
        entry = self.open[-1]
        if op == ".endif":
            self.open.pop()
            return
        if entry.else_line:
            raise SourceError(f"{op} after .else (line {entry.else_line})")
        if op == ".else":
            entry.else_line = st.location.line
        entry.active = False
        take = entry.outer and not entry.done and (op == ".else" or test(st, ".if"))
        entry.done |= take
        entry.active = take

    def unclosed(self, where: str) -> list[tuple[Location, str]]:
        """Errors for the conditionals still open at the end of the frame (``where``)."""
        return [(c.location, f"{c.op} is not closed: no .endif before the end of {where}")
                for c in self.open]


def strings_equal(st: Statement) -> bool:
    """``.ifc a, b``: the first string ends at the first comma outside quotes."""
    text = st.args
    i = 0
    while i < len(text) and text[i] != ",":
        if text[i] == '"':
            close = text.find('"', i + 1)
            i = len(text) if close < 0 else close + 1
        else:
            i += 1
    if i >= len(text):
        raise SourceError(f"{st.op} expects two strings separated by a comma", st.args_column)
    return text[:i].strip() == text[i + 1:].strip()
