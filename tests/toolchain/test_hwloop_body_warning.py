"""The assembler warns about a CORE-V hardware loop whose body is shorter than the CV32E40P
manual allows (corev_hw_loop.rst, "Hardware Loop constraints": at least 3 instructions; the
core does not check it and the behaviour is undefined), at the end label's column."""

from __future__ import annotations

import pytest

from toolchain.asm import assemble


def loop(n: int, setup: str = "cv.setupi 0, 4, 1f") -> str:
    body = "".join("    addi a0, a0, 1\n" for _ in range(n))
    return f"    .text\n    .globl _start\n_start:\n    {setup}\n{body}1:  nop\n"


@pytest.mark.parametrize("n", [0, 1, 2])
def test_a_body_under_three_instructions_is_a_warning_at_the_label(n: int) -> None:
    program = assemble(loop(n), "loop.s", family="corev", rvc=False)
    assert len(program.warnings) == 1
    first = program.warnings[0].splitlines()[0]
    assert first == (f"loop.s:4:21: warning: hardware loop body of {n} instruction(s): the "
                     "CV32E40P manual requires at least 3 (corev_hw_loop.rst, Hardware Loop "
                     "constraints)")


@pytest.mark.parametrize("setup", ["cv.setupi 0, 4, 1f", "cv.setup 1, a1, 1f"])
def test_three_instructions_are_enough(setup: str) -> None:
    assert assemble(loop(3, setup), "loop.s", family="corev", rvc=False).warnings == []


def test_the_register_form_is_checked_too() -> None:
    program = assemble(loop(1, "cv.setup 1, a1, 1f"), "loop.s", family="corev", rvc=False)
    assert "hardware loop body of 1 instruction(s)" in program.warnings[0]
