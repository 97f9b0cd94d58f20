"""``.include "file"``: finding the file and reading it as statement pieces (and, for
``.incbin``, as bytes).

A relative name is looked for next to the file whose statement includes it (the directory of
that file's name; the current directory for source text without a file, e.g. ``<input>``),
then in each include directory in order; an absolute name is read as it is.  (GNU as looks in
the current directory, then in each ``-I`` directory: give it ``-I`` with the including file's
directory for the same result.)  Include directories may be paths or ``importlib.resources``
traversables, so a package's data directory serves as one whether installed or not.

The included file's lines carry its own name and the ``.include`` statement that read it, so an
error there is reported at file:line:column inside it, with a note naming the include site.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from importlib.resources.abc import Traversable
from pathlib import Path

from toolchain.asm.errors import Collector, SourceError
from toolchain.asm.lexer import Piece, Statement, parse_string, pieces, read_source

IncludeDir = str | os.PathLike | Traversable


class Includer:
    """Opens the files ``.include`` names; lexical errors in them go to ``errors``."""

    def __init__(self, dirs: Sequence[IncludeDir], errors: Collector) -> None:
        self.dirs = [d if isinstance(d, Traversable) else Path(d) for d in dirs]
        self.errors = errors

    def __call__(self, st: Statement) -> list[Piece]:
        try:
            name = parse_string(st.args).decode()
        except (SourceError, UnicodeDecodeError):
            raise SourceError('.include expects a file name in double quotes',
                              st.args_column) from None
        found, looked = self._find(name, st.location.filename)
        if found is None:
            raise SourceError(f"include file {name!r} not found (looked for {looked})",
                              st.args_column)
        try:
            text = read_source(found)
        except OSError as e:
            raise SourceError(f"cannot read include file {str(found)!r}: {e}",
                              st.args_column) from None
        out, lex_errors = pieces(text, str(found), included_from=st.location)
        for where, message in lex_errors:
            self.errors.add(where, message)
        return out

    def binary(self, name: str, st: Statement, column: int) -> bytes:
        """The bytes of the file ``.incbin`` names, found the way ``.include`` finds files."""
        found, looked = self._find(name, st.location.filename)
        if found is None:
            raise SourceError(f"file {name!r} not found (looked for {looked})", column)
        try:
            return found.read_bytes()
        except OSError as e:
            raise SourceError(f"cannot read {str(found)!r}: {e}", column) from None

    def _find(self, name: str, including: str) -> tuple[Path | Traversable | None, str]:
        """The file ``name`` means, or None, and where it was looked for."""
        if os.path.isabs(name):
            candidates: list[Path | Traversable] = [Path(name)]
        else:
            candidates = [Path(including).parent / name, *(d.joinpath(name) for d in self.dirs)]
        found = next((c for c in candidates if c.is_file()), None)
        return found, ", ".join(str(c) for c in candidates)
