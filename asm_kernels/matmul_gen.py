"""Generator of the register-blocked fp32 matmul kernels (``asm_kernels/matmul_<U>x<V>.s``).

The assembler has no macros, and a blocked matmul needs the same K loop written out for every
block shape, both B layouts and both parallel splits: about forty inner routines of 30 to 200
instructions each.  Writing them by hand would be error-prone and would make every scheduling
change a large diff, so the instruction choice and the schedule are written down once here and
the ``.s`` files are generated and committed (``python -m asm_kernels.matmul_gen`` rewrites them
and ``matmul.toml``; a test checks that the committed files are up to date).

Structure of every generated file (one per main block shape U x V, two entry points):

* ``mm_<U>x<V>_n`` / ``mm_<U>x<V>_m``: SPMD entries; they only say which dimension is split and
  jump to the file's driver.
* the driver: saves callee-saved registers, splits the parallel dimension over the cores in
  whole groups of U rows (or V columns), balanced (core c gets groups
  ``[c*q + min(c, r), ...)``; the partial last group goes to the last busy core), and covers its
  rectangle of C with strips of U rows: U x V blocks first, then the leftover columns with
  U x 4, U x 2, U x 1 blocks, then the leftover rows with 4-, 2-, 1-row strips, so every shape
  down to 1 x 1 x 1 is handled and no core ever writes outside its rectangle.
* the strip routines ``<prefix>_<u>x<v>_t<T>``: ``nb`` consecutive u x v blocks along M, for
  B stored K x M (T=0) or M x K (T=1); hardware loop x1 over the blocks, hardware loop x0 over
  K.  The first K step of a non-accumulating run is peeled and uses ``fmul.s`` (no zeroing of
  the accumulators); an accumulating run loads C into the accumulators instead.  The remaining
  steps run in a loop unrolled ``uk`` times, then a one-step loop takes ``(K-1) % uk``.

Scheduling (``schedule``): each unrolled body is a straight block of loads, multiply-adds and
pointer bumps ordered by a list scheduler that hoists loads as early as register reuse allows and
never puts an instruction right after the load it reads, so that the body has no load-use stall
(the tests check every body with ``stall_count``).  Registers: the U*V accumulators,
then either two banks of U + V operand registers (steps alternate banks, so the loads of step
s+1 overlap the multiply-adds of step s) or, when 32 registers are too few, one bank for the
smaller operand side and a rotating pool for the other.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

HERE = Path(__file__).parent
SKEW_MIN_LOG2 = 12      # start skew only for a core share of at least 2^12 MACs

# Struct matmul field offsets (structs.toml: A, B, C, N, M, K, trans_B, accumulate).
OFF_A, OFF_B, OFF_C, OFF_N, OFF_M, OFF_K, OFF_TRANS, OFF_ACC = range(0, 32, 4)

# Integer registers of a strip routine: t5, t6 hold the K loop counts (computed before the block
# loop starts, so not a5, the block count); the others are operand pointers (set up inside the
# block loop, where a5 is free).  a2-a4 are the routine's arguments, s0-s11 the driver's.
COUNT_REGS = ("t5", "t6")
INT_POOL = ("a0", "a1", "a5", "a6", "a7", "t0", "t1", "t2", "t3", "t4")
FREGS = tuple(f"f{i}" for i in range(32))
# ilp32f callee-saved FP registers, saved by the driver because strips use all 32.
FS_REGS = ("fs0", "fs1", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7", "fs8", "fs9", "fs10", "fs11")
S_REGS = tuple(f"s{i}" for i in range(12))
# zfinx strips: the x registers for pointers and FP values, caller-saved ones first; the
# driver's s4-s11, ra and s0 (X_SAVED; s0 = K is read only before the first block) are saved
# by the strip routine that uses them.
X_SAVED = ("s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11", "ra", "s0")


@dataclass(frozen=True)
class Op:
    """One instruction of a block to schedule: its text and the registers it writes/reads."""

    text: str
    defs: frozenset[str]
    uses: frozenset[str]
    load: bool = False
    bumped: str = ""        # the base register a post-increment load advances

    @property
    def late(self) -> frozenset[str]:
        """The registers whose value arrives a cycle late: a load's data (a post-incremented
        base register is ready for the next instruction)."""
        return self.defs - {self.bumped} if self.load else frozenset()


def op(text: str, defs: tuple[str, ...] = (), uses: tuple[str, ...] = (),
       load: bool = False, bumped: str = "") -> Op:
    return Op(text, frozenset(defs), frozenset(uses), load, bumped)


def schedule(ops: list[Op], hoist: int = 1000) -> list[Op]:
    """Order ``ops`` (a dependence-preserving permutation) so that no instruction follows the
    load it reads.  List scheduling: among the instructions whose register dependences (RAW,
    WAR, WAW on earlier ones) are met, take the earliest in program order, loads counted
    ``hoist`` positions earlier, skipping any that would read the register loaded just before;
    a stall is accepted only when nothing else is ready."""
    n = len(ops)
    succs: list[list[int]] = [[] for _ in range(n)]
    waiting = [0] * n                      # unscheduled predecessors
    for i, b in enumerate(ops):
        for j in range(i):
            a = ops[j]
            if a.defs & b.uses or a.uses & b.defs or a.defs & b.defs:
                succs[j].append(i)
                waiting[i] += 1
    ready = {i for i in range(n) if not waiting[i]}
    out: list[Op] = []
    hot: frozenset[str] = frozenset()      # registers loaded by the previous instruction
    while ready:
        ok = [i for i in ready if not hot & ops[i].uses] or list(ready)
        pick = min(ok, key=lambda i: (i - (hoist if ops[i].load else 0), i))
        ready.remove(pick)
        out.append(ops[pick])
        hot = ops[pick].late
        for k in succs[pick]:
            waiting[k] -= 1
            if not waiting[k]:
                ready.add(k)
    return out


def stall_count(ops: list[Op]) -> int:
    """Load-use stalls of a straight sequence (for the header comments and the tests)."""
    return sum(1 for a, b in zip(ops, ops[1:], strict=False) if a.late & b.uses)


# ---------------------------------------------------------------------------------------------
# strip routines


@dataclass(frozen=True)
class Strip:
    """A strip routine: u x v blocks, B layout ``trans``, K unrolled ``uk`` times."""

    u: int
    v: int
    trans: int
    uk: int

    MAC: ClassVar[str] = "fmadd.s {c}, {a}, {b}, {c}"     # one K step's multiply-add
    MUL: ClassVar[str] = "fmul.s {c}, {a}, {b}"           # the peeled first step's product
    FLOAD: ClassVar[str] = "flw"                          # an FP value from memory
    FSTORE: ClassVar[str] = "fsw"                         # and back
    # operands loaded with post-increment (p.lw: x registers only; Xpulpv2 has no p.flw), so
    # the K loop has no pointer bumps; otherwise immediate offsets and one bump per body
    POSTINC: ClassVar[bool] = False

    def label(self, prefix: str) -> str:
        return f"{prefix}_{self.u}x{self.v}_t{self.trans}"

    # ---- register plan ----------------------------------------------------------------------
    def pointer_count(self) -> int:
        return self.u + (self.v if self.trans else 1)

    def fregs(self) -> tuple[str, ...]:
        """The registers that hold FP values (accumulators and operands)."""
        return FREGS

    def ptr_pool(self) -> tuple[str, ...]:
        """The integer registers free for the operand pointers."""
        return INT_POOL

    def fp_plan(self) -> tuple[list[list[str]], str, list[list[str]], list[list[str]]]:
        """(accumulators[r][t], mode, A banks, B banks); in the single-bank modes the streamed
        side's "bank" is a rotating pool of at least 2 registers (so that the next value is
        loaded while the current one is used)."""
        u, v = self.u, self.v
        regs = self.fregs()
        acc = [[regs[r * v + t] for t in range(v)] for r in range(u)]
        free = list(regs[u * v:])
        if u * v + 2 * (u + v) <= len(regs):
            a = [free[:u], free[u:2 * u]]
            b = [free[2 * u:2 * u + v], free[2 * u + v:2 * u + 2 * v]]
            return acc, "double", a, b
        if len(free) < min(u, v) + 2:
            raise ValueError(f"{self}: {len(regs)} FP registers are too few for a {u} x {v} "
                             f"block")
        held = min(u, v)
        # two banks for the held side when the pool keeps at least 3 registers: the values of
        # step s+1 are then loaded while step s still reads its own
        nb = 2 if len(free) >= 2 * held + 3 else 1
        banks = [free[i * held:(i + 1) * held] for i in range(nb)]
        if u <= v:     # hold the u A values, stream B through a rotating pool
            return acc, "stream_b", banks, [free[nb * held:]]
        return acc, "stream_a", [free[nb * held:]], banks

    def int_plan(self) -> dict[str, object]:
        need = self.pointer_count()
        if need > len(self.ptr_pool()):
            raise ValueError(f"{self}: needs {need} pointer registers")
        pool = list(self.ptr_pool())
        pa = [pool.pop(0) for _ in range(self.u)]
        pb = [pool.pop(0) for _ in range(self.v if self.trans else 1)]
        return {"pa": pa, "pb": pb, "q": COUNT_REGS[0], "r": COUNT_REGS[1]}

    # ---- one K step -------------------------------------------------------------------------
    def step_ops(self, s: int, nsteps: int, first: bool, rot: list[int]) -> list[Op]:
        """Loads and multiply-adds of step ``s`` of a body of ``nsteps`` steps (offset 4*s on
        the K-contiguous pointers).  ``first``: fmul into the accumulators (peeled step).
        ``rot`` carries the rotating-pool position across steps."""
        u, v = self.u, self.v
        acc, mode, abanks, bbanks = self.fp_plan()
        ip = self.int_plan()
        pa, pb = ip["pa"], ip["pb"]
        ld = self.FLOAD
        ops: list[Op] = []

        def take(bank: list[str]) -> str:
            reg = bank[rot[0] % len(bank)]
            rot[0] += 1
            return reg

        if mode == "double":
            ar, br = abanks[s % 2], bbanks[s % 2]
        elif mode == "stream_b":
            ar, br = abanks[s % len(abanks)], [take(bbanks[0]) for _ in range(v)]
        else:
            ar, br = [take(abanks[0]) for _ in range(u)], bbanks[s % len(bbanks)]

        def along_k(dst: str, ptr: str) -> Op:
            """The value at k of a K-contiguous row."""
            if self.POSTINC:
                return op(f"p.lw {dst}, 4({ptr}!)", (dst, ptr), (ptr,), load=True, bumped=ptr)
            return op(f"{ld} {dst}, {4 * s}({ptr})", (dst,), (ptr,), load=True)

        def load_a(r: int) -> Op:
            return along_k(ar[r], pa[r])

        def load_b(t: int) -> Op:
            if self.trans:
                return along_k(br[t], pb[t])
            if not self.POSTINC:
                return op(f"{ld} {br[t]}, {4 * t}({pb[0]})", (br[t],), (pb[0],), load=True)
            # the pointer sits on the last of the v values; its load moves it to the next row
            if t < v - 1:
                return op(f"lw {br[t]}, {4 * (t - v + 1)}({pb[0]})", (br[t],), (pb[0],),
                          load=True)
            return op(f"p.lw {br[t]}, s2({pb[0]}!)", (br[t], pb[0]), (pb[0], "s2"), load=True,
                      bumped=pb[0])

        def mac(r: int, t: int) -> Op:
            c, a, b = acc[r][t], ar[r], br[t]
            if first:
                return op(self.MUL.format(c=c, a=a, b=b), (c,), (a, b))
            return op(self.MAC.format(c=c, a=a, b=b), (c,), (a, b, c))

        if mode == "stream_a":       # B held: load it, then each A row and its v products
            ops += [load_b(t) for t in range(v)]
            for r in range(u):
                ops.append(load_a(r))
                ops += [mac(r, t) for t in range(v)]
        elif v == 1 and self.POSTINC:    # one B value first: the last A load has a use next
            ops += [load_b(0)] + [load_a(r) for r in range(u)]
            ops += [mac(r, 0) for r in range(u)]
        else:                        # A held (or both banked): each B column and its u products
            ops += [load_a(r) for r in range(u)]
            for t in range(v):
                ops.append(load_b(t))
                ops += [mac(r, t) for r in range(u)]
        if self.POSTINC:
            return ops
        if not self.trans:           # B rows are 4M apart: one bump per step
            ops.append(op(f"add {pb[0]}, {pb[0]}, s2", (pb[0],), (pb[0], "s2")))
        if s == nsteps - 1:          # K-contiguous pointers move once per body
            for p in pa + (pb if self.trans else []):
                ops.append(op(f"addi {p}, {p}, {4 * nsteps}", (p,), (p,)))
        return ops

    def body(self, nsteps: int, first: bool = False) -> list[Op]:
        rot = [0]
        ops: list[Op] = []
        for s in range(nsteps):
            ops += self.step_ops(s, nsteps, first, rot)
        return schedule(ops)

    # ---- the routine ------------------------------------------------------------------------
    def k_loops(self, name: str, main: list[Op], one: list[Op], done: str = "") -> list[str]:
        """The K loops of a block: ``q`` times the unrolled body, then ``r`` single steps
        (``r`` only when unrolled); both skipped when their count is zero, the second by a
        branch to ``done`` (default: the block's store)."""
        done = done or f"{name}_store"
        ip = self.int_plan()
        q, r = ip["q"], ip["r"]
        lines = [f"    beqz {q}, {name}_rest",
                 f"    lp.setup x0, {q}, {name}_main_end"]
        lines += [f"    {o.text}" for o in main[:-1]]
        lines += [f"{name}_main_end:", f"    {main[-1].text}"]
        lines += [f"{name}_rest:"]
        if self.uk > 1:
            lines += [f"    beqz {r}, {done}",
                      f"    lp.setup x0, {r}, {name}_rest_end"]
            lines += [f"    {o.text}" for o in one[:-1]]
            lines += [f"{name}_rest_end:", f"    {one[-1].text}"]
        return lines

    def emit(self, prefix: str) -> list[str]:
        u, v, uk = self.u, self.v, self.uk
        name = self.label(prefix)
        acc, mode, _, _ = self.fp_plan()
        ip = self.int_plan()
        pa, pb, q, r = ip["pa"], ip["pb"], ip["q"], ip["r"]
        shift = uk.bit_length() - 1
        main = self.body(uk)
        one = self.body(1)
        peeled = self.body(1, first=True)
        layout = "B[K x M]" if not self.trans else "B stored M x K"
        macs = u * v * uk
        lines = [
            "",
            f"# {name}: {u} x {v} blocks, {layout}; C[i..i+{u}, j..j+{v}*nb] (+)= A . B",
            "# in: a2 = &A[i][0], a3 = first B block, a4 = &C[i][j], a5 = nb >= 1;",
            f"# out: a3, a4 advanced past the nb blocks.  K loop unrolled x{uk}: {len(main)} "
            f"instructions for {macs} MACs ({mode} operand registers, "
            f"{stall_count(main)} load-use stalls).",
            f"{name}:",
            f"    seqz {r}, s3",
            f"    sub {r}, s0, {r}              # steps after the first: K or K-1",
        ]
        if uk > 1:
            lines += [f"    srli {q}, {r}, {shift}",
                      f"    andi {r}, {r}, {uk - 1}"]
        else:
            lines += [f"    mv {q}, {r}"]
        lines += [f"    lp.setup x1, a5, {name}_blk_end"]

        def ptr_setup() -> list[str]:
            out = [f"    mv {pa[0]}, a2"]
            out += [f"    add {pa[k]}, {pa[k - 1]}, s1" for k in range(1, u)]
            if self.trans:
                out += [f"    mv {pb[0]}, a3"]
                out += [f"    add {pb[k]}, {pb[k - 1]}, s1" for k in range(1, v)]
                out += [f"    add a3, {pb[v - 1]}, s1"]
            elif self.POSTINC:          # on the last value of the row (see step_ops)
                out += [f"    addi {pb[0]}, a3, {4 * (v - 1)}", f"    addi a3, a3, {4 * v}"]
            else:
                out += [f"    mv {pb[0]}, a3", f"    addi a3, a3, {4 * v}"]
            return out

        lines += [f"    beqz s3, {name}_peel"]
        lines += [f"    mv {pa[0]}, a4                # accumulate: C into the accumulators"]
        for rr in range(u):
            if rr:
                lines.append(f"    add {pa[0]}, {pa[0]}, s2")
            lines += [f"    {self.FLOAD} {acc[rr][t]}, {4 * t}({pa[0]})" for t in range(v)]
        lines += ptr_setup()
        lines += [f"    j {name}_loop"]
        lines += [f"{name}_peel:                 # first step: products, no zeroing"]
        lines += ptr_setup()
        lines += [f"    {o.text}" for o in peeled]
        lines += [f"{name}_loop:"] + self.k_loops(name, main, one)
        lines += [f"{name}_store:", f"    mv {pa[0]}, a4"]
        for rr in range(u):
            if rr:
                lines.append(f"    add {pa[0]}, {pa[0]}, s2")
            lines += [f"    {self.FSTORE} {acc[rr][t]}, {4 * t}({pa[0]})" for t in range(v)]
        lines += [f"{name}_blk_end:", f"    addi a4, a4, {4 * v}", "    ret"]
        return lines


@dataclass(frozen=True)
class XStrip(Strip):
    """A strip routine for a core with a single register file (zfinx: FP values in the x
    registers, loaded and stored with ``lw`` / ``sw``).  The x registers left after the
    driver's (s0-s3: K, the two row strides, accumulate; a2-a5 the arguments; t5, t6 the K
    loop counts) are shared by the pointers (first) and the FP values; the driver's s4-s11
    and ra are among them, saved on the stack by the routine when it uses them."""

    FLOAD: ClassVar[str] = "lw"
    FSTORE: ClassVar[str] = "sw"
    POSTINC: ClassVar[bool] = True
    SAVED: ClassVar[tuple[str, ...]] = X_SAVED       # the driver's registers it may take

    def fregs(self) -> tuple[str, ...]:
        return (INT_POOL + self.SAVED)[self.pointer_count():]

    def ptr_pool(self) -> tuple[str, ...]:
        return (INT_POOL + self.SAVED)[:self.pointer_count()]

    def saved(self) -> list[str]:
        """The registers of the driver (or the return address) this routine uses."""
        acc, _, abanks, bbanks = self.fp_plan()
        used = {r for row in acc for r in row} | {r for bank in abanks + bbanks for r in bank}
        used |= set(self.ptr_pool())
        return [r for r in self.SAVED if r in used]

    def emit(self, prefix: str) -> list[str]:
        lines = super().emit(prefix)
        saved = self.saved()
        if not saved:
            return lines
        frame = (4 * len(saved) + 15) // 16 * 16
        head = lines.index(f"{self.label(prefix)}:") + 1
        save = [f"    addi sp, sp, -{frame}"]
        save += [f"    sw {r}, {4 * i}(sp)" for i, r in enumerate(saved)]
        restore = [f"    lw {r}, {4 * i}(sp)" for i, r in enumerate(saved)]
        restore += [f"    addi sp, sp, {frame}"]
        assert lines[-1] == "    ret"
        return lines[:head] + save + lines[head:-1] + restore + lines[-1:]


# ---------------------------------------------------------------------------------------------
# kernels (one file per main block shape)


@dataclass(frozen=True)
class Family:
    """The two kernels (split over N and over M) of one main block shape."""

    u: int
    v: int
    uk: int = 4            # K unroll of the main strip
    tag: str = ""          # file / kernel name part; default "<u>x<v>"

    strip_type: ClassVar[type[Strip]] = Strip
    layouts: ClassVar[tuple[int, ...]] = (0, 1)      # trans_B values the kernels take
    elem_log2: ClassVar[int] = 2                     # log2 of an element's bytes
    dtype: ClassVar[str] = "fp32"
    # the ISA the kernels need (the catalogue's ``isa``); its register file is the strips'
    isa: ClassVar[str] = "rv32imfc_xpulpv2"
    saved_fregs: ClassVar[tuple[str, ...]] = FS_REGS    # callee-saved FP registers the strips use
    # K -> s1, the row stride in bytes of A and of B stored M x K
    k_stride: ClassVar[tuple[str, ...]] = (
        "    slli s1, s0, 2              # 4K: row stride of A and of B stored M x K",)
    generated_by: ClassVar[tuple[str, ...]] = (
        "# GENERATED by asm_kernels/matmul_gen.py (see its docstring for the driver, the strip",
        "# routines and the scheduler); edit the generator, not this file.")

    @property
    def title(self) -> str:
        """The header's first paragraph; empty: the fp32 family's."""
        return ""

    @property
    def skew_units(self) -> int:
        """Start delay per core id in 3-cycle units: 1.5 K steps of the main block, so that
        neighbouring cores work 1-2 values of k apart (different banks when K % 16 == 0)."""
        step = self.u + self.v + self.u * self.v + 1
        return max(1, round(1.5 * step / 3))
    scheduling: str = ""   # the header paragraph

    @property
    def name(self) -> str:
        return self.tag or f"{self.u}x{self.v}"

    @property
    def prefix(self) -> str:
        return f"mm_{self.name}"

    @property
    def file(self) -> str:
        return f"matmul_{self.name}.s"

    def row_classes(self) -> list[int]:
        return [self.u] + [1 << k for k in range(3, -1, -1) if (1 << k) < self.u]

    def col_classes(self) -> list[int]:
        return [self.v] + [1 << k for k in range(3, -1, -1) if (1 << k) < self.v]

    def strips(self, trans: int) -> list[Strip]:
        out = []
        for ru in self.row_classes():
            for cv in self.col_classes():
                main = ru == self.u and cv == self.v
                out.append(self.strip_type(ru, cv, trans, self.uk if main else 1))
        return out


def _mul_const(dst: str, src: str, k: int, tmp: str = "a5") -> list[str]:
    """dst = src * k for a small constant k (a shift for powers of two, else li tmp + mul)."""
    if k & (k - 1) == 0:
        if k == 1:
            return [f"    mv {dst}, {src}"]
        return [f"    slli {dst}, {src}, {k.bit_length() - 1}"]
    return [f"    li {tmp}, {k}", f"    mul {dst}, {src}, {tmp}"]


def _div_const(dst: str, src: str, k: int, tmp: str = "a5") -> list[str]:
    """dst = src / k (unsigned) for a small constant k."""
    if k & (k - 1) == 0:
        if k == 1:
            return [f"    mv {dst}, {src}"]
        return [f"    srli {dst}, {src}, {k.bit_length() - 1}"]
    return [f"    li {tmp}, {k}", f"    divu {dst}, {src}, {tmp}"]


def emit_driver(fam: Family) -> list[str]:
    p, u, v = fam.prefix, fam.u, fam.v
    frame = 4 * (1 + len(S_REGS) + len(fam.saved_fregs))
    frame = (frame + 15) // 16 * 16
    lines = ["", f"# driver of {p}_n / {p}_m: t6 = 0 (split N in groups of {u} rows) or",
             f"# 1 (split M in groups of {v} columns)", f"{p}_driver:",
             f"    addi sp, sp, -{frame}", "    sw ra, 0(sp)"]
    lines += [f"    sw {s}, {4 + 4 * i}(sp)" for i, s in enumerate(S_REGS)]
    lines += [f"    fsw {f}, {52 + 4 * i}(sp)" for i, f in enumerate(fam.saved_fregs)]
    lines += [
        f"    lw s0, {OFF_K}(a0)              # K",
        *fam.k_stride,
        f"    lw t5, {OFF_M}(a0)              # M",
        f"    slli s2, t5, {fam.elem_log2}              # row stride of B and of C",
        f"    lw s3, {OFF_ACC}(a0)              # accumulate",
        f"    lw t4, {OFF_N}(a0)              # N",
        "    csrr t2, mhartid",
        "    andi t2, t2, 0x1f           # core id",
        "    mv t3, t4                   # P: the split dimension",
        "    li t1, 0                    # its first index",
        f"    beqz t6, {p}_split",
        "    mv t3, t5",
        f"{p}_split:",
        # G = u (N split) or v (M split): compute groups with the right constant
        f"    bnez t6, {p}_split_m",
    ]

    def split(g: int, tag: str) -> list[str]:
        out = [f"    addi t0, t3, {g - 1}"]
        out += _div_const("t0", "t0", g)                     # groups = ceil(P / g)
        out += [
            "    divu a6, t0, a1             # q = groups / cores",
            "    mul a7, a6, a1",
            "    sub a7, t0, a7              # r = groups % cores",
            "    mul t0, t2, a6",
            "    p.minu t1, t2, a7",
            "    add t0, t0, t1              # first group: c*q + min(c, r)",
            "    sltu t1, t2, a7",
            "    add a6, a6, t1              # groups of this core: q + (c < r)",
        ]
        out += _mul_const("t1", "t0", g)                     # first index
        out += _mul_const("a6", "a6", g)
        out += [
            "    add a6, a6, t1",
            "    p.minu a6, a6, t3           # end index (exclusive)",
            "    sub a6, a6, t1              # count (<= 0: nothing to do)",
            f"    blez a6, {p}_done",
            f"    j {p}_rect_{tag}",
        ]
        return out

    lines += split(u, "n")
    lines += [f"{p}_split_m:"] + split(v, "m")
    # rectangle: rows [n0, n0 + nrows) x cols [m0, m0 + ncols); s9 = nrows, s10 = ncols
    lines += [
        f"{p}_rect_n:                     # rows [t1, t1 + a6), all columns",
        "    mv s9, a6",
        "    mv s10, t5",
        "    mv t0, t1                   # n0",
        "    li t1, 0                    # m0",
        f"    j {p}_rect",
        f"{p}_rect_m:                     # all rows, columns [t1, t1 + a6)",
        "    mv s9, t4",
        "    mv s10, a6",
        "    li t0, 0",
        f"{p}_rect:",
    ]
    lines += [
        # Start skew: core c waits c * SKEW cycles (a fraction of a K step of the main block
        # times 1.5) when its share is large enough to pay for it, so that the cores do not all
        # read the same TCDM banks (those of the same k) in the same cycles.
        "    mul t3, s9, s10",
        "    mul t3, t3, s0",
        f"    srli t3, t3, {SKEW_MIN_LOG2}     # skip for fewer than 2^{SKEW_MIN_LOG2} MACs",
        f"    beqz t3, {p}_go",
        f"    li t3, {fam.skew_units}",
        "    mul t3, t3, t2",
        f"    beqz t3, {p}_go",
        f"    lp.setup x0, t3, {p}_skew_end   # 3 cycles per count",
        "    nop",
        "    nop",
        f"{p}_skew_end:",
        "    nop",
        f"{p}_go:",
        f"    lw s4, {OFF_A}(a0)",
        "    mul t3, t0, s1",
        "    add s4, s4, t3              # s4 = &A[n0][0]",
        f"    lw s5, {OFF_C}(a0)",
        "    mul t3, t0, s2",
        "    add s5, s5, t3",
        f"    slli t3, t1, {fam.elem_log2}",
        "    add s5, s5, t3              # s5 = &C[n0][m0]",
        f"    lw s6, {OFF_B}(a0)",
        f"    lw s11, {OFF_TRANS}(a0)",
        "    mul t0, t1, s1              # B stored M x K: column m0 is row m0",
        f"    bnez s11, {p}_bcol",
        "    slli t0, t1, 2              # B[K x M]: column m0 is 4*m0 bytes in",
        f"{p}_bcol:",
        "    add s6, s6, t0              # s6 = first B column of the rectangle",
    ]
    lines += _div_const("s7", "s10", v)
    lines += _mul_const("t0", "s7", v)
    lines += [f"    sub s8, s10, t0             # s8 = leftover columns (< {v})"]
    if 0 in fam.layouts:
        lines += [f"    bnez s11, {p}_cover_t1"]
    for trans in fam.layouts:
        lines += cover(fam, trans)
    lines += [f"{p}_done:", "    lw ra, 0(sp)"]
    lines += [f"    lw {s}, {4 + 4 * i}(sp)" for i, s in enumerate(S_REGS)]
    lines += [f"    flw {f}, {52 + 4 * i}(sp)" for i, f in enumerate(fam.saved_fregs)]
    lines += [f"    addi sp, sp, {frame}", "    ret"]
    return lines


def cover(fam: Family, trans: int) -> list[str]:
    """Cover the rectangle (s4/s5/s6 at its corner, s9 rows, s7 full blocks + s8 leftover
    columns) with strips: the main row class while at least U rows remain, then each smaller
    class once if it fits."""
    p = fam.prefix
    tp = f"{p}_t{trans}"
    lines = [f"{p}_cover_t{trans}:"]
    for ci, ru in enumerate(fam.row_classes()):
        lab = f"{tp}_rows{ru}"
        lines += [f"{lab}:", f"    li t0, {ru}", f"    bltu s9, t0, {lab}_skip"]
        if ci == 0:
            lines += [f"{lab}_strip:"]
        lines += ["    mv a2, s4", "    mv a3, s6", "    mv a4, s5"]
        for cj, cv in enumerate(fam.col_classes()):
            target = Strip(ru, cv, trans, 1).label(p)
            if cj == 0:
                lines += [f"    beqz s7, {lab}_c{cv}", "    mv a5, s7", f"    jal {target}",
                          f"{lab}_c{cv}:", "    mv s10, s8"]
            else:
                lines += [f"    li t0, {cv}", f"    bltu s10, t0, {lab}_c{cv}_skip",
                          "    li a5, 1", f"    jal {target}", f"    addi s10, s10, -{cv}",
                          f"{lab}_c{cv}_skip:"]
        lines += _mul_const("t0", "s1", ru)
        lines += ["    add s4, s4, t0"]
        lines += _mul_const("t0", "s2", ru)
        lines += ["    add s5, s5, t0", f"    addi s9, s9, -{ru}"]
        if ci == 0:
            lines += [f"    li t0, {ru}", f"    bgeu s9, t0, {lab}_strip"]
        lines += [f"{lab}_skip:"]
    lines += [f"    j {p}_done"]
    return lines


def emit_family(fam: Family) -> str:
    p = fam.prefix
    title = fam.title or (
        f"{p}_n / {p}_m - C[N x M] = A[N x K] . B[K x M] (C += ... when accumulate; B "
        f"stored M x K when trans_B), fp32; main block {fam.u} x {fam.v} (K unrolled "
             f"x{fam.uk}), rows (_n) or columns (_m) of C split over the cores in whole groups "
        f"of {fam.u} rows / {fam.v} columns.")
    lines = ["# " + ln for ln in _wrap(title)] + ["#"]
    lines += ["# " + ln if ln else "#" for ln in _wrap(fam.scheduling)]
    lines += ["#"] + ["# " + ln for ln in _wrap(
        f"Start skew: when its share is at least 2^{SKEW_MIN_LOG2} MACs, core c starts "
        f"{3 * fam.skew_units}*c cycles late (about 1.5 K steps of the main block), so that "
        "neighbouring cores work on different k, whose A (and B stored M x K) values sit in "
        "other TCDM banks when K % 16 == 0; without it the cores meet in one bank every step.")]
    lines += [
        "#",
        *fam.generated_by,
        "# a0 -> struct matmul {A, B, C, N, M, K, trans_B, accumulate}; a1 = number of cores.",
        "    .text",
        f"    .globl {p}_n",
        f"    .globl {p}_m",
        f"{p}_n:",
        "    li t6, 0",
        f"    j {p}_driver",
        f"{p}_m:",
        "    li t6, 1",
        f"    j {p}_driver",
    ]
    lines += emit_driver(fam)
    seen: set[tuple[int, int, int]] = set()
    for trans in fam.layouts:
        for st in fam.strips(trans):
            key = (st.u, st.v, st.trans)
            if key not in seen:
                seen.add(key)
                lines += st.emit(p)
    return "\n".join(lines) + "\n"


def _wrap(text: str, width: int = 96) -> list[str]:
    words, out, cur = text.split(), [], ""
    for w in words:
        if cur and len(cur) + 1 + len(w) > width:
            out.append(cur)
            cur = w
        else:
            cur = f"{cur} {w}" if cur else w
    if cur:
        out.append(cur)
    return out


# ---------------------------------------------------------------------------------------------
# the family list, the catalogue and the command line

FAMILIES = (
    Family(1, 1, uk=2, tag="u2", scheduling=(
        "Scheduling: one accumulator, K unrolled by 2 with two register banks, so the two loads "
        "of the second step are issued before the first multiply-add and no instruction waits "
        "for a load; per two K steps 4 loads, 2 multiply-adds and 2 (B K x M: 3) pointer bumps, "
        "about 0.25 MAC per cycle per core.  It is the baseline of the unrolled family: the gain "
        "over the naive kernel comes only from the hardware loop and the removed stall.")),
    Family(1, 2, scheduling=(
        "Scheduling: a row of A against 2 columns of B: per K step 1 + 2 loads feed 2 "
        "multiply-adds; 4 steps per loop iteration with alternating register banks, so every "
        "load is issued one step ahead of its use and the A pointer moves once per iteration "
        "(immediate offsets 0, 4, 8, 12).  Leftover column: 1 x 1 strip.")),
    Family(1, 4, scheduling=(
        "Scheduling: one A value reused across 4 columns: 5 loads for 4 multiply-adds per K "
        "step, K unrolled x4 with two register banks (loads of step s+1 fill the slots between "
        "the products of step s).  With B stored K x M the 4 values are one pointer with "
        "offsets 0..12, bumped by 4M per step; stored M x K they are 4 row pointers moved once "
        "per iteration.  Leftover columns: 1 x 2 and 1 x 1 strips.")),
    Family(1, 8, scheduling=(
        "Scheduling: 8 accumulators in a row: 9 loads for 8 multiply-adds per K step, so this "
        "shape is load-bound (about 0.44 MAC/instruction); its merit is that M split over the "
        "cores in groups of 8 columns keeps a single A row stream.  Two banks of 9 operand "
        "registers, K unrolled x4.  Leftover columns: 1 x 4, 1 x 2, 1 x 1.")),
    Family(2, 1, scheduling=(
        "Scheduling: 2 rows of A against one column of B: 3 loads for 2 multiply-adds per K "
        "step; K unrolled x4, two banks; the row pointers move once per iteration.  Odd last "
        "row: 1 x 1 strip, on the core that owns it.")),
    Family(4, 1, scheduling=(
        "Scheduling: 4 rows of A against one B value: 5 loads for 4 multiply-adds per K step; "
        "K unrolled x4 with two register banks.  Leftover rows: 2 x 1 and 1 x 1 strips.")),
    Family(8, 1, scheduling=(
        "Scheduling: 8 rows of A against one B value: 9 loads for 8 multiply-adds per K step, "
        "the 8 row pointers moved once per 4 steps (2 bumps per step on average, plus 1 for "
        "B K x M): about 0.4 MAC/instruction.  Two banks of 9 operand registers.  Leftover "
        "rows: 4-, 2-, 1-row strips.")),
    Family(2, 2, scheduling=(
        "Scheduling: 2 x 2 block, 4 loads for 4 multiply-adds per K step (1 MAC per load); K "
        "unrolled x4 with two banks of 4 operand registers, loads of step s+1 interleaved with "
        "the products of step s.  Leftovers: 2 x 1, 1 x 2, 1 x 1 strips.")),
    Family(2, 4, scheduling=(
        "Scheduling: 2 x 4 block, 6 loads for 8 multiply-adds per K step; K unrolled x4, two "
        "banks of 6 operand registers (8 accumulators + 12 = 20 FP registers).  Leftovers: "
        "2 x 2, 2 x 1 and 1 x 4, 1 x 2, 1 x 1 strips.")),
    Family(4, 2, scheduling=(
        "Scheduling: 4 x 2 block, 6 loads for 8 multiply-adds per K step; K unrolled x4, two "
        "banks.  With B K x M the 2 B values share one pointer (one bump per step), the 4 A "
        "row pointers move once per iteration.")),
    Family(4, 4, uk=2, scheduling=(
        "Scheduling: 4 x 4 block with all 32 FP registers: 16 accumulators and two banks of "
        "4 + 4 operands, so the 8 loads of step s+1 are issued between the 16 multiply-adds of "
        "step s (8 loads + 16 MACs + bumps per step: about 0.6 MAC/instruction).  K unrolled "
        "x2: the loop (54 instructions) and the block's other code fit the 512-byte L0 "
        "instruction cache, x4 (104) does not.  Beyond PULP-TrainLib, whose 4 x 4 spills.")),
    Family(4, 6, uk=2, scheduling=(
        "Scheduling: the largest block the register file holds without spilling: 24 "
        "accumulators, the 4 A values of a step held, the 6 B values streamed through a "
        "rotating pool of 4 registers (each B value feeds 4 multiply-adds, the load of the "
        "next is issued among them).  K unrolled x2: per K step 10 loads + 24 MACs + 1 B "
        "bump + 4 A-pointer bumps per 2 steps, 0.65 MAC/instruction, the best ratio of the "
        "family; a longer unroll saves bumps but its loop (x4: 144 instructions) no longer "
        "fits the 512-byte L0 instruction cache and refills lines on every pass.  Split over N "
        "it keeps groups of 4 rows (64 rows = 2 groups per core on 8 cores); leftover columns "
        "(M % 6) go to 4 x 4 / 4 x 2 / 4 x 1 strips.")),
    Family(6, 4, uk=2, scheduling=(
        "Scheduling: the transpose of 4 x 6: 24 accumulators, the 4 B values of a step held, "
        "the 6 A values streamed through a rotating pool of 4 registers.  K unrolled x2 (so "
        "that the loop fits the 512-byte L0 instruction cache): per K step 10 loads + 24 MACs "
        "+ 1 bump (B K x M) + 6 A-pointer bumps per 2 steps.  Split "
        "over M it keeps groups of 4 columns; leftover rows (N % 6) go to 4-, 2-, 1-row "
        "strips.")),
)


@dataclass(frozen=True)
class XFamily(Family):
    """The fp32 kernels of one block shape for a core with a single register file (zfinx)."""

    strip_type: ClassVar[type[Strip]] = XStrip
    isa: ClassVar[str] = "rv32imc_zfinx_xpulpv2"
    saved_fregs: ClassVar[tuple[str, ...]] = ()

    @property
    def prefix(self) -> str:
        return f"mmx_{self.name}"

    @property
    def file(self) -> str:
        return f"matmul_zfinx_{self.name}.s"

    @property
    def title(self) -> str:
        p = self.prefix
        return (f"{p}_n / {p}_m - C[N x M] = A[N x K] . B[K x M] (C += ... when accumulate; B "
                f"stored M x K when trans_B), fp32 on a core with a single register file "
                f"(zfinx: FP values in the x registers, loaded with post-increment p.lw, "
                f"stored with sw, as on PULP-TrainLib's cores); main block {self.u} x {self.v} "
                f"(K unrolled x{self.uk}), rows (_n) or columns (_m) of C split over the cores "
                f"in whole "
                f"groups of {self.u} rows / {self.v} columns.")


X_NOTE = ("With one register file the pointers and the FP values share the 20 x registers "
          "the driver leaves (the strip saves the driver's s0, s4-s11 and ra when it uses "
          "them); operands are loaded with post-increment p.lw, so the K loop has no pointer "
          "bumps.")

# The single-register-file variants: PULP-TrainLib's shapes (the naive loop, 1 x 2, 2 x 1,
# 1 x 8, 8 x 1, 1 x 4, 4 x 1, 2 x 2, 2 x 4, 4 x 2; its 4 x 4 spills there) and 3 x 3, the
# largest block whose operands fit in the x registers for both B layouts (with B stored M x K:
# 3 + 3 pointers, 9 accumulators, 3 held A values and a rotating pool of 2 B values, all 20;
# 3 x 4 would need 23).
X_FAMILIES = (
    XFamily(1, 1, uk=1, tag="naive", scheduling=(
        "Scheduling: one output at a time, one K step per loop iteration (two loads, one "
        "multiply-add, the pointer bumps between them): the non-blocked reference of the "
        "single-register-file family.  " + X_NOTE)),
    XFamily(1, 2, scheduling=(
        "Scheduling: PULP-TrainLib's 1 x 2: 3 loads for 2 multiply-adds per K step, K unrolled "
        "x4 with two banks of operands.  " + X_NOTE)),
    XFamily(2, 1, scheduling=(
        "Scheduling: PULP-TrainLib's 2 x 1: 3 loads for 2 multiply-adds per K step, K unrolled "
        "x4 with two banks of operands.  " + X_NOTE)),
    XFamily(1, 8, scheduling=(
        "Scheduling: PULP-TrainLib's 1 x 8: 9 loads for 8 multiply-adds per K step; the A "
        "value held, the 8 B values streamed through a rotating pool (with B stored M x K the "
        "8 row pointers leave 2 registers for it).  " + X_NOTE)),
    XFamily(8, 1, uk=2, scheduling=(
        "Scheduling: PULP-TrainLib's 8 x 1: 9 loads for 8 multiply-adds per K step; the B "
        "value held, the 8 A values streamed through a rotating pool; K unrolled x2, so that "
        "the block's code fits the 512-byte L0 instruction cache.  " + X_NOTE)),
    XFamily(1, 4, scheduling=(
        "Scheduling: PULP-TrainLib's 1 x 4: 5 loads for 4 multiply-adds per K step, K "
        "unrolled x4 with two banks of operands.  " + X_NOTE)),
    XFamily(4, 1, scheduling=(
        "Scheduling: PULP-TrainLib's 4 x 1: 5 loads for 4 multiply-adds per K step, K "
        "unrolled x4 with two banks of operands.  " + X_NOTE)),
    XFamily(2, 2, scheduling=(
        "Scheduling: PULP-TrainLib's 2 x 2: 4 loads for 4 multiply-adds per K step, K unrolled "
        "x4 with two banks of operands.  " + X_NOTE)),
    XFamily(2, 4, scheduling=(
        "Scheduling: PULP-TrainLib's 2 x 4: 6 loads for 8 multiply-adds per K step; the 2 A "
        "values of a step held, the 4 B values streamed through a rotating pool.  " + X_NOTE)),
    XFamily(4, 2, scheduling=(
        "Scheduling: PULP-TrainLib's 4 x 2: 6 loads for 8 multiply-adds per K step; the 2 B "
        "values held, the 4 A values streamed through a rotating pool.  " + X_NOTE)),
    XFamily(3, 3, scheduling=(
        "Scheduling: the largest block the single register file holds for both B layouts: 9 "
        "accumulators, the 3 A values of a step held, the 3 B values streamed through a "
        "rotating pool; 6 loads for 9 multiply-adds per K step (0.6 MAC/instruction before "
        "bumps, 2 x 4's 0.57).  Leftovers: 3 x 2, 3 x 1 and 2-, 1-row strips.  " + X_NOTE)),
)


def catalogue_toml() -> str:
    out = ["# The fp32 matmul family.  The mm_<U>x<V>_* (separate FP registers) and mmx_* (single",
           "# register file, zfinx) entries are GENERATED by asm_kernels/matmul_gen.py",
           "# (python -m asm_kernels.matmul_gen); mm_naive_* are hand-written in matmul_naive.s.",
           ""]
    naive = (("mm_naive_n", "N", "rows"), ("mm_naive_m", "M", "columns"))
    for name, dim, what in naive:
        out += ["[[kernel]]", f'name = "{name}"', 'file = "matmul_naive.s"',
                f'entry = "{name}"', 'family = "matmul"', 'args = "matmul"', "unroll = [1, 1]",
                f'parallel = "{dim}"', 'constraints = ["N >= 1", "M >= 1", "K >= 1"]',
                f'isa = "{Family.isa}"',
                f'doc = "naive 1x1 matmul, {what} of C split over the cores"', ""]
    for fam in FAMILIES + X_FAMILIES:
        regs = ", FP values in x registers (zfinx)" if fam.isa != Family.isa else ""
        for dim, what, g in (("N", "rows", fam.u), ("M", "columns", fam.v)):
            kname = f"{fam.prefix}_{dim.lower()}"
            kunroll = (f"K x{fam.uk}" if fam.u * fam.v == 1 else
                       f"{fam.u}x{fam.v} block, K x{fam.uk}")
            out += ["[[kernel]]", f'name = "{kname}"', f'file = "{fam.file}"',
                    f'entry = "{kname}"', 'family = "matmul"', 'args = "matmul"',
                    f"unroll = [{fam.u}, {fam.v}]", f'parallel = "{dim}"',
                    'constraints = ["N >= 1", "M >= 1", "K >= 1"]', f'isa = "{fam.isa}"',
                    f'doc = "{kunroll}{regs}, {what} of C split over the cores in groups of '
                    f'{g}"', ""]
    return "\n".join(out)


def outputs() -> dict[Path, str]:
    """Every generated file and its content."""
    files = {HERE / fam.file: emit_family(fam) for fam in FAMILIES + X_FAMILIES}
    files[HERE / "matmul.toml"] = catalogue_toml()
    return files


def main() -> int:
    for path, text in outputs().items():
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
            print(f"wrote {path.relative_to(HERE.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
