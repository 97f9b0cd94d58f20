"""Shared runs for the viewer tests: the worked example's matmul, shrunk, with its event log.

The kernel (trace_kernels.py) is the worked example's with N = 16 (about 4,600 cycles): it has
functions, TCDM bank conflicts, DMA transfers and two hardware barriers, so every view has
something to show.  The engine buffer is kept small (512 records) so the recorder sees many
chunks, and the log is read back 300 records at a time so every streaming pass crosses chunk
boundaries.
"""

from __future__ import annotations

import pytest
from trace_kernels import kernel_source

from isasim.machine import Machine
from toolchain.asm import assemble
from traces.eventlog import record_run


@pytest.fixture(scope="session")
def mm(tmp_path_factory):
    """(RunResult, EventLog) of the 8-core matmul."""
    tmp = tmp_path_factory.mktemp("mm")
    machine = Machine("pulp-open", cores=8).load(assemble(kernel_source(), filename="mm.s"))
    result, log = record_run(machine, tmp / "mm.events", buffer_records=512)
    log.chunk = 300
    result.check_invariant()
    return result, log
