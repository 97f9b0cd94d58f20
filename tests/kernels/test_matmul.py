"""The fp32 matmul kernels against numpy, their schedules, and their committed cycle counts.

Both register-file models: the mm_ kernels use the separate f registers, the mmx_ kernels
(single register file, zfinx) keep FP values in the x registers; each runs under its own model
(the runner assembles it for the preset's ISA with the kernel's register file).

Reference: ``A @ B`` (or ``A @ B.T`` when trans_B; ``+ C`` when accumulating) in float64.
Tolerance: relative 1e-5 of ``|A| @ |B| (+ |C|)``, the error bound of any fp32 dot product of
length K <= 160 (the kernels sum each output in k order, so their error is far below it) that
any wrong, missing or doubled term breaks.  Every run also goes through ``run_checked`` (guard
words after C, inputs unmodified, callee-saved registers and sp restored, the cycle invariant).

Shapes: the default run gives every kernel each value 1..9 of N, M and K (a Latin square of 9
shapes, so every leftover of every block size and K unroll occurs), three larger odd/even
shapes, both B layouts and both accumulate modes in turn, on 8 cores and on one of 1, 2, 3, 5
cores (assembling a kernel for one more core count costs ~0.3 s).  ``-m slow`` runs the full
cube N, M, K in 1..9 and larger shapes on every core count.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from asm_kernels import matmul_gen
from asm_kernels.catalogue import catalogue, program_isa, usable

from .checked_run import run_checked
from .cycle_baselines import check

FAMILY = "matmul"
KERNELS = sorted(k.name for k in catalogue().values() if k.family == FAMILY)
CORES = (1, 2, 3, 5, 8)
TOL = 1e-5
LATIN = [(1 + i, 1 + (4 * i + 2) % 9, 1 + (7 * i + 5) % 9) for i in range(9)]
LARGER = [(17, 12, 33), (24, 19, 16), (10, 37, 11)]
SLOW_LARGER = [(31, 33, 9), (64, 25, 64), (2, 70, 40), (48, 6, 17)]
BEST = "mm_4x6_n"
BEST_X = "mmx_2x4_m"


def reference(A, B, C, trans, acc):
    """(expected C in float64, per-element error bound)."""
    a, b = A.astype(np.float64), B.astype(np.float64)
    if trans:
        b = b.T
    want, bound = a @ b, np.abs(a) @ np.abs(b)
    if acc:
        want, bound = want + C, bound + np.abs(C.astype(np.float64))
    return want, TOL * bound


def operands(N, M, K, trans, seed):
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((N, K)).astype(np.float32)
    B = rng.standard_normal((M, K) if trans else (K, M)).astype(np.float32)
    C = rng.standard_normal((N, M)).astype(np.float32)
    return A, B, C


def run_case(name, N, M, K, trans, acc, cores, seed=0):
    A, B, C = operands(N, M, K, trans, seed)
    args = dict(A=A, B=B, C=C, N=N, M=M, K=K, trans_B=trans, accumulate=acc)
    out, _ = run_checked(name, args, ["C"], cores=cores)
    want, bound = reference(A, B, C, trans, acc)
    bad = ~(np.abs(out["C"].astype(np.float64) - want) <= bound + 1e-30)
    assert not bad.any(), (f"{name} N={N} M={M} K={K} trans_B={trans} accumulate={acc} "
                           f"cores={cores}: {int(bad.sum())} wrong, first at "
                           f"{np.argwhere(bad)[0]}")


@pytest.mark.parametrize("name", KERNELS)
def test_matches_numpy(name):
    i = KERNELS.index(name)
    pair = (CORES[i % 4], 8)
    for j, shape in enumerate(LATIN + LARGER):
        mode = (i + j) % 4
        run_case(name, *shape, trans=mode % 2, acc=mode // 2, cores=pair[j % 2], seed=j)


@pytest.mark.slow
@pytest.mark.parametrize("name", KERNELS)
def test_matches_numpy_exhaustive(name):
    """Every N, M, K in 1..9 (B layout, accumulate and core count in turn), then the larger
    shapes on every core count: about 800 runs, minutes per kernel; opt in with --runslow."""
    for j, shape in enumerate(itertools.product(range(1, 10), repeat=3)):
        run_case(name, *shape, trans=j % 2, acc=(j // 2) % 2, cores=CORES[j % 5], seed=j)
    for j, (shape, cores) in enumerate(itertools.product(LARGER + SLOW_LARGER, CORES)):
        run_case(name, *shape, trans=j % 2, acc=(j // 2) % 2, cores=cores, seed=j)


def test_kernels_overwrite_c_without_accumulate():
    """accumulate = 0 must ignore C's old contents (NaN there would poison a C += A.B)."""
    A, B, _ = operands(5, 7, 3, 0, 1)
    C = np.full((5, 7), np.nan, np.float32)
    for name in ("mm_naive_m", "mm_4x4_n", BEST, "mmx_3x3_m", BEST_X):
        out, _ = run_checked(name, dict(A=A, B=B, C=C, N=5, M=7, K=3, trans_B=0,
                                        accumulate=0), ["C"], cores=3)
        np.testing.assert_allclose(out["C"], A @ B, rtol=1e-5, atol=1e-6)


