"""blocktranspose_16 / transpose_16 (transpose_16.s, generated from transpose.s by
asm_kernels/half_gen.py): 16-bit patterns moved exactly, on test_transpose.py's shapes (odd
kernel sizes and row lengths, fewer units than cores) and core counts."""

from __future__ import annotations

import numpy as np
import pytest

from .cycle_baselines import check
from .half import run16
from .test_transpose import BT_SHAPES, CORES, TR_SHAPES

FAMILY = "transpose_fp16"


def run_bt(Co, Ci, k, cores, seed):
    W = np.random.default_rng(seed).integers(1, 0xFFFF, (Co, Ci, k)).astype(np.uint16)
    bt = np.full((Ci, Co, k), 0xFFFF, np.uint16)
    out, cycles = run16("blocktranspose_16", dict(W=W, bt=bt, Co=Co, Ci=Ci, HkWk=k), ["bt"],
                        cores=cores)
    assert np.array_equal(out["bt"], W.transpose(1, 0, 2)[:, :, ::-1]), (Co, Ci, k, cores)
    return cycles


def run_tr(R, C, cores, seed):
    src = np.random.default_rng(seed).integers(1, 0xFFFF, (R, C)).astype(np.uint16)
    dst = np.full((C, R), 0xFFFF, np.uint16)
    out, cycles = run16("transpose_16", dict(src=src, dst=dst, R=R, C=C), ["dst"], cores=cores)
    assert np.array_equal(out["dst"], src.T), (R, C, cores)
    return cycles


def test_blocktranspose_matches_numpy():
    for j, shape in enumerate(BT_SHAPES):
        run_bt(*shape, cores=CORES[j % 5], seed=j)


def test_transpose_matches_numpy():
    for j, shape in enumerate(TR_SHAPES):
        run_tr(*shape, cores=CORES[j % 5], seed=j)


BASELINE_CASES = {
    "blocktranspose_16/Co16_Ci8_k9_c8": lambda: run_bt(16, 8, 9, 8, 0),
    "transpose_16/R32_C24_c8": lambda: run_tr(32, 24, 8, 0),
    "transpose_16/R17_C9_c3": lambda: run_tr(17, 9, 3, 0),
}


@pytest.mark.parametrize("case_id", sorted(BASELINE_CASES))
def test_cycles_match_baseline(case_id):
    check(FAMILY, case_id, BASELINE_CASES[case_id]())
