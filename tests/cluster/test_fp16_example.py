"""examples/fp16/vfmac.s: a packed binary16 fused multiply-add loop on 8 cores, checked against
numpy float16, and its cycles against a hand count.

Reference: each output lane is acc + w * x rounded once to binary16 (round to nearest even).
The float64 product of two binary16 values is exact (22 significant bits) and so is its float64
sum with a binary16 value of the example's magnitudes (|values| <= 8, no subnormal products), so
numpy's float64 -> float16 conversion (correctly rounded) gives the fused result.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from isasim import layout as L
from isasim.machine import Machine
from toolchain.asm import AsmError

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "fp16" / "vfmac.s"
ZFINX = "rv32imc_zfinx_xpulpv2_xf16_xf16alt_xfvec"
N = 512


def test_vfmac_example_matches_numpy_float16():
    # ideal fetch: the hand count below is of instructions and stalls, not of cache refills
    m = Machine("pulp-open", xpulp=ZFINX, icache="ideal").load(EXAMPLE)
    x = m.read("x", N, np.float16).astype(np.float64)
    w = m.read("w", N, np.float16).astype(np.float64)
    acc = m.read("acc", N, np.float16).astype(np.float64)
    r = m.run()
    assert r.status == "exited" and r.exit_code == 0
    got = m.read("acc", N, np.uint16)
    want = (acc + w * x).astype(np.float16).view(np.uint16)
    assert np.array_equal(got, want), np.nonzero(got != want)[0][:8]
    # and not trivially: many lanes round (the exact sum is not a binary16 value)
    assert np.count_nonzero((acc + w * x) != (acc + w * x).astype(np.float16)) > N // 2
    # Hand count per core: 20 set-up instructions (csrr, andi, lui, li, 2 sw, lui, sw, slli,
    # 3 x (la = auipc + addi, add), li, lp.setup), 16 iterations of the 10-instruction body,
    # then p.elw, li, li, ecall: 184.  The body never uses a value loaded by the instruction just
    # before it, vfmac.h has a 1-cycle result latency on pulp-open (no fpu_dep stall), and the
    # interleaved words keep the cores on different banks: every cycle is an instruction but
    # the barrier wait.
    assert r.instret.tolist() == [184] * 8
    for cat in ("load_use", "tcdm_conflict", "fpu_dep", "fpu_struct"):
        assert r.category(cat).tolist() == [0] * 8, cat
    assert (r.cycles - r.category("barrier")).tolist() == [184] * 8


def test_vfmac_example_needs_the_single_register_file():
    """With separate f registers the example does not assemble: vfmac.h's operands must then be
    f registers, and the error names the operand."""
    with pytest.raises(AsmError) as info:
        Machine("pulp-open").load(EXAMPLE)
    assert "vfmac.h a2, a0, a1" in str(info.value)
    assert "expected a floating-point register, got 'a2'" in str(info.value)


def test_translated_runs_leave_smallfloat_to_the_loop():
    """isasim.translate compiles no smallFloat instruction: every run of the example stops
    before vfmac.h, and the loop executes it (same results with translate=True by that)."""
    from isasim import opcodes as O
    from isasim.translate import find_runs

    m = Machine("pulp-open", xpulp=ZFINX).load(EXAMPLE)
    code = m.code.reshape(-1, L.NF)
    runs = find_runs(code, m.slot_pc, [0], fpu_shared=False)
    assert runs, "the example has straight-line code to translate"
    ops = {int(code[s, L.F_OP]) for run in runs for s in run.slots}
    assert not any(O.OP_SF_FIRST <= op <= O.OP_SF_LAST for op in ops)
    assert any(O.OP_SF_FIRST <= int(op) <= O.OP_SF_LAST for op in code[:, L.F_OP])
