"""RunResult: everything a run produced, as numpy arrays, serialisable to JSON.

Viewers (``traces``), the kernel tests and the autotuner read runs through this class only, so
it is plain data: per-core counters and stall categories, the per-instruction profile, the TCDM
conflict matrices, the PULP performance counters, final registers, output, exit status.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from isasim import layout as L
from isasim.faults import FaultReport

RESULT_FORMAT = "isasim-run/1"


@dataclass
class RunResult:
    status: str              # "exited" | "fault" | "timeout" | "deadlock" | "interrupted" (Ctrl-C)
    exit_code: int                       # first non-zero exit code in time order, else 0
    exit_codes: list[int | None]         # per core (None: did not exit)
    cycles: np.ndarray                   # int64[ncores]: cycles of each core
    instret: np.ndarray                  # int64[ncores]
    categories: np.ndarray               # int64[ncores, NCAT]: cycles per category
    profile_pc: np.ndarray               # int64[n]: address of each profiled instruction
    profile_text: list[str]              # disassembly of each
    profile_count: np.ndarray            # int64[ncores, n]: times issued
    profile_stall: np.ndarray            # int64[ncores, n, NCAT]: cycles charged to it
    conflicts: np.ndarray                # int64[ncores, nbanks]: cycles lost, by victim and bank
    conflict_winners: np.ndarray         # int64[ncores, ncores]: by victim and winning core
    perf: dict[str, np.ndarray]          # PULP PCER counter name -> int64[ncores]
    x: np.ndarray                        # uint32[ncores, 32] final integer registers
    f: np.ndarray                        # uint32[ncores, 32] final FP registers (bit patterns)
    fcsr: np.ndarray                     # uint32[ncores]
    stdout: str = ""
    fault: FaultReport | None = None
    warnings: list[str] = field(default_factory=list)
    config: dict = field(default_factory=dict)
    symbols: dict[str, int] = field(default_factory=dict)
    trace_file: str | None = None
    # int64[ncores, n]: instruction-cache (L0) misses of each instruction's fetch
    profile_imiss: np.ndarray | None = None

    category_names: tuple[str, ...] = L.CATEGORIES

    # ---- views ------------------------------------------------------------------------------
    @property
    def ncores(self) -> int:
        return int(self.cycles.shape[0])

    @property
    def total_cycles(self) -> int:
        return int(self.cycles.max()) if self.cycles.size else 0

    def category(self, name: str) -> np.ndarray:
        return self.categories[:, L.CATEGORIES.index(name)]

    def breakdown(self, core: int) -> dict[str, int]:
        return {n: int(v) for n, v in zip(L.CATEGORIES, self.categories[core], strict=True)}

    def check_invariant(self) -> None:
        """Every cycle of every core charged to exactly one category (raises AssertionError)."""
        sums = self.categories.sum(axis=1)
        bad = np.nonzero(sums != self.cycles)[0]
        if bad.size:
            c = int(bad[0])
            raise AssertionError(f"core {c}: categories sum to {int(sums[c])}, "
                                 f"cycles are {int(self.cycles[c])}: {self.breakdown(c)}")
        if not np.array_equal(self.category("instr"), self.instret):
            raise AssertionError("instr category differs from instructions retired")

    def hot_spots(self, n: int = 20) -> list[dict]:
        """The ``n`` instructions with the most cycles (issue + stalls), all cores summed."""
        cyc = self.profile_count.sum(axis=0) + self.profile_stall.sum(axis=(0, 2))
        order = np.argsort(-cyc, kind="stable")[:n]
        out = []
        for i in order:
            if cyc[i] == 0:
                break
            stalls = self.profile_stall[:, i, :].sum(axis=0)
            misses = int(self.profile_imiss[:, i].sum()) if self.profile_imiss is not None else 0
            out.append({"pc": int(self.profile_pc[i]), "text": self.profile_text[i],
                        "count": int(self.profile_count[:, i].sum()), "cycles": int(cyc[i]),
                        "imiss": misses,
                        "stalls": {n: int(v) for n, v in zip(L.CATEGORIES, stalls, strict=True)
                                   if v}})
        return out

    # ---- serialisation ------------------------------------------------------------------------
    def to_dict(self) -> dict:
        return {
            "format": RESULT_FORMAT,
            "status": self.status, "exit_code": self.exit_code, "exit_codes": self.exit_codes,
            "cycles": self.cycles.tolist(), "instret": self.instret.tolist(),
            "category_names": list(L.CATEGORIES), "categories": self.categories.tolist(),
            "profile": {"pc": self.profile_pc.tolist(), "text": self.profile_text,
                        "count": self.profile_count.tolist(),
                        "stall": self.profile_stall.tolist(),
                        "imiss": (self.profile_imiss.tolist()
                                  if self.profile_imiss is not None else None)},
            "conflicts": self.conflicts.tolist(),
            "conflict_winners": self.conflict_winners.tolist(),
            "perf": {k: v.tolist() for k, v in self.perf.items()},
            "registers": {"x": self.x.tolist(), "f": self.f.tolist(), "fcsr": self.fcsr.tolist()},
            "stdout": self.stdout,
            "fault": self.fault.to_dict() if self.fault else None,
            "warnings": self.warnings, "config": self.config, "symbols": self.symbols,
            "trace_file": self.trace_file,
        }

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict()))

    @classmethod
    def from_dict(cls, d: dict) -> RunResult:
        if d.get("format") != RESULT_FORMAT:
            raise ValueError(f"not an isasim run result (format {d.get('format')!r})")
        names = tuple(d["category_names"])
        if names != L.CATEGORIES:
            raise ValueError("run result written by a version with other cycle categories")
        prof = d["profile"]
        n = len(prof["pc"])
        ncores = len(d["cycles"])
        return cls(
            status=d["status"], exit_code=d["exit_code"], exit_codes=d["exit_codes"],
            cycles=np.array(d["cycles"], dtype=np.int64),
            instret=np.array(d["instret"], dtype=np.int64),
            categories=np.array(d["categories"], dtype=np.int64).reshape(ncores, L.NCAT),
            profile_pc=np.array(prof["pc"], dtype=np.int64), profile_text=list(prof["text"]),
            profile_count=np.array(prof["count"], dtype=np.int64).reshape(ncores, n),
            profile_stall=np.array(prof["stall"], dtype=np.int64).reshape(ncores, n, L.NCAT),
            conflicts=np.array(d["conflicts"], dtype=np.int64),
            conflict_winners=np.array(d["conflict_winners"], dtype=np.int64),
            perf={k: np.array(v, dtype=np.int64) for k, v in d["perf"].items()},
            x=np.array(d["registers"]["x"], dtype=np.uint32),
            f=np.array(d["registers"]["f"], dtype=np.uint32),
            fcsr=np.array(d["registers"]["fcsr"], dtype=np.uint32),
            stdout=d["stdout"],
            fault=FaultReport.from_dict(d["fault"]) if d["fault"] else None,
            warnings=list(d["warnings"]), config=dict(d["config"]),
            symbols=dict(d["symbols"]), trace_file=d.get("trace_file"),
            profile_imiss=(np.array(prof["imiss"], dtype=np.int64).reshape(ncores, n)
                           if prof.get("imiss") is not None else None),
        )

    @classmethod
    def load(cls, path: str | Path) -> RunResult:
        try:
            data = json.loads(Path(path).read_text())
        except json.JSONDecodeError as e:
            raise ValueError(f"{path}: not JSON ({e.msg} at line {e.lineno})") from None
        if not isinstance(data, dict):
            raise ValueError(f"{path}: not an isasim run result")
        try:
            return cls.from_dict(data)
        except (KeyError, TypeError) as e:
            raise ValueError(f"{path}: incomplete run result (missing {e})") from None
