"""LLVM IR of a program's translated runs (``isasim.translate`` finds them).

One function per run, ``i64 run<rid>(start, t, granted, c, pb, horizon, max_cycles, CL)``
(``translate.PARAMS``): it executes the run from instruction ``start`` (0 or one of its loads)
and returns the exit it left by, with the core's cycle stored in ``CS_T``.  Everything the
loop would look up per instruction (operation, registers, immediates, slot, pc, latency class)
is a constant; register values and scoreboard entries live in SSA values between the
instructions of a *segment* (from one entry to the next), and are stored back as each
instruction retires, as the loop does, so that every exit leaves the loop's state.

The IR is written directly (no numba typing): a 1,800-instruction program is a few tens of
milliseconds of Python here and a few hundred of LLVM (``isasim.llvm_jit``).  The ALU and
branch expressions are compiled from the source of ``semantics.alu_result`` and
``semantics.branch_taken`` (``_Expression``); the other operations call the loop's compiled
functions through ``translate.HELPERS``.
"""

from __future__ import annotations

import ast
import inspect
import textwrap

import numpy as np
from llvmlite import ir

from isasim import layout as L
from isasim import opcodes as O
from isasim import semantics
from isasim import softfloat as sf
from isasim import translate as TX
from isasim.semantics import fp_needs_rm

I1, I32, I64 = ir.IntType(1), ir.IntType(32), ir.IntType(64)
F32, F64 = ir.FloatType(), ir.DoubleType()
I64P = I64.as_pointer()
M32 = 0xFFFFFFFF


def function_name(rid: int) -> str:
    return f"run{rid}"


def _const(v: int | ir.Value) -> ir.Value:
    return v if isinstance(v, ir.Value) else ir.Constant(I64, v)


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


def _f64_of_f32(b: ir.IRBuilder, bits: ir.Value) -> ir.Value:
    """``softfloat.widen_f32``: the binary32 pattern in the low 32 bits, widened."""
    return b.fpext(b.bitcast(b.trunc(bits, I32), F32), F64)


def _fast_operand(b: ir.IRBuilder, x: ir.Value) -> ir.Value:
    """``softfloat.fast_operand``: not a subnormal binary32 pattern."""
    low = b.and_(b.sub(b.and_(x, _const(0x7FFFFFFF)), _const(1)), _const(M32))
    return b.icmp_signed(">=", low, _const(0x7FFFFF))


def fma_fast(b: ir.IRBuilder, op: int, x: ir.Value, y: ir.Value,
             z: ir.Value) -> tuple[ir.Value, ir.Value, ir.Value]:
    """``semantics.fma_family_fast(op, x, y, z)`` in IR, the same host operations in the same
    order (so the same bits and flags): ``(decided, result, fflags)``.

    Operands as ``fma_family_fast`` forms them; ``softfloat.fma_fast_rne``: the exact product
    and its sum with z in float64, the sum's error by TwoSum, round to odd when inexact, one
    conversion to binary32; declined (not decided) when an operand is subnormal or the sum is
    not zero and not in ``[2**-126, 2**128 - 2**103)`` (NaN and infinite operands included).
    ``tests/engine/test_translate_fma.py`` holds the two against each other bit for bit."""
    addsub = op in (O.OP_FADD_S, O.OP_FSUB_S)
    if op > O.OP_FNMADD_S:
        # a plain product adds -0 (x + -0 = x for every x, including -0)
        z = y if op != O.OP_FMUL_S else _const(0x80000000)
    if addsub:
        y = _const(0x3F800000)
    fast = b.and_(b.and_(_fast_operand(b, x), _fast_operand(b, y)), _fast_operand(b, z))
    px, zz = _f64_of_f32(b, x), _f64_of_f32(b, z)
    if op in (O.OP_FNMSUB_S, O.OP_FNMADD_S):
        px = b.fneg(px)
    if op in (O.OP_FMSUB_S, O.OP_FNMADD_S, O.OP_FSUB_S):
        zz = b.fneg(zz)
    # softfloat.fma_fast_rne
    p = b.fmul(px, _f64_of_f32(b, y))
    s = b.fadd(p, zz)
    sb = b.bitcast(s, I64)
    zero = b.fcmp_ordered("==", s, ir.Constant(F64, 0.0))
    av = b.bitcast(b.and_(sb, _const((1 << 63) - 1)), F64)
    in_range = b.and_(b.fcmp_ordered(">=", av, ir.Constant(F64, sf._FAST_MIN)),
                      b.fcmp_ordered("<", av, ir.Constant(F64, sf._FAST_MAX)))
    bb = b.fsub(s, p)
    t = b.fadd(b.fsub(p, b.fsub(s, bb)), b.fsub(zz, bb))
    inexact = b.fcmp_unordered("!=", t, ir.Constant(F64, 0.0))
    below = b.zext(b.icmp_unsigned("!=", b.fcmp_ordered("<", t, ir.Constant(F64, 0.0)),
                                   b.icmp_signed("<", sb, _const(0))), I64)
    odd = b.select(inexact, b.bitcast(b.or_(b.sub(sb, below), _const(1)), F64), s)
    narrow = b.fptrunc(odd, F32)
    bits = b.zext(b.bitcast(narrow, I32), I64)
    rounded = b.fcmp_unordered("!=", b.fpext(narrow, F64), odd)
    flags = b.select(b.or_(inexact, rounded), _const(sf.NX), _const(0))
    signed_zero = b.select(b.icmp_signed("<", sb, _const(0)), _const(sf._SIGN), _const(0))
    return (b.and_(fast, b.or_(zero, in_range)), b.select(zero, signed_zero, bits),
            b.select(zero, _const(0), flags))


