"""The 16-bit part of ``bench/kernels.py``: binary16 and bfloat16 matmul MAC/cycle on 8 cores,
both register-file models, beside fp32 on the same shapes.

    python bench/kernels_fp16.py                       # = python bench/kernels.py --part 16bit
    python bench/kernels_fp16.py --config pulp-open
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

_spec = importlib.util.spec_from_file_location(
    "bench_kernels", Path(__file__).resolve().parent / "kernels.py")
kernels = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(kernels)

if __name__ == "__main__":
    sys.exit(kernels.main(["--part", "16bit", *sys.argv[1:]]))
