"""One core's pipeline timing, rule by rule, against hand counts.

Each case is a few instructions on one core whose stall cycles follow from one rule of the
CV32E40P user manual ("Pipeline Details", cycle counts per instruction type and hazards) or of
GVSoC's model of it, as ``docs/cycle-model.md`` lists them; the expected counts are derived in
the comments from the preset's numbers, never taken from a run.  Every run also satisfies the
cycle invariant (categories + issued instructions = cycles, checked by ``run_asm``).
"""

from __future__ import annotations

import pytest

from tests.cluster.common import EXIT, run_asm

HEAD = """
    .text
    .globl _start
_start:
    la s0, buf
"""
DATA = """
    .section .l1, "aw"
    .p2align 2
buf: .word 7, 8, 9, 10
"""


def stalls(body: str, config: str = "pulp-open", **overrides) -> dict[str, int]:
    """Core 0's stall cycles per category for HEAD + body + EXIT on one core."""
    r, _ = run_asm(HEAD + body + EXIT + DATA, config, cores=1, **overrides)
    assert r.status == "exited"
    return {name: int(r.category(name)[0]) for name in
            ("load_use", "branch", "jump", "muldiv", "fpu_dep", "misaligned", "ext_mem")}


def only(**expected) -> dict[str, int]:
    out = dict.fromkeys(("load_use", "branch", "jump", "muldiv", "fpu_dep", "misaligned",
                         "ext_mem"), 0)
    out.update(expected)
    return out


@pytest.mark.parametrize(("config", "overrides", "stall"),
                         [("pulp-open", {}, 1), ("gvsoc-2022", {}, 1),
                          ("pulp-open", {"load_latency": 3}, 3)])
def test_load_use(config, overrides, stall):
    """A load's value is usable load_latency cycles after the next issue slot: the dependent
    addi waits load_latency cycles (1 in both presets); an independent one in between hides
    one of them."""
    assert stalls("    lw t0, 0(s0)\n    addi t1, t0, 1\n", config,
                  **overrides) == only(load_use=stall)
    assert stalls("    lw t0, 0(s0)\n    nop\n    addi t1, t0, 1\n", config,
                  **overrides) == only(load_use=stall - 1)


def test_taken_branch_costs_branch_penalty_not_taken_nothing():
    """Taken: +2 (3 cycles in all, the manual's table); not taken: 1 cycle."""
    taken = "    li t0, 1\n    bnez t0, 1f\n    nop\n1:  nop\n"
    not_taken = "    li t0, 0\n    bnez t0, 1f\n    nop\n1:  nop\n"
    assert stalls(taken) == only(branch=2)
    assert stalls(not_taken) == only()


def test_jal_and_jalr_cost_jump_penalty_and_jalr_after_its_source_one_more():
    """jal: +1 (2 cycles); jalr: +1, and +1 more when the instruction just before wrote its
    rs1 (the manual's jalr hazard).  The la is auipc + addi: addi writes t1 right before."""
    assert stalls("    j 1f\n    nop\n1:  nop\n") == only(jump=1)
    assert stalls("    la t1, 1f\n    nop\n    jr t1\n    nop\n1:  nop\n") == only(jump=1)
    assert stalls("    la t1, 1f\n    jr t1\n    nop\n1:  nop\n") == only(jump=2)


@pytest.mark.parametrize(("config", "stall"), [("pulp-open", 0), ("gvsoc-2022", 1)])
def test_mul_result_latency(config, stall):
    """mul_latency 1 (RTL: single-cycle multiplier) vs 2 (GVSoC 2022): a dependent
    instruction right after mul waits mul_latency - 1 cycles."""
    assert stalls("    li t0, 3\n    mul t1, t0, t0\n    addi t2, t1, 1\n",
                  config) == only(muldiv=stall)


def test_mulh_takes_mulh_cycles_whatever_follows():
    """mulh is 5 cycles (structural): 4 extra, even with an independent instruction after."""
    assert stalls("    li t0, 3\n    mulh t1, t0, t0\n    nop\n") == only(muldiv=4)


@pytest.mark.parametrize(("divisor", "op", "cycles"), [
    (1, "divu", 31 + 3),            # clz(1) = 31: clz + 3
    (0x40000000, "divu", 1 + 3),    # clz = 1
    (0, "divu", 35),                # division by zero: 35
    (-1, "div", 32 + 2),            # signed negative: clz(~d) + 2, ~(-1) = 0, clz(0) = 32
    (-4, "rem", 30 + 2),            # ~(-4) = 3, clz(3) = 30
])
def test_divider_cycles_follow_the_divisor(divisor, op, cycles):
    """The manual: 3..35 cycles depending on the divisor's leading zeros; the extra cycles
    over the issue cycle go to muldiv."""
    body = f"    li t0, 100\n    li t1, {divisor}\n    {op} t2, t0, t1\n"
    assert stalls(body) == only(muldiv=cycles - 1)


