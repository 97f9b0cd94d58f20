"""The Dask ``distributed`` back end: the same contract as the local pool, on a cluster.

For sweeps that outgrow one machine: ``--executor dask://host:port`` sends every candidate to a
Dask scheduler.  Dask cannot stop a running task, so each task runs its job in a child forked
from the (already warm) Dask worker process and SIGKILLs that child at the time-out; the task
itself always returns an ``Outcome`` record.  The optional ``distributed`` package is imported
only when this back end is used (``pip install isasim[dask]``).
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future
from typing import Any

from trainlib.tune.executor import Outcome, error_outcome, run_job

_warm_lock = threading.Lock()
_fork_lock = threading.Lock()
_warmed: set[Callable] = set()


def _warm(initializer: Callable[[], None] | None) -> None:
    """Run the initializer once per Dask worker process, so forked children start warm."""
    if initializer is None:
        return
    with _warm_lock:
        if initializer not in _warmed:
            initializer()
            _warmed.add(initializer)


def _child(fn: Callable[[Any], Any], arg: Any, fd: int) -> None:
    out = run_job(fn, arg)
    try:
        data = pickle.dumps(out)
    except Exception as e:               # noqa: BLE001 - a result that cannot pickle
        data = pickle.dumps(error_outcome(e, out.seconds))
    with os.fdopen(fd, "wb") as f:
        f.write(data)


def run_isolated(fn: Callable[[Any], Any], arg: Any, timeout: float,
                 initializer: Callable[[], None] | None = None) -> Outcome:
    """Run ``fn(arg)`` in a forked child; kill it after ``timeout`` seconds."""
    _warm(initializer)
    # A Dask worker runs tasks in threads: a child forked by another thread between our pipe()
    # and close(w) would inherit our write end and hold it open, so a job that exits at once
    # would look hung until that other child ends.  No fork may happen in that window.
    with _fork_lock:
        r, w = os.pipe()
        t0 = time.monotonic()
        pid = os.fork()
        if pid == 0:                                 # pragma: no cover - the child
            code = 0
            try:
                os.close(r)
                _child(fn, arg, w)
            except BaseException:                    # noqa: BLE001
                code = 1
            finally:
                os._exit(code)
        os.close(w)
    chunks = []
    try:
        while True:
            left = t0 + timeout - time.monotonic()
            if left <= 0 or not select.select([r], [], [], left)[0]:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                return Outcome("timeout", error=f"killed after {timeout:g} s",
                               seconds=time.monotonic() - t0)
            chunk = os.read(r, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(r)
    _, status = os.waitpid(pid, 0)
    if not chunks:
        return Outcome("crashed", error=f"job process ended with status {status}",
                       seconds=time.monotonic() - t0)
    return pickle.loads(b"".join(chunks))


class DaskExecutor:
    """Jobs on a Dask distributed cluster; ``capacity`` = the cluster's worker threads."""

    def __init__(self, address: str, timeout: float = 60.0,
                 initializer: Callable[[], None] | None = None) -> None:
        from distributed import Client

        self._client = Client(address, timeout=30)
        self.timeout = timeout
        self.initializer = initializer
        self.capacity = max(1, sum(self._client.nthreads().values()))
        self._pending: set[Any] = set()
        self._lock = threading.Lock()

    def submit(self, fn: Callable[[Any], Any], arg: Any) -> Future[Outcome]:
        fut: Future[Outcome] = Future()
        fut.set_running_or_notify_cancel()
        dfut = self._client.submit(run_isolated, fn, arg, self.timeout, self.initializer,
                                   pure=False)
        with self._lock:
            self._pending.add(dfut)

        def done(f: Any) -> None:
            with self._lock:
                self._pending.discard(f)
            try:
                fut.set_result(f.result())
            except BaseException as e:               # noqa: BLE001 - lost worker, cancelled
                fut.set_result(Outcome("crashed", error=f"dask: {type(e).__name__}: {e}"))
        dfut.add_done_callback(done)
        return fut

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> DaskExecutor:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
