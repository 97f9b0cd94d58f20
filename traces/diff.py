"""Where two runs differ (``isasim diff a.json b.json``): per core and category, per function.

Two kernels, or one kernel under two configurations.  The first table has the totals of both
runs (all cores) per category with the change; the second the change of every core in every
category, so that one core's barrier wait or conflicts stand out; the third sums the profile per
function so that a change can be traced to the code it comes from; a last table lists the
configuration settings that differ.  Cores present in only one run are marked as such.  They
are ``traces.term.Tabular`` tables, printed like every other table of the command line (fitting
the terminal, plain rows when piped, ``--format``).
"""

from __future__ import annotations

from collections import defaultdict

from isasim import layout as L
from isasim.result import RunResult
from traces.symbols import function_of_pcs
from traces.term import Column, Tabular


def _cell(a: int | None, b: int | None) -> str:
    """A -> B in one cell (functions table)."""
    if a is None or b is None:
        return f"{'-' if a is None else f'{a:,}'} -> {'-' if b is None else f'{b:,}'}"
    if a == b:
        return f"{a:,}"
    return f"{a:,} -> {b:,} {_delta(b - a)}"


def _delta(d: int) -> str:
    """A signed change: + when B spends more cycles."""
    return "=" if d == 0 else f"{d:+,}"


def _used(a: RunResult, b: RunResult) -> list[int]:
    return [k for k in range(L.NCAT) if a.categories[:, k].any() or b.categories[:, k].any()]


def total_diff(a: RunResult, b: RunResult, names: tuple[str, str]) -> Tabular:
    """All cores together: cycles and each category in A and B, the change and its share."""
    t = Tabular(f"all cores: {names[0]} (A) -> {names[1]} (B)",
                [Column("", key=True), Column("A", number=True), Column("B", number=True),
                 Column("change", number=True), Column("%", number=True)])
    rows = [("core-cycles", int(a.cycles.sum()), int(b.cycles.sum()))]
    rows += [(L.CATEGORIES[k], int(a.categories[:, k].sum()), int(b.categories[:, k].sum()))
             for k in _used(a, b)]
    for name, va, vb in rows:
        t.add(name, va, vb, _delta(vb - va),
              f"{100 * (vb - va) / va:+.1f}%" if va and va != vb else "")
    return t


def core_diff(a: RunResult, b: RunResult) -> Tabular:
    """Per core, the change (B - A) of its cycles and of every category used by either run."""
    cats = _used(a, b)
    t = Tabular("change per core and category, B - A (+: more cycles in B)",
                [Column("core", number=True, key=True), Column("cycles", number=True)]
                + [Column(L.CATEGORIES[k], number=True) for k in cats])
    for c in range(max(a.ncores, b.ncores)):
        if c >= a.ncores or c >= b.ncores:
            t.add(c, f"only in {'A' if c < a.ncores else 'B'}", *[""] * len(cats))
            continue
        t.add(c, _delta(int(b.cycles[c]) - int(a.cycles[c])),
              *[_delta(int(b.categories[c, k]) - int(a.categories[c, k])) for k in cats])
    return t


def function_cycles(r: RunResult) -> dict[str, dict[str, int]]:
    """Per function (all cores): total cycles and cycles of each category."""
    funcs = function_of_pcs(r.symbols, r.profile_pc.tolist())
    out: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    count = r.profile_count.sum(axis=0)
    stall = r.profile_stall.sum(axis=0)
    for i, fn in enumerate(funcs):
        out[fn]["instr"] += int(count[i])
        for k in range(1, L.NCAT):
            out[fn][L.CATEGORIES[k]] += int(stall[i, k])
    for d in out.values():
        d["cycles"] = sum(v for k, v in d.items() if k != "cycles")
    return out


def function_diff(a: RunResult, b: RunResult, names: tuple[str, str], top: int) -> Tabular:
    """The functions whose cycles changed most, with the categories that changed."""
    fa, fb = function_cycles(a), function_cycles(b)
    zero: dict[str, int] = defaultdict(int)
    names_all = sorted(set(fa) | set(fb),
                       key=lambda f: -abs(fb.get(f, zero)["cycles"] - fa.get(f, zero)["cycles"]))
    t = Tabular(f"cycles per function (all cores): {names[0]} -> {names[1]}",
                [Column("function", key=True), Column("cycles", number=True),
                 Column("largest changes by category")])
    for f in names_all[:top]:
        da, db = fa.get(f, zero), fb.get(f, zero)
        changes = sorted(((db[k] - da[k], k) for k in L.CATEGORIES if db[k] != da[k]),
                         key=lambda x: -abs(x[0]))
        t.add(f, _cell(da["cycles"], db["cycles"]),
              ", ".join(f"{k} {d:+,}" for d, k in changes[:4]) or "same")
    return t


def diff_view(a: RunResult, b: RunResult, names: tuple[str, str], top: int = 10
              ) -> list[Tabular]:
    """The three tables, plus the configuration settings when the two runs differ there."""
    parts = [total_diff(a, b, names), core_diff(a, b), function_diff(a, b, names, top)]
    changed = sorted(k for k in set(a.config) | set(b.config)
                     if a.config.get(k) != b.config.get(k))
    if changed:
        t = Tabular("configuration differences",
                    [Column("setting", key=True), Column(names[0], number=True),
                     Column(names[1], number=True)])
        for k in changed:
            t.add(k, str(a.config.get(k, "-")), str(b.config.get(k, "-")))
        parts.append(t)
    return parts
