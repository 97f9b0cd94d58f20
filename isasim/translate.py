"""Translated code: a program's straight-line private code compiled to machine code.

Why.  The engine's loop interprets: for every instruction it loads the record, dispatches on the
operation and keeps its many live values in memory, about 135 host instructions for an ``addi``.
Most instructions of a compute kernel touch only the core's own state (registers, scoreboard,
profile counts) or read a TCDM word, and for those everything but the register values is known
when the program is loaded.  Per program, ``isasim.llvm_emit`` writes an LLVM IR function per
*run* of such instructions, straight-line code with the operation, registers, immediates and
slots as constants, and ``isasim.llvm_jit`` compiles it with LLVM (llvmlite) in milliseconds
and keeps the object code on disk.  This module finds the runs, their entries and exits, and
holds what the engine calls them by.

What a run is.  A maximal stretch along the fall-through links (``F_NEXT``) of RV32I
computational instructions, ``mul``, the Xpulp ALU/MAC/SIMD operations, the F operations (but
``fdiv``/``fsqrt``, which occupy the FPU, and all of them when the FPU is shared, since those
are arbitrated) and loads and stores (every size, at ``rs1 + imm``, post-incremented by an
immediate or a register, at ``rs1 + rs2``), ended by any other instruction or just after a
conditional branch, ``jal`` or ``jalr``.  It starts at a *leader* (a branch or jump target, a
hardware loop's start, the instruction after anything that ends a run or after a loop's end)
and may also be entered at each of its accesses: a core that parked there resumes in
translated code.

How it stays exact.  The translated code does what the loop would, with the same effects on the
state the results are made of: the scoreboard stall and its category, the result and its ready
cycle, the per-instruction profile, fflags, the branch penalty, the taken-branch count, the ring
of run starts, an access's bank claim or park under the loop's horizon, a post-increment, a
hardware loop's count and back edge.  The ALU and branch expressions are read from
``isasim.semantics``, which the loop uses too; the fp32 multiply-add fast path is
``semantics.fma_family_fast`` in IR (``llvm_emit.fma_fast``, held against it bit for bit by
``tests/engine/test_translate_fma.py``); the other operations call the loop's own compiled
function (``scalar_helper``).  Where the loop would do anything else the run stops before that
instruction and hands it back: the cycle limit (checked at a run's entry for its whole length,
then only where a stall moves time on), an active hardware-loop end inside a run or one whose
start the program's set-ups do not give, the FPU off (``mstatus.FS``) or an invalid dynamic
rounding mode (both trap), an fp32 multiply-add, add, subtract or multiply that the fast path
cannot round, a ``jalr`` to an address 2 mod 4 where no instruction is decoded (the
unaligned-target cycle depends on what is there), an access outside the TCDM or misaligned, a
store over decoded instructions (the loop unlinks them), to the HTIF ``tohost`` words or into
a debugger's watched range.  The loop calls translated code only when nothing is traced and
no store has written into the text (the condition under which it follows its links).
``tests/engine/test_translate.py`` and ``test_translate_access.py`` run programs both ways and
compare every observable.

The call.  The loop is compiled once for all programs, so it calls a run through its address
(``call_translated``), the call's few values as arguments and the arrays' addresses waiting in
``CL``.  Each run is a function of its own, entered straight from the table of entry points.  A
run returns an *exit*: ``exits[e]`` gives the pc and slot to continue at, the instructions it
retired, the exit's kind and the entry to chain to; it leaves the core's cycle in ``CS_T``.
A ``jalr``'s target is computed: its run writes it into its exit's row as it leaves
(``bind_exit_table``), and the loop looks the target's slot up.
A taken branch, jump or hardware-loop back edge to the run's own start stays in the function (a
loop runs in one call), and the call's result then also counts the instructions of those
passes.  The engine chains the runs (``engine.run_translated``).
"""

from __future__ import annotations

