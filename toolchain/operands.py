"""Match an instruction's operand text against the table's templates.

``match_instruction`` finds which entry (or alias) of a mnemonic the operands fit and returns the
field values, already checked against each field's range.  Expressions are evaluated by a callback
so that the assembler can resolve symbols, ``%hi``/``%lo`` and ``.`` on its own terms; register,
rounding-mode, fence-set and CSR names are handled here from the table.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass

from toolchain.fields import Field
from toolchain.registers import FREGS, ROUNDING_MODES, XREGS, parse_fence_set
from toolchain.syntax import Template, split_memory, split_operands
from toolchain.table import Alias, Entry, Isa

# evaluate(expression_text, field) -> int ; raises OperandError (or ValueError) if it cannot
Evaluator = Callable[[str, Field], int]

_KIND_WORDS = {
    "xreg": "an integer register", "freg": "a floating-point register",
    "rm": "a rounding mode (rne, rtz, rdn, rup, rmm, dyn)", "fence": "a fence set (e.g. iorw)",
    "loop": "a hardware-loop index (x0 or x1)", "csr": "a CSR name or number",
    "imm": "an immediate", "pcrel": "a label or address",
}


class OperandError(ValueError):
    """Why operands do not fit; ``index`` is the operand at fault (None: the whole list)."""

    def __init__(self, message: str, index: int | None = None):
        super().__init__(message)
        self.message = message
        self.index = index


@dataclass
class Match:
    entry: Entry                 # the instruction to encode
    values: dict[str, int]       # its field values
    alias: Alias | None = None   # the alias that was written, if any
    template: Template | None = None  # the operand template the text matched

    @property
    def written(self) -> str:
        """Mnemonic and template as written ("jr rs1"), for ``Isa.compress``."""
        name = self.alias.name if self.alias is not None else self.entry.name
        text = self.template.text if self.template is not None else ""
        return f"{name} {text}".strip()


def _int_literal(text: str) -> int | None:
    try:
        return int(text.strip(), 0)
    except ValueError:
        return None


def read_operand(f: Field, text: str, isa: Isa, pc: int, evaluate: Evaluator, index: int) -> int:
    """Value of one operand for field ``f`` (registers by name; numbers through ``evaluate``)."""
    t = text.strip()
    low = t.lower()
    if f.kind in ("xreg", "freg"):
        table, other = (XREGS, FREGS) if f.kind == "xreg" else (FREGS, XREGS)
        if low in table:
            value = table[low]
            why = f.fits(value)
            if why:
                raise OperandError(f"operand {index + 1}: {why}", index)
            return value
        if low in other:
            raise OperandError(f"operand {index + 1}: expected {_KIND_WORDS[f.kind]}, "
                               f"got {t!r}", index)
        raise OperandError(f"operand {index + 1}: expected {_KIND_WORDS[f.kind]}, got {t!r}",
                           index)
    # hardware-loop index first: it is written like a register (x0 / x1)
    if f.kind == "loop":
        if low in ("x0", "x1"):
            return int(low[1])
        raise OperandError(f"operand {index + 1}: expected {_KIND_WORDS['loop']}, got {t!r}",
                           index)
    if low in XREGS or low in FREGS:
        raise OperandError(f"operand {index + 1}: expected {_KIND_WORDS[f.kind]}, got register "
                           f"{t!r}", index)
    if f.kind == "rm":
        if low not in ROUNDING_MODES:
            raise OperandError(f"operand {index + 1}: expected {_KIND_WORDS['rm']}, got {t!r}",
                               index)
        return ROUNDING_MODES[low]
    if f.kind == "fence":
        v = parse_fence_set(low)
        if v is None:
            raise OperandError(f"operand {index + 1}: expected {_KIND_WORDS['fence']}, got {t!r}",
                               index)
        return v
    if f.kind == "csr" and low in isa.csrs:
        return isa.csrs[low]
    if not t:
        raise OperandError(f"operand {index + 1}: missing {_KIND_WORDS[f.kind]}", index)
    try:
        number = evaluate(t, f)
    except OperandError as e:
        raise OperandError(f"operand {index + 1}: {e.message}", index) from None
    except ValueError as e:
        raise OperandError(f"operand {index + 1}: {e}", index) from None
    if f.kind == "pcrel":
        value = number - pc
    else:
        try:
            value = f.from_text_value(number)
        except ValueError as e:
            raise OperandError(f"operand {index + 1}: {e}", index) from None
    why = f.fits(value)
    if why:
        if f.kind == "pcrel":
            lo, hi = f.value_range()
            why = (f"target {number:#x} is {value:+d} bytes away; "
                   f"{f.name} reaches [{lo + f.add}, {hi + f.add}]"
                   + (f" in steps of {f.align}" if f.align > 1 else ""))
        elif f.asm_shift or f.asm_width:
            lo, hi = f.value_range()
            why = f"value {number:#x} does not fit {f.name}"
        raise OperandError(f"operand {index + 1}: {why}", index)
    return value


def bind_template(tpl: Template, operands: list[str], fields: dict[str, Field], isa: Isa,
                  pc: int, evaluate: Evaluator) -> dict[str, int]:
    """Field values for ``operands`` written in ``tpl``'s shape; raises OperandError."""
    if len(operands) != len(tpl.patterns):
        raise OperandError(f"expected {len(tpl.patterns)} operand"
                           f"{'s' if len(tpl.patterns) != 1 else ''} ({tpl.text or 'none'}), "
                           f"got {len(operands)}")
    values: dict[str, int] = {}
    for i, (pat, text) in enumerate(zip(tpl.patterns, operands, strict=True)):
        if pat.literal is not None:
            want = pat.literal.lower()
            got = text.strip().lower()
            same = got == want or (want in XREGS and XREGS.get(got) == XREGS[want])
            if not same:
                raise OperandError(f"operand {i + 1}: expected {pat.literal}, got {text!r}", i)
            continue
        if pat.is_memory:
            mem = split_memory(text)
            if mem is None:
                raise OperandError(f"operand {i + 1}: expected a memory operand "
                                   f"like {_shape(pat)}, got {text!r}", i)
            off, base, bang = mem
            if bang != pat.bang:
                raise OperandError(f"operand {i + 1}: expected {_shape(pat)}, got {text!r} "
                                   f"({'no ' if not pat.bang else ''}post-increment '!')", i)
            if pat.fixed_base:
                if XREGS.get(base.strip().lower()) != XREGS[pat.base.lower()]:  # type: ignore[union-attr]
                    raise OperandError(f"operand {i + 1}: expected {_shape(pat)}, got {text!r}",
                                       i)
            else:
                values[pat.base] = read_operand(fields[pat.base], base, isa, pc, evaluate, i)  # type: ignore[index]
            if pat.field is not None:
                values[pat.field] = read_operand(fields[pat.field], off or "0", isa, pc,
                                                 evaluate, i)
            elif off:
                raise OperandError(f"operand {i + 1}: no offset allowed in {_shape(pat)}", i)
        else:
            values[pat.field] = read_operand(fields[pat.field], text, isa, pc, evaluate, i)  # type: ignore[index]
    for name, f in fields.items():
        values.setdefault(name, f.default)
    return values


