"""``trainlib train``'s verdict: the simulator against the golden model, specials included.

When training diverges both models overflow alike (float32 on both sides): a NaN or an
infinity matches the same special value at the same place, and nothing else.  The verdict
used to call identical NaN trajectories a mismatch (NaN != NaN).
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from trainlib.cli import PARAM_RTOL, matches

NAN, INF = np.float32("nan"), np.float32("inf")


def result(losses, golden_losses, got, ref):
    return SimpleNamespace(losses=losses, golden_losses=golden_losses,
                           params={"fc": {"weight": np.array(got, np.float32)}},
                           golden_params={"fc": {"weight": np.array(ref, np.float32)}})


@pytest.mark.parametrize("got, ref", [
    ([1.0, 2.0], [1.0, 2.0]),
    ([1.0, 2.0 * (1 + PARAM_RTOL / 2)], [1.0, 2.0]),
    ([NAN, 2.0, -INF], [NAN, 2.0, -INF]),
    ([NAN, NAN], [NAN, NAN]),
])
def test_equal_values_and_equal_specials_match(got, ref):
    assert matches(result([1.0, float(NAN), float(INF)], [1.0, float(NAN), float(INF)],
                          got, ref)) == []


@pytest.mark.parametrize("got, ref, message", [
    ([1.0, 2.1], [1.0, 2.0], "fc.weight: max |sim - golden| = 0.1"),
    ([NAN, 2.0], [1.0, 2.0], "fc.weight: max |sim - golden| = 0, and NaN or infinities at"),
    ([INF, 2.0], [-INF, 2.0], "and NaN or infinities at different places"),
    ([1.0, 2.0], [1.0, INF], "and NaN or infinities at different places"),
])
def test_different_values_or_specials_elsewhere_are_mismatches(got, ref, message):
    bad = matches(result([1.0], [1.0], got, ref))
    assert len(bad) == 1 and message in bad[0]


def test_a_loss_that_is_nan_on_one_side_only_is_a_mismatch():
    assert matches(result([float(NAN)], [1.0], [1.0], [1.0])) == ["step 1: loss nan, golden 1"]
    assert matches(result([2.0], [float(INF)], [1.0], [1.0])) == ["step 1: loss 2, golden inf"]
