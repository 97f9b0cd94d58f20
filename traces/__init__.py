"""Viewers of simulation runs: terminal tables, Perfetto traces, VCD, HTML reports, diffs.

Everything here reads ``isasim.result.RunResult`` objects and trace records; nothing here runs the
simulator.
"""
