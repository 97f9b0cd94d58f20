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
