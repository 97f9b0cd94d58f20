"""LLVM IR of a program's translated runs (``isasim.translate`` finds them).

One function per run, ``i64 run<rid>(start, t, granted, c, pb, horizon, max_cycles, instret,
CL)`` (``translate.PARAMS``): it executes the run from instruction ``start`` (0 or one of its
accesses) and returns the exit it left by, with the core's cycle stored in ``CS_T``.
Everything the loop would look up per instruction (operation, registers, immediates, slot, pc,
latency class) is a constant.  The values and scoreboard entries of the registers the run reads
live in SSA values through the whole run: each *segment* (from one entry to the next) starts at
a head whose phis take them from the code before it or, entered from the engine, from memory.
Results are stored as each instruction retires, as the loop does, so that every exit leaves the
loop's state.  A taken branch, jump or hardware-loop back edge to the run's own start goes back
to the first head: a loop body runs in one call.  A ``jalr`` (a return, an indirect call or
jump) leaves with its computed target written into its exit's row of the exit table, which the
module points to (``exit_table``, set by ``translate.bind_exit_table``).

The IR is written directly (no numba typing): a 1,800-instruction program is a few tens of
milliseconds of Python here and a few hundred of LLVM (``isasim.llvm_jit``).  The ALU and
branch expressions are compiled from the source of ``semantics.alu_result`` and
``semantics.branch_taken`` (``_Expression``); the fp32 multiply-add fast path is
``semantics.fma_family_fast`` written out (``fma_fast``); the other operations call the loop's
compiled function through ``translate.HELPERS``.
"""

from __future__ import annotations

import ast
import hashlib
import inspect
import textwrap

import numpy as np
from llvmlite import ir

from isasim import layout as L
from isasim import opcodes as O
from isasim import semantics
from isasim import softfloat as sf
from isasim import translate as TX
from isasim.engine import result_latency
from isasim.semantics import fp_needs_rm

# back edges a call takes inside its function at most (then it leaves, and the engine calls it
# again): the instructions they retire, at most PASSES * translate.MAX_RUN, are counted in the
# high 32 bits of the call's result
PASSES = 1 << 20
I1, I32, I64 = ir.IntType(1), ir.IntType(32), ir.IntType(64)
F32, F64 = ir.FloatType(), ir.DoubleType()
I64P = I64.as_pointer()
M32 = 0xFFFFFFFF


# the module's pointer to its exit table, and the function that gives the pointer's address
EXIT_TABLE, EXIT_TABLE_AT = "exit_table", "exit_table_at"


def function_name(rid: int) -> str:
    return f"run{rid}"


def _const(v: int | ir.Value, ty: ir.Type = I64) -> ir.Value:
    return v if isinstance(v, ir.Value) else ir.Constant(ty, v)


# ---------------------------------------------------------------------------------------------
# the shared semantics, compiled
# ---------------------------------------------------------------------------------------------
_BINARY = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.LShift: "shl",
           ast.RShift: "ashr", ast.BitAnd: "and_", ast.BitOr: "or_", ast.BitXor: "xor"}
_COMPARE = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==",
            ast.NotEq: "!="}


class _Expression:
    """The expression a semantics function (``alu_result``, ``branch_taken``) returns for one
    operation, read from its source (a chain of ``if op == O.OP_X: return e``) and compiled to
    IR on int64 values, as numba compiles it for the loop: Python's ``>>`` of an int64 is an
    arithmetic shift, and no expression there leaves 64 bits."""

    def __init__(self, func) -> None:
        fn = ast.parse(textwrap.dedent(inspect.getsource(func.py_func))).body[0]
        self.cases: dict[int, ast.expr] = {}
        self.default: ast.expr | None = None
        for stmt in fn.body:
            if isinstance(stmt, ast.If):
                tests = stmt.test.values if isinstance(stmt.test, ast.BoolOp) else [stmt.test]
                for t in tests:
                    self.cases[getattr(O, t.comparators[0].attr)] = stmt.body[0].value
            elif isinstance(stmt, ast.Return):
                self.default = stmt.value

    def __call__(self, builder: ir.IRBuilder, op: int, **operands: ir.Value) -> ir.Value:
        return self._emit(builder, self.cases.get(op, self.default), operands)

    def _emit(self, b: ir.IRBuilder, node: ast.expr, names: dict) -> ir.Value:
        if isinstance(node, ast.Constant):
            return _const(int(node.value))
        if isinstance(node, ast.Name):
            return names[node.id] if node.id in names else _const({"M32": M32}[node.id])
        if isinstance(node, ast.BinOp):
            return getattr(b, _BINARY[type(node.op)])(self._emit(b, node.left, names),
                                                      self._emit(b, node.right, names))
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            return b.icmp_signed(_COMPARE[type(node.ops[0])], self._emit(b, node.left, names),
                                 self._emit(b, node.comparators[0], names))
        if isinstance(node, ast.IfExp):
            return b.select(self._emit(b, node.test, names), self._emit(b, node.body, names),
                            self._emit(b, node.orelse, names))
        raise NotImplementedError(f"semantics expression {ast.unparse(node)}")


alu_result = _Expression(semantics.alu_result)
branch_taken = _Expression(semantics.branch_taken)


def fast_fma(op: int, rm: int) -> bool:
    """An fp32 fused multiply-add, add, subtract or multiply in round to nearest even (static,
    or dynamic: checked when it runs), done as ``semantics.fma_family_fast`` does it
    (``fma_fast``); what that path declines (subnormal, infinite or NaN operands, a result out
    of the normal range) is left to the loop, which is exact for every case."""
    return O.OP_FMADD_S <= op <= O.OP_FMUL_S and rm in (0, 7)


def _fast_operand(b: ir.IRBuilder, x: ir.Value) -> ir.Value:
    """``softfloat.fast_operand``: not a subnormal binary32 pattern."""
    low = b.and_(b.sub(b.and_(x, _const(0x7FFFFFFF)), _const(1)), _const(M32))
    return b.icmp_signed(">=", low, _const(0x7FFFFF))


