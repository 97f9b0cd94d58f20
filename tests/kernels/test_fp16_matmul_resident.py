"""The 16-bit kernels whose main strip keeps its block loop in the L0 instruction cache
(``HResidentStrip`` in ``asm_kernels/matmul_fp16_gen.py``: binary16 mmh_4x4, mmh_4x6, mmh_6x4;
bfloat16 mmb_4x4, mmb_4x6, mmb_6x4, the same routine with vfdotpex.s.ah, ``BResidentStrip``).

The Latin-square shapes of ``test_matmul_fp16`` are too small to reach that routine's first
pass (at least 2^12 MACs per call) and mostly take its fallback; these shapes reach every path
of it: the first pass and the skew (a cold call; resumed with the strip's only block, or
skipped when the K loop has one iteration), the skew without the pass (a second call, its
code in the caches), the K loop with k pairs left over (x2 / x4 unroll)
and with K odd (out-of-line), accumulating (out-of-line C load), several calls per core (the
flag in s11 cleared), and the fallback to the general routine when C's rows are not on words
(M odd) or K has fewer than ``uk`` pairs.  Outputs must equal the bit-exact golden model of
``test_matmul_fp16`` / ``test_matmul_bf16`` (which also check that nothing is written past C),
and the routine's layout must hold: the block loop starts on a 128-byte boundary and spans at
most the L0's 512 bytes.
"""

from __future__ import annotations

import numpy as np
import pytest

from asm_kernels import matmul_fp16_gen as gen
from asm_kernels.catalogue import catalogue
from asm_kernels.runner import run_kernel

from . import test_matmul_bf16, test_matmul_fp16
from .test_matmul_fp16 import golden, operands, run

RESIDENT_FAMILIES = [f for f in gen.FAMILIES + gen.BF16_FAMILIES
                     if isinstance(f, gen.Fp16ResidentFamily)]
RESIDENT = [k.name for k in catalogue().values()
            if any(k.family == f.family and k.file == f.file for f in RESIDENT_FAMILIES)]
# each format's run against its bit-exact model
RUN_CASE = {"matmul_fp16": test_matmul_fp16.run_case, "matmul_bf16": test_matmul_bf16.run_case}
# (N, M, K, accumulate, cores): first pass + several strips per core; K odd with pairs left over
# (K = 61: 30 pairs, x4 leaves 2, x2 none); accumulating; M odd (fallback on odd rows' C);
# K = 5 (2 pairs: fewer than x4's 4, the fallback); a column split with partial groups; one K
# iteration of x4 (K = 9: no first pass), two (K = 17, odd: the pass, then one more); one
# block per main strip (M = 4: the pass's block is the strip's last)
SHAPES = [
    (64, 64, 64, 0, 8),
    (40, 30, 61, 1, 3),
    (24, 48, 34, 0, 2),
    (33, 37, 40, 1, 5),
    (16, 64, 5, 0, 1),
    (20, 52, 70, 1, 8),
    (64, 64, 9, 1, 2),
    (32, 16, 17, 0, 1),
    (64, 4, 64, 1, 2),
]


def test_the_resident_kernels_are_in_the_catalogue():
    assert sorted(RESIDENT) == ["mmb_4x4_m", "mmb_4x4_n", "mmb_4x6_m", "mmb_4x6_n",
                                "mmb_6x4_m", "mmb_6x4_n", "mmh_4x4_m", "mmh_4x4_n",
                                "mmh_4x6_m", "mmh_4x6_n", "mmh_6x4_m", "mmh_6x4_n"]


@pytest.mark.parametrize("name", sorted(RESIDENT))
@pytest.mark.parametrize("shape", SHAPES,
                         ids=lambda s: "x".join(map(str, s[:3])) + f"_a{s[3]}c{s[4]}")
def test_resident_paths_match_golden(name, shape):
    N, M, K, acc, cores = shape
    RUN_CASE[catalogue()[name].family](name, N, M, K, acc, cores, seed=N + M + K)


@pytest.mark.parametrize("fam", RESIDENT_FAMILIES, ids=lambda f: f.prefix)
def test_block_loop_fits_the_l0_on_its_own_lines(fam):
    """The symbols of the assembled kernel: for a family laid out on the L0's set period
    (``l0_aligned``), the kernel's entry and ``<strip>_blk`` on 128-byte boundaries (its lines
    map to the same sets wherever a program places the kernel, the block loop's first line to
    set 0), for the others ``<strip>_blk`` on a 16-byte line; and the block loop (to
    ``<strip>_blk_last``, a 2-byte c.add) within 512 bytes = 32 lines, so that the 8 sets x 4
    ways hold it whole."""
    A2, B2, C = operands(4, 8, 8, 0)
    res = run_kernel(f"{fam.prefix}_n", dict(A=A2, B=B2, C=C, N=4, M=8, K=8, trans_B=1,
                                             accumulate=0), cores=1).result
    strip = gen.HResidentStrip(fam.u, fam.v, 1, fam.uk).label(fam.prefix)
    start, last = res.symbols[f"{strip}_blk"], res.symbols[f"{strip}_blk_last"]
    period = 128 if fam.l0_aligned else 16
    if fam.l0_aligned:
        assert res.symbols[f"{fam.prefix}_n"] % 128 == 0, hex(res.symbols[f"{fam.prefix}_n"])
    assert start % period == 0, hex(start)
    assert last + 2 - start <= 512, last + 2 - start


