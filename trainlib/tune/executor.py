"""Where candidates run: a tiny interface, so the search does not care whether it is a local
process pool or a Dask cluster.

``submit(fn, arg)`` returns a ``concurrent.futures.Future`` whose result is always an
``Outcome`` — the future never raises: a job that raised, hung past the time-out or killed its
worker comes back as a record with that status, because one bad candidate must not stop a sweep
of hundreds.  ``capacity`` is how many jobs run at once (the search keeps that many in flight
and no more, so that every result can prune what is still queued).
"""

from __future__ import annotations

import time
import traceback
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class Outcome:
    """A job's end: ``done`` (``value`` is what fn returned), ``error`` (fn raised: ``error``
    is the exception line), ``timeout`` (killed after ``seconds``), ``crashed`` (the worker
    died)."""

    status: str
    value: Any = None
    error: str = ""
    seconds: float = 0.0


class Executor(Protocol):
    capacity: int

    def submit(self, fn: Callable[[Any], Any], arg: Any) -> Future[Outcome]: ...

    def close(self) -> None: ...


def error_outcome(exc: BaseException, seconds: float) -> Outcome:
    """An exception as a record: its type, message and where it was raised."""
    where = traceback.extract_tb(exc.__traceback__)
    at = f" at {where[-1].filename.rsplit('/', 1)[-1]}:{where[-1].lineno}" if where else ""
    return Outcome("error", error=f"{type(exc).__name__}: {exc}{at}", seconds=seconds)


def run_job(fn: Callable[[Any], Any], arg: Any) -> Outcome:
    """``fn(arg)`` as a record, whatever it does short of killing its process."""
    t0 = time.perf_counter()
    try:
        return Outcome("done", fn(arg), seconds=time.perf_counter() - t0)
    except BaseException as e:           # noqa: BLE001 - every failure is a record
        return error_outcome(e, time.perf_counter() - t0)


def make_executor(spec: str | None, workers: int | None, timeout: float,
                  initializer: Callable[[], None] | None = None) -> Executor:
    """``None`` or ``local``: a local process pool; ``dask://host:port`` (or ``tcp://``): a
    Dask distributed scheduler (needs the ``distributed`` package)."""
    if spec in (None, "", "local"):
        from trainlib.tune.pool import LocalPool

        return LocalPool(workers, timeout, initializer)
    if spec.startswith(("dask://", "tcp://")):
        from trainlib.tune.daskexec import DaskExecutor

        address = "tcp://" + spec.split("://", 1)[1]
        return DaskExecutor(address, timeout, initializer)
    raise ValueError(f"executor {spec!r}: expected 'local' or dask://host:port")