def fma_fast(b: ir.IRBuilder, op: int, x: ir.Value, y: ir.Value, z: ir.Value,
             accrued: ir.Value | None = None) -> tuple[ir.Value, ir.Value, ir.Value]:
    """``semantics.fma_family_fast(op, x, y, z)`` in IR, the same bits and flags:
    ``(decided, result, fflags)``.

    Operands as ``fma_family_fast`` forms them.  ``softfloat.fma_fast_rne`` forms the exact
    product and its sum with z in float64, the sum's error by TwoSum, rounds to odd when inexact
    and converts once to binary32: the correctly rounded (nearest even) fused result.  Here the
    result is the host's binary32 fused multiply-add (``llvm.fma.f32``, IEEE 754
    fusedMultiplyAdd in the host's default round to nearest even), the same value, and short
    (one operation) on the path from z to the result, which a multiply-accumulate loop carries
    from pass to pass; the float64 sum and its TwoSum error (off that path) give the flags (NX
    when the error is not zero or the sum is not the result) and the decision, as there:
    declined when an operand is subnormal or the sum is not zero and not in
    ``[2**-126, 2**128 - 2**103)`` (NaN and infinite operands included).  An exact zero sum is
    the fused operation's zero too, sign included (+0 unless the product and z are both -0).
    ``tests/engine/test_translate_fma.py`` holds the two against each other bit for bit.

    ``accrued`` (i1, optional): NX is accrued already, the only flag these set; then the flags
    are not worked out (0), which leaves fflags as they would (in a multiply-accumulate loop NX
    is accrued from the first inexact sum on, and the flags' float64 work is skipped)."""
    addsub = op in (O.OP_FADD_S, O.OP_FSUB_S)
    if op > O.OP_FNMADD_S:
        # a plain product adds -0 (x + -0 = x for every x, including -0)
        z = y if op != O.OP_FMUL_S else _const(0x80000000)
    if addsub:
        y = _const(0x3F800000)
    fast = b.and_(b.and_(_fast_operand(b, x), _fast_operand(b, y)), _fast_operand(b, z))
    fx, fy, fz = (b.bitcast(b.trunc(v, I32), F32) for v in (x, y, z))
    if op in (O.OP_FNMSUB_S, O.OP_FNMADD_S):
        fx = b.fneg(fx)
    if op in (O.OP_FMSUB_S, O.OP_FNMADD_S, O.OP_FSUB_S):
        fz = b.fneg(fz)
    fused = b.fma(fx, fy, fz)
    px, zz = b.fpext(fx, F64), b.fpext(fz, F64)
    p = b.fmul(px, b.fpext(fy, F64))
    s = b.fadd(p, zz)
    zero = b.fcmp_ordered("==", s, ir.Constant(F64, 0.0))
    av = b.bitcast(b.and_(b.bitcast(s, I64), _const((1 << 63) - 1)), F64)
    in_range = b.and_(b.fcmp_ordered(">=", av, ir.Constant(F64, sf._FAST_MIN)),
                      b.fcmp_ordered("<", av, ir.Constant(F64, sf._FAST_MAX)))
    before = b.block
    if accrued is not None:
        work = b.append_basic_block("fma_flags")
        done = b.append_basic_block("fma_flags_done")
        b.cbranch(accrued, done, work)
        b.position_at_end(work)
    bb = b.fsub(s, p)
    t = b.fadd(b.fsub(p, b.fsub(s, bb)), b.fsub(zz, bb))
    inexact = b.or_(b.fcmp_unordered("!=", t, ir.Constant(F64, 0.0)),
                    b.fcmp_unordered("!=", b.fpext(fused, F64), s))
    flags = b.select(inexact, _const(sf.NX), _const(0))
    if accrued is not None:
        worked = b.block
        b.branch(done)
        b.position_at_end(done)
        phi = b.phi(I64)
        phi.add_incoming(_const(0), before)
        phi.add_incoming(flags, worked)
        flags = phi
    return (b.and_(fast, b.or_(zero, in_range)), b.zext(b.bitcast(fused, I32), I64), flags)


# ---------------------------------------------------------------------------------------------
# a run
# ---------------------------------------------------------------------------------------------
class _Shared:
    """Functions of a program's module its runs call: what would otherwise be written out at
    many instructions (a stall's accounting, the multiply-add fast path outside loop bodies),
    to keep the IR, and LLVM's time, small."""

    def __init__(self, module: ir.Module, code: np.ndarray, slot_pc: list[int],
                 cfg: np.ndarray) -> None:
        self.module, self.code, self.slot_pc, self.cfg = module, code, slot_pc, cfg
        # the exit table, which a jalr writes its computed target into (``translate``
        # points it at the table when it loads the code: not internal, so LLVM does not take
        # it for the null it starts as)
        self.exit_table = ir.GlobalVariable(module, I64P, EXIT_TABLE)
        self.exit_table.initializer = ir.Constant(I64P, None)
        at = self._function(EXIT_TABLE_AT, I64, [])
        at.linkage = ""
        ir.IRBuilder(at.append_basic_block("entry")).ret(
            ir.Constant.ptrtoint(self.exit_table, I64))
        self._length_at: ir.Function | None = None
        self.stall = self._function("stall", ir.VoidType(), [I64P, I64P, I64, I64], "cold")
        cat, pcs, why, amount = self.stall.args
        b = ir.IRBuilder(self.stall.append_basic_block("entry"))
        for base in (cat, pcs):
            at = b.gep(base, [why])
            b.store(b.add(b.load(at), amount), at)
        b.ret_void()
        self._fma: dict[int, ir.Function] = {}

    def _function(self, name: str, ret: ir.Type, args: list[ir.Type], *attrs: str):
        fn = ir.Function(self.module, ir.FunctionType(ret, args), name)
        fn.linkage = "internal"
        for a in ("nounwind", *attrs):
            fn.attributes.add(a)
        return fn

    def length_at(self) -> ir.Function:
        """``i64 length_at(pc)``: the length of the decoded instruction at ``pc`` (2 mod 4),
        0 when none is (the loop then reads the memory there)."""
        if self._length_at is None:
            fn = self._function("length_at", I64, [I64])
            b = ir.IRBuilder(fn.append_basic_block("entry"))
            unknown = fn.append_basic_block("unknown")
            switch = b.switch(fn.args[0], unknown)
            for length in (2, 4):
                block = fn.append_basic_block(f"length{length}")
                ir.IRBuilder(block).ret(_const(length))
                for s, pc in enumerate(self.slot_pc):
                    if pc & 2 and int(self.code[s, L.F_LEN]) == length:
                        switch.add_case(_const(pc), block)
            b.position_at_end(unknown)
            b.ret(_const(0))
            self._length_at = fn
        return self._length_at

    def fma(self, op: int) -> ir.Function:
        """``(decided, result, fflags)`` of ``fma_fast`` for operation ``op``."""
        if op not in self._fma:
            fn = self._function(f"fma{op}", ir.LiteralStructType([I1, I64, I64]), [I64] * 3,
                                "noinline")
            b = ir.IRBuilder(fn.append_basic_block("entry"))
            out = ir.Constant(fn.return_value.type, ir.Undefined)
            for k, v in enumerate(fma_fast(b, op, *fn.args)):
                out = b.insert_value(out, v, k)
            b.ret(out)
            self._fma[op] = fn
        return self._fma[op]


