"""Translated code: a program's straight-line private code compiled to machine code.

Why.  The engine's loop interprets: for every instruction it loads the record, dispatches on the
operation and keeps its many live values in memory, about 135 host instructions for an ``addi``.
Most instructions of a compute kernel touch only the core's own state (registers, scoreboard,
profile counts) or read a TCDM word, and for those everything but the register values is known
when the program is loaded.  This module writes, per program, a numba function per *run* of
such instructions, straight-line Python with the operation, registers, immediates and slots as
constants; the ALU and branch expressions are read from ``isasim.semantics``, which the loop
uses too, so the semantics have one definition.

What a run is.  A maximal stretch along the fall-through links (``F_NEXT``) of RV32I
computational instructions, ``mul``, the Xpulp ALU/MAC/SIMD operations, the F operations (but
``fdiv``/``fsqrt``, which occupy the FPU, and all of them when the FPU is shared, since those
are arbitrated) and word loads at ``rs1 + imm``, ended by any other instruction or just after a
conditional branch or ``jal``.  It starts at a *leader* (a branch or jump target, a hardware
loop's start, the instruction after anything that ends a run or after a loop's end) and may
also be entered at each of its loads: a core that parked there resumes in translated code.

How it stays exact.  The generated code does what the loop would, with the same effects on the
state the results are made of: the scoreboard stall and its category, the result and its ready
cycle, the per-instruction profile, fflags, the branch penalty, the taken-branch count, the ring
of run starts, a load's bank claim or park under the loop's horizon.  Where the loop would do
anything else it stops before that instruction and hands it back: the cycle limit, an active
hardware-loop end (the back edge is the loop's business), the FPU off (``mstatus.FS``) or an
invalid dynamic rounding mode (both trap), an fp32 multiply-add, add, subtract or multiply
that the fast path cannot round (see ``_fast_fma``), a load outside the TCDM or misaligned.  The
loop calls translated code only when nothing is traced and no store has written into the text
(the condition under which it follows its links).  ``tests/engine/test_translate.py`` runs programs
both ways and compares every observable.

The call.  The loop is compiled once for all programs, so it calls a run through its address
(``call_translated``: the function numba compiles for the run's cfunc, without the wrapper),
the call's few values as arguments and the arrays' addresses waiting in ``CL``.  Each run is a
cfunc of its own, entered straight from the table of entry points (one dispatching function
would pay, at every call, for the stack slots of all the calls it may make: a compute kernel on
several cores calls translated code at nearly every load).  A run returns an *exit*:
``exits[e]`` gives the pc and slot to continue at, the instructions it retired, the exit's kind
and the entry to chain to; it leaves the core's cycle in ``CS_T``.
The engine chains the runs (``engine.run_translated``).
"""

from __future__ import annotations

import ast
import copy
import functools
import hashlib
import importlib.util
import inspect
import os
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from isasim import layout as L
from isasim import opcodes as O
from isasim import semantics, simd
from isasim.semantics import fp_needs_rm

MAX_RUN = 256          # instructions per run (longer straight code is split; compile time)
ARGS = 8               # a run's int64 arguments: _PARAMS
ENTRY_FIELDS = 4       # entries: function address, instruction index, first pc, end pc
EXIT_FIELDS = 5        # exits: pc, slot, instructions retired, EXIT_* kind, entry to chain to
EXIT_ON, EXIT_TAKEN, EXIT_PARKED = 0, 1, 2   # go on at pc / a taken branch or jump / parked

_ALU_OPS = frozenset(range(O.OP_ADDI, O.OP_AND + 1)) | {O.OP_LUI, O.OP_AUIPC, O.OP_MUL}
_XPULP_OPS = (frozenset(range(O.OP_MAC, O.OP_MACHHURN + 1))
              | frozenset(range(simd.FIRST, simd.LAST + 1)))
_FP_OPS = frozenset(range(O.OP_FMADD_S, O.OP_FMV_W_X + 1)) - {O.OP_FDIV_S, O.OP_FSQRT_S}
_BRANCH_OPS = frozenset(range(O.OP_BEQ, O.OP_BGEU + 1)) | {O.OP_BEQIMM, O.OP_BNEIMM}


