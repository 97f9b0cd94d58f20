"""Compile numba functions in a child process, so that a Ctrl-C does not wait for LLVM.

A cold compile of the engine's loop (after an install, or an edit of its sources) takes up to a
minute, and most of it is spent inside single LLVM calls that hold the interpreter: Python would
see a Ctrl-C only when such a call returns, tens of seconds later on a slow machine.  So when a
function's machine code is not yet in numba's on-disk cache, a child process compiles it into
the cache while this process waits in a loop that a Ctrl-C ends at once (the child is killed);
then this process loads the machine code from the cache.  Where the cache cannot be probed or
written, or the child fails, the compile happens here, as numba would do it.

``ISASIM_COMPILE_IN_PROCESS=1`` compiles here always: numba keeps a function's object code (and
its debug information) only in the process that compiled it, which
``bench/profile_engine.py --lines`` reads.
"""

from __future__ import annotations

import importlib
import os
import pickle
import signal
import subprocess
import sys
import time
from collections.abc import Sequence

from numba.core import sigutils
from numba.core.registry import CPUDispatcher

POLL_SECONDS = 0.05


def _compiled(dispatcher: CPUDispatcher, sig) -> bool:
    args, _ = sigutils.normalize_signature(sig)
    return tuple(args) in dispatcher.overloads


def _in_cache(dispatcher: CPUDispatcher, sig) -> bool:
    """Whether numba's cache has machine code for ``sig`` (as ``Dispatcher.compile`` looks it
    up: same key, stale entries dropped); False when there is no cache to look in."""
    try:
        cache = dispatcher._cache
        key = cache._index_key(sig, dispatcher.targetctx.codegen())
        return key in cache._cache_file._load_index()
    except (AttributeError, OSError):       # no file cache (disabled, or another numba)
        return False


def _cacheable(dispatcher: CPUDispatcher) -> bool:
    return hasattr(dispatcher._cache, "_cache_file")


def compile_all(functions: Sequence[tuple[CPUDispatcher, object]]) -> None:
    """Compile each ``(dispatcher, signature)`` not compiled yet; those not in numba's cache
    are compiled by a child process.  A Ctrl-C meanwhile raises ``KeyboardInterrupt`` within
    ``POLL_SECONDS`` (if SIGINT raises in this process) and kills the child."""
    todo = [(d, s) for d, s in functions if not _compiled(d, s)]
    apart = [(d, s) for d, s in todo if _cacheable(d) and not _in_cache(d, s)]
    if apart and os.environ.get("ISASIM_COMPILE_IN_PROCESS") != "1":
        _compile_in_child(apart)
    for dispatcher, sig in todo:
        dispatcher.compile(sig)      # from the cache the child wrote, or here if it could not


def _compile_in_child(functions: Sequence[tuple[CPUDispatcher, object]]) -> None:
    job = pickle.dumps([(d.py_func.__module__, d.py_func.__qualname__, s) for d, s in functions])
    # the child imports the functions' modules as this process did
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    try:
        # its own session: a Ctrl-C at the terminal reaches this process only, which kills it
        child = subprocess.Popen([sys.executable, "-m", "isasim.compile_child"],
                                 stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL, env=env, start_new_session=True)
    except OSError:
        return                       # compiled here instead
    try:
        child.stdin.write(job)
        child.stdin.close()
        while child.poll() is None:
            time.sleep(POLL_SECONDS)
    except BrokenPipeError:
        child.wait()
    except BaseException:
        child.kill()
        child.wait()
        raise


def main() -> int:
    """The child: compile the pickled ``(module, name, signature)`` list from stdin."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for module, name, sig in pickle.loads(sys.stdin.buffer.read()):
        getattr(importlib.import_module(module), name).compile(sig)
    return 0


if __name__ == "__main__":
    sys.exit(main())
