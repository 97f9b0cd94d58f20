"""PULP performance counters read by the guest (PCER 0xCC0, PCMR 0xCC1, PCCR(n) 0x780 + n).

The guest configures the counters like ``pi_perf_conf`` / ``pi_perf_reset`` / ``pi_perf_start``
(PCER, a write to PCCR31 which sets every counter, PCMR), runs a region, stops them, and reads
all 21 RI5CY events into registers; the test compares them with ``RunResult.perf`` (gvsoc-core
archi/riscv/pcer_v2.h).  Only instructions that cause no event run outside the region, so every
event counter
must be equal, and CYCLES / INSTR differ by the hand-counted instructions outside it.
"""

from __future__ import annotations

import numpy as np

from isasim import layout as L

from .common import EU, EXIT, run_asm

# registers receiving PCCR0..20 (a0 and a7 are needed for the exit, sp is left alone)
REGS = (1, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16, 18, 19, 20, 21, 22, 23, 24)
PRO = 6              # instructions before the counting origin (li, csrw, csrwi, 3 nops)
EPI = 1 + 21 + 3     # stop, 21 reads, exit

REGION = """
    .text
    .globl _start
_start:
    li t0, ~(1 << 7)          # every event but JUMP
    csrw pcer, t0
    csrwi pcmr, 1             # start
    nop
    nop
    nop
    csrwi 0x79f, 0            # PCCR31: every counter := 0, counting goes on (cycle 6)
    lui t1, 0x10000
    lw t2, 0(t1)              # 8 cores x 4 loads on bank 0
    lw t2, 0(t1)
    lw t2, 0(t1)
    lw t2, 0(t1)
    la t3, l2buf
    lw t4, 0(t3)              # L2 load
    addi t4, t4, 1            # load-use stall
    sw t4, 4(t3)              # L2 store
    li t5, 2
1:  addi t5, t5, -1
    bnez t5, 1b               # 2 branches, 1 taken
    jal ra, 2f                # 1 jump (not counted: PCER bit 7 clear)
2:  csrwi pcmr, 0             # stop: counters freeze
""" + "".join(f"    csrr x{r}, {0x780 + i:#x}\n" for i, r in enumerate(REGS)) + EXIT + """
    .data
l2buf: .word 5, 0
"""


def guest_counters(x: np.ndarray) -> dict[str, np.ndarray]:
    return {name: x[:, REGS[i]].astype(np.int64) for i, name in enumerate(L.PCER_NAMES)}


def test_guest_counters_equal_run_result_perf():
    """Per core c, the region (from the PCCR31 write at cycle 6 to the stop) holds:
    lui; 4 TCDM loads granted at 8 + 8k + c (TCDM_CONT = c + 7 * 3 = 21 + c); la; an L2 load
    (LD_EXT_CYC 10) and its use (LD_STALL 1); an L2 store (ST_EXT_CYC 10); li and two turns of
    addi / bnez (BRANCH 2, TAKEN_BRANCH 1, +2); jal (+1): 17 instructions, and the stop issues
    at 68 + c, so CYCLES = 62 + c.  Events outside the region: none, so guest == perf for every
    counted event; perf INSTR = 6 + 17 + 25 and perf CYCLES adds those 31 cycles only: like RI5CY's
    clock-gated counter it does not count the idle end (core c exits 7 - c cycles before
    core 7), nor barrier or DMA sleep."""
    r, _ = run_asm(REGION)
    g = guest_counters(r.x)
    c = np.arange(8)
    for name in L.PCER_NAMES:
        if name not in ("CYCLES", "INSTR", "JUMP"):
            assert g[name].tolist() == r.perf[name].tolist(), name
    assert g["INSTR"].tolist() == [17] * 8
    assert (r.perf["INSTR"] - g["INSTR"]).tolist() == [PRO + EPI] * 8
    assert g["CYCLES"].tolist() == (62 + c).tolist()
    assert (r.perf["CYCLES"] - g["CYCLES"]).tolist() == [PRO + EPI] * 8
    assert g["JUMP"].tolist() == [0] * 8 and r.perf["JUMP"].tolist() == [1] * 8
    assert g["TCDM_CONT"].tolist() == (21 + c).tolist()
    expected = {"LD": 5, "ST": 1, "LD_STALL": 1, "BRANCH": 2, "TAKEN_BRANCH": 1, "LD_EXT": 1,
                "ST_EXT": 1, "LD_EXT_CYC": 10, "ST_EXT_CYC": 10, "RVC": 0, "IMISS": 0}
    for name, v in expected.items():
        assert g[name].tolist() == [v] * 8, name


def test_counter_write_read_back_and_freeze():
    """A PCCR write sets one live counter (INSTR := 100 at the csrw, which is then counted);
    PCER / PCMR read back; a stopped counter keeps its value."""
    src = """
    .text
    .globl _start
_start:
    li t0, 3
    csrw pcer, t0             # CYCLES and INSTR
    csrwi pcmr, 1
    li t0, 100
    csrw 0x781, t0            # INSTR := 100
    nop
    nop
    csrr s2, 0x781            # 100 + csrw + 2 nops = 103
    csrr s3, pcer
    csrr s4, pcmr
    csrwi pcmr, 0
    csrr s5, 0x780            # frozen CYCLES ...
    nop
    csrr s6, 0x780            # ... unchanged
""" + EXIT
    r, _ = run_asm(src, "single-core")
    assert r.x[0, 18] == 103
    assert (r.x[0, 19], r.x[0, 20]) == (3, 1)
    assert r.x[0, 21] == r.x[0, 22] > 0


def test_active_cycles_exclude_sleep_in_a_barrier():
    """Core 1 spins ~100 cycles before a barrier, so core 0 sleeps in it; core 0's PCCR0 over
    the region must not count those sleeping cycles (RI5CY's CYCLES event only counts while the
    core's clock runs; pmsis: 'cycles the core was active (not sleeping)')."""
    src = f"""
    .text
    .globl _start
_start:
    li s1, {EU:#x}
    li t0, 3
    sw t0, 0x200(s1)
    sw t0, 0x20c(s1)
    li t0, 1 << 16
    sw t0, 0x8(s1)
    li t0, 1
    csrw pcer, t0
    csrwi pcmr, 1
    li t1, 50
    mul t1, t1, a0
1:  addi t1, t1, -1
    bgez t1, 1b
    p.elw t0, 0x21c(s1)
    csrwi pcmr, 0
    csrr s2, 0x780
""" + EXIT
    r, _ = run_asm(src, cores=2)
    sleep = r.category("barrier")[0]
    assert sleep > 100
    # active: csrwi, li, mul, addi, bgez (not taken), p.elw = 6 cycles, plus the wake-up
    assert r.x[0, 18] < 20


def test_jmp_stall_counts_only_jalr_hazards():
    """A plain jal has its normal 2-cycle cost but no hazard: JMP_STALL stays 0; a jalr whose
    rs1 was written by the previous instruction adds one hazard cycle."""
    src = """
    .text
    .globl _start
_start:
    jal ra, 1f
1:  la t0, 2f
    jalr zero, 0(t0)
2:
""" + EXIT
    r, _ = run_asm(src, "single-core")
    assert r.perf["JMP_STALL"][0] == 1
