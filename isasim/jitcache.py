"""Keep numba's on-disk cache honest about the engine's dependencies.

numba invalidates a cached function only when the file defining *that function* changes.  The
engine's loop inlines and calls functions from several modules (semantics, softfloat, devices,
memory, layout constants...), so an edit there would silently run stale machine code.  Before
the engine is first used, ``ensure_fresh`` hashes the sources of all those modules; when the hash
differs from the one recorded next to the cache, every cached dispatcher in them is flushed and
recompiles on first call.
"""

from __future__ import annotations

import hashlib
import inspect
from pathlib import Path
from types import ModuleType

from numba import njit
from numba.core.registry import CPUDispatcher

STAMP = "isasim-jit-deps.sha256"


def compiled(func=None, *, inline: bool = False):
    """``numba.njit`` as the engine's functions are compiled: cached, and without reference counts.

    The engine never allocates; it works on arrays that Python owns for the whole call.  With
    numba's reference counting on, every call taking arrays (and every inlined one) increfs and
    decrefs each of them with atomic instructions, and numba's pruning pass fails to remove them
    in functions as large as the loop and the scheduler: measured, 20 % of an 8-core run's time.
    ``_nrt=False`` compiles them without it.
    """
    options = {"cache": True, "_nrt": False}
    if inline:
        options["inline"] = "always"
    return njit(**options) if func is None else njit(**options)(func)


def fingerprint(modules: list[ModuleType]) -> str:
    """A hash of the modules' sources."""
    h = hashlib.sha256()
    for m in sorted(modules, key=lambda m: m.__name__):
        h.update(m.__name__.encode())
        h.update(Path(inspect.getfile(m)).read_bytes())
    return h.hexdigest()


def _dispatchers(modules: list[ModuleType]) -> list[CPUDispatcher]:
    return [v for m in modules for v in vars(m).values()
            if isinstance(v, CPUDispatcher) and v._cache is not None]


def ensure_fresh(modules: list[ModuleType]) -> None:
    """Flush the cached machine code of ``modules`` if any of their sources changed."""
    dispatchers = _dispatchers(modules)
    if not dispatchers:
        return
    cache_dir = Path(dispatchers[0]._cache.cache_path)
    stamp = cache_dir / STAMP
    want = fingerprint(modules)
    try:
        if stamp.read_text() == want:
            return
    except OSError:
        pass
    for d in dispatchers:
        d._cache.flush()
    try:
        cache_dir.mkdir(parents=True, exist_ok=True)
        stamp.write_text(want)
    except OSError:
        pass      # a read-only install: numba itself falls back to recompiling
