"""Chrome trace-event JSON (opens in ui.perfetto.dev and chrome://tracing), written as a stream.

Object form ``{"traceEvents": [...], "displayTimeUnit": "ns", "otherData": {...}}``.  Timestamps
are microseconds, so a cycle (1 ns) is 0.001; they are printed from integers, never through a
float.  Function slices are B/E pairs and stall slices complete (X) events: a B is written before
the stalls it contains, so viewers that keep file order for equal timestamps nest them right.
Barrier flows use the v1 flow events: ``s`` at the last arrival, ``f`` (binding to the enclosing
slice) in the last cycle of the woken core's barrier wait.
"""

from __future__ import annotations

import json
from pathlib import Path

from isasim import layout as L
from traces.eventlog import EventLog
from traces.events import OP_BEGIN, OP_END, barrier_flows, timeline_ops
from traces.perfetto import DMA_TRACK, dma_counter, process_name, thread_name, window_counters

PID = 1


def ts(cycle: int) -> str:
    """Cycle -> trace microseconds, exactly (1 cycle = 1 ns)."""
    return f"{cycle // 1000}.{cycle % 1000:03d}"


def tid(core: int) -> int:
    """Thread id of a core's track (tid 0 means the idle task to some viewers)."""
    return core + 1


class _Out:
    """Comma-separated event writer that counts what it wrote."""

    def __init__(self, f) -> None:
        self.f = f
        self.n = 0

    def __call__(self, event: str) -> None:
        self.f.write((",\n" if self.n else "\n") + event)
        self.n += 1


def write_chrome_json(log: EventLog, path: str | Path) -> int:
    """Write the trace; returns the number of events."""
    code = log.code
    sym_names = [json.dumps(n) for n in code.symbol_names]
    unnamed = json.dumps("(no symbol)")
    cat_names = [json.dumps(n) for n in L.CATEGORIES]
    slot_args = [json.dumps({"pc": f"{pc:#010x}", "insn": text})
                 for pc, text in zip(code.slot_pc, code.slot_text, strict=True)]
    with open(path, "w") as f:
        f.write('{"traceEvents": [')
        out = _Out(f)
        out(f'{{"ph":"M","pid":{PID},"name":"process_name",'
            f'"args":{{"name":{json.dumps(process_name(log))}}}}}')
        for c in range(log.ncores):
            t = tid(c)
            out(f'{{"ph":"M","pid":{PID},"tid":{t},"name":"thread_name",'
                f'"args":{{"name":"{thread_name(c)}"}}}}')
            out(f'{{"ph":"M","pid":{PID},"tid":{t},"name":"thread_sort_index",'
                f'"args":{{"sort_index":{c}}}}}')
            head = f'"pid":{PID},"tid":{t}'
            for ops in timeline_ops(log, c):
                for op, time, dur, what, slot in ops.tolist():
                    if op == OP_BEGIN:
                        name = sym_names[what] if what >= 0 else unnamed
                        out(f'{{"ph":"B",{head},"ts":{ts(time)},"name":{name},'
                            f'"cat":"function"}}')
                    elif op == OP_END:
                        out(f'{{"ph":"E",{head},"ts":{ts(time)}}}')
                    else:
                        args = f',"args":{slot_args[slot]}' if slot >= 0 else ""
                        out(f'{{"ph":"X",{head},"ts":{ts(time)},"dur":{ts(dur)},'
                            f'"name":{cat_names[what]},"cat":"stall"{args}}}')
        for series in window_counters(log):
            name = json.dumps(series.name)
            for time, value in zip(series.cycles.tolist(), series.values.tolist(),
                                   strict=True):
                out(f'{{"ph":"C","pid":{PID},"ts":{ts(time)},"name":{name},'
                    f'"args":{{"value":{value:g}}}}}')
        for cycles, values in dma_counter(log):
            for time, value in zip(cycles.tolist(), values.tolist(), strict=True):
                out(f'{{"ph":"C","pid":{PID},"ts":{ts(time)},"name":"{DMA_TRACK}",'
                    f'"args":{{"value":{value:g}}}}}')
        for k, flow in enumerate(barrier_flows(log)):
            common = f'"pid":{PID},"id":{k},"name":"barrier","cat":"barrier"'
            out(f'{{"ph":"s",{common},"tid":{tid(flow.src_core)},"ts":{ts(flow.src_cycle)}}}')
            out(f'{{"ph":"f","bp":"e",{common},"tid":{tid(flow.dst_core)},'
                f'"ts":{ts(max(flow.dst_cycle - 1, flow.src_cycle))}}}')
        other = {"simulator": "isasim", "time_unit": "1 cycle = 1 ns",
                 "config": log.meta.get("config", ""), "cores": log.ncores,
                 "cycles": log.cycles}
        f.write(f'\n], "displayTimeUnit": "ns", "otherData": {json.dumps(other)}}}\n')
    return out.n
