"""MAC/cycle of every matmul kernel on 8 cores: fp32, binary16 and bfloat16, both register-file
models, on the square shape and DS-CNN layer steps, beside PULP-TrainLib's published figures.

    python bench/kernels.py                          # pulp-open and gvsoc-2022, every part
    python bench/kernels.py --config pulp-open --part fp32 --kernels mm_naive_n,mmx_2x4_n
    python bench/kernels.py --part 16bit             # binary16 / bfloat16 beside fp32
    python bench/kernels.py --config pulp-open --icache ideal   # every fetch hits

Register-file models: the ``mm_`` / ``mmh_`` / ``mmb_`` kernels keep FP values in separate f
registers; the ``mmx_`` / ``mmhx_`` / ``mmbx_`` kernels are written for a core with a single
register file (zfinx, FP values in the x registers), as PULP-TrainLib's cores are (its
``rv32imcxgap9`` build, GVSoC's ``ISS_SINGLE_REGFILE``): fewer registers, smaller blocks.  Each
kernel runs under its own model and the timing preset given (the preset's ISA with the kernel's
register file); ``catalogue.usable`` says which model a preset itself selects (pulp-open: f
registers; gvsoc-2022: zfinx).

Parts, per configuration:

* ``fp32``: kernels x shapes, MAC/cycle (N*M*K / cycles of the slowest core), the naive and best
  kernel of each register-file model per shape; then "like for like with PULP-TrainLib": its
  4.39 MAC/clk (the peak of an fp32 layer training step on 8 cores, SAMOS 2022; layer shapes not
  published) beside our best kernel of each model over the layer steps, and the cycles of its
  tutorial data point (test_conv_pw_dw_fp32, pointwise forward 8x8x16 -> 16, one core: naive
  ``mm`` 77,491, ``mm_unroll_2x1`` 49,884, ``mm_unroll_2x4`` 35,465 cycles) beside ours on the
  same product (N = Co = 16, K = Ci = 16, M = H*W = 64) on one core.
* ``16bit``: every binary16 and bfloat16 kernel (two MACs per instruction: peak 16 on 8 cores)
  on the shapes whose B is stored M x K (the layout they take), the best of each format and
  register-file model, the best fp32 kernel of each model on the same shapes and the speed-up.
* warm instruction caches: the best kernel of each format and model on the square shape, the
  cycles of one call (what every other figure here measures: the cores' instruction caches
  start empty, so the code's first pass comes from L2) beside those of a second call
  (``run_kernel(calls=2)`` minus ``calls=1``: every cache already holds the code once), as a
  kernel called repeatedly in a training step runs.
* where the core-cycles of the best kernels go: every core-cycle charged to one RunResult
  category, with "instr" split into the multiply-add issues (fmadd/fmul, vfdotpex, vfmac: the
  only cycles that do MACs) and the other instructions (loads, pointer bumps, stores, set-up).

Shapes (the DS-CNN of PULP-TrainLib's paper branch, tools/AutoTuner/tiling_utils.py, batch 1, MM
convention C[N x M] = A[N x K] . B[K x M] of pulp_train_utils_fp32.h): conv1 is Cin=1, 8x34
input, 4x10 kernel, Cout=64 (output 5x25: M=125 pixels, K=40); pw is 64 -> 64 channels on 5x5;
fc is 640 -> 32.  Forward (FW), weight gradient (WG, B = the transposed input, stored M x K) and
input gradient (IG).  Shapes whose three operands do not fit in 64 KiB of TCDM next to the
stacks run with a 128 KiB TCDM (the L1 size of PULP-TrainLib's ResNet test configuration),
marked "L1 128K".  Every result is checked against numpy (float64), fp32 within 1e-5 of
|A|.|B|, 16-bit within the output rounding plus the accumulation's bound.
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
from isasim.config import ICACHE_MODES, ClusterConfig, load_config  # noqa: E402

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
# B stored M x K: what the 16-bit kernels take (the fp32 ones run the same shapes)
SHAPES_16 = [
    ("square 64^3", 64, 64, 64, 1),
    ("conv1 WG", 64, 40, 125, 1),
    ("pw WG", 64, 64, 25, 1),
    ("pw FW (B^T)", 64, 25, 64, 1),
    ("fc WG", 32, 640, 1, 1),
]
CONFIGS = ("pulp-open", "gvsoc-2022")
PARTS = ("fp32", "16bit")
TCDM_DEFAULT = 64 * 1024
TCDM_LARGE = 128 * 1024
FREE_TCDM = TCDM_DEFAULT - 8 * 512 - 1024      # stacks and the argument block
MAC_OPS = {"fmadd.s": 1, "fmul.s": 1, "vfdotpex.s.h": 2, "vfdotpex.s.ah": 2, "vfmac.h": 2}
MODELS = {"f": "f registers", "x": "single register file (zfinx)"}
FORMATS = {"matmul_fp16": "binary16", "matmul_bf16": "bfloat16"}
# PULP-TrainLib (SAMOS 2022): fp32 peak over layer training steps, 8 cores, MAC/clk
TRAINLIB_PEAK = 4.39
# its tutorial (test_conv_pw_dw_fp32, PW FW 8x8x16 -> 16, 1 core): (kernel, cycles, our kernel)
TUTORIAL_SHAPE = ("PW FW 8x8x16->16, 1 core", 16, 64, 16, 0)
TUTORIAL = (("mm", 77491, "mmx_naive_n"), ("mm_unroll_2x1", 49884, "mmx_2x1_n"),
            ("mm_unroll_2x4", 35465, "mmx_2x4_n"))


def setting_name(config: str | ClusterConfig) -> str:
    """A preset's name, with the instruction cache model when ``--icache`` replaced it."""
    return config if isinstance(config, str) else f"{config.name}, icache {config.icache}"