import ctypes
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from isasim import layout as L
from isasim import opcodes as O
from isasim import simd
from isasim.compile_child import compile_all
from isasim.jitcache import compiled
from isasim.semantics import exec_scalar

MAX_RUN = 256          # instructions per run (longer straight code is split; compile time)
# ``granted``: 0 entered at the run's start or by a chained exit, 1 granted the access it is
# entered at by a scheduling round, RESUMED granted it after parking there in translated code
# (the core has executed nothing since it entered the run: its entry checks are not repeated)
RESUMED = 2
ARGS = 9               # a run's int64 arguments: PARAMS
PARAMS = ("start", "t", "granted", "c", "pb", "horizon", "max_cycles", "instret", "CL")
# their addresses at CL[L_TX_ARRAYS]: the TCDM's first byte, and PCMAP the pcmap entry of its
# first halfword (see engine.run)
ARRAYS = ("R", "RDY", "CS", "CAT", "PCS", "TCDM", "PCMAP")
# entries: per entry id, the run's function address, the instruction it starts at, the run's
# first pc and the pc just after its last instruction
ENTRY_FIELDS = 4
EXIT_FIELDS = 5        # exits: pc, slot, instructions retired, EXIT_* kind, entry to chain to
EXIT_ON, EXIT_TAKEN, EXIT_PARKED = 0, 1, 2   # go on at pc / a taken branch or jump / parked

ALU_OPS = frozenset(range(O.OP_ADDI, O.OP_AND + 1)) | {O.OP_LUI, O.OP_AUIPC, O.OP_MUL}
XPULP_OPS = (frozenset(range(O.OP_MAC, O.OP_MACHHURN + 1))
             | frozenset(range(simd.FIRST, simd.LAST + 1)))
FP_OPS = frozenset(range(O.OP_FMADD_S, O.OP_FMV_W_X + 1)) - {O.OP_FDIV_S, O.OP_FSQRT_S}
BRANCH_OPS = frozenset(range(O.OP_BEQ, O.OP_BGEU + 1)) | {O.OP_BEQIMM, O.OP_BNEIMM}


# ---------------------------------------------------------------------------------------------
# the call from the engine
# ---------------------------------------------------------------------------------------------
@intrinsic
def call_translated(typingctx, addr, a0, a1, a2, a3, a4, a5, a6, a7, a8):
    """Call the run at ``addr`` (``i64 run(i64 x 9)``, see ``isasim.llvm_emit``) with its 9
    int64 arguments; returns the exit it left by, and in the high 32 bits the instructions
    the hardware-loop back edges taken inside the function retired."""
    sig = types.int64(*([types.int64] * (1 + ARGS)))

    def codegen(context, builder, signature, args):
        i64 = ir.IntType(64)
        fnty = ir.FunctionType(i64, [i64] * ARGS)
        return builder.call(builder.inttoptr(args[0], fnty.as_pointer()), list(args[1:]))

    return sig, codegen


# ---------------------------------------------------------------------------------------------
# the loop's semantics, called from translated code
# ---------------------------------------------------------------------------------------------
@compiled
def scalar_helper(op, a, b, c, imm, imm2, rm, out):
    """``exec_scalar``'s result; its fflags in ``out[0]``."""
    v, fl, _ = exec_scalar(op, a, b, c, imm, imm2, rm)
    out[0] = fl
    return v


_I64 = types.int64
_OUT = types.CPointer(types.int64)
# name in translated code -> (function, numba signature); translated code calls numba's own
# function (``i32 f(i64* result, i8** exception, args...)``: the status is not looked at, these
# raise nothing), whose address the object loader is given by name
HELPERS = {
    "isasim_scalar": (scalar_helper, _I64(*[_I64] * 7, _OUT)),
}


