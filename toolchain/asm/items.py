"""The pieces a section is made of: instructions, data, fills and alignment padding.

Each item knows its current ``size`` and its final bytes (``emit``, exactly ``size`` long);
instructions also say what size they need at the current addresses (``resize``), which the
layout loop uses to settle compressed branches.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from toolchain.asm.errors import Location, SourceError
from toolchain.asm.expr import ExprError
from toolchain.asm.insn import encode as insn_word

if TYPE_CHECKING:
    from toolchain.asm.layout import Scope

C_NOP = b"\x01\x00"
NOP = b"\x13\x00\x00\x00"


@dataclass(eq=False)
class Item:
    location: Location
    locals: Mapping[str, int]           # context: numeric labels, redefined equates so far
    size: int = 0

    def emit(self, scope: Scope) -> bytes:
        raise NotImplementedError


@dataclass(eq=False)
class Insn(Item):
    """One source instruction or pseudo-instruction (which may become several words)."""

    mnemonic: str = ""
    operands: tuple[tuple[str, int], ...] = ()   # text and column of each operand
    rvc: bool = True
    settled: bool = False                        # size cannot change any more
    key: tuple | None = None                     # the encoder's cache key, once settled

    def start(self, scope: Scope) -> None:
        """First size: final if no operand depends on an address, else the uncompressed size
        (GNU as starts a relaxable branch at its largest form and shrinks it)."""
        try:
            short, full, self.settled = scope.encoder.measure(self, scope)
        except SourceError:   # reported by emit if it persists at the final addresses
            self.size, self.settled = 4, False
            return
        self.size = short if self.settled else full

    def resize(self, scope: Scope, shrink: bool) -> int:
        """Size needed at the current layout; smaller only while ``shrink`` is allowed."""
        if self.settled:
            return self.size
        try:
            short, _, _ = scope.encoder.measure(self, scope)
        except SourceError:
            return self.size
        return short if short > self.size or shrink else self.size

    def emit(self, scope: Scope) -> bytes:
        out = scope.encoder.emit(self, scope)
        if self.mnemonic in ("cv.setup", "cv.setupi") and len(self.operands) == 3:
            warn_short_hwloop_body(self, scope)
        return out


# CV32E40P user manual, corev_hw_loop.rst, "Hardware Loop constraints": "HWLoop body must
# contain at least 3 instructions" (and no compressed ones, so 12 bytes)
COREV_HWLOOP_MIN_BODY = 3


def warn_short_hwloop_body(insn: Insn, scope: Scope) -> None:
    """Warn at the end label of a ``cv.setup``/``cv.setupi`` whose body (from the next
    instruction up to the label) is shorter than the manual allows: the core does not check
    it, and the loop's behaviour is undefined."""
    text, column = insn.operands[2]
    try:
        end = scope.value(text)
    except ExprError:
        return                      # the encoder has reported it
    count = (end - (scope.pc + 4)) // 4
    if count < COREV_HWLOOP_MIN_BODY:
        scope.warn(f"hardware loop body of {max(count, 0)} instruction(s): the CV32E40P manual "
                   f"requires at least {COREV_HWLOOP_MIN_BODY} (corev_hw_loop.rst, Hardware "
                   "Loop constraints)", column)


@dataclass(eq=False)
class Data(Item):
    """``.dword``/``.word``/``.half``/``.byte`` values: expressions evaluated at the final
    layout."""

    width: int = 4
    values: tuple[tuple[str, int], ...] = ()

    def emit(self, scope: Scope) -> bytes:
        out = bytearray()
        bits = 8 * self.width
        for i, (text, column) in enumerate(self.values):
            v = operand_value(scope.shifted(i * self.width), text, column)
            kept = v & ((1 << bits) - 1)
            # GNU as keeps quietly what fits as a magnitude, signed or not (.half -40000 is
            # 0x63c0), and truncates anything else with a warning
            if v >> bits != 0 and (-v) >> bits != 0:
                scope.warn(f"value {v:#x} truncated to {kept:#x}", column)
            out += kept.to_bytes(self.width, "little")
        return bytes(out)


@dataclass(eq=False)
class Blob(Item):
    """Bytes known when parsed: strings, floats, ``.space`` fills."""

    data: bytes = b""

    def __post_init__(self) -> None:
        self.size = len(self.data)

    def emit(self, scope: Scope) -> bytes:
        return self.data


@dataclass(eq=False)
class Align(Item):
    """Padding to a power-of-two boundary; code sections pad with nops as GNU as does."""

    boundary: int = 1
    fill: int | None = None             # None: zeros, or nops in code
    max_skip: int | None = None
    code: bool = False
    rvc: bool = True

    def padding(self, offset: int) -> int:
        """Bytes needed at ``offset`` (sections start aligned, so offsets align like addresses)."""
        n = -offset % self.boundary
        return 0 if self.max_skip is not None and n > self.max_skip else n

    def emit(self, scope: Scope) -> bytes:
        return fill_bytes(self.size, self.fill, self.code, self.rvc)


@dataclass(eq=False)
class RawInsn(Item):
    """``.insn``: a word given by format and fields (``toolchain.asm.insn``), or as a value."""

    fmt: str = ""                                 # "" for a raw value
    operands: tuple[tuple[str, int], ...] = ()

    def emit(self, scope: Scope) -> bytes:
        def value(text: str, column: int) -> int:
            return operand_value(scope, text, column)

        if self.fmt:
            word = insn_word(self.fmt, list(self.operands), scope.pc, value)
        else:
            word = value(*self.operands[-1]) & ((1 << (8 * self.size)) - 1)
        return word.to_bytes(self.size, "little")


@dataclass(eq=False)
class Org(Align):
    """``.org``: padding up to a fixed offset in the section (with ``fill``, zeros by default,
    code sections included, as GNU as does)."""

    target: int = 0
    backwards: bool = False          # the last layout put the item past ``target``

    def padding(self, offset: int) -> int:
        self.backwards = offset > self.target
        return max(self.target - offset, 0)

    def emit(self, scope: Scope) -> bytes:
        if self.backwards:
            raise SourceError(f".org {self.target:#x} would move the location counter "
                              "backwards")
        return bytes([self.fill or 0]) * self.size


def operand_value(scope: Scope, text: str, column: int) -> int:
    """An operand's value at ``scope``; an expression error points into the operand."""
    try:
        return scope.value(text)
    except ExprError as e:
        raise SourceError(e.message, column + (e.offset or 0)) from None


def fill_bytes(n: int, fill: int | None, code: bool, rvc: bool) -> bytes:
    """``n`` bytes of padding: the fill byte, or in code zeros to 2-byte, c.nop, then nops."""
    if fill is not None or not code:
        return bytes([fill or 0]) * n
    head = bytes(n % 2)
    if n % 4 >= 2:
        head += C_NOP if rvc else b"\0\0"
    return head + NOP * (n // 4)