def tcdm_for(N: int, M: int, K: int) -> int:
    return TCDM_DEFAULT if 4 * (N * K + K * M + N * M) <= FREE_TCDM else TCDM_LARGE


def kernels_of(family: str) -> list[str]:
    """The family's kernels, the f-register model first."""
    ks = [k for k in catalogue().values() if k.family == family]
    return [k.name for k in sorted(ks, key=lambda k: (k.regfile != "f", k.name))]


def run(name: str, shape: tuple, config: str | ClusterConfig, cores: int = 8, **overrides):
    """The RunResult of ``name`` on ``shape``, its output checked (``overrides``: settings of
    the configuration, e.g. ``icache="ideal"``)."""
    _, N, M, K, trans = shape
    family = catalogue()[name].family
    rng = np.random.default_rng(0)
    if family == "matmul":
        A = rng.standard_normal((N, K)).astype(np.float32)
        B = rng.standard_normal((M, K) if trans else (K, M)).astype(np.float32)
        C = np.zeros((N, M), np.float32)
        a, b, eps, acc_tol = A.astype(np.float64), B.astype(np.float64), 0.0, 1e-5
        if not trans:
            b = b.T
    else:                      # 16-bit: rows K2 = K rounded up to even long
        K2 = K + K % 2
        a = np.zeros((N, K2))
        b = np.zeros((M, K2))
        a[:, :K] = rng.standard_normal((N, K))
        b[:, :K] = rng.standard_normal((M, K))
        A, B, C = (encode(x, family) for x in (a, b, np.zeros((N, M))))
        a, b = decode(A, family), decode(B, family)        # the values the kernel sees
        eps = 2.0 ** -11 if family == "matmul_fp16" else 2.0 ** -8
        # binary32 sums (vfdotpex), or (mmhl_, mmbl_) 16-bit lanes of K/2 + 1 roundings each
        acc_tol = eps * (K / 2 + 2) if "_lanes_" in catalogue()[name].file else 1e-5
    r = run_kernel(name, dict(A=A, B=B, C=C, N=N, M=M, K=K, trans_B=trans, accumulate=0),
                   outputs=["C"], cores=cores, config=config, tcdm_size=tcdm_for(N, M, K),
                   **overrides)
    got = r.outputs["C"].astype(np.float64) if family == "matmul" else \
        decode(r.outputs["C"], family)
    want, bound = a @ b.T, np.abs(a) @ np.abs(b.T)
    if not (np.abs(got - want) <= eps * np.abs(want) + acc_tol * bound + 1e-30).all():
        raise SystemExit(f"{name} computed a wrong result on {shape}")
    return r.result


def encode(x: np.ndarray, family: str) -> np.ndarray:
    """float64 values as the 16-bit format's bit patterns (bfloat16: rounded to nearest even)."""
    if family == "matmul_fp16":
        return x.astype(np.float16).view(np.uint16)
    u = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def decode(bits: np.ndarray, family: str) -> np.ndarray:
    if family == "matmul_fp16":
        return bits.view(np.float16).astype(np.float64)
    return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


def mac_cycles(res) -> int:
    """Core-cycles spent issuing a multiply-add (all cores)."""
    is_mac = np.array([bool(t) and t.split()[0] in MAC_OPS for t in res.profile_text])
    return int(res.profile_count[:, is_mac].sum()) if is_mac.any() else 0


def measure(kernels: list[str], shapes: list[tuple], config: str | ClusterConfig) -> dict:
    return {(k, s[0]): run(k, s, config) for k in kernels for s in shapes}


def macs(s: tuple) -> int:
    return s[1] * s[2] * s[3]


def best_of(results: dict, kernels: list[str], s: tuple) -> str:
    return min(kernels, key=lambda k: results[k, s[0]].total_cycles)


