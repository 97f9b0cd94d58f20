"""Bad input on the SoC: an access to a SoC address the model does not implement is a guest
fault naming the address and the peripheral range (never a silent zero), the FC cannot use the
cluster cores' per-core event unit, and a program that sleeps with nothing to wake it is
reported, not left hanging.  The programs are assembled by isasim's toolchain (no GCC)."""

from __future__ import annotations

import pytest

from isasim import layout as L
from isasim.machine import Machine
from toolchain.asm import assemble


def run(body: str):
    source = f"""
    .text
    .globl _start
_start:
{body}
    li t0, 0x1A1040A0
    li t1, 0x80000000
    sw t1, 0(t0)
"""
    machine = Machine("pulp-open-soc").load(assemble(source, filename="soc_fault.s",
                                                     family="xpulpv2", rvc=False))
    result = machine.run(100_000)
    result.check_invariant()
    return result


@pytest.mark.parametrize("address, store, what", [
    (0x1A102000, True, "uDMA (not modelled), 0x1a102000..0x1a103fff"),
    (0x1A101004, False, "GPIO (not modelled), 0x1a101000..0x1a101fff"),
    (0x1A000010, False, "boot ROM (not modelled), 0x1a000000..0x1a03ffff"),
    (0x1A104200, False, None),                # SoC control: registers 0x00..0xFC only
    (0x1A109828, True, "FC interrupt controller, 0x1a109800..0x1a109fff"),
    (0x1A180000, True, "SoC window 0x1a000000..0x1bffffff, no peripheral there"),
    (0x10200100, True, "cluster control unit, 0x10200000..0x102003ff"),
])
def test_unimplemented_soc_address_faults(address, store, what):
    access = "sw t1, 0(t0)" if store else "lw t1, 0(t0)"
    r = run(f"""
    li t0, {address:#x}
    li t1, 5
    {access}
""")
    assert r.status == "fault", r.stdout
    f = r.fault
    assert f.core == 8 and f.kind == "device misuse"
    assert f"register {address:#010x}" in f.detail
    if what is not None:
        assert what in f.detail
    else:
        assert "SoC control, 0x1a104000..0x1a104fff" in f.detail
    assert "no register of the SoC model at this address" in f.detail


@pytest.mark.parametrize("body, why", [
    ("li t0, 0x1A1040A0\n    sb zero, 0(t0)", "32-bit accesses only"),
    ("li t0, 0x10204000\n    lw t1, 0(t0)",
     "fabric controller has no access to the cluster's event unit"),
])
def test_refused_device_access(body, why):
    r = run("    " + body)
    assert r.status == "fault"
    assert why in r.fault.detail


def test_fc_asleep_with_nothing_to_wake_it():
    r = run("""
    wfi
""")
    assert r.status == "deadlock"
    assert r.fault.kind == "all cores asleep"
    assert any("core 8 sleeps in wfi" in w for w in r.fault.waiting)
    assert any("core 0 was never started" in w for w in r.fault.waiting)


def test_exit_status_and_ends_every_core():
    """The end of computation stops the run at once, with bits 30..0 as the exit status, even
    while cluster cores still run (started here on an endless loop)."""
    source = """
    .text
    .globl _start
_start:
    csrr t0, mhartid
    srli t0, t0, 5
    li t1, 31
    bne t0, t1, spin
    li t0, 0x10200000
    la t1, _start
    sw t1, 0x40(t0)
    li t1, 1
    sw t1, 8(t0)
    li t0, 0x1A1040A0
    li t1, 0x80000000 | 42
    sw t1, 0(t0)
spin:
    j spin
"""
    machine = Machine("pulp-open-soc").load(assemble(source, filename="soc_exit.s",
                                                     family="xpulpv2", rvc=False))
    r = machine.run(1_000_000)
    r.check_invariant()
    assert (r.status, r.exit_code) == ("exited", 42)
    # core 0 was started: it ran or waited for its first instruction-cache refill (18 cycles
    # under the preset's GVSoC icache) when the FC ended the run
    assert r.instret[0] > 0 or r.categories[0][L.C_IMISS] > 0
    assert r.cycles[0] == r.cycles[8] < 100