def helper_addresses() -> dict[str, int]:
    """The helpers' machine-code addresses (compiled, or loaded from numba's cache, once; a
    cold compile in a child process, see ``compile_child``)."""
    compile_all(list(HELPERS.values()))
    out = {}
    for name, (func, sig) in HELPERS.items():
        cres = func.overloads[sig.args]
        out[name] = cres.library.get_pointer_to_function(cres.fndesc.llvm_func_name)
    return out


# ---------------------------------------------------------------------------------------------
# finding the runs
# ---------------------------------------------------------------------------------------------
def kind(rec: np.ndarray, fpu_shared: bool) -> str | None:
    """How an instruction takes part in runs: 'access' (a load or store, of any size and
    address mode, which may have to wait for a scheduling round: it starts a segment of its
    run, so that a core granted its access resumes in translated code), 'body' (private,
    falls through), 'end' (a branch, jal or jalr, which ends a run) or None (left to the
    loop)."""
    op = int(rec[L.F_OP])
    cls = int(rec[L.F_CLS])
    if op == O.OP_MEM:
        # (p.elw, an event-unit load, waits for events: the loop's)
        return "access" if cls != L.TC_ELW else None
    if op in ALU_OPS or op in XPULP_OPS:
        return "body"
    if op in FP_OPS and cls in (L.TC_FPU, L.TC_FPU_OTHER):
        # a static rounding mode of 5 or 6 traps: the loop reports it
        return None if fpu_shared or int(rec[L.F_RM]) in (5, 6) else "body"
    if op in BRANCH_OPS or op in (O.OP_JAL, O.OP_JALR):
        return "end"
    return None


@dataclass(frozen=True)
class Run:
    slots: tuple[int, ...]
    # exits exit_base + 2i: stopped before instruction i, + 2i + 1: parked at (access) i,
    # + 2n: fell through, + 2n + 1: taken, + 2n + 2 + k: the hardware-loop back edge to back[k]
    exit_base: int
    # the slots of the hardware-loop starts the last instruction may go back to (a loop the
    # program sets up ends there)
    back: tuple[int, ...] = ()

    @property
    def exits(self) -> int:
        return 2 * len(self.slots) + 2 + len(self.back)


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
              fpu_shared: bool, every: bool = True) -> list[Run]:
    """The runs of a predecoded program (``code``: int32[nslots, NF], linked).

    Leaders are the entries, branch and jump targets, the instructions after anything that
    ends a run, and the starts of hardware loops and the instructions after their ends, so that
    a loop body's last instruction ends a run (the run hands it to the loop, which takes the
    back edge).  A run may also be entered at each of its loads (see ``entry_points``).

    ``every``: every run; else only those that may run more than once (``in_loops``).
    """
    kinds = [kind(rec, fpu_shared) for rec in code]
    for s, rec in enumerate(code):
        if (kinds[s] == "end" and int(rec[L.F_OP]) != O.OP_JALR
                and (slot_pc[s] + int(rec[L.F_IMM])) & 2 and int(rec[L.F_TGT]) < 0):
            kinds[s] = None    # an undecoded target: its length (the unaligned cycle) unknown
    slot_at = {pc: s for s, pc in enumerate(slot_pc)}
    leaders = {s for s in entries if 0 <= s < len(kinds)}
    # hardware loops: end pc -> the starts the set-ups give it (lp.starti / lp.endi set one
    # bound each: such an end may go back to any lone start)
    back_to: dict[int, set[int]] = {}
    lone_starts, lone_ends = set(), set()
    for s, rec in enumerate(code):
        tgt, nxt = int(rec[L.F_TGT]), int(rec[L.F_NEXT])
        if tgt >= 0:
            leaders.add(tgt)
        if nxt >= 0 and kinds[s] not in ("body", "access"):
            leaders.add(nxt)
        if int(rec[L.F_CLS]) == L.TC_HWLOOP:
            start, end = _hwloop_bounds(rec, slot_pc[s])
            if start in slot_at:
                leaders.add(slot_at[start])
            if end in slot_at and int(code[slot_at[end], L.F_NEXT]) >= 0:
                leaders.add(int(code[slot_at[end], L.F_NEXT]))
            if start in slot_at and end is not None:
                back_to.setdefault(end, set()).add(slot_at[start])
            elif start in slot_at:
                lone_starts.add(slot_at[start])
            elif end is not None:
                lone_ends.add(end)
    for end in lone_ends:
        back_to.setdefault(end, set()).update(lone_starts)
    runs: list[Run] = []
    base = 0
    repeated = None if every else in_loops(code, slot_pc)
    for lead in sorted(leaders, key=lambda s: slot_pc[s]):
        while lead >= 0 and kinds[lead] is not None and (repeated is None
                                                         or repeated(slot_pc[lead])):
            slots = [lead]
            while kinds[slots[-1]] != "end" and len(slots) < MAX_RUN:
                nxt = int(code[slots[-1], L.F_NEXT])
                if nxt < 0 or nxt in leaders or kinds[nxt] is None:
                    break
                slots.append(nxt)
            pc = slot_pc[slots[-1]]
            back = () if kinds[slots[-1]] == "end" else tuple(sorted(back_to.get(pc, ())))
            runs.append(Run(tuple(slots), base, back))
            base += runs[-1].exits
            # straight code cut at MAX_RUN goes on in a run of its own
            nxt = int(code[slots[-1], L.F_NEXT])
            lead = nxt if (len(slots) == MAX_RUN and kinds[slots[-1]] != "end"
                           and nxt not in leaders) else -1
    return runs


