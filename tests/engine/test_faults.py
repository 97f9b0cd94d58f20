"""Every guest fault ends the run with a report, never a Python traceback or a hang.

A report names the kind of fault, the core, the pc with its disassembly, the cycle and the last
instructions of that core.  Traps go to the program's handler when it installed one (mtvec).
Programs also stop through semihosting and HTIF; ``isasim run`` turns all of this into its exit
status: the program's exit code, 2 for a usage or input error, 3 for a guest fault or time-out.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from isasim.cli import main
from isasim.machine import Machine
from toolchain.asm import assemble

EXIT = """
    li a7, 93
    ecall
"""


def run(body: str, data: str = "", cores: int = 1, max_cycles: int = 100_000, **config):
    src = f"    .option norvc\n    .text\n    .globl _start\n_start:\n{body}\n    .data\n{data}\n"
    m = Machine("pulp-open", cores=cores, **config).load(assemble(src, "t.s"))
    return m.run(max_cycles=max_cycles)


def assert_report(r, kind: str, core: int, instruction: str, detail: str = "",
                  status: str = "fault") -> None:
    """The fault report is complete and its text says what happened where."""
    assert r.status == status
    f = r.fault
    assert f is not None and kind in f.kind
    assert f.core == core
    assert instruction in f.instruction
    assert f.cycle > 0
    assert f.recent, "no recent instructions"
    text = f.format()
    assert f"on core {core} at pc {f.pc:#010x}" in text and f"(cycle {f.cycle})" in text
    assert instruction in text and f"last instructions of core {core}" in text
    assert detail in text
    r.check_invariant()


# ---- faults without a handler ----------------------------------------------------------------
def test_illegal_instruction():
    r = run("    li t0, 1\n    .word 0xffffffff\n" + EXIT)
    assert_report(r, "illegal instruction", 0, ".word 0xffffffff", "instruction word 0xffffffff")
    assert r.fault.recent[-1][1] == "li t0,1"


def test_the_report_lists_the_last_eight_instructions_across_jumps_loops_and_traps():
    """The recent instructions are rebuilt from the runs of sequential execution the loop
    records at each control transfer: here a hardware-loop back edge, a call, an ecall trapping
    into the handler and its mret, with compressed instructions in between (2-byte steps); the
    return then lands on an illegal word with the handler removed."""
    src = """
    .text
    .globl _start
_start:
    la t0, handler
    csrw mtvec, t0
    li t1, 2
    lp.setup x0, t1, 1f
    c.nop
1:  addi t2, t2, 1
    jal f
    .word 0xffffffff
f:  c.li a0, 3
    ecall
    c.addi a0, 1
    csrw mtvec, zero
    ret
handler:
    csrr t3, mepc
    addi t3, t3, 4
    csrw mepc, t3
    mret
