"""Commit logs in Spike's ``-l --log-commits`` format: ``isasim run --log-commits FILE``.

Per retired instruction two lines, as Spike prints them::

    core   0: 0x1c000004 (0x00028293) addi    t0, t0, 0
    core   0: 3 0x1c000004 (0x00028293) x5  0x00006000

The first names the instruction (isasim's disassembler spells some operands differently from
Spike's); the second is the commit: privilege level (3, machine mode), pc, instruction word,
then the registers and CSRs written (``x5``, ``f3``, ``c1_fflags``, ``c768_mstatus``, ordered as
Spike orders them), the address loaded (``mem ADDR``) and the address and value stored
(``mem ADDR VALUE``).  ``spike_comparable`` reduces two logs to what both simulators agree on
(see its docstring); ``tests/debug/test_commitlog.py`` checks equality on random RV32IMFC
programs.

The loop runs compiled and keeps no per-instruction record, so a logged run advances the cluster
one fetch cycle at a time (``isasim.runcontrol``) and reads each core's state around the
instruction it retired; a run without the option pays nothing.
"""

from __future__ import annotations

import re
from typing import TextIO

import numpy as np

from isasim import layout as L
from isasim.opcodes import OP_ID
from isasim.runcontrol import RunControl
from isasim.semantics import exec_scalar

CSR_OPS = {OP_ID[n] for n in ("csrrw", "csrrs", "csrrc", "csrrwi", "csrrsi", "csrrci")}
CSR_IMM_OPS = {OP_ID[n] for n in ("csrrwi", "csrrsi", "csrrci")}
CSR_WRITE_ALWAYS = {OP_ID["csrrw"], OP_ID["csrrwi"]}
# Spike logs a write of fcsr as its two fields
CSR_LOGGED_AS = {3: (1, 2)}
MSTATUS = 0x300
MPP = 3 << 11
_COMMIT = re.compile(r"^core\s+(\d+): (\d) 0x([0-9a-f]+) \((0x[0-9a-f]+)\)(.*)$")


class CommitLogger:
    """Formats the commits of one machine (see the module docstring)."""

    def __init__(self, machine) -> None:
        self.m = machine
        self.names = {num: name for name, num in machine.isa.csrs.items()}

    def _record(self, pc: int) -> np.ndarray:
        m = self.m
        slot = m._slot_at(pc)
        if slot < 0:
            slot = m._decode_at(pc)
        return m.code[slot * L.NF:(slot + 1) * L.NF]

    def lines(self, core: int, pc: int, regs: np.ndarray, frm: int) -> str:
        """The two lines of the instruction ``core`` retired at ``pc``; ``regs`` is its
        register row before the instruction, ``frm`` its rounding mode then."""
        m = self.m
        rec = self._record(pc)
        size = int(rec[L.F_LEN])
        word = int(rec[L.F_WORD]) & (0xFFFF if size == 2 else 0xFFFFFFFF)
        head = f"core {core:3d}: "
        text = m.disassemble_at(pc)
        mnemonic, _, operands = text.partition(" ")
        insn = f"(0x{word:0{2 * size}x})"
        writes: dict[int, str] = {}          # Spike's log key -> text
        after = m.R[core * L.RS:(core + 1) * L.RS]
        for field in (L.F_WD, L.F_WD2):
            r = int(rec[field])
            if 0 < r < 32:
                writes[r << 4] = f"x{r:<2d} 0x{int(after[r]) & 0xFFFFFFFF:08x}"
            elif 32 <= r < 64:
                writes[(r - 32) << 4 | 1] = f"f{r - 32:<2d} 0x{int(after[r]) & 0xFFFFFFFF:08x}"
        op = int(rec[L.F_OP])
        cls = int(rec[L.F_CLS])
        if op in CSR_OPS:
            csr = int(rec[L.F_IMM]) & 0xFFF
            operand = int(rec[L.F_IMM2]) if op in CSR_IMM_OPS else int(rec[L.F_S1])
            if op in CSR_WRITE_ALWAYS or operand != 0:
                for n in CSR_LOGGED_AS.get(csr, (csr,)):
                    name = self.names.get(n, "csr")
                    writes[n << 4 | 4] = f"c{n}_{name} 0x{self._csr(core, n):08x}"
        elif L.TC_FPU <= cls <= L.TC_FSQRT:
            rm = int(rec[L.F_RM])
            _, flags, _ = exec_scalar(op, int(regs[rec[L.F_S1]]), int(regs[rec[L.F_S2]]),
                                      int(regs[rec[L.F_S3]]), int(rec[L.F_IMM]),
                                      int(rec[L.F_IMM2]), frm if rm == 7 else rm)
            if flags:
                writes[1 << 4 | 4] = f"c1_fflags 0x{self._csr(core, 1):08x}"
        items = [writes[k] for k in sorted(writes)]
        mem = int(rec[L.F_MEM])
        if op == OP_ID["mem"] and mem:
            items.append(self._memory(rec, mem, regs))
        commit = " ".join([f"{head}3 0x{pc:08x} {insn}", *items])
        return f"{head}0x{pc:08x} {insn} {mnemonic:<7} {operands}".rstrip() + "\n" + commit + "\n"

    def _csr(self, core: int, n: int) -> int:
        b = core * L.NCS
        flags, frm = int(self.m.CS[b + L.CS_FFLAGS]) & 0x1F, int(self.m.CS[b + L.CS_FRM]) & 7
        if n in (1, 2, 3):
            return {1: flags, 2: frm, 3: frm << 5 | flags}[n]
        return self.m.csrs.readers[n](core) & 0xFFFFFFFF

    @staticmethod
    def _memory(rec: np.ndarray, mem: int, regs: np.ndarray) -> str:
        kind = mem & L.MEM_KIND_MASK
        size = 1 << ((mem >> L.MEM_SIZE_SHIFT) & 3)
        amode = (mem >> L.MEM_AMODE_SHIFT) & 3
        a = int(regs[rec[L.F_S1]])
        if amode == L.AMODE_IMM:
            ea = a + int(rec[L.F_IMM])
        elif amode == L.AMODE_BASE:
            ea = a
        else:
            ea = a + int(regs[rec[L.F_S2 if kind == L.MEM_LOAD else L.F_S3]])
        ea &= 0xFFFFFFFF
        if kind == L.MEM_LOAD:
            return f"mem 0x{ea:08x}"
        value = int(regs[rec[L.F_S2]]) & ((1 << 8 * size) - 1)
        return f"mem 0x{ea:08x} 0x{value:0{2 * size}x}"


