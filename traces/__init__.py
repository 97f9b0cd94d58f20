"""Viewers of simulation runs: terminal tables, Perfetto traces, VCD, HTML reports, diffs.

Everything here reads ``isasim.result.RunResult`` objects and event logs (``traces.eventlog``);
the one place that runs the simulator is ``eventlog.record_run``, which runs a loaded machine
with the event recorder attached.  ``traces.events`` turns the log into what the views draw.
"""