def _shape(pat) -> str:
    return f"{pat.field or ''}({pat.base}{'!' if pat.bang else ''})"


def known_mnemonics(isa: Isa) -> list[str]:
    return sorted(set(isa.by_name) | set(isa.aliases_by_name))


def match_instruction(isa: Isa, mnemonic: str, operand_text: str, pc: int,
                      evaluate: Evaluator) -> Match:
    """Entry and values for one source instruction; OperandError says why none fits."""
    mnemonic = mnemonic.lower()
    operands = split_operands(operand_text)
    candidates: list[tuple[Entry | Alias, Template]] = []
    for a in isa.aliases_by_name.get(mnemonic, ()):
        candidates.extend((a, t) for t in a.templates)
    for e in isa.by_name.get(mnemonic, ()):
        candidates.extend((e, t) for t in e.templates)
    if not candidates:
        raise OperandError(unknown_mnemonic_message(isa, mnemonic))
    errors: list[OperandError] = []
    for owner, tpl in candidates:
        try:
            values = bind_template(tpl, operands, owner.fields, isa, pc, evaluate)
        except OperandError as e:
            errors.append(e)
            continue
        if isinstance(owner, Alias):
            target_values = owner.mapping.forward(values)
            why = owner.mapping.target.violated(target_values)
            if why:
                errors.append(OperandError(why))
                continue
            return Match(owner.mapping.target, target_values, owner, tpl)
        why = owner.violated(values)
        if why:
            errors.append(OperandError(why))
            continue
        return Match(owner, values, template=tpl)
    raise _best_error(errors, operands)


def _best_error(errors: list[OperandError], operands: list[str]) -> OperandError:
    """Prefer an error about a specific operand (the count matched) over a count mismatch."""
    specific = [e for e in errors if e.index is not None]
    if specific:
        return max(specific, key=lambda e: e.index)  # type: ignore[arg-type,return-value]
    counted = [e for e in errors if not e.message.startswith("expected ")]
    return (counted or errors)[0]


def unknown_mnemonic_message(isa: Isa, mnemonic: str) -> str:
    msg = f"unknown instruction {mnemonic!r}"
    close = difflib.get_close_matches(mnemonic, known_mnemonics(isa), n=1, cutoff=0.6)
    if close:
        msg += f"; did you mean {close[0]!r}?"
    from toolchain.table import extension_of

    found = extension_of(mnemonic)
    if found is None:
        return msg
    ext, fregs_only = found
    if fregs_only and isa.selection is not None and isa.selection.zfinx:
        return (f"{mnemonic!r} needs separate floating-point registers, but this program's ISA "
                f"{isa.name} uses the single register file (zfinx): FP values are in x registers "
                f"(select separate ones with --isa {isa.name.replace('imc_zfinx', 'imfc')})")
    if ext in ("xpulpv2", "xcorev"):
        family = "xpulpv2" if ext == "xpulpv2" else "corev"
        return (f"{mnemonic!r} is a {family} instruction, but this program selects "
                f"{isa.name!r} (use --xpulp {'pulpv2' if family == 'xpulpv2' else 'corev'}"
                f" or '.option {family}')")
    return (f"{mnemonic!r} belongs to extension {ext}, which this program's ISA {isa.name} does "
            f"not include (add _{ext} to --isa)")
