"""Where the compiled engine spends its time: `perf` samples mapped onto numba's machine code.

numba registers no symbols for its code, so `perf report` shows the engine as anonymous address
ranges.  This script samples this very process with `perf record` while it runs a workload,
reads the machine code of the engine's two hot functions from its own memory (the loop,
`isasim.engine.run`, and the switching and scheduling of cores parked in translated code,
`run_translated_cores`), disassembles it with `objdump` and prints where the samples fall: in
each of them, in the program's translated code, outside (by library); then the hottest 64-byte
blocks with their hottest instruction.  That is how the costs docs/engine.md names (reference
counting, a call pushing array descriptors, a status scan per switch, the scheduling rounds)
were found.  Needs Linux `perf` (with permission to sample: perf_event_paranoid <= 2) and GNU
objdump.

The workload is the bench's fp32 matmul on the default path, as a program run before (translated
at load); ``--interpret`` profiles the interpreted path, ``--elf`` a program of the user's on
the ``pulp-open`` preset (with its conflict policy unless ``--policy`` names one), e.g. the C
matmul of ``bench/engine.py`` built as it builds it.

With ``--lines`` the samples are mapped onto the engine's Python source instead: the script runs
itself again with numba's debug information on (``NUMBA_DEBUGINFO=1``, a fresh cache, compiled
in this process, ``ISASIM_COMPILE_IN_PROCESS=1``: one cold compile, a few minutes), reads the
line table of the machine code numba produced, and prints the share of each part of the engine
(a function, or a ``# ----`` section of ``run``) and the hottest lines.  LLVM charges the reload
of a spilled local to the line that assigned it, so lines of a function's set-up show up: that
is the cost of values it cannot keep in registers.

    python bench/profile_engine.py [--cores 8] [--policy round_robin] [--seconds 6] [--top 20]
                                   [--interpret] [--lines] [--elf PROGRAM.elf]
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

from isasim import engine  # noqa: E402
from isasim.engine import ENTRY_FIELDS  # noqa: E402
from isasim.machine import Machine, load_program  # noqa: E402
from toolchain.asm import assemble  # noqa: E402

CODE_BYTES = 1 << 18     # a function with everything numba inlined into it fits in this
TRANSLATED_BYTES = 1 << 16   # past a program's last translated entry, its object code
# (loaded from numba's cache, run_translated_cores has no code of its own: its code is linked
# into the loop's, and its samples count there)
PARTS = (("engine loop (isasim.engine.run, and what is linked into it)", engine.run),
         ("switching and rounds (isasim.engine.run_translated_cores)",
          engine.run_translated_cores))


def entry_address(dispatcher) -> int | None:
    """Entry of a compiled engine function (after a run has loaded or compiled it)."""
    if not dispatcher.overloads:
        return None
    cres = next(iter(dispatcher.overloads.values()))
    return cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name)


def workload(cores: int, policy: str | None, interpret: bool, elf: Path | None):
    """``(once, translated)``: one run, returning (simulated instructions, seconds in
    Machine.run), and the addresses of the program's translated runs (empty when
    interpreted)."""
    if elf is not None:
        program = load_program(elf)
        options = {} if policy is None else {"conflict_policy": policy}
    else:
        program = assemble(matmul(cores), family="xpulpv2")
        options = {"cores": cores, "conflict_policy": policy or "round_robin"}
        rng = np.random.default_rng(0)
        a = rng.standard_normal(N * N).astype(np.float32)
        b = rng.standard_normal(N * N).astype(np.float32)
    machines: list[Machine] = []

    def once() -> tuple[int, float]:
        m = Machine("pulp-open", stack_size=256, translate=not interpret, **options)
        m.load(program)
        if elf is None:
            m.write("A", a)
            m.write("B", b)
        machines[:] = [m]
        t = time.perf_counter()
        n = int(m.run().instret.sum())
        return n, time.perf_counter() - t

    if not interpret:
        # translated at load, as a program run before on this machine (bench/engine.py)
        saved = os.environ.get("ISASIM_TRANSLATE")
        os.environ["ISASIM_TRANSLATE"] = "eager"
        try:
            once()
        finally:
            if saved is None:
                del os.environ["ISASIM_TRANSLATE"]
            else:
                os.environ["ISASIM_TRANSLATE"] = saved
    once()
    entries = machines[0]._translated
    translated = sorted({int(x) for x in entries[0::ENTRY_FIELDS]}) if entries is not None else []
    return once, translated


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
    """objdump of a function's machine code, read from this process: {address: instruction}."""
    blob = workdir / f"{addr:x}.bin"
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


def line_table(dispatcher, addr: int, workdir: Path) -> dict[int, tuple[str, int]]:
    """{address in the function: (source file, line)}, from the DWARF line table of the object
    numba compiled it into (it keeps the object only in the process that compiled it: hence
    the fresh cache and the compile in this process of ``--lines``)."""
    cres = next(iter(dispatcher.overloads.values()))
    name = cres.fndesc.llvm_func_name
    obj = workdir / f"{addr:x}.o"
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
    t = Table(title="the engine's samples by part of the source")
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


