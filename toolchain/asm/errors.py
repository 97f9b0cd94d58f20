"""Assembler diagnostics: where a problem is (file:line:column) and how it is reported.

Errors are collected rather than raised at the first one, so a user sees every mistake of a file
in one run; ``AsmError`` carries the list and formats it like a compiler does (location, message,
the source line and a caret under the faulty column).  Warnings (what GNU as accepts with a
warning, such as a data value truncated to its width) are formatted the same way and travel with
the assembled program.

A line produced by a macro, ``.rept`` or ``.irp`` expansion has a location in the body it came
from and an ``Origin`` naming the statement that expanded it.  Its errors are reported at the
outermost such statement (the line of the file being assembled that the user wrote), followed by
one note per expansion step down to the faulty line, so both the invocation and the place in the
macro body are named.  A line of a file read by ``.include`` names that file, and its errors end
with a note per ``.include`` that led to it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_ERRORS = 20
MAX_INCLUDE_NOTES = 4      # .include sites listed under an error (a recursion has 100)


@dataclass(frozen=True)
class Location:
    """A place in the source: 1-based line and column, with the line's text for the caret."""

    filename: str
    line: int
    column: int
    text: str
    origin: Origin | None = None     # set on lines produced by an expansion
    included_from: Location | None = None   # the .include statement, in an included file

    def at(self, column: int) -> Location:
        return Location(self.filename, self.line, column, self.text, self.origin,
                        self.included_from)

    def unwind(self) -> tuple[Location, tuple[Location, ...]]:
        """The outermost invoking statement, and the expanded lines from it down to this one."""
        steps: list[Location] = []
        loc = self
        while loc.origin is not None:
            steps.append(loc)
            loc = loc.origin.caller
        return loc, tuple(reversed(steps))

    def reading_order(self) -> tuple[tuple[int, int], ...]:
        """Sort key: where the assembler reads this line (include sites first, outermost first)."""
        outer = self.included_from.reading_order() if self.included_from else ()
        return (*outer, (self.line, self.column))


@dataclass(frozen=True)
class Origin:
    """Why an expanded line exists: the expansion (``macro 'm' defined at k.s:3``, ``.rept``)
    and the statement that asked for it (itself possibly expanded)."""

    what: str
    caller: Location


@dataclass(frozen=True)
class Diagnostic:
    location: Location                      # never an expanded line: see ``expansion``
    message: str
    expansion: tuple[Location, ...] = ()    # expanded lines, outermost first, if any
    severity: str = "error"                 # or "warning"

    def format(self) -> str:
        loc = self.location
        lines = [f"{loc.filename}:{loc.line}:{loc.column}: {self.severity}: "
                 f"{_printable(self.message)}", *_quote(loc)]
        for step in self.expansion:
            assert step.origin is not None
            lines.append(f"{step.filename}:{step.line}:{step.column}: note: in expansion of "
                         f"{step.origin.what}")
            lines += _quote(step)
        sites: list[Location] = []
        site = loc.included_from
        while site is not None:
            sites.append(site)
            site = site.included_from
        for site in sites[:MAX_INCLUDE_NOTES]:
            lines.append(f"{site.filename}:{site.line}:{site.column}: note: included from here")
            lines += _quote(site)
        if len(sites) > MAX_INCLUDE_NOTES:
            lines.append(f"(and {len(sites) - MAX_INCLUDE_NOTES} more .include sites)")
        return "\n".join(lines)


def _quote(loc: Location) -> list[str]:
    """The line of ``loc`` and a caret under its column."""
    # keep tabs in the caret line so the caret sits under the same character in a terminal
    pad = "".join("\t" if ch == "\t" else " " for ch in _printable(loc.text[:loc.column - 1]))
    return [f"  {_printable(loc.text)}", f"  {pad}^"]


def _printable(text: str) -> str:
    """``text`` with each byte of the file that is not UTF-8 (a surrogate escape, see
    ``lexer.read_source``; in a message, the ``repr`` of one) shown as ``\\xNN``."""
    shown = text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    return re.sub(r"\\udc([89a-f][0-9a-f])", r"\\x\1", shown)


class SourceError(Exception):
    """Raised inside the assembler for one bad statement; ``column`` is 1-based, None = start."""

    def __init__(self, message: str, column: int | None = None):
        super().__init__(message)
        self.message = message
        self.column = column


class AsmError(Exception):
    """Everything wrong with one source file; ``str()`` is the formatted report."""

    def __init__(self, diagnostics: list[Diagnostic], truncated: bool = False):
        self.diagnostics = diagnostics
        self.truncated = truncated
        super().__init__(self.report())

    def report(self) -> str:
        lines = [d.format() for d in self.diagnostics]
        if self.truncated:
            lines.append(f"too many errors; stopped after {len(self.diagnostics)}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.report()


class Collector:
    """Gathers diagnostics up to ``MAX_ERRORS``; the driver raises once at the end."""

    def __init__(self) -> None:
        self.diagnostics: list[Diagnostic] = []
        self.warnings: list[Diagnostic] = []
        self.truncated = False

    def add(self, location: Location, message: str) -> None:
        if not _record(self.diagnostics, location, message, "error"):
            self.truncated = True

    def warn(self, location: Location, message: str) -> None:
        _record(self.warnings, location, message, "warning")

    def formatted_warnings(self) -> list[str]:
        return [d.format() for d in sorted(self.warnings,
                                           key=lambda d: d.location.reading_order())]

    def raise_if_any(self) -> None:
        if self.diagnostics:
            self.diagnostics.sort(key=lambda d: d.location.reading_order())
            raise AsmError(self.diagnostics, self.truncated)


def _record(into: list[Diagnostic], location: Location, message: str, severity: str) -> bool:
    """Append the diagnostic (once, at the outermost invocation); False when ``into`` is full."""
    if len(into) >= MAX_ERRORS:
        return False
    invocation, steps = location.unwind()
    diagnostic = Diagnostic(invocation, message, steps, severity)
    if diagnostic not in into:
        into.append(diagnostic)
    return True
