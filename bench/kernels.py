"""MAC/cycle of every fp32 matmul kernel on 8 cores, on the square shape and DS-CNN layer steps.

    python bench/kernels.py                    # pulp-open and gvsoc-2022
    python bench/kernels.py --config pulp-open --kernels mm_naive_n,mm_4x6_n

For each configuration: one table, kernels x shapes, MAC/cycle (N*M*K / cycles of the slowest
core); then the naive kernel, the best kernel and best/naive per shape; then where the cycles of
the best kernel go: every core-cycle charged to one RunResult category, with the "instr"
category split into the multiply-adds (fmadd/fmul, the only cycles that do a MAC) and the other
instructions (loads, pointer bumps, stores, set-up).  8 x the MAC share is the MAC/cycle, so
the other columns are the whole gap to the peak of 8.

Shapes (the DS-CNN of PULP-TrainLib's paper branch, tools/AutoTuner/tiling_utils.py, batch 1, MM
convention C[N x M] = A[N x K] . B[K x M] of pulp_train_utils_fp32.h): conv1 is Cin=1, 8x34 input,
4x10 kernel, Cout=64 (output 5x25: M=125 pixels, K=40); pw is 64 -> 64 channels on 5x5; fc is 640 ->
32.  Forward (FW), weight gradient (WG, B = the transposed input, stored M x K) and input gradient
(IG). Shapes whose three operands do not fit in 64 KiB of TCDM next to the stacks run with a
128 KiB TCDM (the L1 size of PULP-TrainLib's ResNet test configuration), marked "L1 128K".
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

from asm_kernels.catalogue import catalogue  # noqa: E402
from asm_kernels.runner import run_kernel  # noqa: E402
from isasim import layout as L  # noqa: E402

# (label, N, M, K, trans_B)
SHAPES = [
    ("square 64^3", 64, 64, 64, 0),
    ("conv1 FW", 64, 125, 40, 0),
    ("conv1 WG", 64, 40, 125, 1),
    ("pw FW/IG", 64, 25, 64, 0),
    ("pw WG", 64, 64, 25, 1),
    ("fc FW", 32, 1, 640, 0),
    ("fc WG", 32, 640, 1, 1),
    ("fc IG", 1, 640, 32, 0),
]
CONFIGS = ("pulp-open", "gvsoc-2022")
TCDM_DEFAULT = 64 * 1024
TCDM_LARGE = 128 * 1024
FREE_TCDM = TCDM_DEFAULT - 8 * 512 - 1024      # stacks and the argument block
MAC_OPS = ("fmadd.s", "fmul.s")


def tcdm_for(N: int, M: int, K: int) -> int:
    return TCDM_DEFAULT if 4 * (N * K + K * M + N * M) <= FREE_TCDM else TCDM_LARGE


def run(name: str, shape: tuple, config: str):
    _, N, M, K, trans = shape
    rng = np.random.default_rng(0)
    A = rng.standard_normal((N, K)).astype(np.float32)
    B = rng.standard_normal((M, K) if trans else (K, M)).astype(np.float32)
    C = np.zeros((N, M), np.float32)
    r = run_kernel(name, dict(A=A, B=B, C=C, N=N, M=M, K=K, trans_B=trans, accumulate=0),
                   outputs=["C"], cores=8, config=config, tcdm_size=tcdm_for(N, M, K))
    want = A.astype(np.float64) @ (B.T if trans else B).astype(np.float64)
    bound = np.abs(A).astype(np.float64) @ np.abs(B.T if trans else B).astype(np.float64)
    if not (np.abs(r.outputs["C"] - want) <= 1e-5 * bound + 1e-30).all():
        raise SystemExit(f"{name} computed a wrong result on {shape}")
    return r.result


def mac_cycles(res) -> int:
    """Core-cycles spent issuing a multiply-add (all cores)."""
    is_mac = np.array([t.split()[0] in MAC_OPS if t else False for t in res.profile_text])
    return int(res.profile_count[:, is_mac].sum()) if is_mac.any() else 0


def bench(config: str, kernels: list[str], console: Console) -> None:
    table = Table(title=f"MAC/cycle on 8 cores, {config}", title_justify="left")
    table.add_column("kernel")
    for s in SHAPES:
        big = "\nL1 128K" if tcdm_for(*s[1:4]) > TCDM_DEFAULT else ""
        table.add_column(f"{s[0]}\n{s[1]}x{s[2]}x{s[3]} t{s[4]}{big}", justify="right")
    results = {}
    for k in kernels:
        row = []
        for s in SHAPES:
            res = run(k, s, config)
            results[k, s[0]] = res
            row.append(f"{s[1] * s[2] * s[3] / res.total_cycles:.2f}")
        table.add_row(k, *row)
    table.add_section()
    macs = {s[0]: s[1] * s[2] * s[3] for s in SHAPES}
    best = {s[0]: min(kernels, key=lambda k, s=s: results[k, s[0]].total_cycles)
            for s in SHAPES}
    naive = "mm_naive_n" if "mm_naive_n" in kernels else kernels[0]
    table.add_row(f"naive ({naive})",
                  *[f"{macs[s[0]] / results[naive, s[0]].total_cycles:.2f}" for s in SHAPES])
    table.add_row("best", *[f"{macs[s[0]] / results[best[s[0]], s[0]].total_cycles:.2f}\n"
                            f"{best[s[0]]}" for s in SHAPES])
    table.add_row("best / naive", *[
        f"{results[naive, s[0]].total_cycles / results[best[s[0]], s[0]].total_cycles:.2f}x"
        for s in SHAPES])
    console.print(table)

    stalls = Table(title=f"Where the core-cycles of the best kernel go, {config} (% of all "
                         "cores' cycles; MAC/cycle ~ 8 x 'MAC issue')", title_justify="left")
    stalls.add_column("shape")
    stalls.add_column("kernel")
    cats = [c for c in L.CATEGORIES if c != "instr"]
    used = [c for c in cats if any(results[best[s[0]], s[0]].category(c).sum() for s in SHAPES)]
    for col in ("MAC issue", "other instr", *used):
        stalls.add_column(col, justify="right")
    for s in SHAPES:
        res = results[best[s[0]], s[0]]
        total = int(res.categories.sum())
        mac = mac_cycles(res)
        other = int(res.category("instr").sum()) - mac
        parts = [mac, other] + [int(res.category(c).sum()) for c in used]
        stalls.add_row(s[0], best[s[0]], *[f"{100 * p / total:.1f}" for p in parts])
    console.print(stalls)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", action="append", choices=CONFIGS,
                    help="timing preset (repeatable; default: both)")
    ap.add_argument("--kernels", help="comma-separated kernel names (default: all matmul)")
    args = ap.parse_args(argv)
    kernels = (args.kernels.split(",") if args.kernels else
               sorted(k.name for k in catalogue().values() if k.family == "matmul"))
    console = Console(width=220)
    for config in args.config or CONFIGS:
        bench(config, kernels, console)
    return 0


if __name__ == "__main__":
    sys.exit(main())
