"""Job functions that misbehave, for the executor and search tests.

They live in an importable module (not in a test file) because the pool's spawned workers
import a job function by its module name.
"""

from __future__ import annotations

import os
import time

import numpy as np

from trainlib.tune import measure


def square(x: int) -> int:
    return x * x


def hang(seconds: float) -> None:
    time.sleep(seconds)


def boom(msg: str) -> None:
    raise RuntimeError(msg)


def die(code: int) -> None:
    os._exit(code)


def unpicklable(_: object) -> object:
    return lambda: None


def pid(_: object) -> int:
    return os.getpid()


def faulty(job: measure.Job, *, wrong: str, hang_kernel: str, crash: str) -> dict:
    """The real measurement, except: ``hang_kernel`` never returns, ``crash`` kills its worker,
    and ``wrong`` runs with a step runner whose outputs are off (checked by the real golden
    comparison, so it comes back ``wrong``)."""
    if job.kernel == hang_kernel:
        time.sleep(3600)
    if job.kernel == crash:
        os._exit(3)
    if job.kernel != wrong:
        return measure.run_candidate(job)
    real = measure.run_layer_step

    def off_by_one(*a, **kw):
        run = real(*a, **kw)
        for k in run.outputs:
            run.outputs[k] = run.outputs[k] + np.float32(1.0)
        return run
    measure.run_layer_step = off_by_one
    try:
        return measure.run_candidate(job)
    finally:
        measure.run_layer_step = real