# ---------------------------------------------------------------------------------------------
# the call from the engine, and the arrays seen from the generated code
# ---------------------------------------------------------------------------------------------
@intrinsic
def call_translated(typingctx, addr, a0, a1, a2, a3, a4, a5, a6, a7):
    """Call the run at ``addr`` with its 8 int64 arguments; returns the exit it left by.

    ``addr`` is the run's numba function itself, not its cfunc wrapper, which would add about
    35 host instructions to every call (the argument shuffle, the status check, the result's
    slot): numba's convention returns a status and passes the result's and the exception's
    slots first.  The status is not looked at: a run raises nothing (the only raising
    operations in what it compiles in are integer divisions of the shared semantics, which
    test for zero first).
    """
    sig = types.int64(*([types.int64] * (1 + ARGS)))

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        i8p = ir.IntType(8).as_pointer()
        fnty = ir.FunctionType(ir.IntType(32), [i64.as_pointer(), i8p.as_pointer()]
                               + [i64] * ARGS)
        fn = builder.inttoptr(args[0], fnty.as_pointer())
        # in the caller's entry block: an alloca in its loop would grow the stack at each call
        ret = cgutils.alloca_once(builder, i64)
        exc = cgutils.alloca_once(builder, i8p)
        builder.call(fn, [ret, exc] + list(args[1:]))
        return builder.load(ret)

    return sig, codegen


# ---------------------------------------------------------------------------------------------
# the shared semantics, specialised
# ---------------------------------------------------------------------------------------------
class _Specialised:
    """The expression a semantics function (``alu_result``, ``branch_taken``) returns for one
    operation, read from its source: the function is a chain of ``if op == O.OP_X: return e``.

    Writing that expression into the generated code, with the operands' locals and the
    immediate substituted, keeps one definition of the semantics while sparing numba a typed
    call per instruction (each costs it several milliseconds of compile time).
    """

    def __init__(self, func) -> None:
        tree = ast.parse(textwrap.dedent(inspect.getsource(func.py_func)))
        fn = tree.body[0]
        self.params = [a.arg for a in fn.args.args]
        self.cases: dict[int, ast.expr] = {}
        self.default: ast.expr | None = None
        for stmt in fn.body:
            if isinstance(stmt, ast.If):
                for op in self._ops(stmt.test):
                    self.cases[op] = stmt.body[0].value
            elif isinstance(stmt, ast.Return):
                self.default = stmt.value

    @staticmethod
    def _ops(test: ast.expr) -> list[int]:
        tests = test.values if isinstance(test, ast.BoolOp) else [test]
        return [getattr(O, t.comparators[0].attr) for t in tests]

    def __call__(self, op: int, **operands: str) -> str:
        expr = self.cases.get(op, self.default)

        class Substitute(ast.NodeTransformer):
            def visit_Name(self, node: ast.Name) -> ast.expr:
                if node.id in operands:
                    return ast.parse(f"({operands[node.id]})", mode="eval").body
                if node.id == "M32":
                    return ast.Constant(0xFFFFFFFF)
                return node

        return ast.unparse(Substitute().visit(copy.deepcopy(expr)))


alu_expression = _Specialised(semantics.alu_result)
branch_expression = _Specialised(semantics.branch_taken)


def _fast_fma(op: int, rm: int) -> bool:
    """An fp32 fused multiply-add, add, subtract or multiply in round to nearest even (static,
    or dynamic: checked when it runs).  The run does it by ``semantics.fma_family_fast``, which
    numba inlines, and leaves what that path declines (subnormal, infinite or NaN operands, a
    result out of the normal range) to the loop, which is exact for every case.  A call instead
    would cost its argument and result traffic, and a result slot that numba zeroes at every
    entry of the run (on 8 cores a run is entered at nearly every load); the general function's
    call as a fallback would cost another.  Inlining costs compile time: about a second more to
    translate the 8-core matmul."""
    return O.OP_FMADD_S <= op <= O.OP_FMUL_S and rm in (0, 7)


def _element(builder, base, index):
    i64 = ir.IntType(64)
    return builder.gep(builder.inttoptr(base, i64.as_pointer()), [index])


