"""Element formats in simulator memory: how many bytes an element takes, and its bits.

A tensor of a layer computing in ``precision`` (``trainlib.model``) is stored in that format:
fp32 as IEEE binary32 words, fp16 as IEEE binary16 half-words, bf16 as bfloat16 half-words
(the upper half of a binary32, the ``float16alt`` type of PULP's smallFloat extensions).  The
host side keeps the golden model's types (``trainlib.golden``): fp32 as ``float32``, fp16 as
``float16``, bf16 as ``float32`` arrays holding bfloat16 values.

Writing a value that is not exactly representable rounds it to nearest-even (what a
conversion instruction does), so a host-provided fp32 sample written as fp16 is the fp16
value the golden model computes with.
"""

from __future__ import annotations

import numpy as np

from trainlib.golden import FORMATS, round_to

ELEMENT_BYTES = {"fp32": 4, "fp16": 2, "bf16": 2}


def element_bytes(fmt: str) -> int:
    try:
        return ELEMENT_BYTES[fmt]
    except KeyError:
        raise ValueError(f"element format {fmt!r}: one of {', '.join(ELEMENT_BYTES)}") from None


def encode(values, fmt: str) -> np.ndarray:
    """The memory image of ``values`` in ``fmt`` (flat): float32, or uint16 half-words."""
    a = np.asarray(values).reshape(-1)
    if fmt == "fp32":
        return np.ascontiguousarray(a, dtype=np.float32)
    if fmt == "fp16":
        with np.errstate(over="ignore"):                # overflow: to infinity, as converted
            return np.ascontiguousarray(a, dtype=np.float16).view(np.uint16)
    element_bytes(fmt)
    r = round_to(np.asarray(a, dtype=np.float64), "bf16").astype(np.float32)
    return (r.view(np.uint32) >> 16).astype(np.uint16)


def decode(raw: np.ndarray, fmt: str) -> np.ndarray:
    """Values of a memory image (``raw`` as read: float32 or uint16) in the host type."""
    if fmt == "fp32":
        return np.asarray(raw, dtype=np.float32)
    if fmt == "fp16":
        return np.asarray(raw, dtype=np.uint16).view(np.float16)
    return (np.asarray(raw, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32)


def raw_dtype(fmt: str) -> type:
    """The numpy type a memory image of ``fmt`` is read as."""
    return np.float32 if fmt == "fp32" else np.uint16


def host_dtype(fmt: str) -> type:
    return FORMATS[fmt].dtype
