"""On-disk cache of measured candidates, so a rerun of a tuning is free.

A measurement is valid for as long as the things that determined it are unchanged: the
candidate (layer, shapes, step, kernel, tile, memory, cores, every cluster configuration
field, input seed), the assembly of every kernel file the step's program contains, and the
code that builds and simulates it (the ``isasim``, ``toolchain`` and ``trainlib`` sources, the
catalogue data).  The key is a SHA-256 over all of that, so an edit of a kernel, of the timing
model or of the driver invalidates exactly the entries it could change, with no version number
to remember to bump.

Entries are JSON files under the user's cache directory (``$TRAINLIB_TUNE_CACHE``, else
``$XDG_CACHE_HOME/isasim/tune``, else ``~/.cache/isasim/tune``), never inside the repository;
written atomically, so a killed tuning leaves no half entry.  Only deterministic outcomes are
stored (``ok``, ``wrong``, ``error``); a time-out or a crashed worker may be the machine's
fault and is tried again next time.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import tempfile
from pathlib import Path

import asm_kernels.catalogue
import isasim.machine
import toolchain.program
import trainlib.step
from asm_kernels.catalogue import catalogue
from trainlib.tune import measure
from trainlib.tune.measure import Job, Measurement

CACHEABLE = ("ok", "wrong", "error")
# Package directories found from a module of each (a same-named test directory on sys.path
# may shadow the top-level name, never the module files).
CODE_DIRS = tuple(Path(m.__file__).parent for m in (isasim.machine, toolchain.program,
                                                    trainlib.step))
KERNEL_DIR = Path(asm_kernels.catalogue.__file__).parent


def default_dir() -> Path:
    env = os.environ.get("TRAINLIB_TUNE_CACHE")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "isasim" / "tune"


def _hash_files(h, root: Path, recurse: bool) -> None:
    for entry in sorted(root.iterdir(), key=lambda e: e.name):
        if entry.is_dir():
            if recurse and entry.name not in ("__pycache__", "tune"):
                _hash_files(h, entry, recurse)
        elif entry.name.endswith((".py", ".toml", ".inc")):   # .inc: macros kernels include
            h.update(entry.name.encode())
            h.update(entry.read_bytes())


@functools.cache
def code_fingerprint() -> str:
    """Hash of the simulator, assembler and trainlib sources, the catalogue data, the shared
    kernel macro files and the measuring job (the rest of the autotuner does not change what a
    candidate measures)."""
    h = hashlib.sha256()
    for d in CODE_DIRS:
        _hash_files(h, d, True)
    _hash_files(h, KERNEL_DIR, False)
    h.update(Path(measure.__file__).read_bytes())
    return h.hexdigest()


@functools.cache
def kernel_file_hash(name: str) -> str:
    return hashlib.sha256((KERNEL_DIR / name).read_bytes()).hexdigest()


def cache_key(job: Job, kernels: list[str]) -> str:
    """Key of a job whose program contains ``kernels`` (their files' text goes in)."""
    files = sorted({catalogue()[k].file for k in kernels})
    data = {"job": job.key_data(), "code": code_fingerprint(),
            "kernel_files": {f: kernel_file_hash(f) for f in files}}
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()


class ResultCache:
    """Measurements by key in a directory (None: no cache, every lookup misses)."""

    def __init__(self, directory: str | Path | None) -> None:
        self.dir = Path(directory) if directory is not None else None

    def _path(self, key: str) -> Path:
        assert self.dir is not None
        return self.dir / key[:2] / f"{key}.json"

    def get(self, key: str) -> Measurement | None:
        if self.dir is None:
            return None
        try:
            d = json.loads(self._path(key).read_text())
            if not isinstance(d, dict) or d.get("status") not in CACHEABLE:
                return None                  # damaged or foreign: measure again
            return Measurement.from_dict(d, cached=True)
        except (OSError, ValueError, TypeError, AttributeError):
            return None

    def put(self, key: str, m: Measurement) -> None:
        if self.dir is None or m.status not in CACHEABLE:
            return
        p = self._path(key)
        p.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=p.parent, suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            json.dump(m.to_dict(), f)
        os.replace(tmp, p)
