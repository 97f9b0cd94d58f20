"""Bad uses of the cluster devices end the run with a report, never a traceback or a hang.

Each program runs on two cores; core 0 leaves at once and core 1 makes the mistake at the
instruction labelled ``bad``, so the report must name core 1, that pc, the cycle it issued
(straight-line code: 4 + the number of instructions before it after the branch, where
``li`` of a value with low bits and ``la`` are two), and what was asked.
"""

from __future__ import annotations

import pytest

from isasim import devices as D
from isasim.cli import main

from .common import DMA, EU, EXIT, per_core, run_asm, words

CMD = (1 << 17) | (1 << 18)          # L2 -> TCDM, incremental
TCDM_END = 0x10000000 + 64 * 1024
L2_END = 0x1C000000 + 0x190000


def program(body: str) -> str:
    return f"""
    .text
    .globl _start
_start:
    li s1, {EU:#x}            # 0
    li s2, {DMA:#x}           # 1-2
    beqz a0, done             # 3: core 0 leaves, core 1 goes on at 4
{body}
done:
""" + EXIT + f"""
    .data
src:
{words(range(16))}
    .section .l1, "aw"
dst: .zero 64
"""


# (body, index of `bad` in the body, the device error code, the value shown)
CASES = {
    "read-only event buffer": (
        "    li t0, 5\nbad: sw t0, 0x1c(s1)\n", 1, D.DEVERR_READ_ONLY, "value 0x5"),
    "read-only barrier status": (
        "    li t0, 1\nbad: sw t0, 0x204(s1)\n", 1, D.DEVERR_READ_ONLY, "value 0x1"),
    "core not in the trigger mask": (
        "    li t0, 1\n    sw t0, 0x200(s1)\nbad: p.elw t0, 0x21c(s1)\n", 2,
        D.DEVERR_BARRIER_MASK, "value read"),
    "no such barrier": ("bad: lw t0, 0x3f0(s1)\n", 0, D.DEVERR_BARRIER_ID, "value read"),
    "DMA of length 0": (
        f"    li t0, {CMD:#x}\nbad: sw t0, 0(s2)\n", 1, D.DEVERR_DMA_LENGTH, f"value {CMD:#x}"),
    "unaligned DMA into TCDM": (
        f"    li t0, {CMD | 64:#x}\n    sw t0, 0(s2)\n    la t0, dst + 2\nbad: sw t0, 0(s2)\n",
        5, D.DEVERR_DMA_ALIGN, "value 0x10000002"),
    "DMA past the TCDM end": (
        f"    li t0, {CMD | 64:#x}\n    sw t0, 0(s2)\n    li t0, {TCDM_END - 32:#x}\n"
        "bad: sw t0, 0(s2)\n", 5, D.DEVERR_DMA_TCDM_RANGE, f"value {TCDM_END - 32:#x}"),
    "DMA past the L2 end": (
        f"    li t0, {CMD | 64:#x}\n    sw t0, 0(s2)\n    la t0, dst\n    sw t0, 0(s2)\n"
        f"    li t0, {L2_END - 32:#x}\nbad: sw t0, 0(s2)\n", 8, D.DEVERR_DMA_RANGE,
        f"value {L2_END - 32:#x}"),
    "2-D line of 6 bytes": (
        f"    li t0, {CMD | (1 << 19) | 48:#x}\n    sw t0, 0(s2)\n    la t0, dst\n"
        "    sw t0, 0(s2)\n    la t0, src\n    sw t0, 0(s2)\n    li t0, 6\n"
        "bad: sw t0, 0(s2)\n", 10, D.DEVERR_DMA_ALIGN, "value 0x6"),
    "2-D stride out of L2": (
        f"    li t0, {CMD | (1 << 19) | 48:#x}\n    sw t0, 0(s2)\n    la t0, dst\n"
        "    sw t0, 0(s2)\n    la t0, src\n    sw t0, 0(s2)\n    li t0, 16\n    sw t0, 0(s2)\n"
        "    li t0, 0x100000\nbad: sw t0, 0(s2)\n", 12, D.DEVERR_DMA_RANGE, "value 0x100000"),
    "17th transfer id, nothing can free one": (
        "    lw t0, 0(s2)\n" * 16 + "bad: lw t0, 0(s2)\n", 16, D.DEVERR_DMA_NO_ID, "value read"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_device_misuse_report(case):
    body, index, code, value = CASES[case]
    reason = D.DEVERR_TEXT[code]
    r, _ = run_asm(program(body), cores=2)
    assert r.status == "fault"
    f = r.fault
    assert f.kind == "device misuse"
    assert (f.core, f.pc, f.cycle) == (1, r.symbols["bad"], 4 + index)
    assert reason in f.detail and value in f.detail
    text = f.format()
    assert f"on core 1 at pc {r.symbols['bad']:#010x}" in text and f"(cycle {4 + index})" in text


DEADLOCK = f"""
    .text
    .globl _start
_start:
    li s1, {EU:#x}
    li t0, 3
    sw t0, 0x200(s1)          # barrier 0: cores 0 and 1
    sw t0, 0x20c(s1)
    li t0, 1 << 16
    sw t0, 0x8(s1)
    bnez a0, done             # core 1 never comes
wait:
    p.elw t0, 0x21c(s1)
done:
""" + EXIT


def test_barrier_nobody_else_reaches_is_a_deadlock_report():
    """Core 0 waits in a barrier of cores 0 and 1; core 1 exits instead.  The run stops with
    status deadlock, naming who waits where and since when, and who stopped."""
    r, _ = run_asm(DEADLOCK, cores=2)
    assert r.status == "deadlock"
    f = r.fault
    assert f.kind == "barrier deadlock" and f.core == 0
    assert f.waiting[0].startswith("core 0 waits in a barrier") and "since cycle 8" in f.waiting[0]
    assert f.waiting[1].startswith("core 1 has stopped")
    assert f.waiting[2] == "barrier 0 (trigger mask 0x3) has core 0 and waits for core 1"


def test_barrier_with_absent_cores_in_its_mask_is_a_deadlock_report():
    """Trigger mask 0xff on a 4-core cluster: the four cores wait for cores that do not exist."""
    src = DEADLOCK.replace("li t0, 3", "li t0, 0xff").replace("bnez a0, done", "nop")
    r, _ = run_asm(src, cores=4)
    assert r.status == "deadlock"
    assert [w.split(" waits")[0] for w in r.fault.waiting[:4]] == [f"core {c}" for c in range(4)]
    assert r.fault.waiting[4:] == [
        "barrier 0 (trigger mask 0xff) has cores 0-3 and waits for cores 4-7; cores 4-7 do not "
        "exist in this 4-core run (a mask for more cores than --cores)"]


def test_deadlock_report_names_the_waiting_instruction():
    """The report points at the p.elw the core sleeps in, not at the instruction after it."""
    r, _ = run_asm(DEADLOCK, cores=2)
    assert r.fault.pc == r.symbols["wait"]
    assert f"at pc {r.symbols['wait']:#010x}" in r.fault.waiting[0]


def test_spinning_forever_is_a_timeout_report():
    r, _ = run_asm(".text\n.globl _start\n_start:\nspin: j spin\n", "single-core",
                   max_cycles=1000)
    assert r.status == "timeout" and r.fault.kind == "timeout"


def test_a_timeout_stops_every_core_at_the_limit():
    """Eight cores spinning on their own registers (core 1 on TCDM loads, core 2 asleep in a
    barrier nobody else reaches) run to the limit together: at a timeout the run used to stop
    when the first core passed it, leaving the other cores at cycle 0 in the report."""
    source = per_core(f"    li s1, {EU:#x}\n    la s2, cell\n", [
        "1:  j 1b\n",
        "1:  lw t0, 0(s2)\n    j 1b\n",
        "    li t0, 12\n    sw t0, 0x200(s1)\n    sw t0, 0x20c(s1)\n    li t0, 1 << 16\n"
        "    sw t0, 0x8(s1)\n    p.elw t0, 0x21c(s1)\n",
    ] + ["1:  addi t1, t1, 1\n    j 1b\n"] * 5) + """
    .section .l1, "aw"
cell: .word 0
"""
    limit = 10_000
    r, _ = run_asm(source, "pulp-open", max_cycles=limit)
    # the report names the core that passed the limit first
    assert r.status == "timeout" and r.fault.cycle == min(r.cycles) > limit
    assert r.fault.core != 2 and r.cycles[r.fault.core] == r.fault.cycle
    r.check_invariant()
    assert all(limit < c <= limit + 4 for c in r.cycles), r.cycles
    assert r.category("barrier")[2] > limit - 50
    assert r.instret[1] > limit // 6 and r.instret[3] > limit // 3


@pytest.mark.parametrize("case", ["unaligned DMA into TCDM", "core not in the trigger mask"])
def test_isasim_run_exits_3_with_the_report(tmp_path, capsys, case):
    body, index, code, _ = CASES[case]
    reason = D.DEVERR_TEXT[code]
    path = tmp_path / "bad.s"
    path.write_text(program(body))
    # ideal fetch, as run_asm's hand counts (tests/cluster/common.py): the cycle is 4 + index
    config = tmp_path / "ideal.toml"
    config.write_text('base = "pulp-open"\nicache = "ideal"\n')
    assert main(["run", str(path), "--cores", "2", "--config", str(config), "--quiet"]) == 3
    err = capsys.readouterr().err
    assert "guest fault: device misuse on core 1 at pc 0x" in err
    assert reason in err and f"(cycle {4 + index})" in err
    assert "Traceback" not in err


def test_isasim_run_exits_3_on_deadlock(tmp_path, capsys):
    path = tmp_path / "deadlock.s"
    path.write_text(DEADLOCK)
    assert main(["run", str(path), "--cores", "2", "--quiet"]) == 3
    err = capsys.readouterr().err
    assert "guest fault: barrier deadlock on core 0" in err and "core 1 has stopped" in err
