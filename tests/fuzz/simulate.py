"""The fuzz batches that run the simulator, executed in a child process by ``test_fuzz.py``.

A hang inside the compiled loop cannot be interrupted from Python (a signal handler only runs
between bytecodes), so these batches run here, under the parent's deadline: the parent kills
the child when it passes and names the case it was in, which this module prints before each one.

    python -m tests.fuzz.simulate programs SEED COUNT
    python -m tests.fuzz.simulate elf SEED COUNT WORKDIR

The last line is a JSON summary; any failed check raises (a traceback, exit status 1).
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import sys
import warnings
from pathlib import Path

from isasim.cli import main as isasim_main
from isasim.machine import Machine
from tests.fuzz.inputs import mutate_elf, random_program
from toolchain.asm import AsmError, assemble
from toolchain.elf import elf_bytes

RUN_STATUSES = {"exited", "fault", "timeout", "deadlock"}


def programs(seed: int, count: int) -> dict:
    """Random programs on 1 to 8 cores under every policy: each run ends with a RunResult whose
    cycle invariant holds."""
    rng = random.Random(seed)
    statuses: set[str] = set()
    for case in range(count):
        source = random_program(rng)
        cores = rng.choice((1, 2, 4, 8))
        policy = rng.choice(("round_robin", "fifo", "none"))
        try:
            program = assemble(source, "fuzz.s", family="xpulpv2")
        except AsmError:
            continue
        print(f"case {case}: {cores} cores, {policy}", flush=True)
        machine = Machine("pulp-open", cores=cores, conflict_policy=policy, stack_size=512)
        machine.load(program)
        result = machine.run(max_cycles=20_000)
        assert result.status in RUN_STATUSES, (case, result.status)
        if result.fault is not None:
            assert result.fault.format()
        result.check_invariant()
        statuses.add(result.status)
    return {"statuses": sorted(statuses)}


def _base_elf() -> bytes:
    source = ("    .globl _start\n_start:\n    csrr a0, mhartid\n    la t0, data\n"
              "    lw t1, 0(t0)\n    li a7, 93\n    li a0, 0\n    ecall\n"
              "    .data\ndata: .word 7\n    .bss\nbuf: .zero 64\n")
    return elf_bytes(assemble(source, "base.s"))


def elf(seed: int, count: int, workdir: Path) -> dict:
    """Corrupted ELF files through ``isasim run`` and ``isasim disasm``: an exit status, never
    a traceback."""
    rng = random.Random(seed)
    base = _base_elf()
    path = workdir / "fuzz.elf"
    refused = 0
    for case in range(count):
        path.write_bytes(mutate_elf(base, rng))
        argv = rng.choice((["run", str(path), "--quiet", "--max-cycles", "20000", "--cores", "2"],
                           ["disasm", str(path)]))
        print(f"case {case}: isasim {argv[0]}", flush=True)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = isasim_main(argv)
        assert 0 <= code <= 255, (case, code)
        assert "Traceback" not in err.getvalue(), (case, err.getvalue())
        refused += code == 2
    return {"refused": refused}


if __name__ == "__main__":
    warnings.simplefilter("ignore", RuntimeWarning)   # programs warn (post-increment rd == rs1)
    kind, seed, count = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    summary = programs(seed, count) if kind == "programs" else elf(seed, count,
                                                                    Path(sys.argv[4]))
    print(json.dumps(summary))