def shape_columns(table: Table, shapes: list[tuple]) -> None:
    for s in shapes:
        big = "\nL1 128K" if tcdm_for(*s[1:4]) > TCDM_DEFAULT else ""
        table.add_column(f"{s[0]}\n{s[1]}x{s[2]}x{s[3]} t{s[4]}{big}", justify="right")


def rate(results: dict, k: str, s: tuple) -> str:
    return f"{macs(s) / results[k, s[0]].total_cycles:.2f}"


def model_rows(table: Table, results: dict, kernels: list[str], shapes: list[tuple],
               what: str) -> dict[str, dict[str, str]]:
    """Best (and naive) rows of each register-file model; returns the best per model/shape."""
    best = {}
    for model, label in MODELS.items():
        ks = [k for k in kernels if catalogue()[k].regfile == model]
        if not ks:
            continue
        best[model] = {s[0]: best_of(results, ks, s) for s in shapes}
        naive = [k for k in ks if "naive_n" in k]
        if naive:
            table.add_row(f"{what} naive, {label}", *[rate(results, naive[0], s)
                                                      for s in shapes])
        table.add_row(f"{what} best, {label}",
                      *[f"{rate(results, best[model][s[0]], s)}\n{best[model][s[0]]}"
                        for s in shapes])
    return best


def fp32_part(config: str | ClusterConfig, kernels: list[str], console: Console) -> dict:
    table = Table(title=f"fp32 matmul, MAC/cycle on 8 cores, {setting_name(config)} (peak 8)",
                  title_justify="left")
    table.add_column("kernel")
    shape_columns(table, SHAPES)
    results = measure(kernels, SHAPES, config)
    model = None
    for k in kernels:
        if model is not None and catalogue()[k].regfile != model:
            table.add_section()
        model = catalogue()[k].regfile
        table.add_row(k, *[rate(results, k, s) for s in SHAPES])
    table.add_section()
    best = model_rows(table, results, kernels, SHAPES, "fp32")
    console.print(table)

    like = Table(title=f"Like for like with PULP-TrainLib (fp32), {setting_name(config)}",
                 title_justify="left")
    for col in ("figure", "PULP-TrainLib", "single register file (zfinx)", "f registers"):
        like.add_column(col, justify="left" if col == "figure" else "right")
    peak = {}
    for m in MODELS:
        if m in best:
            s = max(SHAPES, key=lambda s, m=m: macs(s) / results[best[m][s[0]], s[0]].total_cycles)
            peak[m] = f"{rate(results, best[m][s[0]], s)}\n{best[m][s[0]]}, {s[0]}"
    like.add_row("peak MAC/cycle of a layer step, 8 cores", f"{TRAINLIB_PEAK:.2f}",
                 peak.get("x", "-"), peak.get("f", "-"))
    for theirs, cycles, ours in TUTORIAL:
        if ours not in catalogue():
            continue
        mine = run(ours, TUTORIAL_SHAPE, config, cores=1).total_cycles
        f_twin = ours.replace("mmx_", "mm_")
        f_cycles = (f"{run(f_twin, TUTORIAL_SHAPE, config, cores=1).total_cycles:,}\n{f_twin}"
                    if f_twin in catalogue() else "-")
        like.add_row(f"{TUTORIAL_SHAPE[0]}: cycles of {theirs}", f"{cycles:,}",
                     f"{mine:,}\n{ours}", f_cycles)
    console.print(like)
    return {(m, s[0]): results[best[m][s[0]], s[0]] for m in best for s in SHAPES} | \
        {("kernel", m, s[0]): best[m][s[0]] for m in best for s in SHAPES}


def sixteen_part(config: str | ClusterConfig, console: Console) -> dict:
    k16 = {fam: kernels_of(fam) for fam in FORMATS}
    k32 = kernels_of("matmul")
    table = Table(title="16-bit matmul beside fp32, MAC/cycle on 8 cores, "
                        f"{setting_name(config)} (peak 16; fp32 8)", title_justify="left")
    table.add_column("kernel")
    shape_columns(table, SHAPES_16)
    results = measure(k32 + [k for ks in k16.values() for k in ks], SHAPES_16, config)
    for ks in k16.values():
        model = None
        for k in ks:
            if model is not None and catalogue()[k].regfile != model:
                table.add_section()
            model = catalogue()[k].regfile
            table.add_row(k, *[rate(results, k, s) for s in SHAPES_16])
        table.add_section()
    best = {"fp32": model_rows(table, results, k32, SHAPES_16, "fp32")}
    for fam, ks in k16.items():
        best[fam] = model_rows(table, results, ks, SHAPES_16, FORMATS[fam])
    table.add_section()
    for fam, name in FORMATS.items():
        for m, label in MODELS.items():
            if m not in best[fam] or m not in best["fp32"]:
                continue
            table.add_row(f"{name} / fp32 speed-up, {label}", *[
                f"{speedup(results, best['fp32'][m][s[0]], best[fam][m][s[0]], s):.2f}x"
                for s in SHAPES_16])
    console.print(table)
    warm_table(config, results, [("fp32", best["fp32"])] +
               [(FORMATS[fam], best[fam]) for fam in FORMATS], console)
    return {(fam, m, s[0]): results[best[fam][m][s[0]], s[0]]
            for fam in FORMATS for m in best[fam] for s in SHAPES_16} | \
        {("kernel", fam, m, s[0]): best[fam][m][s[0]]
         for fam in FORMATS for m in best[fam] for s in SHAPES_16}