@intrinsic
def ld(typingctx, base, index):
    """``base[index]`` of the int64 array at host address ``base``."""
    def codegen(context, builder, signature, args):
        return builder.load(_element(builder, *args))

    return types.int64(types.int64, types.int64), codegen


@intrinsic
def st(typingctx, base, index, value):
    """``base[index] = value`` in the int64 array at host address ``base``."""
    def codegen(context, builder, signature, args):
        builder.store(args[2], _element(builder, args[0], args[1]))
        return context.get_dummy_value()

    return types.none(types.int64, types.int64, types.int64), codegen


@intrinsic
def ld_word(typingctx, address):
    """The 32-bit word at host byte ``address``, zero-extended (a register's bit pattern)."""
    def codegen(context, builder, signature, args):
        i32 = ir.IntType(32)
        word = builder.load(builder.inttoptr(args[0], i32.as_pointer()))
        return builder.zext(word, ir.IntType(64))

    return types.int64(types.int64), codegen


# ---------------------------------------------------------------------------------------------
# finding the runs
# ---------------------------------------------------------------------------------------------
def _kind(rec: np.ndarray, fpu_shared: bool) -> str | None:
    """How an instruction takes part in runs: 'load' (a word load at rs1 + imm, which may have
    to wait for a scheduling round: it starts a run, so that a core granted its access resumes
    in translated code), 'body' (private, falls through), 'end' (a branch or jal, which ends a
    run) or None (left to the loop)."""
    op = int(rec[L.F_OP])
    cls = int(rec[L.F_CLS])
    if op == O.OP_MEM:
        return "load" if int(rec[L.F_MEM]) & ~L.MEM_SIGNED == L.MEM_WORD_LOAD else None
    if op in _ALU_OPS or op in _XPULP_OPS:
        return "body"
    if op in _FP_OPS and cls in (L.TC_FPU, L.TC_FPU_OTHER):
        # a static rounding mode of 5 or 6 traps: the loop reports it
        return None if fpu_shared or int(rec[L.F_RM]) in (5, 6) else "body"
    if op in _BRANCH_OPS or op == O.OP_JAL:
        return "end"
    return None


@dataclass(frozen=True)
class Run:
    slots: tuple[int, ...]
    # exits exit_base + 2i: stopped before instruction i, + 2i + 1: parked at (load) i,
    # + 2n: fell through, + 2n + 1: taken
    exit_base: int


def _hwloop_bounds(rec: np.ndarray, pc: int) -> tuple[int | None, int | None]:
    """(start, end) pcs a hardware-loop instruction sets statically (as ``exec_system`` does)."""
    op, imm, ln = int(rec[L.F_OP]), int(rec[L.F_IMM]), int(rec[L.F_LEN])
    if op in (O.OP_LP_SETUP, O.OP_LP_SETUPI, O.OP_CV_SETUP, O.OP_CV_SETUPI):
        return pc + ln, pc + imm - (4 if op >= O.OP_CV_SETUP else 0)
    if op == O.OP_LP_STARTI:
        return pc + imm, None
    if op == O.OP_LP_ENDI:
        return None, pc + imm
    if op == O.OP_CV_ENDI:
        return None, pc + imm - 4
    return None, None


