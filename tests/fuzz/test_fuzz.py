"""Bad input never crashes or hangs: fixed-seed fuzz batches over the three ways in.

* mutated kernels through the assembler: a Program or an ``AsmError``, nothing else;
* random programs through the simulator (1 to 8 cores, every conflict policy): a ``RunResult``
  whose cycle invariant holds, whatever the program did (fault, time-out, deadlock, exit);
* corrupted ELF files through ``isasim run`` and ``isasim disasm``: an exit status, no traceback;
* mutated model files through ``trainlib plan``: a plan or a one-line error.

Every case runs under a time limit (a hang fails the test with its seed and case).  The default
batches are small; ``--runslow`` runs twenty times more.  Found this way so far: a ``.zero 1 <<
40`` that exhausted memory, an ELF segment whose zero-filled tail was listed as millions of
instructions, a fault that left parked cores one cycle short of their charged time, model-file
values of the wrong type that escaped as TypeError, and a model far larger than L2 that kept the
tile search busy for minutes.
"""

from __future__ import annotations

import contextlib
import io
import random
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from isasim.cli import main
from isasim.machine import Machine
from tests.fuzz.inputs import (
    KERNELS,
    MODELS,
    bundled,
    mutate_elf,
    mutate_model,
    mutate_source,
    random_program,
)
from toolchain.asm import AsmError, assemble
from toolchain.elf import elf_bytes
from trainlib.cli import main as trainlib_main

CASE_SECONDS = 60          # far beyond any case's normal time; only a hang reaches it
RUN_STATUSES = {"exited", "fault", "timeout", "deadlock"}


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


@pytest.mark.parametrize("seed", [1, 2])
def test_random_programs_end_with_a_result(seed: int, request: pytest.FixtureRequest) -> None:
    rng = random.Random(seed)
    statuses: set[str] = set()
    for case in range(batch(request, 40)):
        source = random_program(rng)
        cores = rng.choice((1, 2, 4, 8))
        policy = rng.choice(("round_robin", "fifo", "none"))
        try:
            program = assemble(source, "fuzz.s", family="xpulpv2")
        except AsmError:
            continue
        with time_limit(f"seed {seed} case {case} ({cores} cores, {policy})"), \
                _quiet_warnings():
            machine = Machine("pulp-open", cores=cores, conflict_policy=policy, stack_size=512)
            machine.load(program)
            result = machine.run(max_cycles=20_000)
        assert result.status in RUN_STATUSES
        if result.fault is not None:
            assert result.fault.format()
        result.check_invariant()
        statuses.add(result.status)
    assert {"fault", "exited"} <= statuses


@contextlib.contextmanager
def _quiet_warnings() -> Iterator[None]:
    """Programs warn (post-increment rd == rs1 ...); that is expected here."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        yield


def _base_elf() -> bytes:
    source = ("    .globl _start\n_start:\n    csrr a0, mhartid\n    la t0, data\n"
              "    lw t1, 0(t0)\n    li a7, 93\n    li a0, 0\n    ecall\n"
              "    .data\ndata: .word 7\n    .bss\nbuf: .zero 64\n")
    return elf_bytes(assemble(source, "base.s"))


def test_corrupted_elf_files_give_an_exit_status(tmp_path: Path,
                                                 request: pytest.FixtureRequest) -> None:
    rng = random.Random(7)
    base = _base_elf()
    path = tmp_path / "fuzz.elf"
    refused = 0
    for case in range(batch(request, 80)):
        path.write_bytes(mutate_elf(base, rng))
        argv = rng.choice((["run", str(path), "--quiet", "--max-cycles", "20000", "--cores", "2"],
                           ["disasm", str(path)]))
        out, err = io.StringIO(), io.StringIO()
        with time_limit(f"case {case}: isasim {' '.join(argv)}"), \
                contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
                _quiet_warnings():
            code = main(argv)
        assert 0 <= code <= 255
        assert "Traceback" not in err.getvalue()
        refused += code == 2
    assert refused > 0


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
