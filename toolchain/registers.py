"""Register, rounding-mode and fence-set names as GNU as spells them."""

from __future__ import annotations

XREG_ABI = (
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3", "a4",
    "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "t3", "t4",
    "t5", "t6",
)
FREG_ABI = (
    "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "fs0", "fs1", "fa0", "fa1", "fa2",
    "fa3", "fa4", "fa5", "fa6", "fa7", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7", "fs8", "fs9",
    "fs10", "fs11", "ft8", "ft9", "ft10", "ft11",
)

XREGS: dict[str, int] = {f"x{i}": i for i in range(32)}
XREGS.update({name: i for i, name in enumerate(XREG_ABI)})
XREGS["fp"] = 8
FREGS: dict[str, int] = {f"f{i}": i for i in range(32)}
FREGS.update({name: i for i, name in enumerate(FREG_ABI)})

ROUNDING_MODES = {"rne": 0, "rtz": 1, "rdn": 2, "rup": 3, "rmm": 4, "dyn": 7}
ROUNDING_NAMES = {v: k for k, v in ROUNDING_MODES.items()}


def xreg_name(n: int) -> str:
    return XREG_ABI[n]


def freg_name(n: int) -> str:
    return FREG_ABI[n]


def parse_fence_set(text: str) -> int | None:
    """``"iorw"`` -> 0b1111; any subset of i, o, r, w in that order; None if not a fence set."""
    text = text.strip().lower()
    if text == "0":
        return 0
    value = 0
    rest = text
    for bit, ch in zip((8, 4, 2, 1), "iorw", strict=True):
        if rest.startswith(ch):
            value |= bit
            rest = rest[1:]
    return value if text and not rest else None


def fence_set_name(value: int) -> str:
    name = "".join(ch for bit, ch in zip((8, 4, 2, 1), "iorw", strict=True) if value & bit)
    return name or "0"
