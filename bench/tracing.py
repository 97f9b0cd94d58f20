"""What tracing costs: simulation speed (MIPS) with and without the event log, and view writers.

    python bench/tracing.py [--n 64] [--repeat 3]

Runs the worked example's 8-core matmul (docs/worked-example/matmul8.s, N x N fp32, default
N = 64: about a million instructions) after one warm-up run (so numba's compilation is not
timed), best of ``--repeat``:

* ``no trace``   ``Machine.run()`` as ``isasim run`` does without trace options;
* ``event log``  the same run recording the event log to disk (what every trace option pays);
  loading the program is not timed in either;
* then the time of each writer on that log: Chrome JSON, Perfetto protobuf, VCD, HTML report.

MIPS counts the instructions of all cores per second of wall time.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from isasim.machine import Machine
from toolchain.asm import assemble
from traces.eventlog import record_run
from traces.html import write_html
from traces.perfetto import write_trace
from traces.vcd import write_vcd

KERNEL = Path(__file__).resolve().parents[1] / "docs" / "worked-example" / "matmul8.s"


def program(n: int):
    src = KERNEL.read_text().replace("    .equ N, 32\n", f"    .equ N, {n}\n")
    return assemble(src, filename=f"matmul8-n{n}.s")


def best(repeat: int, job, setup=lambda: None) -> tuple[float, object]:
    """Shortest wall time of ``repeat`` calls of ``job(setup())``, with the last value.

    ``setup`` (building and loading the machine) is not timed.
    """
    times, value = [], None
    for _ in range(repeat):
        arg = setup()
        t = time.perf_counter()
        value = job(arg)
        times.append(time.perf_counter() - t)
    return min(times), value


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=64, help="matrix size (multiple of 16)")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    prog = program(args.n)
    console = Console()
    with tempfile.TemporaryDirectory(prefix="isasim-bench-") as tmp:
        tmp = Path(tmp)

        def machine():
            return Machine("pulp-open", cores=8).load(prog)

        machine().run()                           # warm-up: compile / load numba's cache
        t_plain, result = best(args.repeat, lambda m: m.run(), machine)
        t_traced, (_, log) = best(args.repeat, lambda m: record_run(m, tmp / "run.events"),
                                  machine)
        instr = int(result.instret.sum())
        speed = Table(title=f"simulation speed, 8-core matmul N={args.n}: {instr:,} "
                            f"instructions, {result.total_cycles:,} cycles")
        for col in ("mode", "seconds", "MIPS", "slowdown"):
            speed.add_column(col, justify="right" if col != "mode" else "left")
        speed.add_row("no trace", f"{t_plain:.3f}", f"{instr / t_plain / 1e6:.2f}", "1.00x")
        speed.add_row(f"event log ({log.nrecords:,} records, "
                      f"{log.path.stat().st_size / 2**20:.1f} MiB)", f"{t_traced:.3f}",
                      f"{instr / t_traced / 1e6:.2f}", f"{t_traced / t_plain:.2f}x")
        console.print(speed)
        writers = Table(title="writing the views from the event log")
        for col in ("view", "seconds", "size MiB"):
            writers.add_column(col, justify="right" if col != "view" else "left")
        views = [("Chrome trace JSON", "t.json", lambda p: write_trace(log, p)),
                 ("Perfetto protobuf", "t.pftrace", lambda p: write_trace(log, p)),
                 ("VCD", "t.vcd", lambda p: write_vcd(log, p)),
                 ("HTML report", "t.html", lambda p: write_html(result, log, p))]
        for name, file, job in views:
            path = tmp / file
            t, _ = best(1, lambda _, job=job, path=path: job(path))
            writers.add_row(name, f"{t:.2f}", f"{path.stat().st_size / 2**20:.1f}")
        console.print(writers)


if __name__ == "__main__":
    main()
