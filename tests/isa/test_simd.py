"""Packed SIMD (pv.* / cv.*) executed by the engine against the numpy lane model.

The corner-operand programs (``programs/*_simd.s``) run in ``test_programs.py``; here: they are
what ``simd_cases`` generates, random operands agree with the model in the loop and in
translated code, a SIMD word of the other family is a guest fault, and the timing is the
CV32E40P's (one cycle, result usable by the next instruction) in both presets.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from isasim.machine import Machine
from tests.isa import simd_cases
from tests.isa.simd_model import result
from toolchain.asm import assemble

FAMILIES = {"xpulpv2": "pv", "corev": "cv"}


def test_generated_programs_are_current():
    for path, text in simd_cases.files().items():
        assert path.read_text() == text, f"{path.name}: run python -m tests.isa.simd_cases"


def test_model_reproduces_the_reference_examples():
    """The model against worked values of the reference: truncating average, most negative
    abs, masked shift amounts, -1/0 compares, 32-bit dot products, pack order."""
    assert result("pv.avg.h", 0, 0x00007FFF, 0x00000001) == 0x0000C000
    assert result("pv.abs.h", 0, 0x80000001, 0) == 0x80000001
    assert result("pv.sra.h", 0, 0x80008000, 0x00110010) == 0xC0008000
    assert result("pv.cmplt.sc.b", 0, 0x80017F00, 0x00000001) == 0xFF0000FF
    assert result("pv.dotsp.b", 0, 0x80808080, 0x80808080) == 0x00010000
    assert result("pv.sdotup.sci.h", 5, 0xFFFFFFFF, 0, 63) == (5 + 2 * 0xFFFF * 63) & 0xFFFFFFFF
    assert result("pv.pack.h", 0, 0x1111AAAA, 0x2222BBBB) == 0xAAAABBBB
    assert result("cv.pack.h", 0, 0x1111AAAA, 0x2222BBBB) == 0x11112222


# Translated code calls the same semantics for every SIMD op (``exec_scalar``), so its test takes
# the operand shapes (three registers, .sc, .sci, rD read) from a few ops: translating a run per
# form of all of them costs minutes of compilation.
TRANSLATED_OPS = ("sdotsp", "sra", "cmpltu", "insert", "shuffle2", "packlo", "shufflei1")


def _groups(prefix: str, seed: int, k: int, ops: tuple[str, ...] | None = None
            ) -> list[tuple[str, str, list[tuple[int, ...]]]]:
    """Every instruction form of the corner-case programs (each .sci immediate among them;
    with ``ops``: only those operations, one immediate each), with ``k`` random
    (rd, rs1, rs2) each."""
    rng = random.Random(seed)
    forms = dict.fromkeys((c[0], c[1]) for c in simd_cases.cases(prefix))
    if ops is not None:
        last = {n: (n, o) for n, o in forms if n.split(".")[1] in ops}
        forms = dict.fromkeys(last.values())
    return [(name, ops, [tuple(rng.getrandbits(32) for _ in range(3)) for _ in range(k)])
            for name, ops in forms]


def _loop_program(groups) -> str:
    """Per form, a loop over its operand triples (table `inputs`), rD stored to `out`: short
    straight-line stretches, as translated code has them."""
    lines = ["    .option norvc", "    .text", "    .globl _start", "_start:",
             "    la t0, inputs", "    la s0, out"]
    for name, ops, triples in groups:
        lines += [f"    li t2, {len(triples)}", "1:  lw a0, 0(t0)", "    lw a1, 4(t0)",
                  "    lw a2, 8(t0)", "    addi t0, t0, 12", f"    {name} {ops}",
                  "    sw a0, 0(s0)", "    addi s0, s0, 4", "    addi t2, t2, -1",
                  "    bnez t2, 1b"]
    lines += ["    li a0, 0", "    li a7, 93", "    ecall", "    .data", "    .p2align 2",
              "inputs:"]
    lines += [f"    .word {rd:#x}, {rs1:#x}, {rs2:#x}" for *_, triples in groups
              for rd, rs1, rs2 in triples]
    n = sum(len(t) for *_, t in groups)
    lines += ["out:", f"    .space {4 * n}", ""]
    return "\n".join(lines)


# translated: about a minute of compilation per family (test_dot8_example covers translated
# SIMD code in the default run)
@pytest.mark.parametrize("translate", [False, pytest.param(True, marks=pytest.mark.slow)],
                         ids=["loop", "translated"])
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_random_operands_match_the_model(family, translate):
    groups = _groups(FAMILIES[family], seed=22, k=6, ops=TRANSLATED_OPS if translate else None)
    m = Machine("pulp-open", cores=1, xpulp=family, translate=translate)
    m.load(assemble(_loop_program(groups), "random_simd.s", family=family))
    r = m.run(max_cycles=5_000_000)
    assert r.status == "exited", r.fault.format() if r.fault else r.status
    r.check_invariant()
    got = iter(m.read("out", sum(len(t) for *_, t in groups), np.uint32).tolist())
    bad = []
    for name, ops, triples in groups:
        imm = int(ops.rsplit(",", 1)[1]) if ops.count(",") == 2 and "a2" not in ops else 0
        for rd, rs1, rs2 in triples:
            want, have = result(name, rd, rs1, rs2, imm), next(got)
            if have != want:
                bad.append(f"{name} {ops} rd={rd:#x} rs1={rs1:#x} rs2={rs2:#x}: "
                           f"{have:#010x}, model {want:#010x}")
    assert not bad, "\n".join(bad[:20])


@pytest.mark.parametrize("family, word, text, other", [
    ("corev", 0x00C58557, ".word 0xc58557", "pv.add.h a0,a1,a2 of extension xpulpv2"),
    ("xpulpv2", 0x00C5857B, ".word 0xc5857b", "cv.add.h a0,a1,a2 of extension corev"),
])
def test_the_other_familys_simd_word_is_a_guest_fault(family, word, text, other):
    src = ("    .option norvc\n    .text\n    .globl _start\n_start:\n    li a1, 1\n"
           f"    .word {word:#x}\n    li a7, 93\n    ecall\n")
    m = Machine("pulp-open", cores=1, xpulp=family).load(assemble(src, "t.s", family=family))
    r = m.run(max_cycles=10_000)
    assert r.status == "fault" and "illegal instruction" in r.fault.kind
    assert r.fault.core == 0 and text in r.fault.instruction
    report = r.fault.format()
    assert f"instruction word {word:#010x}: {other}, which this core's ISA" in report
    assert "does not include" in report


TIMING = """
    .option norvc
    .text
    .globl _start