def test_generated_files_are_current():
    """The committed .s files and matmul.toml are what the generator writes."""
    stale = [p.name for p, text in matmul_gen.outputs().items()
             if not p.exists() or p.read_text() != text]
    assert not stale, f"regenerate with: python -m asm_kernels.matmul_gen ({stale})"


def test_catalogue_lists_both_splits_of_every_block():
    blocks = {(k.unroll, k.parallel) for k in catalogue().values() if k.family == FAMILY}
    for u, v in [(1, 2), (1, 4), (1, 8), (2, 1), (4, 1), (8, 1), (2, 2), (2, 4), (4, 2),
                 (4, 4)]:
        assert ((u, v), "N") in blocks and ((u, v), "M") in blocks, (u, v)
    assert {"mm_naive_n", "mm_naive_m", "mm_u2_n", "mm_u2_m"} <= set(KERNELS)
    x_blocks = {(k.unroll, k.parallel) for k in catalogue().values()
                if k.family == FAMILY and k.regfile == "x"}
    for u, v in [(1, 1), (1, 2), (2, 1), (1, 8), (8, 1), (2, 2), (4, 1), (1, 4), (2, 4),
                 (4, 2), (3, 3)]:
        assert ((u, v), "N") in x_blocks and ((u, v), "M") in x_blocks, (u, v)


def test_usable_follows_the_register_file_model():
    """A preset with separate f registers runs the mm_ kernels, a zfinx preset the mmx_ ones;
    a core without the Xpulp extensions runs neither (hardware loops, p.minu)."""
    pulp_open, gvsoc = "rv32imfc_xpulpv2_xf16_xf16alt_xfvec", "rv32imc_zfinx_xpulpv2_xf16"
    assert usable(BEST, pulp_open) and not usable(BEST, gvsoc)
    assert usable(BEST_X, gvsoc) and not usable(BEST_X, pulp_open)
    assert not usable(BEST, "rv32imfc") and not usable(BEST_X, "rv32imc_zfinx")
    assert program_isa(BEST_X, pulp_open) == "rv32imc_zfinx_xpulpv2_xf16_xf16alt_xfvec"
    assert program_isa(BEST, gvsoc) == "rv32imfc_xpulpv2_xf16"


def test_strips_fit_their_register_file():
    """Every strip's pointers, accumulators and operands are distinct registers, its FP values
    in its model's registers; a block too large for the x registers is refused."""
    for fam in matmul_gen.FAMILIES + matmul_gen.X_FAMILIES:
        for trans in (0, 1):
            for st in fam.strips(trans):
                acc, _, ab, bb = st.fp_plan()
                ip = st.int_plan()
                vals = [r for row in acc for r in row] + [r for b in ab + bb for r in b]
                held = {r for b in ab + bb for r in b}
                regs = [r for row in acc for r in row] + sorted(held) + ip["pa"] + ip["pb"]
                assert len(regs) == len(set(regs)), (st, regs)
                assert set(vals) <= set(st.fregs()), st
    with pytest.raises(ValueError, match="too few"):
        matmul_gen.XStrip(3, 4, 1, 4).fp_plan()


@pytest.mark.parametrize("fam", matmul_gen.FAMILIES + matmul_gen.X_FAMILIES,
                         ids=lambda f: f.prefix)
def test_unrolled_bodies_have_no_load_use_stall(fam):
    """No body waits for a load, except a one-step 1 x 1 body with post-increment loads: its
    multiply-add needs both values loaded just before it (3 instructions and a stall; a bump
    instruction between them would cost the same cycle)."""
    for trans in (0, 1):
        for st in fam.strips(trans):
            for steps, body in ((st.uk, st.body(st.uk)), (1, st.body(1)),
                                (1, st.body(1, first=True))):
                allowed = int(st.POSTINC and st.u * st.v * steps == 1)
                assert matmul_gen.stall_count(body) == allowed, (st, [o.text for o in body])


def test_schedule_keeps_dependences_and_avoids_stalls():
    ops = [matmul_gen.op("flw f1, 0(a0)", ("f1",), ("a0",), load=True),
           matmul_gen.op("fmadd.s f0, f1, f1, f0", ("f0",), ("f1", "f0")),
           matmul_gen.op("flw f2, 4(a0)", ("f2",), ("a0",), load=True),
           matmul_gen.op("addi a0, a0, 8", ("a0",), ("a0",))]
    got = [o.text for o in matmul_gen.schedule(ops)]
    assert got == ["flw f1, 0(a0)", "flw f2, 4(a0)", "fmadd.s f0, f1, f1, f0",
                   "addi a0, a0, 8"]


