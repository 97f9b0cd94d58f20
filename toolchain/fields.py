"""Operand fields: where a value's bits sit inside an instruction word, and how it reads in text.

A field is data (``isa/fields.toml`` or a ``[field.*]`` table in an extension file).  This module
turns its bit map into scatter/gather functions and range checks, so the encoder, decoder,
assembler and disassembler all work from one description.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

KINDS = {"xreg", "freg", "imm", "pcrel", "csr", "rm", "fence", "loop"}
ROLES = {"dst", "src", "srcdst", "none"}
SLOTS = {"rd", "rs1", "rs2", "rs3", "imm", "imm2", "rm", "none"}

_SEGMENT = re.compile(r"^(\d+)(?:\.\.(\d+))?(?::(\d+)(?:\.\.(\d+))?)?$")


class TableError(ValueError):
    """A mistake in the instruction table data (caught when the table is loaded)."""


@dataclass(frozen=True)
class Segment:
    """Instruction bits ``ihi..ilo`` carry value bits ``vlo..vlo+(ihi-ilo)``."""

    ihi: int
    ilo: int
    vlo: int

    @property
    def width(self) -> int:
        return self.ihi - self.ilo + 1

    @property
    def inst_mask(self) -> int:
        return ((1 << self.width) - 1) << self.ilo


def parse_segments(spec: str, where: str) -> tuple[Segment, ...]:
    parts = spec.split()
    segs: list[Segment] = []
    for part in parts:
        m = _SEGMENT.match(part)
        if not m:
            raise TableError(f"{where}: bad bit segment {part!r}")
        ihi = int(m.group(1))
        ilo = int(m.group(2)) if m.group(2) is not None else ihi
        if m.group(3) is None:
            if len(parts) != 1:
                raise TableError(f"{where}: multi-segment fields need explicit value bits")
            vhi, vlo = ihi - ilo, 0
        else:
            vhi = int(m.group(3))
            vlo = int(m.group(4)) if m.group(4) is not None else vhi
        if ihi < ilo or vhi < vlo or ihi - ilo != vhi - vlo:
            raise TableError(f"{where}: segment {part!r} has mismatched widths")
        segs.append(Segment(ihi, ilo, vlo))
    return tuple(segs)


@dataclass(frozen=True)
class Field:
    """One operand field; see the header of ``isa/fields.toml`` for the meaning of each key."""

    name: str
    segments: tuple[Segment, ...]
    kind: str
    signed: bool = False
    add: int = 0
    nonzero: bool = False
    role: str = "none"
    slot: str = "none"
    asm_shift: int = 0
    asm_width: int = 0
    hex: bool = False
    default: int = 0
    # the largest value the assembler accepts when the instruction uses fewer bits than the
    # field holds (a SIMD shift amount in the 6-bit immediate); decoding keeps every bit
    asm_max: int | None = None

    @property
    def inst_mask(self) -> int:
        mask = 0
        for s in self.segments:
            mask |= s.inst_mask
        return mask

    @property
    def value_bits(self) -> int:
        """Width of the value (highest covered value bit + 1)."""
        return max(s.vlo + s.width for s in self.segments)

    @property
    def align(self) -> int:
        """Values must be multiples of this (value bits below the lowest segment are zero)."""
        low = min(s.vlo for s in self.segments)
        covered = 0
        for s in self.segments:
            covered |= ((1 << s.width) - 1) << s.vlo
        lowest = (covered & -covered).bit_length() - 1
        return 1 << min(low, lowest)

    def value_range(self) -> tuple[int, int]:
        """Smallest and largest encodable value (before alignment and ``add``)."""
        w = self.value_bits
        if self.signed:
            lo, hi = -(1 << (w - 1)), (1 << (w - 1)) - 1
        else:
            lo, hi = 0, (1 << w) - 1
        return lo, hi if self.asm_max is None else min(hi, self.asm_max)

    def extract(self, word: int) -> int:
        raw = 0
        for s in self.segments:
            raw |= ((word >> s.ilo) & ((1 << s.width) - 1)) << s.vlo
        if self.signed and raw >> (self.value_bits - 1) & 1:
            raw -= 1 << self.value_bits
        return raw + self.add

    def fits(self, value: int) -> str | None:
        """None when ``value`` can be encoded, else a sentence saying why not."""
        raw = value - self.add
        lo, hi = self.value_range()
        if self.kind in ("xreg", "freg"):
            if not (lo <= raw <= hi):
                if self.add:
                    return f"register must be one of x{self.add}..x{self.add + hi} (s0-s1, a0-a5)"
                return "register out of range"
            return None
        if self.nonzero and value == 0:
            return "value must not be zero"
        if not (lo <= raw <= hi):
            return f"value {value} out of range [{lo + self.add}, {hi + self.add}]"
        if raw % self.align:
            return f"value {value} must be a multiple of {self.align}"
        return None

    def insert(self, value: int) -> int:
        """Scatter ``value`` into instruction bits; the caller has checked ``fits``."""
        raw = (value - self.add) & ((1 << self.value_bits) - 1)
        word = 0
        for s in self.segments:
            word |= ((raw >> s.vlo) & ((1 << s.width) - 1)) << s.ilo
        return word

    # ---- text form -----------------------------------------------------------------------
    def to_text_value(self, value: int) -> int:
        """The number the assembly text shows for a field value (e.g. lui's upper 20 bits)."""
        if self.asm_shift:
            value >>= self.asm_shift
        if self.asm_width:
            value &= (1 << self.asm_width) - 1
        return value

    def from_text_value(self, number: int) -> int:
        """Inverse of :meth:`to_text_value`; accepts the unsigned or the signed spelling."""
        if self.asm_width:
            w = self.asm_width
            if not (-(1 << (w - 1)) <= number < (1 << w)):
                raise ValueError(f"value {number} out of range [0, {(1 << w) - 1}]")
            number &= (1 << w) - 1
            # the text is a w-bit pattern: 0xfffff means -1 for lui and c.lui alike
            if self.signed and number >> (w - 1) & 1:
                number -= 1 << w
        return number << self.asm_shift


def make_field(name: str, spec: dict, where: str) -> Field:
    known = {"bits", "kind", "signed", "add", "nonzero", "role", "slot", "asm_shift",
             "asm_width", "print", "default", "asm_max"}
    unknown = set(spec) - known
    if unknown:
        raise TableError(f"{where}: field {name}: unknown keys {sorted(unknown)}")
    kind = spec.get("kind", "imm")
    if kind not in KINDS:
        raise TableError(f"{where}: field {name}: unknown kind {kind!r}")
    role = spec.get("role", "none")
    if role not in ROLES:
        raise TableError(f"{where}: field {name}: unknown role {role!r}")
    slot = spec.get("slot", "none")
    if slot not in SLOTS:
        raise TableError(f"{where}: field {name}: unknown slot {slot!r}")
    if "bits" not in spec:
        raise TableError(f"{where}: field {name}: missing bits")
    return Field(
        name=name,
        segments=parse_segments(spec["bits"], f"{where}: field {name}"),
        kind=kind,
        signed=bool(spec.get("signed", False)),
        add=int(spec.get("add", 0)),
        nonzero=bool(spec.get("nonzero", False)),
        role=role,
        slot=slot,
        asm_shift=int(spec.get("asm_shift", 0)),
        asm_width=int(spec.get("asm_width", 0)),
        hex=spec.get("print") == "hex",
        default=int(spec.get("default", 0)),
        asm_max=int(spec["asm_max"]) if "asm_max" in spec else None,
    )
