"""Translated code (``isasim.translate``) must leave exactly the state the loop leaves.

Every test runs a program twice, interpreted and translated, and compares every observable of
the run: cycles and stall categories per core, the per-instruction profile, conflicts and their
winners, performance counters, registers, fcsr, exit codes, output and fault reports.  The
programs aim at the places where translated code hands over to the loop: loads that must wait
for a scheduling round, hardware-loop ends, the cycle limit, the FPU switched off, an invalid
dynamic rounding mode, stores into the text.
"""

from __future__ import annotations

import re
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

from isasim import layout as L
from isasim import translate as TX
from isasim.machine import Machine
from tests.engine.test_code_links import PATCH_LOOP
from toolchain.asm import assemble

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = ROOT / "tests" / "isa" / "programs"
sys.path.insert(0, str(ROOT / "bench"))
import engine as bench  # noqa: E402  (bench/engine.py: the speed benchmark's programs)

EXIT = """
    li a7, 93
    li a0, 0
    ecall
"""


@pytest.fixture(autouse=True)
def every_run(monkeypatch):
    """Translate every run, not only those in loops: the comparison covers all of them."""
    monkeypatch.setenv("ISASIM_TRANSLATE", "all")


def observables(r) -> dict:
    out = {name: np.asarray(getattr(r, name)).copy() for name in (
        "cycles", "instret", "categories", "profile_count", "profile_stall", "conflicts",
        "conflict_winners", "x", "f", "fcsr", "profile_imiss")}
    out["perf"] = {k: v.copy() for k, v in r.perf.items()}
    out["end"] = (r.status, r.exit_code, r.exit_codes, r.stdout, repr(r.fault))
    return out


def assert_same(a: dict, b: dict) -> None:
    assert a["end"] == b["end"]
    assert a["perf"].keys() == b["perf"].keys()
    for k in a["perf"]:
        np.testing.assert_array_equal(a["perf"][k], b["perf"][k], err_msg=f"perf {k}")
    for k in a:
        if k not in ("end", "perf"):
            np.testing.assert_array_equal(a[k], b[k], err_msg=k)


def both(program, cores: int = 1, setup=None, max_cycles: int = 10_000_000, **config):
    """Observables of the run interpreted and translated, and the translated machine."""
    results = []
    for translate in (False, True):
        with warnings.catch_warnings():
            # a translation that fails (the machine then interprets) must fail the test
            warnings.filterwarnings("error", "isasim: translation failed")
            m = Machine("pulp-open", cores=cores, translate=translate, **config).load(program)
        if setup is not None:
            setup(m)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            results.append(observables(m.run(max_cycles=max_cycles)))
        # the ring of each core's last runs of sequential execution (what a fault report
        # rebuilds its last instructions from)
        results[-1]["runs"] = np.concatenate([
            m.CL[L.L_RUNS:L.L_RUNS + cores * L.RUN_RING * 2], m.CS[L.CS_RUNS::L.NCS]])
    return results[0], results[1], m


def translated_slots(m: Machine) -> int:
    return int((m.code.reshape(-1, L.NF)[:, L.F_TX] >= 0).sum())


def matrices(m: Machine) -> None:
    rng = np.random.default_rng(0)
    m.write("A", rng.standard_normal(bench.N * bench.N).astype(np.float32))
    m.write("B", rng.standard_normal(bench.N * bench.N).astype(np.float32))


@pytest.mark.parametrize("policy", ["round_robin", "fifo", "none"])
def test_parallel_matmul_same_translated(policy: str) -> None:
    """Loads park and resume in translated code on 8 cores under every arbitration policy."""
    program = assemble(bench.matmul(8), family="xpulpv2")
    plain, fast, m = both(program, cores=8, setup=matrices, conflict_policy=policy,
                          stack_size=256)
    assert_same(plain, fast)
    assert m._translated is not None and translated_slots(m) > 5
    assert plain["conflicts"].sum() > 0 or policy == "none"


@pytest.mark.slow     # a translation per program: several seconds each
def test_single_core_loops_same_translated() -> None:
    for source in (bench.matmul(1), bench.int_loop(300, '.section .l1, "aw"'),
                   bench.int_loop(300, ".data")):
        program = assemble(source, family="xpulpv2")
        plain, fast, _ = both(program, setup=matrices if "A:" in source else None)
        assert_same(plain, fast)


@pytest.mark.slow     # a translation per program: several seconds each
@pytest.mark.parametrize("name", sorted(p.stem for p in PROGRAMS.glob("*.s")))
def test_isa_programs_same_translated(name: str) -> None:
    """Every instruction group, traps and hardware loops included."""
    src = PROGRAMS / f"{name}.s"
    exp = (PROGRAMS / f"{name}.exp").read_text()
    # the program's ISA selection, as tests/isa/test_programs.py reads it from the .exp file
    family = re.search(r"^family = (\S+)", exp, re.M)
    family = family.group(1) if family else "xpulpv2"
    cores = 2 if "cores = 2" in exp else 1
    program = assemble(src.read_text(), str(src), family=family)
    plain, fast, _ = both(program, cores=cores, xpulp=family)
    assert_same(plain, fast)


HWLOOP = """
    .text
    .globl _start
_start:
    li s0, 0
    li t0, 5
    lp.setup x0, t0, end        # the body is one run; its last instruction ends the loop
    addi s0, s0, 1
    slli s1, s0, 2
end:
    add s2, s2, s1
    li t1, 3
    lp.setupi x1, 4, inner      # the loop ends inside straight code: handed to the loop
    addi s3, s3, 1
inner:
    addi s4, s4, 2
    addi s5, s5, 3
""" + EXIT