def find_runs(code: np.ndarray, slot_pc: list[int], entries: list[int],
              fpu_shared: bool) -> list[Run]:
    """The runs of a predecoded program (``code``: int32[nslots, NF], linked).

    Leaders are the entries, branch and jump targets, the instructions after anything that
    ends a run, and the starts of hardware loops and the instructions after their ends, so that
    a loop body's last instruction ends a run (the run hands it to the loop, which takes the
    back edge).  A run may also be entered at each of its loads (see ``entry_points``).
    """
    kinds = [_kind(rec, fpu_shared) for rec in code]
    for s, rec in enumerate(code):
        if kinds[s] == "end" and (slot_pc[s] + int(rec[L.F_IMM])) & 2:
            kinds[s] = None    # its target may cost the loop's unaligned-target cycle
    slot_at = {pc: s for s, pc in enumerate(slot_pc)}
    leaders = {s for s in entries if 0 <= s < len(kinds)}
    for s, rec in enumerate(code):
        tgt, nxt = int(rec[L.F_TGT]), int(rec[L.F_NEXT])
        if tgt >= 0:
            leaders.add(tgt)
        if nxt >= 0 and kinds[s] not in ("body", "load"):
            leaders.add(nxt)
        if int(rec[L.F_CLS]) == L.TC_HWLOOP:
            start, end = _hwloop_bounds(rec, slot_pc[s])
            if start in slot_at:
                leaders.add(slot_at[start])
            if end in slot_at and int(code[slot_at[end], L.F_NEXT]) >= 0:
                leaders.add(int(code[slot_at[end], L.F_NEXT]))
    runs: list[Run] = []
    base = 0
    for lead in sorted(leaders, key=lambda s: slot_pc[s]):
        if kinds[lead] is None:
            continue
        slots = [lead]
        while kinds[slots[-1]] != "end" and len(slots) < MAX_RUN:
            nxt = int(code[slots[-1], L.F_NEXT])
            if nxt < 0 or nxt in leaders or kinds[nxt] is None:
                break
            slots.append(nxt)
        runs.append(Run(tuple(slots), base))
        base += 2 * len(slots) + 2
    return runs


def entry_points(code: np.ndarray, runs: list[Run]) -> list[tuple[int, int]]:
    """The places translated code is entered at, as (run, instruction index): each run's first
    instruction (entry id = run id), and each later load, where a core a scheduling round
    granted its access resumes (entry id k is the ``F_TX`` of its slot)."""
    out = [(rid, 0) for rid in range(len(runs))]
    for rid, run in enumerate(runs):
        out.extend((rid, i) for i, s in enumerate(run.slots)
                   if i > 0 and _kind(code[s], False) == "load")
    return out


def exit_table(code: np.ndarray, slot_pc: list[int], runs: list[Run]) -> np.ndarray:
    """int64[exits * EXIT_FIELDS]: where each exit continues (pc, slot), how many instructions
    of its run retired, its kind (EXIT_*), and the run that starts at the continuation (-1:
    none, or the loop must take over), which the engine goes on with directly (a run's entry
    id is its run id)."""
    run_at = {run.slots[0]: rid for rid, run in enumerate(runs)}

    rows: list[tuple[int, int, int, int, int]] = []
    for run in runs:
        for i, s in enumerate(run.slots):
            rows.append((slot_pc[s], s, i, EXIT_ON, -1))
            rows.append((slot_pc[s], s, i, EXIT_PARKED, -1))
        last = code[run.slots[-1]]
        pc = slot_pc[run.slots[-1]]
        n = len(run.slots)
        nxt, tgt = int(last[L.F_NEXT]), int(last[L.F_TGT])
        rows.append(((pc + int(last[L.F_LEN])) & 0xFFFFFFFF, nxt, n, EXIT_ON, run_at.get(nxt, -1)))
        rows.append(((pc + int(last[L.F_IMM])) & 0xFFFFFFFF, tgt, n, EXIT_TAKEN,
                     run_at.get(tgt, -1)))
    return np.array(rows, dtype=np.int64).reshape(-1)


# ---------------------------------------------------------------------------------------------
# writing the code
# ---------------------------------------------------------------------------------------------
_PARAMS = "start, t, granted, c, pb, horizon, max_cycles, CL"     # of each run's cfunc
_ARRAYS = ("R", "RDY", "CS", "CAT", "PCS", "CFG", "TCDM")     # their addresses at CL[L_TX_ARRAYS]
_HEAD = '''\
"""Generated by isasim.translate: the translated runs of one program.  Do not edit."""
from numba import cfunc, int64, types

from isasim.semantics import exec_scalar, fma_family_fast
from isasim.translate import ld, ld_word, st
'''


def _add(array: str, index: str, amount: str) -> str:
    return f"st({array}, {index}, ld({array}, {index}) + {amount})"


