"""The one-layer spec of ``trainlib tune --layer``."""

from __future__ import annotations

import pytest

from trainlib.errors import ModelError
from trainlib.layers import Conv2D, DepthWise, Linear, PointWise
from trainlib.tune.layerspec import parse_layer


def test_every_kind_with_defaults_and_pairs():
    la, s = parse_layer("conv2d:ci=8,co=16,h=16,w=16,k=3,s=1,p=1")
    assert la == Conv2D("conv2d", 8, 16, (3, 3), (1, 1), (1, 1), True) and s == (8, 16, 16)
    la, s = parse_layer("conv2d:ci=1,co=64,h=8,w=34,k=4x10,p=1,bias=0,name=c1")
    assert la == Conv2D("c1", 1, 64, (4, 10), (1, 1), (1, 1), False) and s == (1, 8, 34)
    la, s = parse_layer("fc:ci=512,co=2")
    assert la == Linear("linear", 512, 2, True) and s == (512,)
    la, s = parse_layer("pw:ci=8,co=4,h=5,w=5")
    assert la == PointWise("pointwise", 8, 4, False) and s == (8, 5, 5)
    la, s = parse_layer("dw:c=64,h=7,w=27,k=3,s=2x1")
    assert la == DepthWise("depthwise", 64, (3, 3), (2, 1), (0, 0)) and s == (64, 7, 27)


@pytest.mark.parametrize("spec, what", [
    ("conv2d", "KIND:key=value"),
    ("lstm:h=3", "KIND:key=value"),
    ("linear:ci=4", "needs ci, co"),
    ("linear:ci=4,co=2,h=3", "needs ci, co"),
    ("linear:ci=4,co=two", "'two' is not an integer"),
    ("linear:ci=4,co=0", "co=0 must be positive"),
    ("linear:ci=4,ci=5,co=2", "ci given twice"),
    ("dw:c=4,h=3,w=3,k=2x2x2", "expected a number or HxW"),
    ("conv2d:ci=1,co=1,h=2,w=2,k=5", "does not fit"),
    ("pw:ci=1,co=1,h=2,w=2,bias", "not key=value"),
])
def test_errors_name_the_fault(spec, what):
    with pytest.raises(ModelError, match=what):
        parse_layer(spec)