class _Head:
    """Where a segment starts: its block and the phis of what flows into it (the cycle, the
    grant, the back edges taken so far, and for the first segment the values and scoreboard
    entries of the registers it reads), from the engine's entry (its pad) and from the code
    before it (the previous segment, or a back edge).

    Later segments load the registers they read from memory (where every result is stored):
    a core resumed at an access, as on several cores nearly every access is, then loads only
    what the segment needs."""

    def __init__(self, w: _Writer, name: str, regs: list[int]) -> None:
        self.regs = regs
        self.pad = w.fn.append_basic_block(f"pad_{name}")
        self.block = w.fn.append_basic_block(f"head_{name}")
        b = w.b
        with b.goto_block(self.block):
            self.t, self.granted, self.loops = b.phi(I64), b.phi(I64), b.phi(I64)
            self.val = {r: b.phi(I64) for r in regs}
            self.rdy = {r: b.phi(I64) for r in regs}
        with b.goto_block(self.pad):
            w.val, w.rdy = {}, {}
            self.come(w, w.arg["t"], w.arg["granted"], _const(0))
            b.branch(self.block)

    def come(self, w: _Writer, t, granted, loops) -> None:
        """The incoming values from the builder's current block."""
        here = w.b.block
        self.t.add_incoming(t, here)
        self.granted.add_incoming(granted, here)
        self.loops.add_incoming(loops, here)
        for r in self.regs:
            # (a register not read since the last head: from memory, where its value is)
            self.val[r].add_incoming(w.val[r] if r in w.val else w.ld("R", r), here)
            self.rdy[r].add_incoming(w.rdy[r] if r in w.rdy else w.ld("RDY", r), here)

    def enter(self, w: _Writer) -> None:
        w.b.position_at_end(self.block)
        w.t, w.granted, w.loops = self.t, self.granted, self.loops
        w.val, w.rdy = dict(self.val), dict(self.rdy)


