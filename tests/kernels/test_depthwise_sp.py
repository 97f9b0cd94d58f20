"""The column-split depthwise kernels (depthwise_sp.s) on the shapes they are for, and their cycles.

test_depthwise.py already runs them (they are in the depthwise family) on its shape set, with
its reference and bound, and pins their cycles on its 8-channel shapes.  Here: tiles with
fewer channels than cores and large output planes (N = 1, 2, 3, 5 with M up to 189, M below
the core count, padded B rows), that they beat the best channel-split kernel there, and their
cycles on those shapes (baselines/depthwise_sp.json).
"""

from __future__ import annotations

import itertools

import pytest

from .cycle_baselines import check
from .test_depthwise import cycles, run_case

FAMILY = "depthwise_sp"
KERNELS = ["mm_dw_sp_1x4", "mm_dw_in_grad_sp_1x4"]
CORES = (1, 2, 3, 5, 8)
# (N, M, ker, B row padding)
SHAPES = [(3, 64, 25, 0), (2, 189, 9, 1), (1, 50, 9, 0), (5, 33, 4, 3), (3, 7, 9, 0),
          (4, 13, 2, 1), (2, 8, 1, 0)]


@pytest.mark.parametrize("name", KERNELS)
def test_few_channels_match_numpy(name):
    for j, shape in enumerate(SHAPES):
        run_case(name, *shape, cores=(3, 8)[j % 2], seed=20 + j)


@pytest.mark.slow
@pytest.mark.parametrize("name", KERNELS)
def test_few_channels_match_numpy_all_cores(name):
    for (j, shape), cores in itertools.product(enumerate(SHAPES), CORES):
        run_case(name, *shape, cores=cores, seed=20 + j)


def test_beats_the_channel_split_on_few_channels():
    """3 channels of a 5x5 depthwise layer over an 8x8 plane, 8 cores: 5 cores idle in the
    channel split."""
    sp = cycles("mm_dw_in_grad_sp_1x4", 3, 64, 25, 8)
    best = min(cycles(k, 3, 64, 25, 8) for k in ("mm_dw_in_grad_1x4_u2", "mm_dw_in_grad_u2"))
    assert sp * 1.5 < best, (sp, best)


BASELINE_CASES = {f"{name}/N{n}_M{m}_ker{ker}_c{c}": (lambda name=name, n=n, m=m, ker=ker, c=c:
                                                      cycles(name, n, m, ker, c))
                  for name in KERNELS
                  for n, m, ker, c in ((3, 64, 25, 8), (2, 189, 9, 8), (3, 49, 9, 1))}


@pytest.mark.parametrize("case_id", sorted(BASELINE_CASES))
def test_cycles_match_baseline(case_id):
    check(FAMILY, case_id, BASELINE_CASES[case_id]())