def test_hardware_loops_same_translated() -> None:
    plain, fast, m = both(assemble(HWLOOP, family="xpulpv2"))
    assert_same(plain, fast)
    assert plain["x"][0][18] == sum(4 * i for i in range(1, 6))     # s2


def test_cycle_limit_inside_a_run() -> None:
    body = "\n".join("    addi a1, a1, 1" for _ in range(40))
    source = f"""
    .text
    .globl _start
_start:
loop:
{body}
    j loop
"""
    program = assemble(source, family="xpulpv2")
    for limit in (7, 100, 1001):
        plain, fast, _ = both(program, max_cycles=limit)
        assert plain["end"][0] == "timeout"
        assert_same(plain, fast)


FP_TRAPS = """
    .text
    .globl _start
_start:
    la t0, handler
    csrw mtvec, t0
    li t0, 0x6000
    csrs mstatus, t0
    li a0, 0x3f800000
    fmv.w.x fa0, a0
    fadd.s fa1, fa0, fa0        # RNE
    li t1, 5
    fsrm t1                     # an invalid dynamic rounding mode ...
    addi a2, a2, 1
    fadd.s fa2, fa0, fa0        # ... traps here, in the middle of a run
    addi a3, a3, 1
    csrc mstatus, t0            # FPU off ...
    addi a4, a4, 1
    fmul.s fa3, fa0, fa0        # ... traps too
    addi a5, a5, 1
    csrw mtvec, zero            # the exit's ecall goes to the host, not to the handler
""" + EXIT + """
handler:
    addi s1, s1, 1
    csrr t2, mepc
    addi t2, t2, 4
    csrw mepc, t2
    mret
"""


@pytest.mark.slow     # a translation per program: several seconds each
def test_fp_traps_inside_runs_same_translated() -> None:
    plain, fast, _ = both(assemble(FP_TRAPS, family="xpulpv2", rvc=False))
    assert_same(plain, fast)
    assert plain["x"][0][9] == 2     # s1: both traps taken


@pytest.mark.slow     # a translation per program: several seconds each
def test_store_into_text_falls_back_to_the_loop() -> None:
    plain, fast, _ = both(assemble(PATCH_LOOP, family="xpulpv2"))
    assert_same(plain, fast)


def test_runs_follow_straight_code_and_end_at_branches() -> None:
    program = assemble("""
    .text
    .globl _start
_start:
    li a0, 4
loop:
    lw a1, 0(sp)
    addi a0, a0, -1
    add a2, a2, a1
    lw a3, 4(sp)
    xor a2, a2, a3
    bnez a0, loop
    csrr a4, mcycle
""" + EXIT, family="xpulpv2", rvc=False)
    m = Machine("pulp-open", cores=1, translate=True).load(program)
    code = m.code.reshape(-1, L.NF)
    runs = TX.find_runs(code, m.slot_pc, [0], fpu_shared=False)
    pcs = [[m.slot_pc[s] - program.entry for s in run.slots] for run in runs]
    # `li` (lui/addi: two instructions) up to the loop head; the loop body up to its branch;
    # csrr ends straight code, and so does the ecall exit
    assert pcs[:2] == [[0], [4, 8, 12, 16, 20, 24]]
    assert all(p[0] >= 28 for p in pcs[2:])
    entries = TX.entry_points(code, runs)
    assert (1, 3) in entries                      # the second load is an entry too
    exits = TX.exit_table(code, m.slot_pc, runs).reshape(-1, TX.EXIT_FIELDS)
    taken = exits[runs[1].exit_base + 2 * len(runs[1].slots) + 1]
    assert taken[0] == program.entry + 4 and taken[3] == TX.EXIT_TAKEN and taken[4] == 1


def test_only_code_in_loops_is_translated_by_default(monkeypatch) -> None:
    """Set-up code that runs once is left to the loop; a loop's body, and a function it calls,
    are translated (and the results are the same either way)."""
    program = assemble("""
    .text
    .globl _start
_start:
    li a0, 4
    li a2, 0
    addi a5, a2, 7
loop:
    jal ra, body
    addi a0, a0, -1
    bnez a0, loop
    addi a6, a2, 1
    addi a7, a6, 2
""" + EXIT + """
body:
    addi a2, a2, 3
    xor a3, a2, a0
    ret
""", family="xpulpv2", rvc=False)
    monkeypatch.setenv("ISASIM_TRANSLATE", "eager")
    m = Machine("pulp-open", cores=1).load(program)
    code = m.code.reshape(-1, L.NF)
    entered = {m.slot_pc[s] - program.entry for s in np.flatnonzero(code[:, L.F_TX] >= 0)}
    body = program.symbols["body"].value - program.entry
    # the loop's head (its jal), the instructions after the call, the function's body
    assert entered == {12, 16, body}
    plain, fast, _ = both(program)
    assert_same(plain, fast)


def test_a_run_outlasting_its_first_slice_is_translated_then(monkeypatch, tmp_path) -> None:
    """By default a program is translated when a run goes on past its first slice (a short
    run is spared the compile): the core parked at the slice's end resumes in translated
    code, with every observable as interpreted.  (An empty translation cache: a program
    translated before on this machine is translated at load.)"""
    monkeypatch.setenv("ISASIM_TRANSLATE", "1")
    monkeypatch.setenv("ISASIM_TRANSLATE_CACHE", str(tmp_path))
    program = assemble(bench.matmul(8), family="xpulpv2")
    runs = []
    for translate in (False, True):
        m = Machine("pulp-open", cores=8, stack_size=256, translate=translate).load(program)
        matrices(m)
        assert m._translated is None
        m.slice_cycles = 5_000
        runs.append(observables(m.run()))
    assert m._translated is not None and translated_slots(m) > 5
    assert_same(*runs)
