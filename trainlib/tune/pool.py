"""A local process pool whose time-out kills the worker, not just the wait for it.

``concurrent.futures.ProcessPoolExecutor`` cannot stop a running job: a future's time-out only
stops waiting, and the hung simulation keeps its core for ever.  Here each worker is a process
of our own with a pipe; a dispatcher thread hands out jobs, and when a job outlives the time-out
it SIGKILLs that worker, reports ``timeout`` and starts a fresh one.  A worker that dies (a
segfault, ``os._exit``) is reported as ``crashed`` the same way.  Workers are spawned (no fork
of a parent that may hold threads), start lazily, and run ``initializer`` (the simulator's JIT
warm-up) before they say they are ready, so the warm-up never counts against a job's time-out.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any

from trainlib.tune.executor import Outcome, error_outcome, run_job

READY = "ready"
START_TIMEOUT = 300.0            # seconds a new worker may take to import and warm up
START_ATTEMPTS = 3               # consecutive failed starts before queued jobs are failed


def _worker_main(conn: Connection, initializer: Callable[[], None] | None) -> None:
    """Worker process: warm up, say ready, then run jobs until told to stop (None).  Ctrl-C
    at the terminal reaches the whole process group: the parent decides, and kills the
    workers it no longer wants."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if initializer is not None:
        initializer()
    conn.send(READY)
    while True:
        try:
            msg = conn.recv()
        except EOFError:                 # the parent is gone (it was stopped): so are we
            return
        if msg is None:
            return
        fn, arg = msg
        out = run_job(fn, arg)
        try:
            conn.send(out)
        except Exception as e:           # noqa: BLE001 - e.g. a result that cannot pickle
            conn.send(error_outcome(e, out.seconds))


@dataclass
class _Worker:
    process: Any
    conn: Connection
    spawned: float
    ready: bool = False
    job: tuple[Callable, Any, Future] | None = None
    started: float = 0.0


