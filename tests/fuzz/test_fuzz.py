"""Bad input never crashes or hangs: fixed-seed fuzz batches over the four ways in.

* mutated kernels through the assembler: a Program or an ``AsmError``, nothing else;
* random programs through the simulator (1 to 8 cores, every conflict policy): a ``RunResult``
  whose cycle invariant holds, whatever the program did (fault, time-out, deadlock, exit);
* corrupted ELF files through ``isasim run`` and ``isasim disasm``: an exit status, no traceback;
* mutated model files through ``trainlib plan``: a plan or a one-line error.

Every case runs under a time limit, so a hang fails the test with its seed and case: the
Python-only batches (assembler, planner) under an alarm, the simulator batches in a child
process (``tests/fuzz/simulate.py``) that is killed at its deadline, because a hang inside the
compiled loop does not see Python's signals.  The default batches are small; ``--runslow`` runs
twenty times more.  Found this way so far: a ``.zero 1 << 40`` that exhausted memory, an ELF
segment whose zero-filled tail was listed as millions of instructions, a fault that left parked
cores one cycle short of their charged time, a trap handler address that cannot be fetched
(each trap trapped again at once, and the host spun forever in the compiled loop), a host
call (write, semihosting) handed a pointer outside guest RAM (a KeyError traceback), model-file
values of the wrong type that escaped as TypeError, and a model far larger than L2 that kept
the tile search busy for minutes.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fuzz.inputs import KERNELS, MODELS, bundled, mutate_model, mutate_source
from toolchain.asm import AsmError, assemble
from trainlib.cli import main as trainlib_main

CASE_SECONDS = 60          # far beyond any case's normal time; only a hang reaches it


class Hang(Exception):
    pass


@contextlib.contextmanager
def time_limit(what: str) -> Iterator[None]:
    def expire(signum, frame):
        raise Hang(f"{what}: still running after {CASE_SECONDS} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(CASE_SECONDS)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def batch(request: pytest.FixtureRequest, default: int) -> int:
    return default * (20 if request.config.getoption("--runslow") else 1)


@pytest.mark.parametrize("seed", [1, 2])
def test_mutated_kernels_assemble_or_report(seed: int, request: pytest.FixtureRequest) -> None:
    rng = random.Random(seed)
    sources = bundled(KERNELS, "*.s")
    reported = 0
    for case in range(batch(request, 60)):
        source = mutate_source(rng.choice(sources), rng)
        family = rng.choice(("xpulpv2", "corev", "none"))
        with time_limit(f"seed {seed} case {case}"):
            try:
                assemble(source, "fuzz.s", family=family)
            except AsmError as e:
                reported += 1
                assert e.diagnostics and str(e).startswith("fuzz.s:"), str(e)
    assert reported > 0          # the mutations do reach the error paths


def in_child(args: list[str], seconds: int) -> dict:
    """Run a batch of ``tests.fuzz.simulate`` in a child process with a deadline; its summary.

    A hang inside the compiled loop ignores Python's signals, so only killing the process ends
    it; the case it was in is the last one the child announced."""
    root = Path(__file__).resolve().parents[2]
    try:
        child = subprocess.run([sys.executable, "-m", "tests.fuzz.simulate", *args], cwd=root,
                               capture_output=True, text=True, timeout=seconds)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        last = [line for line in out.splitlines() if line.startswith("case ")][-1:]
        raise Hang(f"{' '.join(args)}: no end after {seconds} s, in {last}") from None
    assert child.returncode == 0, child.stderr[-3000:]
    return json.loads(child.stdout.splitlines()[-1])


@pytest.mark.parametrize("seed", [1, 2])
def test_random_programs_end_with_a_result(seed: int, request: pytest.FixtureRequest) -> None:
    count = batch(request, 40)
    summary = in_child(["programs", str(seed), str(count)], 120 + 3 * count)
    assert {"fault", "exited"} <= set(summary["statuses"])


def test_corrupted_elf_files_give_an_exit_status(tmp_path: Path,
                                                 request: pytest.FixtureRequest) -> None:
    count = batch(request, 80)
    summary = in_child(["elf", "7", str(count), str(tmp_path)], 120 + 3 * count)
    assert summary["refused"] > 0


def test_mutated_model_files_plan_or_report(tmp_path: Path, request: pytest.FixtureRequest) -> None:
    rng = random.Random(11)
    models = bundled(MODELS, "*.toml")
    path = tmp_path / "fuzz.toml"
    refused = 0
    for case in range(batch(request, 60)):
        path.write_text(mutate_model(rng.choice(models), rng))
        out, err = io.StringIO(), io.StringIO()
        with time_limit(f"case {case}: trainlib plan"), contextlib.redirect_stdout(out), \
                contextlib.redirect_stderr(err):
            code = trainlib_main(["plan", str(path)])
        assert code in (0, 2), err.getvalue()
        if code == 2:
            refused += 1
            assert err.getvalue().startswith("trainlib: error: ")
            assert err.getvalue().count("\n") == 1, err.getvalue()
    assert refused > 0