"""
    program = assemble(src, "recent.s", family="xpulpv2")
    r = Machine("pulp-open", cores=1).load(program).run(max_cycles=10_000)
    assert r.status == "fault" and "illegal" in r.fault.kind
    f, h = program.symbols["f"].value, program.symbols["handler"].value
    assert [pc for pc, _ in r.fault.recent] == [f + 2, h, h + 4, h + 6, h + 10, f + 6, f + 8,
                                                f + 12]
    assert r.fault.recent[0][1] == "ecall" and r.fault.recent[4][1] == "mret"


def test_unknown_csr_is_illegal():
    r = run("    nop\n    csrr t0, 0x5c0\n" + EXIT)
    assert_report(r, "illegal instruction", 0, "csrr t0", "0x5c0022f3")


def test_write_to_read_only_csr_is_illegal():
    r = run("    nop\n    csrw mhartid, t0\n" + EXIT)
    assert_report(r, "illegal instruction", 0, "mhartid")


def test_unmapped_load_and_store():
    r = run("    li t0, 0x40000000\n    lw t1, 8(t0)\n" + EXIT)
    assert_report(r, "load from unmapped address", 0, "lw t1,8(t0)", "address 0x40000008")
    r = run("    li t0, 0x40000000\n    sh t1, -2(t0)\n" + EXIT)
    assert_report(r, "store to unmapped address", 0, "sh t1,-2(t0)", "address 0x3ffffffe")


def test_misaligned_access_faults_when_configured():
    body = "    la t0, buf\n    lw t1, 2(t0)\n" + EXIT
    data = "    .align 2\nbuf: .word 1, 2\n"
    assert run(body, data).status == "exited"                  # default: supported
    r = run(body, data, misaligned="fault")
    assert_report(r, "misaligned load", 0, "lw t1,2(t0)", "address 0x")
    r = run("    la t0, buf\n    sh t1, 1(t0)\n" + EXIT, data, misaligned="fault")
    assert_report(r, "misaligned store", 0, "sh t1,1(t0)")


def test_fetch_outside_memory():
    r = run("    li t0, 0x30000000\n    jr t0\n")
    assert_report(r, "instruction fetch outside memory", 0, "")
    assert r.fault.pc == 0x30000000
    assert r.fault.recent[-1][1] == "jr t0"


def test_ebreak_without_handler():
    r = run("    nop\n    ebreak\n" + EXIT)
    assert_report(r, "breakpoint", 0, "ebreak")


def test_fault_on_another_core_names_that_core():
    body = ("    li t0, 3\n    bne a0, t0, 1f\n    .word 0xffffffff\n1:  li t1, 200\n"
            "2:  addi t1, t1, -1\n    bnez t1, 2b\n" + EXIT)
    r = run(body, cores=4)
    assert_report(r, "illegal instruction", 3, ".word")


def test_fault_while_other_cores_wait_for_a_bank_keeps_the_cycle_invariant():
    """Core 0 faults while the others are parked on a bank they lost (found by fuzzing: their
    lost cycle was charged but their cycle count stopped one short)."""
    body = ("    li a4, 0x10000100\n    sw a1, 0(a4)\n    bnez a0, 1f\n"
            "    sw a0, 0(zero)\n1:  sw a1, 0(a4)\n" + EXIT)
    r = run(body, cores=4)
    assert_report(r, "store to unmapped address", 0, "sw")
    assert r.categories[1:, 2].sum() > 0       # others did lose arbitrations


# ---- time-outs and sleeping ----------------------------------------------------------------
def test_infinite_loop_times_out():
    r = run("1:  j 1b\n", max_cycles=5000)
    assert_report(r, "timeout", 0, "j", "--max-cycles 5000", status="timeout")
    assert r.cycles[0] <= 5002


def test_long_program_times_out_with_its_limit():
    r = run("    li t0, 1000000\n1:  addi t0, t0, -1\n    bnez t0, 1b\n" + EXIT,
            max_cycles=20_000)
    assert r.status == "timeout" and "20000" in r.fault.detail


def test_all_cores_asleep_in_wfi():
    r = run("    wfi\n" + EXIT, cores=2)
    assert r.status == "deadlock"
    assert r.fault.kind == "all cores asleep"
    assert r.fault.instruction == "wfi"       # the report points at the wfi itself
    assert "sleeps in wfi" in r.fault.format()
    r.check_invariant()


def test_all_cores_asleep_in_wfi_is_not_called_a_barrier_deadlock():
    r = run("    wfi\n" + EXIT, cores=2)
    assert "barrier" not in r.fault.format()


# ---- traps to the program's handler --------------------------------------------------------
HANDLER = """
    la t0, handler
    csrw mtvec, t0
    {trigger}
    li a0, 0
    j done
    .align 2                 # mtvec holds a 4-byte aligned base
handler:
    csrr a0, mcause
    csrr t1, mepc
    la t2, trig
    sub a1, t1, t2           # 0: mepc is the trapping instruction
    csrr a2, mtval
done:
    li a7, 93
    ecall
