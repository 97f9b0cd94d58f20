"""A parallel fp32 matmul over 8 cores: a plausible TCDM conflict matrix, none with policy none.

The kernel is the catalogue's naive matmul (asm_kernels/matmul_naive.s): rows of C split over
the cores, every core walking the same column of B at the same time, which is exactly the
access pattern that makes PULP kernels lose cycles to bank conflicts.  The checks are laws
that hold for any kernel, so they survive changes to the kernel's code.
"""

from __future__ import annotations

import numpy as np
import pytest

from asm_kernels.runner import run_kernel
from isasim.result import RunResult

POLICIES = ("round_robin", "fifo", "none")
# categories that do not depend on arbitration: conflicts only add tcdm_conflict cycles and
# move the final barrier's waits (barrier, idle)
WORK = ("instr", "load_use", "ext_mem", "branch", "jump", "fpu_dep", "fpu_struct", "muldiv",
        "misaligned", "dma_wait")


def matmul(n: int, m: int, k: int, cores: int, policy: str) -> tuple[RunResult, np.ndarray,
                                                                    np.ndarray]:
    rng = np.random.default_rng(n * 10000 + m * 100 + k)
    a = rng.standard_normal((n, k)).astype(np.float32)
    b = rng.standard_normal((k, m)).astype(np.float32)
    run = run_kernel("mm_naive_n", {"A": a, "B": b, "C": np.zeros((n, m), np.float32), "N": n,
                                    "M": m, "K": k, "trans_B": 0, "accumulate": 0},
                     outputs=["C"], cores=cores, conflict_policy=policy)
    run.result.check_invariant()
    return run.result, run.outputs["C"], a.astype(np.float64) @ b.astype(np.float64)


def check_laws(runs: dict[str, RunResult], cores: int) -> None:
    for policy, r in runs.items():
        assert r.status == "exited", policy
        lost = r.category("tcdm_conflict")
        # the matrix says who lost how many cycles where, and to whom
        assert r.conflicts.shape == (cores, 16)
        assert r.conflicts.sum(axis=1).tolist() == lost.tolist()
        assert r.conflict_winners.sum(axis=1).tolist() == lost.tolist()
        assert r.perf["TCDM_CONT"].tolist() == lost.tolist()
        assert np.diagonal(r.conflict_winners[:, :cores]).sum() == 0   # never to itself
        assert r.conflict_winners[:, cores:].sum() == 0                # no DMA in this run
        # each access that wins a bank makes at most cores - 1 others lose that cycle
        accesses = int(r.perf["LD"].sum() + r.perf["ST"].sum())
        assert lost.sum() <= (cores - 1) * accesses
        for name in WORK:
            assert r.category(name).tolist() == runs["none"].category(name).tolist(), name
    assert runs["none"].conflicts.sum() == 0 and runs["none"].conflict_winners.sum() == 0
    for policy in ("round_robin", "fifo"):
        assert runs[policy].conflicts.sum() > 0
        # a core off the critical path may absorb its conflicts: never faster, maybe equal
        assert runs[policy].total_cycles >= runs["none"].total_cycles


def test_matmul_on_8_cores_conflict_matrix():
    """16 x 16 x 16 on 8 cores (2 rows of C each).  Under round robin the 8 cores stay in a
    convoy on B's column (a rotating priority keeps them one cycle apart) and each loses about
    a third of its cycles; FIFO lets them drift apart; none charges nothing.  Conflicts only
    add cycles: every category but tcdm_conflict / barrier / idle is the same under all three
    policies, core by core."""
    runs = {}
    for policy in POLICIES:
        r, c, ref = matmul(16, 16, 16, 8, policy)
        np.testing.assert_allclose(c, ref, rtol=1e-5, atol=1e-5)
        runs[policy] = r
    check_laws(runs, 8)
    rr = runs["round_robin"]
    assert rr.total_cycles > runs["fifo"].total_cycles > runs["none"].total_cycles
    assert (rr.conflicts.sum(axis=1) > 0).all()                 # every core is a victim ...
    assert (rr.conflict_winners[:, :8].sum(axis=0) > 0).all()   # ... and a winner


@pytest.mark.slow
@pytest.mark.parametrize("cores", [2, 4, 8])
def test_matmul_conflict_laws_sweep(cores):
    """The same laws over shapes that do not split evenly, on 2, 4 and 8 cores."""
    for n, m, k in ((7, 9, 5), (24, 8, 32), (33, 17, 12)):
        runs = {}
        for policy in POLICIES:
            r, c, ref = matmul(n, m, k, cores, policy)
            np.testing.assert_allclose(c, ref, rtol=1e-4, atol=1e-4)
            runs[policy] = r
        check_laws(runs, cores)
