"""Disassembler: decoded words back to GNU-style text (``addi a0,a1,-5``), from the table."""

from __future__ import annotations

from collections.abc import Callable

from toolchain.fields import Field
from toolchain.registers import ROUNDING_NAMES, fence_set_name, freg_name, xreg_name
from toolchain.syntax import Template
from toolchain.table import Decoded, Isa

Symbolizer = Callable[[int], str | None]


def format_value(f: Field, value: int, pc: int, isa: Isa, symbolize: Symbolizer | None) -> str:
    if f.kind == "xreg":
        return xreg_name(value)
    if f.kind == "freg":
        return freg_name(value)
    if f.kind == "rm":
        return ROUNDING_NAMES.get(value, str(value))
    if f.kind == "fence":
        return fence_set_name(value)
    if f.kind == "loop":
        return f"x{value}"
    if f.kind == "csr":
        return isa.csr_names.get(value, f"{value:#x}")
    if f.kind == "pcrel":
        target = (pc + value) & 0xFFFFFFFF
        label = symbolize(target) if symbolize else None
        return f"{target:#x}" + (f" <{label}>" if label else "")
    shown = f.to_text_value(value)
    return f"{shown:#x}" if f.hex else str(shown)


def choose_template(templates: tuple[Template, ...], fields: dict[str, Field],
                    values: dict[str, int]) -> Template | None:
    """The shortest template that can show ``values`` (omitted fields must hold defaults)."""
    best: Template | None = None
    for t in templates:
        shown = set(t.field_names())
        if any(values.get(n, f.default) != f.default for n, f in fields.items() if n not in shown):
            continue
        if best is None or len(shown) < len(best.field_names()):
            best = t
    return best


def render(template: Template, fields: dict[str, Field], values: dict[str, int], pc: int,
           isa: Isa, symbolize: Symbolizer | None) -> str:
    parts: list[str] = []
    for p in template.patterns:
        if p.literal is not None:
            parts.append(p.literal)
            continue
        if p.is_memory:
            off = ""
            if p.field is not None:
                off = format_value(fields[p.field], values[p.field], pc, isa, symbolize)
            base = (p.base if p.fixed_base else  # type: ignore[assignment]
                    format_value(fields[p.base], values[p.base], pc, isa, symbolize))  # type: ignore[index]
            parts.append(f"{off}({base}{'!' if p.bang else ''})")
        else:
            parts.append(format_value(fields[p.field], values[p.field], pc, isa, symbolize))  # type: ignore[index]
    return ",".join(parts)


def disassemble(isa: Isa, d: Decoded, pc: int = 0, symbolize: Symbolizer | None = None,
                aliases: bool = True) -> tuple[str, str]:
    """``(mnemonic, operands)`` for a decoded instruction at ``pc``."""
    if aliases and d.entry.expands is None:
        for a in isa.aliases_for.get(id(d.entry), ()):
            mine = a.mapping.backward(d.values, a.fields)
            if mine is None:
                continue
            t = choose_template(a.templates, a.fields, mine)
            if t is not None:
                return a.name, render(t, a.fields, mine, pc, isa, symbolize)
    t = choose_template(d.entry.templates, d.entry.fields, d.values)
    assert t is not None, f"{d.entry.name}: no template shows {d.values}"
    return d.entry.name, render(t, d.entry.fields, d.values, pc, isa, symbolize)


def disassemble_word(isa: Isa, word: int, pc: int = 0, symbolize: Symbolizer | None = None,
                     aliases: bool = True) -> str:
    """One line of text for ``word``; ``.word``/``.half`` when it is not an instruction."""
    d = isa.decode(word)
    if d is None:
        return f".half {word & 0xffff:#06x}" if word & 3 != 3 else f".word {word:#010x}"
    mnemonic, ops = disassemble(isa, d, pc, symbolize, aliases)
    return f"{mnemonic} {ops}" if ops else mnemonic
