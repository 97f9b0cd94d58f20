"""The errors trainlib raises on purpose, so the CLI can print them as one line.

Every message names what is wrong and where (the layer, the step, the memory), because the user
fixes a model file from that line alone.
"""

from __future__ import annotations


class TrainlibError(ValueError):
    """Base class: a problem in the user's model, choices or plan (not a bug in trainlib)."""


class ModelError(TrainlibError):
    """A model description that cannot be built: unknown layer, bad parameter, shape mismatch."""


class PlanError(TrainlibError):
    """A memory plan that does not fit, even tiled; the message says by how many bytes."""


class NotAvailable(TrainlibError):
    """A step whose kernel is not in the catalogue (the step is reported, never faked)."""


class SimulationError(TrainlibError):
    """A driver program that faulted, deadlocked or timed out on the simulator."""


# ---- checking values read from model files ----------------------------------------------------
def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)     # TOML's true is not a count


_KINDS = {
    "int": (_is_int, "an integer"),
    "number": (lambda v: isinstance(v, int | float) and not isinstance(v, bool), "a number"),
    "bool": (lambda v: isinstance(v, bool), "true or false"),
    "str": (lambda v: isinstance(v, str), "a string"),
    "ints": (lambda v: isinstance(v, list) and all(_is_int(x) for x in v), "a list of integers"),
    "strs": (lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v),
             "a list of strings"),
}


FLOAT32_MAX = 3.4028234663852886e38

# the allowed values of the numbers of a model file, (lowest, highest), by key: dimensions and
# counts up to sizes no cluster memory holds (the planner then says by how much); floats must
# be finite float32 (the simulator computes in binary32)
RANGES: dict[str, tuple[float, float]] = {
    "seed": (0, 2**32 - 1),                          # numpy's seeds are non-negative
    "input": (1, 1 << 24),
    "lr": (0.0, FLOAT32_MAX),
    "weight_decay": (0.0, FLOAT32_MAX),
    "in_features": (1, 1 << 24),
    "out_features": (1, 1 << 24),
    "in_channels": (1, 1 << 24),
    "out_channels": (1, 1 << 24),
    "channels": (1, 1 << 24),
    "kernel": (1, 256),
    "stride": (1, 256),
    "padding": (0, 256),
    "negative_slope": (-FLOAT32_MAX, FLOAT32_MAX),
    "tile": (1, 1 << 24),
    "cycles": (0, 2**62),
}


def checked(value, kind: str, what: str, key: str | None = None):
    """``value`` if it is of ``kind`` (a key of the table above) and, for a number named
    ``key`` in ``RANGES``, within its range; else a ModelError naming ``what`` ("layer fc:
    bias") and what is allowed: TOML lets a user write any type and any size anywhere."""
    ok, wanted = _KINDS[kind]
    if not ok(value):
        raise ModelError(f"{what} must be {wanted}, got {value!r}")
    if key in RANGES and kind in ("int", "number", "ints"):
        lo, hi = RANGES[key]
        for v in value if isinstance(value, list | tuple) else (value,):
            if not (isinstance(v, int | float) and lo <= v <= hi):    # NaN fails too
                raise ModelError(f"{what} = {v!r} is out of range: it must be {_span(lo, hi)}")
    return value


def _span(lo: float, hi: float) -> str:
    if isinstance(lo, float):
        return f"{lo:g}..{hi:g} (a finite float32)"
    return f"{lo:,}..{hi:,}"
