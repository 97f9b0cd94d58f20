"""Assembler diagnostics: where a problem is (file:line:column) and how it is reported.

Errors are collected rather than raised at the first one, so a user sees every mistake of a file
in one run; ``AsmError`` carries the list and formats it like a compiler does (location, message,
the source line and a caret under the faulty column).
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_ERRORS = 20


@dataclass(frozen=True)
class Location:
    """A place in the source: 1-based line and column, with the line's text for the caret."""

    filename: str
    line: int
    column: int
    text: str

    def at(self, column: int) -> Location:
        return Location(self.filename, self.line, column, self.text)


@dataclass(frozen=True)
class Diagnostic:
    location: Location
    message: str

    def format(self) -> str:
        loc = self.location
        # keep tabs in the caret line so the caret sits under the same character in a terminal
        pad = "".join("\t" if ch == "\t" else " " for ch in loc.text[:loc.column - 1])
        return (f"{loc.filename}:{loc.line}:{loc.column}: error: {self.message}\n"
                f"  {loc.text}\n  {pad}^")


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
        self.truncated = False

    def add(self, location: Location, message: str) -> None:
        if len(self.diagnostics) >= MAX_ERRORS:
            self.truncated = True
            return
        if any(d.location == location and d.message == message for d in self.diagnostics):
            return
        self.diagnostics.append(Diagnostic(location, message))

    def raise_if_any(self) -> None:
        if self.diagnostics:
            self.diagnostics.sort(key=lambda d: (d.location.line, d.location.column))
            raise AsmError(self.diagnostics, self.truncated)