# ---------------------------------------------------------------------------------------------
# cycles


def cycles(name, N, M, K, trans=0, acc=0, cores=8, config="pulp-open"):
    A, B, C = operands(N, M, K, trans, 0)
    args = dict(A=A, B=B, C=C, N=N, M=M, K=K, trans_B=trans, accumulate=acc)
    return run_checked(name, args, ["C"], cores=cores, config=config)[1]


def _baseline_cases():
    cases = {}
    for name in KERNELS:
        # the paper-like square shape, B K x M, on 8 cores
        cases[f"{name}/64x64x64_t0_c8"] = lambda n=name: cycles(n, 64, 64, 64)
        # DS-CNN pointwise 64 -> 64 on a 5x5 map, forward (N=Cout, M=HW, K=Cin), B stored M x K
        cases[f"{name}/64x25x64_t1_c8"] = lambda n=name: cycles(n, 64, 25, 64, trans=1)
        # leftovers everywhere, accumulating, on 5 cores
        cases[f"{name}/23x19x17_t0_acc_c5"] = lambda n=name: cycles(n, 23, 19, 17, acc=1,
                                                                   cores=5)
    for name in ("mm_naive_n", BEST, "mmx_naive_n", BEST_X):
        cases[f"{name}/64x64x64_t0_c8_gvsoc2022"] = \
            lambda n=name: cycles(n, 64, 64, 64, config="gvsoc-2022")
    return cases


BASELINE_CASES = _baseline_cases()


@pytest.mark.parametrize("case_id", sorted(BASELINE_CASES))
def test_cycles_match_baseline(case_id):
    check(FAMILY, case_id, BASELINE_CASES[case_id]())


def test_best_kernel_reaches_4_6_mac_per_cycle_and_twice_naive():
    """The goal of the family on the square shape: >= 4.6 MAC/cycle on 8 cores (pulp-open:
    rr_arb_tree arbitration, its instruction cache; measured 4.67, the K loop unrolled x2 to
    fit the 512-byte L0: x8 gave 5.04 with ideal fetch but 3.53 with the cache) and >= 2x the
    naive kernel."""
    macs = 64 ** 3
    best = macs / cycles(BEST, 64, 64, 64)
    naive = macs / cycles("mm_naive_n", 64, 64, 64)
    assert best >= 4.6, best
    assert best >= 2 * naive, (best, naive)


def test_single_register_file_matches_pulp_trainlib():
    """Like for like with PULP-TrainLib (its cores keep FP values in the x registers): the best
    single-register-file kernel on 64 x 64 x 64, 8 cores, reaches >= 4.0 MAC/cycle with
    pulp-open's instruction cache (measured 4.07, 4.16 with ideal fetch; PULP-TrainLib reports
    4.39 at best over layer steps), and its 2 x 4 on one core stays within 10% of
    PULP-TrainLib's tutorial figure for mm_unroll_2x4 on the pointwise forward product
    16 x 64 x 16 (35,465 cycles, test_conv_pw_dw_fp32)."""
    assert 64 ** 3 / cycles("mmx_4x2_m", 64, 64, 64) >= 4.0
    assert abs(cycles("mmx_2x4_n", 16, 64, 16, cores=1) - 35465) <= 3547


def assembles_for_exactly_its_isa(names):
    """Each kernel's file assembles for its catalogue isa (so a core with only those extensions
    runs it) and not for the other register-file model."""
    from toolchain.asm import AsmError, assemble
    from toolchain.table import Selection

    for name in names:
        k = catalogue()[name]
        assemble(k.source(), filename=k.file, family=k.isa)
        sel = k.selection
        other = Selection(sel.family, sel.extensions, True, not sel.zfinx).name
        with pytest.raises(AsmError):
            assemble(k.source(), filename=k.file, family=other)


def test_catalogue_isa_is_what_the_file_needs():
    """One kernel per family and register-file model (the hand-written naive one too); the
    whole matmul catalogue under --runslow."""
    assembles_for_exactly_its_isa(["mm_naive_n", "mm_4x6_n", "mmx_3x3_n", "mmh_4x6_n",
                                   "mmhx_2x4_n", "mmb_4x6_n", "mmbx_2x4_n"])


@pytest.mark.slow
def test_catalogue_isa_is_what_the_file_needs_everywhere():
    files = {}
    for k in catalogue().values():
        if k.family.startswith("matmul"):
            files.setdefault(k.file, k.name)
    assembles_for_exactly_its_isa(sorted(files.values()))
