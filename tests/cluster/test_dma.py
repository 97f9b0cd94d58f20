"""Cluster DMA: 2-D transfers, their timing, their bank traffic, and polling its status.

Timing model (isasim.devices, gvsoc-pulp mchan_v7_impl.cpp): the first data beat comes
``dma_setup_cycles``
idle cycles after the cycle of the command's last word; then one beat per cycle of
``dma_bandwidth`` bytes (8: mchan's two 32-bit TCDM ports), so a transfer of B bytes takes
setup + 1 + B / bandwidth cycles from its last command word to its completion event.
"""

from __future__ import annotations

import numpy as np
import pytest

from isasim import layout as L
from isasim.machine import Machine
from toolchain.asm import assemble

from .common import DMA, EU, EXIT, bank_traffic, events_of, per_core, run_asm, run_asm_traced, words

LINE, LINES, STRIDE = 32, 4, 64     # 4 lines of 32 bytes, 64 bytes apart in L2
LENGTH = LINE * LINES               # 128 bytes land contiguously in TCDM

CMD_L2_TO_TCDM = 1 << 17
CMD_INCR = 1 << 18
CMD_2D = 1 << 19
CMD_EVENT = 1 << 20


def gather_2d() -> str:
    """One core: a 2-D L2 -> TCDM gather, then a p.elw on the DMA event (cycles noted)."""
    cmd = CMD_L2_TO_TCDM | CMD_INCR | CMD_2D | CMD_EVENT | LENGTH
    return f"""
    .text
    .globl _start
_start:
    li s1, {EU:#x}            # 0
    li s2, {DMA:#x}           # 1-2 (lui + addi)
    li t0, 1 << 8             # 3
    sw t0, 0x8(s1)            # 4: listen to the DMA event
    la t3, dst                # 5-6
    la t4, src                # 7-8
    li t0, {cmd:#x}           # 9-10
    li t5, {LINE}             # 11
    li t6, {STRIDE}           # 12
    lw t1, 0(s2)              # 13: allocate a transfer id
    sw t0, 0(s2)              # 14: command word
    sw t3, 0(s2)              # 15: TCDM address
    sw t4, 0(s2)              # 16: L2 address
    sw t5, 0(s2)              # 17: 2-D line length
    sw t6, 0(s2)              # 18: 2-D stride (last word)
    csrr s3, mcycle           # 19-22 (a 4-cycle CSR)
    p.elw t0, 0x3c(s1)        # 23: sleep until the DMA event
    csrr s4, mcycle
""" + EXIT + f"""
    .data
src:
{words(range(STRIDE * LINES // 4))}
    .section .l1, "aw"
dst: .zero {LENGTH}
"""


