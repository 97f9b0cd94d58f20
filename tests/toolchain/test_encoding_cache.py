"""The encoder remembers matched statements across assemblies (``toolchain.asm.encode``): a
statement must assemble to the same bytes whatever the process assembled before it.

Each program below repeats statement texts of the others with something that changes their
encoding: an equate's value, the distance to a branch target, the address of an absolute jump
target, ``.option norvc``.  Assembled one after the other (the caches warm), every program must
give the bytes it gives in a process that assembled nothing before it (the caches emptied).
"""

from __future__ import annotations

import pytest

from toolchain.asm import assemble, encode
from toolchain.program import Program

PROGRAMS = [
    ".equ N, 4\n_start: addi a0, a0, N\n li a1, N\n lw a2, N(sp)\n",
    ".equ N, 2000\n_start: addi a0, a0, N\n li a1, N\n lw a2, N(sp)\n",
    ".equ N, 40000\n_start: li a1, N\n",
    ".equ N, 4\n.equ N, 8\n_start: li a1, N\n addi a0, a0, N\n",
    "_start: beqz a0, 1f\n .space 8\n1: j 1b\n",
    "_start: beqz a0, 1f\n .space 400\n1: j 1b\n",
    "_start: beqz a0, 1f\n .space 4000\n1: j 1b\n",
    "_start: beqz a0, end\n .space 8\nend: j _start\n",
    "_start: beqz a0, end\n nop\n .space 300\nend: j _start\n",
    "_start: j 0x1c000100\n",
    "_start: nop\n j 0x1c000100\n",
    "_start: lp.setup x0, a0, end\n addi a1, a1, 1\nend: addi a2, a2, 1\n",
    "_start: lp.setup x0, a0, end\n .space 64\nend: addi a2, a2, 1\n",
    "_start: .option norvc\n addi a0, a0, 4\n li a1, 4\n beqz a0, _start\n",
    "_start: addi a0, a0, 4\n li a1, 4\n beqz a0, _start\n",
    "_start: jal ra, f\n .space 2000\nf: ret\n",
    "_start: jal ra, f\nf: ret\n",
    "_start: .space 4\n addi a0, a0, . - _start\n",
]


def _image(program: Program) -> tuple:
    return (program.entry,
            tuple((s.name, s.addr, bytes(s.data)) for s in program.sections),
            tuple(sorted((n, s.value) for n, s in program.symbols.items())))


def _forget() -> None:
    """Empty the encoder's caches: the state of a process that assembled nothing yet."""
    encode._MATCHED.clear()
    encode._MATCHED_BYTES.clear()


def _fresh(source: str) -> tuple:
    _forget()
    return _image(assemble(source, family="xpulpv2"))


@pytest.mark.parametrize("order", [1, -1])
def test_a_statement_assembles_the_same_after_other_programs(order):
    alone = {src: _fresh(src) for src in PROGRAMS}
    assert len({a[1] for a in alone.values()}) == len(PROGRAMS)   # all differ
    _forget()
    for _ in range(2):
        for src in PROGRAMS[::order]:
            assert _image(assemble(src, family="xpulpv2")) == alone[src], src
