"""Pseudo-instructions that stand for more than one instruction: li, la, lla, call, tail, and
loads and stores of a symbol's address.

They expand to plain instruction text with the numbers already computed, so the encoder treats
the pieces like any written instruction.  The sequences are GNU as's (non-PIC, ``-mno-relax``):

* ``li rd, v``: ``addi rd, x0, v`` (the table's ``li``) if v as written fits 12 bits; else, v
  taken as a 32-bit value, ``lui rd, hi`` and ``addi rd, rd, lo`` unless lo is 0 (hi rounded so
  the sign-extended lo adds back exactly), or one uncompressed ``addi`` if hi is 0;
* ``la``/``lla rd, sym``: ``auipc rd, %pcrel_hi(sym)`` + ``addi rd, rd, %pcrel_lo``;
* ``call [rd,] sym``: ``auipc rd, ...`` + ``jalr rd, lo(rd)`` (rd defaults to ra);
* ``tail sym``: ``auipc t1, ...`` + ``jalr x0, lo(t1)``;
* ``lw rd, sym`` (any integer load): ``auipc rd, %pcrel_hi(sym)`` + ``lw rd, %pcrel_lo(rd)``;
* ``sw rs, sym, rt`` (any store, and ``flw``, whose destination cannot hold the address):
  ``auipc rt, ...`` + ``sw rs, lo(rt)``.  As in GNU as, ``sym`` must be an address (a symbol
  plus or minus a constant), not a plain number.

Pieces GNU as would leave to the linker (anything computed from an address) are never compressed
because GNU as emits them at full size.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from toolchain.asm.expr import hi20, lo12
from toolchain.operands import OperandError

PSEUDOS = ("li", "la", "lla", "call", "tail")
SYMBOL_LOADS = ("lb", "lh", "lw", "lbu", "lhu")          # lw rd, symbol
SYMBOL_TEMP_ACCESSES = ("sb", "sh", "sw", "flw", "fsw")   # sw rs, symbol, rt


def is_symbol_access(mnemonic: str, operands: list[str]) -> bool:
    """Is this a load or store written with a symbol in place of ``imm(reg)``?"""
    if mnemonic in SYMBOL_LOADS:
        return len(operands) == 2 and "(" not in operands[1]
    if mnemonic in SYMBOL_TEMP_ACCESSES:
        return len(operands) == 3 and "(" not in operands[1]
    return False


@dataclass(frozen=True)
class Part:
    mnemonic: str
    operands: str
    compress: bool = True


# value(i): the evaluated operand i; dependent(i): whether it is computed from an address
Value = Callable[[int], int]
Dependent = Callable[[int], bool]


def expand(mnemonic: str, operands: list[str], pc: int, value: Value, dependent: Dependent
           ) -> list[Part]:
    """The instructions ``mnemonic`` (one of PSEUDOS) stands for at address ``pc``.

    Raises OperandError (with the index of the operand at fault) like the table's matcher does.
    """
    if mnemonic == "li":
        _count(mnemonic, operands, (2,), "rd, value")
        return _li(operands[0], value(1), dependent(1))
    if mnemonic in ("la", "lla"):
        _count(mnemonic, operands, (2,), "rd, symbol")
        rd = operands[0]
        hi, lo = _pcrel(value(1) - pc)
        return [Part("auipc", f"{rd}, {hi}", False), Part("addi", f"{rd}, {rd}, {lo}", False)]
    if mnemonic == "call":
        _count(mnemonic, operands, (1, 2), "[rd,] symbol")
        rd = operands[0] if len(operands) == 2 else "ra"
        hi, lo = _pcrel(value(len(operands) - 1) - pc)
        return [Part("auipc", f"{rd}, {hi}", False), Part("jalr", f"{rd}, {lo}({rd})", False)]
    if mnemonic == "tail":
        _count(mnemonic, operands, (1,), "symbol")
        hi, lo = _pcrel(value(0) - pc)
        return [Part("auipc", f"t1, {hi}", False), Part("jalr", f"x0, {lo}(t1)", False)]
    if is_symbol_access(mnemonic, operands):
        base = operands[0] if mnemonic in SYMBOL_LOADS else operands[2]
        address = value(1)
        if not dependent(1):
            raise OperandError("operand 2: expected an address (symbol) or offset(register)", 1)
        hi, lo = _pcrel(address - pc)
        return [Part("auipc", f"{base}, {hi}", False),
                Part(mnemonic, f"{operands[0]}, {lo}({base})", False)]
    raise ValueError(mnemonic)


def _count(mnemonic: str, operands: list[str], allowed: tuple[int, ...], shape: str) -> None:
    if len(operands) not in allowed:
        want = " or ".join(str(n) for n in allowed)
        raise OperandError(f"{mnemonic} expects {want} operand{'s' if allowed[-1] > 1 else ''} "
                          f"({shape}), got {len(operands)}")


def _pcrel(delta: int) -> tuple[int, int]:
    return hi20(delta), lo12(delta)


def _li(rd: str, v: int, from_address: bool) -> list[Part]:
    if from_address:   # GNU as refuses these; we know the address, so build it in full
        return [Part("lui", f"{rd}, {hi20(v)}", False),
                Part("addi", f"{rd}, {rd}, {lo12(v)}", False)]
    if -2048 <= v < 2048:   # the table's one-word li: compresses to c.li like GNU as
        return [Part("li", f"{rd}, {v}")]
    if not -(1 << 31) <= v < (1 << 32):
        raise OperandError(f"operand 2: value {v:#x} does not fit in 32 bits", 1)
    v = v - (1 << 32) if v >= 1 << 31 else v
    lo = lo12(v)
    if v == lo:   # e.g. 0xffffffe0: GNU as's li macro emits a full-size addi
        return [Part("addi", f"{rd}, x0, {v}", False)]
    parts = [Part("lui", f"{rd}, {hi20(v)}")]
    if lo:
        parts.append(Part("addi", f"{rd}, {rd}, {lo}"))
    return parts
