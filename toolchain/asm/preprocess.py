"""``.S`` sources: the C preprocessor first, as GNU toolchains do (``gcc -E -x
assembler-with-cpp``), then the assembler, with errors pointing back at the ``.S`` file.

The preprocessor's line markers (``# 12 "file.S"``) say where each output line came from; they
become blank lines (so the assembler's line numbers index the output) and a map from output
line to (file, line) that rewrites the assembler's diagnostics.
"""

from __future__ import annotations

import dataclasses
import re
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

from toolchain.asm.errors import AsmError, Diagnostic, Location

# a RISC-V cross preprocessor defines __riscv, __riscv_xlen, __riscv_flen...; the host's is
# the fallback (without those)
PREPROCESSORS = (("riscv64-unknown-elf-cpp", ["-march=rv32imafc", "-mabi=ilp32f"]),
                 ("cpp", []))
MARKER = re.compile(r'#\s*(\d+)\s+"((?:[^"\\]|\\.)*)"')


class PreprocessError(AsmError):
    """The preprocessor is missing, or rejected the file (its messages name file:line)."""

    def __init__(self, text: str) -> None:
        self.text = text
        super().__init__([])

    def report(self) -> str:
        return self.text

    def __str__(self) -> str:
        return self.text


def preprocessor() -> list[str] | None:
    for name, flags in PREPROCESSORS:
        path = shutil.which(name)
        if path:
            return [path, *flags]
    return None


def preprocess(path: Path, include_dirs: Sequence[Path] = ()) -> tuple[str, list[tuple[str, int]]]:
    """The preprocessed text of ``path`` (line markers blanked) and, per output line, the
    (file, line) it came from."""
    cpp = preprocessor()
    if cpp is None:
        raise PreprocessError(f"{path}: a .S file goes through the C preprocessor, and none is "
                              f"installed (cpp or riscv64-unknown-elf-cpp; on Debian: apt-get "
                              f"install cpp); rename it to .s if it uses no #include, #define "
                              f"or #if")
    args = [*cpp, "-x", "assembler-with-cpp", *[f"-I{d}" for d in include_dirs], str(path)]
    done = subprocess.run(args, capture_output=True, text=True, errors="surrogateescape")
    if done.returncode != 0:
        raise PreprocessError(done.stderr.strip() or f"{path}: the C preprocessor failed "
                                                      f"(exit status {done.returncode})")
    lines: list[str] = []
    origin: list[tuple[str, int]] = []
    where = (str(path), 1)
    for text in done.stdout.split("\n"):
        m = MARKER.match(text)
        if m:
            where = (m.group(2).encode().decode("unicode_escape"), int(m.group(1)))
            lines.append("")
            origin.append(where)
            continue
        lines.append(text)
        origin.append(where)
        where = (where[0], where[1] + 1)
    return "\n".join(lines), origin


def mapped(error: AsmError, origin: list[tuple[str, int]]) -> AsmError:
    """``error`` with every location moved from the preprocessed text to its source line."""
    def move(loc: Location | None) -> Location | None:
        if loc is None or not 1 <= loc.line <= len(origin) or loc.included_from is not None:
            return loc
        filename, line = origin[loc.line - 1]
        return dataclasses.replace(loc, filename=filename, line=line)

    def fix(d: Diagnostic) -> Diagnostic:
        return dataclasses.replace(d, location=move(d.location),
                                   expansion=tuple(move(s) for s in d.expansion))
    return AsmError([fix(d) for d in error.diagnostics], error.truncated)


def assemble_preprocessed(path: Path, include_dirs: Sequence[Path], **options):
    """Assemble the ``.S`` file ``path`` (``options``: those of ``assemble``)."""
    from toolchain.asm.driver import assemble

    text, origin = preprocess(path, include_dirs)
    try:
        program = assemble(text, str(path), include_dirs=include_dirs, **options)
    except AsmError as e:
        raise mapped(e, origin) from None
    return program
