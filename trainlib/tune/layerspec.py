"""A one-layer spec on the command line: ``conv2d:ci=8,co=16,h=16,w=16,k=3,s=1,p=1``.

Tuning one layer should not need a model file.  The spec is the layer kind, a colon, then
comma-separated ``key=value`` settings:

    linear:ci=512,co=2[,bias=1]
    conv2d:ci=3,co=8,h=32,w=32,k=3[,s=1][,p=0][,bias=1]
    pointwise:ci=8,co=8,h=16,w=16[,bias=0]          (alias pw)
    depthwise:c=8,h=16,w=16,k=3[,s=1][,p=0]         (alias dw)

``k``, ``s`` and ``p`` take one number or ``HxW`` (``k=4x10``); ``name=...`` names the layer.
Every error names the key at fault.
"""

from __future__ import annotations

from trainlib.errors import ModelError
from trainlib.layers import Conv2D, DepthWise, Layer, Linear, PointWise

ALIASES = {"pw": "pointwise", "dw": "depthwise", "fc": "linear"}
KEYS = {
    "linear": ({"ci", "co"}, {"bias", "name"}),
    "conv2d": ({"ci", "co", "h", "w", "k"}, {"s", "p", "bias", "name"}),
    "pointwise": ({"ci", "co", "h", "w"}, {"bias", "name"}),
    "depthwise": ({"c", "h", "w", "k"}, {"s", "p", "name"}),
}


def _int(key: str, v: str) -> int:
    try:
        n = int(v)
    except ValueError:
        raise ModelError(f"layer spec: {key}={v!r} is not an integer") from None
    if n < 0 or (n == 0 and key not in ("p", "bias")):
        raise ModelError(f"layer spec: {key}={v} must be positive")
    return n


def _pair(key: str, v: str) -> tuple[int, int]:
    parts = v.lower().split("x")
    if len(parts) == 1:
        n = _int(key, parts[0])
        return (n, n)
    if len(parts) == 2:
        return (_int(key, parts[0]), _int(key, parts[1]))
    raise ModelError(f"layer spec: {key}={v!r}: expected a number or HxW")


def parse_layer(spec: str) -> tuple[Layer, tuple[int, ...]]:
    """(layer, input shape) from a one-layer spec."""
    kind, sep, rest = spec.partition(":")
    kind = ALIASES.get(kind.strip().lower(), kind.strip().lower())
    if not sep or kind not in KEYS:
        raise ModelError(f"layer spec {spec!r}: expected KIND:key=value,... with KIND one of "
                         f"{', '.join(KEYS)}")
    vals: dict[str, str] = {}
    for item in filter(None, (x.strip() for x in rest.split(","))):
        key, eq, v = item.partition("=")
        if not eq:
            raise ModelError(f"layer spec: {item!r} is not key=value")
        if key in vals:
            raise ModelError(f"layer spec: {key} given twice")
        vals[key] = v
    need, opt = KEYS[kind]
    if need - set(vals) or set(vals) - need - opt:
        raise ModelError(f"layer spec {kind}: needs {', '.join(sorted(need))}"
                         + (f", may have {', '.join(sorted(opt))}" if opt else "")
                         + f"; got {', '.join(vals) or 'nothing'}")
    name = vals.get("name", kind)
    g = {k: v for k, v in vals.items() if k != "name"}
    bias = bool(_int("bias", g["bias"])) if "bias" in g else None
    if kind == "linear":
        return (Linear(name, _int("ci", g["ci"]), _int("co", g["co"]),
                       True if bias is None else bias), (_int("ci", g["ci"]),))
    hw = (_int("h", g["h"]), _int("w", g["w"]))
    if kind == "pointwise":
        ci = _int("ci", g["ci"])
        return (PointWise(name, ci, _int("co", g["co"]), bool(bias)), (ci, *hw))
    geo = dict(kernel=_pair("k", g["k"]), stride=_pair("s", g.get("s", "1")),
               padding=_pair("p", g.get("p", "0")))
    if kind == "conv2d":
        ci = _int("ci", g["ci"])
        layer: Layer = Conv2D(name, ci, _int("co", g["co"]), bias=True if bias is None
                              else bias, **geo)
        shape = (ci, *hw)
    else:
        c = _int("c", g["c"])
        layer, shape = DepthWise(name, c, **geo), (c, *hw)
    layer.out_shape(shape)                       # refuses a kernel that does not fit
    return layer, shape