@dataclass
class LocalPool:
    """``workers`` processes (default: one per CPU); each job at most ``timeout`` seconds."""

    workers: int | None = None
    timeout: float = 60.0
    initializer: Callable[[], None] | None = None
    capacity: int = field(init=False)

    def __post_init__(self) -> None:
        self.capacity = max(1, self.workers or os.cpu_count() or 1)
        self._ctx = mp.get_context("spawn")
        self._queue: deque[tuple[Callable, Any, Future]] = deque()
        self._lock = threading.Lock()
        self._wake_r, self._wake_w = mp.Pipe(duplex=False)
        self._pool: list[_Worker] = []
        self._thread: threading.Thread | None = None
        self._closing = False
        self._failed_starts = 0

    # ---- the interface ------------------------------------------------------------------------
    def submit(self, fn: Callable[[Any], Any], arg: Any) -> Future[Outcome]:
        fut: Future[Outcome] = Future()
        with self._lock:
            if self._closing:
                fut.set_result(Outcome("crashed", error="executor closed"))
                return fut
            self._queue.append((fn, arg, fut))
            if self._thread is None:
                self._thread = threading.Thread(target=self._dispatch, name="tune-pool",
                                                daemon=True)
                self._thread.start()
        self._wake_w.send_bytes(b"j")
        return fut

    def close(self) -> None:
        with self._lock:
            self._closing = True
        self._wake_w.send_bytes(b"c")
        if self._thread is not None:
            self._thread.join()
        for w in self._pool:
            self._stop(w)
        self._pool.clear()

    def __enter__(self) -> LocalPool:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ---- the dispatcher thread ------------------------------------------------------------------
    def _spawn(self) -> None:
        parent, child = self._ctx.Pipe()
        p = self._ctx.Process(target=_worker_main, args=(child, self.initializer),
                              name="tune-worker", daemon=True)
        p.start()
        child.close()
        self._pool.append(_Worker(p, parent, time.monotonic()))

    def _stop(self, w: _Worker) -> None:
        if w.process.is_alive() and w.job is None and w.ready:
            try:
                w.conn.send(None)
                w.process.join(2.0)
            except OSError:
                pass
        if w.process.is_alive():
            w.process.kill()
        w.process.join()
        w.conn.close()

    def _finish(self, w: _Worker, out: Outcome) -> None:
        if w.job is not None:
            w.job[2].set_result(out)
            w.job = None

    def _drop(self, w: _Worker, out: Outcome) -> None:
        """A worker that must go (dead, hung, failed to start): kill it, report its job."""
        if w.process.is_alive():
            w.process.kill()
        w.process.join()
        w.conn.close()
        self._pool.remove(w)
        self._finish(w, out)

    def _assign(self) -> None:
        for w in self._pool:
            if not (w.ready and w.job is None):
                continue
            while self._queue:
                fn, arg, fut = self._queue.popleft()
                if fut.set_running_or_notify_cancel():
                    w.job, w.started = (fn, arg, fut), time.monotonic()
                    try:
                        w.conn.send((fn, arg))
                    except Exception as e:   # noqa: BLE001 - an argument that cannot pickle
                        self._finish(w, error_outcome(e, 0.0))
                        continue
                    break

    def _grow(self) -> None:
        busy = sum(w.job is not None for w in self._pool)
        want = min(self.capacity, busy + len(self._queue))
        while len(self._pool) < want:
            self._spawn()

    def _fail_queue(self, why: str) -> None:
        while self._queue:
            fut = self._queue.popleft()[2]
            if fut.set_running_or_notify_cancel():
                fut.set_result(Outcome("crashed", error=why))

    def _dispatch(self) -> None:
        try:
            self._loop()
        except BaseException as e:       # noqa: BLE001 - a bug here must not hang the search
            out = error_outcome(e, 0.0)
            with self._lock:
                self._closing = True
                self._fail_queue(out.error)
            for w in list(self._pool):
                self._drop(w, Outcome("crashed", error=f"pool dispatcher failed: {out.error}"))

    def _loop(self) -> None:
        while True:
            with self._lock:
                if self._closing:
                    self._fail_queue("executor closed")
                    for w in list(self._pool):
                        if w.job is not None:
                            self._drop(w, Outcome("crashed", error="executor closed"))
                    return
                if self._failed_starts >= START_ATTEMPTS:
                    self._fail_queue(f"no worker could start ({START_ATTEMPTS} attempts)")
                    self._failed_starts = 0
                self._grow()
                self._assign()
            now = time.monotonic()
            deadlines = [w.started + self.timeout if w.job else w.spawned + START_TIMEOUT
                         for w in self._pool if w.job or not w.ready]
            wait_for = max(0.0, min(deadlines) - now) if deadlines else None
            handles: list[Any] = [self._wake_r]
            for w in self._pool:
                handles += [w.conn, w.process.sentinel]
            ready = wait(handles, wait_for)
            if self._wake_r in ready:
                while self._wake_r.poll():
                    self._wake_r.recv_bytes()
            self._collect(ready)
            self._expire()

    def _collect(self, ready: list[Any]) -> None:
        for w in list(self._pool):
            if w.conn in ready:
                try:
                    msg = w.conn.recv()
                except (EOFError, OSError):
                    msg = None
                if msg == READY:
                    w.ready = True
                    self._failed_starts = 0
                    continue
                if isinstance(msg, Outcome):
                    self._finish(w, msg)
                    continue
            if w.process.sentinel in ready or not w.process.is_alive():
                w.process.join()
                code = w.process.exitcode
                if not w.ready:
                    self._failed_starts += 1
                self._drop(w, Outcome("crashed", error=f"worker exited with code {code}",
                                      seconds=time.monotonic() - (w.started or w.spawned)))

    def _expire(self) -> None:
        now = time.monotonic()
        for w in list(self._pool):
            if w.job is not None and now - w.started > self.timeout:
                self._drop(w, Outcome("timeout", error=f"killed after {self.timeout:g} s",
                                      seconds=now - w.started))
            elif not w.ready and now - w.spawned > START_TIMEOUT:
                self._failed_starts += 1
                self._drop(w, Outcome("crashed", error="worker did not start"))
