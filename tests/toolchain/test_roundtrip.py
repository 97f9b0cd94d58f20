"""Round trip through every entry of every Xpulp family selection (property test).

values -> encode -> decode gives the entry and values back -> disassemble -> the text read by the
assembler's operand matcher -> encode gives the same word.  RVC entries round-trip as 16-bit
words through their c.* spelling, and their expansion must be a base instruction that decodes
back and compresses again to an RVC word with the same meaning.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from toolchain import FAMILIES, load_isa
from toolchain.disasm import disassemble
from toolchain.fields import Field
from toolchain.operands import match_instruction
from toolchain.table import Entry

# HINT entries (c.toml) decode only: the assembler never emits them
CASES = [(family, e.key) for family in FAMILIES for e in load_isa(family).entries if not e.hint]


def _field_values(f: Field) -> st.SearchStrategy[int]:
    """Values that fit ``f``, with its range ends and zero drawn often."""
    lo, hi = f.value_range()
    if f.kind in ("xreg", "freg"):
        return st.integers(lo + f.add, hi + f.add)
    step = f.align
    lo, hi = -(-lo // step), hi // step
    edges = sorted({lo, hi, min(max(0, lo), hi)})
    values = st.one_of(st.sampled_from(edges), st.integers(lo, hi)).map(
        lambda k: k * step + f.add)
    return values.filter(lambda v: v != 0) if f.nonzero else values


def _entry(family: str, key: str) -> Entry:
    return next(e for e in load_isa(family).entries if e.key == key)


def _evaluate(text: str, f: Field) -> int:
    return int(text, 0)


@pytest.mark.parametrize("family, key", CASES, ids=[f"{f}-{k}" for f, k in CASES])
def test_roundtrip(family: str, key: str) -> None:
    isa = load_isa(family)
    entry = _entry(family, key)

    @settings(max_examples=12, derandomize=True, deadline=None, database=None,
              suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
    @given(values=st.fixed_dictionaries({n: _field_values(f) for n, f in entry.fields.items()}),
           # targets are printed as 32-bit addresses; the pc stays far enough from 0 and
           # 2**32 that no branch target wraps around (the operand reader does not wrap)
           pc=st.integers(0x100000, 0x7FF00000).map(lambda p: p & ~3))
    def check(values: dict[str, int], pc: int) -> None:
        assume(entry.violated(values) is None)
        word = isa.encode(entry, values)
        d = isa.decode(word)
        assert d is not None and d.entry is entry, f"{word:#x} decodes as {d and d.entry.name}"
        assert d.values == values
        mnemonic, ops = disassemble(isa, d, pc)
        m = match_instruction(isa, mnemonic, ops, pc, _evaluate)
        assert m.entry is entry, f"{mnemonic} {ops} reads as {m.entry.name}"
        assert isa.encode(m.entry, m.values) == word, f"{mnemonic} {ops}"
        if entry.expands is not None:
            base_word = isa.encode(d.base, d.base_values)
            back = isa.decode(base_word)
            assert back is not None and back.entry is d.base and back.values == d.base_values
            packed = isa.compress(d.base, d.base_values)
            assert packed is not None, f"{mnemonic} {ops}: its expansion does not compress"
            again = isa.decode(isa.encode(*packed))
            assert again is not None and again.base is d.base
            assert again.base_values == d.base_values

    check()
