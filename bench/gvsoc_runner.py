"""Run an ELF on GVSoC's pulp-open, for side-by-side comparisons (bench/vs_gvsoc.py).

GVSoC (github.com/gvsoc/gvsoc) is not on PyPI or in Debian: it is built from its repository
(``make build TARGETS=pulp-open``; docs/soc.md gives the recipe).  ``find_gvsoc`` looks for the
build ``$ISASIM_GVSOC_DIR`` names: a directory with ``sourceme.sh`` and
``install/bin/gvsoc`` (and, when present, the Python venv it was built with in ``venv/``).
"""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HOW_TO_BUILD = (
    "GVSoC not found: set ISASIM_GVSOC_DIR to a GVSoC build (a checkout of "
    "github.com/gvsoc/gvsoc with its submodules, built with `make build TARGETS=pulp-open`; "
    "docs/soc.md, 'GVSoC side by side', has the recipe)")
EXIT_RE = re.compile(r"Platform returned an error \(exitcode: (\d+)\)")


@dataclass
class GvsocRun:
    stdout: str          # the program's output (GVSoC's own messages removed)
    exit_code: int
    wall: float          # seconds, the whole gvsoc process


def find_gvsoc() -> Path | None:
    """The GVSoC build directory, or None."""
    c = os.environ.get("ISASIM_GVSOC_DIR", "")
    if c and (Path(c) / "install" / "bin" / "gvsoc").is_file() \
            and (Path(c) / "sourceme.sh").is_file():
        return Path(c)
    return None


def run_gvsoc(home: Path, elf: Path, timeout: float = 600) -> GvsocRun:
    """Run ``elf`` on GVSoC's pulp-open (in a scratch directory: GVSoC writes files there)."""
    venv = home / "venv" / "bin" / "activate"
    setup = (f". {venv} && " if venv.is_file() else "") + f". {home / 'sourceme.sh'} && "
    with tempfile.TemporaryDirectory() as work:
        started = time.perf_counter()
        p = subprocess.run(["bash", "-c", setup + 'exec gvsoc --target=pulp-open --binary "$0" '
                            'run', str(Path(elf).resolve())], cwd=work, capture_output=True,
                           text=True, timeout=timeout)
        wall = time.perf_counter() - started
    m = EXIT_RE.search(p.stdout + p.stderr)
    code = int(m.group(1)) if m else 0
    if p.returncode != 0 and m is None:
        raise RuntimeError(f"gvsoc failed on {elf}: {p.stderr.strip()[-500:]}")
    out = [line for line in p.stdout.splitlines()
           if not EXIT_RE.search(line) and "Input error:" not in line]
    return GvsocRun("\n".join(out) + ("\n" if out else ""), code, wall)