class _Writer:
    """Source of one run's function.  Every local is assigned once (numba's SSA pass is slow on
    names with many definitions): each instruction's names carry the line it starts at, and
    ``val``/``rdy`` say which local holds a register's value and scoreboard entry once read or
    written.
    """

    def __init__(self, run: Run, code: np.ndarray, slot_pc: list[int], disasm) -> None:
        self.run, self.code, self.slot_pc, self.disasm = run, code, slot_pc, disasm
        self.lines: list[str] = []
        self.val: dict[int, str] = {}  # register -> local holding its value
        self.rdy: dict[int, str] = {}  # register -> local holding its scoreboard entry
        self.t = "t"                   # local holding the core's cycle
        self.shift = 0                 # indentation of the current segment

    def emit(self, text: str, depth: int = 1) -> None:
        self.lines.append("    " * (depth + self.shift) + text)

    def leave(self, exit_id: int | str, t: str, depth: int = 1) -> None:
        self.emit(f"st(CS, cb + {L.CS_T}, {t})", depth)
        self.emit(f"return {exit_id}", depth)

    def value(self, r: int) -> str:
        if r in (0, L.R_ZERO):      # x0 is never written (its writes go to R_SINK)
            return "0"
        if r not in self.val:
            self.val[r] = f"x{r}"
            self.emit(f"{self.val[r]} = ld(R, rb + {r})")
        return self.val[r]

    def ready(self, r: int) -> str:
        if r not in self.rdy:
            self.rdy[r] = f"y{r}"
            self.emit(f"{self.rdy[r]} = ld(RDY, rb + {r})")
        return self.rdy[r]

    def write(self, rid: int) -> list[str]:
        """The run's cfunc ``run<rid>(start, ...)``: executes from instruction ``start``, an
        entry (0 or a load); each segment, from an entry to the next, runs if ``start`` is at
        or before its entry, and keeps no register in a local across entries."""
        run, code = self.run, self.code
        recs = [code[s] for s in run.slots]
        first, last = self.slot_pc[run.slots[0]], self.slot_pc[run.slots[-1]]
        self.lines.append(f"\n\n@cfunc(types.int64(*([types.int64] * {ARGS})), cache=True)\n"
                          f"def run{rid}({_PARAMS}):")
        self.emit(f'"""{first:#010x} .. {last:#010x}"""')
        for k, name in enumerate(_ARRAYS):
            self.emit(f"{name} = ld(CL, {L.L_TX_ARRAYS + k})")
        self.emit(f"rb = c * {L.RS}")
        self.emit(f"cb = c * {L.NCS}")
        # an active hardware loop ending in the run: its back edge is the loop's business, so
        # the run stops before that instruction (at once when it is not the last one)
        self.emit(f"lpe0 = ld(CS, cb + {L.CS_LPE0}) if ld(CS, cb + {L.CS_LPC0}) != 0 else -1")
        self.emit(f"lpe1 = ld(CS, cb + {L.CS_LPE1}) if ld(CS, cb + {L.CS_LPC1}) != 0 else -1")
        self.emit(f"if {first} <= lpe0 < {last} or {first} <= lpe1 < {last}:")
        self.leave(f"{run.exit_base} + 2 * start", "t", 2)
        kinds = [_kind(r, False) for r in recs]
        if "load" in kinds:
            for name, key in (("tcdm_base", L.K_TCDM_BASE), ("tcdm_size", L.K_TCDM_SIZE),
                              ("policy", L.K_POLICY)):
                self.emit(f"{name} = ld(CFG, {key})")
            self.emit(f"banks = ld(CFG, {L.K_NBANKS}) - 1")
            self.emit(f"load_rl = ((1 + ld(CFG, {L.K_LOAD_LAT})) << {L.RDY_SHIFT}) | "
                      f"{L.C_LOAD_USE}")
        if any(int(r[L.F_OP]) in _FP_OPS for r in recs):
            self.emit(f"fpu_off = (ld(CS, cb + {L.CS_MSTATUS}) >> 13) & 3 == 0")
            self.emit(f"frm = ld(CS, cb + {L.CS_FRM})")
            self.emit(f"fpubusy = ld(CS, cb + {L.CS_FPUBUSY})")
        classes = {int(r[L.F_CLS]) for r, k in zip(recs, kinds, strict=True) if k != "load"}
        for cls in sorted(classes):
            self.emit(f"rl{cls} = ld(CL, {L.L_LATWHY + cls})")
        starts = [i for i, k in enumerate(kinds) if i == 0 or k == "load"]
        for j, begin in enumerate(starts):
            end = starts[j + 1] if j + 1 < len(starts) else len(run.slots)
            self.shift = 0
            if end < len(run.slots):
                # the last segment runs whatever the entry, and ends in a return on every path
                self.emit(f"if start <= {begin}:")
                self.shift = 1
            self.val, self.rdy = {}, {}
            for i in range(begin, end):
                self.instruction(i, run.slots[i], begin)
            if end < len(run.slots):
                self.emit(f"t = {self.t}")
                self.t = "t"
        self.shift = 0
        return self.lines

    def instruction(self, i: int, s: int, entry: int) -> None:
        """Instruction i of the run (slot s), in the segment entered at instruction ``entry``."""
        rec, p, t = self.code[s], f"i{i}_", self.t
        op, cls, wd = int(rec[L.F_OP]), int(rec[L.F_CLS]), int(rec[L.F_WD])
        s1, s2, s3 = int(rec[L.F_S1]), int(rec[L.F_S2]), int(rec[L.F_S3])
        imm, imm2, rm = int(rec[L.F_IMM]), int(rec[L.F_IMM2]), int(rec[L.F_RM])
        pc, n = self.slot_pc[s], len(self.run.slots)
        before = self.run.exit_base + 2 * i
        is_fp = op in _FP_OPS
        self.emit(f"# {pc:#010x}: {self.disasm(s)}")
        if i > 0:
            self.emit(f"if {t} > max_cycles:")
            self.leave(before, t, 2)
        if i == n - 1:
            self.emit(f"if lpe0 == {pc} or lpe1 == {pc}:")
            self.leave(before, t, 2)
        rmv = str(rm)
        if is_fp:
            self.emit("if fpu_off:")
            self.leave(before, t, 2)
            if rm == 7:
                rmv = "frm"
                if _fast_fma(op, rm):
                    # only round to nearest even has the fast path; the loop does the rest
                    self.emit(f"if {rmv} != 0:")
                    self.leave(before, t, 2)
                elif fp_needs_rm.py_func(op):
                    self.emit(f"if {rmv} > 4:")
                    self.leave(before, t, 2)
        # scoreboard: the latest source, or a busy FPU, delays the issue
        sources = [r for r in (s1, s2, s3) if r not in (0, L.R_ZERO)]  # never late
        issue, why = t, "0"
        if sources:
            ready = ", ".join(self.ready(r) for r in sources)
            self.emit(f"{p}r = {ready if len(sources) == 1 else f'max({ready})'}")
            self.emit(f"{p}s = max({t}, {p}r >> {L.RDY_SHIFT})")
            issue, why = f"{p}s", f"{p}r & {L.RDY_MASK}"
        if is_fp:
            self.emit(f"{p}sf = max({issue}, fpubusy)")
            self.emit(f"{p}w = {L.C_FPU_STRUCT} if fpubusy > {issue} else {why}")
            issue, why = f"{p}sf", f"{p}w"
        if issue != t:
            self.emit(f"if {issue} > {t}:")
            self.emit(_add("CAT", f"c * {L.NCAT} + ({why})", f"{issue} - {t}"), 2)
            self.emit(_add("PCS", f"(pb + {s}) * {L.NPS} + {L.PS_STALL} + ({why})",
                           f"{issue} - {t}"), 2)
        a, b = self.value(s1), self.value(s2)
        self.t = f"{p}t"
        if op == O.OP_MEM:
            granted = "granted" if i == 0 else f"(granted if start == {i} else 0)"
            self.load(i, s, a, imm, wd, issue, before, granted if i == entry else "0")
            return
        if op in _BRANCH_OPS:
            other = str(imm2 & 0xFFFFFFFF) if op in (O.OP_BEQIMM, O.OP_BNEIMM) else b
            self.emit(self.count(s))
            self.emit(f"if {branch_expression(op, a=a, b=other)}:")
            self.taken(s, issue, L.K_BRANCH_PEN, L.C_BRANCH, n, 2)
            self.emit(f"{self.t} = {issue} + 1")
            self.leave(self.run.exit_base + 2 * n, self.t)
            return
        if op == O.OP_JAL:
            self.retire(wd, f"rl{cls}", issue, str((pc + int(rec[L.F_LEN])) & 0xFFFFFFFF))
            self.emit(self.count(s))
            self.taken(s, issue, L.K_JUMP_PEN, L.C_JUMP, n, 1)
            return
        if op in _ALU_OPS:
            result = alu_expression(op, a=a, b=b, imm=str(imm), pc=str(pc))
        else:
            c3 = self.value(s3)
            # int64(): a literal argument would make numba compile a specialisation per call
            general = (f"exec_scalar(int64({op}), {a}, {b}, {c3}, int64({imm}), int64({imm2}), "
                       f"int64({rmv if is_fp else 0}))")
            if _fast_fma(op, rm):
                self.emit(f"{p}ok, {p}v, {p}fl = fma_family_fast(int64({op}), {a}, {b}, {c3})")
                self.emit(f"if not {p}ok:")
                self.leave(before, issue, 2)
            else:
                self.emit(f"{p}v, {p}fl, {p}x = {general}")
            self.emit(f"if {p}fl != 0:")
            self.emit(f"st(CS, cb + {L.CS_FFLAGS}, ld(CS, cb + {L.CS_FFLAGS}) | {p}fl)", 2)
            result = f"{p}v"
        self.retire(wd, f"rl{cls}", issue, result)
        self.emit(self.count(s))
        self.emit(f"{self.t} = {issue} + 1")
        if i == n - 1:
            self.leave(self.run.exit_base + 2 * n, self.t)

    def load(self, i: int, s: int, a: str, imm: int, wd: int, issue: str, before: int,
             granted: str) -> None:
        """A word load: as the loop's short path when the address is an aligned TCDM word
        (else the loop takes it over); parks when another core may act first.  ``granted``:
        whether a scheduling round granted it (only where the run was entered)."""
        p = f"i{i}_"
        self.emit(f"{p}ea = ({a} + {imm}) & 0xFFFFFFFF")
        self.emit(f"{p}dd = {p}ea - tcdm_base")
        self.emit(f"if {p}ea & 3 != 0 or {p}dd < 0 or {p}dd + 4 > tcdm_size:")
        self.leave(before, issue, 2)
        self.emit(f"{p}bank = ({p}ea >> 2) & banks")
        self.emit(f"if {granted} == 0 and ({issue} > horizon or "
                  f"({issue} == horizon and policy != {L.POLICY_NONE})):")
        self.emit(f"st(CS, cb + {L.CS_PARK_RES}, {p}bank)", 2)
        self.leave(before + 1, issue, 2)
        self.emit(f"if {granted} == 0 and policy == {L.POLICY_ROUND_ROBIN}:")
        self.emit(f"st(CL, {L.L_BANK_RR} + {p}bank, c + 1)", 2)
        self.emit(f"elif {granted} == 0 and policy == {L.POLICY_RR_ARB_TREE}:")
        self.emit(f"st(CL, {L.L_BANK_RR} + {p}bank, c)", 2)
        self.retire(wd, "load_rl", issue, f"ld_word(TCDM + {p}dd)")
        self.emit(self.count(s))
        self.emit(f"{self.t} = {issue} + 1")
        if i == len(self.run.slots) - 1:
            self.leave(self.run.exit_base + 2 * len(self.run.slots), self.t)

    @staticmethod
    def count(s: int) -> str:
        return _add("PCS", f"(pb + {s}) * {L.NPS}", "1")

    def retire(self, wd: int, latency: str, issue: str, result: str) -> None:
        if wd == L.R_SINK:
            return
        name = f"w{len(self.lines)}_"
        self.val[wd], self.rdy[wd] = f"{name}x{wd}", f"{name}y{wd}"
        self.emit(f"{self.val[wd]} = {result}")
        self.emit(f"st(R, rb + {wd}, {self.val[wd]})")
        self.emit(f"{self.rdy[wd]} = ({issue} << {L.RDY_SHIFT}) + {latency}")
        self.emit(f"st(RDY, rb + {wd}, {self.rdy[wd]})")

    def taken(self, s: int, issue: str, pen_key: int, cat: int, n: int, depth: int) -> None:
        pen = f"{self.t}pen"
        if pen_key == L.K_BRANCH_PEN:
            self.emit(_add("CS", f"cb + {L.CS_TAKEN}", "1"), depth)
        self.emit(f"{pen} = ld(CFG, {pen_key})", depth)
        self.emit(_add("CAT", f"c * {L.NCAT} + {cat}", pen), depth)
        self.emit(_add("PCS", f"(pb + {s}) * {L.NPS} + {L.PS_STALL} + {cat}", pen), depth)
        self.leave(self.run.exit_base + 2 * n + 1, f"{issue} + 1 + {pen}", depth)


