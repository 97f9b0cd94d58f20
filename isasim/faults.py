"""Guest faults: what went wrong in the simulated program, said so a kernel engineer can act.

A fault never surfaces as a Python traceback: the run ends with a ``FaultReport`` naming the
kind of fault, the core, the pc and its disassembly, the cycle, and the last instructions that
core executed.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from isasim import layout as L

CAUSE_NAMES = {
    L.CAUSE_FETCH_MISALIGNED: "instruction address misaligned",
    L.CAUSE_FETCH_ACCESS: "instruction fetch outside memory",
    L.CAUSE_ILLEGAL: "illegal instruction",
    L.CAUSE_BREAKPOINT: "breakpoint (ebreak with no trap handler)",
    L.CAUSE_LOAD_MISALIGNED: "misaligned load",
    L.CAUSE_LOAD_ACCESS: "load from unmapped address",
    L.CAUSE_STORE_MISALIGNED: "misaligned store",
    L.CAUSE_STORE_ACCESS: "store to unmapped address",
    L.CAUSE_ECALL_M: "environment call",
    L.CAUSE_DEADLOCK: "barrier deadlock",
    L.CAUSE_DEVICE: "device misuse",
    L.CAUSE_ALL_ASLEEP: "all cores asleep",
}


@dataclass
class FaultReport:
    kind: str                    # "illegal instruction", "timeout", "barrier deadlock", ...
    core: int
    pc: int
    instruction: str             # disassembly at pc ("" if the pc is not in memory)
    cycle: int
    detail: str = ""             # e.g. the faulting address
    recent: list[tuple[int, str]] = field(default_factory=list)   # last instructions of core
    waiting: list[str] = field(default_factory=list)              # deadlock: who waits where

    def format(self) -> str:
        what = "run interrupted" if self.kind == "interrupted" else f"guest fault: {self.kind}"
        lines = [f"{what} on core {self.core} at pc {self.pc:#010x}"
                 + (f": {self.instruction}" if self.instruction else "")
                 + f" (cycle {self.cycle})"]
        if self.detail:
            lines.append(f"  {self.detail}")
        lines.extend(f"  {w}" for w in self.waiting)
        if self.recent:
            lines.append(f"  last instructions of core {self.core}:")
            lines.extend(f"    {pc:#010x}  {text}" for pc, text in self.recent)
        return "\n".join(lines)

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> FaultReport:
        d = dict(d)
        d["recent"] = [tuple(x) for x in d.get("recent", [])]
        return cls(**d)
