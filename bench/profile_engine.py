"""Where the compiled engine loop spends its time: `perf` samples mapped onto numba's machine code.

numba registers no symbols for its code, so `perf report` shows the whole loop as one anonymous
address range.  This script samples this very process with `perf record` while it runs a
workload, reads the machine code of `isasim.engine.run` from its own memory, disassembles it
with `objdump` and prints where the samples fall: outside the loop (by library), then the
hottest 64-byte blocks of the loop with their hottest instruction.  That is how the costs the
README names (reference counting, a call pushing array descriptors, a status scan per switch)
were found.  Needs Linux `perf` (with permission to sample: perf_event_paranoid <= 2) and
GNU objdump.

With ``--lines`` the samples are mapped onto the engine's Python source instead: the script runs
itself again with numba's debug information on (``NUMBA_DEBUGINFO=1``, a fresh cache: one cold
compile, a minute or two), reads the line table of the machine code numba produced, and prints
the share of each part of the loop (a function, or a ``# ----`` section of ``run``) and the
hottest lines.  LLVM charges the reload of a spilled local to the line that assigned it, so
lines of ``run``'s set-up show up: that is the cost of values the loop cannot keep in registers.

    python bench/profile_engine.py [--cores 8] [--policy round_robin] [--seconds 6] [--top 20]
                                   [--lines]
"""

from __future__ import annotations

import argparse
import ast
import collections
import ctypes
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.markup import escape
from rich.table import Table

sys.path.insert(0, str(Path(__file__).parent))
from engine import N, matmul  # noqa: E402  (the bench's own workload)

from isasim.engine import run as engine_loop  # noqa: E402
from isasim.machine import Machine  # noqa: E402
from toolchain.asm import assemble  # noqa: E402

CODE_BYTES = 1 << 18     # the loop with everything numba inlined into it fits in this


def run_address() -> int:
    """Entry of the compiled `run` (after one run has loaded or compiled it)."""
    cres = next(iter(engine_loop.overloads.values()))
    return cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name)


def workload(cores: int, policy: str):
    program = assemble(matmul(cores), family="xpulpv2")
    rng = np.random.default_rng(0)
    a = rng.standard_normal(N * N).astype(np.float32)
    b = rng.standard_normal(N * N).astype(np.float32)

    def once() -> tuple[int, float]:
        """One run: (simulated instructions, seconds in Machine.run)."""
        m = Machine("pulp-open", cores=cores, conflict_policy=policy, stack_size=256)
        m.load(program)
        m.write("A", a)
        m.write("B", b)
        t = time.perf_counter()
        n = int(m.run().instret.sum())
        return n, time.perf_counter() - t

    return once


