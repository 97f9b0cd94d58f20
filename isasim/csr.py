"""CSR instructions: the common ones completed in the compiled loop, the others in Python.

Every program reads a few CSRs (the hart id at entry, ``mstatus`` to enable the FPU, a cycle
count around a region).  Those whose value is in the engine's state, and whose write changes
nothing but their field, the loop completes itself (``loop_access``): the ids, ``misa``,
``mstatus`` and the trap CSRs, ``fflags``/``frm``/``fcsr`` while the FPU is on, the cycle
counters' reads, PCER/PCMR reads.  The others, with their many special cases (the PULP
performance counters' rebasing, hardware-loop CSRs, the retired-instruction count, which the
loop keeps in a local, the registers kept in a dictionary, every illegal access), are handed to
Python (EV_CSR): ``CsrFile.access`` computes the value the instruction returns and applies its
write; the loop then retires the instruction with that value.  An unknown CSR, a write to a
read-only one, or a CORE-V hardware-loop CSR write is an illegal instruction (the loop traps or
reports it).  ``CsrFile``'s readers of the CSRs the loop completes call ``loop_read``: one
definition of each value for both.
"""

from __future__ import annotations

from collections.abc import Callable

from isasim import layout as L
from isasim import opcodes as O
from isasim.jitcache import compiled
from isasim.layout import U
from isasim.opcodes import OP_ID

M32 = 0xFFFFFFFF
# mstatus bits this model keeps: MIE, MPIE, MPP, FS (FS is Off or Dirty: writes of 1..3 give 3)
MSTATUS_MASK = (1 << 3) | (1 << 7) | (3 << 11) | (3 << 13)
MSTATUS_MPP_M = 3 << 11


MISA = 0x40001124              # RV32, I, M, F, C (and X for the Xpulp families: ``loop_read``)
# the trap CSRs: number, engine state slot, the bits a write keeps (WARL: mie's MSIE MTIE MEIE,
# mtvec in direct mode, mepc aligned to 2, mcause's interrupt bit and 5-bit code)
TRAP_FIELDS = ((0x304, L.CS_MIE, 0x888), (0x305, L.CS_MTVEC, 0xFFFFFFFC),
               (0x340, L.CS_MSCRATCH, M32), (0x341, L.CS_MEPC, 0xFFFFFFFE),
               (0x342, L.CS_MCAUSE, 0x8000001F), (0x343, L.CS_MTVAL, M32))


# ---- the CSRs the compiled loop completes ----------------------------------------------------
@compiled
def loop_read(CS, CFG, cb, csr, cycle):
    """The value of ``csr`` for the core whose state starts at ``CS[cb]`` at cycle ``cycle``
    (the cycle the instruction issues at), or -1 where Python reads it (``CsrFile``)."""
    family = CFG[U(L.K_FAMILY)]
    if csr == 0x300:                # mstatus
        # MPP is WARL and this core has M-mode only (misa has no U or S), so it reads as M (3)
        # whatever mret left in the engine's copy
        v = CS[U(cb + L.CS_MSTATUS)] & MSTATUS_MASK | MSTATUS_MPP_M
        if (v >> 13) & 3 == 3:
            v |= 1 << 31            # SD
        return v
    if csr == 0x301:                # misa: 'X' for the non-standard extensions
        return MISA | (1 << 23 if family != L.FAMILY_NONE else 0)
    for num, slot, _ in TRAP_FIELDS:
        if csr == num:
            return CS[U(cb + slot)]
    if csr == 0x344 or 0xF11 <= csr <= 0xF13:      # mip; mvendorid, marchid, mimpid
        return 0
    if (csr == 0xF14 or (csr == 0x014 and family == L.FAMILY_XPULPV2)
            or (csr == 0xCD0 and family == L.FAMILY_COREV)):      # mhartid, uhartid
        return CS[U(cb + L.CS_HART)] & M32
    if 1 <= csr <= 3:               # fflags, frm, fcsr: illegal with the FPU off (Python's)
        if (CS[U(cb + L.CS_MSTATUS)] >> 13) & 3 == 0:
            return -1
        if csr == 1:
            return CS[U(cb + L.CS_FFLAGS)] & 0x1F
        if csr == 2:
            return CS[U(cb + L.CS_FRM)] & 7
        return (CS[U(cb + L.CS_FRM)] & 7) << 5 | CS[U(cb + L.CS_FFLAGS)] & 0x1F
    # mcycle, cycle, time and their high halves: the core's clock as the instruction issues
    if csr == 0xB00 or csr == 0xC00 or csr == 0xC01:
        return cycle & M32
    if csr == 0xB80 or csr == 0xC80 or csr == 0xC81:
        return cycle >> 32 & M32
    if family == L.FAMILY_XPULPV2 and csr == 0xCC0:
        return CS[U(cb + L.CS_PCER)]
    if family == L.FAMILY_XPULPV2 and csr == 0xCC1:
        return CS[U(cb + L.CS_PCMR)]
    return -1


