"""Why the winner wins: where its cycles differ from the runner-up's.

Every core-cycle of a run is charged to one category (``isasim.result``: instructions, load-use
stalls, bank conflicts, barrier waits, DMA waits, ...), so the difference of two runs splits
exactly into per-category differences.  Divided by the core count they read as cluster cycles
(what the category cost the step on average per core); the largest ones name the reason: fewer
instructions (a bigger register block, fewer loads per MAC), less barrier and idle time (a
better balance of the split over the cores), fewer conflicts, less exposed DMA.
"""

from __future__ import annotations

from dataclasses import dataclass

from trainlib.tune.measure import Measurement

MEANING = {
    "instr": "instructions",
    "load_use": "load-use stalls",
    "tcdm_conflict": "bank conflicts",
    "ext_mem": "L2 accesses",
    "branch": "taken branches",
    "jump": "jumps",
    "fpu_dep": "FPU dependences",
    "fpu_struct": "FPU contention",
    "muldiv": "mul/div stalls",
    "misaligned": "misaligned accesses",
    "barrier": "barrier waits (imbalance)",
    "dma_wait": "DMA waits",
    "idle": "idle cores (imbalance)",
}


@dataclass(frozen=True)
class Explanation:
    saved: int                        # runner-up cycles - winner cycles
    deltas: dict[str, float]          # category -> runner-up minus winner, cycles per core
    phases: dict[str, int]            # phase label -> runner-up minus winner, cycles

    def text(self, top: int = 3) -> str:
        parts = [f"{MEANING.get(k, k)} {-v:+,.0f}" for k, v in
                 sorted(self.deltas.items(), key=lambda kv: -abs(kv[1]))[:top] if round(v)]
        return "per core: " + ", ".join(parts) if parts else "same breakdown"


def explain(winner: Measurement, other: Measurement) -> Explanation:
    """The winner's breakdown against ``other`` (negative deltas: the winner spends less)."""
    cores = max(1, len(winner.core_cycles))
    cats = set(winner.categories) | set(other.categories)
    deltas = {k: (other.categories.get(k, 0) - winner.categories.get(k, 0)) / cores
              for k in cats}
    labels = set(winner.phases) | set(other.phases)
    phases = {k: other.phases.get(k, 0) - winner.phases.get(k, 0) for k in labels}
    return Explanation(other.cycles - winner.cycles,
                       {k: v for k, v in deltas.items() if v},
                       {k: v for k, v in phases.items() if v})