class _Writer:
    """The IR of one run's function."""

    def __init__(self, module: ir.Module, helpers: dict, shared: _Shared, rid: int,
                 run: TX.Run, code: np.ndarray, slot_pc: list[int]) -> None:
        self.run, self.code, self.slot_pc, self.helpers = run, code, slot_pc, helpers
        self.shared = shared
        # a loop body (it goes back to its own start): the multiply-add written out in it
        last = code[run.slots[-1]]
        self.loops_on_itself = run.slots[0] in run.back or (
            TX.kind(last, False) == "end" and int(last[L.F_TGT]) == run.slots[0])
        self.n = len(run.slots)
        self.fn = ir.Function(module, ir.FunctionType(I64, [I64] * TX.ARGS), function_name(rid))
        self.fn.attributes.add("nounwind")
        self.arg = dict(zip(TX.PARAMS, self.fn.args, strict=True))
        self.b = ir.IRBuilder(self.fn.append_basic_block("entry"))
        self.val: dict[int, ir.Value] = {}   # register -> its value
        self.rdy: dict[int, ir.Value] = {}   # register -> its scoreboard entry
        self.blocks = 0

    # -- memory ------------------------------------------------------------------------------
    def _at(self, array: str, index) -> ir.Value:
        return self.b.gep(self.base[array], [_const(index)])

    def ld(self, array: str, index) -> ir.Value:
        return self.b.load(self._at(array, index))

    def config(self, index: int) -> ir.Value:
        """``CFG[index]``: the machine's configuration, constant while a program runs (only
        tracing and pausing change, which translated code never reads), is compiled in."""
        return _const(int(self.shared.cfg[index]))

    def st(self, array: str, index, value) -> None:
        self.b.store(value, self._at(array, index))

    def add_to(self, array: str, index, amount) -> None:
        at = self._at(array, index)
        self.b.store(self.b.add(self.b.load(at), amount), at)

    # -- control -----------------------------------------------------------------------------
    def block(self) -> ir.Block:
        self.blocks += 1
        return self.fn.append_basic_block(f"b{self.blocks}")

    def leave(self, exit_id, t: ir.Value) -> None:
        """Leave by exit ``exit_id`` at cycle t (through the function's one return block)."""
        self.exit_id.add_incoming(_const(exit_id), self.b.block)
        self.exit_t.add_incoming(t, self.b.block)
        self.exit_loops.add_incoming(self.loops, self.b.block)
        self.b.branch(self.exit_block)

    def exit_if(self, cond: ir.Value, exit_id, t: ir.Value, before_leaving=None) -> None:
        on = self.block()
        if before_leaving is None:
            self.exit_id.add_incoming(_const(exit_id), self.b.block)
            self.exit_t.add_incoming(t, self.b.block)
            self.exit_loops.add_incoming(self.loops, self.b.block)
            self.b.cbranch(cond, self.exit_block, on)
        else:
            out = self.block()
            self.b.cbranch(cond, out, on)
            self.b.position_at_end(out)
            before_leaving()
            self.leave(exit_id, t)
        self.b.position_at_end(on)

    # -- state -------------------------------------------------------------------------------
    def value(self, r: int) -> ir.Value:
        if r in (0, L.R_ZERO):      # x0 is never written (its writes go to R_SINK)
            return _const(0)
        if r not in self.val:
            self.val[r] = self.ld("R", r)
        return self.val[r]

    def ready(self, r: int) -> ir.Value:
        if r not in self.rdy:
            self.rdy[r] = self.ld("RDY", r)
        return self.rdy[r]

    def write(self, r: int, value: ir.Value, rdy: ir.Value) -> None:
        if r == L.R_SINK:
            return
        self.val[r], self.rdy[r] = value, rdy
        self.st("R", r, value)
        self.st("RDY", r, rdy)

    def retire(self, wd: int, latency: ir.Value, issue: ir.Value, result: ir.Value) -> None:
        self.write(wd, result, self.b.add(self.b.shl(issue, _const(L.RDY_SHIFT)), latency))

    def count(self, s: int, offset: int = 0, amount: ir.Value | None = None) -> None:
        """The per-instruction profile of slot s: its count, or (offset) a stall column."""
        self.add_to("PCS", s * L.NPS + offset, _const(1) if amount is None else amount)

    def stall(self, s: int, why: ir.Value, amount: ir.Value) -> None:
        """``amount`` cycles of stall category ``why``: the core's and slot s's."""
        self.b.call(self.shared.stall, [self.base["CAT"],
                                         self._at("PCS", s * L.NPS + L.PS_STALL), why, amount])

    def call(self, name: str, *args: ir.Value) -> ir.Value:
        """A helper's result (``translate.HELPERS``: numba's calling convention)."""
        self.b.call(self.helpers[name], [self.ret, self.exc, *args])
        return self.b.load(self.ret)

    # -- the function ------------------------------------------------------------------------
    def write_function(self) -> None:
        b, run, code, n = self.b, self.run, self.code, self.n
        recs = [code[s] for s in run.slots]
        kinds = [TX.kind(r, False) for r in recs]
        ops = [int(r[L.F_OP]) for r in recs]
        first, last = self.slot_pc[run.slots[0]], self.slot_pc[run.slots[-1]]
        cl = b.inttoptr(self.arg["CL"], I64P)
        self.base = {"CL": cl}
        for k, name in enumerate(TX.ARRAYS):
            self.base[name] = b.load(b.gep(cl, [_const(L.L_TX_ARRAYS + k)]))
        c = self.arg["c"]
        # each array at the core's own part: one pointer per array, constant offsets after it
        for name, stride, index in (("R", L.RS, c), ("RDY", L.RS, c), ("CS", L.NCS, c),
                                    ("CAT", L.NCAT, c), ("PCS", L.NPS, self.arg["pb"])):
            self.base[name] = b.gep(b.inttoptr(self.base[name], I64P),
                                    [b.mul(index, _const(stride))])
        self.ret, self.exc = b.alloca(I64), b.alloca(I64.as_pointer())
        self.out = b.alloca(I64, 2)
        fp = any(op in TX.FP_OPS for op in ops)
        # fflags, accrued by the run's FP operations (only the run writes it while it runs): in
        # the entry block, like every alloca, so that LLVM keeps it in a register (an alloca
        # after the first branch is a dynamic one, made again at every call)
        self.fflags = b.alloca(I64) if fp else None
        # the return block: the core's cycle to CS_T; the exit, and in its high half the
        # instructions the back edges taken inside the function retired
        self.exit_block = self.fn.append_basic_block("leave")
        with b.goto_block(self.exit_block):
            self.exit_id, self.exit_t, self.exit_loops = b.phi(I64), b.phi(I64), b.phi(I64)
            self.st("CS", L.CS_T, self.exit_t)
            b.ret(b.add(self.exit_id, b.shl(b.mul(self.exit_loops, _const(n)), _const(32))))
        start, t = self.arg["start"], self.arg["t"]
        self.loops = _const(0)
        # what makes the loop take over at once: the cycle limit within the run's length (so
        # that only a stall can reach it: checked there) and the core's state: an active
        # hardware loop ending inside the run (not at its last instruction: that back edge is
        # taken below), the FPU off or a dynamic rounding mode the run's FP operations cannot
        # use (constant while the run runs).  A core resumed at the access it parked at in
        # translated code (``granted`` RESUMED) passed the state's checks when it entered the
        # run and has executed nothing since: they are not repeated.
        leave_at = b.add(_const(run.exit_base), b.shl(start, _const(1)))
        self.exit_if(b.icmp_signed(">", b.add(t, _const(n)), self.arg["max_cycles"]), leave_at,
                     t)
        if fp:
            b.store(self.ld("CS", L.CS_FFLAGS), self.fflags)
            self.frm = self.ld("CS", L.CS_FRM)
        with b.if_then(b.icmp_signed("!=", self.arg["granted"], _const(TX.RESUMED))):
            bail = _const(0, I1)
            ends = "<=" if self.ends_checked_at_entry(recs[-1]) else "<"
            for count_at, end_at in ((L.CS_LPC0, L.CS_LPE0), (L.CS_LPC1, L.CS_LPE1)):
                end = self.ld("CS", end_at)
                inside = b.and_(b.icmp_signed("<=", _const(first), end),
                                b.icmp_signed(ends, end, _const(last)))
                bail = b.or_(bail, b.and_(inside, b.icmp_signed("!=", self.ld("CS", count_at),
                                                                _const(0))))
            if fp:
                fs = b.and_(b.lshr(self.ld("CS", L.CS_MSTATUS), _const(13)), _const(3))
                bail = b.or_(bail, b.icmp_signed("==", fs, _const(0)))
                dynamic = [(op, int(r[L.F_RM])) for op, r in zip(ops, recs, strict=True)
                           if op in TX.FP_OPS and int(r[L.F_RM]) == 7]
                if any(fast_fma(op, rm) for op, rm in dynamic):
                    # only round to nearest even has the fast path
                    bail = b.or_(bail, b.icmp_signed("!=", self.frm, _const(0)))
                elif any(fp_needs_rm.py_func(op) for op, _ in dynamic):
                    bail = b.or_(bail, b.icmp_signed(">", self.frm, _const(4)))
            self.exit_if(bail, leave_at, t)
        if "access" in kinds:
            self.tcdm_base = self.config(L.K_TCDM_BASE)
            self.tcdm_size = self.config(L.K_TCDM_SIZE)
            policy = int(self.shared.cfg[L.K_POLICY])
            # an access parks past the horizon, or at it where accesses conflict
            self.park_after = b.sub(self.arg["horizon"],
                                    _const(int(policy != L.POLICY_NONE)))
            # an uncontested access moves the bank's pointer (round robin: past the core)
            self.claims = policy in (L.POLICY_ROUND_ROBIN, L.POLICY_RR_ARB_TREE)
            self.pointer = b.add(c, _const(int(policy == L.POLICY_ROUND_ROBIN)))
            self.banks = _const(int(self.shared.cfg[L.K_NBANKS]) - 1)
            self.load_rl = _const((int(self.shared.cfg[L.K_LOAD_LAT]) + 1) << L.RDY_SHIFT
                                  | L.C_LOAD_USE)
            self.tohost = self.config(L.K_TOHOST)
            self.watch = (self.ld("CL", L.L_WATCH), self.ld("CL", L.L_WATCH + 1))
            self.tcdm = b.inttoptr(self.base["TCDM"], ir.IntType(8).as_pointer())
            self.pcmap = b.inttoptr(self.base["PCMAP"], I32.as_pointer())
        self.rl = {cls: _const(int(result_latency.py_func(self.shared.cfg, cls)))
                   for cls in sorted({int(r[L.F_CLS]) for r, k in zip(recs, kinds, strict=True)
                                      if k != "access"})}
        # the segments: entered at their first instruction (by ``start``) or from the previous
        starts = [i for i, k in enumerate(kinds) if i == 0 or k == "access"]
        ends = starts[1:] + [n]
        self.heads = [_Head(self, str(i), sorted({int(r[f]) for r in recs[i:end]
                                                  for f in (L.F_S1, L.F_S2, L.F_S3)}
                                                 - {0, L.R_ZERO}) if i == 0 else [])
                      for i, end in zip(starts, ends, strict=True)]
        b.switch(start, self.heads[0].pad).cases.extend(
            (_const(i), head.pad) for i, head in zip(starts[1:], self.heads[1:], strict=True))
        for j, (begin, end) in enumerate(zip(starts, ends, strict=True)):
            self.heads[j].enter(self)
            for i in range(begin, end):
                self.instruction(i, run.slots[i])
            if end < n:
                self.heads[j + 1].come(self, self.t, _const(0), self.loops)
                b.branch(self.heads[j + 1].block)

    def instruction(self, i: int, s: int) -> None:
        """Instruction i of the run (slot s)."""
        b, rec, n = self.b, self.code[s], self.n
        op, cls, wd = int(rec[L.F_OP]), int(rec[L.F_CLS]), int(rec[L.F_WD])
        s1, s2, s3 = int(rec[L.F_S1]), int(rec[L.F_S2]), int(rec[L.F_S3])
        imm, imm2, rm = int(rec[L.F_IMM]), int(rec[L.F_IMM2]), int(rec[L.F_RM])
        pc, t = self.slot_pc[s], self.t
        before = self.run.exit_base + 2 * i
        fell_through = self.run.exit_base + 2 * n
        last = i == n - 1
        # (an active hardware loop ending at the last instruction when it is a branch or
        # jump, the loop's business, or when the run takes no hardware-loop back edge: the
        # entry's checks, see ``ends_checked_at_entry``)
        back = (self.back_edge_plan(pc, before, t)
                if last and not self.ends_checked_at_entry(rec) else None)
        if op == O.OP_JALR:
            target, unaligned = self.jalr_target(self.value(s1), imm, before, t)
            rdy1 = self.ready(s1) if s1 != 0 else None
        # scoreboard: the latest source delays the issue (a busy FPU cannot: the engine enters
        # translated code only when the FPU is free, and translated code does not occupy it)
        issue, why = t, _const(0)
        sources = [r for r in (s1, s2, s3) if r not in (0, L.R_ZERO)]   # never late
        if sources:
            latest = self.ready(sources[0])
            for r in sources[1:]:
                latest = self.max(latest, self.ready(r))
            ready_at = b.ashr(latest, _const(L.RDY_SHIFT))
            why = b.and_(latest, _const(L.RDY_MASK))
            # issue = max(t, ready_at), as a branch (a stall is rare) so that the cycle's
            # chain through the run is one add an instruction, which LLVM folds into one
            # constant add a segment
            stalled, issued = self.block(), self.block()
            b.cbranch(b.icmp_signed(">", ready_at, t), stalled, issued).set_weights([1, 1000])
            on_time = b.block
            b.position_at_end(stalled)
            # past the stall, the rest of the run (one cycle an instruction) must end within
            # the cycle limit; else the loop goes on from here
            self.exit_if(b.icmp_signed(">", b.add(ready_at, _const(n - 1 - i)),
                                       self.arg["max_cycles"]), before, t)
            self.stall(s, why, b.sub(ready_at, t))
            late = b.block
            b.branch(issued)
            b.position_at_end(issued)
            issue = b.phi(I64)
            issue.add_incoming(t, on_time)
            issue.add_incoming(ready_at, late)
        a, v2 = self.value(s1), self.value(s2)
        if op == O.OP_MEM:
            self.access(i, s, rec, issue, before)
        elif op in TX.BRANCH_OPS:
            other = _const(imm2 & M32) if op in (O.OP_BEQIMM, O.OP_BNEIMM) else v2
            self.count(s)
            taken, on = self.block(), self.block()
            b.cbranch(branch_taken(b, op, a=a, b=other), taken, on)
            b.position_at_end(taken)
            self.taken(s, issue, L.K_BRANCH_PEN, L.C_BRANCH)
            b.position_at_end(on)
            self.leave(fell_through, b.add(issue, _const(1)))
            return
        elif op == O.OP_JAL:
            self.retire(wd, self.rl[cls], issue, _const((pc + int(rec[L.F_LEN])) & M32))
            self.count(s)
            self.taken(s, issue, L.K_JUMP_PEN, L.C_JUMP)
            return
        elif op == O.OP_JALR:
            self.jalr(i, s, rec, issue, target, unaligned, rdy1)
            return
        elif op in TX.ALU_OPS:
            self.retire(wd, self.rl[cls], issue,
                        alu_result(b, op, a=a, b=v2, imm=_const(imm), pc=_const(pc)))
        else:
            c3 = self.value(s3)
            if fast_fma(op, rm):
                if self.loops_on_itself:
                    nx = b.icmp_signed("!=", b.and_(b.load(self.fflags), _const(sf.NX)),
                                       _const(0))
                    done, result, flags = fma_fast(b, op, a, v2, c3, nx)
                else:
                    out = b.call(self.shared.fma(op), [a, v2, c3])
                    done, result, flags = (b.extract_value(out, k) for k in range(3))
                self.exit_if(b.not_(done), before, issue)
            else:
                rmv = self.frm if op in TX.FP_OPS and rm == 7 else _const(rm)
                result = self.call("isasim_scalar", _const(op), a, v2, c3, _const(imm),
                                   _const(imm2), rmv if op in TX.FP_OPS else _const(0), self.out)
                flags = b.load(self.out)
            if op in TX.FP_OPS:
                # (through a stack slot LLVM keeps in a register: no load of the last store
                # on the path of every FP operation)
                accrued = b.or_(b.load(self.fflags), flags)
                b.store(accrued, self.fflags)
                self.st("CS", L.CS_FFLAGS, accrued)
            self.retire(wd, self.rl[cls], issue, result)
        self.count(s)
        self.t = b.add(issue, _const(1))
        if last:
            self.take_back_edge(pc, back)
            self.leave(fell_through, self.t)

    def max(self, x: ir.Value, y: ir.Value) -> ir.Value:
        return self.b.select(self.b.icmp_signed("<", x, y), y, x)

    # -- memory accesses ---------------------------------------------------------------------
    def access(self, i: int, s: int, rec: np.ndarray, issue: ir.Value, before: int) -> None:
        """A load or store, as the loop's path for an aligned TCDM access, where the loop would
        do nothing else (else it takes the instruction over: outside the TCDM, misaligned, a
        store into decoded code, to the HTIF tohost words or into a watched range); parks when
        another core may act first, unless a scheduling round granted it (``granted``, where
        the run was entered)."""
        b = self.b
        mem, wd, imm = int(rec[L.F_MEM]), int(rec[L.F_WD]), int(rec[L.F_IMM])
        store = mem & L.MEM_KIND_MASK == L.MEM_STORE
        lsz = (mem >> L.MEM_SIZE_SHIFT) & 3
        size = 1 << lsz
        amode, inc = (mem >> L.MEM_AMODE_SHIFT) & 3, (mem >> L.MEM_INC_SHIFT) & 3
        a, bv = self.value(int(rec[L.F_S1])), self.value(int(rec[L.F_S2]))
        cv = self.value(int(rec[L.F_S3]))
        offset = {L.AMODE_IMM: _const(imm), L.AMODE_BASE: _const(0)}.get(
            amode, cv if store else bv)
        ea = b.and_(b.add(a, offset), _const(M32))
        dd = b.sub(ea, self.tcdm_base)
        room = b.sub(self.tcdm_size, _const(size))      # (unsigned: dd < 0 is outside too)
        bad = b.or_(b.or_(b.icmp_signed("!=", b.and_(ea, _const(size - 1)), _const(0)),
                          b.icmp_unsigned(">", dd, room)),
                    b.icmp_signed("<", room, _const(0)))
        self.exit_if(bad, before, issue)
        if store:
            self.exit_if(self.special_store(ea, dd, size), before, issue)
        bank = b.and_(b.lshr(ea, _const(2)), self.banks)
        asked = b.icmp_signed("==", self.granted, _const(0))
        self.exit_if(b.and_(asked, b.icmp_signed(">", issue, self.park_after)), before + 1,
                     issue, lambda: self.st("CS", L.CS_PARK_RES, bank))
        if self.claims:
            with b.if_then(asked):
                b.store(self.pointer,
                        b.gep(self.base["CL"], [b.add(bank, _const(L.L_BANK_RR))]))
        ty = ir.IntType(8 * size)
        at = b.bitcast(b.gep(self.tcdm, [dd]), ty.as_pointer())
        if store:
            b.store(b.trunc(bv, ty), at)
        else:
            value = b.zext(b.load(at), I64)
            if lsz < 2 and mem & L.MEM_EXTEND:
                # memory.load: sign extension, or (flh) NaN-boxing
                high = _const(M32 & ~((1 << (8 * size)) - 1))
                negative = b.icmp_signed("!=", b.and_(value, _const(1 << (8 * size - 1))),
                                         _const(0))
                extend = (_const(1) if mem & L.MEM_NANBOX else
                          b.zext(negative, I64))
                value = b.select(b.icmp_signed("!=", extend, _const(0)), b.or_(value, high),
                                 value)
        if inc != L.INC_NONE:
            step = _const(imm) if inc == L.INC_IMM else (cv if store else bv)
            wd2 = int(rec[L.F_WD2])
            self.write(wd2, b.and_(b.add(a, step), _const(M32)),
                       b.shl(b.add(issue, _const(1)), _const(L.RDY_SHIFT)))
            if wd2 == wd and wd != L.R_SINK:
                at = self._at("CS", L.CS_WARN)
                b.store(b.or_(b.load(at), _const(L.WARN_POSTINC_RD_EQ_RS1)), at)
        if not store:
            self.retire(wd, self.load_rl, issue, value)

    def special_store(self, ea: ir.Value, dd: ir.Value, size: int) -> ir.Value:
        """Is this TCDM store one the loop must do: over decoded instructions (it unlinks them,
        ``engine.invalidate_code``: halfwords h, h - 1 and for a word h + 1), to the HTIF
        tohost words, into the debugger's watched range?  (A store to the TCDM's first
        halfword too: the loop looks at the halfword before it, which is not the TCDM's.)"""
        b = self.b
        h = b.lshr(dd, _const(1))
        code = b.icmp_signed("==", h, _const(0))
        for k in (0, -1, 1) if size == 4 else (0, -1):
            at = b.add(h, _const(k)) if k >= 0 else b.select(code, h, b.sub(h, _const(1)))
            entry = b.sext(b.load(b.gep(self.pcmap, [at])), I64)
            code = b.or_(code, b.icmp_signed(">=", entry, _const(0)))
        word = b.and_(ea, _const(0xFFFFFFFC))
        tohost = b.and_(b.icmp_signed(">=", self.tohost, _const(0)),
                        b.or_(b.icmp_signed("==", word, self.tohost),
                              b.icmp_signed("==", word, b.add(self.tohost, _const(4)))))
        lo, hi = self.watch
        watched = b.and_(b.icmp_signed("<", ea, hi),
                         b.icmp_signed(">", b.add(ea, _const(size)), lo))
        return b.or_(b.or_(code, tohost), watched)

    # -- control transfers -------------------------------------------------------------------
    def taken(self, s: int, issue: ir.Value, pen_key: int, cat: int) -> None:
        """A taken branch or jump: its penalty, and the exit to the target (or, when that is
        the run's own start, the run again).  A 32-bit target that is not word-aligned costs
        the core one fetch more (``unaligned_target_penalty`` in the loop; translated code runs
        only while the text is as predecoded)."""
        if pen_key == L.K_BRANCH_PEN:
            self.add_to("CS", L.CS_TAKEN, _const(1))
        pen = self.config(pen_key)
        tgt = int(self.code[s, L.F_TGT])
        if self.slot_pc[tgt] & 2 and int(self.code[tgt, L.F_LEN]) == 4:
            pen = self.b.add(pen, self.config(L.K_UNALIGNED_TGT))
        t = self.penalty(s, issue, pen, cat)
        exit_id = self.run.exit_base + 2 * self.n + 1
        if int(self.code[s, L.F_TGT]) == self.run.slots[0]:
            self.again(exit_id, t)
        else:
            self.leave(exit_id, t)

    def penalty(self, s: int, issue: ir.Value, pen: ir.Value, cat: int) -> ir.Value:
        """A jump's or taken branch's ``pen`` cycles of category ``cat`` (the core's and slot
        s's), after its issue cycle: the cycle it goes on at."""
        self.add_to("CAT", cat, pen)
        self.count(s, L.PS_STALL + cat, pen)
        return self.b.add(self.b.add(issue, _const(1)), pen)

    def jalr_target(self, a: ir.Value, imm: int, before: int,
                    t: ir.Value) -> tuple[ir.Value, ir.Value]:
        """A jalr's target (``(rs1 + imm) & ~1``) and the unaligned-target cycle it costs (a
        32-bit instruction at 2 mod 4, as ``unaligned_target_penalty``); a target at 2 mod 4
        where no instruction is decoded is left to the loop (before the jalr: nothing of it
        is done yet)."""
        b = self.b
        target = b.and_(b.add(a, _const(imm)), _const(0xFFFFFFFE))
        odd = b.icmp_signed("!=", b.and_(target, _const(2)), _const(0))
        length = b.select(odd, b.call(self.shared.length_at(), [target]), _const(2))
        self.exit_if(b.icmp_signed("==", length, _const(0)), before, t)
        unaligned = b.select(b.icmp_signed("==", length, _const(4)),
                             self.config(L.K_UNALIGNED_TGT), _const(0))
        return target, unaligned

    def jalr(self, i: int, s: int, rec: np.ndarray, issue: ir.Value, target: ir.Value,
             unaligned: ir.Value, rdy1: ir.Value | None) -> None:
        """``jalr`` (``ret``, an indirect call or jump) as the loop does it: the link, the
        jump penalty, one cycle more when the previous instruction wrote rs1 (``rdy1``, its
        scoreboard entry before the jalr: ready at the issue cycle; CV32E40P's jalr hazard,
        counted in ``CS_JMP_STALL`` too) and the unaligned-target cycle; it leaves by the
        taken exit with the target written into its row (by the fall-through exit when the
        target is the next instruction: no new run of sequential execution then)."""
        b = self.b
        pc, ln = self.slot_pc[s], int(rec[L.F_LEN])
        link = _const((pc + ln) & M32)
        pen = b.add(self.config(L.K_JUMP_PEN), unaligned)
        if rdy1 is not None:
            hazard = b.icmp_signed(">=", b.ashr(rdy1, _const(L.RDY_SHIFT)), issue)
            extra = b.select(hazard, self.config(L.K_JALR_DEP), _const(0))
            self.add_to("CS", L.CS_JMP_STALL, extra)
            pen = b.add(pen, extra)
        self.retire(int(rec[L.F_WD]), self.rl[int(rec[L.F_CLS])], issue, link)
        self.count(s)
        t = self.penalty(s, issue, pen, L.C_JUMP)
        onward, jumped = self.block(), self.block()
        b.cbranch(b.icmp_signed("==", target, link), onward, jumped)
        b.position_at_end(onward)
        self.leave(self.run.exit_base + 2 * self.n, t)
        b.position_at_end(jumped)
        exit_id = self.run.exit_base + 2 * self.n + 1
        table = b.load(self.shared.exit_table)
        b.store(target, b.gep(table, [_const(exit_id * TX.EXIT_FIELDS)]))
        self.leave(exit_id, t)

    def again(self, exit_id: int, t: ir.Value) -> None:
        """Back to the run's own start at cycle t, a new run of sequential execution in the
        ring (as ``engine.start_run`` records it); through exit ``exit_id`` instead when the
        cycle limit is within the run's length (the entry's condition), or after ``PASSES``
        passes (the instructions they retired must fit the result's high half)."""
        b = self.b
        self.exit_if(b.or_(b.icmp_signed(">", b.add(t, _const(self.n)), self.arg["max_cycles"]),
                           b.icmp_signed(">=", self.loops, _const(PASSES))), exit_id, t)
        loops = b.add(self.loops, _const(1))
        # instret of the run's first instruction: the entry's, plus what retired since
        retired = b.sub(b.mul(loops, _const(self.n)), self.arg["start"])
        self.record_run(self.slot_pc[self.run.slots[0]], b.add(self.arg["instret"], retired))
        self.heads[0].come(self, t, _const(0), loops)
        b.branch(self.heads[0].block)

    def ends_checked_at_entry(self, last: np.ndarray) -> bool:
        """Does the entry also check for an active hardware loop ending at the run's last
        instruction (then the loop takes the run over)?  Yes when that instruction is a branch
        or jump (such a loop is the loop's business) or the run takes no hardware-loop back edge
        (one the program's set-ups give): else ``back_edge_plan`` takes it.  Nothing but a
        hardware-loop back edge changes a loop's state while the run runs, so the entry's
        answer holds on every pass, and a loop body running in one call does not ask again."""
        return int(last[L.F_OP]) in TX.BRANCH_OPS | {O.OP_JAL, O.OP_JALR} or not self.run.back

    def back_edge_plan(self, pc: int, before: int, t: ir.Value):
        """At the run's last instruction, before it executes: the hardware-loop back edge it
        will take, as the loop decides it after the instruction retires (loop 0 first, then
        loop 1 when loop 0 ends there too): (new count of loop 0, of loop 1, whether to go
        back, the start to go back to).  A start the run has no exit to (not one the program's
        set-ups give) is left to the loop."""
        b = self.b
        count0, count1 = self.ld("CS", L.CS_LPC0), self.ld("CS", L.CS_LPC1)
        at0 = b.and_(b.icmp_signed("==", self.ld("CS", L.CS_LPE0), _const(pc)),
                     b.icmp_signed("!=", count0, _const(0)))
        at1 = b.and_(b.icmp_signed("==", self.ld("CS", L.CS_LPE1), _const(pc)),
                     b.icmp_signed("!=", count1, _const(0)))
        new0 = b.sub(count0, b.zext(at0, I64))
        dec1 = b.and_(at1, b.or_(b.not_(at0), b.icmp_signed("==", new0, _const(0))))
        new1 = b.sub(count1, b.zext(dec1, I64))
        back0 = b.and_(at0, b.icmp_signed("!=", new0, _const(0)))
        back1 = b.and_(dec1, b.icmp_signed("!=", new1, _const(0)))
        target = b.select(back0, self.ld("CS", L.CS_LPS0), self.ld("CS", L.CS_LPS1))
        known = _const(0, I1)
        for slot in self.run.back:
            known = b.or_(known, b.icmp_signed("==", target, _const(self.slot_pc[slot])))
        self.exit_if(b.and_(b.or_(back0, back1), b.not_(known)), before, t)
        return new0, new1, b.or_(back0, back1), target

    def take_back_edge(self, pc: int, plan) -> None:
        """After the last instruction retired: the hardware loops' counts, and the back edge
        (through its exit, or ``again`` when it goes back to the run's own start)."""
        if plan is None:
            return
        b = self.b
        new0, new1, back, target = plan
        self.st("CS", L.CS_LPC0, new0)
        self.st("CS", L.CS_LPC1, new1)
        for k, slot in enumerate(self.run.back):
            exit_id = self.run.exit_base + 2 * self.n + 2 + k
            here = b.and_(back, b.icmp_signed("==", target, _const(self.slot_pc[slot])))
            go, other = self.block(), self.block()
            b.cbranch(here, go, other)
            b.position_at_end(go)
            if slot == self.run.slots[0]:
                self.again(exit_id, self.t)
            else:
                self.leave(exit_id, self.t)
            b.position_at_end(other)

    def record_run(self, pc: int, instret: ir.Value) -> None:
        """``engine.start_run``: (pc, instret) into the core's ring of runs."""
        b = self.b
        k = self.ld("CS", L.CS_RUNS)
        w = b.add(b.add(b.mul(self.arg["c"], _const(L.RUN_RING * 2)), _const(L.L_RUNS)),
                  b.shl(b.and_(k, _const(L.RUN_RING - 1)), _const(1)))
        b.store(_const(pc), b.gep(self.base["CL"], [w]))
        b.store(instret, b.gep(self.base["CL"], [b.add(w, _const(1))]))
        self.st("CS", L.CS_RUNS, b.add(k, _const(1)))


