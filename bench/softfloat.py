"""ns per operation of isasim.softfloat, called from compiled code as the simulator does.

Each operation runs over arrays of random normal operands in a numba loop, once with rm = RNE
(the fast path: one host conversion) and once with rm = RDN (directed rounding: integer rounding
in _round_slow).  "fmadd chain" feeds each result into the next addend, like a dot-product loop,
so it measures latency rather than throughput.  Usage: python bench/softfloat.py [--n N]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from numba import njit
from rich.console import Console
from rich.table import Table

from isasim import softfloat as sf


@njit
def _loop_overhead(fn, a, b, c, rm, reps):
    acc = 0
    for _ in range(reps):
        for i in range(a.size):
            acc ^= a[i] + b[i] + c[i] + rm
    return acc


@njit
def _unary(fn, a, b, c, rm, reps):
    acc = 0
    for _ in range(reps):
        for i in range(a.size):
            r, f = fn(a[i], rm)
            acc ^= r | f
    return acc


@njit
def _binary(fn, a, b, c, rm, reps):
    acc = 0
    for _ in range(reps):
        for i in range(a.size):
            r, f = fn(a[i], b[i], rm)
            acc ^= r | f
    return acc


@njit
def _binary_no_rm(fn, a, b, c, rm, reps):
    acc = 0
    for _ in range(reps):
        for i in range(a.size):
            r, f = fn(a[i], b[i])
            acc ^= r | f
    return acc


@njit
def _fma(fn, a, b, c, rm, reps):
    acc = 0
    for _ in range(reps):
        for i in range(a.size):
            r, f = fn(a[i], b[i], c[i], rm, 0, 0)
            acc ^= r | f
    return acc


@njit
def _fma_chain(fn, a, b, c, rm, reps):
    acc = 0
    flags = 0
    for _ in range(reps):
        acc = 0
        for i in range(a.size):
            acc, f = fn(a[i], b[i], acc, rm, 0, 0)
            flags |= f
    return acc | flags


@njit
def _classify(fn, a, b, c, rm, reps):
    acc = 0
    for _ in range(reps):
        for i in range(a.size):
            acc ^= fn(a[i])
    return acc


def _operands(n: int, rng: np.random.Generator) -> tuple[np.ndarray, ...]:
    """Random normal binary32 patterns of both signs with magnitudes around 1 (as in DNN data),
    and positive ones for sqrt."""

    def floats(scale: float) -> np.ndarray:
        values = (rng.standard_normal(n) * scale).astype(np.float32)
        return values.view(np.uint32).astype(np.int64)

    positive = np.abs(rng.standard_normal(n)).astype(np.float32).view(np.uint32).astype(np.int64)
    ints = rng.integers(-(2**31), 2**31, n).astype(np.int64) & 0xFFFFFFFF
    return floats(1.0), floats(1.0), floats(4.0), positive, ints


def _time(kernel, fn, args, rm: int, reps: int, trials: int) -> float:
    """Best ns per call over many short trials: the minimum filters out the time slices lost to
    other processes on a shared machine.  The first call compiles and is not timed."""
    kernel(fn, *args, rm, 1)
    best = float("inf")
    for _ in range(trials):
        start = time.perf_counter()
        kernel(fn, *args, rm, reps)
        best = min(best, time.perf_counter() - start)
    return best * 1e9 / (args[0].size * reps)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=4096, help="operands per array")
    parser.add_argument("--reps", type=int, default=20, help="passes over the arrays per trial")
    parser.add_argument("--trials", type=int, default=40, help="timed trials; the best counts")
    ns = parser.parse_args()
    rng = np.random.default_rng(1)
    x, y, z, pos, ints = _operands(ns.n, rng)
    rows = [
        ("fadd.s", _binary, sf.f32_add, (x, y, z), True),
        ("fsub.s", _binary, sf.f32_sub, (x, y, z), True),
        ("fmul.s", _binary, sf.f32_mul, (x, y, z), True),
        ("fmadd.s", _fma, sf.f32_fma, (x, y, z), True),
        ("fmadd.s chain", _fma_chain, sf.f32_fma, (x, y, z), True),
        ("fdiv.s", _binary, sf.f32_div, (x, y, z), True),
        ("fsqrt.s", _unary, sf.f32_sqrt, (pos, y, z), True),
        ("fcvt.w.s", _unary, sf.f32_to_i32, (z, y, z), True),
        ("fcvt.s.w", _unary, sf.i32_to_f32, (ints, y, z), True),
        ("fmin.s", _binary_no_rm, sf.f32_min, (x, y, z), False),
        ("flt.s", _binary_no_rm, sf.f32_lt, (x, y, z), False),
        ("fclass.s", _classify, sf.f32_classify, (x, y, z), False),
    ]
    overhead = _time(_loop_overhead, None, (x, y, z), 0, ns.reps, ns.trials)
    title = f"isasim.softfloat, ns/op (best of {ns.trials} x {ns.n} operands x {ns.reps} passes)"
    table = Table(title=title)
    table.add_column("operation")
    table.add_column("RNE (fast path)", justify="right")
    table.add_column("RDN (directed)", justify="right")
    for name, kernel, fn, args, has_rm in rows:
        fast = _time(kernel, fn, args, sf.RNE, ns.reps, ns.trials)
        slow = f"{_time(kernel, fn, args, sf.RDN, ns.reps, ns.trials):.1f}" if has_rm else "-"
        table.add_row(name, f"{fast:.1f}", slow)
    table.caption = f"loop and array-load overhead alone: {overhead:.1f} ns/iteration (included)"
    Console().print(table)


if __name__ == "__main__":
    main()
