"""Bare-metal programs written against GVSoC's pulp-open interface run unmodified on the
``pulp-open-soc`` preset: the fabric controller (FC) starts alone at the entry, starts the
cluster through its control unit, prints through the stdout peripheral and ends through the
SoC control's core status register.  The outputs are those GVSoC prints for the same ELFs
(bench/vs_gvsoc.py runs both)."""

from __future__ import annotations

import pytest

from isasim import layout as L

from .common import needs_gcc, run_example

pytestmark = needs_gcc


def test_hello_from_the_fc(tmp_path):
    r, m = run_example("hello", tmp_path)
    assert r.status == "exited"
    assert r.exit_code == 3
    assert r.stdout == "Hello from the FC, hart 0x000003e0\n"
    # only the FC (core 8) ran: the cluster cores were never fetch-enabled
    assert list(r.instret[:8]) == [0] * 8 and r.instret[8] > 0


def test_cluster_start_and_wait(tmp_path):
    r, _ = run_example("cluster_wait", tmp_path)
    assert (r.status, r.exit_code) == ("exited", 0)
    assert r.stdout == "".join(f"core {i}: {i * 100 + 7}\n" for i in range(8))
    assert all(n > 0 for n in r.instret)


def test_cluster_event_wakes_the_fc_from_wfi(tmp_path):
    r, _ = run_example("fc_event", tmp_path)
    assert (r.status, r.exit_code) == ("exited", 0)
    assert r.stdout == "FC woken, cores arrived: 8\n"
    # the FC went to sleep once and the cluster's event woke it: one wfi, then idle cycles
    wfi = [i for i, text in enumerate(r.profile_text) if text == "wfi"]
    assert sum(int(r.profile_count[8, i]) for i in wfi) == 1
    assert r.categories[8][L.C_IDLE] > 0


@pytest.mark.parametrize("rounds", [1, 50])
def test_barriers(tmp_path, rounds):
    r, _ = run_example("barrier", tmp_path, f"-DROUNDS={rounds}")
    assert (r.status, r.exit_code) == ("exited", 0)
    assert r.stdout.splitlines()[0] == f"barrier rounds: {rounds}, errors: 0"


def test_dma_round_trip(tmp_path):
    r, _ = run_example("dma", tmp_path)
    assert (r.status, r.exit_code) == ("exited", 0)
    assert r.stdout.splitlines()[0] == f"dma: sum {sum(2 * (i + 1) for i in range(512))}, errors 0"


def test_alu_loop_counters(tmp_path):
    """Hand count (CV32E40P manual, pipeline.rst; GVSoC counts the same per iteration): the
    loop ``add; xor; addi; bnez`` takes 1 + 1 + 1 + 3 cycles while the branch is taken, and
    1 for the last, untaken one: 6 * ITERS - 2.  Counted with it, after the csrw that starts
    the counters (PCMR) and before the one that stops them (neither counted on pulp-open-soc,
    as on GVSoC): the loop count's lui + addi and a mv, 1 cycle each: 6 * ITERS + 1, plus one
    cold instruction-cache line inside the counted region, refilled from L2 through both cache
    levels: 14 (l2_latency) + 2 + 2 = 18 cycles: 6 * ITERS + 19 cycles and 4 * ITERS + 3
    instructions on every core, GVSoC's own counts.  With the counters counting their enabling
    write (the default), one more of each."""
    iters = 2500
    r, _ = run_example("alu_loop", tmp_path, f"-DITERS={iters}")
    assert (r.status, r.exit_code) == ("exited", 0)
    assert r.stdout.splitlines() == [f"core {i} cycles {6 * iters + 19} instructions "
                                     f"{4 * iters + 3}" for i in range(8)]
    r, _ = run_example("alu_loop", tmp_path, f"-DITERS={iters}",
                       perf_counts_enabling_write=True)
    assert r.stdout.splitlines()[0] == (f"core 0 cycles {6 * iters + 20} "
                                        f"instructions {4 * iters + 4}")