def source(code: np.ndarray, slot_pc: list[int], runs: list[Run], disasm) -> str:
    """The generated module: a cfunc per run (numba's front end is superlinear in the size of a
    function), ``run<rid>``."""
    out = [_HEAD]
    for rid, run in enumerate(runs):
        out.extend(_Writer(run, code, slot_pc, disasm).write(rid))
    out.append("")
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------
# compiling (once per distinct program: the module and numba's cache live on disk)
# ---------------------------------------------------------------------------------------------
def cache_dir() -> Path:
    """``$ISASIM_TRANSLATE_CACHE``, else ``~/.cache/isasim/translated`` (XDG)."""
    env = os.environ.get("ISASIM_TRANSLATE_CACHE")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(xdg) / "isasim" / "translated"


@functools.cache
def _dependencies_stamp() -> str:
    """Changes whenever any module the generated code compiles in changes (numba would not
    notice: it checks only the generated file).  Once per process, like the engine's check."""
    from isasim import engine, jitcache

    return jitcache.fingerprint(engine.dependencies())


_LOADED: dict[str, list[int]] = {}


def compile_source(text: str, nruns: int) -> list[int]:
    """The addresses of the numba functions of the ``nruns`` run cfuncs of module source
    ``text`` (see ``call_translated``)."""
    h = hashlib.sha256(text.encode())
    h.update(_dependencies_stamp().encode())
    name = f"isasim_tx_{h.hexdigest()[:24]}"
    if name in _LOADED:
        return _LOADED[name]
    directory = cache_dir()
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / f"{name}.py"
    if not path.exists() or path.read_text() != text:
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(text)
        tmp.replace(path)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    # numba names a cfunc's wrapper "cfunc." + its function's symbol; should that change, the
    # lookup fails and the machine interprets the program, with a warning
    runs = [getattr(module, f"run{rid}") for rid in range(nruns)]
    _LOADED[name] = [f._library.get_pointer_to_function(f.native_name.removeprefix("cfunc."))
                     for f in runs]
    return _LOADED[name]