# ---------------------------------------------------------------------------------------------
# a run
# ---------------------------------------------------------------------------------------------
class _Writer:
    """The IR of one run's function."""

    def __init__(self, module: ir.Module, helpers: dict, rid: int, run: TX.Run,
                 code: np.ndarray, slot_pc: list[int]) -> None:
        self.run, self.code, self.slot_pc, self.helpers = run, code, slot_pc, helpers
        self.fn = ir.Function(module, ir.FunctionType(I64, [I64] * TX.ARGS), function_name(rid))
        self.fn.attributes.add("nounwind")
        self.arg = dict(zip(TX.PARAMS, self.fn.args, strict=True))
        self.b = ir.IRBuilder(self.fn.append_basic_block("entry"))
        self.val: dict[int, ir.Value] = {}   # register -> its value, in the current segment
        self.rdy: dict[int, ir.Value] = {}   # register -> its scoreboard entry
        self.blocks = 0

    # -- memory ------------------------------------------------------------------------------
    def _at(self, array: str, index) -> ir.Value:
        base = self.arrays[array] if array != "CL" else self.cl
        return self.b.gep(base, [_const(index)])

    def ld(self, array: str, index) -> ir.Value:
        return self.b.load(self._at(array, index))

    def st(self, array: str, index, value) -> None:
        self.b.store(value, self._at(array, index))

    def add_to(self, array: str, index, amount) -> None:
        at = self._at(array, index)
        self.b.store(self.b.add(self.b.load(at), amount), at)

    def plus(self, base: ir.Value, k: int) -> ir.Value:
        return self.b.add(base, _const(k)) if k else base

    # -- control -----------------------------------------------------------------------------
    def block(self) -> ir.Block:
        self.blocks += 1
        return self.fn.append_basic_block(f"b{self.blocks}")

    def leave(self, exit_id, t: ir.Value) -> None:
        """Leave by exit ``exit_id`` at cycle t (through the function's one return block)."""
        self.exit_id.add_incoming(_const(exit_id), self.b.block)
        self.exit_t.add_incoming(t, self.b.block)
        self.b.branch(self.exit_block)

    def exit_if(self, cond: ir.Value, exit_id, t: ir.Value, before_leaving=None) -> None:
        on = self.block()
        if before_leaving is None:
            self.exit_id.add_incoming(_const(exit_id), self.b.block)
            self.exit_t.add_incoming(t, self.b.block)
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
            self.val[r] = self.ld("R", self.plus(self.rb, r))
        return self.val[r]

    def ready(self, r: int) -> ir.Value:
        if r not in self.rdy:
            self.rdy[r] = self.ld("RDY", self.plus(self.rb, r))
        return self.rdy[r]

    def retire(self, wd: int, latency: ir.Value, issue: ir.Value, result: ir.Value) -> None:
        if wd == L.R_SINK:
            return
        b = self.b
        self.val[wd] = result
        self.rdy[wd] = b.add(b.shl(issue, _const(L.RDY_SHIFT)), latency)
        self.st("R", self.plus(self.rb, wd), result)
        self.st("RDY", self.plus(self.rb, wd), self.rdy[wd])

    def count(self, s: int, offset: int = 0, amount: ir.Value | None = None) -> None:
        """The per-instruction profile of slot s: its count, or (offset) a stall column."""
        self.add_to("PCS", self.plus(self.pbn, s * L.NPS + offset),
                    _const(1) if amount is None else amount)

    def stall(self, s: int, why: ir.Value, amount: ir.Value) -> None:
        self.add_to("CAT", self.b.add(self.cn, why), amount)
        self.add_to("PCS", self.b.add(self.plus(self.pbn, s * L.NPS + L.PS_STALL), why), amount)

    def call(self, name: str, *args: ir.Value) -> ir.Value:
        """A helper's result (``translate.HELPERS``: numba's calling convention)."""
        self.b.call(self.helpers[name], [self.ret, self.exc, *args])
        return self.b.load(self.ret)

    # -- the function ------------------------------------------------------------------------
    def write(self) -> None:
        b, run, code = self.b, self.run, self.code
        recs = [code[s] for s in run.slots]
        kinds = [TX.kind(r, False) for r in recs]
        first, last = self.slot_pc[run.slots[0]], self.slot_pc[run.slots[-1]]
        self.cl = b.inttoptr(self.arg["CL"], I64P)
        self.arrays = {name: self.ld("CL", L.L_TX_ARRAYS + k) for k, name in enumerate(TX.ARRAYS)}
        for name in TX.ARRAYS[:-1]:
            self.arrays[name] = b.inttoptr(self.arrays[name], I64P)
        c = self.arg["c"]
        self.rb, self.cb = b.mul(c, _const(L.RS)), b.mul(c, _const(L.NCS))
        self.cn, self.pbn = b.mul(c, _const(L.NCAT)), b.mul(self.arg["pb"], _const(L.NPS))
        self.ret, self.exc = b.alloca(I64), b.alloca(I64.as_pointer())
        self.out = b.alloca(I64, 2)
        # the return block: the core's cycle to CS_T, the exit to the engine
        self.exit_block = self.fn.append_basic_block("leave")
        with b.goto_block(self.exit_block):
            self.exit_id, self.exit_t = b.phi(I64), b.phi(I64)
            self.st("CS", self.plus(self.cb, L.CS_T), self.exit_t)
            b.ret(self.exit_id)
        # an active hardware loop ending in the run: its back edge is the loop's business, so
        # the run stops before that instruction (at once when it is not the last one)
        self.lpe = []
        for count_at, end_at in ((L.CS_LPC0, L.CS_LPE0), (L.CS_LPC1, L.CS_LPE1)):
            active = b.icmp_signed("!=", self.ld("CS", self.plus(self.cb, count_at)), _const(0))
            self.lpe.append(b.select(active, self.ld("CS", self.plus(self.cb, end_at)),
                                     _const(-1)))
        inside = [b.and_(b.icmp_signed("<=", _const(first), e), b.icmp_signed("<", e, _const(last)))
                  for e in self.lpe]
        start, t = self.arg["start"], self.arg["t"]
        self.exit_if(b.or_(*inside), b.add(_const(run.exit_base), b.shl(start, _const(1))), t)
        if "load" in kinds:
            self.tcdm_base = self.ld("CFG", L.K_TCDM_BASE)
            self.tcdm_size = self.ld("CFG", L.K_TCDM_SIZE)
            self.policy = self.ld("CFG", L.K_POLICY)
            self.banks = b.sub(self.ld("CFG", L.K_NBANKS), _const(1))
            lat = b.add(self.ld("CFG", L.K_LOAD_LAT), _const(1))
            self.load_rl = b.or_(b.shl(lat, _const(L.RDY_SHIFT)), _const(L.C_LOAD_USE))
        if any(int(r[L.F_OP]) in TX.FP_OPS for r in recs):
            mstatus = self.ld("CS", self.plus(self.cb, L.CS_MSTATUS))
            fs = b.and_(b.lshr(mstatus, _const(13)), _const(3))
            self.fpu_off = b.icmp_signed("==", fs, _const(0))
            self.frm = self.ld("CS", self.plus(self.cb, L.CS_FRM))
            self.fpubusy = self.ld("CS", self.plus(self.cb, L.CS_FPUBUSY))
        self.rl = {cls: self.ld("CL", L.L_LATWHY + cls)
                   for cls in sorted({int(r[L.F_CLS]) for r, k in zip(recs, kinds, strict=True)
                                      if k != "load"})}
        # the segments: entered at their first instruction (by ``start``) or from the previous
        starts = [i for i, k in enumerate(kinds) if i == 0 or k == "load"]
        heads = [self.block() for _ in starts]
        entry_block = b.block
        b.switch(start, heads[0]).cases.extend(
            (_const(i), head) for i, head in zip(starts[1:], heads[1:], strict=True))
        from_previous = None
        for j, begin in enumerate(starts):
            end = starts[j + 1] if j + 1 < len(starts) else len(run.slots)
            b.position_at_end(heads[j])
            self.t = t
            if from_previous is not None:
                self.t = b.phi(I64)
                self.t.add_incoming(t, entry_block)
                self.t.add_incoming(*from_previous)
            self.val, self.rdy = {}, {}
            for i in range(begin, end):
                self.instruction(i, run.slots[i])
            if end < len(run.slots):
                from_previous = (self.t, b.block)
                b.branch(heads[j + 1])

    def instruction(self, i: int, s: int) -> None:
        """Instruction i of the run (slot s)."""
        b, rec = self.b, self.code[s]
        op, cls, wd = int(rec[L.F_OP]), int(rec[L.F_CLS]), int(rec[L.F_WD])
        s1, s2, s3 = int(rec[L.F_S1]), int(rec[L.F_S2]), int(rec[L.F_S3])
        imm, imm2, rm = int(rec[L.F_IMM]), int(rec[L.F_IMM2]), int(rec[L.F_RM])
        pc, n, t = self.slot_pc[s], len(self.run.slots), self.t
        before = self.run.exit_base + 2 * i
        fell_through = self.run.exit_base + 2 * n
        is_fp = op in TX.FP_OPS
        if i > 0:
            self.exit_if(b.icmp_signed(">", t, self.arg["max_cycles"]), before, t)
        if i == n - 1:
            self.exit_if(b.or_(*(b.icmp_signed("==", e, _const(pc)) for e in self.lpe)), before, t)
        rmv = _const(rm)
        if is_fp:
            self.exit_if(self.fpu_off, before, t)
            if rm == 7:
                rmv = self.frm
                if fast_fma(op, rm):
                    # only round to nearest even has the fast path; the loop does the rest
                    self.exit_if(b.icmp_signed("!=", rmv, _const(0)), before, t)
                elif fp_needs_rm.py_func(op):
                    self.exit_if(b.icmp_signed(">", rmv, _const(4)), before, t)
        # scoreboard: the latest source, or a busy FPU, delays the issue
        issue, why = t, _const(0)
        sources = [r for r in (s1, s2, s3) if r not in (0, L.R_ZERO)]   # never late
        if sources:
            latest = self.ready(sources[0])
            for r in sources[1:]:
                latest = self.max(latest, self.ready(r))
            issue = self.max(t, b.ashr(latest, _const(L.RDY_SHIFT)))
            why = b.and_(latest, _const(L.RDY_MASK))
        if is_fp:
            busy = b.icmp_signed(">", self.fpubusy, issue)
            why = b.select(busy, _const(L.C_FPU_STRUCT), why)
            issue = b.select(busy, self.fpubusy, issue)
        if issue is not t:
            with b.if_then(b.icmp_signed(">", issue, t)):
                self.stall(s, why, b.sub(issue, t))
        a, v2 = self.value(s1), self.value(s2)
        if op == O.OP_MEM:
            self.load(i, s, a, imm, wd, issue, before)
            return
        if op in TX.BRANCH_OPS:
            other = _const(imm2 & M32) if op in (O.OP_BEQIMM, O.OP_BNEIMM) else v2
            self.count(s)
            taken, on = self.block(), self.block()
            b.cbranch(branch_taken(b, op, a=a, b=other), taken, on)
            b.position_at_end(taken)
            self.taken(s, issue, L.K_BRANCH_PEN, L.C_BRANCH)
            b.position_at_end(on)
            self.leave(fell_through, b.add(issue, _const(1)))
            return
        if op == O.OP_JAL:
            self.retire(wd, self.rl[cls], issue, _const((pc + int(rec[L.F_LEN])) & M32))
            self.count(s)
            self.taken(s, issue, L.K_JUMP_PEN, L.C_JUMP)
            return
        if op in TX.ALU_OPS:
            result = alu_result(b, op, a=a, b=v2, imm=_const(imm), pc=_const(pc))
        else:
            c3 = self.value(s3)
            if fast_fma(op, rm):
                done, result, flags = fma_fast(b, op, a, v2, c3)
                self.exit_if(b.not_(done), before, issue)
            else:
                result = self.call("isasim_scalar", _const(op), a, v2, c3, _const(imm),
                                   _const(imm2), rmv if is_fp else _const(0), self.out)
                flags = b.load(self.out)
            with b.if_then(b.icmp_signed("!=", flags, _const(0))):
                at = self._at("CS", self.plus(self.cb, L.CS_FFLAGS))
                b.store(b.or_(b.load(at), flags), at)
        self.retire(wd, self.rl[cls], issue, result)
        self.count(s)
        self.t = b.add(issue, _const(1))
        if i == n - 1:
            self.leave(fell_through, self.t)

    def max(self, x: ir.Value, y: ir.Value) -> ir.Value:
        return self.b.select(self.b.icmp_signed("<", x, y), y, x)

    def load(self, i: int, s: int, a: ir.Value, imm: int, wd: int, issue: ir.Value,
             before: int) -> None:
        """A word load: as the loop's short path when the address is an aligned TCDM word
        (else the loop takes it over); parks when another core may act first, unless a
        scheduling round granted it (``granted``, where the run was entered)."""
        b, n = self.b, len(self.run.slots)
        ea = b.and_(b.add(a, _const(imm)), _const(M32))
        dd = b.sub(ea, self.tcdm_base)
        bad = b.or_(b.or_(b.icmp_signed("!=", b.and_(ea, _const(3)), _const(0)),
                          b.icmp_signed("<", dd, _const(0))),
                    b.icmp_signed(">", b.add(dd, _const(4)), self.tcdm_size))
        self.exit_if(bad, before, issue)
        bank = b.and_(b.lshr(ea, _const(2)), self.banks)
        granted = self.arg["granted"]
        if i > 0:
            granted = b.select(b.icmp_signed("==", self.arg["start"], _const(i)), granted,
                               _const(0))
        asked = b.icmp_signed("==", granted, _const(0))
        horizon, policy = self.arg["horizon"], self.policy
        late = b.or_(b.icmp_signed(">", issue, horizon),
                     b.and_(b.icmp_signed("==", issue, horizon),
                            b.icmp_signed("!=", policy, _const(L.POLICY_NONE))))
        self.exit_if(b.and_(asked, late), before + 1, issue,
                     lambda: self.st("CS", self.plus(self.cb, L.CS_PARK_RES), bank))
        round_robin = b.icmp_signed("==", policy, _const(L.POLICY_ROUND_ROBIN))
        tree = b.icmp_signed("==", policy, _const(L.POLICY_RR_ARB_TREE))
        with b.if_then(b.and_(asked, b.or_(round_robin, tree))):
            c = self.arg["c"]
            self.st("CL", self.plus(bank, L.L_BANK_RR), b.select(round_robin, self.plus(c, 1), c))
        word = b.load(b.inttoptr(b.add(self.arrays["TCDM"], dd), I32.as_pointer()))
        self.retire(wd, self.load_rl, issue, b.zext(word, I64))
        self.count(s)
        self.t = b.add(issue, _const(1))
        if i == n - 1:
            self.leave(self.run.exit_base + 2 * n, self.t)

    def taken(self, s: int, issue: ir.Value, pen_key: int, cat: int) -> None:
        """A taken branch or jump: its penalty, and the exit to the target."""
        if pen_key == L.K_BRANCH_PEN:
            self.add_to("CS", self.plus(self.cb, L.CS_TAKEN), _const(1))
        pen = self.ld("CFG", pen_key)
        self.add_to("CAT", self.plus(self.cn, cat), pen)
        self.count(s, L.PS_STALL + cat, pen)
        self.leave(self.run.exit_base + 2 * len(self.run.slots) + 1,
                   self.b.add(self.b.add(issue, _const(1)), pen))


def module_ir(code: np.ndarray, slot_pc: list[int], runs: list[TX.Run]) -> str:
    """The IR text of a program's runs, ``run<rid>`` each."""
    module = ir.Module(name="isasim_translated")
    helpers = {}
    for name, (_, sig) in TX.HELPERS.items():
        args = [I64P, I64P.as_pointer()] + [I64] * (len(sig.args) - 1) + [I64P]
        helpers[name] = ir.Function(module, ir.FunctionType(I32, args), name)
        helpers[name].attributes.add("nounwind")
    for rid, run in enumerate(runs):
        _Writer(module, helpers, rid, run, code, slot_pc).write()
    return str(module)