@compiled
def loop_write(CS, cb, csr, v):
    """Write ``v`` to ``csr`` if it is one whose write changes only its field (or nothing);
    False (nothing written) where Python writes it, or finds the write illegal."""
    for num, slot, mask in TRAP_FIELDS:
        if csr == num:
            CS[U(cb + slot)] = v & mask
            return True
    if csr == 0x300:                # mstatus: FS is Off or Dirty (writes of 1..3 give 3)
        fs = 3 if (v >> 13) & 3 else 0
        CS[U(cb + L.CS_MSTATUS)] = (v & MSTATUS_MASK & ~(3 << 13)) | (fs << 13)
    elif csr == 1:
        CS[U(cb + L.CS_FFLAGS)] = v & 0x1F
    elif csr == 2:
        CS[U(cb + L.CS_FRM)] = v & 7
    elif csr == 3:
        CS[U(cb + L.CS_FFLAGS)] = v & 0x1F
        CS[U(cb + L.CS_FRM)] = (v >> 5) & 7
    elif not (csr == 0x301 or csr == 0x344 or csr == 0xB00 or csr == 0xB80):
        return False                # (misa, mip and mcycle ignore writes)
    return True


@compiled
def loop_access(CS, CFG, cb, op, csr, operand, writes, cycle):
    """A CSR instruction (``csrrw``/``csrrs``/``csrrc``, register or immediate form, with
    ``operand`` its source value, ``writes`` False for a set or clear from x0 or 0, which only
    reads), completed in the loop at ``cycle``: the old value, which it returns, its write
    applied; -1 (nothing done) where Python completes it, as ``CsrFile.access``."""
    old = loop_read(CS, CFG, cb, csr, cycle)
    if old < 0:
        return -1
    if op == O.OP_CSRRW or op == O.OP_CSRRWI:
        new = operand
    elif not writes:
        return old
    elif op == O.OP_CSRRS or op == O.OP_CSRRSI:
        new = old | operand
    else:
        new = old & ~operand
    if not loop_write(CS, cb, csr, new & M32):
        return -1
    return old


# the CSRs ``loop_read`` reads, by name: writable ones (``loop_write``) and read-only ones
LOOP_WRITABLE = ("fflags", "frm", "fcsr", "mstatus", "misa", "mie", "mtvec", "mscratch", "mepc",
                 "mcause", "mtval", "mip", "mcycle", "mcycleh")
LOOP_READ_ONLY = ("mvendorid", "marchid", "mimpid", "mhartid", "uhartid", "cycle", "cycleh",
                  "time", "timeh")


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
        # the CSRs the loop completes: one definition, loop_read / loop_write
        for name in LOOP_WRITABLE + LOOP_READ_ONLY:
            if name in names:
                self._in_loop(names[name], name in LOOP_WRITABLE)
        self._field(names["minstret"], lambda c: self._instret(c) & M32, lambda c, v: None)
        self._field(names["minstreth"], lambda c: self._instret(c) >> 32 & M32,
                    lambda c, v: None)
        self._field(names["instret"], lambda c: self._instret(c) & M32)
        self._field(names["instreth"], lambda c: self._instret(c) >> 32 & M32)
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
               write: Callable[[int, int], None] | None = None) -> None:
        self.readers[num] = read
        if write is not None:
            self.writers[num] = lambda c, v: self._written(c, v, write)

    def _written(self, c: int, v: int, write: Callable[[int, int], None]) -> None:
        write(c, v)
        # a core parked in translated code checks its state again when it resumes (a
        # debugger may have started a hardware loop or turned the FPU off meanwhile)
        self._set(c, L.CS_TX_PARKED, 0)

    def _in_loop(self, num: int, writable: bool) -> None:
        """A CSR the loop completes (``loop_read``, ``loop_write``), here for the accesses it
        hands over (an FP CSR with the FPU off, a write to a read-only one: illegal), the
        commit log and the debugger.  Its cycle counters read the core's clock."""
        def read(c: int) -> int:
            v = int(loop_read(self.m.CS, self.m.CFG, c * L.NCS, num, self._cs(c, L.CS_T)))
            if v < 0:
                raise IllegalCsr
            return v

        def write(c: int, v: int) -> None:
            loop_write(self.m.CS, c * L.NCS, num, v)

        self._field(num, read, write if writable else None)

    def _instret(self, c: int) -> int:
        return self._cs(c, L.CS_INSTRET)

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
        counts = self.m.perf_counters()[c]
        for e in range(32):
            now = self._counting(c, e)
            if now == before[e]:
                continue
            # live -> frozen keeps the value (live - baseline); frozen -> live keeps the value by
            # making the baseline live - value: the same expression both ways
            base = self._cs(c, L.CS_PERF_BASE + e)
            live = int(counts[e])
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
