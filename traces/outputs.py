"""The trace outputs of ``isasim run`` (``--trace``, ``--vcd``, ``--report``) in one place.

The CLI only says which files it wants; this module runs the machine with the event recorder,
writes each view from the one event log, and turns every failure a user can cause (a suffix we
do not write, a trace too large for JSON, a missing optional package, an unwritable path) into a
one-line message, so the command never ends in a traceback.  The event log is kept next to the
``--json`` result when there is one (so ``isasim report`` can use it later), otherwise it lives
in a temporary directory for the duration of the command.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from isasim.result import RunResult
from traces.eventlog import EventLog, record_run
from traces.perfetto import PROTO_SUFFIXES, TraceTooLarge, write_trace

TRACE_SUFFIXES = (".json", *PROTO_SUFFIXES)


@dataclass
class Outputs:
    """Files requested on the command line (None: not wanted)."""

    trace: str | None = None
    vcd: str | None = None
    report: str | None = None
    keep_events: str | None = None     # the --json path: keep the event log beside it
    title: str = "isasim run"

    @property
    def wanted(self) -> bool:
        return bool(self.trace or self.vcd or self.report)

    def check(self) -> str | None:
        """A usage error to report before running, or None."""
        if self.trace and Path(self.trace).suffix not in TRACE_SUFFIXES:
            return (f"--trace {self.trace}: use a .json name (Chrome trace JSON) or .pftrace "
                    f"(Perfetto protobuf)")
        if self.vcd and Path(self.vcd).suffix != ".vcd":
            return f"--vcd {self.vcd}: the file name must end in .vcd"
        if self.report and Path(self.report).suffix not in (".html", ".htm"):
            return f"--report {self.report}: the file name must end in .html"
        return None


@dataclass
class Written:
    """What ``run_with_outputs`` did: lines to show, and failures (the command exits 2)."""

    messages: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def events_path(json_path: str) -> Path:
    """Where the event log of a run saved as ``json_path`` is kept (never the JSON itself)."""
    p = Path(json_path)
    e = p.with_suffix(".events")
    return e if e != p else p.with_name(p.name + ".events")


def run_with_outputs(machine, max_cycles: int | None, out: Outputs,
                     progress=None) -> tuple[RunResult, Written]:
    """Run with the event recorder and write every requested view (``progress``: see
    ``Machine.run``)."""
    done = Written()
    with tempfile.TemporaryDirectory(prefix="isasim-run-") as tmp:
        path = events_path(out.keep_events) if out.keep_events else Path(tmp) / "run.events"
        result, log = record_run(machine, path, max_cycles, progress=progress)
        if out.keep_events:
            result.trace_file = path.name if path.parent == Path(out.keep_events).parent \
                else str(path)
            done.messages.append(f"event log: {path} ({log.nrecords:,} records)")
        else:
            result.trace_file = None
        _write_views(result, log, out, done)
    return result, done


def _write_views(result: RunResult, log: EventLog, out: Outputs, done: Written) -> None:
    jobs = []
    if out.trace:
        jobs.append((out.trace, lambda: write_trace(log, out.trace)))
    if out.vcd:
        jobs.append((out.vcd, lambda: _vcd(log, out.vcd)))
    if out.report:
        jobs.append((out.report, lambda: _html(result, log, out.report, out.title)))
    for path, job in jobs:
        try:
            done.messages.append(job())
        except TraceTooLarge as e:
            done.errors.append(str(e))
        except RuntimeError as e:          # a missing optional package
            done.errors.append(f"{path}: {e}")
        except OSError as e:
            done.errors.append(f"{path}: {e.strerror or e}")


def _vcd(log: EventLog, path: str) -> str:
    from traces.vcd import write_vcd

    n = write_vcd(log, path)
    return f"VCD waveform: {path} ({n:,} state runs)"


def _html(result: RunResult, log: EventLog | None, path: str, title: str) -> str:
    from traces.html import write_html

    write_html(result, log, path, title)
    return f"HTML report: {path}"


def load_result(path: str) -> RunResult:
    """``RunResult.load`` with a clear message for binary files (e.g. an event log given by
    mistake); every failure is a ValueError."""
    try:
        return RunResult.load(path)
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not an isasim run result (a binary file; give the JSON "
                         f"written by 'isasim run --json')") from None