def module_ir(code: np.ndarray, slot_pc: list[int], runs: list[TX.Run],
              exits: np.ndarray, cfg: np.ndarray) -> str:
    """The IR text of a program's runs, ``run<rid>`` each, and of ``exit_table_at`` (see
    ``translate.bind_exit_table``; ``exits``: the exit table, whose digest the text holds).
    ``cfg``: the machine's ``CFG``, whose values the code has as constants."""
    module = ir.Module(name="isasim_translated")
    digest = ir.GlobalVariable(module, I64, "exit_table_digest")
    digest.global_constant = True
    digest.initializer = _const(int.from_bytes(
        hashlib.sha256(np.ascontiguousarray(exits, dtype=np.int64).tobytes()).digest()[:8],
        "little", signed=True))
    helpers = {}
    for name, (_, sig) in TX.HELPERS.items():
        args = [I64P, I64P.as_pointer()] + [I64] * (len(sig.args) - 1) + [I64P]
        helpers[name] = ir.Function(module, ir.FunctionType(I32, args), name)
        helpers[name].attributes.add("nounwind")
    shared = _Shared(module, code, slot_pc, cfg)
    for rid, run in enumerate(runs):
        _Writer(module, helpers, shared, rid, run, code, slot_pc).write_function()
    return str(module)
