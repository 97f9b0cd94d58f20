"""Source text to statements: comments removed, ``;`` separators split, labels taken off.

Comments (``#`` and ``//`` to the end of the line, ``/* ... */`` across lines) are blanked with
spaces rather than deleted so every column still points into the original line, which is what
error messages show.  Strings and character literals are skipped over so a ``#`` or ``;`` inside
them is not mistaken for a comment or a separator.

Splitting (``pieces``) and parsing (``statement``) are separate steps because macro expansion
sits between them: it keeps the text of body pieces and parses their substituted copies.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass

from toolchain.asm.errors import Location, SourceError
from toolchain.asm.expr import char_value
from toolchain.syntax import split_operands

_LABEL = re.compile(r"\s*([A-Za-z_.$][\w.$]*|\d+)\s*:(?!=)")
_ASSIGN = re.compile(r"\s*([A-Za-z_.$][\w.$]*)\s*=(?!=)")
_OP = re.compile(r"\s*(\S+)")


@dataclass(frozen=True)
class Statement:
    """One statement; columns are 1-based positions in ``location.text``."""

    location: Location                 # column of the operation (or of the first label)
    labels: tuple[tuple[str, int], ...]
    op: str                            # mnemonic, directive, "=" for ``sym = expr``, or ""
    args: str
    args_column: int
    target: str = ""                   # the symbol of ``sym = expr``

    def at(self, column: int | None) -> Location:
        return self.location if column is None else self.location.at(column)

    def operands(self) -> list[tuple[str, int]]:
        """The comma-separated operands with the column where each starts."""
        out: list[tuple[str, int]] = []
        cursor = 0
        for part in split_operands(self.args):
            pos = self.args.find(part, cursor) if part else cursor
            pos = max(pos, cursor)
            out.append((part, self.args_column + pos))
            cursor = pos + len(part)
        return out


def skip_literal(text: str, i: int) -> tuple[int, bool]:
    """Index just past the string or character literal at ``text[i]``, and whether it closed."""
    if text[i] == "'":
        i += 3 if text[i + 1:i + 2] == "\\" else 2
        return (i + 1 if text[i:i + 1] == "'" else i), True
    j = i + 1
    while j < len(text) and text[j] not in '"\n':
        j += 2 if text[j] == "\\" else 1
    closed = j < len(text) and text[j] == '"'
    return (j + 1 if closed else j), closed


_SPECIAL = re.compile(r"[\"'#]|//|/\*")


def _blank_comments(source: str) -> tuple[str, list[tuple[int, str]]]:
    """Source with comments turned into spaces, and lexical errors as (offset, message)."""
    out = list(source)
    errors: list[tuple[int, str]] = []
    i, n = 0, len(source)
    while (m := _SPECIAL.search(source, i)) is not None:
        i = m.start()
        token = m.group()
        if token in "\"'":
            i, closed = skip_literal(source, i)
            if not closed:
                errors.append((m.start(), "unterminated string"))
            continue
        if token == "/*":
            end = source.find("*/", i + 2)
            stop = n if end < 0 else end + 2
            if end < 0:
                errors.append((i, "unterminated /* comment"))
        else:   # '#' or '//' to the end of the line
            end = source.find("\n", i)
            stop = n if end < 0 else end
        for k in range(i, stop):
            if out[k] != "\n":
                out[k] = " "
        i = stop
    return "".join(out), errors


def split_statements(line: str) -> Iterator[tuple[int, str]]:
    """``(offset, text)`` of each ``;``-separated part of a comment-free line."""
    if ";" not in line:
        yield 0, line
        return
    start = 0
    i = 0
    while i < len(line):
        if line[i] in "\"'":
            i, _ = skip_literal(line, i)
            continue
        if line[i] == ";":
            yield start, line[start:i]
            start = i + 1
        i += 1
    yield start, line[start:]


@dataclass(frozen=True)
class Piece:
    """The text of one ``;``-separated statement, not yet parsed, and the line it is part of."""

    text: str
    line: Location      # the whole line (its column is unused)
    offset: int         # 0-based position of ``text`` in ``line.text``


def statement(piece: Piece) -> Statement | None:
    """The statement of a piece; None if it is blank."""
    text, offset, line = piece.text, piece.offset, piece.line
    labels: list[tuple[str, int]] = []
    pos = 0
    assign = _ASSIGN.match(text)
    while not assign and (m := _LABEL.match(text, pos)):
        labels.append((m.group(1), offset + m.start(1) + 1))
        pos = m.end()
        assign = _ASSIGN.match(text, pos)
    if assign:
        rest = text[assign.end():]
        args_col = offset + assign.end() + len(rest) - len(rest.lstrip()) + 1
        loc = line.at(offset + assign.start(1) + 1)
        return Statement(loc, tuple(labels), "=", rest.strip(), args_col, assign.group(1))
    m = _OP.match(text, pos)
    if m is None:
        if not labels:
            return None
        return Statement(line.at(labels[0][1]), tuple(labels), "", "", labels[0][1])
    rest = text[m.end():]
    args_col = offset + m.end() + len(rest) - len(rest.lstrip()) + 1
    loc = line.at(offset + m.start(1) + 1)
    return Statement(loc, tuple(labels), m.group(1), rest.strip(), args_col)


def pieces(source: str, filename: str, included_from: Location | None = None
           ) -> tuple[list[Piece], list[tuple[Location, str]]]:
    """All statement pieces of ``source`` in order, and the lexical errors found on the way;
    ``included_from`` is the ``.include`` statement that reads ``source``, if any."""
    clean, lex_errors = _blank_comments(source)
    originals = source.split("\n")
    starts = [0]
    for line in originals[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    errors: list[tuple[Location, str]] = []
    for offset, message in lex_errors:
        number = bisect.bisect_right(starts, offset) - 1
        errors.append((Location(filename, number + 1, offset - starts[number] + 1,
                                originals[number].rstrip("\r"), None, included_from), message))
    out: list[Piece] = []
    for number, line in enumerate(clean.split("\n")):
        where = Location(filename, number + 1, 1, originals[number].rstrip("\r"), None,
                         included_from)
        out += [Piece(text, where, offset)
                for offset, text in split_statements(line.rstrip("\r")) if text.strip()]
    return out, errors


def read_source(path) -> str:
    """The text of a source file (a path or an importlib resource).  Bytes that are not UTF-8
    pass through as surrogate escapes: GNU as takes any byte in a comment or a string, and
    ``parse_string`` turns them back into the same bytes; elsewhere they are reported with
    their line like any other stray character."""
    return path.read_bytes().decode("utf-8", "surrogateescape")


def parse_string(text: str) -> bytes:
    """Bytes of one ``"..."`` literal with C escapes; SourceError (0-based offset) if malformed."""
    text = text.strip()
    if len(text) < 2 or not text.startswith('"') or not text.endswith('"'):
        raise SourceError(f"expected a string in double quotes, got {text!r}")
    body = text[1:-1]
    out = bytearray()
    i = 0
    while i < len(body):
        ch = body[i]
        if ch != "\\":
            out.extend(ch.encode("utf-8", "surrogateescape"))
            i += 1
            continue
        m = re.match(r"\\([0-7]{1,3}|x[0-9a-fA-F]+|.)", body[i:])
        if m is None:
            raise SourceError("string ends with a lone backslash")
        out.append(char_value(m.group()))
        i += m.end()
    return bytes(out)