def attribute(rows: list[tuple[int, str]], parts: list[tuple[str, int]],
              translated: list[int]) -> tuple[dict[str, collections.Counter], collections.Counter]:
    """The samples in each engine part ({part: Counter(ip)}), and the rest by where they fall:
    the program's translated code, or a library."""
    inside: dict[str, collections.Counter] = {name: collections.Counter() for name, _ in parts}
    outside: collections.Counter = collections.Counter()
    starts = sorted((addr, name) for name, addr in parts)
    lo, hi = (translated[0], translated[-1] + TRANSLATED_BYTES) if translated else (0, 0)
    for ip, dso in rows:
        # (translated code first: its object may lie within CODE_BYTES of an engine function)
        part = next((name for addr, name in reversed(starts)
                     if addr <= ip < addr + CODE_BYTES), None)
        if lo <= ip < hi:
            outside["the program's translated code"] += 1
        elif part is not None:
            inside[part][ip] += 1
        else:
            outside[_library(dso)] += 1
    return inside, outside


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cores", type=int, default=8)
    ap.add_argument("--policy", choices=("round_robin", "rr_arb_tree", "fifo", "none"),
                    help="bank arbitration (default: round_robin; with --elf, the preset's)")
    ap.add_argument("--seconds", type=float, default=6.0)
    ap.add_argument("--top", type=int, default=20, help="hottest blocks (or lines) to list")
    ap.add_argument("--interpret", action="store_true", help="profile the interpreted path")
    ap.add_argument("--lines", action="store_true",
                    help="map the samples onto the engine's source lines (a debug-info compile)")
    ap.add_argument("--elf", type=Path, help="profile this program instead (pulp-open preset)")
    args = ap.parse_args()
    if args.elf is not None and not args.elf.is_file():
        raise SystemExit(f"profile_engine: no such file: {args.elf}")
    for tool in ("perf", "objdump", "nm"):
        if shutil.which(tool) is None:
            raise SystemExit(f"profile_engine: needs `{tool}` on PATH")
    if args.lines and os.environ.get("NUMBA_DEBUGINFO") != "1":
        with tempfile.TemporaryDirectory() as cache:
            print("compiling the engine with debug information (a cold compile)...", flush=True)
            env = dict(os.environ, NUMBA_DEBUGINFO="1", NUMBA_CACHE_DIR=cache,
                       ISASIM_COMPILE_IN_PROCESS="1")
            raise SystemExit(subprocess.run([sys.executable, *sys.argv], env=env).returncode)
    once, translated = workload(args.cores, args.policy, args.interpret, args.elf)
    parts = [(name, addr) for name, dispatcher in PARTS
             if (addr := entry_address(dispatcher)) is not None]
    dispatchers = dict(PARTS)
    with tempfile.TemporaryDirectory() as tmp:
        table: dict[int, tuple[str, int]] = {}
        if args.lines:
            for name, addr in parts:
                table.update(line_table(dispatchers[name], addr, Path(tmp)))
        n, busy = sample(once, args.seconds, Path(tmp) / "perf.data")
        rows = samples(Path(tmp) / "perf.data")
        code: dict[int, str] = {}
        for _, addr in parts:
            code.update(disassemble(addr, Path(tmp)))
    console = Console()
    path = "interpreted" if args.interpret else "translated at load"
    what = (f"{args.elf.name}, {args.policy or 'the preset policy'}" if args.elf is not None
            else f"{args.cores} cores, {args.policy or 'round_robin'}")
    console.print(f"{what}, {path}: {n:,} simulated instructions in "
                  f"{busy:.2f} s of Machine.run ({n / busy / 1e6:.1f} MIPS while sampled), "
                  f"{len(rows):,} samples (the rest of the process: loading each run)")
    inside, outside = attribute(rows, parts, translated)
    total = len(rows) or 1
    where = Table(title="where the samples fall")
    for col in ("code", "share"):
        where.add_column(col, justify="right" if col == "share" else "left")
    for name, _ in parts:
        where.add_row(escape(name), f"{100 * sum(inside[name].values()) / total:.1f} %")
    for dso, k in outside.most_common(6):
        where.add_row(escape(dso), f"{100 * k / total:.1f} %")
    console.print(where)
    everywhere = sum(inside.values(), collections.Counter())
    if args.lines:
        print_lines(console, everywhere, table, args.top)
        return
    blocks = collections.Counter()
    for ip, k in everywhere.items():
        blocks[ip & ~63] += k
    hot = Table(title="hottest 64-byte blocks of the engine (offsets from each function)")
    for col in ("function", "offset", "share", "hottest instruction", "its share"):
        hot.add_column(col, justify="left" if col in ("function", "hottest instruction")
                       else "right")
    for block, k in blocks.most_common(args.top):
        ip, kk = max(((i, c) for i, c in everywhere.items() if i & ~63 == block),
                     key=lambda x: x[1])
        name, addr = max(((nm, a) for nm, a in parts if a <= block), key=lambda x: x[1])
        hot.add_row(name.split("(")[-1].rstrip(")"), f"+{block - addr:#07x}",
                    f"{100 * k / total:.1f} %", code.get(ip, "?"), f"{100 * kk / total:.1f} %")
    console.print(hot)
    console.print("An instruction's samples usually land just after what it waits for (a load, "
                  "a mispredicted branch): read the block, not the single line.")


if __name__ == "__main__":
    main()
