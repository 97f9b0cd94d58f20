"""What a tuning shows: the per-step table, the rejected candidates, the summary line."""

from __future__ import annotations

from rich.table import Table

from trainlib.tune.tuner import Tuning


def steps_table(t: Tuning, title: str) -> Table:
    """One row per step: the winner, its figures, the default kernel, the runner-up, why."""
    tab = Table(title=title)
    for col in ("layer", "step", "tiling", "kernel", "cycles", "MAC/cyc", "default",
                "speed-up", "runner-up", "why the winner wins"):
        tab.add_column(col, justify="right" if col in ("cycles", "MAC/cyc", "default",
                                                        "speed-up") else "left",
                       overflow="fold")
    for s in t.steps:
        w = s.winner
        if w is None or w.result is None:
            tab.add_row(s.layer, s.step, "-", "-", "-", "-", "-", "-", "-",
                        f"[red]{s.error}[/red]")
            continue
        d, r = s.default, s.runner_up
        dflt = (f"{d.cycles:,} ({d.kernel})" if d is not None and d.result is not None
                and d.result.ok else "-")
        ru = f"{r.label} +{r.cycles / w.cycles - 1:.1%}" if r is not None else "-"
        ex = s.explanation()
        tab.add_row(s.layer, s.step, w.option.describe(), w.kernel, f"{w.cycles:,}",
                    f"{w.result.mac_per_cycle:.2f}", dflt,
                    f"{s.speedup:.2f}x" if s.speedup else "-", ru,
                    ex.text() if ex is not None else "-")
    return tab


def failures_table(t: Tuning) -> Table | None:
    """Candidates that ran and were rejected (wrong, failed, time-out, crashed), or None."""
    rows = [(s, c) for s in t.steps for c in s.failures]
    if not rows:
        return None
    tab = Table(title="rejected candidates (never chosen)")
    for col in ("layer", "step", "candidate", "status", "why"):
        tab.add_column(col, overflow="fold")
    for s, c in rows:
        assert c.result is not None
        tab.add_row(s.layer, s.step, c.label, c.result.status, c.result.message)
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