@pytest.mark.parametrize("bandwidth, setup", [(8, 4), (4, 4), (8, 0)])
def test_2d_transfer_moves_the_lines_in_setup_plus_bytes_over_bandwidth(bandwidth, setup):
    """Last command word at cycle 18, so the first beat is at 18 + 1 + setup and the transfer
    completes after 128 / bandwidth beats (16 at 8 B/cycle: beats 23..38, event at 39).  The
    waiting core then pays the event unit's 6 + 2 and reads mcycle at end + 8 (47); it slept
    from the cycle after its p.elw (24)."""
    r, m, ev = run_asm_traced(gather_2d(), "single-core", dma_bandwidth=bandwidth,
                              dma_setup_cycles=setup)
    got = m.read("dst", LENGTH // 4)
    src = np.arange(STRIDE * LINES // 4).reshape(LINES, STRIDE // 4)
    assert (got == src[:, :LINE // 4].ravel()).all()
    (start,) = events_of(ev, L.TR_DMA_START)[:, 2]
    (end,) = events_of(ev, L.TR_DMA_END)[:, 2]
    assert start == 18 + 1 + setup
    assert end - start == LENGTH // bandwidth
    assert r.x[0, 19] == 19                         # s3
    assert r.x[0, 20] == end + 6 + 2                # s4
    assert r.category("dma_wait")[0] == end + 8 - 24


def test_tcdm_to_l2_transfer_writes_l2():
    """The other direction (command bit 17 clear): 64 bytes from TCDM to L2, 1-D."""
    cmd = CMD_INCR | CMD_EVENT | 64
    src = f"""
    .text
    .globl _start
_start:
    li s1, {EU:#x}
    li s2, {DMA:#x}
    li t0, 1 << 8
    sw t0, 0x8(s1)
    li t0, {cmd:#x}
    la t3, tcdm
    la t4, l2
    sw t0, 0(s2)
    sw t3, 0(s2)
    sw t4, 0(s2)
    p.elw t0, 0x3c(s1)
""" + EXIT + f"""
    .data
l2: .zero 64
    .section .l1, "aw"
tcdm:
{words(range(100, 116))}
"""
    _, m = run_asm(src, "single-core")
    assert m.read("l2", 16).tolist() == list(range(100, 116))


def test_dma_beats_take_the_bank_from_a_core():
    """A core loads bank 0 every cycle while the DMA writes 256 bytes to a TCDM buffer that
    starts on bank 0: beat k writes words 2k, 2k + 1, so beats 0, 8, 16, 24 use bank 0.  Round
    robin gives each of those cycles to the DMA (its port follows the core in the rotation,
    which last pointed after the core), so the core loses exactly 256 / 64 = 4 cycles, all to
    DMA port 0, and the transfer is not slowed (32 beats: first at 19, event at 51).  FIFO
    does the same (the DMA's request is never younger); policy none charges nothing."""
    cmd = CMD_L2_TO_TCDM | CMD_INCR | CMD_EVENT | 256
    src = f"""
    .text
    .globl _start
_start:
    li s1, {EU:#x}
    li s2, {DMA:#x}
    li t0, 1 << 8
    sw t0, 0x0(s1)
    la t3, dst
    la t4, src
    li t0, {cmd:#x}
    li t5, 0x10001000         # another row of bank 0
    sw t0, 0(s2)
    sw t3, 0(s2)
    sw t4, 0(s2)              # cycle 14: the first beat is at 19
""" + "    lw t1, 0(t5)\n" * 60 + """
    p.elw t0, 0x3c(s1)
""" + EXIT + f"""
    .data
src:
{words(range(64))}
    .section .l1, "aw"
    .p2align 6
dst: .zero 256
"""
    expected = {"round_robin": 4, "fifo": 4, "none": 0}
    for policy, lost in expected.items():
        r, m, ev = run_asm_traced(src, "single-core", conflict_policy=policy)
        assert r.symbols["dst"] % 64 == 0
        assert (m.read("dst", 64) == np.arange(64)).all()
        assert r.category("tcdm_conflict")[0] == lost
        assert r.conflicts[0, 0] == lost and r.conflicts.sum() == lost
        assert r.conflict_winners[0].tolist() == [0, lost, 0]     # [core 0, DMA 0, DMA 1]
        assert events_of(ev, L.TR_DMA_START)[:, 2].tolist() == [19]
        assert events_of(ev, L.TR_DMA_END)[:, 2].tolist() == [51]


def test_a_lone_core_polling_the_dma_status_sees_it_finish():
    """One core, no event: it polls the busy mask (STATUS) until its transfer's bit clears.

    Last command word at 11, beats at 16..23 (64 bytes); the poll loop (lw, load-use stall,
    and, taken bnez +2) reads the status at 14, 20 (busy) and 26 (done); then lw, stall, and,
    bnez, lw, addi (+1 stall), li, ecall: the core stops at 35 with exit code 0 (last word
    arrived).  Regression: the core used to run ahead of the DMA forever (a time-out)."""
    cmd = CMD_L2_TO_TCDM | CMD_INCR | 64
    src = f"""
    .text
    .globl _start
_start:
    li s2, {DMA:#x}
    la t3, dst
    la t4, src
    li t0, {cmd:#x}
    lw t6, 0(s2)              # transfer id
    sw t0, 0(s2)
    sw t3, 0(s2)
    sw t4, 0(s2)
    li t2, 1
    sll t2, t2, t6
1:  lw t1, 4(s2)              # busy mask
    and t1, t1, t2
    bnez t1, 1b
    lw a0, 60(t3)
    addi a0, a0, -15
    li a7, 93
    ecall
    .data
src:
{words(range(16))}
    .section .l1, "aw"
dst: .zero 64
"""
    r, _ = run_asm(src, "single-core", max_cycles=10_000)
    assert r.status == "exited" and r.exit_code == 0
    assert r.cycles[0] == 35


@pytest.mark.parametrize("seed", range(12))
def test_a_bank_serves_one_core_per_cycle_while_the_dma_competes(seed):
    """Read from the event log: in no cycle do two cores access the same bank, while the DMA's
    two-port beats compete for the same banks under round robin.  Regression: a beat that won
    one of its banks and lost the other gave up both, and then every core that had claimed the
    bank it won was granted that bank in the same cycle (44 of 200 such programs)."""
    source, cores, banks = bank_traffic(seed)
    r, m, ev = run_asm_traced(source, cores=cores, conflict_policy="round_robin")
    assert r.status == "exited"
    users: dict[tuple[int, int], int] = {}
    for _, core, start, length, state, slot in ev[ev[:, 0] == L.TR_RUN]:
        if state != L.C_INSTR:
            continue
        first = (m.slot_pc[slot] - r.symbols[f"core{core}"]) // 4
        for j in range(length):
            k = first + j
            if 0 <= k < len(banks[core]) and banks[core][k] >= 0:
                key = (int(start) + j, banks[core][k])
                users[key] = users.get(key, 0) + 1
    assert sum(1 for c in range(cores) for b in banks[c] if b >= 0) == sum(users.values())
    assert max(users.values()) == 1
    assert r.conflict_winners[:, cores:].sum() > 0    # the DMA did win some cycles


def push_transfers(n: int, size: int, dst: str, src: str) -> str:
    """Straight-line stores of ``n`` 1-D L2 -> TCDM transfers of ``size`` bytes (s2: DMA)."""
    return f"""
    li s5, {CMD_L2_TO_TCDM | CMD_INCR | size:#x}
    li s6, {size}
    la t3, {dst}
    la t4, {src}
""" + """
    sw s5, 0(s2)
    sw t3, 0(s2)
    sw t4, 0(s2)
    add t3, t3, s6
    add t4, t4, s6
""" * n


def test_commands_beyond_the_queues_wait_for_room():
    """17 transfers of 2 KiB from one core, pushed faster than the DMA moves them.  mchan takes
    the one in progress, 8 in its global queue and 2 in the core's queue: 11.  The 12th
    command's first store then waits, charged to dma_wait, until the first transfer's last
    beat frees a global slot (the cycle before its end event: the core's queue moves up and
    has room again); the 13th waits for the second transfer, and so on: 6 waits.  All 17 land.
    (A full queue once ended the run with a fault; mchan simply holds the core's request.)"""
    n, size = 17, 2048
    src = f"""
    .text
    .globl _start
_start:
    li s2, {DMA:#x}
{push_transfers(n, size, "dst", "src")}
1:  lw t1, 4(s2)              # busy mask
    bnez t1, 1b
""" + EXIT + f"""
    .data
src:
{words(range(size // 4 * n))}
    .section .l1, "aw"
dst: .zero {size * n}
"""
    r, m, ev = run_asm_traced(src, "single-core", max_cycles=100_000)
    assert r.status == "exited"
    assert (m.read("dst", size // 4 * n) == np.arange(size // 4 * n)).all()
    ends = np.sort(events_of(ev, L.TR_DMA_END)[:, 2])
    assert len(ends) == n
    waits = ev[(ev[:, 0] == L.TR_RUN) & (ev[:, 4] == L.C_DMA_WAIT)]
    assert len(waits) == n - 11
    assert (waits[:, 2] + waits[:, 3] == ends[:n - 11] - 1).all()
    assert r.category("dma_wait")[0] == waits[:, 3].sum() > 0


def test_the_core_queues_take_turns_into_a_full_global_queue():
    """Core 0 fills the DMA (11 transfers: 1 in progress, 8 global, 2 in its queue); cores 1
    and 2, started later, queue 2 each.  As transfers end and free global slots one at a time,
    the core queues move up in turn from the core after the last one served: the transfers
    after core 0's first nine run for cores 1, 2, 0, 1, 2, 0 (arrival order would be
    0, 0, 1, 1, 2, 2)."""
    size = 2048                   # 256 cycles a transfer: the queues fill long before one ends
    delay = "    li t0, 30\n1:  addi t0, t0, -1\n    bnez t0, 1b\n"
    bodies = [push_transfers(11, size, "dst0", "src") + "    j idle\n"] + [
        delay + push_transfers(2, size, f"dst{c}", "src") + "    j idle\n" for c in (1, 2)]
    source = per_core(f"    li s2, {DMA:#x}\n", bodies) + """idle:
    lw t1, 4(s2)              # busy mask
    bnez t1, idle
""" + EXIT + f"""
    .data
src:
{words(range(size // 4 * 11))}
    .section .l1, "aw"
dst0: .zero {size * 11}
dst1: .zero {size * 2}
dst2: .zero {size * 2}
"""
    r, m, ev = run_asm_traced(source, "pulp-open", max_cycles=100_000, cores=3)
    assert r.status == "exited"
    starts = events_of(ev, L.TR_DMA_START)
    order = starts[np.argsort(starts[:, 2]), 1].tolist()
    assert order == [0] * 9 + [1, 2, 0, 1, 2, 0]
    for c, k in ((0, 11), (1, 2), (2, 2)):
        assert (m.read(f"dst{c}", size // 4 * k) == np.arange(size // 4 * k)).all()


def test_a_transfer_id_request_waits_while_all_16_are_busy():
    """Core 0 allocates all 16 transfer ids with CMD reads (and pushes nothing); its 17th read
    waits, charged to dma_wait, until core 1 frees id 5 through STATUS, then returns 5.  mchan
    stalls the read the same way; an id was once handed out twice."""
    reads = "    lw t1, 0(s2)\n" * 16
    bodies = [reads + """    csrr s3, mcycle
    lw s4, 0(s2)              # 17th: waits for a free id
    csrr s5, mcycle
    la t0, out
    sw s4, 0(t0)
    sw s3, 4(t0)
    sw s5, 8(t0)
    j finish
""", """    li t0, 200
1:  addi t0, t0, -1
    bnez t0, 1b
    csrr s3, mcycle
    li t1, 1 << 5
    sw t1, 4(s2)              # free id 5
    la t0, out
    sw s3, 12(t0)
    j finish
"""]
    source = per_core(f"    li s2, {DMA:#x}\n", bodies) + "finish:\n" + EXIT + """
    .section .l1, "aw"
out: .zero 16
"""
    r, m = run_asm(source, "pulp-open", max_cycles=100_000, cores=2)
    assert r.status == "exited"
    tid, before, after, freed = (int(v) for v in m.read("out", 4, dtype=np.uint32))
    assert tid == 5
    # core 1 frees the id with its store at freed + 5 (csrr mcycle: 4 cycles, li, sw); core 0's
    # read is granted in that cycle or the next (two device accesses in one cycle go in the
    # order the cores run)
    granted = after - 1
    assert granted in (freed + 5, freed + 6)
    # every cycle from its first try (4 after `before`, the csrr's cycles) up to the grant
    assert r.category("dma_wait")[0] == granted - (before + 4)


L2_SRC, TCDM_SRC = 0x1C010000, 0x10001000     # read-only sources of the random transfers


def random_transfers(seed: int) -> tuple[str, int, list[tuple[bool, int, int, int, int, int]]]:
    """1 to 8 cores each pushing 1 to 3 random transfers (either direction, 1-D or 2-D) from
    read-only sources (L2_SRC, TCDM_SRC) to disjoint destinations, then polling until the DMA
    is idle: (source, cores, [(to TCDM, TCDM address, L2 address, length, line, stride)])."""
    rng = np.random.default_rng(seed)
    cores = int(rng.choice([1, 2, 4, 8]))
    transfers, bodies = [], []
    tcdm_dst, l2_dst = TCDM_SRC + 0x1000, L2_SRC + 0x10000
    for _ in range(cores):
        body = ""
        for _ in range(int(rng.integers(1, 4))):
            to_tcdm, two_d = bool(rng.integers(0, 2)), bool(rng.integers(0, 2))
            length = 4 * int(rng.integers(1, 64))
            line = 4 * int(rng.integers(1, 16)) if two_d else length
            stride = line + 4 * int(rng.integers(0, 8)) if two_d else length
            if to_tcdm:
                tcdm, l2 = tcdm_dst, L2_SRC + 4 * int(rng.integers(0, 256))
                tcdm_dst += length
            else:
                tcdm, l2 = TCDM_SRC + 4 * int(rng.integers(0, 256)), l2_dst
                l2_dst += -(-length // line) * stride
            transfers.append((to_tcdm, tcdm, l2, length, line, stride))
            cmd = (CMD_L2_TO_TCDM if to_tcdm else 0) | CMD_INCR | (CMD_2D if two_d else 0) | length
            for word in (cmd, tcdm, l2) + ((line, stride) if two_d else ()):
                body += f"    li t0, {word:#x}\n    sw t0, 0(s2)\n"
        bodies.append(body + "    j idle\n")
    source = per_core(f"    li s2, {DMA:#x}\n", bodies) + """idle:
    lw t1, 4(s2)              # busy mask
    bnez t1, idle
""" + EXIT
    return source, cores, transfers



@pytest.mark.parametrize("seed", range(6))
def test_random_transfers_move_exactly_their_bytes(seed):
    """Random transfers from several cores at once (see ``random_transfers``), under a random
    arbitration policy: every destination byte is what a per-byte model of the transfer says
    (TCDM side contiguous, external side in lines of ``line`` bytes ``stride`` apart)."""
    source, cores, transfers = random_transfers(seed)
    rng = np.random.default_rng(seed)
    l2_src = rng.integers(0, 256, 1 << 12, dtype=np.uint8)
    tcdm_src = rng.integers(0, 256, 1 << 12, dtype=np.uint8)
    program = assemble(source, filename="dma.s", family="xpulpv2", rvc=False)
    m = Machine("pulp-open", cores=cores,
                conflict_policy=str(rng.choice(["round_robin", "fifo", "none"]))).load(program)
    m.write(L2_SRC, l2_src)
    m.write(TCDM_SRC, tcdm_src)
    r = m.run(100_000)
    r.check_invariant()
    assert r.status == "exited"
    for to_tcdm, tcdm, l2, length, line, stride in transfers:
        k = np.arange(length)
        ext = l2 + (k // line) * stride + k % line
        if to_tcdm:
            assert (m.read(tcdm, length, np.uint8) == l2_src[ext - L2_SRC]).all()
        else:
            got = np.array([m.read(int(a), 1, np.uint8)[0] for a in ext])
            assert (got == tcdm_src[tcdm - TCDM_SRC + k]).all()


def load_during_transfer(delay: int) -> str:
    """One core starts a 64-byte L2 -> TCDM transfer, loads another word of the destination
    (so that it resumes from a scheduling round while the transfer is pending), waits
    ``delay`` nops, then loads word 1 (written by the transfer's first beat) into s3."""
    cmd = CMD_L2_TO_TCDM | CMD_INCR | 64
    return f"""
    .text
    .globl _start
_start:
    li s2, {DMA:#x}
    li t0, {cmd:#x}
    la t3, dst
    la t4, src
    sw t0, 0(s2)
    sw t3, 0(s2)
    sw t4, 0(s2)
    lw s4, 60(t3)
""" + "    nop\n" * delay + """
    lw s3, 4(t3)
""" + EXIT + f"""
    .data
src:
{words(range(100, 116))}
    .section .l1, "aw"
dst: .zero 64
"""


def test_a_load_meeting_the_beat_that_writes_its_word_reads_the_same_under_every_policy():
    """The beat and the load meet in one cycle for one of the delays.  FIFO gives the bank to
    the DMA (its request is never younger), so the load sees the new word; with no conflicts
    (policy none) both happen in that cycle, and the beat's write comes first there too: the
    value a program reads must not depend on whether the TCDM models conflicts.  (The core met
    the first beat at its horizon, and under policy none went ahead of it, reading 0.)"""
    seen = {}
    for policy in ("fifo", "none"):
        seen[policy] = [int(run_asm(load_during_transfer(d), "single-core",
                                    conflict_policy=policy)[0].x[0, 19]) for d in range(12)]
    assert seen["fifo"][0] == 0 and seen["fifo"][-1] == 101    # the sweep spans the beat
    assert seen["none"] == seen["fifo"]
