"""The kernel the viewer tests run: docs/worked-example/matmul8.s, shrunk to N = 16.

(This directory has no ``__init__.py``: a test package named ``traces`` would shadow the real
``traces`` package, so pytest puts this directory on ``sys.path`` and the tests import these
helpers by their module name.)
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KERNEL = ROOT / "docs" / "worked-example" / "matmul8.s"


def kernel_source(n: int = 16, padded: bool = False) -> str:
    src = KERNEL.read_text().replace("    .equ N, 32\n", f"    .equ N, {n}\n")
    if padded:
        src = src.replace("    .equ PITCH, N\n", "    .equ PITCH, N + 1\n")
    return src


def write_kernel(tmp: Path, n: int = 16, padded: bool = False) -> Path:
    path = tmp / ("mm_padded.s" if padded else "mm.s")
    path.write_text(kernel_source(n, padded))
    return path