def sample(once, seconds: float, data: Path) -> tuple[int, float]:
    """Run ``once`` repeatedly under `perf record`; (simulated instructions, seconds in runs)."""
    perf = subprocess.Popen(["perf", "record", "-q", "-e", "cycles", "-c", "100000", "-o",
                             str(data), "-p", str(os.getpid())],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(0.5)          # let it attach
    n = 0
    busy = 0.0
    end = time.perf_counter() + seconds
    while time.perf_counter() < end and perf.poll() is None:
        k, dt = once()
        n += k
        busy += dt
    perf.send_signal(signal.SIGINT)
    _, err = perf.communicate(timeout=60)
    if perf.returncode not in (0, -signal.SIGINT) or not data.exists():
        raise SystemExit(f"perf record failed: {err.decode(errors='replace').strip()}")
    return n, busy


def samples(data: Path) -> list[tuple[int, str]]:
    out = subprocess.run(["perf", "script", "-i", str(data), "-F", "ip,dso"], check=True,
                         capture_output=True, text=True).stdout
    rows = []
    for line in out.splitlines():
        parts = line.split(None, 1)
        if len(parts) == 2:
            rows.append((int(parts[0], 16), parts[1].strip("() ")))
    return rows


def disassemble(addr: int, workdir: Path) -> dict[int, str]:
    """objdump of the loop's machine code, read from this process: {address: instruction}."""
    blob = workdir / "run.bin"
    blob.write_bytes(ctypes.string_at(addr, CODE_BYTES))
    text = subprocess.run(["objdump", "-D", "-b", "binary", "-m", "i386:x86-64",
                           f"--adjust-vma={addr:#x}", str(blob)], check=True,
                          capture_output=True, text=True).stdout
    code = {}
    for line in text.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s+(?:[0-9a-f]{2} )+\s*(.*)", line)
        if m and m.group(2):
            code[int(m.group(1), 16)] = " ".join(m.group(2).split())
    return code


def line_table(addr: int, workdir: Path) -> dict[int, tuple[str, int]]:
    """{address in the loop: (source file, line)}, from the DWARF line table of the object
    numba compiled ``run`` into (it keeps the object only when it compiled, not when it loaded
    the cache: hence the fresh cache of ``--lines``)."""
    cres = next(iter(engine_loop.overloads.values()))
    name = cres.fndesc.llvm_func_name
    obj = workdir / "run.o"
    obj.write_bytes(cres.library._get_compiled_object())
    symbols = subprocess.run(["nm", str(obj)], check=True, capture_output=True, text=True).stdout
    base = next(int(line.split()[0], 16) for line in symbols.splitlines()
                if line.split()[-1] == name)
    listing = subprocess.run(["objdump", "-d", "-l", "--no-show-raw-insn", str(obj)], check=True,
                             capture_output=True, text=True).stdout
    table = {}
    where = ("?", 0)
    for line in listing.splitlines():
        m = re.match(r"^(\S+\.py):(\d+)", line)
        if m:
            where = (m.group(1), int(m.group(2)))
            continue
        m = re.match(r"\s+([0-9a-f]+):", line)
        if m:
            table[addr + int(m.group(1), 16) - base] = where
    return table


def part_of(path: str, line: int, cache: dict) -> str:
    """The function a source line belongs to; for ``run``, its ``# ----`` section."""
    if path not in cache:
        try:
            text = Path(path).read_text()
        except OSError:
            cache[path] = ([], [])
        else:
            funcs = [(f.lineno, f.end_lineno, f.name) for f in ast.walk(ast.parse(text))
                     if isinstance(f, ast.FunctionDef)]
            cache[path] = (funcs, text.splitlines())
    funcs, lines = cache[path]
    inside = [f for f in funcs if f[0] <= line <= f[1]]
    if not inside:
        return f"{Path(path).name} (module level)"
    start, _, name = max(inside)
    if name == "run" and Path(path).name == "engine.py":
        for k in range(line - 1, start - 1, -1):
            m = re.match(r"\s*# -+ (.*?) -*$", lines[k])
            if m:
                return f"run: {m.group(1).split(':')[0]}"
        return "run: set-up, core switch, reloads of spilled locals"
    return f"{name} ({Path(path).name})"


def print_lines(console: Console, inside: collections.Counter, table: dict, top: int) -> None:
    by_line = collections.Counter()
    for ip, k in inside.items():
        if ip in table:
            by_line[table[ip]] += k
    total = sum(by_line.values()) or 1
    cache: dict = {}
    parts = collections.Counter()
    for (path, line), k in by_line.items():
        parts[part_of(path, line, cache)] += k
    t = Table(title="the loop's samples by part of the source")
    for col in ("part", "share"):
        t.add_column(col, justify="right" if col == "share" else "left")
    for part, k in parts.most_common():
        t.add_row(escape(part), f"{100 * k / total:.1f} %")
    console.print(t)
    t = Table(title="hottest source lines")
    for col in ("line", "share", "source"):
        t.add_column(col, justify="right" if col == "share" else "left")
    for (path, line), k in by_line.most_common(top):
        text = cache.get(path, ([], []))[1]
        t.add_row(f"{Path(path).name}:{line}", f"{100 * k / total:.1f} %",
                  escape(text[line - 1].strip()[:70]) if 0 < line <= len(text) else "")
    console.print(t)


def _library(dso: str) -> str:
    if "perf-" in dso and dso.endswith(".map"):
        return "other numba-compiled code"
    return Path(dso).name or repr(dso)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cores", type=int, default=8)
    ap.add_argument("--policy", default="round_robin", choices=("round_robin", "fifo", "none"))
    ap.add_argument("--seconds", type=float, default=6.0)
    ap.add_argument("--top", type=int, default=20, help="hottest blocks (or lines) to list")
    ap.add_argument("--lines", action="store_true",
                    help="map the samples onto the engine's source lines (a debug-info compile)")
    args = ap.parse_args()
    for tool in ("perf", "objdump", "nm"):
        if shutil.which(tool) is None:
            raise SystemExit(f"profile_engine: needs `{tool}` on PATH")
    if args.lines and os.environ.get("NUMBA_DEBUGINFO") != "1":
        with tempfile.TemporaryDirectory() as cache:
            print("compiling the engine with debug information (a cold compile)...", flush=True)
            env = dict(os.environ, NUMBA_DEBUGINFO="1", NUMBA_CACHE_DIR=cache)
            raise SystemExit(subprocess.run([sys.executable, *sys.argv], env=env).returncode)
    once = workload(args.cores, args.policy)
    once()                                   # compile or load the cached engine first
    addr = run_address()
    with tempfile.TemporaryDirectory() as tmp:
        table = line_table(addr, Path(tmp)) if args.lines else {}
        n, busy = sample(once, args.seconds, Path(tmp) / "perf.data")
        rows = samples(Path(tmp) / "perf.data")
        code = disassemble(addr, Path(tmp))
    console = Console()
    console.print(f"{args.cores} cores, {args.policy}: {n:,} simulated instructions in "
                  f"{busy:.2f} s of Machine.run ({n / busy / 1e6:.1f} MIPS while sampled), "
                  f"{len(rows):,} samples (the rest of the process: loading each run)")
    inside = collections.Counter(ip for ip, _ in rows if addr <= ip < addr + CODE_BYTES)
    outside = collections.Counter(_library(dso) for ip, dso in rows
                                  if not addr <= ip < addr + CODE_BYTES)
    total = len(rows) or 1
    where = Table(title="where the samples fall")
    for col in ("code", "share"):
        where.add_column(col, justify="right" if col == "share" else "left")
    where.add_row("engine loop (isasim.engine.run and what numba inlined)",
                  f"{100 * sum(inside.values()) / total:.1f} %")
    for dso, k in outside.most_common(6):
        where.add_row(escape(dso), f"{100 * k / total:.1f} %")
    console.print(where)
    if args.lines:
        print_lines(console, inside, table, args.top)
        return
    blocks = collections.Counter()
    for ip, k in inside.items():
        blocks[ip & ~63] += k
    hot = Table(title=f"hottest 64-byte blocks of the loop (offsets from run at {addr:#x})")
    for col in ("offset", "share", "hottest instruction", "its share"):
        hot.add_column(col, justify="left" if col == "hottest instruction" else "right")
    for block, k in blocks.most_common(args.top):
        ip, kk = max(((i, c) for i, c in inside.items() if i & ~63 == block), key=lambda x: x[1])
        hot.add_row(f"+{block - addr:#07x}", f"{100 * k / total:.1f} %",
                    code.get(ip, "?"), f"{100 * kk / total:.1f} %")
    console.print(hot)
    console.print("An instruction's samples usually land just after what it waits for (a load, "
                  "a mispredicted branch): read the block, not the single line.")


if __name__ == "__main__":
    main()
