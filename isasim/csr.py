"""CSR instructions, executed in Python when the compiled loop hands one over (EV_CSR).

CSR accesses are rare in kernels (hart id at entry, a counter read around a region), so their
many special cases live here, readable, instead of in the hot loop.  ``CsrFile.access`` computes
the value the instruction returns and applies its write; the loop then retires the instruction
with that value.  An unknown CSR, a write to a read-only one, or a CORE-V hardware-loop CSR write
is an illegal instruction (the loop traps or reports it).
"""

from __future__ import annotations

from collections.abc import Callable

from isasim import layout as L
from isasim.opcodes import OP_ID

M32 = 0xFFFFFFFF
# mstatus bits this model keeps: MIE, MPIE, MPP, FS (FS is Off or Dirty: writes of 1..3 give 3)
MSTATUS_MASK = (1 << 3) | (1 << 7) | (3 << 11) | (3 << 13)
MSTATUS_MPP_M = 3 << 11


class IllegalCsr(Exception):
    """The access is an illegal instruction."""


class CsrFile:
    """CSR semantics for one machine; counters are read from the engine state arrays."""

    def __init__(self, machine) -> None:
        self.m = machine
        self.family = machine.isa.family
        names = machine.isa.csrs
        self.readers: dict[int, Callable[[int], int]] = {}
        self.writers: dict[int, Callable[[int, int], None]] = {}
        cs = self._cs
        self._field(names["fflags"], lambda c: cs(c, L.CS_FFLAGS) & 0x1F,
                    lambda c, v: self._set(c, L.CS_FFLAGS, v & 0x1F), fp=True)
        self._field(names["frm"], lambda c: cs(c, L.CS_FRM) & 7,
                    lambda c, v: self._set(c, L.CS_FRM, v & 7), fp=True)
        self._field(names["fcsr"], lambda c: (cs(c, L.CS_FRM) & 7) << 5 | cs(c, L.CS_FFLAGS) & 0x1F,
                    self._write_fcsr, fp=True)
        self._field(names["mstatus"], self._read_mstatus, self._write_mstatus)
        self._field(names["misa"], lambda c: 0x40001124 | self._xbit(), lambda c, v: None)
        for name in ("mtvec", "mepc", "mscratch", "mtval"):
            idx = {"mtvec": L.CS_MTVEC, "mepc": L.CS_MEPC, "mscratch": L.CS_MSCRATCH,
                   "mtval": L.CS_MTVAL}[name]
            mask = 0xFFFFFFFE if name == "mepc" else (0xFFFFFFFC if name == "mtvec" else M32)
            self._field(names[name], lambda c, i=idx: cs(c, i),
                        lambda c, v, i=idx, mk=mask: self._set(c, i, v & mk))
        self._field(names["mcause"], lambda c: cs(c, L.CS_MCAUSE),
                    lambda c, v: self._set(c, L.CS_MCAUSE, v & 0x8000001F))
        self._field(names["mie"], lambda c: cs(c, L.CS_MIE),
                    lambda c, v: self._set(c, L.CS_MIE, v & 0x888))
        self._field(names["mip"], lambda c: 0, lambda c, v: None)
        for ro in ("mvendorid", "marchid", "mimpid"):
            self._field(names[ro], lambda c: 0)
        self._field(names["mhartid"], lambda c: cs(c, L.CS_HART))
        if "uhartid" in names:
            self._field(names["uhartid"], lambda c: cs(c, L.CS_HART))
        for low, high, fn in (("mcycle", "mcycleh", self._cycle),
                              ("minstret", "minstreth", self._instret)):
            self._field(names[low], lambda c, f=fn: f(c) & M32, lambda c, v: None)
            self._field(names[high], lambda c, f=fn: f(c) >> 32 & M32, lambda c, v: None)
        for low, high, fn in (("cycle", "cycleh", self._cycle), ("instret", "instreth",
                                                                 self._instret),
                              ("time", "timeh", self._cycle)):
            self._field(names[low], lambda c, f=fn: f(c) & M32)
            self._field(names[high], lambda c, f=fn: f(c) >> 32 & M32)
        # registers the standard test environments write once (under a trap guard) and that a
        # bare-metal PULP core has no use for: accepted, read back as written
        self.plain: dict[tuple[int, int], int] = {}
        for name in ("mcounteren", "mcountinhibit", "medeleg", "mideleg", "satp", "mnstatus",
                     *(f"pmpcfg{i}" for i in range(4)), *(f"pmpaddr{i}" for i in range(16))):
            num = names[name]
            self._field(num, lambda c, n=num: self.plain.get((c, n), 0),
                        lambda c, v, n=num: self.plain.__setitem__((c, n), v))
        self._hwloop_csrs(names)
        if self.family == "xpulpv2":
            self._pulp_perf(names)

    # ---- plumbing ------------------------------------------------------------------------------
    def _cs(self, c: int, idx: int) -> int:
        return int(self.m.CS[c * L.NCS + idx])

    def _set(self, c: int, idx: int, v: int) -> None:
        self.m.CS[c * L.NCS + idx] = v

    def _field(self, num: int, read: Callable[[int], int],
               write: Callable[[int, int], None] | None = None, fp: bool = False) -> None:
        if fp:
            def guarded_read(c: int, r=read) -> int:
                self._need_fp(c)
                return r(c)
            self.readers[num] = guarded_read
        else:
            self.readers[num] = read
        if write is not None:
            self.writers[num] = write

    def _need_fp(self, c: int) -> None:
        if (self._cs(c, L.CS_MSTATUS) >> 13) & 3 == 0:
            raise IllegalCsr

    def _xbit(self) -> int:
        return 1 << 23 if self.family != "none" else 0     # 'X': non-standard extensions

    def _cycle(self, c: int) -> int:
        return self._cs(c, L.CS_T)

    def _instret(self, c: int) -> int:
        return self._cs(c, L.CS_INSTRET)

    def _read_mstatus(self, c: int) -> int:
        # MPP is WARL and this core has M-mode only (misa has no U or S), so it reads as M (3)
        # whatever mret left in the engine's copy
        v = self._cs(c, L.CS_MSTATUS) & MSTATUS_MASK | MSTATUS_MPP_M
        if (v >> 13) & 3 == 3:
            v |= 1 << 31   # SD
        return v

    def _write_mstatus(self, c: int, v: int) -> None:
        fs = (v >> 13) & 3
        v = (v & MSTATUS_MASK & ~(3 << 13)) | ((3 if fs else 0) << 13)
        self._set(c, L.CS_MSTATUS, v)

    def _write_fcsr(self, c: int, v: int) -> None:
        self._set(c, L.CS_FFLAGS, v & 0x1F)
        self._set(c, L.CS_FRM, (v >> 5) & 7)

    def _hwloop_csrs(self, names: dict[str, int]) -> None:
        if "lpstart0" not in names:
            return
        slots = {"lpstart0": L.CS_LPS0, "lpend0": L.CS_LPE0, "lpcount0": L.CS_LPC0,
                 "lpstart1": L.CS_LPS1, "lpend1": L.CS_LPE1, "lpcount1": L.CS_LPC1}
        corev = self.family == "corev"
        for name, idx in slots.items():
            # internally lpend is the last body instruction; CORE-V shows the address after it
            shown = 4 if corev and name.startswith("lpend") else 0
            write = None if corev else (lambda c, v, i=idx: self._set(c, i, v & M32))
            self._field(names[name], lambda c, i=idx, s=shown: (self._cs(c, i) + s) & M32, write)

    # ---- PULP performance counters (PCER 0xCC0, PCMR 0xCC1, PCCR0..31 0x780+n) -------------
    def _pulp_perf(self, names: dict[str, int]) -> None:
        self._field(names["pcer"], lambda c: self._cs(c, L.CS_PCER),
                    lambda c, v: self._write_pcer(c, v))
        self._field(names["pcmr"], lambda c: self._cs(c, L.CS_PCMR),
                    lambda c, v: self._write_pcmr(c, v))
        for n in range(31):
            self._field(0x780 + n, lambda c, i=n: self.pccr(c, i),
                        lambda c, v, i=n: self._write_pccr(c, i, v))
        # a write to PCCR31 sets every counter: how the PULP runtime resets them all
        # (cpu_perf_setall, behind pi_perf_reset)
        self._field(0x780 + 31, lambda c: self.pccr(c, 31), self._write_all_pccr)

    def _counting(self, c: int, event: int) -> bool:
        return bool(self._cs(c, L.CS_PCMR) & 1) and bool(self._cs(c, L.CS_PCER) >> event & 1)

    def pccr(self, c: int, event: int) -> int:
        """Guest-visible counter: the live count minus the baseline taken at reset/enable."""
        base = self._cs(c, L.CS_PERF_BASE + event)
        if not self._counting(c, event):
            return base & M32          # frozen value is kept in the baseline slot
        return (self.m.perf_counter(c, event) - base) & M32

    def _write_pccr(self, c: int, event: int, v: int) -> None:
        if self._counting(c, event):
            self._set(c, L.CS_PERF_BASE + event, self.m.perf_counter(c, event) - v)
        else:
            self._set(c, L.CS_PERF_BASE + event, v)

    def _write_all_pccr(self, c: int, v: int) -> None:
        for e in range(32):
            self._write_pccr(c, e, v)

    def _rebase(self, c: int, before: list[bool]) -> None:
        """Switch counters between frozen (value kept) and live (baseline kept)."""
        for e in range(32):
            now = self._counting(c, e)
            if now == before[e]:
                continue
            # live -> frozen keeps the value (live - baseline); frozen -> live keeps the value by
            # making the baseline live - value: the same expression both ways
            base = self._cs(c, L.CS_PERF_BASE + e)
            live = self.m.perf_counter(c, e)
            if now and e in (L.PE_CYCLES, L.PE_INSTR) and \
                    not self.m.config.perf_counts_enabling_write:
                # the CSR write that starts the counter retires after this: leave out its
                # cycle and the instruction itself (GVSoC's counters start after it)
                live += 1
            self._set(c, L.CS_PERF_BASE + e, live - base)

    def _write_pcer(self, c: int, v: int) -> None:
        before = [self._counting(c, e) for e in range(32)]
        self._set(c, L.CS_PCER, v & M32)
        self._rebase(c, before)

    def _write_pcmr(self, c: int, v: int) -> None:
        before = [self._counting(c, e) for e in range(32)]
        self._set(c, L.CS_PCMR, v & 3)
        self._rebase(c, before)

    # ---- the instruction -------------------------------------------------------------------
    def access(self, c: int, op: int, csr: int, operand: int, writes: bool) -> int:
        """Old value of ``csr``; applies csrrw/csrrs/csrrc(i) semantics.  Raises IllegalCsr.

        ``writes`` is False for csrrs/csrrc whose source is x0 (or a zero immediate): those
        only read, which is allowed on read-only CSRs.
        """
        read = self.readers.get(csr)
        if read is None:
            raise IllegalCsr
        old = read(c) & M32
        write_op = op in (OP_ID["csrrw"], OP_ID["csrrwi"])
        set_op = op in (OP_ID["csrrs"], OP_ID["csrrsi"])
        if write_op:
            new = operand
        elif not writes:
            return old
        elif set_op:
            new = old | operand
        else:
            new = old & ~operand
        # read-only range 0xC00-0xFFF (cycle, mhartid, ...), except RI5CY's PCER/PCMR at
        # 0xCC0/0xCC1, which PULP software writes (pi_perf_conf, pi_perf_start)
        if (csr >> 10) & 3 == 3 and not (self.family == "xpulpv2" and csr in (0xCC0, 0xCC1)):
            raise IllegalCsr
        write = self.writers.get(csr)
        if write is None:
            raise IllegalCsr
        write(c, new & M32)
        return old
