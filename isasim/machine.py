"""Machine: the Python face of the simulator.

``Machine(config).load(program)`` builds guest memory (PULP map plus plain RAM for any ELF
segment outside it), predecodes the program's text, and sets up every core SPMD-style (entry pc,
own stack, ``a0`` = hart id).  ``run()`` drives the compiled loop (``isasim.engine``), handles
the rare events it hands back (undecoded words, CSRs, ecall, semihosting, HTIF, output), and
returns a ``RunResult``.  Memory and registers are read and written as numpy arrays, by address
or by symbol name.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import time
import warnings as pywarnings
import weakref
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from isasim import devices as D
from isasim import engine, soc
from isasim import layout as L
from isasim import opcodes as O
from isasim import translate as TX
from isasim.compile_child import compile_all
from isasim.config import ClusterConfig, load_config
from isasim.csr import CsrFile, IllegalCsr
from isasim.devices import SIMDEV_SIZE
from isasim.faults import CAUSE_NAMES, FaultReport
from isasim.hostcalls import HostCalls
from isasim.interrupt import RunInterrupted, SigintRequest, deferred_sigint
from isasim.memory import MemoryMap, NotInRam
from isasim.opcodes import OP_ID
from isasim.predecode import link, word_record
from isasim.result import RunResult
from isasim.smallfloat import BOX_SEXT, BOX_ZEXT
from toolchain.disasm import disassemble
from toolchain.program import Program
from toolchain.table import FAMILY_ISA, load_isa

PAGE = 4096
EXTRA_RAM_SLACK = 64 * 1024     # room above an ELF's segments for its stack / heap
OUT_BUFFER = 1 << 16
# slices of a long run (see Machine.run): the first one's cycles, then about SLICE_SECONDS each
FIRST_SLICE = 1 << 20
MIN_SLICE, MAX_SLICE = 1 << 14, 1 << 34
SLICE_SECONDS = 0.1


# Predecoded text per program: re-running the same program (kernel tests, the autotuner) skips
# decoding.  Keyed by id(program) plus the memory layout; entries die with their Program.
_PREDECODE: dict[int, dict[tuple, tuple[np.ndarray, list[int], np.ndarray]]] = {}
_DISASM: dict[int, dict[int, str]] = {}
_TRANSLATED: dict[int, dict[tuple, TX.Translation]] = {}
# the PULP performance events counted per instruction kind (Machine._slot_kinds)
SLOT_EVENTS = [L.PE_LD, L.PE_ST, L.PE_JUMP, L.PE_BRANCH, L.PE_RVC, L.PE_ELW]
# the kinds of engine.run arguments (dtypes, dimensions, layout) compiled for in this process
_ENGINE_COMPILED: set[tuple] = set()


def _forget(key: int) -> None:
    _PREDECODE.pop(key, None)
    _DISASM.pop(key, None)
    _TRANSLATED.pop(key, None)


class LoadError(ValueError):
    """A program that cannot be placed in this machine's memory."""


def load_program(path: str | Path, family: str | None = None, rvc: bool = True,
                 include_dirs: Sequence[str | Path] = ()) -> Program:
    """Assemble a ``.s`` file (``.include`` also searching ``include_dirs``) or read an ELF;
    errors come as the toolchain's exceptions."""
    p = Path(path)
    if p.suffix == ".S":
        from toolchain.asm.preprocess import assemble_preprocessed

        return assemble_preprocessed(p, [Path(d) for d in include_dirs],
                                     family=family or "xpulpv2", rvc=rvc)
    if p.suffix in (".s", ".asm"):
        from toolchain.asm import assemble
        from toolchain.asm.lexer import read_source

        return assemble(read_source(p), filename=str(p), family=family or "xpulpv2", rvc=rvc,
                        include_dirs=[Path(d) for d in include_dirs])
    from toolchain.elf import read_elf

    return read_elf(p, family=family)


def _outside_selection(isa, word: int) -> str:
    """For an illegal word that another selection decodes: which instruction and extension it
    is ("" otherwise), so that a program run on a core without that extension says why."""
    if isa.decode(word) is not None:
        return ""              # legal here: illegal for another reason (rounding mode, FS)
    for other in (FAMILY_ISA["xpulpv2"], FAMILY_ISA["corev"]):
        d = load_isa(other).decode(word)
        if d is not None:
            mnemonic, ops = disassemble(load_isa(other), d)
            ext = d.entry.extension if d.entry.family is None else d.entry.family
            return (f": {mnemonic} {ops} of extension {ext}, which this core's ISA "
                    f"{isa.name} does not include")
    return ""


@functools.lru_cache(maxsize=1 << 16)
def _text_of_word(family: str, word: int) -> str | None:
    """Disassembly of an instruction word that reads the same wherever it is: None for one
    with a pc-relative field (its target, and the symbol shown, depend on the address).  Each
    run's profile names every instruction it ran, and trainlib's runs share their kernels."""
    isa = load_isa(family)
    d = isa.decode(word)
    if d is None:
        return f".word {word:#x}" if word & 3 == 3 else f".half {word:#06x}"
    if d.entry.pc_relative:
        return None
    mnemonic, ops = disassemble(isa, d)
    return f"{mnemonic} {ops}".strip()


