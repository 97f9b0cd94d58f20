"""One self-contained HTML report of a run: no network, all data and code inline.

Sections: the run's numbers and configuration, per-core stacked stall bars, a zoomable timeline
(per-window state mix when zoomed out, the exact state runs and functions when zoomed in), the
cores x banks conflict heat map with the worst (pc, bank) pairs, the hot spots and an annotated
listing (cycles and stall reasons per instruction, like ``perf annotate``).

The page is ``assets/report.html`` with ``assets/report.css``, ``assets/report.js`` and the run's
data (JSON) pasted in.  The timeline's exact runs are capped (``MAX_RUNS`` over all cores, taken
from the start of the run) so the file stays openable; past the cap the page says so and shows
the per-window view only.  Without an event log the page still has everything but the timeline
and the (pc, bank) pairs.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from isasim import layout as L
from isasim.result import RunResult
from traces.eventlog import EventLog
from traces.events import OP_BEGIN, OP_END, conflict_pairs, core_runs, timeline_ops, window_stats
from traces.symbols import function_of_pcs

ASSETS = Path(__file__).parent / "assets"
MAX_RUNS = 400_000
TOP = 25
COLORS = ("#4caf50", "#e53935", "#8e24aa", "#fb8c00", "#1e88e5", "#00acc1", "#fdd835",
          "#6d4c41", "#d81b60", "#3949ab", "#90a4ae", "#26a69a", "#e0e0e0", "#ff7043")


def _asset(name: str) -> str:
    return (ASSETS / name).read_text()


def _listing(result: RunResult, functions: list[str]) -> dict:
    """Per-instruction counts and stalls of every function that used any cycle."""
    cyc = result.profile_count.sum(axis=0) + result.profile_stall.sum(axis=(0, 2))
    busy = {functions[i] for i in np.nonzero(cyc)[0]}
    rows = [i for i in np.argsort(result.profile_pc, kind="stable") if functions[i] in busy]
    return {"pc": [int(result.profile_pc[i]) for i in rows],
            "text": [result.profile_text[i] for i in rows],
            "fn": [functions[i] for i in rows],
            "count": result.profile_count[:, rows].tolist(),
            "stall": np.transpose(result.profile_stall[:, rows, :], (0, 2, 1)).tolist()}


def _timeline(log: EventLog, max_runs: int = MAX_RUNS) -> dict:
    """Window mix for the overview, plus the exact runs and function spans up to the cap."""
    ws = window_stats(log)
    per_core = max(1, max_runs // max(log.ncores, 1))
    cores = []
    for c in range(log.ncores):
        lens, states, slots, kept = [], [], [], 0
        for runs in core_runs(log, c):
            take = runs[:per_core - kept]
            lens += take[:, 1].tolist()
            states += take[:, 2].tolist()
            slots += take[:, 3].tolist()
            kept += len(take)
            if kept >= per_core:
                break
        detail_end = int(sum(lens))
        fn_t, fn_e, fn_sym = [], [], []
        for ops in timeline_ops(log, c):
            for op, t, _dur, what, _slot in ops.tolist():
                if t > detail_end or op not in (OP_BEGIN, OP_END):
                    continue
                if op == OP_BEGIN:
                    fn_t.append(t)
                    fn_sym.append(what)
                else:
                    fn_e.append(t)
        fn_e += [detail_end] * (len(fn_t) - len(fn_e))
        mix = {L.CATEGORIES[k]: ws.states[c, k].tolist() for k in range(L.NCAT)
               if ws.states[c, k].any()}
        cores.append({"len": lens, "state": states, "slot": slots, "detail_end": detail_end,
                      "fn_t": fn_t, "fn_e": fn_e, "fn_sym": fn_sym, "mix": mix})
    return {"window": ws.window, "nwin": ws.nwin, "cores": cores,
            "symbols": log.code.symbol_names, "slot_pc": log.code.slot_pc,
            "slot_text": log.code.slot_text}


def _pairs(log: EventLog) -> list[dict]:
    pairs = conflict_pairs(log)
    flat = np.argsort(-pairs, axis=None, kind="stable")[:TOP]
    out = []
    for k in flat:
        slot, bank = divmod(int(k), pairs.shape[1])
        if pairs[slot, bank] == 0:
            break
        out.append({"pc": log.code.slot_pc[slot], "text": log.code.slot_text[slot],
                    "fn": log.code.function(slot), "bank": bank,
                    "cycles": int(pairs[slot, bank])})
    return out


def report_data(result: RunResult, log: EventLog | None, title: str,
                max_runs: int = MAX_RUNS) -> dict:
    """Everything the page shows, as JSON-ready data (``max_runs``: the timeline's cap)."""
    pcs = result.profile_pc.tolist()
    functions = ([log.code.function(i) for i in range(len(pcs))]
                 if log and log.code.slot_pc == pcs else function_of_pcs(result.symbols, pcs))
    hot = result.hot_spots(TOP)
    index = {pc: i for i, pc in enumerate(pcs)}
    for h in hot:
        h["fn"] = functions[index[h["pc"]]]
    return {
        "title": title, "status": result.status, "exit_code": result.exit_code,
        "total_cycles": result.total_cycles, "ncores": result.ncores,
        "categories": list(L.CATEGORIES), "colors": list(COLORS),
        "cycles": result.cycles.tolist(), "instret": result.instret.tolist(),
        "cat": result.categories.tolist(),
        "conflicts": result.conflicts.tolist(),
        "winners": result.conflict_winners.tolist(),
        "config": result.config, "warnings": result.warnings,
        "fault": result.fault.format() if result.fault else None,
        "hot": hot, "listing": _listing(result, functions),
        "pairs": _pairs(log) if log else None,
        "timeline": _timeline(log, max_runs) if log else None,
    }


def write_html(result: RunResult, log: EventLog | None, path: str | Path,
               title: str = "isasim run") -> Path:
    """Write the report page; returns its path."""
    return _page(report_data(result, log, title), None, path, title)


def write_html_runs(runs: list[tuple[str, RunResult, EventLog | None]], path: str | Path,
                    title: str, initial: int = 0) -> Path:
    """One page for several runs (``(label, result, log)``, e.g. the layer steps of a training
    step) with a selector; it opens on run ``initial``.  The timelines share the cap."""
    share = max(1, MAX_RUNS // max(len(runs), 1))
    datas = [report_data(result, log, f"{title}: {label}", share)
             for label, result, log in runs]
    steps = {"labels": [label for label, _, _ in runs], "runs": datas, "initial": initial}
    return _page(datas[initial], steps, path, title)


def _page(data: dict, steps: dict | None, path: str | Path, title: str) -> Path:
    def embed(value) -> str:
        return json.dumps(value, separators=(",", ":")).replace("<", "\\u003c")
    extra = ("" if steps is None else
             f'<script id="steps-data" type="application/json">{embed(steps)}</script>')
    page = (_asset("report.html")
            .replace("{{TITLE}}", _escape(title))
            .replace("/*{{CSS}}*/", _asset("report.css"))
            .replace("/*{{JS}}*/", _asset("report.js"))
            .replace("{{DATA}}", embed(data))
            .replace("<!--{{STEPS}}-->", extra))
    path = Path(path)
    path.write_text(page)
    return path


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
