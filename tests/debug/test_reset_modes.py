"""Registers at reset, --no-stack, and machine mode only (the CV32E40P has no user mode)."""

from __future__ import annotations

from isasim import layout as L
from isasim.cli import main
from isasim.machine import Machine
from toolchain.asm import assemble

EXIT = "    li a7, 93\n    ecall\n"


def load(body: str, cores: int = 4, **kw) -> Machine:
    src = f"    .option norvc\n    .text\n    .globl _start\n_start:\n{body}"
    return Machine("pulp-open", cores=cores, **kw).load(
        assemble(src, filename="reset.s", family="xpulpv2", rvc=False))


def test_registers_at_reset():
    m = load("    nop\n" + EXIT)
    cfg = m.config
    for c in range(4):
        x = [m.reg(c, i) for i in range(32)]
        # sp: the top of the core's own stack (stack_in = tcdm: TCDM end - core x stack_size)
        assert x[2] == cfg.tcdm_base + cfg.tcdm_size - c * cfg.stack_size
        assert x[10] == (cfg.cluster_id << 5) | c                # a0 = mhartid
        assert [v for i, v in enumerate(x) if i not in (2, 10)] == [0] * 30
        assert all(m.freg(c, i) == 0.0 for i in range(32))
        assert m.CS[c * L.NCS + L.CS_PC] == m.program.entry        # pc


def test_no_stack_starts_with_sp_zero(tmp_path, capsys):
    """``--no-stack``: sp = 0 on every core (the program exits with sp >> 12 as its code)."""
    src = tmp_path / "sp.s"
    src.write_text("    .text\n    .globl _start\n_start:\n    srli a0, sp, 12\n    li a7, 93\n"
                   "    ecall\n")
    assert main(["run", "--quiet", "--cores", "2", "--no-stack", str(src)]) == 0
    # 0x10010000 (top of the 64 KiB TCDM at 0x10000000) >> 12, low 8 bits
    assert main(["run", "--quiet", "--cores", "1", str(src)]) == 0x10


def test_mret_to_user_mode_stays_in_machine_mode():
    """MPP is hard-wired to M: mret with MPP written as U returns in machine mode, where
    machine CSRs stay accessible, and ecall traps with mcause 11 (from M)."""
    m = load("""
    la t0, handler
    csrw mtvec, t0
    la t0, after
    csrw mepc, t0
    li t1, 0x1800
    csrc mstatus, t1          # MPP = U
    csrr s2, mstatus          # reads back M (3 << 11)
    mret
after:
    csrr s3, mstatus          # a machine CSR: no illegal-instruction trap
    ecall
handler:
    csrr s4, mcause
    csrw mtvec, zero          # no handler: the next ecall is the host's exit
    li a0, 0
""" + EXIT, cores=1)
    r = m.run()
    assert r.status == "exited" and r.fault is None
    assert (m.reg(0, "s2") >> 11) & 3 == 3
    assert (m.reg(0, "s3") >> 11) & 3 == 3
    assert m.reg(0, "s4") == 11                                   # environment call from M


def test_cli_documents_the_options_and_its_version(capsys):
    assert main(["run", "--help"]) == 0
    text = capsys.readouterr().out
    for option in ("--gdb", "--log-commits", "--signature", "--signature-granularity",
                   "--no-stack"):
        assert option in text
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("isasim ")
