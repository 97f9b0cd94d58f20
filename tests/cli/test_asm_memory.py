"""``assemble()`` keeps nothing of a finished assembly but its bounded caches.

The operand-parse cache used to keep the ``ExprError`` of an operand like ``12(s3)`` with its
traceback, whose frames held the layout, the section state and every statement of the
assembly that first met the text: a long-lived process (a tuner worker, a notebook) grew by a
whole assembly per new operand text.  Measured in a subprocess with tracemalloc: the source
(15,000 statements) repeats three operand texts, so the caches take a few kilobytes and the
memory after the assembly must return to what it was before.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import gc, tracemalloc
from toolchain.asm import assemble

def source(blocks, tag, offset):
    body = [f"{tag}{i}:\\n    lw t0, {offset}(s3)\\n    addi a0, a0, 1\\n    sw t0, 8(s4)"
            for i in range(blocks)]
    return ".text\\n.globl _start\\n_start:\\n" + "\\n".join(body) + "\\n"

assemble(source(50, "warm", 4))      # the tables and the caches of the common operands
gc.collect()
tracemalloc.start()
program = assemble(source(5000, "big", 12))
del program
gc.collect()
retained, peak = tracemalloc.get_traced_memory()
print(retained, peak)
"""


def test_memory_returns_to_baseline_after_a_large_assembly():
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True,
                         text=True, timeout=300, env={"PYTHONPATH": str(ROOT),
                                                      "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    retained, peak = map(int, out.stdout.split())
    assert peak > 10_000_000, "the probe's assembly should be large enough to show a leak"
    assert retained < 200_000, f"{retained:,} bytes kept after the assembly (peak {peak:,})"