def in_loops(code: np.ndarray, slot_pc: list[int]):
    """A test of pcs: may the instruction there run more than once?  Yes between a backward
    branch or jump and its target, in a hardware loop's body, and in a function called from
    there (from its entry to the first ``jalr`` after it).  Code that runs once gains nothing
    from being compiled: a program's set-up and the straight-line sequences of a test program
    are left to the loop, which spares their compile time."""
    regions: list[tuple[int, int]] = []
    starts, ends = [], []
    for s, rec in enumerate(code):
        pc, tgt = slot_pc[s], int(rec[L.F_TGT])
        if tgt >= 0 and slot_pc[tgt] <= pc:
            regions.append((slot_pc[tgt], pc))
        if int(rec[L.F_CLS]) == L.TC_HWLOOP:
            start, end = _hwloop_bounds(rec, pc)
            if start is not None and end is not None:
                regions.append((start, end))
            elif start is not None:
                starts.append(start)
            elif end is not None:
                ends.append(end)
    regions += [(a, min((e for e in ends if e >= a), default=a)) for a in starts]
    returns = sorted(pc for s, pc in enumerate(slot_pc) if int(code[s, L.F_OP]) == O.OP_JALR)
    calls = [slot_pc[int(rec[L.F_TGT])] for s, rec in enumerate(code)
             if int(rec[L.F_OP]) == O.OP_JAL and int(rec[L.F_WD]) != L.R_SINK
             and int(rec[L.F_TGT]) >= 0 and any(a <= slot_pc[s] <= b for a, b in regions)]
    for f in calls:
        regions.append((f, next((r for r in returns if r >= f), f)))

    def repeated(pc: int) -> bool:
        return any(a <= pc <= b for a, b in regions)

    return repeated


def entry_points(code: np.ndarray, runs: list[Run]) -> list[tuple[int, int]]:
    """The places translated code is entered at, as (run, instruction index): each run's first
    instruction (entry id = run id), and each later load, where a core a scheduling round
    granted its access resumes (entry id k is the ``F_TX`` of its slot)."""
    out = [(rid, 0) for rid in range(len(runs))]
    for rid, run in enumerate(runs):
        out.extend((rid, i) for i, s in enumerate(run.slots)
                   if i > 0 and kind(code[s], False) == "access")
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
        if int(last[L.F_OP]) == O.OP_JALR:
            # the target is computed: the run writes it into the row as it leaves by it, and
            # the loop looks its slot up
            rows.append((0, -1, n, EXIT_TAKEN, -1))
        else:
            rows.append(((pc + int(last[L.F_IMM])) & 0xFFFFFFFF, tgt, n, EXIT_TAKEN,
                         run_at.get(tgt, -1)))
        rows.extend((slot_pc[s], s, n, EXIT_TAKEN, run_at.get(s, -1)) for s in run.back)
    return np.array(rows, dtype=np.int64).reshape(-1)


