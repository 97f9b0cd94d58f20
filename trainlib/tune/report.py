"""What a tuning shows: the per-step table, the rejected candidates, the summary line."""

from __future__ import annotations

from traces.term import Column, Tabular
from trainlib.tune.autoprec import AutoPrecision
from trainlib.tune.tuner import Tuning


def steps_table(t: Tuning, title: str) -> Tabular:
    """One row per step: the winner, its figures, the default kernel, the runner-up, why."""
    tab = Tabular(title, [Column("layer", key=True), Column("step", key=True),
                          Column("tiling"), Column("kernel"), Column("cycles", number=True),
                          Column("MAC/cyc", number=True, digits=2), Column("default"),
                          Column("speed-up"), Column("runner-up"),
                          Column("why the winner wins")])
    for s in t.steps:
        w = s.winner
        if w is None or w.result is None:
            tab.add(s.layer, s.step, "-", "-", None, None, "-", "-", "-", s.error)
            continue
        d, r = s.default, s.runner_up
        # an update's kernel is fixed: its default is the planner's tiling
        base = (d.kernel if s.search.optimizer is None else d.option.describe()) if d else ""
        dflt = (f"{d.cycles:,} ({base})" if d is not None and d.result is not None
                and d.result.ok else "-")
        ru = f"{r.label} +{r.cycles / w.cycles - 1:.1%}" if r is not None else "-"
        ex = s.explanation()
        tab.add(s.layer, s.step, w.option.describe(), w.kernel, w.cycles,
                w.result.mac_per_cycle if s.macs else None, dflt,
                f"{s.speedup:.2f}x" if s.speedup else "-", ru,
                ex.text() if ex is not None else "-")
    return tab


def failures_table(t: Tuning) -> Tabular | None:
    """Candidates that ran and were rejected (wrong, failed, time-out, crashed), or None."""
    rows = [(s, c) for s in t.steps for c in s.failures]
    if not rows:
        return None
    tab = Tabular("rejected candidates (never chosen)",
                  [Column("layer", key=True), Column("step", key=True), Column("candidate"),
                   Column("status"), Column("why")])
    for s, c in rows:
        assert c.result is not None
        tab.add(s.layer, s.step, c.label, c.result.status, c.result.message)
    return tab


def summary(t: Tuning) -> str:
    """One line: candidates and what became of them, time, tuned vs default cycles."""
    cands = [c for s in t.steps for c in s.search.candidates]
    pruned = sum(c.status == "pruned" for c in cands)
    skipped = sum(c.status == "skipped" for c in cands)
    line = (f"{len(t.steps)} step(s), {len(cands)} candidates: {t.stats.measured} measured "
            f"({t.stats.seconds_simulated:.0f} s of worker time), {t.stats.cached} cached, "
            f"{pruned} pruned by their bound, {skipped} skipped by their estimate, "
            f"{t.stats.failed} rejected; {t.seconds:.1f} s")
    tuned = [s for s in t.steps if s.winner is not None and s.speedup]
    if tuned:
        base = sum(s.default.cycles for s in tuned if s.default is not None)
        best = sum(s.winner.cycles for s in tuned if s.winner is not None)
        line += (f"; tuned steps: {base:,} cycles with the default kernels, {best:,} tuned "
                 f"({base / best:.2f}x)")
    return line


def precision_table(a: AutoPrecision, title: str) -> Tabular:
    """``--precision auto``: per layer the precision chosen, each precision's cycles and
    error against fp32, and why."""
    precs = [t.precision for t in a.layers[0].trials] if a.layers else []
    cols = [Column("layer", key=True), Column("chosen")]
    for p in precs:
        cols += [Column(f"{p} cycles", number=True), Column(f"{p} rel. error")]
    tab = Tabular(title, [*cols, Column("why")])
    for lc in a.layers:
        row: list = [lc.layer, lc.chosen]
        for t in lc.trials:
            row += [None if t.refused else t.cycles, f"{t.error:.2e}"]
        tab.add(*row, lc.why)
    return tab
