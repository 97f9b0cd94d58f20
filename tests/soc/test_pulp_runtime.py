"""pulp-runtime applications, built unmodified with Debian's GCC, run on ``pulp-open-soc``
with the output and exit status GVSoC gives them (checked side by side by bench/vs_gvsoc.py's
runner; the lines below are GVSoC's, the cluster cores' lines in any order as their timing
orders them).

pulp-runtime is not vendored: set ``ISASIM_PULP_RUNTIME`` to a checkout of
github.com/pulp-platform/pulp-runtime (and ``ISASIM_PULP_RUNTIME_EXAMPLES`` to one of
github.com/pulp-platform/pulp-runtime-examples for its hello and cluster/call examples).  The
DMA and barrier applications are ours, written against pulp-runtime's API
(examples/pulp-open/pulp-runtime/)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from isasim.machine import Machine

from .common import EXAMPLES, builder, needs_gcc

RUNTIME = os.environ.get("ISASIM_PULP_RUNTIME")
RUNTIME_EXAMPLES = os.environ.get("ISASIM_PULP_RUNTIME_EXAMPLES")
HOW = ("set ISASIM_PULP_RUNTIME to a checkout of github.com/pulp-platform/pulp-runtime "
       "(docs/soc.md, 'pulp-runtime applications')")

CLUSTER_CALL = ["Entering main controller",
                *(f"Entered cluster on cluster 0 core {i}" for i in range(8)),
                "Got retval from cluster 1"]
APPS = [
    ("hello", "examples", "hello", ["Hello !"]),
    ("cluster_call", "examples", "cluster/call", CLUSTER_CALL),
    ("dma", "ours", "dma", ["DMA round trip: 0 errors"]),
    ("barrier", "ours", "barrier", ["20 barrier rounds, 0 errors"]),
]

pytestmark = [*needs_gcc, pytest.mark.skipif(RUNTIME is None, reason=HOW)]


@pytest.mark.parametrize("name, where, path, lines", APPS, ids=[a[0] for a in APPS])
def test_pulp_runtime_app(tmp_path, name, where, path, lines):
    if where == "examples":
        if RUNTIME_EXAMPLES is None:
            pytest.skip("set ISASIM_PULP_RUNTIME_EXAMPLES to a checkout of "
                        "github.com/pulp-platform/pulp-runtime-examples")
        appdir = Path(RUNTIME_EXAMPLES) / path
    else:
        appdir = EXAMPLES / "pulp-runtime" / path
    elf = builder().build_runtime_app(Path(RUNTIME), appdir, tmp_path)
    r = Machine("pulp-open-soc").load(elf).run(10_000_000)
    r.check_invariant()
    assert (r.status, r.exit_code) == ("exited", 0), r.fault
    got = r.stdout.splitlines()
    assert sorted(got) == sorted(lines)
    assert got[0] == lines[0] and got[-1] == lines[-1]     # the FC's lines frame the others