# ---------------------------------------------------------------------------------------------
# the translation of a program
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Translation:
    # int64[entries * ENTRY_FIELDS] (see ENTRY_FIELDS); empty when nothing is translated
    entries: np.ndarray
    exits: np.ndarray       # int64[exits * EXIT_FIELDS]
    entry_of_slot: dict[int, int]   # the F_TX of the slots translated code is entered at


def cache_dir() -> Path:
    """``$ISASIM_TRANSLATE_CACHE``, else ``~/.cache/isasim/translated`` (XDG)."""
    env = os.environ.get("ISASIM_TRANSLATE_CACHE")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(xdg) / "isasim" / "translated"


def every_run() -> bool:
    """``$ISASIM_TRANSLATE`` is ``all``: every run is translated, not only those in loops."""
    return os.environ.get("ISASIM_TRANSLATE") == "all"


# the address of a loaded program's pointer to its exit table -> the table
_EXIT_TABLES: dict[int, np.ndarray] = {}


def bind_exit_table(getter: int, exits: np.ndarray) -> np.ndarray:
    """The exit table of loaded translated code, which it writes a ``jalr``'s computed target
    into (the pc of the row it leaves by) just before it returns: its pointer to the table
    (``llvm_emit.EXIT_TABLE``, found by calling ``getter``) set to ``exits``.  Code is loaded
    once per IR text (``llvm_jit.load``), and the IR holds its exit table's digest: a program
    translated again uses the table its code was bound to, of the same content."""
    at = ctypes.CFUNCTYPE(ctypes.c_int64)(getter)()
    pointer = ctypes.c_int64.from_address(at)
    bound = _EXIT_TABLES.get(at)
    # (code loaded anew, where earlier code was, starts with a null pointer)
    if bound is None or pointer.value != bound.ctypes.data:
        _EXIT_TABLES[at] = bound = exits
        pointer.value = exits.ctypes.data
    return bound


def translate(code: np.ndarray, slot_pc: list[int], entries: list[int],
              fpu_shared: bool, cfg: np.ndarray) -> Translation:
    """Find the runs of a predecoded program and compile them (``code``: int32[nslots, NF]):
    those in loops (``in_loops``), or every run when ``$ISASIM_TRANSLATE`` is ``all`` (the
    tests that compare the paths use it).  ``cfg``: the machine's ``CFG``, compiled in."""
    from isasim import llvm_emit, llvm_jit

    runs = find_runs(code, slot_pc, entries, fpu_shared, every=every_run())
    if not runs:
        return Translation(np.zeros(0, dtype=np.int64), np.zeros(EXIT_FIELDS, dtype=np.int64), {})
    exits = exit_table(code, slot_pc, runs)
    text = llvm_emit.module_ir(code, slot_pc, runs, exits, cfg)
    addresses = llvm_jit.load(text, [llvm_emit.function_name(rid) for rid in range(len(runs))]
                              + [llvm_emit.EXIT_TABLE_AT], cache_dir())
    exits = bind_exit_table(addresses[-1], exits)
    where = entry_points(code, runs)
    table = []
    for rid, i in where:
        last = runs[rid].slots[-1]
        table.append((addresses[rid], i, slot_pc[runs[rid].slots[0]],
                      slot_pc[last] + int(code[last, L.F_LEN])))
    return Translation(np.array(table, dtype=np.int64).reshape(-1), exits,
                       {runs[rid].slots[i]: k for k, (rid, i) in enumerate(where)})