"""


@pytest.mark.parametrize(("trigger", "cause", "tval"), [
    ("trig: ecall", 11, 0),
    ("trig: ebreak", 3, None),          # mtval = pc of the ebreak
    ("trig: .word 0xffffffff", 2, 0xFFFFFFFF),
    ("trig: csrr t0, 0x5c0", 2, 0x5C0022F3),
    ("trig: lw t0, 0(zero)", 5, 0),     # load access fault (address 0 is not mapped)
])
def test_trap_enters_handler(trigger, cause, tval):
    r = run(HANDLER.format(trigger=trigger).replace("    li a7, 93\n    ecall",
                                                    "    csrw mtvec, zero\n" + EXIT))
    assert r.status == "exited" and r.fault is None
    assert r.exit_code == cause                      # a0 = mcause
    assert int(r.x[0][11]) == 0                      # a1 = mepc - trig
    if tval is not None:
        assert int(r.x[0][12]) == tval


# ---- program exits ---------------------------------------------------------------------------
SEMIHOST = "    slli x0, x0, 0x1f\n    ebreak\n    srai x0, x0, 7\n"


def test_fetch_fault_enters_the_handler_and_costs_a_trap():
    """A jump to unmapped memory traps like any fault (mepc = mtval = the target) and, like any
    trap, costs the lost issue cycle and the jump to the handler."""
    body = HANDLER.format(trigger="trig: jalr zero, 0(zero)").replace(
        "    li a7, 93\n    ecall", "    csrw mtvec, zero\n" + EXIT)
    r = run(body)
    assert r.status == "exited" and r.exit_code == 1          # mcause: fetch access fault
    assert int(r.x[0][12]) == 0                               # mtval: the address fetched
    r.check_invariant()


def test_unfetchable_trap_handler_is_a_fault_not_a_host_hang(tmp_path):
    """mtvec pointing at unmapped memory: every trap would trap again at once, without time
    passing.  Found by fuzzing as a hang of the host inside the compiled loop, where no time
    limit reaches: run in a child process with a deadline."""
    src = write(tmp_path, "    li t0, 4\n    csrw mtvec, t0\n    ecall\n")
    run_ = subprocess.run([sys.executable, "-m", "isasim.cli", "run", src, "--quiet"],
                          capture_output=True, text=True, timeout=300)
    assert run_.returncode == 3, run_.stderr
    assert "instruction fetch outside memory on core 0 at pc 0x00000004" in run_.stderr


def test_semihosting_write_and_exit():
    body = ("    li a0, 4\n    la a1, msg\n" + SEMIHOST           # SYS_WRITE0
            + "    li a0, 3\n    la a1, bang\n" + SEMIHOST        # SYS_WRITEC
            + "    li a0, 5\n    la a1, block\n" + SEMIHOST       # SYS_WRITE
            + "    li a0, 0x18\n    li a1, 0x20026\n" + SEMIHOST)  # SYS_EXIT, success
    data = ('msg: .string "hello"\nbang: .byte 33\n    .align 2\n'
            'block: .word 1, text, 4\ntext: .string "\\nabc"\n')
    r = run(body, data)
    assert r.status == "exited" and r.exit_code == 0
    assert r.stdout == "hello!\nabc"


def test_semihosting_exit_failure_and_extended():
    r = run("    li a0, 0x18\n    li a1, 0x20023\n" + SEMIHOST)   # not ApplicationExit
    assert r.status == "exited" and r.exit_code == 1
    body = "    li a0, 0x20\n    la a1, args\n" + SEMIHOST        # SYS_EXIT_EXTENDED
    r = run(body, "    .align 2\nargs: .word 0x20026, 42\n")
    assert r.exit_code == 42


def test_semihosting_feature_file_and_command_line():
    """What picolibc's crt0 and _exit ask: the feature file (SYS_EXIT_EXTENDED present)."""
    body = ("    li a0, 1\n    la a1, open_args\n" + SEMIHOST + "    mv s1, a0\n"   # SYS_OPEN
            "    la t0, flen_args\n    sw s1, 0(t0)\n    li a0, 0x0c\n    mv a1, t0\n"
            + SEMIHOST + "    mv s2, a0\n"                                      # SYS_FLEN
            "    la t0, read_args\n    sw s1, 0(t0)\n    li a0, 6\n    mv a1, t0\n"
            + SEMIHOST + "    mv s3, a0\n"                                      # SYS_READ
            "    li a0, 0x15\n    la a1, cmd_args\n" + SEMIHOST + "    mv s4, a0\n"
            + EXIT)
    data = ('name: .string ":semihosting-features"\n    .align 2\n'
            "open_args: .word name, 0, 21\nflen_args: .word 0\n"
            "read_args: .word 0, buf, 8\nbuf: .space 8\ncmd_args: .word cmd, 64\n"
            "cmd: .space 64\n")
    m = Machine("pulp-open", cores=1)
    src = f"    .option norvc\n    .text\n    .globl _start\n_start:\n{body}\n    .data\n{data}\n"
    m.load(assemble(src, "t.s"))
    r = m.run(max_cycles=100_000)
    assert r.status == "exited" and not r.warnings
    x = r.x[0]
    assert int(x[9]) not in (0, 0xFFFFFFFF)          # s1: a handle
    assert int(x[18]) == 5                           # s2: file length
    assert int(x[19]) == 3                           # s3: 8 asked, 5 read, 3 not read
    assert bytes(m.read("buf", 5, np.uint8)) == b"SHFB\x01"   # magic, EXIT_EXTENDED
    assert int(x[20]) == 0                           # s4: SYS_GET_CMDLINE succeeded
    assert bytes(m.read("cmd", 8, np.uint8)) == b"program\0"
    assert int(m.read("cmd_args", 2)[1]) == 7        # length written back


