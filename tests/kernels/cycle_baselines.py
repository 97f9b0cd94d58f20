"""Committed cycle counts of kernels on fixed shapes: any change fails until regenerated.

The simulator is deterministic, so a kernel's cycle count on a given shape, core count and
configuration is a fingerprint of both the kernel and the timing model.  Each kernel family keeps
its baseline in ``tests/kernels/baselines/<family>.json`` (case id -> cycles).  Tests call
``check``; ``bench/regen_baselines.py`` reruns every case, prints the differences and rewrites
the files.
"""

from __future__ import annotations

import json
from pathlib import Path

BASELINE_DIR = Path(__file__).parent / "baselines"


def load(family: str) -> dict[str, int]:
    path = BASELINE_DIR / f"{family}.json"
    if not path.exists():
        return {}
    return {k: int(v) for k, v in json.loads(path.read_text()).items()}


def save(family: str, cycles: dict[str, int]) -> None:
    BASELINE_DIR.mkdir(exist_ok=True)
    path = BASELINE_DIR / f"{family}.json"
    path.write_text(json.dumps(dict(sorted(cycles.items())), indent=1) + "\n")


def check(family: str, case_id: str, cycles: int) -> None:
    """Fail unless ``cycles`` equals the committed baseline of ``case_id``."""
    expected = load(family).get(case_id)
    if expected is None:
        raise AssertionError(f"no cycle baseline for {family}/{case_id} (measured {cycles}); "
                             f"run: python bench/regen_baselines.py {family}")
    if cycles != expected:
        raise AssertionError(f"{family}/{case_id}: {cycles} cycles, baseline {expected} "
                             f"({cycles - expected:+d}); if intended, run: "
                             f"python bench/regen_baselines.py {family}")
