"""Translated code on the SoC: the cluster cores run their loops translated, the fabric controller
(FC) always in the loop (it reaches the TCDM over the SoC interconnect, with its latency, which
translated code's accesses do not model).

Every bare-metal example is run with every run translated (``ISASIM_TRANSLATE=all``, at load)
and interpreted, and every figure must be equal: output, exit, cycles, instructions,
categories, the per-instruction profile, registers, conflicts.  A program of the FC alone
loading TCDM words in a loop checks that the FC stays in the loop (translated, its loads would
take the cluster cores' one-cycle bank path).
"""

from __future__ import annotations

import pytest

from isasim import layout as L
from isasim.machine import Machine
from isasim.result import RunResult
from toolchain.asm import assemble

from .common import builder, needs_gcc

# the FC (it starts alone at the entry) sums 200 TCDM words, then ends the computation
FC_TCDM_LOOP = """
    .text
    .globl _start
_start:
    li t0, 0x10000000
    li t1, 200
    li t3, 0
1:  lw t2, 0(t0)
    add t3, t3, t2
    addi t0, t0, 4
    addi t1, t1, -1
    bnez t1, 1b
    li t0, 0x1A1040A0           # SoC control, core status: the end of computation
    li t1, 0x80000000
    sw t1, 0(t0)
2:  j 2b
"""


def figures(r: RunResult) -> tuple:
    return (r.status, r.exit_code, r.stdout, r.cycles.tolist(), r.instret.tolist(),
            r.categories.tolist(), r.profile_count.tolist(), r.profile_stall.tolist(),
            r.x.tolist(), r.conflicts.tolist())


def run_both(program, monkeypatch, **overrides) -> tuple[RunResult, RunResult]:
    """(every run translated, interpreted)"""
    monkeypatch.setenv("ISASIM_TRANSLATE", "all")
    m = Machine("pulp-open-soc", **overrides).load(program)
    assert m._translated is not None          # the program's runs are translated at load
    translated = m.run(1_000_000)
    monkeypatch.delenv("ISASIM_TRANSLATE")
    interpreted = Machine("pulp-open-soc", translate=False, **overrides).load(program).run(
        1_000_000)
    assert translated.status == "exited"
    return translated, interpreted


def test_the_fabric_controller_runs_in_the_loop(monkeypatch):
    program = assemble(FC_TCDM_LOOP, filename="fc_tcdm.s", family="xpulpv2", rvc=False)
    # (with every fetch a hit: translated code is entered only at resident lines; a latency
    # of the FC's accesses, which the preset sets to none, as GVSoC)
    translated, interpreted = run_both(program, monkeypatch, icache="ideal", fc_l2_latency=3)
    assert figures(translated) == figures(interpreted)
    # each of its loads paid the SoC interconnect's latency
    assert translated.categories[8][L.C_EXT] == 200 * 3


def test_a_program_of_the_fabric_controller_alone_is_not_translated(tmp_path, monkeypatch):
    """Translated when it outlasts its first slice (short slices here), were a cluster core to
    run: the FC alone would pay for a translation it cannot use."""
    monkeypatch.setenv("ISASIM_TRANSLATE_CACHE", str(tmp_path))   # not translated before
    monkeypatch.delenv("ISASIM_TRANSLATE", raising=False)            # the default policy
    monkeypatch.setenv("ISASIM_SLICE_CYCLES", "500")
    program = assemble(FC_TCDM_LOOP, filename="fc_tcdm.s", family="xpulpv2", rvc=False)
    m = Machine("pulp-open-soc", icache="ideal")
    m.load(program)
    assert m.run(1_000_000).status == "exited"
    assert m._translated is None


@needs_gcc[0]
@needs_gcc[1]
def test_a_cluster_program_is_translated_once_a_cluster_core_runs(tmp_path, monkeypatch):
    monkeypatch.setenv("ISASIM_TRANSLATE_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("ISASIM_TRANSLATE", raising=False)            # the default policy
    monkeypatch.setenv("ISASIM_SLICE_CYCLES", "5000")
    m = Machine("pulp-open-soc").load(builder().build("matmul_int32", tmp_path))
    assert m._translated is None
    assert m.run().status == "exited"
    assert m._translated is not None


@needs_gcc[0]
@needs_gcc[1]
@pytest.mark.parametrize("name", ["matmul_int32", "matmul_fp32", "fc_loads", "dma", "barrier",
                                  "tcdm_loads", "icache_miss", "fc_event"])
def test_translated_soc_programs_report_what_interpreted_ones_do(name, tmp_path, monkeypatch):
    translated, interpreted = run_both(builder().build(name, tmp_path), monkeypatch)
    assert figures(translated) == figures(interpreted)
