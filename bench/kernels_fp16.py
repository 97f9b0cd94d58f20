"""MAC/cycle of the binary16 matmul kernels on 8 cores, beside the fp32 family on the same shapes.

    python bench/kernels_fp16.py                       # pulp-open and gvsoc-2022
    python bench/kernels_fp16.py --config pulp-open

For each configuration: one table, kernels x shapes, MAC/cycle (N*M*K / cycles of the slowest
core) of every ``matmul_fp16`` kernel (``asm_kernels/matmul_fp16_gen.py``: mmh_ accumulate in
binary32 with vfdotpex.s.h, mmhl_ in binary16 lanes with vfmac.h; two MACs per instruction, peak
16 MAC/cycle on 8 cores); then the best fp16 kernel, the best fp32
kernel (every ``matmul`` kernel run on the same shape, B stored M x K as the fp16 kernels take
it; peak 8) and fp16 / fp32 cycles.  Shapes: the square 64^3 of issue 23's target (>= 9
MAC/cycle) and the DS-CNN layer steps of ``bench/kernels.py`` that have B stored M x K.  Every
result is checked against numpy (float64) within the binary16 output rounding.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# the repository first: the editable install's finder can shadow asm_kernels' data files
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from asm_kernels.catalogue import catalogue  # noqa: E402
from asm_kernels.runner import run_kernel  # noqa: E402

# the fp32 family's bench (its shapes' TCDM sizes and its checked runs), loaded by path
_spec = importlib.util.spec_from_file_location("bench_kernels", ROOT / "bench" / "kernels.py")
fp32_bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fp32_bench)

# (label, N, M, K, trans_B): B stored M x K
SHAPES = [
    ("square 64^3", 64, 64, 64, 1),
    ("conv1 WG", 64, 40, 125, 1),
    ("pw WG", 64, 64, 25, 1),
    ("pw FW (B^T)", 64, 25, 64, 1),
    ("fc WG", 32, 640, 1, 1),
]
CONFIGS = fp32_bench.CONFIGS


def run_fp16(name: str, shape: tuple, config: str):
    _, N, M, K, _ = shape
    K2 = K + K % 2
    rng = np.random.default_rng(0)
    A = np.zeros((N, K2), np.float16)
    B = np.zeros((M, K2), np.float16)
    A[:, :K] = rng.standard_normal((N, K))
    B[:, :K] = rng.standard_normal((M, K))
    C = np.zeros((N, M), np.float16)
    r = run_kernel(name, dict(A=A, B=B, C=C, N=N, M=M, K=K, trans_B=1, accumulate=0),
                   outputs=["C"], cores=8, config=config,
                   tcdm_size=fp32_bench.tcdm_for(N, M, K))
    a, b = A.astype(np.float64), B.astype(np.float64)
    want, bound = a @ b.T, np.abs(a) @ np.abs(b.T)
    # binary16 output rounding (2^-11 relative) plus the accumulation's: binary32, or (mmhl_)
    # binary16 lanes of K/2 + 1 roundings each
    acc_tol = 2.0 ** -11 * (K / 2 + 2) if name.startswith("mmhl_") else 1e-5
    ok = np.abs(r.outputs["C"].astype(np.float64) - want) <= 2.0 ** -11 * np.abs(want) \
        + acc_tol * bound + 1e-30
    if not ok.all():
        raise SystemExit(f"{name} computed a wrong result on {shape}")
    return r.result.total_cycles


def bench(config: str, console: Console) -> None:
    fp16 = sorted(k.name for k in catalogue().values() if k.family == "matmul_fp16")
    fp32 = sorted(k.name for k in catalogue().values() if k.family == "matmul")
    table = Table(title=f"binary16 vs fp32 matmul, MAC/cycle on 8 cores, {config}",
                  title_justify="left")
    table.add_column("kernel")
    for s in SHAPES:
        table.add_column(f"{s[0]}\n{s[1]}x{s[2]}x{s[3]}", justify="right")
    macs = {s[0]: s[1] * s[2] * s[3] for s in SHAPES}
    c16 = {(k, s[0]): run_fp16(k, s, config) for k in fp16 for s in SHAPES}
    c32 = {(k, s[0]): fp32_bench.run(k, s, config).total_cycles for k in fp32 for s in SHAPES}
    for k in fp16:
        table.add_row(k, *[f"{macs[s[0]] / c16[k, s[0]]:.2f}" for s in SHAPES])
    table.add_section()
    best16 = {s[0]: min(fp16, key=lambda k, s=s: c16[k, s[0]]) for s in SHAPES}
    best32 = {s[0]: min(fp32, key=lambda k, s=s: c32[k, s[0]]) for s in SHAPES}
    table.add_row("best fp16", *[f"{macs[s[0]] / c16[best16[s[0]], s[0]]:.2f}\n"
                                 f"{best16[s[0]]}" for s in SHAPES])
    table.add_row("best fp32", *[f"{macs[s[0]] / c32[best32[s[0]], s[0]]:.2f}\n"
                                 f"{best32[s[0]]}" for s in SHAPES])
    table.add_row("fp16 / fp32 speed-up", *[
        f"{c32[best32[s[0]], s[0]] / c16[best16[s[0]], s[0]]:.2f}x" for s in SHAPES])
    console.print(table)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", action="append", choices=CONFIGS,
                    help="timing preset (repeatable; default: both)")
    args = ap.parse_args(argv)
    console = Console(width=200)
    for config in args.config or CONFIGS:
        bench(config, console)
    return 0


if __name__ == "__main__":
    sys.exit(main())
