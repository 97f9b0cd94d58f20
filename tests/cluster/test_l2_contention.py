"""L2 accesses of several cores in the same cycle (``l2_contention``; docs/cycle-model.md).

Rule (``axi``): the cluster reaches L2 through one AXI port, whose read request channel takes
one core load a cycle and whose write request channel one core store a cycle, arbitrated like a
TCDM bank; a core that loses waits a cycle (``ext_mem``) and asks again.  ``none`` (GVSoC's
routers have no bandwidth limit): every access pays ``l2_latency`` alone.  All cores start in
the same cycle and run the same code, so their accesses meet.
"""

from __future__ import annotations

import pytest

from isasim.config import load_preset

from .common import EXIT, run_asm

LOADS = """
    .text
    .globl _start
_start:
    la s2, buf
    lw t1, 0(s2)
""" + EXIT + """
    .data
buf: .word 1, 2
"""


@pytest.mark.parametrize("cores", [2, 8])
def test_loads_in_one_cycle_take_turns_on_the_read_channel(cores):
    # pulp-open, l2_latency 10: the k-th load served waits k cycles first, then 10:
    # ext_mem = 10 + k, k = 0 .. cores - 1 (2 cores: 10, 11; 8 cores: 10 .. 17)
    r, _ = run_asm(LOADS, cores=cores, l2_contention="axi")
    assert sorted(r.category("ext_mem").tolist()) == [10 + k for k in range(cores)]
    # none: 10 each, whatever the others do
    r, _ = run_asm(LOADS, cores=cores, l2_contention="none")
    assert r.category("ext_mem").tolist() == [10] * cores


@pytest.mark.parametrize(("preset", "ext_mem"), [("pulp-open", [10 + k for k in range(8)]),
                                                 ("gvsoc-2022", [4] * 8)])
def test_each_preset_contends_as_its_source_does(preset, ext_mem):
    # pulp-open: the RTL's one AXI port (axi), 10 .. 17 as above; gvsoc-2022: l2_latency 4, no
    # limit on its routers (none).  run_asm defaults to none: pass the preset's own setting.
    mode = load_preset(preset).l2_contention
    r, _ = run_asm(LOADS, preset, cores=8, l2_contention=mode)
    assert sorted(r.category("ext_mem").tolist()) == ext_mem


LOAD_AND_STORE = """
    .text
    .globl _start
_start:
    la s2, buf
    csrr a0, mhartid
    bnez a0, 1f             # core 0: not taken (1 cycle), core 1: taken (1 + 2)
    nop
    nop
    lw t1, 0(s2)            # core 0, the cycle after bnez + 2
    j 2f
1:  sw a0, 4(s2)            # core 1, the same cycle
2:
""" + EXIT + """
    .data
buf: .word 1, 2
"""


def test_a_load_and_a_store_use_their_own_channels():
    # the read and the write channel each take a request in the same cycle: 10 cycles each
    r, _ = run_asm(LOAD_AND_STORE, cores=2, l2_contention="axi")
    assert r.category("ext_mem").tolist() == [10, 10]
    # two stores meet: 10 and 11
    r, _ = run_asm(LOAD_AND_STORE.replace("lw t1, 0(s2)", "sw t1, 0(s2)"), cores=2,
                   l2_contention="axi")
    assert sorted(r.category("ext_mem").tolist()) == [10, 11]
