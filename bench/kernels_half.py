"""Cycles of the 16-bit kernels other than the matmuls (asm_kernels/half_gen.py) beside their
fp32 counterparts on the same shapes, 8 cores.

    python bench/kernels_half.py                      # pulp-open
    python bench/kernels_half.py --config gvsoc-2022 --precision bf16

One row per kernel pair: the shape, the 16-bit and the fp32 kernel's cycles (slowest core), the
speed-up and the 16-bit kernel's throughput (elements or MACs per cycle).  Operands are random
values of the format; the kernels' results are checked by tests/kernels/test_*_fp16.py, not
here.  These are the figures of docs/kernels.md's "FP16 and bfloat16 kernels".
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# the repository first: the editable install's finder can shadow asm_kernels' data files
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from asm_kernels.catalogue import variant  # noqa: E402
from asm_kernels.runner import run_kernel  # noqa: E402
from trainlib.golden import round_to  # noqa: E402


def operands(prec: str, n: int, rng) -> np.ndarray:
    """n random values as the kernel reads them: binary32 words, or 16-bit patterns."""
    v = rng.standard_normal(n)
    if prec == "fp32":
        return v.astype(np.float32)
    if prec == "fp16":
        return v.astype(np.float16).view(np.uint16)
    return (round_to(v, "bf16").astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)


def dw(N, M, ker):
    return lambda a: dict(A=a(N * ker), B=a(M * N * ker), C=a(N * M), N=N, M=M, K=N * ker,
                          ker_size=ker)


def pool(kind):
    geo = dict(C=16, H=16, W=16, Hk=2, Wk=2, Ho=8, Wo=8, stride_h=2, stride_w=2, pad_top=0,
               pad_left=0)
    x, y = 16 * 256, 16 * 64
    if kind == "maxpool_bw":
        return lambda a: dict(x=a(x), dy=a(y), dx=a(x), **geo)
    if kind == "avgpool_bw":
        return lambda a: dict(dy=a(y), dx=a(x), **geo)
    return lambda a: dict(x=a(x), y=a(y), **geo)


N1, N2 = 1003, 2048


def F32(n: int) -> np.ndarray:
    """A binary32 array whatever the precision (loss partials, conversion sources)."""
    return np.ones(n, np.float32)


# (fp32 kernel, shape label, arguments from an operand maker, work, unit)
ROWS = [
    ("relu_fw", f"n={N2}", lambda a: dict(x=a(N2), y=a(N2), n=N2), N2, "el"),
    ("relu_bw", f"n={N2}", lambda a: dict(x=a(N2), dy=a(N2), dx=a(N2), n=N2), N2, "el"),
    ("copy", f"n={N2}", lambda a: dict(src=a(N2), dst=a(N2), n=N2), N2, "el"),
    ("add", f"n={N2}", lambda a: dict(a=a(N2), b=a(N2), out=a(N2), n=N2), N2, "el"),
    ("mul", f"n={N1}", lambda a: dict(a=a(N1), b=a(N1), out=a(N1), n=N1), N1, "el"),
    ("leakyrelu_fw", f"n={N2}", lambda a: dict(x=a(N2), y=a(N2), n=N2, slope=0.01), N2, "el"),
    ("leakyrelu_bw", f"n={N2}", lambda a: dict(x=a(N2), dy=a(N2), dx=a(N2), n=N2, slope=0.01),
     N2, "el"),
    ("sigmoid_fw", f"n={N1}", lambda a: dict(x=a(N1), y=a(N1), n=N1), N1, "el"),
    ("sigmoid_bw", f"n={N1}", lambda a: dict(y=a(N1), dy=a(N1), dx=a(N1), n=N1), N1, "el"),
    ("sgd_update", f"n={N2}", lambda a: dict(w=a(N2), g=a(N2), n=N2, lr=0.1,
                                               weight_decay=0.01), N2, "el"),
    ("bias_add", "16x196", lambda a: dict(y=a(3136), b=a(16), C=16, HW=196), 3136, "el"),
    ("bias_grad", "16x196", lambda a: dict(dy=a(3136), db=a(16), C=16, HW=196), 3136, "el"),
    ("mse_partial", f"n={N2}", lambda a: dict(y=a(N2), t=a(N2), partial=F32(8), n=N2), N2,
     "el"),
    ("mse_grad", f"n={N2}", lambda a: dict(y=a(N2), t=a(N2), dy=a(N2), n=N2), N2, "el"),
    ("ce_partial", f"n={N2}", lambda a: dict(z=a(N2), y=a(N2), partial=F32(32), n=N2), N2,
     "el"),
    ("ce_grad", f"n={N2}", lambda a: dict(z=a(N2), y=a(N2), dz=a(N2), n=N2,
                                          stats=np.array([0, 0, 1, 1], np.float32)), N2, "el"),
    ("mm_dw", "N16 M64 ker9", dw(16, 64, 9), 16 * 64 * 9, "MAC"),
    ("mm_dw_in_grad", "N16 M64 ker9", dw(16, 64, 9), 16 * 64 * 9, "MAC"),
    ("mm_dw", "N16 M9 ker64", dw(16, 9, 64), 16 * 9 * 64, "MAC"),
    ("mm_dw_sp_1x4", "N3 M196 ker9", dw(3, 196, 9), 3 * 196 * 9, "MAC"),
    ("transpose", "32x24", lambda a: dict(src=a(768), dst=a(768), R=32, C=24), 768, "el"),
    ("blocktranspose", "16x8x9", lambda a: dict(W=a(1152), bt=a(1152), Co=16, Ci=8, HkWk=9),
     1152, "el"),
    *[(k, "C8 8x8 3x3 pad 1", lambda a: dict(
        src=a(512), buf=a(64 * 72), C=8, Hs=8, Ws=8, Hk=3, Wk=3, Hout=8, Wout=8, stride_h=1,
        stride_w=1, pad_top=1, pad_left=1), 64 * 72, "el")
      for k in ("im2row", "im2col", "im2row_ig")],
    ("maxpool_fw", "16x16x16 2x2/2", pool("maxpool_fw"), 16 * 64, "out"),
    ("avgpool_fw", "16x16x16 2x2/2", pool("avgpool_fw"), 16 * 64, "out"),
    ("maxpool_bw", "16x16x16 2x2/2", pool("maxpool_bw"), 16 * 64, "out"),
    ("avgpool_bw", "16x16x16 2x2/2", pool("avgpool_bw"), 16 * 64, "out"),
]
# the conversions, beside the fp32 copy of as many elements
ROWS += [("fp32_to_{p}", f"n={N2}", lambda a: dict(src=F32(N2), dst=a(N2), n=N2), N2, "el"),
         ("{p}_to_fp32", f"n={N2}", lambda a: dict(src=a(N2), dst=F32(N2), n=N2), N2, "el")]
# fp32 peers that are a better fp32 kernel than the 16-bit kernel's namesake
FP32_PEER = {"mm_dw": "mm_dw_1x4_u2", "mm_dw_in_grad": "mm_dw_in_grad_1x4_u2",
             "fp32_to_{p}": "copy", "{p}_to_fp32": "copy"}


def cycles(name: str, args: dict, config: str, cores: int) -> int:
    return run_kernel(name, args, cores=cores, config=config).cycles


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--config", default="pulp-open")
    ap.add_argument("--precision", choices=("fp16", "bf16"), default="fp16")
    ap.add_argument("--cores", type=int, default=8)
    opt = ap.parse_args()
    table = Table(title=f"16-bit kernels ({opt.precision}) beside fp32, {opt.cores} cores, "
                        f"{opt.config}", title_justify="left")
    for col in ("16-bit kernel", "shape", "cycles", "fp32 kernel", "fp32 cycles", "speed-up",
                "per cycle"):
        table.add_column(col, justify="left" if "kernel" in col or col == "shape" else "right")
    for name, shape, make, work, unit in ROWS:
        rng = np.random.default_rng(0)
        half = (name.format(p=opt.precision) if "{p}" in name
                else variant(name, opt.precision))
        peer = FP32_PEER.get(name, name)
        c16 = cycles(half, make(lambda n, r=rng: operands(opt.precision, n, r)), opt.config,
                     opt.cores)
        c32 = cycles(peer, make(lambda n, r=rng: operands("fp32", n, r)), opt.config,
                     opt.cores)
        table.add_row(half, shape, str(c16), peer, str(c32), f"{c32 / c16:.2f}x",
                      f"{work / c16:.2f} {unit}")
    Console(width=None if sys.stdout.isatty() else 140).print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
