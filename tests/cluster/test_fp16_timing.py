"""Cycles of the smallFloat instructions, counted by hand from the presets' FPU latencies.

pulp-open (GVSoC pulp-open's FPU, gvsoc isa_smallfloats.py tags and gvsoc-pulp
pulp_iss_wrapper.cpp): every smallFloat operation, scalar or packed, has a 1-cycle latency
(fpu_latency = fpu_other_latency = 0: a dependent instruction issues in the next cycle), scalar
fdiv/fsqrt.h/.ah 10 cycles (fdiv16_latency, tag sfdiv), vfdiv/vfsqrt 14 (fdiv_latency, tag fdiv);
a division occupies the core's FPU for its latency.  gvsoc-2022: 9 for every division.
"""

from __future__ import annotations

import pytest

from isasim.machine import Machine
from toolchain.asm import assemble

from .common import EXIT

PROGRAM = """
    .text
    .globl _start
_start:
    fdiv.h fa0, fa1, fa2         # issue 0; result ready at 0 + D16
    fadd.h fa3, fa0, fa0         # waits D16 - 1 cycles (fpu_dep)
    vfmac.h fa4, fa5, fa6        # next cycle: independent, 1-cycle latency
    vfmac.h fa4, fa4, fa6        # uses it at once: no stall
    vfdiv.ah fa5, fa5, fa6       # packed division: D cycles
    vfadd.ah fa6, fa5, fa5       # waits D - 1 cycles (fpu_dep)
    fcvt.s.h fa7, fa3            # 1 cycle
    vfdotpex.s.h fa7, fa4, fa4   # uses fa7 at once: no stall
    fsqrt.ah fa1, fa2            # D16
    fmadd.ah fa2, fa1, fa1, fa1  # waits D16 - 1
    csrr s2, mcycle              # 10 instructions before it: 10 + (D16 - 1) * 2 + (D - 1)
""" + EXIT


@pytest.mark.parametrize("config, d16, d", [("pulp-open", 10, 14), ("gvsoc-2022", 9, 9)])
def test_smallfloat_latencies(config, d16, d):
    isa = "rv32imfc_xpulpv2_xf16_xf16alt_xfvec"
    # ideal fetch: the count is of the FPU's latencies, not of instruction-cache refills
    m = Machine(config, cores=1, xpulp=isa, icache="ideal").load(
        assemble(PROGRAM, family=isa, rvc=False))
    r = m.run()
    r.check_invariant()
    stall = 2 * (d16 - 1) + (d - 1)
    assert r.category("fpu_dep").tolist() == [stall]
    assert r.category("fpu_struct").tolist() == [0]
    assert r.x[0, 18] == 10 + stall


def test_an_instruction_the_core_lacks_is_a_guest_fault():
    """A program built for the full PULP set, run on a core selected as plain RV32IMFC: the
    first vfmac.h stops the run with a report naming the core, pc, word and extension."""
    src = """
    .text
    .globl _start
_start:
    fadd.s fa0, fa1, fa2
    vfmac.h fa0, fa1, fa2
""" + EXIT
    program = assemble(src, family="xpulpv2", rvc=False)
    r = Machine("single-core").load(program, family="rv32imfc").run()
    assert r.status == "fault"
    text = r.fault.format()
    assert "illegal instruction on core 0 at pc 0x1c000004" in text, text
    assert "vfmac.h fa0,fa1,fa2 of extension xfvec" in text and "rv32imfc" in text, text


@pytest.mark.parametrize("half_in_x, want", [("sign", 0xFFFFC000), ("zero", 0x0000C000)])
def test_16_bit_results_in_x_registers(half_in_x, want):
    """The single register file: fsub.h 1.5 - 3.5 = -2.0 (0xc000) is written sign-extended
    (Zhinx, as Spike) or zero-extended (GVSoC, the gvsoc-2022 preset's half_in_x)."""
    src = """
    .text
    .globl _start
_start:
    li a1, 0x3e00                # 1.5
    li a2, 0x4300                # 3.5
    fsub.h a0, a1, a2
    mv s2, a0
""" + EXIT
    isa = "rv32imc_zfinx_xpulpv2_xf16_xf16alt_xfvec"
    program = assemble(src, family=isa, rvc=False)
    r = Machine("single-core", half_in_x=half_in_x).load(program).run()
    assert r.x[0, 18] == want
    assert Machine("gvsoc-2022").config.half_in_x == "zero"