def warm_table(config: str | ClusterConfig, results: dict, best: list[tuple[str, dict]],
               console: Console) -> None:
    """MAC/cycle of one call (cold instruction caches) and of a second call (warm) of the best
    kernel of each format and register-file model on the square shape."""
    s = SHAPES_16[0]
    table = Table(title=f"Warm instruction caches, {s[0]} (B M x K), {setting_name(config)}: "
                        "MAC/cycle of the first call and of a second one "
                        "(run_kernel(calls=2) - calls=1)",
                  title_justify="left")
    for col in ("format", "kernel", "first call", "second call", "cycles first / second"):
        table.add_column(col, justify="left" if col in ("format", "kernel") else "right")
    for what, per_model in best:
        for m, label in MODELS.items():
            if m not in per_model:
                continue
            k = per_model[m][s[0]]
            one = results[k, s[0]].total_cycles
            second = run(k, s, config, calls=2).total_cycles - one
            table.add_row(f"{what}, {label}", k, f"{macs(s) / one:.2f}",
                          f"{macs(s) / second:.2f}", f"{one:,} / {second:,}")
    console.print(table)


def speedup(results: dict, slow: str, fast: str, s: tuple) -> float:
    return results[slow, s[0]].total_cycles / results[fast, s[0]].total_cycles


def breakdown(config: str | ClusterConfig, rows: list[tuple[str, str, object]],
              console: Console) -> None:
    """Where the core-cycles of the given (label, kernel, RunResult) rows go."""
    table = Table(title="Where the core-cycles of the best kernels go, "
                        f"{setting_name(config)} (% of all cores' cycles; MAC/cycle ~ 8 x MACs "
                        "per issue x 'MAC issue')",
                  title_justify="left")
    table.add_column("shape")
    table.add_column("kernel")
    cats = [c for c in L.CATEGORIES if c != "instr"]
    used = [c for c in cats if any(int(r.category(c).sum()) for _, _, r in rows)]
    for col in ("MAC issue", "other instr", *used):
        table.add_column(col, justify="right")
    for label, k, res in rows:
        total = int(res.categories.sum())
        mac = mac_cycles(res)
        other = int(res.category("instr").sum()) - mac
        parts = [mac, other] + [int(res.category(c).sum()) for c in used]
        table.add_row(label, k, *[f"{100 * p / total:.1f}" for p in parts])
    console.print(table)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", action="append", choices=CONFIGS,
                    help="timing preset (repeatable; default: both)")
    ap.add_argument("--part", action="append", choices=PARTS,
                    help="fp32 and/or 16bit (repeatable; default: both)")
    ap.add_argument("--kernels", help="fp32 part: comma-separated kernel names (default: the "
                                      "whole matmul family)")
    ap.add_argument("--icache", choices=ICACHE_MODES,
                    help="instruction cache model in place of each preset's (ideal: every "
                         "fetch hits)")
    args = ap.parse_args(argv)
    kernels = args.kernels.split(",") if args.kernels else kernels_of("matmul")
    unknown = [k for k in kernels if k not in catalogue()]
    if unknown:
        ap.error(f"unknown kernels {', '.join(unknown)}")
    console = Console(width=230)
    for name in args.config or CONFIGS:
        config = load_config(name).replace(icache=args.icache) if args.icache else name
        rows = []
        if "fp32" in (args.part or PARTS):
            got = fp32_part(config, kernels, console)
            rows += [(f"{s[0]} fp32", got["kernel", m, s[0]], got[m, s[0]])
                     for s in SHAPES[:1] + SHAPES[3:4] for m in MODELS if (m, s[0]) in got]
        if "16bit" in (args.part or PARTS):
            got = sixteen_part(config, console)
            rows += [(f"{s[0]} {FORMATS[fam]}", got["kernel", fam, m, s[0]], got[fam, m, s[0]])
                     for s in SHAPES_16[:1] for fam in FORMATS for m in MODELS
                     if (fam, m, s[0]) in got]
        breakdown(config, rows, console)
    return 0


if __name__ == "__main__":
    sys.exit(main())