class Machine:
    """One simulated cluster.  See the module docstring."""

    def __init__(self, config: ClusterConfig | str | Path | None = None,
                 translate: bool | None = None, **overrides) -> None:
        """``translate``: compile the straight-line code of the program's loops to machine code
        (``isasim.translate``; same results, faster) once a run outlasts its first slice; well
        under a second per new program, then cached.  Default on, unless ``$ISASIM_TRANSLATE``
        is ``0`` (the interpreted path)."""
        cfg = config if isinstance(config, ClusterConfig) else load_config(config)
        if overrides:
            cfg = cfg.replace(**overrides)
        cfg.validate()
        self.config = cfg
        if translate is None:
            translate = os.environ.get("ISASIM_TRANSLATE", "1") != "0"
        self.translate = translate
        self.program: Program | None = None
        self.trace_sink = None      # callable(records: int64[n, TRW]); set by enable_trace
        # fixed slice length in cycles (see run); None: timed slices.  $ISASIM_SLICE_CYCLES
        # sets it for a whole test run, to check that slicing changes no figure
        self.slice_cycles: int | None = int(os.environ.get("ISASIM_SLICE_CYCLES") or 0) or None

    # ------------------------------------------------------------------------------------------
    # loading
    # ------------------------------------------------------------------------------------------
    def load(self, program: Program | str | Path, family: str | None = None,
             include_dirs: Sequence[str | Path] = ()) -> Machine:
        if not isinstance(program, Program):
            program = load_program(program, family=family or self.config.xpulp,
                                   include_dirs=include_dirs)
        cfg = self.config
        if family is None:
            family = program.family
        if family != cfg.xpulp:
            cfg = cfg.replace(xpulp=family)
            self.config = cfg
        self.program = program
        self.isa = load_isa(cfg.xpulp)
        n = cfg.cores
        regions = [("tcdm", cfg.tcdm_base, cfg.tcdm_size, L.RK_TCDM),
                   ("l2", cfg.l2_base, cfg.l2_size, L.RK_L2),
                   ("cluster-periph", cfg.periph_base, cfg.periph_size, L.RK_PERIPH)]
        if cfg.soc:
            # the SoC window holds the simulator device too (isasim.soc dispatches it)
            regions += [("soc", soc.SOC_BASE, soc.SOC_END - soc.SOC_BASE, L.RK_PERIPH),
                        ("cluster-alias", soc.CLUSTER_ALIAS, soc.CLUSTER_ALIAS_SIZE,
                         L.RK_PERIPH)]
        else:
            regions += [("simdev", cfg.simdev_base, SIMDEV_SIZE, L.RK_PERIPH)]
        regions += self._extra_ram(program, regions)
        self.mmap = MemoryMap(regions)
        for seg in program.segments():
            if self.mmap.region_of(seg.addr, max(seg.size, 1)) is None:
                raise LoadError(f"segment at {seg.addr:#010x} (+{seg.size:#x}) does not fit "
                                f"in the memory map")
            self.mmap.write(seg.addr, seg.data)
        if not any(sec.size for sec in program.executable_sections()):
            what = "is empty" if not any(s.size for s in program.sections) else \
                "has data but no instructions"
            raise LoadError(f"the program {what}: there is no code to run (put instructions "
                            f"in .text, starting at the entry point _start)")
        for sec in program.executable_sections():
            where = f"code section {sec.name} at {sec.addr:#010x} (+{sec.size:#x})"
            if sec.addr & 1:
                raise LoadError(f"{where} is not 2-byte aligned")
            if self.mmap.region_of(sec.addr, max(sec.size, 1)) is None:
                raise LoadError(f"{where} does not fit in the memory map")
        if not cfg.soc:
            self._check_stacks(program)     # (on the SoC, programs set their own stacks)
        # symbols that name code, for per-function trace slices (ids index symbol_names)
        code_syms = sorted((s.value, s.binding == "local", name)
                           for name, s in program.symbols.items()
                           if s.section is not None and program.section_at(s.value) is not None
                           and program.section_at(s.value).executable
                           and not name.startswith(".L"))
        self._sym_addr = [v for v, _, _ in code_syms]
        self.symbol_names = [n for _, _, n in code_syms]
        # predecode: pcmap (halfword -> slot), records, per-slot properties
        self.pcmap = np.full(self.mmap.mem8.size // 2 + 2, -1, dtype=np.int32)
        self.code = np.zeros(0, dtype=np.int32)
        self.slot_pc: list[int] = []
        self._slot_half: list[int] = []       # each slot's pc map entry (see slot_halfwords)
        self._half_array = np.zeros(0, dtype=np.int64)
        self._kinds: tuple = (None, None)       # see _slot_kinds
        self._records: list[np.ndarray] = []
        layout = (cfg.xpulp, cfg.half_in_x,
                  tuple((r.base, r.size, r.offset) for r in self.mmap.regions))
        cached = _PREDECODE.get(id(program), {}).get(layout)
        if cached is not None:
            code, slot_pc, halfwords = cached
            self.code = code.copy()
            self.slot_pc = list(slot_pc)
            self._slot_half = halfwords.tolist()
            self.pcmap[halfwords] = np.arange(len(slot_pc), dtype=np.int32)
        else:
            for sec in program.executable_sections():
                addr = sec.addr
                while addr + 2 <= sec.end:
                    slot = self._decode_at(addr, grow=False)
                    addr += int(self._records[slot][L.F_LEN])
            self._flush_records()
            self._link(range(len(self.slot_pc)))
            if id(program) not in _PREDECODE:
                weakref.finalize(program, _forget, id(program))
            halfwords = np.array(self._slot_half, dtype=np.int64)
            _PREDECODE.setdefault(id(program), {})[layout] = (self.code.copy(),
                                                              list(self.slot_pc), halfwords)
        self.tohost = program.symbols["tohost"].value if "tohost" in program.symbols else None
        self.fromhost = (program.symbols["fromhost"].value if "fromhost" in program.symbols
                         else None)
        self.CFG = cfg.engine_array(self.tohost if self.tohost is not None and not cfg.soc
                                    else -1)
        if cfg.soc:
            # the end of computation ends every core at once, exactly as a tohost write
            # (isasim.runcontrol replays the window up to its cycle)
            self.tohost = soc.CORE_STATUS
            self.fromhost = None
        self._disasm = _DISASM.setdefault(id(program), {})
        self._translated = self._exits = None     # see engine.run
        # translated when a run outlasts its first slice (see run), at once if translated
        # before in this process or $ISASIM_TRANSLATE asks for it (eager: at load; all: at
        # load, every run, not only those in loops)
        self._untranslated = None
        if self.translate:
            done = (self._translation_key(layout) in _TRANSLATED.get(id(program), {})
                    or self._translated_before())
            if done or os.environ.get("ISASIM_TRANSLATE") in ("eager", "all"):
                self._apply_translation(program, layout)
            else:
                self._untranslated = (program, layout)
        # per-core state
        self.R = np.zeros(n * L.RS, dtype=np.int64)
        self.RDY = np.zeros(n * L.RS, dtype=np.int64)
        self.CS = np.zeros(n * L.NCS, dtype=np.int64)
        self.CAT = np.zeros(n * L.NCAT, dtype=np.int64)
        self.CL = np.zeros(L.NCL, dtype=np.int64)
        self.CL[L.L_BANK_WIN:L.L_BANK_WIN + 64] = -1
        self.CL[D.DMA_NEXT_T] = engine.BIG
        for c in range(8):
            self.CL[D.DMA_STAGE + 8 * c + 6] = -1
        self.TR = np.zeros(L.TRW, dtype=np.int64)
        self.OUT = np.zeros(OUT_BUFFER, dtype=np.uint8)
        self._cap = max(1024, 2 * len(self.slot_pc))
        self.PCS = np.zeros(n * self._cap * L.NPS, dtype=np.int64)
        for c in range(n):
            b = c * L.NCS
            self.CS[b + L.CS_PC] = program.entry
            self.CS[b + L.CS_RUNS] = 1
            self.CL[L.runs_base(c)] = program.entry
            self.CS[b + L.CS_STATUS] = L.ST_RUNNING
            self.CS[b + L.CS_HART] = (cfg.cluster_id << 5) | c
            self.CS[b + L.CS_MSTATUS] = (cfg.fs_reset & 3) << 13
            self.CS[b + L.CS_NEXT_T] = engine.BIG
            self.CS[b + L.CS_LASTWD] = L.R_SINK
            self.CS[b + L.CS_PCMR] = 0
            self.CS[b + L.CS_ILINE] = -1
            self.CS[b + L.CS_PARK_SLOT] = -1
            self.CS[b + L.CS_TR_STATE] = -1
            self.CS[b + L.CS_SLEEP_WD] = L.R_SINK
            self.CS[b + L.CS_EXT_LAT] = cfg.l2_latency
            self.CS[b + L.CS_EXT_ST_LAT] = cfg.l2_store_latency
            if cfg.soc:
                self._soc_reset(c)
                continue
            self.R[c * L.RS + 2] = self.stack_top(c)
            self.R[c * L.RS + 10] = (cfg.cluster_id << 5) | c
        self.csrs = CsrFile(self)
        self.host = HostCalls(self)
        self._stdout = bytearray()
        self._warnings: list[str] = []
        self._exit_codes: list[int | None] = [None] * n
        self._exit_time: list[int] = [0] * n
        self._status = "running"
        self._fault: FaultReport | None = None
        return self

    def _soc_reset(self, c: int) -> None:
        """Core c of a SoC at reset (isasim.soc): the fabric controller runs from the entry
        with its own L2 timing; a cluster core sleeps until the cluster control unit starts it.
        Registers are zero (programs set up their stacks)."""
        cfg = self.config
        b = c * L.NCS
        if c == cfg.fc_core:
            self.CS[b + L.CS_HART] = soc.FC_HART
            self.CS[b + L.CS_EXT_LAT] = cfg.fc_l2_latency
            self.CS[b + L.CS_EXT_ST_LAT] = cfg.fc_l2_store_latency
            return
        self.CS[b + L.CS_STATUS] = L.ST_SLEEPING
        self.CS[b + L.CS_SLEEP] = L.SLEEP_OFF
        self.CS[b + L.CS_RUNS] = 0

    def _extra_ram(self, program: Program, fixed: list[tuple[str, int, int, int]]
                   ) -> list[tuple[str, int, int, int]]:
        """Plain RAM (with L2 timing) for segments outside the PULP map, page-rounded, merged."""
        spans: list[list[int]] = []
        for seg in program.segments():
            inside = any(base <= seg.addr < base + size for _, base, size, _ in fixed)
            if inside:
                continue
            lo = seg.addr & ~(PAGE - 1)
            hi = (seg.addr + max(seg.size, 1) + EXTRA_RAM_SLACK + PAGE - 1) & ~(PAGE - 1)
            if spans and lo <= spans[-1][1]:
                spans[-1][1] = max(spans[-1][1], hi)
            else:
                spans.append([lo, hi])
        out = []
        for i, (lo, hi) in enumerate(spans):
            for _, base, size, _ in fixed:
                if lo < base + size and base < hi:
                    hi = min(hi, base) if lo < base else hi
            out.append((f"ram{i}", lo, hi - lo, L.RK_L2))
        return out

    def stack_top(self, core: int) -> int:
        cfg = self.config
        end = cfg.tcdm_end if cfg.stack_in == "tcdm" else cfg.l2_end
        return end - core * cfg.stack_size

    def _check_stacks(self, program: Program) -> None:
        cfg = self.config
        lo = self.stack_top(cfg.cores - 1) - cfg.stack_size
        hi = self.stack_top(0)
        for s in program.sections:
            if s.alloc and s.size and s.addr < hi and lo < s.end:
                raise LoadError(f"section {s.name} ({s.addr:#010x}..{s.end:#010x}) overlaps the "
                                f"core stacks ({lo:#010x}..{hi:#010x}); use fewer cores, a "
                                f"smaller stack_size or stack_in = \"l2\"")

    # ------------------------------------------------------------------------------------------
    # predecoding
    # ------------------------------------------------------------------------------------------
    def _translation_key(self, layout: tuple) -> tuple:
        """What a program's translation depends on besides the program: the memory layout,
        the FP operations left to the loop, the slots decoded so far (a run may decode more
        before it is translated), the runs selected (``ISASIM_TRANSLATE=all``: every one) and
        the configuration."""
        return (layout, self.config.fp_in_loop, len(self.slot_pc), TX.every_run(),
                self._config_bytes())

    def _config_bytes(self) -> bytes:
        """The configuration translated code has compiled in: ``CFG`` but what changes while
        a program runs (tracing, pausing), which translated code does not read."""
        cfg = self.CFG.copy()
        cfg[[L.K_TRACE, L.K_PAUSE]] = 0
        return cfg.tobytes()

    def _marker(self) -> Path:
        """The file saying that this program, as predecoded here, has been translated before on
        this machine (in the translation cache: its object code is most likely there too).  Its
        name hashes the predecoded records and their pcs, the run selection and the
        configuration."""
        h = hashlib.sha256(self.code.tobytes())
        h.update(np.asarray(self.slot_pc, dtype=np.int64).tobytes())
        h.update(repr((self.config.fp_in_loop, TX.every_run())).encode())
        h.update(self._config_bytes())
        return TX.cache_dir() / f"ran{h.hexdigest()[:32]}"

    def _translated_before(self) -> bool:
        """Was this program translated before on this machine?  Then it is translated at load:
        the object code comes from the cache, and a program run again (a benchmark, a deployed
        training program, an example) runs translated from its first cycle, however short."""
        try:
            return self._marker().exists()
        except OSError:
            return False

    def _translate_mid_run(self, sigint: SigintRequest) -> None:
        """Translate the running program between two slices.  The first translation after an
        install also compiles the loop functions translated code calls (``translate.HELPERS``)
        and the version of the loop that calls translated code (a minute, once, in a child
        process, then from numba's cache): a Ctrl-C meanwhile abandons the translation, and the
        run stops as between two slices, still interpreted."""
        untranslated, self._untranslated = self._untranslated, None
        try:
            with sigint.raising():
                self._apply_translation(*untranslated)
                if self._translated is not None:
                    self._compile_engine()
        except KeyboardInterrupt:
            self.code.reshape(-1, L.NF)[:, L.F_TX] = -1     # nothing half applied
            self._translated = self._exits = None
            sigint.requested = True

    def _cluster_started(self) -> bool:
        """Has a cluster core run?  On a SoC only the cluster cores run translated code (the
        fabric controller stays in the loop, see ``engine.run``): until one of them has started,
        a translation would be paid for nothing (a program of the FC alone)."""
        k = self.config.cluster_cores
        return not self.config.soc or bool(self.CS[L.CS_INSTRET:k * L.NCS:L.NCS].any())

    def _apply_translation(self, program: Program, layout: tuple) -> None:
        """Mark the slots translated code is entered at (``F_TX``) and keep its entry table."""
        fpu_shared = self.config.fp_in_loop    # FP operations left to the loop
        code = self.code.reshape(-1, L.NF)
        tx = _TRANSLATED.get(id(program), {}).get(self._translation_key(layout))
        if tx is None:
            marker = self._marker()
            entries = [s for s, pc in enumerate(self.slot_pc) if pc == program.entry]
            try:
                tx = TX.translate(code, self.slot_pc, entries, fpu_shared, self.CFG)
            except Exception as e:      # noqa: BLE001 - a bug of ours: interpreting is exact too
                pywarnings.warn(f"isasim: translation failed, the program is interpreted ({e})",
                                stacklevel=2)
                return
            _TRANSLATED.setdefault(id(program), {})[self._translation_key(layout)] = tx
            if tx.entries.size:
                with contextlib.suppress(OSError):     # a read-only cache: not remembered
                    marker.touch()
        for slot, entry in tx.entry_of_slot.items():
            code[slot, L.F_TX] = entry
        if tx.entries.size:
            self._translated = tx.entries
            self._exits = tx.exits

    def _decode_at(self, addr: int, grow: bool = True) -> int:
        region = self.mmap.region_of(addr, 2)
        if region is None or region.offset < 0:
            raise KeyError(addr)
        off = region.offset + addr - region.base       # even: regions are word aligned
        word = int(self.mmap.mem16[off >> 1])
        truncated = False
        if word & 3 == 3:
            if region.base + region.size - addr >= 4:
                word |= int(self.mmap.mem16[(off >> 1) + 1]) << 16
            else:
                truncated = True
        rec = word_record(self.isa.name, word, truncated, self.symbol_id(addr))
        if (self.config.half_in_x == "zero" and rec[L.F_IMM2] == BOX_SEXT
                and O.OP_SF_FIRST <= rec[L.F_OP] <= O.OP_SF_LAST):
            rec[L.F_IMM2] = BOX_ZEXT       # GVSoC's zero-extended 16-bit results
        slot = len(self.slot_pc)
        self.slot_pc.append(addr)
        self._slot_half.append(off >> 1)
        self._records.append(rec)
        self.pcmap[off >> 1] = slot
        if grow:
            self._flush_records()
            self._link([slot])
            if len(self.slot_pc) > self._cap:
                self._grow_profile()
        return slot

    def slot_halfwords(self) -> np.ndarray:
        """The pc map entry of each slot, where its number is written.  Only these entries
        of the pc map can hold a slot (the others are -1): a snapshot of the map is theirs."""
        if self._half_array.size != len(self._slot_half):
            self._half_array = np.array(self._slot_half, dtype=np.int64)
        return self._half_array

    def forget_slots_after(self, n: int) -> None:
        """Drop the slots decoded after the first ``n`` (a replay's restore): their pc map
        entries go back to -1 (the caller restores the entries of the others)."""
        self.pcmap[self.slot_halfwords()[n:]] = -1
        del self.slot_pc[n:]
        del self._slot_half[n:]
        self._half_array = self._half_array[:n]

    def _link(self, slots) -> None:
        """Fill the engine's next / branch-target links of ``slots`` (see predecode.link)."""
        def slot_of(pc: int, src: int) -> int:
            r = self.mmap.region_of(src, 2)
            if r is None or r.offset < 0 or not (r.base <= pc and pc + 2 <= r.base + r.size):
                return -1
            return int(self.pcmap[(r.offset + pc - r.base) >> 1])

        link(self.code.reshape(-1, L.NF), slots, self.slot_pc, slot_of)

    def symbol_id(self, addr: int) -> int:
        """Index in ``symbol_names`` of the code symbol at or before ``addr`` (-1: none)."""
        import bisect

        return bisect.bisect_right(self._sym_addr, addr) - 1

    def _flush_records(self) -> None:
        if self._records:
            self.code = np.concatenate([self.code, np.concatenate(self._records)])
            self._records = []

    def _grow_profile(self) -> None:
        n = self.config.cores
        old = self.PCS.reshape(n, self._cap, L.NPS)
        self._cap *= 2
        new = np.zeros((n, self._cap, L.NPS), dtype=np.int64)
        new[:, :old.shape[1]] = old
        self.PCS = new.reshape(-1)

    # ------------------------------------------------------------------------------------------
    # running
    # ------------------------------------------------------------------------------------------
    def enable_trace(self, sink, buffer_records: int = 1 << 16) -> None:
        """Log cycle-state runs and point events; ``sink`` receives int64[n, TRW] chunks."""
        self.trace_sink = sink
        self.TR = np.zeros(buffer_records * L.TRW, dtype=np.int64)
        self.CFG[L.K_TRACE] = 1

    def run(self, max_cycles: int | None = None,
            progress: Callable[[int, int], None] | None = None) -> RunResult:
        """Run until every core stopped; never raises for guest faults (see RunResult.fault).

        Long runs go in slices of about ``SLICE_SECONDS`` of wall-clock time (``slice_cycles``
        fixes their length in cycles instead): between two slices ``progress(cycle,
        instructions)`` is called, and a Ctrl-C stops the run, padded to a common end like a
        time-out, with ``RunInterrupted`` (a ``KeyboardInterrupt``) carrying its result.
        Slicing changes nothing the run reports: a core the slice's end stopped resumes at the
        same instruction and cycle."""
        if self.program is None:
            raise RuntimeError("load a program first")
        limit = self.config.max_cycles if max_cycles is None else max_cycles
        control = None
        if self.tohost is not None and self.config.cores > 1:
            from isasim.runcontrol import RunControl

            control = RunControl(self, limit)      # a tohost write ends every core at once
        budget = self.slice_cycles or FIRST_SLICE
        slice_end = -1
        reached = 0          # the end of the last slice: every core's next event is past it
        started = time.perf_counter()
        with deferred_sigint() as sigint:
            with sigint.raising():      # the loop's first compile (a minute when cold)
                self._compile_engine()
            while self._status == "running":
                if sigint.requested:
                    if control is not None:
                        control.close()
                    self._stop_interrupted(limit)
                    break
                if slice_end < 0:
                    slice_end = min(limit, max(reached, self._now()) + budget)
                    started = time.perf_counter()
                if control is not None:
                    control.advance(slice_end)
                else:
                    self.CFG[L.K_PAUSE] = slice_end < limit
                    ev = int(self._engine_run(slice_end))
                    if ev != L.EV_PAUSE:
                        self._handle(ev, limit)
                        continue
                    self.release_held()
                reached, slice_end = slice_end, -1
                if (self._untranslated is not None and not sigint.requested
                        and self._status == "running" and self._cluster_started()):
                    # a run longer than a slice pays for its translation (which takes from
                    # milliseconds to a second); a short one, a tuner's candidate, is spared it
                    self._translate_mid_run(sigint)
                if self.slice_cycles is None:
                    took = max(time.perf_counter() - started, 1e-6)
                    budget = int(budget * min(4.0, max(0.25, SLICE_SECONDS / took)))
                    budget = min(max(budget, MIN_SLICE), MAX_SLICE)
                if progress is not None:
                    progress(self._now(), int(self.CS[L.CS_INSTRET::L.NCS].sum()))
        if control is not None:
            control.close()
        self._drain_output()
        if self.CFG[L.K_TRACE]:
            self._close_trace_runs()
            self._drain_trace()
        result = self._result()
        if self._status == "interrupted":
            raise RunInterrupted(result)
        return result

    def _engine_args(self, max_cycles: int) -> tuple:
        m = self.mmap
        return (self.code, self.pcmap, m.mem8, m.mem16, m.mem32, m.table(), self.R, self.RDY,
                self.CS, self.CAT, self.PCS, self.CFG, self.CL, self.OUT, self.TR, max_cycles,
                self._translated, self._exits)

    def _engine_run(self, max_cycles: int) -> int:
        return engine.run(*self._engine_args(max_cycles))

    def _compile_engine(self) -> None:
        """Compile (or load from numba's cache) the loop for the current arguments without
        running it: the version that calls translated code is compiled apart from the other.
        A cold compile runs in a child process, so that a Ctrl-C stops the wait at once."""
        args = self._engine_args(0)
        # (typing the arguments costs more than many a short run: done once per kind of them)
        kind = tuple((a.dtype.num, a.ndim, a.flags.c_contiguous, a.flags.writeable)
                     if isinstance(a, np.ndarray) else type(a) for a in args)
        if kind in _ENGINE_COMPILED:
            return
        run = engine.run
        compile_all([(run, tuple(run.typeof_pyval(a) for a in args))])
        _ENGINE_COMPILED.add(kind)

    def _now(self) -> int:
        """The cycle the run has reached: the latest core's."""
        return max(int(engine.core_time(self.CS, c * L.NCS)) for c in range(self.config.cores))

    def release_held(self) -> None:
        """The loop parks a core that passes a paused run's cycle limit (without a resource or
        an instruction to grant): make it run again from the same pc and cycle, so that its
        next shared access is arbitrated as if the run had not paused."""
        for c in range(self.config.cores):
            b = c * L.NCS
            if (self.CS[b + L.CS_STATUS] == L.ST_PARKED and self.CS[b + L.CS_PARK_RES] == -1
                    and self.CS[b + L.CS_PARK_SLOT] == -1):
                self.CS[b + L.CS_STATUS] = L.ST_RUNNING
                self.CS[b + L.CS_NEXT_T] = engine.BIG
                self.CS[b + L.CS_GRANTED] = 0

    def _stop_interrupted(self, limit: int) -> None:
        """End the run where it is (every core padded to a common end, as a time-out does) and
        report where each core was."""
        self.CFG[L.K_PAUSE] = 0
        while self._status == "running":
            ev = int(self._engine_run(-1))
            if ev != L.EV_MAX_CYCLES:
                self._handle(ev, limit)
                continue
            core = int(self.CL[L.L_EV_CORE])
            self._status = "interrupted"
            self._fault = self._report("interrupted", core, int(self.CL[L.L_EV_PC]),
                                       "stopped by Ctrl-C (SIGINT); the figures are those "
                                       "up to this cycle")

    def _close_trace_runs(self) -> None:
        """Emit every core's open run (the loop only writes runs out when they end)."""
        for c in range(self.config.cores):
            b = c * L.NCS
            if self.CS[b + L.CS_TR_STATE] < 0:
                continue
            n = int(self.CL[L.L_TRN])
            if (n + 1) * L.TRW > self.TR.size:
                self._drain_trace()
                n = 0
            self.TR[n * L.TRW:(n + 1) * L.TRW] = (L.TR_RUN, c, self.CS[b + L.CS_TR_START],
                                                  self.CS[b + L.CS_TR_LEN],
                                                  self.CS[b + L.CS_TR_STATE],
                                                  self.CS[b + L.CS_TR_SLOT])
            self.CL[L.L_TRN] = n + 1
            self.CS[b + L.CS_TR_STATE] = -1

    def _handle(self, ev: int, limit: int) -> None:
        core = int(self.CL[L.L_EV_CORE])
        pc = int(self.CL[L.L_EV_PC])
        if ev == L.EV_DECODE:
            try:
                self._decode_at(pc)
            except KeyError:
                kind, detail = self._outside_code(pc, False) or ("instruction fetch outside "
                                                                 "memory", "")
                self._set_fault(kind, core, pc, detail)
                self._fault.instruction = ""
        elif ev == L.EV_CSR:
            self._csr(core, pc)
        elif ev in (L.EV_ECALL, L.EV_EBREAK, L.EV_TOHOST):
            try:
                self._host_call(ev, core, pc)
            except NotInRam as e:    # the program handed the host a bad pointer
                self._set_fault("host call with a bad pointer", core, pc, str(e))
        elif ev == L.EV_OUT_FULL:
            self._drain_output()
        elif ev == L.EV_DONE:
            self._status = "exited"
        elif ev == L.EV_MAX_CYCLES:
            self._status = "timeout"
            self._fault = self._report("timeout", core, pc,
                                       f"--max-cycles {limit} reached (the program did not "
                                       f"stop; raise the limit if it is just long)")
        elif ev == L.EV_FAULT:
            cause = int(self.CL[L.L_EV_CAUSE])
            tval = int(self.CL[L.L_EV_TVAL])
            detail = ""
            if cause in (L.CAUSE_LOAD_ACCESS, L.CAUSE_STORE_ACCESS, L.CAUSE_LOAD_MISALIGNED,
                         L.CAUSE_STORE_MISALIGNED, L.CAUSE_FETCH_ACCESS):
                detail = f"address {tval:#010x}"
                where = soc.describe(tval, self.config.periph_base) if self.config.soc else ""
                if where and cause != L.CAUSE_FETCH_ACCESS:
                    detail += f" ({where})"
            elif cause == L.CAUSE_DEVICE:
                detail = (f"{D.DEVERR_TEXT[int(self.CL[L.L_DEVERR])]} "
                          f"(register {tval:#010x}, value {self._stored_value(core, pc)})")
                if self.config.soc:
                    detail += f"; {soc.describe(tval, self.config.periph_base)}"
            elif cause == L.CAUSE_ILLEGAL:
                detail = f"instruction word {tval:#010x}" + _outside_selection(self.isa, tval)
            outside = None
            if cause == L.CAUSE_FETCH_ACCESS or (cause == L.CAUSE_ILLEGAL and tval == 0):
                outside = self._outside_code(pc, cause == L.CAUSE_ILLEGAL)
            if outside is None:
                self._set_fault(CAUSE_NAMES.get(cause, f"cause {cause}"), core, pc, detail)
            else:
                self._set_fault(outside[0], core, pc, outside[1])
                self._fault.instruction = ""        # no instruction there, only zeros
        elif ev == L.EV_TRACE_FULL:
            self._drain_trace()
        elif ev == L.EV_DEADLOCK and self.CL[L.L_EV_CAUSE] == L.CAUSE_ALL_ASLEEP:
            self._status = "deadlock"
            self._fault = self._report("all cores asleep", core, self._sleep_pc(core),
                                       "every core sleeps in wfi and nothing can wake them",
                                       waiting=self._waiters())
        elif ev == L.EV_DEADLOCK:
            self._status = "deadlock"
            self._fault = self._report("barrier deadlock", core, self._sleep_pc(core),
                                       "a core waits for an event that can no longer happen: "
                                       "every core that could send it has stopped or waits "
                                       "too", waiting=self._waiters() + self._open_barriers())
        else:
            raise RuntimeError(f"engine returned unknown event {ev}")

    def _outside_code(self, pc: int, zeros: bool) -> tuple[str, str] | None:
        """(kind, detail) of a fault at ``pc`` outside the program's code: just past the end
        of a code section (the program has no exit), or, when memory there holds only
        ``zeros``, anywhere else (a wild jump); None otherwise."""
        code = [s for s in self.program.executable_sections() if s.size]
        if any(s.addr <= pc < s.end for s in code):
            return None
        last = next((s for s in code if s.end == pc), None)
        if last is not None:
            return ("execution ran off the end of the code",
                    f"pc {pc:#010x} is just past the last instruction of {last.name}: the "
                    f"program needs an exit there (li a7, 93; li a0, CODE; ecall) or a loop")
        if not zeros:
            return None
        return ("jump to an address without code",
                f"pc {pc:#010x} holds zeros and is in no code section (" + ", ".join(
                    f"{s.name} {s.addr:#010x}..{s.end:#010x}" for s in code) + ")")

    def _host_call(self, ev: int, core: int, pc: int) -> None:
        """ecall, semihosting ebreak or a tohost write, served by the host."""
        if ev == L.EV_ECALL:
            self.host.ecall(core)
        elif ev == L.EV_EBREAK:
            if self.CL[L.L_EV_TVAL] == 1:
                self.host.semihost(core)
            else:
                self._set_fault(CAUSE_NAMES[L.CAUSE_BREAKPOINT], core, pc)
        elif self.tohost_write(core, int(self.CL[L.L_EV_TVAL]) & ~3):
            self._finish_all()

    def tohost_write(self, core: int, addr: int) -> bool:
        """Act on a store to ``tohost`` (HTIF) or, on a SoC, on the end of computation (the
        SoC control's core status, ``isasim.soc``); True when the whole run must end."""
        if self.config.soc:
            self.run_exit(core, int(self.CL[soc.SOC_STATUS]) & 0x7FFFFFFF)
            return True
        return self.host.tohost(core, addr)

    def _sleep_pc(self, core: int) -> int:
        """The instruction a sleeping core executed to go to sleep (its pc is the next one)."""
        slot = int(self.CS[core * L.NCS + L.CS_PARK_SLOT])
        return self.slot_pc[slot] if 0 <= slot < len(self.slot_pc) else \
            int(self.CS[core * L.NCS + L.CS_PC])

    def _stored_value(self, core: int, pc: int) -> str:
        """The value a faulting store was writing (for device-misuse reports)."""
        slot = self._slot_at(pc)
        rec = self.code[slot * L.NF:(slot + 1) * L.NF]
        if int(rec[L.F_MEM]) & L.MEM_KIND_MASK != L.MEM_STORE:
            return "read"
        return f"{int(self.R[core * L.RS + int(rec[L.F_S2])]):#x}"

    def _drain_trace(self) -> None:
        """Hand the engine's event records to the trace sink and empty the buffer."""
        n = int(self.CL[L.L_TRN])
        if self.trace_sink is not None and n:
            self.trace_sink(self.TR[:n * L.TRW].reshape(n, L.TRW).copy())
        self.CL[L.L_TRN] = 0

    def _set_fault(self, kind: str, core: int, pc: int, detail: str = "") -> None:
        self._status = "fault"
        self._fault = self._report(kind, core, pc, detail)

    def _csr(self, core: int, pc: int) -> None:
        slot = self._slot_at(pc)
        rec = self.code[slot * L.NF:(slot + 1) * L.NF]
        op = int(rec[L.F_OP])
        csr = int(rec[L.F_IMM]) & 0xFFF
        immediate = op in (OP_ID["csrrwi"], OP_ID["csrrsi"], OP_ID["csrrci"])
        if immediate:
            operand = int(rec[L.F_IMM2])
            writes = operand != 0
        else:
            src = int(rec[L.F_S1])
            operand = int(self.R[core * L.RS + src])
            writes = src != 0
        b = core * L.NCS
        try:
            self.CS[b + L.CS_CSR_VAL] = self.csrs.access(core, op, csr, operand, writes)
            self.CS[b + L.CS_CSR_PEND] = L.CSR_DONE
        except IllegalCsr:
            self.CS[b + L.CS_CSR_PEND] = L.CSR_ILLEGAL

    def _slot_at(self, addr: int) -> int:
        return int(self.pcmap[self.mmap.offset_of(addr, 2) >> 1])

    # ---- host-call helpers (used by isasim.hostcalls) ------------------------------------------
    def xreg(self, core: int, n: int) -> int:
        return int(self.R[core * L.RS + n])

    def set_xreg(self, core: int, n: int, value: int) -> None:
        if n:
            self.R[core * L.RS + n] = value & 0xFFFFFFFF

    def CS_cycle(self, core: int) -> int:
        return int(self.CS[core * L.NCS + L.CS_T])

    def read_bytes(self, addr: int, n: int) -> bytes:
        return self.mmap.read(addr, n) if n else b""

    def write_bytes(self, addr: int, data: bytes) -> None:
        """Write guest memory; instructions decoded from the bytes written are decoded again."""
        self.mmap.write(addr, data)
        if data:
            self._forget_decoded(self.mmap.offset_of(addr, len(data)), len(data))

    def _forget_decoded(self, off: int, n: int) -> None:
        """Like a guest store into text: the words are re-decoded when next fetched, and the loop
        stops following instruction links (some may lead to the old records)."""
        seg = self.pcmap[max(off // 2 - 1, 0):(off + n + 1) // 2]
        decoded = seg >= 0
        if decoded.any():
            seg[decoded] = -1
            self.CL[L.L_TEXT_DIRTY] = 1

    def read_cstring(self, addr: int, limit: int = 1 << 16) -> bytes:
        out = bytearray()
        while len(out) < limit:
            ch = self.mmap.read(addr + len(out), 1)
            if ch == b"\0":
                break
            out += ch
        return bytes(out)

    def emit(self, data: bytes) -> None:
        self._drain_output()
        self._stdout += data

    def warn(self, message: str) -> None:
        if message not in self._warnings:
            self._warnings.append(message)

    def core_exit(self, core: int, code: int) -> None:
        b = core * L.NCS
        self.CS[b + L.CS_STATUS] = L.ST_HALTED
        self.CS[b + L.CS_EXIT] = code & 0xFFFFFFFF
        self._exit_codes[core] = code & 0xFFFFFFFF
        self._exit_time[core] = int(self.CS[b + L.CS_T])

    def run_exit(self, core: int, code: int) -> None:
        """tohost exit: the whole run ends with ``code``."""
        self.core_exit(core, code)

    def _finish_all(self) -> None:
        """A tohost exit ends the whole run: pad every core to the end, then stop them all."""
        engine.finish(self.CS, self.CAT, self.PCS, self.CL, self.TR, self.CFG, self.code,
                      self._cap, True)
        self.CS[L.CS_STATUS::L.NCS] = L.ST_HALTED
        self._status = "exited"

    def next_store_hits(self, core: int, addr: int) -> bool:
        """Is the core's next instruction a store to ``addr`` (second half of a 64-bit store)?"""
        pc = int(self.CS[core * L.NCS + L.CS_PC])
        try:
            slot = self._slot_at(pc)
        except KeyError:
            return False
        if slot < 0:
            try:
                slot = self._decode_at(pc)
            except KeyError:
                return False
        rec = self.code[slot * L.NF:(slot + 1) * L.NF]
        mem = int(rec[L.F_MEM])
        if int(rec[L.F_OP]) != OP_ID["mem"] or mem & L.MEM_KIND_MASK != L.MEM_STORE:
            return False
        base = int(self.R[core * L.RS + int(rec[L.F_S1])])
        return (base + int(rec[L.F_IMM])) & 0xFFFFFFFC == addr

    def _drain_output(self) -> None:
        n = int(self.CL[L.L_NOUT])
        if n:
            self._stdout += self.OUT[:n].tobytes()
            self.CL[L.L_NOUT] = 0

    # ------------------------------------------------------------------------------------------
    # reports and results
    # ------------------------------------------------------------------------------------------
    def disassemble_at(self, addr: int) -> str:
        """Text of the instruction at ``addr`` as memory holds it now (cached per program
        for code that was never overwritten)."""
        if addr in self._disasm:
            return self._disasm[addr]
        text = self._disassemble_now(addr)
        if self.program is not None and self.program.section_at(addr) is not None \
                and self.program.section_at(addr).executable:
            self._disasm[addr] = text
        return text

    def _disassemble_now(self, addr: int) -> str:
        try:
            region = self.mmap.region_of(addr, 2)
            if region is None or region.offset < 0:
                return ""
            lo = int.from_bytes(self.mmap.read(addr, 2), "little")
            word = lo
            if lo & 3 == 3:
                word = int.from_bytes(self.mmap.read(addr, 4), "little")
        except KeyError:
            return ""
        text = _text_of_word(self.isa.name, word)
        if text is not None:
            return text
        d = self.isa.decode(word)
        symbolize = self.program.symbolize if self.program else None
        mnemonic, ops = disassemble(self.isa, d, addr, symbolize)
        return f"{mnemonic} {ops}".strip()

    def _recent_pcs(self, core: int, count: int = 8) -> list[int]:
        """Addresses of the core's last ``count`` retired instructions, rebuilt from its ring of
        run starts (``layout.L_RUNS``): between two starts the core ran sequentially."""
        b = core * L.NCS
        n = int(self.CS[b + L.CS_INSTRET])
        runs = int(self.CS[b + L.CS_RUNS])
        starts = []          # (instret of the first instruction, pc), oldest first
        for k in range(max(0, runs - L.RUN_RING), runs):
            w = L.runs_base(core) + (k % L.RUN_RING) * 2
            starts.append((int(self.CL[w + 1]), int(self.CL[w])))
        out = []
        for i in range(max(0, n - count), n):
            known = [s for s in starts if s[0] <= i]
            if not known:
                continue               # older than the ring remembers
            first, pc = known[-1]
            try:
                for _ in range(i - first):
                    pc += 4 if self.mmap.read(pc, 2)[0] & 3 == 3 else 2
            except NotInRam:
                continue
            out.append(pc)
        return out

    def _report(self, kind: str, core: int, pc: int, detail: str = "",
                waiting: list[str] | None = None) -> FaultReport:
        b = core * L.NCS
        recent = [(a, self.disassemble_at(a)) for a in self._recent_pcs(core)]
        where = self.program.symbolize(pc) if self.program else None
        if where:
            detail = f"in {where}" + (f"; {detail}" if detail else "")
        return FaultReport(kind=kind, core=core, pc=pc, instruction=self.disassemble_at(pc),
                           cycle=int(self.CS[b + L.CS_T]), detail=detail, recent=recent,
                           waiting=waiting or [])

    def _waiters(self) -> list[str]:
        out = []
        for c in range(self.config.cores):
            b = c * L.NCS
            st = int(self.CS[b + L.CS_STATUS])
            if st == L.ST_SLEEPING:
                what = {L.SLEEP_BARRIER: "waits in a barrier", L.SLEEP_WFI: "sleeps in wfi",
                        L.SLEEP_DMA: "waits for a DMA transfer",
                        L.SLEEP_EVENT: "waits for an event",
                        L.SLEEP_OFF: "was never started (no fetch enable from the cluster "
                                     "control unit)"}[int(self.CS[b + L.CS_SLEEP])]
                at = self._sleep_pc(c)
                out.append(f"core {c} {what} at pc {at:#010x} ({self.disassemble_at(at)}) "
                           f"since cycle {int(self.CS[b + L.CS_SLEEP_SINCE])}")
            elif st == L.ST_HALTED:
                out.append(f"core {c} has stopped (cycle {int(self.CS[b + L.CS_T])})")
        return out

    def _open_barriers(self) -> list[str]:
        """For a deadlock report: each hardware barrier some core has reached, whom it still
        waits for, and which of those this run does not even have."""
        n = self.config.cores
        out = []
        for bid in range(D.N_BARRIERS):
            trigger, _, arrived = (int(v) for v in self.CL[D.BAR + 3 * bid:D.BAR + 3 * bid + 3])
            if not arrived:
                continue
            missing = [c for c in range(32) if trigger >> c & 1 and not arrived >> c & 1]
            line = (f"barrier {bid} (trigger mask {trigger:#x}) has "
                    f"{_cores([c for c in range(32) if arrived >> c & 1])} and waits for "
                    f"{_cores(missing)}")
            absent = [c for c in missing if c >= n]
            if absent:
                line += (f"; {_cores(absent)} {'does' if len(absent) == 1 else 'do'} not exist "
                         f"in this {n}-core run (a mask for more cores than --cores)")
            out.append(line)
        return out

    def perf_counter(self, core: int, event: int) -> int:
        """Live value of PULP performance event ``event`` for ``core`` (RI5CY PCER numbering)."""
        return int(self.perf_counters()[core, event])

    def _slot_kinds(self) -> np.ndarray:
        """int64[slots, len(SLOT_EVENTS)]: 1 where a slot's instruction counts as the event
        (kept until the next decode: ``code`` is then a new array)."""
        if self._kinds[0] is self.code:
            return self._kinds[1]
        code = self.code.reshape(-1, L.NF)
        op = code[:, L.F_OP]
        mem = code[:, L.F_MEM] & L.MEM_KIND_MASK
        cls = code[:, L.F_CLS]
        kinds = np.stack([(op == OP_ID["mem"]) & (mem == L.MEM_LOAD),       # PE_LD
                          (op == OP_ID["mem"]) & (mem == L.MEM_STORE),      # PE_ST
                          (cls == L.TC_JUMP) | (cls == L.TC_JALR),          # PE_JUMP
                          cls == L.TC_BRANCH,                               # PE_BRANCH
                          code[:, L.F_LEN] == 2,                            # PE_RVC
                          cls == L.TC_ELW], axis=1).astype(np.int64)        # PE_ELW
        self._kinds = (self.code, kinds)
        return kinds

    def perf_counters(self) -> np.ndarray:
        """int64[cores, 32]: every core's live PULP performance events."""
        n = self.config.cores
        ns = len(self.slot_pc)
        counts = self.PCS.reshape(n, self._cap, L.NPS)[:, :ns, L.PS_COUNT]
        cat = self.CAT.reshape(n, L.NCAT)
        cs = self.CS.reshape(n, L.NCS)
        v = np.zeros((n, 32), dtype=np.int64)
        # the PCER cycle counter is clock-gated with the core: sleeping cycles do not count
        # (unless the configuration counts them, as GVSoC does)
        v[:, L.PE_CYCLES] = cs[:, L.CS_T]
        if not self.config.sleep_in_cycle_counter:
            v[:, L.PE_CYCLES] -= cat[:, L.C_BARRIER] + cat[:, L.C_DMA_WAIT] + cat[:, L.C_IDLE]
        v[:, L.PE_INSTR] = cs[:, L.CS_INSTRET]
        v[:, L.PE_LD_STALL] = cat[:, L.C_LOAD_USE]
        v[:, L.PE_JMP_STALL] = cs[:, L.CS_JMP_STALL]    # jalr data hazards only (RI5CY)
        v[:, L.PE_IMISS] = cat[:, L.C_IMISS]     # RI5CY: cycles waiting for instruction fetches
        v[:, SLOT_EVENTS] = counts @ self._slot_kinds()[:ns]
        v[:, L.PE_TAKEN_BRANCH] = cs[:, L.CS_TAKEN]
        v[:, L.PE_LD_EXT] = cs[:, L.CS_LD_EXT]
        v[:, L.PE_ST_EXT] = cs[:, L.CS_ST_EXT]
        v[:, L.PE_LD_EXT_CYC] = cs[:, L.CS_LD_EXT_CYC]
        v[:, L.PE_ST_EXT_CYC] = cs[:, L.CS_ST_EXT_CYC]
        v[:, L.PE_TCDM_CONT] = cat[:, L.C_TCDM]
        v[:, L.PE_APU_CONT] = cat[:, L.C_FPU_STRUCT]
        v[:, L.PE_APU_DEP] = cat[:, L.C_FPU_DEP]
        return v

    def _conflicts(self) -> np.ndarray:
        """Bank conflicts per (core, bank); a SoC's fabric controller has a row of zeros (its
        TCDM accesses are not arbitrated at the banks)."""
        cfg = self.config
        out = np.zeros((cfg.cores, cfg.tcdm_banks), dtype=np.int64)
        k = cfg.cluster_cores
        out[:k] = self.CL[L.L_CONF:L.L_CONF + 8 * 32].reshape(8, 32)[:k, :cfg.tcdm_banks]
        return out

    def _conflict_winners(self) -> np.ndarray:
        """Conflicts per (loser, winner: every core, then the DMA's two ports)."""
        n, k = self.config.cores, self.config.cluster_cores
        out = np.zeros((n, n + 2), dtype=np.int64)
        won = self.CL[L.L_CONF_WIN:L.L_CONF_WIN + 8 * L.NREQ].reshape(8, L.NREQ)
        out[:k, :k] = won[:k, :k]
        out[:k, n:] = won[:k, L.DMA_PORT0:L.DMA_PORT0 + 2]
        return out

    def exit_code(self) -> int:
        """The run's exit code: the first non-zero one in the order the cores exited.

        Exits inside the loop (``exit`` by ``ecall``, a simulated device's exit register) leave
        their code and time in the core's state: they are collected here."""
        for c in range(self.config.cores):
            b = c * L.NCS
            if self.CS[b + L.CS_STATUS] == L.ST_HALTED and self._exit_codes[c] is None \
                    and self.CS[b + L.CS_MISC]:
                self._exit_codes[c] = int(self.CS[b + L.CS_EXIT])
                self._exit_time[c] = int(self.CS[b + L.CS_MISC])
        order = sorted(range(self.config.cores), key=lambda c: (self._exit_time[c], c))
        return next((self._exit_codes[c] for c in order if self._exit_codes[c]), 0)

    def _result(self) -> RunResult:
        cfg = self.config
        n = cfg.cores
        engine.charge_all_lost(self.CS, self.CAT, self.PCS, self.CL, self._cap, n)
        ns = len(self.slot_pc)
        pcs = self.PCS.reshape(n, self._cap, L.NPS)[:, :ns]
        # the profile keeps the instructions that were issued or charged a stall
        ran = np.nonzero(pcs.any(axis=(0, 2)))[0]
        pcs = pcs[:, ran]
        # the cycle up to which each core's time is charged (engine.core_time): a run that ends
        # in a fault or time-out leaves parked and sleeping cores short of their CS_T
        cycles = np.array([engine.core_time(self.CS, c * L.NCS) for c in range(n)],
                          dtype=np.int64)
        instret = np.array([self.CS[c * L.NCS + L.CS_INSTRET] for c in range(n)],
                           dtype=np.int64)
        cats = self.CAT.reshape(n, L.NCAT).copy()
        cats[:, L.C_INSTR] = instret
        exit_code = self.exit_code()
        perf = self.perf_counters()
        warnings = list(self._warnings)
        flags = int(np.bitwise_or.reduce(self.CS[L.CS_WARN::L.NCS]))
        if flags & L.WARN_POSTINC_RD_EQ_RS1:
            warnings.append("a post-increment load has rd == rs1: the loaded value was kept "
                            "(the increment is lost)")
        if flags & L.WARN_HWLOOP_SHORT_BODY:
            warnings.append("a CORE-V hardware loop has fewer than 3 instructions in its body "
                            "(the CV32E40P manual requires at least 3)")
        return RunResult(
            status=self._status, exit_code=exit_code,
            exit_codes=list(self._exit_codes), cycles=cycles, instret=instret,
            categories=cats,
            profile_pc=np.array(self.slot_pc, dtype=np.int64)[ran],
            profile_text=[self.disassemble_at(self.slot_pc[i]) for i in ran],
            profile_count=pcs[:, :, L.PS_COUNT].copy(),
            profile_stall=pcs[:, :, L.PS_STALL:L.PS_STALL + L.NCAT].copy(),
            profile_imiss=pcs[:, :, L.PS_IMISS].copy(),
            conflicts=self._conflicts(), conflict_winners=self._conflict_winners(),
            perf={name: perf[:, i].copy() for i, name in enumerate(L.PCER_NAMES)},
            x=self.R.reshape(n, L.RS)[:, :32].astype(np.uint32),
            f=self.R.reshape(n, L.RS)[:, 32:64].astype(np.uint32),
            fcsr=np.array([(self.CS[c * L.NCS + L.CS_FRM] & 7) << 5
                           | self.CS[c * L.NCS + L.CS_FFLAGS] & 0x1F for c in range(n)],
                          dtype=np.uint32),
            stdout=self._stdout.decode(errors="replace"),
            fault=self._fault, warnings=warnings,
            config={k: v for k, v in vars(cfg).items() if k != "extra"},
            symbols={k: s.value for k, s in self.program.symbols.items()} if self.program
            else {},
        )

    # ------------------------------------------------------------------------------------------
    # user access to state
    # ------------------------------------------------------------------------------------------
    def address(self, where: int | str) -> int:
        if isinstance(where, str):
            assert self.program is not None
            return self.program.symbol(where)
        return int(where)

    def read(self, where: int | str, count: int = 1, dtype=np.uint32) -> np.ndarray:
        """``count`` elements of ``dtype`` at an address or symbol."""
        dt = np.dtype(dtype)
        data = self.mmap.read(self.address(where), count * dt.itemsize)
        return np.frombuffer(data, dtype=dt).copy()

    def write(self, where: int | str, values) -> None:
        arr = np.ascontiguousarray(values)
        self.write_bytes(self.address(where), arr.tobytes())

    def _register(self, core: int, name: str | int, fp: bool) -> int:
        """Index into ``R`` of register ``name`` (number or ABI name) of ``core``; ValueError
        for a core or register that does not exist (a bad index would read another one)."""
        from toolchain.registers import FREGS, XREGS

        if not 0 <= core < self.config.cores:
            raise ValueError(f"core {core} does not exist (cores 0..{self.config.cores - 1})")
        names = FREGS if fp else XREGS
        n = names.get(name.lower(), -1) if isinstance(name, str) else int(name)
        if not 0 <= n < 32:
            raise ValueError(f"no {'FP' if fp else 'integer'} register {name!r}")
        return core * L.RS + (L.R_F if fp else 0) + n

    def reg(self, core: int, name: str | int) -> int:
        """Integer register by number or ABI name (``"a0"``)."""
        return int(self.R[self._register(core, name, False)])

    def set_reg(self, core: int, name: str | int, value: int) -> None:
        self.set_xreg(core, self._register(core, name, False) - core * L.RS, int(value))

    def freg(self, core: int, name: str | int) -> float:
        """FP register as a Python float (its binary32 value)."""
        bits = np.uint32(self.R[self._register(core, name, True)])
        return float(bits.view(np.float32))

    def set_freg(self, core: int, name: str | int, value: float) -> None:
        self.R[self._register(core, name, True)] = int(np.float32(value).view(np.uint32))


def _cores(cores: list[int]) -> str:
    """``core 3``, ``cores 0, 1, 4-7``: runs of three or more core numbers joined."""
    out: list[str] = []
    run: list[int] = []
    for c in [*cores, None]:
        if run and (c is None or c != run[-1] + 1):
            out.append(f"{run[0]}-{run[-1]}" if len(run) >= 3 else ", ".join(map(str, run)))
            run = []
        if c is not None:
            run.append(c)
    return ("core " if len(cores) == 1 else "cores ") + ", ".join(out)
