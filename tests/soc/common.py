"""Helpers of the SoC tests: build the bare-metal pulp-open examples with Debian's GCC and run
them on the ``pulp-open-soc`` preset."""

from __future__ import annotations

import importlib.util
from functools import cache
from pathlib import Path

import pytest

from isasim.machine import Machine
from isasim.result import RunResult

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "pulp-open"


@cache
def builder():
    """examples/pulp-open/build.py as a module (it is a script, not a package)."""
    spec = importlib.util.spec_from_file_location("pulp_open_build", EXAMPLES / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


needs_gcc = [pytest.mark.needs_tool,
             pytest.mark.skipif(not builder().have_gcc(),
                                reason="riscv64-unknown-elf-gcc not installed (Debian: "
                                       "apt-get install gcc-riscv64-unknown-elf)")]


def run_example(name: str, tmp: Path, *defines: str, max_cycles: int = 50_000_000,
                **overrides) -> tuple[RunResult, Machine]:
    """Build ``examples/pulp-open/<name>.c`` and run it; the cycle invariant is checked."""
    elf = builder().build(name, tmp, defines)
    machine = Machine("pulp-open-soc", **overrides).load(elf)
    result = machine.run(max_cycles)
    result.check_invariant()
    return result, machine
