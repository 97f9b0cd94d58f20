"""Ctrl-C during a simulation: the run stops at the next slice boundary with its figures so far.

The compiled loop cannot be interrupted (Python sees a signal only when it returns), so
``Machine.run`` runs long runs in slices of bounded wall-clock time and, while it runs, defers
SIGINT: the first Ctrl-C asks the run to stop at the end of the current slice, a second one
raises ``KeyboardInterrupt`` at once.  The stopped run's result travels with the exception
(``RunInterrupted``), which is a ``KeyboardInterrupt``, so code that does not know about it
stops as on any Ctrl-C.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from isasim.result import RunResult

EXIT_INTERRUPTED = 130       # 128 + SIGINT, what a shell reports for a process Ctrl-C stopped


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a run; ``result`` has its figures up to the cycle where it stopped."""

    def __init__(self, result: RunResult) -> None:
        super().__init__("interrupted")
        self.result = result


class SigintRequest:
    """Whether a Ctrl-C arrived while deferred (see ``deferred_sigint``)."""

    def __init__(self) -> None:
        self.requested = False
        self.installed = False       # whether SIGINT is deferred (see deferred_sigint)

    def _handler(self, signum, frame) -> None:
        if self.requested:           # a second Ctrl-C: the user does not want to wait
            raise KeyboardInterrupt
        self.requested = True

    @contextmanager
    def raising(self) -> Iterator[None]:
        """Within the block a Ctrl-C raises ``KeyboardInterrupt`` at once (for Python work that
        may take long between two slices, such as a first compile) instead of waiting for the
        block to end."""
        if not self.installed:
            yield
            return
        signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, self._handler)


@contextmanager
def deferred_sigint() -> Iterator[SigintRequest]:
    """Within the block, SIGINT sets ``requested`` instead of raising; outside the main thread,
    or when the process handles SIGINT its own way (ignored, a custom handler), nothing
    changes and ``requested`` stays False."""
    request = SigintRequest()
    if threading.current_thread() is not threading.main_thread() \
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield request
        return
    signal.signal(signal.SIGINT, request._handler)
    request.installed = True
    try:
        yield request
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
