"""Function names for instruction addresses, from a run result's symbol table.

A run's event log knows each instruction's function exactly (the engine's symbol ids); a run
saved without one only has ``RunResult.symbols`` (every symbol: code, data, constants).  There,
the symbols that fall inside the profiled code's address range stand in for the code symbols,
which names every instruction by the nearest symbol at or below it, as the engine does.
"""

from __future__ import annotations

import bisect


def function_of_pcs(symbols: dict[str, int], pcs: list[int]) -> list[str]:
    """The function name of each address in ``pcs`` ('(no symbol)' before the first one)."""
    if not pcs:
        return []
    lo, hi = min(pcs), max(pcs)
    named = sorted((v, name) for name, v in symbols.items()
                   if lo <= v <= hi and not name.startswith(".L"))
    addrs = [v for v, _ in named]
    out = []
    for pc in pcs:
        i = bisect.bisect_right(addrs, pc) - 1
        out.append(named[i][1] if i >= 0 else "(no symbol)")
    return out
