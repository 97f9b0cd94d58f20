"""Operand templates: the text shape of an instruction's operands, shared by parse and print.

A template such as ``"rd, imm12(rs1!)"`` is a comma-separated list of operand patterns.  Each
pattern is one of: a field (``rd``), a memory form with an optional offset field and a base
register field (``imm12(rs1)``, ``imm12(rs1!)`` for post-increment, ``(rs1)``) or a fixed base
register (``c_uimm8sp(sp)`` of RVC), or a literal (``x0``, ``sp``, ``0``) that the text must
repeat.  The assembler splits a source line's operands the same way and matches them pattern by
pattern; the disassembler fills the patterns back in.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from toolchain.registers import XREGS

T = TypeVar("T")

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@dataclass(frozen=True)
class Pattern:
    """One operand: ``field`` alone, or ``offset(base)`` with ``bang`` for post-increment."""

    field: str | None = None      # plain field, or the offset field of a memory form
    base: str | None = None       # base-register field of a memory form
    bang: bool = False            # "(rs1!)"
    literal: str | None = None    # text that must appear as is
    fixed_base: bool = False      # ``base`` is a register name the text must repeat ("(sp)")

    @property
    def is_memory(self) -> bool:
        return self.base is not None

    def field_names(self) -> list[str]:
        names = (self.field,) if self.fixed_base else (self.field, self.base)
        return [n for n in names if n is not None]


@dataclass(frozen=True)
class Template:
    text: str
    patterns: tuple[Pattern, ...]

    def field_names(self) -> list[str]:
        names: list[str] = []
        for p in self.patterns:
            names.extend(p.field_names())
        return names


def remember_short_texts(fn: Callable[[str], T]) -> Callable[[str], T]:
    """``fn`` of a text, remembered for texts of up to 200 characters: the assembler meets the
    same operand texts in every program it assembles, and those are short (a long one would
    stay pinned in memory)."""
    cached = functools.lru_cache(maxsize=1 << 16)(fn)

    @functools.wraps(fn)
    def call(text: str) -> T:
        return cached(text) if len(text) <= 200 else fn(text)
    return call


def split_operands(text: str) -> list[str]:
    """Split at commas that are not inside parentheses or quotes; strip each part."""
    return list(_split_operands(text))


@remember_short_texts
def _split_operands(text: str) -> tuple[str, ...]:
    parts: list[str] = []
    depth = 0
    quote = ""
    cur: list[str] = []
    for ch in text:
        if quote:
            cur.append(ch)
            if ch == quote:
                quote = ""
            continue
        if ch in "\"'":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
            continue
        cur.append(ch)
    last = "".join(cur).strip()
    if parts or last:
        parts.append(last)
    return tuple(parts)


def split_memory(text: str) -> tuple[str, str, bool] | None:
    """``"off(base!)"`` -> ``("off", "base", True)``; None if text does not end in ``(...)``."""
    text = text.strip()
    if not text.endswith(")"):
        return None
    depth = 0
    for i in range(len(text) - 1, -1, -1):
        if text[i] == ")":
            depth += 1
        elif text[i] == "(":
            depth -= 1
            if depth == 0:
                inner = text[i + 1:-1].strip()
                bang = inner.endswith("!")
                if bang:
                    inner = inner[:-1].strip()
                return text[:i].strip(), inner, bang
    return None


def parse_template(text: str, field_names: set[str], where: str) -> Template:
    """Compile a template string; names not in ``field_names`` are literals."""
    from toolchain.fields import TableError

    patterns: list[Pattern] = []
    for part in split_operands(text):
        mem = split_memory(part)
        if mem is not None:
            off, base, bang = mem
            fixed = base not in field_names
            if fixed and base.lower() not in XREGS:
                raise TableError(f"{where}: template {text!r}: base {base!r} is neither a "
                                 f"field nor a register")
            if off and off not in field_names:
                raise TableError(f"{where}: template {text!r}: offset {off!r} is not a field")
            patterns.append(Pattern(field=off or None, base=base, bang=bang, fixed_base=fixed))
        elif part in field_names:
            patterns.append(Pattern(field=part))
        elif _IDENT.match(part) or re.match(r"^-?\d+$", part):
            patterns.append(Pattern(literal=part))
        else:
            raise TableError(f"{where}: template {text!r}: cannot read operand {part!r}")
    return Template(text, tuple(patterns))
