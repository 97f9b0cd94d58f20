"""L2 latency and the shared FPUs: hand-computed cycle counts (gvsoc-pulp pulp_open/cluster.py,
cluster.json)."""

from __future__ import annotations

import numpy as np
import pytest

from .common import EXIT, run_asm

# ---- L2 --------------------------------------------------------------------------------------
L2_PROGRAM = """
    .text
    .globl _start
_start:
    la t0, buf
""" + "    lw t1, 0(t0)\n" * 8 + "    sw t1, 4(t0)\n" * 3 + """
    lw t2, 8(t0)
    addi t2, t2, 1
""" + EXIT + """
    .data
buf: .word 1, 2, 3, 4
"""


@pytest.mark.parametrize("config, overrides, load_lat, store_lat", [
    ("pulp-open", {}, 10, 10),
    ("gvsoc-2022", {}, 4, 4),
    ("pulp-open", {"l2_latency": 7, "l2_store_latency": 3}, 7, 3),
])
def test_l2_accesses_cost_the_configured_latency(config, overrides, load_lat, store_lat):
    """9 loads and 3 stores to L2, each 1 + latency cycles (charged to ext_mem), plus two
    load-use stalls (the first sw uses the last loaded t1, addi uses t2):
    cycles = 2 (la) + 9 (1 + L) + 3 (1 + S) + 2 + 1 (addi) + 3 (exit) = 20 + 9 L + 3 S
    (140 for pulp-open's 10 / 10, 68 for gvsoc-2022's 4 / 4).  L2 has no bank model
    (infinite bandwidth, as GVSoC's L2), so 8 cores doing this at once each take the same time."""
    r, _ = run_asm(L2_PROGRAM, config, **overrides)
    n = r.ncores
    assert r.cycles.tolist() == [20 + 9 * load_lat + 3 * store_lat] * n
    assert r.category("ext_mem").tolist() == [9 * load_lat + 3 * store_lat] * n
    assert r.category("load_use").tolist() == [2] * n
    assert r.perf["LD_EXT"].tolist() == [9] * n and r.perf["ST_EXT"].tolist() == [3] * n
    assert r.perf["LD_EXT_CYC"].tolist() == [9 * load_lat] * n
    assert r.perf["ST_EXT_CYC"].tolist() == [3 * store_lat] * n
    assert r.conflicts.sum() == 0


# ---- shared FPUs -----------------------------------------------------------------------------
K = 6
FPU_PROGRAM = """
    .text
    .globl _start
_start:
    nop
""" + "    fadd.s f1, f2, f3\n" * K + """
    fdiv.s f4, f5, f6
    csrr s2, mcycle
""" + EXIT


def test_private_fpus_never_stall():
    """fpu_sharing = private: nop at 0, fadds at 1..6, fdiv at 7, csrr mcycle at 8 (4 cycles, the
    manual's slow CSRs), then the 3 exit instructions: 15 cycles."""
    r, _ = run_asm(FPU_PROGRAM, fpu_sharing="private")
    assert r.category("fpu_struct").sum() == 0
    assert r.x[:, 18].tolist() == [K + 2] * 8
    assert r.cycles.tolist() == [K + 9] * 8


@pytest.mark.parametrize("fdiv", [14, 9])
def test_gvsoc4_pairs_share_an_fpu_and_the_cluster_shares_one_divider(fdiv):
    """fpu_sharing = gvsoc4: cores c and c + 4 share FPU c % 4, round robin.

    * fadds: core c (< 4) issues at 1, 3, ..., 2K - 1 and loses K - 1 = 5 cycles; core c + 4
      issues at 2, 4, ..., 2K and loses K = 6;
    * fdiv: cores 0..3 ask at 2K = 12, cores 4..7 at 13; the single divider is busy ``fdiv``
      cycles per division and round robin serves 0, 1, ..., 7, so core c divides at 12 + fdiv c
      and reads mcycle at 13 + fdiv c;
    * fpu_struct(c) = K - 1 + fdiv c for every core (core c + 4 waited one cycle less for the
      divider than it lost on the fadds); the TCDM conflict matrix stays empty.
    """
    r, _ = run_asm(FPU_PROGRAM, fpu_sharing="gvsoc4", fdiv_latency=fdiv,
                   conflict_policy="round_robin")
    c = np.arange(8)
    assert r.x[:, 18].tolist() == (2 * K + 1 + fdiv * c).tolist()
    assert r.category("fpu_struct").tolist() == (K - 1 + fdiv * c).tolist()
    assert r.perf["APU_CONT"].tolist() == r.category("fpu_struct").tolist()
    assert r.conflicts.sum() == 0 and r.category("tcdm_conflict").sum() == 0


def test_gvsoc4_fadd_does_not_wait_for_the_shared_divider():
    """One core: fdiv at 0, an independent fadd at 1 (its FPU instance is free), csrr at 2."""
    src = """
    .text
    .globl _start
_start:
    fdiv.s f4, f5, f6
    fadd.s f1, f2, f3
    csrr s2, mcycle
""" + EXIT
    r, _ = run_asm(src, "single-core", fpu_sharing="gvsoc4")
    assert r.x[0, 18] == 2