@pytest.mark.parametrize("body, detail", [
    ("    li a7, 64\n    li a0, 1\n    li a1, 0x50000000\n    li a2, 4\n    ecall\n",
     "address 0x50000000 (+4) is not in guest RAM"),
    ("    li a7, 64\n    li a0, 1\n    li a1, 0x1c000000\n    li a2, -1\n    ecall\n",
     "(+4294967295) is not in guest RAM"),
    ("    li a0, 5\n    li a1, 0x60000000\n" + SEMIHOST, "address 0x60000000 (+12)"),
])
def test_host_call_with_a_bad_pointer_is_a_fault(body, detail):
    """write(1, buf, n) or a semihosting argument block outside guest RAM (found by probing:
    a KeyError traceback)."""
    r = run(body + EXIT)
    assert_report(r, "host call with a bad pointer", 0, "", detail)


def test_htif_tohost_exit():
    body = ("    la t0, tohost\n    li t1, (7 << 1) | 1\n    sw t1, 0(t0)\n    sw zero, 4(t0)\n"
            "1:  j 1b\n")
    data = "    .align 3\n    .globl tohost\ntohost: .word 0, 0\nfromhost: .word 0, 0\n"
    r = run(body, data)
    assert r.status == "exited" and r.exit_code == 7


def test_simulator_device_exit_and_putchar():
    body = ("    li t0, 0x1a110000\n    li t1, 72\n    sw t1, 0(t0)\n    li t1, 105\n"
            "    sw t1, 0(t0)\n    li t1, 9\n    sw t1, 4(t0)\n")
    r = run(body)
    assert r.status == "exited" and r.exit_code == 9 and r.stdout == "Hi"


# ---- `isasim run` exit status ------------------------------------------------------------------
def write(tmp_path: Path, body: str, data: str = "") -> str:
    p = tmp_path / "prog.s"
    p.write_text(f"    .option norvc\n    .text\n    .globl _start\n_start:\n{body}\n"
                 f"    .data\n{data}\n")
    return str(p)


def test_cli_exit_code_is_the_programs(tmp_path, capsys):
    assert main(["run", "--quiet", "--cores", "1", write(tmp_path, "    li a0, 5\n" + EXIT)]) == 5
    assert main(["run", "--quiet", "--cores", "1", write(tmp_path, "    li a0, 0\n" + EXIT)]) == 0
    # only the low 8 bits reach the shell
    assert main(["run", "--quiet", "--cores", "1",
                 write(tmp_path, "    li a0, 0x101\n" + EXIT)]) == 1


def test_cli_guest_fault_and_timeout_exit_3(tmp_path, capsys):
    assert main(["run", "--quiet", "--cores", "1", write(tmp_path, "    .word 0xffffffff\n")]) == 3
    err = capsys.readouterr().err
    assert "guest fault: illegal instruction on core 0" in err and "Traceback" not in err
    assert main(["run", "--quiet", "--cores", "1", "--max-cycles", "1000",
                 write(tmp_path, "1:  j 1b\n")]) == 3
    assert "timeout" in capsys.readouterr().err


def test_cli_usage_and_input_errors_exit_2(tmp_path, capsys):
    assert main(["run", str(tmp_path / "missing.s")]) == 2
    assert main(["run", write(tmp_path, "    bogus t0, t1\n")]) == 2
    assert "prog.s:5" in capsys.readouterr().err            # file:line of the bad source
    bad_elf = tmp_path / "bad.elf"
    bad_elf.write_bytes(b"not an elf")
    assert main(["run", str(bad_elf)]) == 2
    assert main(["run", "--cores", "9", write(tmp_path, EXIT)]) == 2
    assert main(["run", "--no-such-option"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert main(["run", "--max-cycles", "-5", write(tmp_path, EXIT)]) == 2
    assert "--max-cycles: must be at least 1, got -5" in capsys.readouterr().err