def run_logged(machine, out: TextIO, limit: int | None = None):
    """Run ``machine`` to its end, writing its commit log to ``out``; the RunResult."""
    rc = RunControl(machine, limit)
    log = CommitLogger(machine)
    n = machine.config.cores
    CS = machine.CS
    while machine._status == "running":
        times = [rc.core_time(c) for c in range(n)
                 if rc.status(c) in (L.ST_RUNNING, L.ST_PARKED)]
        until = max(rc.now + 1, min(times, default=rc.now + 1))
        before = [(rc.pc(c), rc.instret(c), int(CS[c * L.NCS + L.CS_FRM]) & 7)
                  for c in range(n)]
        regs = machine.R.reshape(n, L.RS).copy()
        rc.advance(until)
        CS = machine.CS            # a replayed exit window restores a copy of the arrays
        for c in range(n):
            pc, count, frm = before[c]
            if rc.instret(c) > count:
                out.write(log.lines(c, pc, regs[c], frm))
    rc.close()
    return machine.run(limit)     # the run has ended: this only gathers the result


def spike_comparable(text: str, entry: int, length: int | None = None) -> list[str]:
    """The commit lines of a log as both simulators write them.

    * only the commit lines (the disassembly lines differ in spelling, and Spike adds symbol
      lines ``>>>>``);
    * from the first commit at ``entry`` on (Spike starts in its boot ROM at 0x1000);
    * at most ``length`` lines (Spike goes on after the ``tohost`` write until its host
      polls: pass the length of isasim's log);
    * ``c768_mstatus`` with MPP cleared: the simulated PULP core has machine mode only and
      MPP reads 3 (M), Spike's has user mode and MPP reads 0 after reset.
    """
    out: list[str] = []
    started = False
    for line in text.splitlines():
        m = _COMMIT.match(line)
        if not m:
            continue
        if not started and int(m.group(3), 16) != entry:
            continue
        started = True
        line = re.sub(r"c768_mstatus 0x([0-9a-f]+)",
                      lambda g: f"c768_mstatus 0x{int(g.group(1), 16) & ~MPP:08x}", line)
        out.append(line.rstrip())
        if length is not None and len(out) >= length:
            break
    return out
