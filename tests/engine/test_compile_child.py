"""Cold compiles run in a child process, so that a Ctrl-C is not held up by LLVM.

The child compiles into numba's on-disk cache and this process loads the machine code from it:
numba's own hit/miss counters tell which of the two compiled.
"""

from __future__ import annotations

import subprocess

import pytest
from numba import njit, types

from isasim import compile_child


@njit(cache=True)
def doubled(x):
    return 2 * x


SIG = (types.int64,)


def _forget(dispatcher) -> None:
    """Drop the compiled code from this process and from the cache: the next compile is cold."""
    dispatcher._cache.flush()
    dispatcher.overloads.clear()
    dispatcher._cache_hits.clear()
    dispatcher._cache_misses.clear()


def test_a_cold_compile_happens_in_the_child():
    _forget(doubled)
    compile_child.compile_all([(doubled, SIG)])
    assert doubled._cache_misses[SIG] == 0     # not compiled here ...
    assert doubled._cache_hits[SIG] == 1       # ... but loaded from what the child wrote
    assert doubled(21) == 42


def test_compiled_code_is_not_compiled_again():
    compile_child.compile_all([(doubled, SIG)])
    hits = doubled._cache_hits[SIG]
    compile_child.compile_all([(doubled, SIG)])
    assert doubled._cache_hits[SIG] == hits and doubled._cache_misses[SIG] == 0


def test_ctrl_c_while_waiting_kills_the_child(monkeypatch):
    _forget(doubled)
    children = []
    popen = subprocess.Popen

    def recording(*args, **kwargs):
        children.append(popen(*args, **kwargs))
        return children[-1]

    def interrupted(seconds):
        raise KeyboardInterrupt

    monkeypatch.setattr(compile_child.subprocess, "Popen", recording)
    monkeypatch.setattr(compile_child.time, "sleep", interrupted)
    with pytest.raises(KeyboardInterrupt):
        compile_child.compile_all([(doubled, SIG)])
    assert len(children) == 1 and children[0].returncode is not None   # killed and reaped
    assert SIG not in doubled.overloads


def test_compiled_in_process_when_asked(monkeypatch):
    """``ISASIM_COMPILE_IN_PROCESS=1`` (bench/profile_engine.py --lines): numba keeps the object
    code, with its debug information, only where it compiled."""
    monkeypatch.setenv("ISASIM_COMPILE_IN_PROCESS", "1")
    _forget(doubled)
    compile_child.compile_all([(doubled, SIG)])
    assert doubled._cache_misses[SIG] == 1     # compiled here
    assert doubled.overloads[SIG].library._get_compiled_object()
    assert doubled(21) == 42
