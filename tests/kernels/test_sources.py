"""The kernel sources as files: the macro files they `.include` are found in the package
directory, and are package data, so the runner finds them wherever the package is installed."""

from __future__ import annotations

import re
import tomllib
from fnmatch import fnmatch
from pathlib import Path

from asm_kernels.catalogue import catalogue, kernel_dir

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"
INCLUDE = re.compile(r'^\s*\.include\s+"([^"]+)"', re.MULTILINE)


def test_included_macro_files_are_package_data():
    patterns = tomllib.loads(PYPROJECT.read_text())["tool"]["setuptools"]["package-data"][
        "asm_kernels"]
    todo = sorted({k.file for k in catalogue().values()})
    included: set[str] = set()
    while todo:
        for name in INCLUDE.findall(kernel_dir().joinpath(todo.pop()).read_text()):
            assert kernel_dir().joinpath(name).is_file(), name
            assert any(fnmatch(name, p) for p in patterns), f"{name} is not package data"
            if name not in included:
                included.add(name)
                todo.append(name)
    assert {"common.inc", "depthwise.inc"} <= included


SP_STEP = re.compile(
    r"^\s*(?:\w+:)?\s*(?:c\.)?addi(?:16sp)?\s+sp,\s*(?:sp,\s*)?(-?\d+)\s*(?:#.*)?$", re.MULTILINE)


def test_every_stack_adjustment_is_a_multiple_of_16():
    """RISC-V psABI: sp stays 16-byte aligned, so a kernel called from compiled C (deployed
    programs, pulp-runtime applications) leaves its caller's frame layout valid; a frame is
    rounded up to 16 bytes however few words it saves."""
    steps = [(path.name, int(m.group(1)))
             for path in sorted(kernel_dir().iterdir()) if path.suffix in (".s", ".inc")
             for m in SP_STEP.finditer(path.read_text())]
    assert len(steps) > 400
    odd = [(name, step) for name, step in steps if step % 16]
    assert not odd, odd
