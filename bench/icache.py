"""What the instruction cache costs the matmul kernels: MAC/cycle with the cache beside ideal fetch.

    python bench/icache.py                        # every fp32 matmul kernel, both presets
    python bench/icache.py --kernels mm_4x6_n,mm_naive_n --config pulp-open
    python bench/icache.py --family matmul_fp16 --family matmul_bf16     # the 16-bit kernels

Per kernel of the catalogue's matmul families (default: fp32), on 8 cores and the square
64x64x64 shape of ``bench/kernels.py`` (B stored K x M for fp32, M x K for the 16-bit kernels,
the layout they take), run and checked as there: MAC/cycle with ideal fetch (``icache =
"ideal"``) and with the preset's cache model (pulp-open: ``rtl``, hier-icache's replacement;
gvsoc-2022: ``gvsoc``), which the presets use by default, the L0
misses of all cores and their share of the core-cycles (``imiss``), and two footprints: the bytes
of the 16-byte lines the kernel executed at all, and of those it executed in its hot loop (lines
whose instructions issued at least 64 times per core on average).  A hot footprint above the
512-byte L0 means the hot loop refills lines on every pass; the "after warm-up" column counts
the misses beyond the first touch of each line (cold misses: one per line and core).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import kernels  # noqa: E402  (bench/kernels.py: the operands and the check of each family)
from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

from asm_kernels.catalogue import catalogue  # noqa: E402

N = M = K = 64
MODEL = {"pulp-open": "rtl", "gvsoc-2022": "gvsoc"}
FAMILIES = ("matmul", "matmul_fp16", "matmul_bf16")
HOT = 64            # issues per core that make an instruction part of the hot loop
L0_BYTES = 512


def run(name: str, config: str, icache: str):
    """The checked RunResult of ``name`` on 64x64x64 (B K x M for fp32, M x K for 16 bits)."""
    trans = int(catalogue()[name].family != "matmul")
    res = kernels.run(name, ("square 64^3", N, M, K, trans), config, icache=icache)
    res.check_invariant()
    return res


def footprints(res) -> tuple[int, int]:
    """Bytes of the executed lines, and of the hot loop's lines."""
    count = res.profile_count.sum(axis=0)
    lines = set((res.profile_pc[count > 0] >> 4).tolist())
    hot = set((res.profile_pc[count >= HOT * res.ncores] >> 4).tolist())
    return 16 * len(lines), 16 * len(hot)


def bench(config: str, names: list[str], console: Console) -> None:
    model = MODEL[config]
    table = Table(title=f"matmul 64x64x64 on 8 cores, {config}: ideal fetch vs icache = "
                        f"\"{model}\"", title_justify="left")
    for col in ("kernel", "MAC/cycle ideal", f"MAC/cycle {model}", "change", "L0 misses",
                "after warm-up", "imiss % of core-cycles", "executed B", "hot loop B"):
        table.add_column(col, justify="left" if col == "kernel" else "right")
    macs = N * M * K
    for k in names:
        ideal = run(k, config, "ideal")
        cached = run(k, config, model)
        misses = int(cached.profile_imiss.sum())
        executed, hot = footprints(cached)
        cold = executed // 16 * cached.ncores
        share = 100 * cached.category("imiss").sum() / cached.categories.sum()
        table.add_row(k, f"{macs / ideal.total_cycles:.2f}", f"{macs / cached.total_cycles:.2f}",
                      f"{100 * (ideal.total_cycles / cached.total_cycles - 1):+.1f}%",
                      f"{misses:,}", f"{max(misses - cold, 0):,}", f"{share:.2f}",
                      f"{executed:,}", f"{hot:,}" + (" > L0" if hot > L0_BYTES else ""))
    console.print(table)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", action="append", choices=tuple(MODEL),
                    help="timing preset (repeatable; default: both)")
    ap.add_argument("--family", action="append", choices=FAMILIES,
                    help="catalogue family (repeatable; default: matmul, the fp32 kernels)")
    ap.add_argument("--kernels", help="comma-separated kernel names (default: the families')")
    args = ap.parse_args(argv)
    families = args.family or ["matmul"]
    names = (args.kernels.split(",") if args.kernels else
             sorted(k.name for k in catalogue().values() if k.family in families))
    console = Console(width=200)
    for config in args.config or tuple(MODEL):
        bench(config, names, console)
    return 0


if __name__ == "__main__":
    sys.exit(main())