@pytest.mark.parametrize(("config", "overrides", "lat"),
                         [("pulp-open", {}, 0), ("pulp-open", {"fpu_latency": 2}, 2)])
def test_fpu_result_latency(config, overrides, lat):
    """FPU_ADDMUL_LAT = 0 (the manual's default): fadd's result is usable by the next
    instruction; with 2 pipeline registers it waits 2 cycles (fpu_dep)."""
    body = "    fmv.w.x ft0, zero\n    fadd.s ft1, ft0, ft0\n    fadd.s ft2, ft1, ft1\n"
    assert stalls(body, config, **overrides) == only(fpu_dep=lat)


def test_fpu_other_latency_applies_to_moves_and_conversions():
    """FPU_OTHERS_LAT: fmv.w.x and fcvt.w.s are both of that class, so with 3 the fcvt waits
    3 cycles for ft0 and the addi 3 more for t0: 6 fpu_dep cycles; with 0 (default), none."""
    body = "    fmv.w.x ft0, zero\n    fcvt.w.s t0, ft0\n    addi t1, t0, 1\n"
    assert stalls(body) == only()
    assert stalls(body, fpu_other_latency=3) == only(fpu_dep=6)


@pytest.mark.parametrize(("config", "lat"), [("pulp-open", 14), ("gvsoc-2022", 9)])
def test_fdiv_latency(config, lat):
    """fdiv.s's result is ready fdiv_latency cycles after it issues: a dependent fadd right
    after waits fdiv_latency - 1 cycles (14 in pulp-open: GVSoC's fpu_div; 9 in the 2022 model)."""
    body = ("    li t0, 0x40000000\n    fmv.w.x ft0, t0\n    fdiv.s ft1, ft0, ft0\n"
            "    fadd.s ft2, ft1, ft1\n")
    assert stalls(body, config) == only(fpu_dep=lat - 1)


def test_misaligned_word_costs_one_cycle():
    """A word at an address 2 mod 4 is two accesses: +1 (misaligned)."""
    assert stalls("    lw t0, 2(s0)\n    nop\n") == only(misaligned=1)
    assert stalls("    lw t0, 2(s0)\n    nop\n", misaligned_penalty=0) == only()


def fpu_waits(body: str, config: str = "pulp-open", **overrides) -> tuple[int, int]:
    """Core 0's (fpu_struct, fpu_dep) cycles for HEAD + body + EXIT on one core."""
    r, _ = run_asm(HEAD + body + EXIT + DATA, config, cores=1, **overrides)
    assert r.status == "exited"
    return int(r.category("fpu_struct")[0]), int(r.category("fpu_dep")[0])


INDEPENDENT_FADDS = ("    fmv.w.x ft0, zero\n    fadd.s ft1, ft0, ft0\n    fadd.s ft2, ft0, ft0\n"
                     "    addi t0, zero, 1\n    fadd.s ft3, ft0, ft0\n")


@pytest.mark.parametrize(("config", "overrides", "expected"), [
    ("pulp-open", {"fpu_latency": 2}, (3, 0)),
    ("pulp-open", {}, (0, 0)),
    ("gvsoc-2022", {"fpu_latency": 2}, (0, 0)),
    ("pulp-open", {"fpu_latency": 2, "fpu_issue": "pipelined"}, (0, 0)),
])
def test_one_fp_operation_outstanding_holds_back_only_fp_instructions(config, overrides,
                                                                      expected):
    """CV32E40P manual (pipeline.rst, "Cycle counts per instruction type", floating-point
    rows): while an FP operation is outstanding the core executes following instructions only
    if they are not FPU ones.  With FPU_ADDMUL_LAT = 2 the first fadd (issued at cycle 1, after
    fmv.w.x at 0) is outstanding until 1 + 1 + 2 = 4, so the independent second fadd, ready to
    issue at 2, waits 2 cycles (fpu_struct) and issues at 4, outstanding until 7; the addi
    issues at 5 regardless, the third fadd is ready at 6 and waits 1: 3 cycles.  With latency 0
    nothing is outstanding past the issue cycle; GVSoC (gvsoc-2022, fpu_issue "pipelined")
    takes a new FP operation every cycle: no wait either way."""
    assert fpu_waits(INDEPENDENT_FADDS, config, **overrides) == expected


@pytest.mark.parametrize(("config", "overrides", "expected"), [
    ("pulp-open", {"fpu_latency": 2}, (0, 2)),
    ("gvsoc-2022", {"fpu_latency": 2}, (0, 0)),
])
def test_a_write_to_the_outstanding_fp_destination_waits(config, overrides, expected):
    """The same rule: no write-after-write on the outstanding FP operation's destination.  The
    fadd issues at 1 with ft1 due at 4; flw ft1, ready at 2, waits 2 cycles (fpu_dep, a data
    hazard) in pulp-open; GVSoC has no such check."""
    body = "    fmv.w.x ft0, zero\n    fadd.s ft1, ft0, ft0\n    flw ft1, 0(s0)\n"
    assert fpu_waits(body, config, **overrides) == expected