def _issued(res, label: str) -> list[int]:
    """How many times each core issued the instruction at ``label``."""
    at = list(res.profile_pc).index(res.symbols[label])
    return res.profile_count[:, at].tolist()


@pytest.mark.parametrize("acc", [0, 1], ids=["overwrite", "accumulate"])
def test_warm_call_skews_without_the_pass(acc):
    """Two calls of 64 x 64 x 64 on 8 cores: the first finds the code cold (its set-up takes
    about 170 cycles, more than ``COLD``) and passes over the block loop before the skew, the
    second finds it in the L1 (63 cycles) and skews at once: the pass's first instruction and
    the warm path's are issued once per core each.  C after both calls is the golden model
    applied twice (accumulating: C + A.B rounded, then + A.B again)."""
    A2, B2, C = operands(64, 64, 64, 11)
    args = dict(A=A2, B=B2, C=C, N=64, M=64, K=64, trans_B=1, accumulate=acc)
    run = run_kernel("mmh_4x4_n", args, outputs=["C"], cores=8, calls=2)
    res = run.result
    assert res.status == "exited", (res.status, res.fault)
    strip = gen.HResidentStrip(4, 4, 1, 4).label("mmh_4x4")
    assert _issued(res, f"{strip}_pass") == [1] * 8
    assert _issued(res, f"{strip}_now") == [1] * 8
    want = golden(A2, B2, C, 64, acc)
    if acc:
        want = golden(A2, B2, want, 64, acc)
    assert (run.outputs["C"].view("u2") == want.view("u2")).all()


@pytest.mark.parametrize("name", ["mmh_4x4_n", "mmb_4x4_n"])
def test_4x4_n_mac_per_cycle_with_the_icache(name):
    """64 x 64 x 64 on 8 cores, pulp-open with its rtl instruction cache: >= 8.6 MAC/cycle on
    a first call (measured 8.68; 7.92 before the block loop was made resident) and >= 9 (issue
    23's target) on a second call, whose instruction caches are warm and which skews without
    the first pass (measured 9.03, the same wherever the program places the kernel: its code
    starts on the L0's 128-byte set period).  The K loop that fits the L0 issues 26
    instructions per 32 MACs (0.81 cycle/MAC), the blocks' other code 46 per 1024 MACs, the
    skew delays core 7 by 182 cycles; a first call fetches about 80 lines from L2; in a second
    one the 46 lines of the driver and the set-up evict lines of the block loop (the L0's
    random replacement), whose refills evict more (about 60 refills of block-loop lines per
    core).  bfloat16 runs the same code with the .ah instructions: the same cycles."""
    A2, B2, C = operands(64, 64, 64, 0)
    args = dict(A=A2, B=B2, C=C, N=64, M=64, K=64, trans_B=1, accumulate=0)
    first = run_kernel(name, args, cores=8).cycles
    second = run_kernel(name, args, cores=8, calls=2).cycles - first
    assert 64 ** 3 / first >= 8.6, first
    assert 64 ** 3 / second >= 9.0, second


@pytest.mark.parametrize("shape", [(64, 64, 64, 0), (24, 48, 35, 1)], ids=["64^3", "24x48x35_acc"])
def test_resident_path_on_gvsoc_2022(shape):
    """The other preset (GVSoC's icache model, its FPU and misaligned timing): same bits."""
    N, M, K, acc = shape
    got, _, (A2, B2, C) = run("mmh_4x4_n", N, M, K, acc, 8, seed=3, config="gvsoc-2022")
    want = golden(A2, B2, C, K, acc)
    assert (got.view("u2") == want.view("u2")).all()


@pytest.mark.parametrize("name", ["mmh_4x4_n", "mmh_4x6_m"])
def test_no_misaligned_access_on_any_path(name):
    """A core that traps on misaligned accesses runs both paths: packed word stores only when
    C's rows are on words (M = 64), the general routine's half-word stores otherwise (M = 37);
    run_checked fails on the trap."""
    from .checked_run import run_checked
    for M in (64, 37):
        A2, B2, C = operands(16, M, 40, 5)
        flat = C.reshape(-1)
        flat = flat if flat.size % 2 == 0 else np.concatenate([flat, flat[:1]])
        out, _ = run_checked(name, dict(A=A2, B=B2, C=flat, N=16, M=M, K=40, trans_B=1,
                                        accumulate=0), ["C"], cores=4, misaligned="fault")
        want = golden(A2, B2, C, 40, 0)
        assert (out["C"][:16 * M].view("u2") == want.reshape(-1).view("u2")).all(), M
