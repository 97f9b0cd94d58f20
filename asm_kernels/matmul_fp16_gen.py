"""Generator of the packed-SIMD 16-bit matmul kernels: binary16 (``matmul_fp16_*.s``, family
``matmul_fp16``) and bfloat16 (``matmul_bf16_*.s``, family ``matmul_bf16``), each for both
register-file models.

The kernels reuse the fp32 family's driver (split of N or M over the cores in whole groups,
cover of the core's rectangle with U x V blocks and smaller leftover strips), its list
scheduler and its register plans (``asm_kernels/matmul_gen.py``); what differs is one K step
and the ends of a block, written here.

What they compute: ``C[N x M] = A[N x K] . B^T`` (``C += ...`` when ``accumulate``) on 16-bit
arrays, B stored M x K (``trans_B = 1``; the K x M layout has no pair of consecutive k values in
one 32-bit word, so it is refused by the catalogue constraint: trainlib's lowering transposes B
first with the transpose kernel, O(K M) work beside the O(N K M) product).  Rows of A and B are
K2 = K rounded up to even values long (a 32-bit word holds the values k, k+1 of a row, lane 0 =
the even k), so every row starts on a word; with K odd the pad value at index K of each row is
never read as an operand.  C is dense, N x M 16-bit values.

Rounding (Xfvec ``vfdotpex.s.h`` / ``vfdotpex.s.ah``, ``isasim/smallfloat.py``; GVSoC
``rv32Xfvec.hpp``): each output is accumulated in binary32, starting from +0 (or from C
converted exactly to binary32 when accumulating); one instruction per k pair adds
``fma(a[k+1], b[k+1], a[k] * b[k])`` (product exact, fma rounded to binary32) to the accumulator
(rounded to binary32), k pairs in increasing order.  With K odd the last value is a pair whose
upper lanes are zero.  The binary32 sum is rounded once to the 16-bit format (``fcvt.h.s`` /
``fcvt.ah.s``, frm = nearest even) and stored.  Two MACs per instruction: peak 2 MAC/cycle per
core, 16 on 8 cores.  The ``mmhl_`` kernels accumulate in binary16 lanes instead (``vfmac.h``),
as PULP-TrainLib's C kernels do.

Register files: ``mmh_`` / ``mmb_`` hold the pairs and sums in the f registers (flw, flh, fsh);
``mmhx_`` / ``mmbx_`` are for a core with a single register file (zfinx, PULP-TrainLib's
cores): the same values in the x registers (lw, lh, sh), the pointers sharing those registers,
hence smaller blocks (2 x 4 and its transpose at most).  PULP-TrainLib's ``mm_fp16_SIMD_4x8``
shape (32 outputs) fits neither model with one binary32 sum per output: 32 accumulators alone
fill the f registers; 4 x 6 is the largest block here.

Unrolling and the instruction cache: 2 x 4 and smaller blocks take 4 k pairs per loop
iteration, 6 x 4 takes 2 (``uk=2``); with 8 pairs (about 280 instructions) every pass refilled
lines of the 512-byte L0 instruction cache of a core and 64x64x64 ran a third slower with the
cache than with ideal fetch.  The main strips of 4 x 4 (x4), 4 x 6 and 6 x 4 (x2) are
``HResidentStrip`` routines: their whole block loop (K loop, zeroing, pointer moves, packed
stores: 30 or 31 lines of 16 bytes) stays in the L0; a call whose code comes from L2 skews
the cores only after a first pass over it, a call that finds it in the caches at once.  The
files of these families start on a 128-byte boundary (a line of each of the L0's 8 sets), so
that their lines map to the same L0 sets wherever a program places them.  x4
of 4 x 6 (144 instructions, 484 bytes compressed) would leave no room for the block's other
code.

``python -m asm_kernels.matmul_fp16_gen`` rewrites the ``.s`` files and ``matmul_fp16.toml`` /
``matmul_bf16.toml``; a test checks that the committed files are up to date.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import ClassVar

from asm_kernels.matmul_gen import (
    FREGS,
    SKEW_MIN_LOG2,
    X_SAVED,
    Family,
    Strip,
    XStrip,
    _wrap,
    emit_family,
    stall_count,
)

HERE = Path(__file__).parent


@dataclass(frozen=True)
class HStrip(Strip):
    """A strip routine of u x v blocks on binary16 pairs, B stored M x K2."""

    MAC: ClassVar[str] = "vfdotpex.s.h {c}, {a}, {b}"
    FMT: ClassVar[str] = "h"               # the 16-bit format's suffix: h binary16, ah bfloat16
    ACCUMULATES_IN: ClassVar[str] = "binary32"

    def header(self, name: str, uk: int, main: list[str], mode: str) -> list[str]:
        """The comment opening a strip routine: what it computes, its registers, its K loop."""
        u, v = self.u, self.v
        return [
            "",
            f"# {name}: {u} x {v} blocks; C[i..i+{u}, j..j+{v}*nb] (+)= A . B^T in binary16, "
            f"accumulated in {self.ACCUMULATES_IN}",
            "# in: a2 = &A[i][0], a3 = &B[j][0], a4 = &C[i][j], a5 = nb >= 1;",
            f"# out: a3, a4 advanced past the nb blocks.  K loop on k pairs unrolled x{uk}: "
            f"{len(main)} instructions for {2 * u * v * uk} MACs",
        ]

    def load_c(self, acc: str, off: int, ptr: str, tmp: str) -> list[str]:
        """The accumulator of one output from C (``off`` bytes from ``ptr``), when
        accumulating: the 16-bit value widened (exact) to binary32."""
        return [f"    flh {acc}, {off}({ptr})", f"    fcvt.s.h {acc}, {acc}"]

    def store_c(self, acc: str, off: int, ptr: str, tmps: tuple[str, str], ftmp: str
                ) -> list[str]:
        """One output to C: the binary32 sum rounded once to the 16-bit format."""
        return [f"    fcvt.h.s {acc}, {acc}", f"    fsh {acc}, {off}({ptr})"]

    def zero(self, acc: str) -> str:
        """An accumulator set to +0."""
        return f"    fmv.w.x {acc}, zero"

    def pair_of_one(self, dst: str, ptr: str, tmp: str) -> list[str]:
        """The last value of a row with K odd as a pair whose upper lane is zero."""
        return [f"    lhu {tmp}, 0({ptr})", f"    fmv.w.x {dst}, {tmp}"]

    def c_to_accumulators(self, ptr: str, tmp: str) -> list[str]:
        """The block of C at ``ptr`` (moved down its rows) into the accumulators."""
        acc = self.fp_plan()[0]
        out: list[str] = []
        for rr in range(self.u):
            if rr:
                out.append(f"    add {ptr}, {ptr}, s2")
            for t in range(self.v):
                out += self.load_c(acc[rr][t], 2 * t, ptr, tmp)
        return out

    def last_odd_k(self, pa: list[str], pb: list[str], tmp: str) -> list[str]:
        """K odd: the products of the last k (pairs whose upper lanes are zero), the pointers
        on it."""
        u, v = self.u, self.v
        acc = self.fp_plan()[0]
        spare = self.fregs()[u * v:]
        out: list[str] = []
        for rr in range(u):
            out += self.pair_of_one(spare[rr], pa[rr], tmp)
        for t in range(v):
            out += self.pair_of_one(spare[u], pb[t], tmp)
            out += [f"    {self.MAC.format(c=acc[rr][t], a=spare[rr], b=spare[u])}"
                    for rr in range(u)]
        return out

    def emit(self, prefix: str) -> list[str]:
        u, v, uk = self.u, self.v, self.uk
        name = self.label(prefix)
        acc, mode, _, _ = self.fp_plan()
        ip = self.int_plan()
        pa, pb, q, r = ip["pa"], ip["pb"], ip["q"], ip["r"]
        main = self.body(uk)
        one = self.body(1)
        spare = self.fregs()[u * v:]
        assert len(spare) > u, f"{self}: no registers for the K-odd tail"
        lines = self.header(name, uk, main, mode) + [
            f"# ({mode} operand registers, {stall_count(main)} load-use stalls).",
            f"{name}:",
            f"    lp.setup x1, a5, {name}_blk_end",
            f"    srli {r}, s0, 1             # k pairs (per block: the tail reuses {q})",
        ]
        if uk > 1:
            lines += [f"    srli {q}, {r}, {uk.bit_length() - 1}",
                      f"    andi {r}, {r}, {uk - 1}"]
        else:
            lines += [f"    mv {q}, {r}"]
        lines += [f"    mv {pa[0]}, a4",
                  f"    bnez s3, {name}_ldc"]
        lines += [self.zero(acc[rr][t]) for rr in range(u) for t in range(v)]
        lines += [f"    j {name}_ptrs", f"{name}_ldc:               # accumulate: from C"]
        lines += self.c_to_accumulators(pa[0], pb[0])
        lines += [f"{name}_ptrs:", f"    mv {pa[0]}, a2"]
        lines += [f"    add {pa[k]}, {pa[k - 1]}, s1" for k in range(1, u)]
        lines += [f"    mv {pb[0]}, a3"]
        lines += [f"    add {pb[k]}, {pb[k - 1]}, s1" for k in range(1, v)]
        lines += [f"    add a3, {pb[v - 1]}, s1"]
        lines += self.k_loops(name, main, one, done=f"{name}_tail")
        lines += [f"{name}_tail:                # K odd: the last k, upper lanes zero",
                  f"    andi {q}, s0, 1",
                  f"    beqz {q}, {name}_store"]
        lines += self.last_odd_k(pa, pb, q)
        lines += [f"{name}_store:", f"    mv {pa[0]}, a4"]
        for rr in range(u):
            if rr:
                lines.append(f"    add {pa[0]}, {pa[0]}, s2")
            for t in range(v):
                lines += self.store_c(acc[rr][t], 2 * t, pa[0], (q, r), spare[0])
        lines += [f"{name}_blk_end:", f"    addi a4, a4, {2 * v}", "    ret"]
        return lines


L0_PERIOD_LOG2 = 7      # 2^7 bytes: a line of each of the L0's 8 sets (isasim/icache.py)
LINE_LOG2 = 4           # 2^4 bytes: an instruction-cache line


@dataclass(frozen=True)
class HResidentStrip(HStrip):
    """The main strip routine of a 16-bit kernel, laid out so that the code every block runs
    stays in a core's 512-byte L0 instruction cache (8 sets x 4 ways x 16-byte lines), with
    the cores kept on different k.

    Only the per-block path sits in the block loop: zeroing, the K loop, the pointer moves,
    the stores.  It starts on a 128-byte boundary (``.p2align 7``, jumped over), so its 30 or
    31 lines fill the L0's sets from set 0 and leave the free way(s) in set 7 (and 6), where
    the line after the loop (the path to the next row strip) lands.  Accumulating from C (the loop's
    start then, set once per strip: no per-block test), a leftover k pair and the K-odd tail
    run code outside it, so their lines are fetched only by the blocks that run them.  The
    path is also shorter than ``HStrip``'s:

    * the operand values live in f8-f15 and 7 of the operand pointers in x8-x15, so the
      assembler compresses their loads (``c.flw``); the pointer bumps are ``c.addi``;
    * the pointers are set up once per strip and moved to the next block by one ``c.add``
      each (A rows back to k = 0, B rows v rows on), the two distances held in registers;
    * two outputs of a row are rounded to the 16-bit format and packed by one ``vfcpka.h.s``
      / ``vfcpka.ah.s`` (each lane rounded as ``fcvt.h.s`` / ``fcvt.ah.s`` rounds) and stored
      by one ``c.fsw``.

    Start skew.  The kernels' other drivers delay core c by c times 1.5 K steps before any
    work, so that the cores read different k (other TCDM banks).  With the instruction cache
    that spread does not survive the first pass over the code: the core in front misses in
    the shared L1 too and waits for L2 on every new line, the ones behind hit the lines it
    brought and catch it up, and the cores then run the K loop in step, all loads of a step
    in the same two banks.  So the first call of this routine in a kernel call (the driver's
    s11, trans_B = 1, says so; it is cleared here) tells whether the kernel's code is cold:
    the routine reads ``mcycle`` at its entry, and a set-up that took more than ``COLD``
    cycles fetched its lines from L2 (pulp-open: about 170 cycles then, 63 from the L0 and
    the L1; gvsoc-2022: 116 and 68).  Cold, it first passes once over the whole block loop on
    its first block's first K iteration (no leftovers, the pointer and C steps zeroed, the
    partial sums stored to C and later overwritten, fflags restored), which brings every line
    of the per-block path into the L0 and the L1 while doing useful work; the conflicts of
    that pass leave the cores a few tens of cycles apart in no set order, so each then waits
    for the next multiple of ``SYNC`` cycles of ``mcycle`` (the cores' common clock) plus
    ``skew`` (one k pair of the K loop) cycles per core id, and resumes the block's K loop
    where the pass left it; from there on every core misses the same lines at the same point,
    in the L1, and the spread holds.  Warm (a kernel called again, its lines in the L1), the
    cores wait for the same grid and skew at once, on the path into the block loop: a pass
    would run one K iteration with every core on the same bank.  The pass is skipped with a
    single K iteration, the skew below 2^12 MACs in the main blocks of the driver's rows
    left (s9).

    The packed stores need C's rows on words (C and 2*M multiples of 4) and the K loop at
    least ``uk`` k pairs: otherwise the routine jumps to ``HStrip``'s (``<name>_general``)."""

    skew: int = 0           # start delay per core id in cycles
    loop_align_log2: int = L0_PERIOD_LOG2     # the block loop's boundary (see the family's)
    # the format's plain strip routine: the fallback, and the strips that do not fit the rules
    GENERAL: ClassVar[type[HStrip]] = HStrip

    def fregs(self) -> tuple[str, ...]:
        """Accumulators in f0-f7, f16-f31; the operands in f8-f15 only (RVC's f registers: a
        larger block's operands are then streamed through them rather than double-banked)."""
        return (FREGS[:8] + FREGS[16:])[:self.u * self.v] + FREGS[8:16]

    def int_plan(self) -> dict[str, object]:
        """a2 and a3 start the A and B chains (the routine's arguments); then x8-x15's a0, a1,
        s0, a5; s1 (the row stride, saved by the routine) ends the B chain when a fifth
        pointer beyond a2, a3 is needed, as it is overwritten last; then t0-t2."""
        others = self.u + self.v - 2
        pool = list(RESIDENT_PTRS[:4] + RESIDENT_PTRS[5:])
        pa = ["a2"] + [pool.pop(0) for _ in range(self.u - 1)]
        pb = ["a3"] + [pool.pop(0) for _ in range(self.v - 1 - (others > 4))]
        pb += ["s1"] if others > 4 else []
        return {"pa": pa, "pb": pb, "q": "t5", "r": "t6"}

    @property
    def eligible(self) -> bool:
        return (1 < self.uk <= 4 and self.v % 2 == 0
                and self.u + self.v <= 2 + len(RESIDENT_PTRS))

    frame: ClassVar[int] = 48   # stack frame: F_S0 ... F_CNEXT (below)

    def emit(self, prefix: str) -> list[str]:
        if not self.eligible:
            return self.GENERAL(self.u, self.v, self.trans, self.uk).emit(prefix)
        # the fallback unrolled x2 at most: x4 of a 4 x 4 block and its block code outgrow the L0
        general = self.GENERAL(self.u, self.v, self.trans, min(self.uk, 2))
        u, v, uk = self.u, self.v, self.uk
        name = self.label(prefix)
        gen = f"{name}_general"
        acc, mode, _, _ = self.fp_plan()
        ip = self.int_plan()
        pa, pb = ip["pa"], ip["pb"]
        main = self.body(uk)
        one = self.body(1)
        frame = self.frame
        # out of line, after the routine (the block loop's start when accumulating, which
        # lp.starti reaches forward only): C into the accumulators
        ldc = [f"{name}_ldc:                # accumulate: from C", "    mv ra, a4"]
        ldc += self.c_to_accumulators("ra", "a7")
        ldc += [f"    j {name}_k"]
        # out of line, before the entry (nothing falls into it): the pairs after the K loop,
        # then the last k when K is odd
        cold = [f"{name}_left:",
                  "    andi a7, t6, 15",
                  f"    beqz a7, {name}_tail",
                  f"    lp.setup x0, a7, {name}_rest_end"]
        cold += [f"    {o.text}" for o in one[:-1]]
        cold += [f"{name}_rest_end:", f"    {one[-1].text}",
                  f"{name}_tail:                # K odd: the last k, upper lanes zero",
                  "    andi a7, t6, 16",
                  f"    beqz a7, {name}_next"]
        cold += self.last_odd_k(pa, pb, "ra")
        cold += [f"    j {name}_next"]
        lines = self.header(name, uk, main, mode) + [
            f"# ({mode} operand registers, {stall_count(main)} load-use stalls).  The block "
            "loop's code stays in the L0",
            "# instruction cache (HResidentStrip in matmul_fp16_gen.py); C not on words or "
            f"fewer than {uk} k pairs:",
            f"# {gen}.",
        ]
        # out of line, before the entry (lp.starti reaches forward only): the cold first pass
        lines += self.first_pass(name) + [
            f"{name}:",
            f"    csrr {R_T0}, mcycle             # (the first strip tells cold lines by its time)",
            f"    srli t5, s0, {uk.bit_length()}            # iterations of the K loop",
            f"    beqz t5, {gen}",
            "    or t6, a4, s2",
            "    andi t6, t6, 2              # C's rows on half words: no packed stores",
            f"    bnez t6, {gen}",
            f"    addi sp, sp, -{frame}",
            f"    sw s0, {F_S0}(sp)",
            f"    sw s1, {F_S1}(sp)",
            f"    sw ra, {F_RA}(sp)",
            f"    lp.endi x1, {name}_blk_last",
            f"    lp.starti x1, {name}_blk",
            f"    beqz s3, {name}_setup",
            f"    lp.starti x1, {name}_ldc        # accumulating: every block starts from C",
            f"{name}_setup:",
            "    srli ra, s0, 1              # k pairs",
            f"    andi t6, ra, {uk - 1}             # pairs after the K loop",
            "    andi a7, s0, 1",
            "    slli a7, a7, 4",
            "    or t6, t6, a7               # + 16 when K is odd: the out-of-line leftovers",
            "    slli ra, ra, 2              # bytes a pointer moves along a block's K",
            f"    neg {R_BACK}, ra                 # A rows: back to k = 0",
            f"    li a7, {v}",
            f"    mul {R_NEXT}, s1, a7",
            f"    sub {R_NEXT}, {R_NEXT}, ra            # B rows: {v} rows on",
            f"    li a7, {u - 1}",
            f"    mul {R_CNEXT}, s2, a7",
            f"    neg {R_CNEXT}, {R_CNEXT}",
            f"    addi {R_CNEXT}, {R_CNEXT}, {2 * v}        # C: from the last row to the next "
            "block",
            f"{name}_start:",
            "    lp.count x1, a5",
            f"    beqz s11, {name}_go",
        ] + self.first_strip(name) + [
            f"{name}_go:",
        ]
        # each pointer the one before plus the row stride s1 (itself a pointer: the last)
        lines += [f"    add {chain[k]}, {chain[k - 1]}, s1" for chain in (pa, pb)
                  for k in range(1, len(chain))]
        lines += [f"    bnez s3, {name}_ldc",
                  f"    j {name}_blk",
                  f"    .p2align {self.loop_align_log2}              "
                  + ("# the loop from an L0 set-0 line" if self.loop_align_log2 == L0_PERIOD_LOG2
                     else "# the block loop on its own lines"),
                  f"{name}_blk:"]
        lines += [self.zero(acc[rr][t]) for rr in range(u) for t in range(v)]
        lines += [f"{name}_k:", f"    lp.setup x0, t5, {name}_main_end", f"{name}_kbody:"]
        lines += [f"    {o.text}" for o in main[:-1]]
        lines += [f"{name}_main_end:", f"    {main[-1].text}",
                  f"    bnez t6, {name}_left",
                  f"{name}_next:"]
        lines += [f"    add {p}, {p}, {R_BACK}" for p in pa]
        lines += [f"    add {p}, {p}, {R_NEXT}" for p in pb]
        lines += self.packed_stores(acc)
        lines += [f"{name}_blk_last:",
                  f"    add a4, a4, {R_CNEXT}",
                  f"    bnez s11, {name}_skew",
                  f"{name}_after:"]
        lines += self.next_row_strip(name)
        lines += [f"{name}_ret:",
                  f"    lw s0, {F_S0}(sp)",
                  f"    lw s1, {F_S1}(sp)",
                  f"    lw ra, {F_RA}(sp)",
                  f"    addi sp, sp, {frame}",
                  "    ret"] + ldc + cold
        body = general.emit(prefix)
        glabel = general.label(prefix)
        # the general routine after this one: the lines a call runs follow the driver's
        return lines + [""] + [ln.replace(glabel, gen) for ln in body]

    def next_row_strip(self, name: str) -> list[str]:
        """The driver's next call, made here: when the driver's rectangle has no leftover
        columns (s8 = 0) and at least 2u rows left (s9), it would only move its A and C
        pointers (s4, s5) u rows on, take u off s9 and call this routine again on the same
        columns (B from s6, s7 blocks); doing that without returning keeps the driver's and
        the set-up's lines out of the L0, which would evict lines of the block loop at each
        call (``family_text`` checks the driver's code for that sequence)."""
        u = self.u
        return [f"    bnez s8, {name}_ret         # leftover columns: back to the driver",
                f"    addi a7, s9, -{2 * u}",
                f"    bltz a7, {name}_ret",
                f"    addi s9, s9, -{u}",
                f"    lw s1, {F_S1}(sp)",
                f"    li a7, {u}",
                "    mul a7, a7, s1",
                "    add s4, s4, a7              # the driver's row strip: A, C u rows on",
                f"    li a7, {u}",
                "    mul a7, a7, s2",
                "    add s5, s5, a7",
                "    mv a2, s4",
                "    mv a3, s6",
                "    mv a4, s5",
                "    mv a5, s7",
                f"    j {name}_start"]

    def packed_stores(self, acc: list[list[str]]) -> list[str]:
        """The block's outputs to C (a4 on its first row, left on its last): per row, pairs
        of outputs packed by vfcpka.<fmt>.s into f8 / f9 alternately, each stored while the next
        pair is packed."""
        pairs = [(rr, t) for rr in range(self.u) for t in range(0, self.v, 2)]
        tmp = self.fregs()[self.u * self.v:][:2]
        out: list[str] = []
        for n in range(len(pairs) + 1):
            if n < len(pairs):
                rr, t = pairs[n]
                out.append(f"    vfcpka.{self.FMT}.s {tmp[n % 2]}, {acc[rr][t]}, "
                           f"{acc[rr][t + 1]}")
            if n:
                pr, pt = pairs[n - 1]
                if pr and pt == 0:
                    out.append("    add a4, a4, s2")
                out.append(f"    fsw {tmp[(n - 1) % 2]}, {2 * pt}(a4)")
        return out

    def delay(self, label: str, tmp: str, sync: int = 0) -> list[str]:
        """Wait for the next multiple of ``sync`` cycles of mcycle plus ``skew`` cycles per core
        id (a7, ra and ``tmp`` change)."""
        sync = sync or SYNC
        return ["    csrr ra, mcycle",
                f"    addi ra, ra, {sync - 1}",
                f"    andi ra, ra, -{sync}           # the next multiple of {sync} cycles",
                "    csrr a7, mhartid",
                "    andi a7, a7, 0x1f           # core id",
                f"    li {tmp}, {self.skew}",
                f"    mul a7, a7, {tmp}",
                "    add ra, ra, a7              # + the core's skew",
                f"{label}:",
                "    csrr a7, mcycle",
                "    sub a7, a7, ra",
                f"    bltz {label}         # (a difference: right across mcycle's wrap)".replace(
                    f"bltz {label}", f"bltz a7, {label}")]

    def first_strip(self, name: str) -> list[str]:
        """The start of the run's first strip (s11 = trans_B = 1, cleared here; see the class
        docstring), on the path into the block loop: below 2^SKEW_MIN_LOG2 MACs nothing; when
        the routine's entry took more than ``COLD`` cycles (its lines came from L2) and the K
        loop has two iterations or more, the pass over the block loop first (``first_pass``);
        else the skew at once."""
        return [
            f"{name}_first:",
            "    mv s11, zero",
            "    mul a7, a5, s0",
            "    mul a7, a7, s9",
            f"    li ra, {self.v}",
            "    mul a7, a7, ra              # MACs in the main blocks of the rows left",
            f"    srli a7, a7, {SKEW_MIN_LOG2}",
            f"    beqz a7, {name}_go",
            "    csrr ra, mcycle",
            f"    sub a7, ra, {R_T0}              # cycles since the routine's entry",
            f"    addi a7, a7, -{COLD}",
            f"    bltz a7, {name}_now         # lines in the L0 or the L1: the skew at once",
            "    addi a7, t5, -2",
            f"    bgez a7, {name}_pass         # lines from L2: the pass first",
            f"{name}_now:",
        ] + self.delay(f"{name}_delay", R_T0)

    def first_pass(self, name: str) -> list[str]:
        """Out of line: the cold first strip's pass over the block loop on its first block's
        first K iteration, then the skew and the rest of the strip."""
        saved = (("t5", F_T5), ("t6", F_T6), (R_BACK, F_BACK), (R_NEXT, F_NEXT),
                 (R_CNEXT, F_CNEXT))
        return [
            f"{name}_pass:",
            f"    sw a5, {F_LEFT}(sp)           # (a5 becomes a pointer)",
            "    csrr a7, fflags",
            f"    sw a7, {F_FFLAGS}(sp)        # the pass's stores leave no flag behind",
        ] + [f"    sw {r}, {off}(sp)" for r, off in saved] + [
            "    li t5, 1                    # one K iteration",
            "    mv t6, zero                 # no leftovers",
            f"    mv {R_BACK}, zero                # the pointers stay on the block's next k",
            f"    mv {R_NEXT}, zero",
            f"    addi {R_CNEXT}, {R_CNEXT}, -{2 * self.v}        # C's pointer back on the block",
            "    li s11, 1                   # (the block loop's end: to the skew)",
            "    li a7, 1",
            "    lp.count x1, a7             # the block loop once",
            f"    j {name}_go",
            f"{name}_skew:                # after the pass: the skew, then the block's other k",
            "    mv s11, zero",
        ] + self.delay(f"{name}_wait", "t6") + [
            f"    lw a7, {F_FFLAGS}(sp)",
            "    csrw fflags, a7",
        ] + [f"    lw {r}, {off}(sp)" for r, off in saved] + [
            f"{name}_resume:",
            f"    lw a7, {F_LEFT}(sp)",
            "    lp.count x1, a7             # the strip's blocks, this one included",
            "    addi a7, t5, -1",
            f"    lp.starti x0, {name}_kbody",
            f"    lp.endi x0, {name}_main_end",
            "    lp.count x0, a7             # the K iterations after the pass's",
            f"    j {name}_kbody"]


# HResidentStrip's operand pointers besides a2 and a3, those in x8-x15 first (compressed
# loads; the routine saves s0 = K and s1 = the row stride and takes them); the distances that
# move them to the next block; the cycle grid on which the cores meet before the skew; the
# register holding mcycle at the routine's entry and the cycles after which its set-up was cold;
# its stack frame (byte offsets): s0, s1, ra, then the first strip's block count, fflags and
# the registers its first pass changes.
RESIDENT_PTRS = ("a0", "a1", "s0", "a5", "s1", "t0", "t1", "t2")
R_BACK = "t4"           # A rows: back to k = 0
R_NEXT = "t3"           # B rows: v rows on
R_CNEXT = "a6"          # C: from the last row of the block to the first of the next
SYNC = 64               # the first strip's cores meet again on a multiple of this many cycles
R_T0 = "t2"             # mcycle at the routine's entry (free until the block's pointers are set)
COLD = 92               # entry to the first strip's test in more cycles: lines from L2
F_S0, F_S1, F_RA, F_LEFT, F_FFLAGS, F_T5, F_T6, F_BACK, F_NEXT, F_CNEXT = range(0, 40, 4)


@dataclass(frozen=True)
class HLaneStrip(HStrip):
    """A strip routine accumulating in the two binary16 lanes (``vfmac.h``), as PULP-TrainLib's
    fp16 SIMD matmuls do: lane 0 sums the even k, lane 1 the odd k, each product added with one
    binary16 rounding; the two lanes are added (``fadd.h``, one rounding) at the store."""

    MAC: ClassVar[str] = "vfmac.h {c}, {a}, {b}"
    ACCUMULATES_IN: ClassVar[str] = "binary16 lanes"

    def load_c(self, acc: str, off: int, ptr: str, tmp: str) -> list[str]:
        """Lane 0 starts at C, lane 1 at +0."""
        return [f"    lhu {tmp}, {off}({ptr})", f"    fmv.w.x {acc}, {tmp}"]

    def store_c(self, acc: str, off: int, ptr: str, tmps: tuple[str, str], ftmp: str
                ) -> list[str]:
        """lane 0 + lane 1, rounded to binary16 (each lane NaN-boxed into a scalar first)."""
        lo, hi = tmps
        return [f"    fmv.x.w {lo}, {acc}", f"    srli {hi}, {lo}, 16",
                f"    fmv.h.x {acc}, {lo}", f"    fmv.h.x {ftmp}, {hi}",
                f"    fadd.h {acc}, {acc}, {ftmp}", f"    fsh {acc}, {off}({ptr})"]


@dataclass(frozen=True)
class BStrip(HStrip):
    """The bfloat16 strip routine (Xf16alt / Xfvec ``.ah``): the same schedule, products of
    bfloat16 pairs (exact in binary32: 8 + 8 significant bits) summed in binary32."""

    MAC: ClassVar[str] = "vfdotpex.s.ah {c}, {a}, {b}"
    FMT: ClassVar[str] = "ah"

    # flh / fsh belong to Xf16: a core with bfloat16 only moves the 16 bits through an x
    # register (fmv.ah.x / fmv.x.ah, Xf16alt)
    def load_c(self, acc: str, off: int, ptr: str, tmp: str) -> list[str]:
        return [f"    lhu {tmp}, {off}({ptr})", f"    fmv.ah.x {acc}, {tmp}",
                f"    fcvt.s.ah {acc}, {acc}"]

    def store_c(self, acc: str, off: int, ptr: str, tmps: tuple[str, str], ftmp: str
                ) -> list[str]:
        return [f"    fcvt.ah.s {acc}, {acc}", f"    fmv.x.ah {tmps[0]}, {acc}",
                f"    sh {tmps[0]}, {off}({ptr})"]


@dataclass(frozen=True)
class BResidentStrip(HResidentStrip, BStrip):
    """The bfloat16 main strip routine with its block loop in the L0 (``HResidentStrip``'s
    layout; ``BStrip``'s dot product, C load and fallback)."""

    GENERAL: ClassVar[type[HStrip]] = BStrip


@dataclass(frozen=True)
class BLaneStrip(HLaneStrip):
    """The bfloat16 lane-accumulating strip routine (``vfmac.ah``): PULP-TrainLib's default
    arithmetic (its ``fp16`` type is ``float16alt``); the 16 bits of C move through an x
    register (no flh / fsh without Xf16)."""

    MAC: ClassVar[str] = "vfmac.ah {c}, {a}, {b}"
    FMT: ClassVar[str] = "ah"
    ACCUMULATES_IN: ClassVar[str] = "bfloat16 lanes"

    def store_c(self, acc: str, off: int, ptr: str, tmps: tuple[str, str], ftmp: str
                ) -> list[str]:
        """lane 0 + lane 1, rounded to bfloat16."""
        lo, hi = tmps
        return [f"    fmv.x.w {lo}, {acc}", f"    srli {hi}, {lo}, 16",
                f"    fmv.ah.x {acc}, {lo}", f"    fmv.ah.x {ftmp}, {hi}",
                f"    fadd.ah {acc}, {acc}, {ftmp}", f"    fmv.x.ah {lo}, {acc}",
                f"    sh {lo}, {off}({ptr})"]


class _OneRegisterFile:
    """What differs on a core with a single register file (zfinx): 16-bit values are loaded
    and stored from the x registers directly (``lh`` / ``sh``; the conversions read the low
    half and ignore the upper bits), +0 is ``mv``, a lone last value needs no move; the
    routine may not take s0 (the K of each block's count is read per block).  It comes first
    in the bases, so that its methods win over the f-register strips'."""

    SAVED: ClassVar[tuple[str, ...]] = tuple(r for r in X_SAVED if r != "s0")

    def load_c(self, acc: str, off: int, ptr: str, tmp: str) -> list[str]:
        return [f"    lh {acc}, {off}({ptr})", f"    fcvt.s.{self.FMT} {acc}, {acc}"]

    def store_c(self, acc: str, off: int, ptr: str, tmps: tuple[str, str], ftmp: str
                ) -> list[str]:
        return [f"    fcvt.{self.FMT}.s {acc}, {acc}", f"    sh {acc}, {off}({ptr})"]

    def zero(self, acc: str) -> str:
        return f"    mv {acc}, zero"

    def pair_of_one(self, dst: str, ptr: str, tmp: str) -> list[str]:
        return [f"    lhu {dst}, 0({ptr})"]


@dataclass(frozen=True)
class HXStrip(_OneRegisterFile, XStrip, HStrip):
    """The binary16 strip routine on a single register file."""


@dataclass(frozen=True)
class BXStrip(_OneRegisterFile, XStrip, BStrip):
    """The bfloat16 strip routine on a single register file."""


@dataclass(frozen=True)
class Fp16Family(Family):
    """The two kernels (split over N and over M) of one binary16 block shape."""

    strip_type: ClassVar[type[Strip]] = HStrip
    layouts: ClassVar[tuple[int, ...]] = (1,)
    elem_log2: ClassVar[int] = 1
    dtype: ClassVar[str] = "fp16"
    family: ClassVar[str] = "matmul_fp16"          # the catalogue family
    fmt_name: ClassVar[str] = "IEEE binary16"
    isa: ClassVar[str] = "rv32imfc_xpulpv2_xf16_xfvec"
    regs_note: ClassVar[str] = ""
    k_stride: ClassVar[tuple[str, ...]] = (
        "    addi s1, s0, 1",
        "    andi s1, s1, -2             # K2: K rounded up to even",
        "    slli s1, s1, 1              # 2*K2: row stride of A and of B (M x K2)",
    )
    generated_by: ClassVar[tuple[str, ...]] = (
        "# GENERATED by asm_kernels/matmul_fp16_gen.py (see its docstring for the layout and",
        "# the rounding, and matmul_gen.py's for the driver and the scheduler); edit the",
        "# generators, not this file.",
    )

    @property
    def prefix(self) -> str:
        return f"mmh_{self.name}"

    @property
    def file(self) -> str:
        return f"matmul_fp16_{self.name}.s"

    @property
    def rounding(self) -> str:
        fmt = self.strip_type.FMT
        return (f"each output accumulated in binary32 by vfdotpex.s.{fmt}, one k pair per "
                f"instruction, then rounded once to {self.fmt_name}")

    @property
    def title(self) -> str:
        p = self.prefix
        return (f"{p}_n / {p}_m - C[N x M] = A[N x K] . B^T (C += ... when accumulate), "
                f"{self.fmt_name} in and out, B stored M x K, rows of A and B K2 = K rounded up "
                f"to even values long; {self.rounding}.{self.regs_note}  Main block {self.u} "
                f"x {self.v} (k pairs unrolled x{self.uk}), rows (_n) or columns (_m) of C "
                f"split over the cores in whole groups of {self.u} rows / {self.v} columns.")


@dataclass(frozen=True)
class Fp16ResidentFamily(Fp16Family):
    """A 16-bit block shape whose main strip routine keeps its block loop in the L0
    instruction cache (``HResidentStrip``; bfloat16: ``Bf16ResidentFamily``)."""

    strip_type: ClassVar[type[Strip]] = HResidentStrip
    # the file and the block loop on 128-byte boundaries (the lines on fixed L0 sets), else
    # the loop on its own 16-byte lines only: per shape, whichever runs faster
    l0_aligned: bool = True

    @property
    def skew_units(self) -> int:
        """The driver does not delay the cores: the main strip does (after a first pass over
        its block loop when the code is cold)."""
        return 0

    def strips(self, trans: int) -> list[Strip]:
        align = L0_PERIOD_LOG2 if self.l0_aligned else LINE_LOG2
        return [replace(st, skew=round(len(st.body(st.uk)) / st.uk), loop_align_log2=align)
                if (st.u, st.v) == (self.u, self.v) else st for st in super().strips(trans)]


@dataclass(frozen=True)
class Fp16LaneFamily(Fp16Family):
    """The binary16-accumulating (vfmac.h) kernels of one block shape."""

    strip_type: ClassVar[type[Strip]] = HLaneStrip

    @property
    def prefix(self) -> str:
        return f"mmhl_{self.name}"

    @property
    def file(self) -> str:
        return f"matmul_fp16_lanes_{self.name}.s"

    @property
    def rounding(self) -> str:
        return ("each output accumulated in two binary16 lanes by vfmac.h (lane 0 the even k, "
                "lane 1 the odd k, one rounding per product), the lanes added by fadd.h at the "
                "end, as PULP-TrainLib's fp16 SIMD kernels accumulate")


@dataclass(frozen=True)
class Bf16LaneFamily(Fp16LaneFamily):
    """The bfloat16-lane-accumulating (vfmac.ah) kernels of one block shape."""

    strip_type: ClassVar[type[Strip]] = BLaneStrip
    family: ClassVar[str] = "matmul_bf16"
    fmt_name: ClassVar[str] = "bfloat16"
    isa: ClassVar[str] = "rv32imfc_xpulpv2_xf16alt_xfvec"

    @property
    def prefix(self) -> str:
        return f"mmbl_{self.name}"

    @property
    def file(self) -> str:
        return f"matmul_bf16_lanes_{self.name}.s"

    @property
    def rounding(self) -> str:
        return ("each output accumulated in two bfloat16 lanes by vfmac.ah (lane 0 the even k, "
                "lane 1 the odd k, one rounding per product), the lanes added by fadd.ah at the "
                "end: the arithmetic of PULP-TrainLib's default fp16 (bfloat16) SIMD kernels")


ONE_REGFILE = ("  On a core with a single register file (zfinx, as PULP-TrainLib's): the pairs "
               "and the binary32 sums live in the x registers, loaded with p.lw / lh, stored with "
               "sh.")


@dataclass(frozen=True)
class Fp16XFamily(Fp16Family):
    """The binary16 kernels of one block shape on a single register file."""

    strip_type: ClassVar[type[Strip]] = HXStrip
    isa: ClassVar[str] = "rv32imc_zfinx_xpulpv2_xf16_xfvec"
    saved_fregs: ClassVar[tuple[str, ...]] = ()
    regs_note: ClassVar[str] = ONE_REGFILE

    @property
    def prefix(self) -> str:
        return f"mmhx_{self.name}"

    @property
    def file(self) -> str:
        return f"matmul_fp16_zfinx_{self.name}.s"


@dataclass(frozen=True)
class Bf16Family(Fp16Family):
    """The bfloat16 kernels (Xf16alt conversions, Xfvec ``.ah`` dot products)."""

    strip_type: ClassVar[type[Strip]] = BStrip
    family: ClassVar[str] = "matmul_bf16"
    fmt_name: ClassVar[str] = "bfloat16"
    isa: ClassVar[str] = "rv32imfc_xpulpv2_xf16alt_xfvec"

    @property
    def prefix(self) -> str:
        return f"mmb_{self.name}"

    @property
    def file(self) -> str:
        return f"matmul_bf16_{self.name}.s"


@dataclass(frozen=True)
class Bf16ResidentFamily(Fp16ResidentFamily, Bf16Family):
    """A bfloat16 block shape whose main strip keeps its block loop in the L0."""

    strip_type: ClassVar[type[Strip]] = BResidentStrip


@dataclass(frozen=True)
class Bf16XFamily(Bf16Family):
    """The bfloat16 kernels on a single register file."""

    strip_type: ClassVar[type[Strip]] = BXStrip
    isa: ClassVar[str] = "rv32imc_zfinx_xpulpv2_xf16alt_xfvec"
    saved_fregs: ClassVar[tuple[str, ...]] = ()
    regs_note: ClassVar[str] = ONE_REGFILE

    @property
    def prefix(self) -> str:
        return f"mmbx_{self.name}"

    @property
    def file(self) -> str:
        return f"matmul_bf16_zfinx_{self.name}.s"


FAMILIES = (
    Fp16Family(1, 1, uk=1, tag="naive", scheduling=(
        "Scheduling: none; one output at a time, one k pair per loop iteration (two loads, one "
        "vfdotpex.s.h that waits for the second load, two pointer bumps): the reference point "
        "of the family.")),
    Fp16Family(2, 4, scheduling=(
        "Scheduling: PULP-TrainLib's mm_fp16_SIMD_2x4 block: per k pair 2 + 4 word loads feed "
        "8 vfdotpex.s.h (16 MACs); 4 pairs per loop iteration with two register banks, so "
        "every load is issued one step ahead of its use.  Leftovers: 2 x 2, 2 x 1, 1 x 4, "
        "1 x 2, 1 x 1 strips.")),
    Fp16ResidentFamily(4, 4, uk=4, scheduling=(
        "Scheduling: 4 x 4 block, 16 binary32 accumulators, the 4 A pairs of a step held and "
        "the 4 B pairs streamed in f8-f15 (compressed loads); per k pair 8 loads and 16 "
        "vfdotpex.s.h (32 MACs), 4 pairs per loop iteration: 104 instructions for 128 MACs.  "
        "The block loop (HResidentStrip) stays in the L0 instruction cache; 64 columns need no "
        "leftover strip, whose first run would pull the cores together again.")),
    Fp16ResidentFamily(4, 6, uk=2, l0_aligned=False, scheduling=(
        "Scheduling: the largest block the register file holds: 24 binary32 accumulators, the "
        "4 A pairs of a step held, the 6 B pairs streamed through a rotating pool of 4 "
        "registers; per k pair 10 loads and 24 vfdotpex.s.h (48 MACs), 2 pairs per loop "
        "iteration.  The block loop (HResidentStrip) stays in the L0 instruction cache.  "
        "Leftover columns (M % 6) go to 4 x 4 / 4 x 2 / 4 x 1 strips.")),
    Fp16ResidentFamily(6, 4, uk=2, scheduling=(
        "Scheduling: the transpose of 4 x 6: 24 accumulators, the 4 B pairs held, the 6 A "
        "pairs streamed through a rotating pool of 4 registers, 2 pairs per loop iteration.  "
        "The block loop (HResidentStrip) stays in the L0 instruction cache.  Leftover rows "
        "(N % 6) go to 4-, 2-, 1-row strips.")),
    Fp16LaneFamily(2, 4, scheduling=(
        "Scheduling: as mmh_2x4, with vfmac.h into packed binary16 accumulators.")),
    Fp16LaneFamily(4, 6, uk=2, scheduling=(
        "Scheduling: as mmh_4x6, with vfmac.h into packed binary16 accumulators.")),
)


X_NOTE = ("  Single register file: the pointers, pairs and binary32 sums share the 19 x registers "
          "the driver leaves (the strip saves the driver's s4-s11 and ra when it uses them); "
          "the pairs are loaded with post-increment p.lw.")

# The single-register-file binary16 kernels: the naive loop, PULP-TrainLib's 2 x 4 and its
# transpose, and 2 x 2.  With B stored M x K a u x v block needs u + v pointers: 2 x 4 takes 6,
# 8 accumulators, 2 held pairs and a pool of 3: all 19; 3 x 3 would need 20, PULP-TrainLib's
# 4 x 8 (32 sums) does not fit either register file.
X_FAMILIES = (
    Fp16XFamily(1, 1, uk=1, tag="naive", scheduling=(
        "Scheduling: one output at a time, one k pair per loop iteration." + X_NOTE)),
    Fp16XFamily(2, 2, scheduling=(
        "Scheduling: 2 x 2 block, per k pair 4 word loads feed 4 vfdotpex.s.h (8 MACs), 4 "
        "pairs per loop iteration with two banks." + X_NOTE)),
    Fp16XFamily(2, 4, scheduling=(
        "Scheduling: PULP-TrainLib's mm_fp16_SIMD_2x4 block: per k pair 6 word loads feed 8 "
        "vfdotpex.s.h (16 MACs); the 2 A pairs held, the 4 B pairs streamed through a rotating "
        "pool of 3 registers." + X_NOTE)),
    Fp16XFamily(4, 2, scheduling=(
        "Scheduling: the transpose of 2 x 4: the 2 B pairs held, the 4 A pairs streamed "
        "through a rotating pool of 3 registers." + X_NOTE)),
)

BF16_FAMILIES = (
    Bf16Family(1, 1, uk=1, tag="naive", scheduling=(
        "Scheduling: one output at a time, one k pair per loop iteration: the reference "
        "point of the family.")),
    Bf16Family(2, 4, scheduling=(
        "Scheduling: PULP-TrainLib's 2 x 4 block, as mmh_2x4 with vfdotpex.s.ah.")),
    Bf16ResidentFamily(4, 4, uk=4, scheduling=(
        "Scheduling: as mmh_4x4 with vfdotpex.s.ah: 16 binary32 accumulators, the 4 A pairs "
        "of a step held and the 4 B pairs streamed in f8-f15, 4 pairs per loop iteration; "
        "the block loop (HResidentStrip) stays in the L0 instruction cache.")),
    Bf16ResidentFamily(4, 6, uk=2, scheduling=(
        "Scheduling: the largest block the register file holds, as mmh_4x6 with "
        "vfdotpex.s.ah; the block loop (HResidentStrip) stays in the L0 instruction cache.")),
    Bf16ResidentFamily(6, 4, uk=2, scheduling=(
        "Scheduling: the transpose of 4 x 6, as mmh_6x4 with vfdotpex.s.ah; the block loop "
        "(HResidentStrip) stays in the L0 instruction cache.")),
    Bf16LaneFamily(2, 4, scheduling=(
        "Scheduling: as mmb_2x4, with vfmac.ah into packed bfloat16 accumulators.")),
    Bf16LaneFamily(4, 6, uk=2, scheduling=(
        "Scheduling: as mmb_4x6, with vfmac.ah into packed bfloat16 accumulators.")),
    Bf16XFamily(1, 1, uk=1, tag="naive", scheduling=(
        "Scheduling: one output at a time, one k pair per loop iteration." + X_NOTE)),
    Bf16XFamily(2, 4, scheduling=(
        "Scheduling: PULP-TrainLib's 2 x 4 block, as mmhx_2x4 with vfdotpex.s.ah." + X_NOTE)),
    Bf16XFamily(4, 2, scheduling=(
        "Scheduling: the transpose of 2 x 4, as mmhx_4x2 with vfdotpex.s.ah." + X_NOTE)),
)


def catalogue_toml(families: tuple[Fp16Family, ...], what: str) -> str:
    out = [f"# The {what} matmul family (packed SIMD, vfdotpex), GENERATED by",
           "# asm_kernels/matmul_fp16_gen.py (python -m asm_kernels.matmul_fp16_gen).  Layout and",
           "# rounding: that module's docstring.", ""]
    for fam in families:
        regs = ", FP values in x registers (zfinx)" if fam.saved_fregs == () else ""
        for dim, what, g in (("N", "rows", fam.u), ("M", "columns", fam.v)):
            kname = f"{fam.prefix}_{dim.lower()}"
            out += ["[[kernel]]", f'name = "{kname}"', f'file = "{fam.file}"',
                    f'entry = "{kname}"', f'family = "{fam.family}"', 'args = "matmul"',
                    f"unroll = [{fam.u}, {fam.v}]", f'parallel = "{dim}"',
                    'constraints = ["N >= 1", "M >= 1", "K >= 1", "trans_B == 1"]',
                    f'isa = "{fam.isa}"',
                    f'doc = "{fam.fmt_name} (accumulated in {fam.strip_type.ACCUMULATES_IN})'
                    f'{regs}, {fam.u}x{fam.v} block, k pairs x{fam.uk}, {what} of C split over '
                    f'the cores in groups of {g}"', ""]
    return "\n".join(out)


def family_text(fam: Family) -> str:
    """The ``.s`` file of a family.  A resident family's driver does not skew the cores (its
    main strip does): its header says so, and the main strip's use of s11 (trans_B, read by
    the driver before covering the rectangle) as its first-call flag is checked against the
    driver's code."""
    text = emit_family(fam)
    if not isinstance(fam, Fp16ResidentFamily):
        return text
    p = fam.prefix
    cover = text[text.index(f"\n{p}_cover_t1:"):text.index(f"\n{p}_done:")]
    assert "s11" not in cover, f"{p}: the driver uses s11 while covering the rectangle"
    # HResidentStrip.next_row_strip repeats the driver's step between two main strips
    main = HResidentStrip(fam.u, fam.v, 1, fam.uk).label(p)
    rows = f"{p}_t1_rows{fam.u}"
    step = [f"{rows}_strip:", "    mv a2, s4", "    mv a3, s6", "    mv a4, s5",
            f"    beqz s7, {rows}_c{fam.v}", "    mv a5, s7", f"    jal {main}",
            f"{rows}_c{fam.v}:", "    mv s10, s8"]
    assert "\n".join(step) in cover, f"{p}: the driver's call of {main} changed"
    after = cover[cover.index(f"{rows}_c1_skip:"):]
    for ln in ("    add s4, s4, t0", "    add s5, s5, t0", f"    addi s9, s9, -{fam.u}",
               f"    bgeu s9, t0, {rows}_strip"):
        assert ln in after.split(f"{rows}_skip:")[0], f"{p}: the driver's row step changed"
    text = _shortcuts(text, fam)
    assert text.count("\n    .text\n") == 1
    if fam.l0_aligned:
        text = text.replace("\n    .text\n", f"\n    .text\n    .p2align {L0_PERIOD_LOG2}"
                            "                  # the kernel's lines on fixed L0 sets\n")
    lines = text.split("\n")
    first = next(i for i, ln in enumerate(lines) if ln.startswith("# Start skew:"))
    end = lines.index("#", first)
    skew = next(st.skew for st in fam.strips(1) if (st.u, st.v) == (fam.u, fam.v))
    note = _wrap(
        f"Start skew: the driver starts every core at once; the main strip routine, on its "
        f"first call in a kernel call with at least 2^{SKEW_MIN_LOG2} MACs, waits for the "
        f"next multiple of {SYNC} cycles of mcycle plus {skew}*c cycles on core c (one k pair "
        f"of the main block), so that neighbouring cores work on different k, whose A and B "
        f"values sit in other TCDM banks when K % 16 == 0.  When its set-up took more than "
        f"{COLD} cycles (the code came from L2), it first passes once over its block loop on "
        f"the first block's first K iteration (so that every core's L0 and the shared L1 "
        f"hold the loop's lines) and skews after it: a skew before would not last, the cores "
        f"behind catch up with the one in front while it waits for the L2 on each new line.")
    return "\n".join(lines[:first] + ["# " + ln for ln in note] + lines[end:])


def _shortcuts(text: str, fam: Fp16ResidentFamily) -> str:
    """The driver of a resident family without the lines its main path need not fetch: the
    start skew (none: the main strip skews), and the tests of the leftover column and row
    classes when there are none (each sits on a line of its own between calls of the smaller
    strips; every line a call fetches evicts one of the L0, mostly a line of the block loop)."""
    p = fam.prefix
    rows = f"{p}_t1_rows{fam.u}"
    skew = text[text.index(f"{p}_rect:\n") + len(f"{p}_rect:\n"):text.index(f"{p}_go:\n")]
    assert "    li t3, 0\n" in skew and skew.endswith(f"{p}_skew_end:\n    nop\n"), skew
    text = text.replace(skew, "", 1)
    for after, shortcut in (
            (f"{rows}_c{fam.v}:\n    mv s10, s8\n",
             f"    beqz s10, {rows}_c1_skip           # no leftover columns\n"),
            (f"    bgeu s9, t0, {rows}_strip\n",
             f"    beqz s9, {p}_done              # no leftover rows\n")):
        assert text.count(after) == 1, after
        text = text.replace(after, after + shortcut)
    return text


def outputs() -> dict[Path, str]:
    """Every generated file and its content."""
    files = {HERE / fam.file: family_text(fam)
             for fam in FAMILIES + X_FAMILIES + BF16_FAMILIES}
    files[HERE / "matmul_fp16.toml"] = catalogue_toml(FAMILIES + X_FAMILIES, "binary16")
    files[HERE / "matmul_bf16.toml"] = catalogue_toml(BF16_FAMILIES, "bfloat16")
    return files


def main() -> int:
    for path, text in outputs().items():
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
            print(f"wrote {path.relative_to(HERE.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
