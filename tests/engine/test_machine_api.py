"""The ``Machine`` API a notebook uses: registers by name or number, memory by symbol, and clear
errors for a core or register that does not exist (an unchecked index would quietly read
another core's or another register file's entry)."""

from __future__ import annotations

import numpy as np
import pytest

from isasim.machine import Machine
from toolchain.asm import assemble

PROGRAM = """
    .text
    .globl _start
_start:
    la t0, data
    lw a1, 0(t0)
    flw fa1, 4(t0)
    add a2, a0, a1            # a0 = hart id
    fadd.s fa2, fa1, fa0
    li a7, 93
    li a0, 0
    ecall
    .data
data: .word 40
      .float 1.5
"""


@pytest.fixture
def machine() -> Machine:
    return Machine("pulp-open", cores=2).load(assemble(PROGRAM))


def test_registers_by_name_and_number_before_and_after_a_run(machine):
    machine.set_reg(1, "a0", 2)            # core 1 starts with its hart id in a0: override it
    machine.set_freg(0, "fa0", 0.25)
    machine.set_freg(1, 10, -1.0)
    machine.set_reg(0, 0, 123)             # x0 stays 0
    assert machine.reg(0, "zero") == 0
    result = machine.run()
    assert result.status == "exited"
    assert [machine.reg(c, "a2") for c in (0, 1)] == [40, 42]
    assert machine.reg(1, 12) == machine.reg(1, "a2")
    assert [machine.freg(c, "fa2") for c in (0, 1)] == [1.75, 0.5]
    assert machine.freg(0, 12) == machine.freg(0, "FA2") == 1.75


def test_memory_by_symbol(machine):
    machine.write("data", np.array([7], dtype=np.uint32))
    assert machine.read("data", 2, np.uint32)[0] == 7
    assert machine.read("data", 2, np.float32)[1] == 1.5


@pytest.mark.parametrize("call, message", [
    (lambda m: m.reg(2, "a0"), "core 2 does not exist (cores 0..1)"),
    (lambda m: m.set_freg(-1, "fa0", 1.0), "core -1 does not exist"),
    (lambda m: m.reg(0, 32), "no integer register 32"),
    (lambda m: m.reg(0, "fa0"), "no integer register 'fa0'"),
    (lambda m: m.freg(0, "a0"), "no FP register 'a0'"),
    (lambda m: m.set_reg(1, -1, 5), "no integer register -1"),
])
def test_a_core_or_register_that_does_not_exist_is_a_value_error(machine, call, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        call(machine)