@pytest.mark.parametrize(("config", "lat"), [("pulp-open", 14), ("gvsoc-2022", 9)])
def test_the_divider_occupies_the_fpu_and_its_destination(config, lat):
    """fdiv.s is outstanding for fdiv_latency cycles (the manual's iterative unit, 1..19): an
    independent fadd right after it waits fdiv_latency - 1 cycles (fpu_struct) in both presets
    (the private divider blocks the FPU); a flw writing fdiv's destination waits as long in
    pulp-open (the manual's write-after-write rule, fpu_dep) and not at all in gvsoc-2022."""
    head = "    li t0, 0x40000000\n    fmv.w.x ft0, t0\n    fdiv.s ft1, ft0, ft0\n"
    assert fpu_waits(head + "    fadd.s ft2, ft0, ft0\n", config) == (lat - 1, 0)
    waw = lat - 1 if config == "pulp-open" else 0
    assert fpu_waits(head + "    flw ft1, 0(s0)\n", config) == (0, waw)


# HEAD is 8 bytes (la = auipc + addi) from the word-aligned _start: in each body below the
# c.nop (2 bytes) puts the label `1:` at an address that is 2 mod 4.
@pytest.mark.parametrize(("config", "extra"), [("pulp-open", 1), ("gvsoc-2022", 0)])
def test_a_jump_or_taken_branch_to_a_non_word_aligned_32_bit_target_costs_one_more(config,
                                                                                   extra):
    """The manual's table: jump 2 cycles, 3 when the target is a non-word-aligned non-RVC
    instruction; taken branch 3, then 4.  j at 8 jumps to 14 (a 32-bit addi): jump 1 + 1;
    bnez at 12 to 18: branch 2 + 1; jr at 20 to 26: jump 1 + 1 (t1 written two instructions
    before: no jalr hazard).  A compressed target (c.addi) costs nothing more.  GVSoC charges
    no such cycle (gvsoc-2022)."""
    assert stalls("    j 1f\n    c.nop\n1:  addi t0, t0, 1\n",
                  config) == only(jump=1 + extra)
    assert stalls("    li t0, 1\n    bnez t0, 1f\n    c.nop\n1:  addi t0, t0, 1\n",
                  config) == only(branch=2 + extra)
    assert stalls("    la t1, 1f\n    nop\n    jr t1\n    c.nop\n1:  addi t0, t0, 1\n",
                  config) == only(jump=1 + extra)
    assert stalls("    j 1f\n    c.nop\n1:  c.addi t0, 1\n", config) == only(jump=1)


@pytest.mark.parametrize(("config", "pen"), [("pulp-open", 1), ("gvsoc-2022", 0)])
def test_fence_i_is_a_jump_to_the_next_instruction(config, pen):
    """The manual: fence.i takes 2 cycles (a jump to the following instruction), 3 when that
    is a non-word-aligned 32-bit instruction: +1 (jump), +2 after a c.nop moves it to 10 so
    that its successor is at 14.  GVSoC: 1 cycle."""
    assert stalls("    fence.i\n    nop\n", config) == only(jump=pen)
    assert stalls("    c.nop\n    fence.i\n    nop\n", config) == only(jump=2 * pen)


@pytest.mark.parametrize(("config", "slow"), [("pulp-open", 3), ("gvsoc-2022", 0)])
def test_the_manuals_slow_csrs_take_four_cycles(config, slow):
    """The manual: 4 cycles for mstatus, mepc, mtvec, mcause, mcycle, minstret, mhpmcounter*,
    ... (a pipeline flush, charged as a jump: 3 extra cycles), 1 for the others (mscratch,
    mhartid).  GVSoC: 1 for every CSR."""
    for csr in ("mstatus", "mcycle", "minstret", "mepc"):
        assert stalls(f"    csrr t0, {csr}\n", config) == only(jump=slow), csr
    assert stalls("    csrr t0, mscratch\n    csrr t1, mhartid\n", config) == only()


@pytest.mark.parametrize(("config", "inside"), [("pulp-open", 0), ("gvsoc-2022", 1)])
def test_a_misaligned_half_word_inside_one_word_costs_nothing_in_the_rtl(config, inside):
    """The manual: 2 bus transactions only for a misaligned word or a half-word crossing a
    word boundary.  lh at offset 1 stays in word 0: one transaction, no extra cycle (GVSoC's
    handle_misaligned charges its +1 anyway); lh at offset 3 crosses: +1 in both."""
    assert stalls("    lh t0, 1(s0)\n    nop\n", config) == only(misaligned=inside)
    assert stalls("    lh t0, 3(s0)\n    nop\n", config) == only(misaligned=1)
