"""Shared fixtures: one warm local pool for the tests that tune real layers."""

from __future__ import annotations

import pytest

from trainlib.tune.measure import warm_up
from trainlib.tune.pool import LocalPool


@pytest.fixture(scope="session")
def pool():
    """Two workers (this machine's cores), JIT warmed, shared by the tuning tests."""
    with LocalPool(2, timeout=120.0, initializer=warm_up) as p:
        yield p
