"""One assembly program per instruction group, each with the final state it must leave.

``programs/<name>.s`` runs on the simulator; ``programs/<name>.exp`` (OpenTitan OTBN style) says
what must hold afterwards.  The expected values come from the specifications (RISC-V
unprivileged/privileged ISA, IEEE 754, PULP binutils' ``riscv-opc.c``, the CV32E40P manual), each
with a
comment saying why; they were not produced by running isasim.  ``.exp`` syntax, one item a line,
``#`` starts a comment::

    family = corev            # Xpulp family the program is assembled and run with (xpulpv2)
    cores = 2                 # cluster size (1)
    a0 = 0x5                  # register of core 0: ABI or x/f name; c1.a0 is core 1's
    fcsr = 0x01               # also fflags, frm
    [out+8] = 1 2 0xffffffff  # 32-bit words from symbol out + 8 on
    status = exited           # RunResult.status (exited unless said)
    exit = 0                  # exit code (0 unless said)
    warning = post-increment  # some warning contains this text
    stdout = "text\\n"         # the program's output, exactly
    covers = c.unimp          # an instruction the program executes only to trap on it

A second test checks that every instruction of the table (both Xpulp families: Xpulpv2
``p.*``/``lp.*`` and CORE-V ``cv.*``) is executed by at least one program.
"""

from __future__ import annotations

import ast
import re
import warnings
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from isasim.machine import Machine
from toolchain.asm import assemble
from toolchain.registers import FREGS, XREGS
from toolchain.table import load_isa

PROGRAMS = Path(__file__).parent / "programs"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.s"))


@dataclass
class Expectation:
    family: str = "xpulpv2"
    cores: int = 1
    registers: list[tuple[int, str, int, int]] = field(default_factory=list)  # core,name,idx,v
    csrs: dict[str, int] = field(default_factory=dict)
    words: list[tuple[str, int, int]] = field(default_factory=list)   # symbol, offset, value
    status: str = "exited"
    exit: int = 0
    warnings: list[str] = field(default_factory=list)
    stdout: str | None = None
    covers: list[str] = field(default_factory=list)


def _int(text: str) -> int:
    return int(text, 0) & 0xFFFFFFFF


def parse_exp(path: Path) -> Expectation:
    """Read an ``.exp`` file (syntax in the module docstring); errors name file and line."""
    exp = Expectation()
    for n, raw in enumerate(path.read_text().splitlines(), 1):
        line = raw.split("#", 1)[0].strip() if not raw.lstrip().startswith("stdout") else raw
        if not line.strip():
            continue
        key, sep, value = (s.strip() for s in line.partition("="))
        where = f"{path.name}:{n}"
        assert sep, f"{where}: expected `key = value`"
        if key == "family":
            exp.family = value
        elif key == "cores":
            exp.cores = int(value)
        elif key == "status":
            exp.status = value
        elif key == "exit":
            exp.exit = _int(value)
        elif key == "warning":
            exp.warnings.append(value)
        elif key == "stdout":
            exp.stdout = ast.literal_eval(value)
        elif key == "covers":
            exp.covers += value.split()
        elif key in ("fcsr", "fflags", "frm"):
            exp.csrs[key] = _int(value)
        elif m := re.fullmatch(r"\[(\w+)\s*(?:\+\s*(\w+))?\]", key):
            offset = int(m.group(2), 0) if m.group(2) else 0
            for i, v in enumerate(value.split()):
                exp.words.append((m.group(1), offset + 4 * i, _int(v)))
        else:
            core = 0
            if m := re.fullmatch(r"c(\d+)\.(\w+)", key):
                core, key = int(m.group(1)), m.group(2)
            name = key.lower()
            if name in XREGS:
                exp.registers.append((core, name, XREGS[name], _int(value)))
            elif name in FREGS:
                exp.registers.append((core, name, 32 + FREGS[name], _int(value)))
            else:
                raise AssertionError(f"{where}: unknown key {key!r}")
    return exp


@dataclass
class Outcome:
    machine: Machine
    result: object
    warnings: list[str]
    executed: set[str]


@cache
def run_program(name: str) -> tuple[Expectation, Outcome]:
    exp = parse_exp(PROGRAMS / f"{name}.exp")
    src = PROGRAMS / f"{name}.s"
    program = assemble(src.read_text(), str(src), family=exp.family)
    m = Machine("pulp-open", cores=exp.cores, xpulp=exp.family).load(program)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = m.run(max_cycles=2_000_000)
    isa = load_isa(exp.family)
    executed = set()
    counts = r.profile_count.sum(axis=0)
    for pc, count in zip(r.profile_pc.tolist(), counts.tolist(), strict=True):
        if count:
            d = isa.decode(int.from_bytes(m.read_bytes(pc, 4), "little"))
            if d is not None:
                executed.add(d.entry.key)
    return exp, Outcome(m, r, [str(w.message) for w in caught], executed)


def _check(name: str) -> None:
    exp, out = run_program(name)
    r, m = out.result, out.machine
    problems = []
    if r.status != exp.status:
        problems.append(f"status {r.status!r}, expected {exp.status!r}"
                        + (f"\n{r.fault.format()}" if r.fault else ""))
    if r.exit_code != exp.exit:
        problems.append(f"exit code {r.exit_code}, expected {exp.exit}")
    for core, reg, idx, want in exp.registers:
        got = int(r.x[core][idx] if idx < 32 else r.f[core][idx - 32])
        if got != want:
            problems.append(f"core {core} {reg} = {got:#010x}, expected {want:#010x}")
    fcsr = int(r.fcsr[0])
    for csr, want in exp.csrs.items():
        got = {"fcsr": fcsr, "fflags": fcsr & 0x1F, "frm": fcsr >> 5}[csr]
        if got != want:
            problems.append(f"{csr} = {got:#04x}, expected {want:#04x}")
    for sym, off, want in exp.words:
        got = int(m.read(m.address(sym) + off, 1, np.uint32)[0])
        if got != want:
            problems.append(f"[{sym}+{off}] = {got:#010x}, expected {want:#010x}")
    for text in exp.warnings:
        if not any(text in w for w in out.warnings + r.warnings):
            problems.append(f"no warning containing {text!r} (got {out.warnings})")
    if exp.stdout is not None and r.stdout != exp.stdout:
        problems.append(f"stdout {r.stdout!r}, expected {exp.stdout!r}")
    r.check_invariant()
    assert not problems, f"{name}:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("name", NAMES)
def test_program(name: str) -> None:
    _check(name)


@pytest.mark.parametrize("family", ["xpulpv2", "corev"])
def test_every_instruction_is_exercised(family: str) -> None:
    """Each table entry of the family runs in some program (standard ones count for both)."""
    isa = load_isa(family)
    standard = {e.key for e in isa.entries if e.family is None}
    done: set[str] = set()
    for name in NAMES:
        exp, out = run_program(name)
        executed = out.executed | set(exp.covers)
        done |= executed if exp.family == family else executed & standard
    missing = sorted({e.key for e in isa.entries} - done)
    assert not missing, f"{family}: no program executes {', '.join(missing)}"


def test_exp_parser_rejects_unknown_keys(tmp_path: Path) -> None:
    bad = tmp_path / "bad.exp"
    bad.write_text("a0 = 1\nbogus = 2\n")
    with pytest.raises(AssertionError, match="bad.exp:2: unknown key 'bogus'"):
        parse_exp(bad)
