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


def checked(value, kind: str, what: str):
    """``value`` if it is of ``kind`` (a key of the table above), else a ModelError naming
    ``what`` ("layer fc: bias"): TOML lets a user write any type anywhere."""
    ok, wanted = _KINDS[kind]
    if not ok(value):
        raise ModelError(f"{what} must be {wanted}, got {value!r}")
    return value
