"""A tohost write ends the whole run at once, at the writer's cycle, on every core."""

from __future__ import annotations

from isasim.machine import Machine
from toolchain.asm import assemble

# core 0 counts down 100 times, then writes tohost (exit code 0); cores 1-7 spin in `j .`
SPIN_EXIT = """
    .option norvc
    .text
    .globl _start
_start:
    bnez a0, spin
    li t3, 100
1:  addi t3, t3, -1
    bnez t3, 1b
    la t0, tohost
    li t1, (3 << 1) | 1
    sw t1, 0(t0)
    sw zero, 4(t0)
spin: j spin
    .data
    .align 3
    .globl tohost
tohost: .word 0, 0
fromhost: .word 0, 0
"""


# ideal fetch: the hand counts below are of instructions, branches and L2 stores; the
# instruction cache's refills are tests/cluster/test_icache.py's
IDEAL = {"icache": "ideal"}


def run(source: str, cores: int = 8, **kw):
    program = assemble(source, filename="exit.s", family="xpulpv2", rvc=False)
    m = Machine("pulp-open", cores=cores, **IDEAL, **kw).load(program)
    r = m.run()
    r.check_invariant()
    return r


def test_tohost_write_by_core_0_ends_every_core_there():
    r = run(SPIN_EXIT)
    assert r.status == "exited" and r.exit_code == 3
    # pulp-open: 1-cycle ALU ops, taken branch +2, jump +1, L2 store +10 (config preset).
    # Core 0: bnez (not taken) 1 + li 1 + 100 x addi 100 + 100 x bnez 100 (99 taken: +198)
    # + la (auipc, addi) 2 + li 1 + two L2 stores 2 x (1 + 10) = 425: the second store (the
    # high word of tohost) completes the HTIF exit at E = 425.
    E = 425
    assert list(r.cycles) == [E] * 8
    # Cores 1-7: bnez taken (0 -> 3), then `j .` fetched at 3, 5, ..., 423 (the last one fetched
    # before E): 211 jumps, the last one ending at 425 = E.
    assert int(r.instret[0]) == 207
    assert list(r.instret[1:]) == [1 + 211] * 7


def test_tohost_exit_is_the_same_in_any_window_size(monkeypatch):
    """The exact end does not depend on where the run was paused and replayed."""
    from isasim import runcontrol

    base = run(SPIN_EXIT)
    for window in (1, 7, 64, 300):
        monkeypatch.setattr(runcontrol, "WINDOW", window)
        r = run(SPIN_EXIT)
        assert list(r.cycles) == list(base.cycles)
        assert list(r.instret) == list(base.instret)


def test_a_core_that_spins_on_a_flag_ends_with_the_writer():
    """Cores polling a TCDM flag (shared loads) stop at the exit too, not at the cycle limit."""
    src = SPIN_EXIT.replace("spin: j spin", "spin: la t4, flag\n2:  lw t5, 0(t4)\n    beqz t5, 2b\n"
                            "    j 2b").replace(".data", ".section .l1, \"aw\"\nflag: .word 0\n"
                                                "    .data")
    r = run(src, max_cycles=100_000)
    assert r.status == "exited" and r.exit_code == 3
    assert max(r.cycles) < 440


def test_traced_exit_logs_each_cycle_once(monkeypatch):
    """The event log of a replayed window is handed on once: every core's runs cover its
    cycles exactly."""
    import numpy as np

    from isasim import layout as L
    from isasim import runcontrol

    monkeypatch.setattr(runcontrol, "WINDOW", 50)
    program = assemble(SPIN_EXIT, filename="exit.s", family="xpulpv2", rvc=False)
    m = Machine("pulp-open", cores=8, **IDEAL).load(program)
    chunks = []
    m.enable_trace(chunks.append, buffer_records=256)
    r = m.run()
    records = np.concatenate(chunks)
    runs = records[records[:, 0] == L.TR_RUN]
    for c in range(8):
        assert int(runs[runs[:, 1] == c, 3].sum()) == int(r.cycles[c]) == 425