@dataclass(frozen=True)
class Translation:
    # int64[entries * ENTRY_FIELDS]: per entry id, the address of its run's numba function (see
    # call_translated), the instruction it starts at, the run's first pc and the pc just after
    # its last instruction (the span the engine's instruction-cache guard checks); empty when
    # nothing is translated
    entries: np.ndarray
    exits: np.ndarray       # int64[exits * EXIT_FIELDS]
    entry_of_slot: dict[int, int]   # the F_TX of the slots translated code is entered at


def translate(code: np.ndarray, slot_pc: list[int], entries: list[int], fpu_shared: bool,
              disasm) -> Translation:
    """Find the runs of a predecoded program and compile them (``code``: int32[nslots, NF])."""
    runs = find_runs(code, slot_pc, entries, fpu_shared)
    if not runs:
        return Translation(np.zeros(0, dtype=np.int64), np.zeros(EXIT_FIELDS, dtype=np.int64), {})
    addresses = compile_source(source(code, slot_pc, runs, disasm), len(runs))
    where = entry_points(code, runs)
    table = np.array([(addresses[rid], i, slot_pc[runs[rid].slots[0]],
                       slot_pc[runs[rid].slots[-1]] + int(code[runs[rid].slots[-1], L.F_LEN]))
                      for rid, i in where], dtype=np.int64).reshape(-1)
    return Translation(table, exit_table(code, slot_pc, runs),
                       {runs[rid].slots[i]: k for k, (rid, i) in enumerate(where)})