_start:
    la s0, data
    li a1, 0x01020304
    li a2, 0x7f80ff01
    {add} a3, a1, a2
    {dot} a4, a3, a2
    {dot} a4, a3, a2
    lw a5, 0(s0)
    {dot} a4, a5, a2
    mul a6, a1, a2
    {add} a3, a6, a2
    li a7, 93
    ecall
    .section .l1, "aw"
data:
    .word 0x11223344
"""


@pytest.mark.parametrize("config, mul_stall", [("pulp-open", 0), ("gvsoc-2022", 1)])
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_simd_is_single_cycle_and_charges_the_existing_categories(family, config, mul_stall):
    """Hand count (CV32E40P manual, instruction execution cycles): la = auipc + addi, li of a
    32-bit constant = lui + addi (2 each), every SIMD instruction 1 cycle with its result
    usable by the next one (the dot product reads the add's a3 and its own a4 without a
    stall), the lw (TCDM) feeding the next dot product costs 1 load-use cycle, and the mul feeding
    the add 0 (pulp-open) or 1 (gvsoc-2022: mul latency 2) muldiv cycles.  Instructions: 2 + 2
    + 2 + 3 + 1 + 1 + 1 + 1 + li a7 (1) + ecall = 15."""
    p = FAMILIES[family]
    src = TIMING.format(add=f"{p}.add.h", dot=f"{p}.sdotsp.b")
    # ideal fetch: the count is of the pipeline, not of instruction-cache refills
    m = Machine(config, cores=1, xpulp=family, icache="ideal").load(
        assemble(src, "t.s", family=family))
    r = m.run(max_cycles=10_000)
    assert r.status == "exited"
    r.check_invariant()
    b = r.breakdown(0)
    assert int(r.instret[0]) == 15
    assert b["load_use"] == 1 and b["muldiv"] == mul_stall
    assert int(r.cycles[0]) - b["instr"] == 1 + mul_stall
