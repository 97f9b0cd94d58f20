"""RISCOF DUT plugin ``isasim``: each architecture test runs on one isasim core (config
``single-core``, no Xpulp, sp = 0 at reset like a bare hart) in this process."""

from __future__ import annotations

import threading

from isasim.riscof_plugin.runner import MAX_CYCLES, TestRunner

_lock = threading.Lock()     # one machine at a time: the compiled loop is shared


def run_on_isasim(elf: str, signature: str) -> str:
    """Run ``elf`` and write its signature; the run's status (``exited`` when it passed)."""
    from isasim.machine import Machine
    from isasim.signature import write_signature

    with _lock:
        m = Machine("single-core", xpulp="none").load(elf, family="none")
        m.R[2] = 0                               # --no-stack
        result = m.run(MAX_CYCLES)
        write_signature(m, signature, 4)
    return result.status


class isasim(TestRunner):  # noqa: N801 - RISCOF finds the class by the plugin's name
    __model__ = "isasim"

    def run_elf(self, elf: str, signature: str, test_isa: str) -> None:
        run_on_isasim(elf, signature)
