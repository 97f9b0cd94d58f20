"""The compiled simulation loop: all cores of the cluster, cycle-exact, in one numba function.

How time works.  Each core has its own clock ``T`` (the cycle at which it can issue next) and
runs ahead through instructions that touch only its own state: registers, its scoreboard of
register ready-cycles, hardware loops.  An access to shared state (a load or store, a device
register, a shared FPU) is performed at once when no other core or the DMA could act at or
before that cycle (the core's *horizon*); otherwise the core *parks* with the cycle at which it
would issue the access.  The scheduler then takes the earliest parked cycle, arbitrates each TCDM
bank (and shared unit) among all requesters of that same cycle (rr_arb_tree, round robin, FIFO
or none; the DMA's two ports take part), lets the winners perform their access and run ahead
again, and makes the losers retry one cycle later.  Shared state is therefore touched in global
cycle order, exactly as a lockstep simulation would, while private instructions run without
per-cycle bookkeeping and without switching cores.

How cycles are charged.  Issuing an instruction costs one cycle (``instr``).  Cycles before the
issue are charged to the reason the latest source operand was late (``load_use``, ``fpu_dep``,
``muldiv``...), cycles after it to the instruction's own penalty (``branch``, ``jump``,
``ext_mem``, ``misaligned``...), lost arbitrations to ``tcdm_conflict`` or ``fpu_struct``,
sleeping to ``barrier``, ``dma_wait`` or ``idle``.  The same amounts go to the per-instruction
profile and, when tracing, to the event log.  Their sum equals the core's cycle count by
construction, and a test checks it on every run.

Why the loop looks the way it does.  Only the common instructions (RV32I, TCDM loads and stores,
with a short path for aligned words at rs1 + imm, branches, ``mul``, the RNE fast path of the FP
add/multiply family) are executed inline; the rest goes to out-of-line functions (``exec_scalar``,
``exec_system``, ``exec_mem_slow``).  Measured here, keeping those bodies out of the loop made the
integer path 2.7x faster: a smaller loop keeps its hot values in registers.  The scheduler, on the
other hand, is inlined: numba passes each array argument of a call as seven machine words, so
calling it cost a hundred stack pushes per scheduling round.  Each instruction record links to the
slots of its fall-through and branch target (``F_NEXT``, ``F_TGT``); following them spares the
pc-map lookup, a dependent load on every instruction's critical path, until a store into the text
makes the loop stop trusting them.  Arrays are indexed with ``U(...)`` so numba drops its
negative-index fix-up.  Rare work (CSR accesses, ecall, ebreak, faults, undecoded words, the HTIF
``tohost`` location, a full trace buffer) leaves the loop with an event code; ``isasim.machine``
handles it in Python and calls the loop again, which resumes where it stopped.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.extending import intrinsic

from isasim import devices as D
from isasim import icache, jitcache, simd, soc
from isasim import layout as L
from isasim import opcodes as O
from isasim.csr import loop_access
from isasim.jitcache import compiled
from isasim.layout import U
from isasim.memory import load, store, translate
from isasim.semantics import (
    alu_result,
    branch_taken,
    exec_scalar,
    fma_family_fast,
    fp_needs_rm,
)
from isasim.translate import (
    ENTRY_FIELDS,
    EXIT_FIELDS,
    EXIT_PARKED,
    EXIT_TAKEN,
    RESUMED,
    call_translated,
)

M32 = 0xFFFFFFFF
BIG = 1 << 62
SEMIHOST_PRE = 0x01F01013    # slli x0, x0, 0x1f
SEMIHOST_EBREAK = 0x00100073
SEMIHOST_POST = 0x40705013   # srai x0, x0, 7
TRACE_HEADROOM = 64          # records one instruction or one scheduling round may add at most


# ---------------------------------------------------------------------------------------------
# accounting
# ---------------------------------------------------------------------------------------------
@compiled
def trace_run(TR, CL, CS, c, start, n, state, slot, sym):
    """Log ``n`` cycles of ``state`` (a category; C_INSTR = issuing) of core c from ``start``.

    Consecutive cycles in the same state (and, while issuing, in the same symbol) extend the
    open run; anything else closes it into the buffer.
    """
    if n <= 0:
        return
    b = c * L.NCS
    ost = CS[U(b + L.CS_TR_STATE)]
    if (ost == state and CS[U(b + L.CS_TR_START)] + CS[U(b + L.CS_TR_LEN)] == start
            and (state != L.C_INSTR or CS[U(b + L.CS_TR_SYM)] == sym)):
        CS[U(b + L.CS_TR_LEN)] += n
        return
    if ost >= 0:
        k = CL[U(L.L_TRN)]
        w = k * L.TRW
        TR[U(w)] = L.TR_RUN
        TR[U(w + 1)] = c
        TR[U(w + 2)] = CS[U(b + L.CS_TR_START)]
        TR[U(w + 3)] = CS[U(b + L.CS_TR_LEN)]
        TR[U(w + 4)] = ost
        TR[U(w + 5)] = CS[U(b + L.CS_TR_SLOT)]
        CL[U(L.L_TRN)] = k + 1
    CS[U(b + L.CS_TR_STATE)] = state
    CS[U(b + L.CS_TR_START)] = start
    CS[U(b + L.CS_TR_LEN)] = n
    CS[U(b + L.CS_TR_SLOT)] = slot
    CS[U(b + L.CS_TR_SYM)] = sym


@compiled(inline=True)
def charge(CAT, PCS, CS, CL, TR, CFG, code, c, cap, slot, cat, start, n):
    """Charge ``n`` stall cycles of category ``cat`` (from cycle ``start``) to core c, to its
    instruction ``slot`` and, when tracing, to the event log."""
    if n <= 0:
        return
    CAT[U(c * L.NCAT + cat)] += n
    if slot >= 0:
        PCS[U((c * cap + slot) * L.NPS + L.PS_STALL + cat)] += n
    if CFG[U(L.K_TRACE)]:
        sym = code[U(slot * L.NF + L.F_SYM)] if slot >= 0 else -1
        trace_run(TR, CL, CS, c, start, n, cat, slot, sym)


# ---------------------------------------------------------------------------------------------
# out-of-line instruction execution
# ---------------------------------------------------------------------------------------------
@compiled
def trap_entry(CS, cb, pc, cause, tval):
    """Enter the machine-mode trap handler; -1 when the program installed none (mtvec = 0)."""
    mtvec = CS[U(cb + L.CS_MTVEC)]
    if mtvec == 0:
        return -1
    CS[U(cb + L.CS_MEPC)] = pc
    CS[U(cb + L.CS_MCAUSE)] = cause
    CS[U(cb + L.CS_MTVAL)] = tval & M32
    ms = CS[U(cb + L.CS_MSTATUS)]
    mie = (ms >> 3) & 1
    ms = (ms & ~((1 << 7) | (1 << 3) | (3 << 11))) | (mie << 7) | (3 << 11)
    CS[U(cb + L.CS_MSTATUS)] = ms
    return mtvec & 0xFFFFFFFC


@compiled(inline=True)
def result_latency(CFG, cls):
    """Timing class ``cls``'s result latency and the category a wait for it is charged to,
    packed like a scoreboard entry (the loop keeps them at ``L_LATWHY``; translated code has
    them as constants, ``llvm_emit``)."""
    if cls == L.TC_MUL:
        return (CFG[U(L.K_MUL_LAT)] << L.RDY_SHIFT) | L.C_MULDIV
    if cls == L.TC_MULH or cls == L.TC_DIV:
        return (1 << L.RDY_SHIFT) | L.C_MULDIV
    if cls == L.TC_FPU:
        return ((1 + CFG[U(L.K_FPU_LAT)]) << L.RDY_SHIFT) | L.C_FPU_DEP
    if cls == L.TC_FPU_OTHER:
        return ((1 + CFG[U(L.K_FPU_OTHER_LAT)]) << L.RDY_SHIFT) | L.C_FPU_DEP
    if cls == L.TC_FDIV or cls == L.TC_FSQRT:
        return (CFG[U(L.K_FDIV_LAT)] << L.RDY_SHIFT) | L.C_FPU_DEP
    if cls == L.TC_FDIV16:
        return (CFG[U(L.K_FDIV16_LAT)] << L.RDY_SHIFT) | L.C_FPU_DEP
    return (1 << L.RDY_SHIFT) | L.C_LOAD_USE


@compiled(inline=True)
def start_run(CS, CL, cb, c, pc, instret):
    """Record that core c's execution continues at ``pc`` with instruction number ``instret``
    (a taken branch, jump, hardware-loop back edge, trap or return): see ``L_RUNS``."""
    k = CS[U(cb + L.CS_RUNS)]
    # (a SoC's fabric controller, core 8, has its ring past the cluster cores': layout.runs_base)
    w = (L.L_RUNS + c * L.RUN_RING * 2 if c < 8 else L.L_FC_RUNS) + (k & (L.RUN_RING - 1)) * 2
    CL[U(w)] = pc
    CL[U(w + 1)] = instret
    CS[U(cb + L.CS_RUNS)] = k + 1


@compiled(inline=True)
def park(CS, cb, t, res, slot):
    """Core ``cb // NCS`` waits for a scheduling round to grant it ``res`` (a TCDM bank, a shared
    FPU unit, or -1: an ordered device / L2 access) at cycle t, for its instruction ``slot``."""
    CS[U(cb + L.CS_STATUS)] = L.ST_PARKED
    CS[U(cb + L.CS_NEXT_T)] = t
    CS[U(cb + L.CS_PARK_FIRST)] = t
    CS[U(cb + L.CS_PARK_RES)] = res
    CS[U(cb + L.CS_PARK_SLOT)] = slot
    CS[U(cb + L.CS_TX_PARKED)] = 0


@compiled
def read_word(regions, mem8, mem16, mem32, addr):
    off, kind = translate(regions, addr, 4)
    if off < 0 or kind == L.RK_PERIPH:
        return -1
    return load(mem8, mem16, mem32, off, 2, False)


@compiled
def unaligned_target_penalty(regions, mem16, CFG, pc):
    """Extra cycles of a jump or taken branch to ``pc`` (``pc & 2`` set): CV32E40P takes one
    more when the target is a 32-bit instruction that is not word-aligned (its two halves come
    from two fetches; pipeline.rst, "Cycle counts per instruction type")."""
    off, kind = translate(regions, pc, 2)
    if off < 0 or kind == L.RK_PERIPH or mem16[U(off >> 1)] & 3 != 3:
        return 0
    return CFG[U(L.K_UNALIGNED_TGT)]


@compiled(inline=True)
def slow_csr(csr):
    """One of the CSRs CV32E40P takes 4 cycles to access (pipeline.rst, "Cycle counts per
    instruction type"): mstatus, mtvec, mcountinhibit, mhpmevent*, mepc, mcause, mcycle,
    minstret, mhpmcounter*, their high halves, dcsr, dpc, dscratch0/1."""
    return (csr == 0x300 or csr == 0x305 or csr == 0x320 or csr == 0x341 or csr == 0x342
            or 0x323 <= csr <= 0x33F or (0xB00 <= csr <= 0xB1F and csr != 0xB01)
            or (0xB80 <= csr <= 0xB9F and csr != 0xB81) or 0x7B0 <= csr <= 0x7B3)


@compiled
def exec_system(op, c, pc, ln, a, imm, imm2, word, s, slot, CS, CFG, CL, regions, mem8, mem16,
                mem32):
    """Hardware loops, CSRs (the uncommon ones completed by Python), fences, mret, ecall,
    ebreak, wfi, illegal.

    Returns ``(result, next pc, penalty, penalty category, trap cause or -1, tval, event)``;
    event -2 asks the loop to leave for Python before retiring (CSR not yet computed, bare
    breakpoint), -1 that the core went to sleep.
    """
    cb = c * L.NCS
    npc = pc + ln
    if op >= O.OP_LP_STARTI and op <= O.OP_CV_SETUPI:
        lp = L.CS_LPS1 - L.CS_LPS0 if imm2 >> 32 else 0
        count_imm = imm2 & M32
        if (op == O.OP_LP_SETUP or op == O.OP_LP_SETUPI or op == O.OP_CV_SETUP
                or op == O.OP_CV_SETUPI):
            end = pc + imm - (4 if op >= O.OP_CV_SETUP else 0)
            CS[U(cb + L.CS_LPS0 + lp)] = pc + ln
            CS[U(cb + L.CS_LPE0 + lp)] = end
            CS[U(cb + L.CS_LPC0 + lp)] = (a if op == O.OP_LP_SETUP or op == O.OP_CV_SETUP
                                          else count_imm)
            if CFG[U(L.K_FAMILY)] == L.FAMILY_COREV and end - (pc + ln) < 8:
                CS[U(cb + L.CS_WARN)] |= L.WARN_HWLOOP_SHORT_BODY
        elif op == O.OP_LP_STARTI:
            CS[U(cb + L.CS_LPS0 + lp)] = pc + imm
        elif op == O.OP_LP_START:
            CS[U(cb + L.CS_LPS0 + lp)] = a & 0xFFFFFFFC
        elif op == O.OP_LP_ENDI:
            CS[U(cb + L.CS_LPE0 + lp)] = pc + imm
        elif op == O.OP_CV_ENDI:
            CS[U(cb + L.CS_LPE0 + lp)] = pc + imm - 4
        elif op == O.OP_CV_END:
            CS[U(cb + L.CS_LPE0 + lp)] = (a & 0xFFFFFFFC) - 4
        elif op == O.OP_LP_COUNT:
            CS[U(cb + L.CS_LPC0 + lp)] = a
        else:
            CS[U(cb + L.CS_LPC0 + lp)] = count_imm
        return 0, npc, 0, 0, -1, 0, 0
    if op >= O.OP_CSRRW and op <= O.OP_CSRRCI:
        pend = CS[U(cb + L.CS_CSR_PEND)]
        if pend == L.CSR_NONE:
            # the common CSRs are completed here, the others by Python (isasim.csr); a set or
            # clear whose source field (rs1, or the immediate) is 0 only reads
            val = loop_access(CS, CFG, cb, op, imm & 0xFFF, imm2 if op >= O.OP_CSRRWI else a,
                              (word >> 15) & 31 != 0, s)
            if val < 0:
                return 0, npc, 0, 0, -1, 0, -2
        else:
            CS[U(cb + L.CS_CSR_PEND)] = L.CSR_NONE
            if pend == L.CSR_ILLEGAL:
                return 0, npc, 0, 0, L.CAUSE_ILLEGAL, word, 0
            val = CS[U(cb + L.CS_CSR_VAL)]
        # the slow CSRs make the controller flush the pipeline, as a jump does
        pen = CFG[U(L.K_CSR_SLOW)] - 1 if slow_csr(imm & 0xFFF) else 0
        return val, npc, pen, L.C_JUMP, -1, 0, 0
    if op == O.OP_FENCE_I:
        # CV32E40P: a jump to the next instruction (which flushes the prefetch buffer)
        pen = CFG[U(L.K_FENCE_I_PEN)]
        if npc & 2 and pen != 0:
            pen += unaligned_target_penalty(regions, mem16, CFG, npc)
        return 0, npc, pen, L.C_JUMP, -1, 0, 0
    if op == O.OP_FENCE:
        return 0, npc, 0, 0, -1, 0, 0
    if op == O.OP_MRET:
        ms = CS[U(cb + L.CS_MSTATUS)]
        mpie = (ms >> 7) & 1
        CS[U(cb + L.CS_MSTATUS)] = (ms & ~((1 << 3) | (3 << 11))) | (mpie << 3) | (1 << 7)
        return 0, CS[U(cb + L.CS_MEPC)] & 0xFFFFFFFE, CFG[U(L.K_JUMP_PEN)], L.C_JUMP, -1, 0, 0
    if op == O.OP_ECALL:
        if CS[U(cb + L.CS_MTVEC)] != 0:
            return 0, npc, 0, 0, L.CAUSE_ECALL_M, 0, 0
        return 0, npc, 0, 0, -1, 0, L.EV_ECALL
    if op == O.OP_EBREAK:
        if (word == SEMIHOST_EBREAK
                and read_word(regions, mem8, mem16, mem32, pc - 4) == SEMIHOST_PRE
                and read_word(regions, mem8, mem16, mem32, pc + 4) == SEMIHOST_POST):
            return 0, npc, 0, 0, -1, 1, L.EV_EBREAK
        if CS[U(cb + L.CS_MTVEC)] != 0:
            return 0, npc, 0, 0, L.CAUSE_BREAKPOINT, pc, 0
        return 0, npc, 0, 0, -1, 0, -3
    if op == O.OP_WFI:
        D.event_wait(CL, CS, CFG, c, False, s + 1, L.SLEEP_WFI)
        CS[U(cb + L.CS_STATUS)] = L.ST_SLEEPING
        CS[U(cb + L.CS_SLEEP_WD)] = L.R_SINK
        CS[U(cb + L.CS_PARK_SLOT)] = slot
        return 0, npc, 0, 0, -1, 0, -1
    return 0, npc, 0, 0, L.CAUSE_ILLEGAL, word, 0


@compiled
def exec_mem_slow(c, kind, lsz, signed, ea, off, rk, bv, s, CS, CFG, CL, OUT, regions, mem8,
                  mem16, mem32, pcmap, tohost):
    """A load or store outside the aligned-TCDM fast path: L2, plain RAM, devices, misaligned.

    Returns ``(value, penalty, penalty category, event, device status)``.
    """
    cb = c * L.NCS
    pen = 0
    pcat = 0
    ev = 0
    st = 0
    val = 0
    if rk == L.RK_PERIPH:
        if CFG[U(L.K_SOC)] != 0:
            val, st = soc.soc_access(c, ea, kind == L.MEM_STORE, bv, lsz, s, CFG, CS, CL, OUT,
                                     regions)
        else:
            val, st = D.device_access(c, ea, kind == L.MEM_STORE, bv, s, CFG, CS, CL, OUT,
                                      regions)
        if CFG[U(L.K_SOC)] != 0 and soc.SOC_BASE <= ea < soc.SOC_END:
            pen = CFG[U(L.K_SOC_PERIPH_LAT)]      # the SoC's APB, as GVSoC's apb_ico
            pcat = L.C_EXT
        if st == D.DEV_OUT_FULL:
            ev = L.EV_OUT_FULL
        elif st == D.DEV_EXIT:
            ev = L.EV_TOHOST      # Machine ends every core at this cycle, as for tohost
            st = D.DEV_OK
        return val, pen, pcat, ev, st
    if kind == L.MEM_LOAD:
        val = load(mem8, mem16, mem32, off, lsz, signed)
    else:
        store(mem8, mem16, mem32, off, lsz, bv)
        invalidate_code(pcmap, CL, off, 1 << lsz)
        if stored_in_tohost(tohost, ea):
            ev = L.EV_TOHOST
    if rk == L.RK_L2:
        pcat = L.C_EXT
        if kind == L.MEM_LOAD:
            pen = CS[U(cb + L.CS_EXT_LAT)]
            CS[U(cb + L.CS_LD_EXT)] += 1
            CS[U(cb + L.CS_LD_EXT_CYC)] += pen
        else:
            pen = CS[U(cb + L.CS_EXT_ST_LAT)]
            CS[U(cb + L.CS_ST_EXT)] += 1
            CS[U(cb + L.CS_ST_EXT_CYC)] += pen
    return val, pen, pcat, ev, st


@compiled(inline=True)
def invalidate_code(pcmap, CL, off, size):
    """A store over decoded instructions makes the new words visible (what fence.i promises).

    Returns True when it did; from then on the loop stops following instruction links (a link
    may lead to a record of the old word).
    """
    h = off >> 1
    if (pcmap[U(h)] >= 0 or (h > 0 and pcmap[U(h - 1)] >= 0)
            or (size == 4 and pcmap[U(h + 1)] >= 0)):
        pcmap[U(h)] = -1
        if h > 0:
            pcmap[U(h - 1)] = -1
        if size == 4:
            pcmap[U(h + 1)] = -1
        CL[U(L.L_TEXT_DIRTY)] = 1
        return True
    return False


@compiled(inline=True)
def stored_in_tohost(tohost, ea):
    """Did a store at ``ea`` write the HTIF ``tohost`` location (-1: the program has none)?"""
    return tohost >= 0 and (ea & 0xFFFFFFFC) in (tohost, tohost + 4)


@compiled(inline=True)
def watched(CL, ea, size):
    """Would a store of ``size`` bytes at ``ea`` touch the debugger's watched range (L_WATCH)?
    The loop asks before performing the store and leaves with EV_WATCH, the instruction not
    executed: a RISC-V trigger fires before the access, and GDB then steps over it."""
    return ea < CL[U(L.L_WATCH + 1)] and ea + size > CL[U(L.L_WATCH)]


# ---------------------------------------------------------------------------------------------
# scheduling
# ---------------------------------------------------------------------------------------------
@intrinsic
def lowest_set_bit(typingctx, x):
    """Index of the lowest set bit of a non-zero integer (LLVM cttz: one instruction)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return x(x), codegen


@intrinsic
def bit_count(typingctx, x):
    """The number of set bits of an integer (LLVM ctpop: one instruction)."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@compiled(inline=True)
def rr_before(x, w, rr, policy):
    """Does requester x come before w in the arbiter's order for pointer rr?

    Round robin: the order starting at rr (0 <= rr <= NREQ).  rr_arb_tree (common_cells): each
    node of the binary tree over the requester indices takes its right subtree when both ask and
    the pointer's bit of that level is set, so of two requesters the one whose index agrees with
    rr on their highest differing bit wins: the lower ``index ^ rr``.
    Written without ``%``: Python's modulo of a signed value compiles to a multiply and fix-ups.
    """
    if policy == L.POLICY_RR_ARB_TREE:
        return (x ^ rr) < (w ^ rr)
    dx = x - rr
    if dx < 0:
        dx += L.NREQ
    dw = w - rr
    if dw < 0:
        dw += L.NREQ
    return dx < dw


@compiled(inline=True)
def pointer_after_grant(c, policy, rr, asked):
    """The bank pointer after a round in which requesters ``asked`` (a bit mask) asked and
    requester c won.  Round robin moves past the winner; rr_arb_tree (FairArb) moves to the
    first requester after the pointer, wrapping to the lowest (which may be the winner again)."""
    if policy != L.POLICY_RR_ARB_TREE:
        return c + 1
    upper = asked & ~((2 << rr) - 1)
    return lowest_set_bit(upper if upper != 0 else asked)


@compiled(inline=True)
def lost_category(res):
    """The category of a cycle lost in the arbitration of resource ``res``."""
    if res < 32:
        return L.C_TCDM
    if res >= L.RES_L2:
        return L.C_EXT
    if res >= L.RES_ICACHE:
        return L.C_IMISS
    return L.C_FPU_STRUCT


@compiled(inline=True)
def charge_lost(CS, CAT, PCS, CL, cap, i):
    """Charge the bank arbitrations core i lost while parked at its current access.

    A core waiting on a busy bank loses a cycle in every round until it is granted; each
    round counts it (``CS_LOST``) and records who won, and the category, the per-PC stall and
    the conflict matrix are charged here once, when the core is granted (or the run stops:
    ``Machine`` calls ``charge_all_lost``), for all of them: on a kernel whose cores share a
    bank, losing is the scheduler's most frequent work."""
    b = i * L.NCS
    n = CS[U(b + L.CS_LOST)]
    if n != 0:
        CAT[U(i * L.NCAT + L.C_TCDM)] += n
        PCS[U((i * cap + CS[U(b + L.CS_PARK_SLOT)]) * L.NPS + L.PS_STALL + L.C_TCDM)] += n
        CL[U(L.L_CONF + i * 32 + CS[U(b + L.CS_PARK_RES)])] += n
        CS[U(b + L.CS_LOST)] = 0


@compiled
def charge_all_lost(CS, CAT, PCS, CL, cap, ncores):
    """``charge_lost`` for every core: before the run's figures are read."""
    for i in range(ncores):
        charge_lost(CS, CAT, PCS, CL, cap, i)


@compiled(inline=True)
def waiters_ahead(CS, CL, i, res, w, policy):
    """How many of the other cores waiting at TCDM bank ``res`` come before core i, which lost
    it to requester w in this round, in the arbiter's order from now on.

    Each of them is served before i: a bank serves one requester a cycle, and a requester that
    arrives later and wins is ahead of all of them, so under round robin the pointer stops
    short of them (it moves just past the winner) and under FIFO they stay older.  So i cannot
    win in the next that many cycles, and ``schedule`` spares it those rounds: on 8 cores that
    queue at one bank most of a round's work was its losers'.  (rr_arb_tree's order changes
    with its pointer: its losers retry every cycle.)"""
    # (the cores are requesters 0..7, the DMA's ports the ones after: DMA_PORT0, ...)
    cores = (1 << L.DMA_PORT0) - 1
    waiting = (CL[U(L.L_BANK_WAIT + res)] | CL[U(L.L_BANK_ASKED + res)]) & cores & ~(1 << i)
    if w < L.DMA_PORT0:
        waiting &= ~(1 << w)
    if policy == L.POLICY_ROUND_ROBIN:
        p = w + 1      # the pointer after this round
        if p <= i:
            ahead = ((1 << i) - 1) & ~((1 << p) - 1)
        else:
            ahead = ~((1 << p) - 1) | ((1 << i) - 1)
        return bit_count(waiting & ahead)
    mine = CS[U(i * L.NCS + L.CS_PARK_FIRST)]
    k = 0
    while waiting != 0:      # FIFO: older, or as old and of a lower index
        j = lowest_set_bit(waiting)
        waiting &= waiting - 1
        first = CS[U(j * L.NCS + L.CS_PARK_FIRST)]
        if first < mine or (first == mine and j < i):
            k += 1
    return k


@compiled(inline=True)
def charge_waiting(CS, CL, waiting, w):
    """The cores ``waiting`` at a bank (a bit mask) sit this round out: each loses its cycle to
    the bank's winner w, as it would have as a loser of the round."""
    while waiting != 0:
        j = lowest_set_bit(waiting)
        waiting &= waiting - 1
        CS[U(j * L.NCS + L.CS_LOST)] += 1
        CL[U(L.L_CONF_WIN + j * L.NREQ + w)] += 1


@compiled
def rejoin_waiting(CS, CL):
    """Put every core that sits out rounds at a bank back to retrying in the next cycle after
    the last round, as every loser does without the skipping: the state then is what it would
    be (whoever reads the cores' cycles: the run's end, Python).  Returns whether any was."""
    any_waiting = False
    nt = CL[U(L.L_NOW)] + 1
    for r in range(32):
        q = CL[U(L.L_BANK_WAIT + r)]
        if q != 0:
            any_waiting = True
            CL[U(L.L_BANK_WAIT + r)] = 0
            while q != 0:
                j = lowest_set_bit(q)
                q &= q - 1
                CS[U(j * L.NCS + L.CS_NEXT_T)] = nt
    return any_waiting


@compiled(inline=True)
def earliest(CS, CL, n):
    """(tmin, later, group): the earliest cycle at which a core or the DMA acts, the earliest
    after it, and the cores acting at tmin (a bit mask)."""
    tmin = CL[U(D.DMA_NEXT_T)] if CL[U(D.DMA_COUNT)] > 0 else BIG
    later = BIG      # the earliest cycle after tmin at which a core outside the group acts
    group = 0
    # (over MAX_CORES, stopping at n: with a constant trip count LLVM unrolls the loop, so each
    # core's comparisons are branches of their own; the 8-core C matmul runs 15-20 % faster
    # than with one branch taken for every core in turn; the same in horizon_of and alone_at)
    for i in range(L.MAX_CORES):
        if i >= n:
            break
        # BIG for a running or stopped core (and for a sleeper nothing wakes yet): it joins no
        # group, since a group at BIG ends the run
        ti = CS[U(i * L.NCS + L.CS_NEXT_T)]
        if ti < tmin:
            if tmin < later:
                later = tmin
            tmin = ti
            group = 1 << i
        elif ti == tmin:
            group |= 1 << i
        elif ti < later:
            later = ti
    return tmin, later, group


@compiled
def core_time(CS, b):
    """The cycle up to which a core's time is accounted for, whatever its state."""
    st = CS[U(b + L.CS_STATUS)]
    if st == L.ST_SLEEPING:
        return CS[U(b + L.CS_SLEEP_SINCE)]
    if st == L.ST_PARKED:
        return CS[U(b + L.CS_NEXT_T)]    # lost arbitrations are charged up to here
    return CS[U(b + L.CS_T)]


@compiled
def finish(CS, CAT, PCS, CL, TR, CFG, code, cap, forced):
    """The run is over: pad every core to the common end with idle, or report why it cannot end.

    Returns EV_DONE; when not ``forced`` (a tohost exit ends the run whatever the cores do),
    EV_DEADLOCK if some core waits (barrier, DMA or event) for something that can no longer
    happen, or if every core sleeps in wfi and none has exited (nothing can wake them).
    """
    n = CFG[U(L.K_NCORES)]
    end = 0
    halted = 0
    for i in range(n):
        b = i * L.NCS
        st = CS[U(b + L.CS_STATUS)]
        if (not forced and st == L.ST_SLEEPING and CS[U(b + L.CS_SLEEP)] != L.SLEEP_WFI
                and CS[U(b + L.CS_SLEEP)] != L.SLEEP_OFF):
            CL[U(L.L_EV_CORE)] = i
            CL[U(L.L_EV_PC)] = CS[U(b + L.CS_PC)]
            CL[U(L.L_EV_CAUSE)] = L.CAUSE_DEADLOCK
            return L.EV_DEADLOCK
        if st == L.ST_HALTED:
            halted += 1
        end = max(end, core_time(CS, b))
    if halted == 0 and not forced:
        CL[U(L.L_EV_CORE)] = 0
        CL[U(L.L_EV_PC)] = CS[U(L.CS_PC)]
        CL[U(L.L_EV_CAUSE)] = L.CAUSE_ALL_ASLEEP
        return L.EV_DEADLOCK
    pad_to(CS, CAT, PCS, CL, TR, CFG, code, cap, end, False)
    return L.EV_DONE


@compiled(inline=True)
def sleep_category(kind):
    """The stall category of a sleep of ``kind`` (L.SLEEP_*)."""
    if kind == L.SLEEP_BARRIER:
        return L.C_BARRIER
    if kind == L.SLEEP_DMA:
        return L.C_DMA_WAIT
    return L.C_IDLE


@compiled
def pad_to(CS, CAT, PCS, CL, TR, CFG, code, cap, end, waits):
    """Charge every core up to cycle ``end``, where the run stops: idle, or for a sleeping core
    when ``waits``, what it waits for (a run cut short by the cycle limit)."""
    for i in range(CFG[U(L.K_NCORES)]):
        b = i * L.NCS
        t = core_time(CS, b)
        sleeping = CS[U(b + L.CS_STATUS)] == L.ST_SLEEPING
        cat = sleep_category(CS[U(b + L.CS_SLEEP)]) if sleeping and waits else L.C_IDLE
        charge(CAT, PCS, CS, CL, TR, CFG, code, i, cap, -1, cat, t, end - t)
        CS[U(b + L.CS_T)] = end
        if sleeping:
            CS[U(b + L.CS_SLEEP_SINCE)] = end
        elif CS[U(b + L.CS_STATUS)] == L.ST_PARKED:
            CS[U(b + L.CS_NEXT_T)] = end
    CL[U(L.L_END)] = end


@compiled(inline=True)
def schedule(CS, CAT, PCS, CFG, CL, TR, R, RDY, code, cap, mem8, pcmap, regions, max_cycles,
             tracing):
    """Advance global time to the next parked access, wake-up or DMA beat and arbitrate.

    One pass finds the earliest cycle and the set of cores acting in it (a bit mask); only
    those are then woken, arbitrated and granted.  Returns 0 when some core can run again,
    else the event that ends the run.  ``tracing``: the run logs events (``K_TRACE``; a
    constant False where translated code runs, which is never traced, so that the
    scheduler compiled there holds no tracing work).
    """
    n = CFG[U(L.K_NCORES)]
    tmin, later, group = earliest(CS, CL, n)
    if tmin > max_cycles and rejoin_waiting(CS, CL):
        # the run stops before the next round: with every core where it would be
        tmin, later, group = earliest(CS, CL, n)
    if tmin >= BIG:
        return finish(CS, CAT, PCS, CL, TR, CFG, code, cap, False)
    if tmin > max_cycles and CFG[U(L.K_PAUSE)] != 0:
        return L.EV_PAUSE    # every core is held past the limit: Python resumes the run later
    if tmin > max_cycles:
        # every core has reached the limit (or stopped): report the first one that is past it,
        # and end every core's time where the last one stopped
        i = lowest_set_bit(group) if group != 0 else 0
        CL[U(L.L_EV_CORE)] = i
        CL[U(L.L_EV_PC)] = CS[U(i * L.NCS + L.CS_PC)]
        end = tmin
        for j in range(n):
            if CS[U(j * L.NCS + L.CS_STATUS)] != L.ST_SLEEPING:
                end = max(end, core_time(CS, j * L.NCS))
        pad_to(CS, CAT, PCS, CL, TR, CFG, code, cap, end, True)
        return L.EV_MAX_CYCLES
    CL[U(L.L_NOW)] = tmin
    policy = CFG[U(L.K_POLICY)]
    nbm = CFG[U(L.K_NBANKS)] - 1
    # a bank's losers sit out the rounds they cannot win (waiters_ahead); a traced run logs
    # each lost cycle in its round instead
    skipping = (policy == L.POLICY_ROUND_ROBIN or policy == L.POLICY_FIFO) and not tracing
    released = 0
    # this round's winner of resource r is L_BANK_WIN[r] - stamp (0..15); an entry below the
    # stamp is an earlier round's, so the table needs no clearing
    stamp = CL[U(L.L_ROUND_STAMP)] + 16
    CL[U(L.L_ROUND_STAMP)] = stamp
    # wake-ups due now (the wait's loaded value arrives with the core), then bank claims
    g = group
    while g != 0:
        i = lowest_set_bit(g)
        g &= g - 1
        b = i * L.NCS
        if CS[U(b + L.CS_STATUS)] == L.ST_SLEEPING:
            kind = CS[U(b + L.CS_SLEEP)]
            cat = sleep_category(kind)
            since = CS[U(b + L.CS_SLEEP_SINCE)]
            charge(CAT, PCS, CS, CL, TR, CFG, code, i, cap, CS[U(b + L.CS_PARK_SLOT)], cat,
                   since, tmin - since)
            v = D.wake_value(CL, i)
            wd = CS[U(b + L.CS_SLEEP_WD)]
            R[U(i * L.RS + wd)] = v
            RDY[U(i * L.RS + wd)] = tmin << L.RDY_SHIFT
            CS[U(b + L.CS_STATUS)] = L.ST_RUNNING
            CS[U(b + L.CS_T)] = tmin
            CS[U(b + L.CS_NEXT_T)] = BIG
            released |= 1 << i
            group &= ~(1 << i)
            if tracing and kind == L.SLEEP_BARRIER:
                D.trace_event(TR, CL, L.TR_BAR_RELEASE, i, tmin, 0, 0)
            continue
        res = CS[U(b + L.CS_PARK_RES)]
        # a shared FPU serves one operation a cycle whatever the TCDM does: with no bank
        # conflicts (policy none) its requests are arbitrated round robin
        if res < 0 or (policy == L.POLICY_NONE and res < L.RES_FPU):
            continue
        if res == L.RES_FDIV and CL[U(L.L_FDIV_BUSY)] > tmin:
            continue
        win = L.L_BANK_WIN + res
        w = CL[U(win)] - stamp
        if w < 0:
            CL[U(win)] = stamp + i
            CL[U(L.L_BANK_ASKED + res)] = 1 << i
        else:
            CL[U(L.L_BANK_ASKED + res)] |= 1 << i
            if policy != L.POLICY_FIFO:
                rr = CL[U(L.L_BANK_RR + res)]
                if rr_before(i, w, rr, policy):
                    CL[U(win)] = stamp + i
            elif CS[U(b + L.CS_PARK_FIRST)] < CS[U(w * L.NCS + L.CS_PARK_FIRST)]:
                CL[U(win)] = stamp + i   # FIFO: the older request wins
    # the DMA's beat (two ports) competes for its banks
    dma_req = CL[U(D.DMA_COUNT)] > 0 and CL[U(D.DMA_NEXT_T)] == tmin
    if dma_req:
        daddr, dn = D.dma_beat_plan(CL, CFG)
        dbank0 = (daddr >> 2) & nbm
        dbank1 = ((daddr >> 2) + 1) & nbm if dn > 4 else -1
        # the beat needs both its banks at once: under round robin it takes them only if each
        # port comes before the bank's core claimant in the rotation; a beat that cannot take
        # both leaves every claim as it was (a core it would have displaced keeps its bank)
        ok = True
        rr_like = policy == L.POLICY_ROUND_ROBIN or policy == L.POLICY_RR_ARB_TREE
        for k in range(2):
            bank = dbank0 if k == 0 else dbank1
            if bank >= 0:
                w = CL[U(L.L_BANK_WIN + bank)] - stamp
                # the port asks the bank whether it takes it or not
                port = 1 << (L.DMA_PORT0 + k)
                CL[U(L.L_BANK_ASKED + bank)] = (CL[U(L.L_BANK_ASKED + bank)] | port
                                                if w >= 0 else port)
                if rr_like and w >= 0 and not rr_before(L.DMA_PORT0 + k, w,
                                                        CL[U(L.L_BANK_RR + bank)], policy):
                    ok = False
        if ok:
            if policy != L.POLICY_NONE:
                # (FIFO: the DMA's request is never younger than a core's)
                CL[U(L.L_BANK_WIN + dbank0)] = stamp + L.DMA_PORT0
                if dbank1 >= 0:
                    CL[U(L.L_BANK_WIN + dbank1)] = stamp + L.DMA_PORT0 + 1
                if skipping:
                    charge_waiting(CS, CL, CL[U(L.L_BANK_WAIT + dbank0)] & ~group, L.DMA_PORT0)
                    if dbank1 >= 0:
                        charge_waiting(CS, CL, CL[U(L.L_BANK_WAIT + dbank1)] & ~group,
                                       L.DMA_PORT0 + 1)
            D.dma_beat_do(tmin, CL, CS, CFG, mem8, pcmap, regions, TR)
            if rr_like:
                for k in range(2):
                    bank = dbank0 if k == 0 else dbank1
                    if bank >= 0:
                        CL[U(L.L_BANK_RR + bank)] = pointer_after_grant(
                            L.DMA_PORT0 + k, policy, CL[U(L.L_BANK_RR + bank)],
                            CL[U(L.L_BANK_ASKED + bank)])
        else:
            CL[U(D.DMA_NEXT_T)] = tmin + 1
    # grant the winners, make the losers retry
    g = group
    while g != 0:
        i = lowest_set_bit(g)
        g &= g - 1
        b = i * L.NCS
        res = CS[U(b + L.CS_PARK_RES)]
        if res == L.RES_FDIV and CL[U(L.L_FDIV_BUSY)] > tmin:
            # the shared divider is busy: wait for it
            wait = CL[U(L.L_FDIV_BUSY)] - tmin
            CS[U(b + L.CS_NEXT_T)] = CL[U(L.L_FDIV_BUSY)]
            charge(CAT, PCS, CS, CL, TR, CFG, code, i, cap, CS[U(b + L.CS_PARK_SLOT)],
                   L.C_FPU_STRUCT, tmin, wait)
            continue
        w = i
        if res >= 0 and (policy != L.POLICY_NONE or res >= L.RES_FPU):
            w = CL[U(L.L_BANK_WIN + res)] - stamp
            if w == i or w < 0:
                CL[U(L.L_BANK_RR + res)] = pointer_after_grant(
                    i, policy, CL[U(L.L_BANK_RR + res)],
                    CL[U(L.L_BANK_ASKED + res)] if w == i else 1 << i)
                w = i
        if w == i:
            if skipping and 0 <= res < 32:
                waiting = CL[U(L.L_BANK_WAIT + res)] & ~(1 << i)
                CL[U(L.L_BANK_WAIT + res)] = waiting
                charge_waiting(CS, CL, waiting & ~group, i)
            charge_lost(CS, CAT, PCS, CL, cap, i)
            CS[U(b + L.CS_STATUS)] = L.ST_RUNNING
            CS[U(b + L.CS_NEXT_T)] = BIG
            CS[U(b + L.CS_GRANTED)] = 1
            CS[U(b + L.CS_T)] = tmin
            released |= 1 << i
        else:
            nt = tmin + 1
            cat = lost_category(res)
            pslot = CS[U(b + L.CS_PARK_SLOT)]
            if res < 32:
                CS[U(b + L.CS_LOST)] += 1
                CL[U(L.L_CONF_WIN + i * L.NREQ + w)] += 1
                if skipping:
                    nt += waiters_ahead(CS, CL, i, res, w, policy)
                    CL[U(L.L_BANK_WAIT + res)] |= 1 << i
            else:
                CAT[U(i * L.NCAT + cat)] += 1
                PCS[U((i * cap + pslot) * L.NPS + L.PS_STALL + cat)] += 1
            CS[U(b + L.CS_NEXT_T)] = nt
            if tracing:
                trace_run(TR, CL, CS, i, tmin, 1, cat, pslot, code[U(pslot * L.NF + L.F_SYM)])
                if res < 32:
                    D.trace_event(TR, CL, L.TR_CONFLICT, i, tmin, res, w)
    CL[U(L.L_RELEASED)] = released
    # the horizon of a core this round released alone: the cores outside the group, and the
    # group's losers retrying next cycle (unknown after a DMA beat: its end may wake a core)
    if group & ~released != 0 and tmin + 1 < later:
        later = tmin + 1
    CL[U(L.L_ROUND_HORIZON)] = -1 if dma_req else later
    return 0


@compiled(inline=True)
def next_running(may_run, c):
    """The running core (``may_run``: a non-zero mask) to run after core c: the next one in
    round-robin order, for fairness."""
    later = may_run & ~((2 << c) - 1)
    return lowest_set_bit(later if later != 0 else may_run)


@compiled(inline=True)
def horizon_of(CS, CL, c, t, ncores, after_round, policy):
    """The earliest cycle at which anybody but core c (at cycle t) could touch shared state.

    ``after_round``: c is the first core run since a scheduling round released it."""
    horizon = BIG
    released = CL[U(L.L_RELEASED)]
    if ncores > 1 and t == CL[U(L.L_NOW)] and released & (released - 1) != 0:
        # the scheduler released several cores at once: that cycle is it (no scan needed)
        horizon = t
    elif ncores > 1 and after_round and CL[U(L.L_ROUND_HORIZON)] >= 0:
        # the one core the round just released: the round found its horizon
        horizon = CL[U(L.L_ROUND_HORIZON)]
    elif ncores > 1:
        for i in range(L.MAX_CORES):
            if i >= ncores:
                break
            if i == c:
                continue
            if CS[U(i * L.NCS + L.CS_STATUS)] == L.ST_RUNNING:
                ti = CS[U(i * L.NCS + L.CS_T)]
            else:
                ti = CS[U(i * L.NCS + L.CS_NEXT_T)]
            if ti < horizon:
                horizon = ti
    if CL[U(D.DMA_COUNT)] > 0:
        # with no conflicts (policy none) an access in the horizon's own cycle goes ahead;
        # a DMA beat in that cycle must not be overtaken (the round performs the beat
        # before the cycle's core accesses under every policy): stop one cycle short of it
        dh = CL[U(D.DMA_NEXT_T)] - (1 if policy == L.POLICY_NONE else 0)
        if dh < horizon:
            horizon = dh
    return horizon


@compiled(inline=True)
def alone_at(CS, CL, c, h, bank, ncores, policy):
    """May core c take TCDM ``bank`` in cycle h, its horizon, without a scheduling round?  Yes
    when nobody else can ask for that bank in h: every other core that acts in h is parked
    there for another bank (or for a unit that is no TCDM bank), no running core is at or
    before h, no sleeper wakes and no DMA beat falls in h.  The round of h would grant it
    alone, which is what the caller then does (the bank's round-robin pointer as a lone
    grant); accesses to different banks in one cycle are independent.  On 8 cores whose loads
    are spread over the banks this spares most rounds."""
    if CL[U(D.DMA_COUNT)] > 0 and CL[U(D.DMA_NEXT_T)] <= h + (1 if policy == L.POLICY_NONE
                                                              else 0):
        return False
    for i in range(L.MAX_CORES):
        if i >= ncores:
            break
        if i == c:
            continue
        b = i * L.NCS
        st = CS[U(b + L.CS_STATUS)]
        if st == L.ST_RUNNING:
            if CS[U(b + L.CS_T)] <= h:
                return False
        elif CS[U(b + L.CS_NEXT_T)] == h:
            res = CS[U(b + L.CS_PARK_RES)]
            if st != L.ST_PARKED or res < 0 or res == bank:
                return False
    return True


@compiled
def run_translated(entries, exits, entry, c, t, max_cycles, pb, granted, horizon, instret, CS,
                   CL):
    """Run core c (at cycle t) in translated code from entry ``entry`` (see
    ``isasim.translate``), going on with the run each exit leads to until one parks, leaves the
    rest to the loop, or passes the cycle limit.  Returns the last exit (its index in
    ``exits``; -1 when nothing ran) and the instructions retired; the core's cycle is left in
    ``CS_T``, and the runs of sequential execution that taken branches and jumps start are
    recorded, as the loop does.

    With the instruction cache on, a run is entered only when all its lines are in the core's
    L0: its fetches then all hit, and hits change no cache state (``isasim.icache``), so the run
    times as interpreted; otherwise the loop interprets it and takes the misses."""
    cb = c * L.NCS
    cl_address = CL.ctypes.data
    ic_on = CL[U(L.L_IC_MODE)] != L.ICACHE_IDEAL
    ew = ENTRY_FIELDS * entry
    # (a core resumed where it parked in the run found its lines resident when it entered it,
    # and only its own refills change its L0)
    if ic_on and granted != RESUMED:
        if not icache.resident(CL, c, entries[U(ew + 2)], entries[U(ew + 3)]):
            return -1, 0
        CS[U(cb + L.CS_ILINE)] = -1
    start = entries[U(ew + 1)]
    retired = 0
    while True:
        r = call_translated(entries[U(ENTRY_FIELDS * entry)], start, t, granted, c, pb, horizon,
                            max_cycles, instret + retired, cl_address)
        e = (r & 0xFFFFFFFF) * EXIT_FIELDS
        # (the high half: instructions of back edges the run took inside, see translate)
        retired += exits[U(e + 2)] - start + (r >> 32)
        if exits[U(e + 3)] == EXIT_TAKEN:
            start_run(CS, CL, cb, c, exits[U(e)], instret + retired)
        entry = exits[U(e + 4)]
        t = CS[U(cb + L.CS_T)]
        if entry < 0 or t > max_cycles:
            return e, retired
        ew = ENTRY_FIELDS * entry
        if ic_on and not icache.resident(CL, c, entries[U(ew + 2)], entries[U(ew + 3)]):
            return e, retired
        start = 0
        granted = 0


# run_translated_cores calls it inlined: as a call it took 32 stack arguments (numba passes an
# array as seven values), a third of the function's time on an 8-core C matmul
run_translated_inline = compiled(run_translated.py_func, inline=True)


@compiled
def run_translated_cores(code, pcmap, mem8, regions, R, RDY, CS, CAT, PCS, CFG, CL, TR, cap,
                         max_cycles, translated, exits, c, may_run, after_round):
    """The loop's core switching and scheduling rounds while every core to run resumes in
    translated code: the round's winners are granted at their parked load, and translated
    code takes it from there to the next park.

    In a compute kernel on several cores nearly every TCDM load parks, so switching is most of
    the work: the loop calls this function when a core has parked, and it keeps only the few
    values of switching live, where the loop holds dozens.  (Compiled into each translated
    program instead, calling its runs directly, it was no faster, and numba then compiled the
    scheduler again for every program: a minute more per translation.)  It makes the decisions
    the loop would (the same next core, horizon and rounds), so the run is the same.  Returns
    (core, may_run, after_round, event): the core the loop must run next (-1: it picks it), the
    loop's state, and a non-zero event when a round ended the run.
    """
    ncores = CFG[U(L.K_NCORES)]
    ncluster = CFG[U(L.K_NCLUSTER)]
    policy = CFG[U(L.K_POLICY)]
    while True:
        if may_run == 0:
            sev = schedule(CS, CAT, PCS, CFG, CL, TR, R, RDY, code, cap, mem8, pcmap, regions,
                           max_cycles, False)
            if sev != 0:
                return -1, may_run, after_round, sev
            may_run = CL[U(L.L_RELEASED)]
            after_round = True
            if CL[U(L.L_TEXT_DIRTY)] != 0 or may_run == 0:
                # a DMA wrote text (the loop checks links), or the round released no core
                # (only a device acted): the loop goes on
                return -1, may_run, after_round, 0
        found = next_running(may_run, c)
        cb = found * L.NCS
        pslot = CS[U(cb + L.CS_PARK_SLOT)]
        # (a core granted a resource it did not park at a load for, a DMA's or the event
        # unit's, has no slot to resume at; a SoC's fabric controller runs in the loop)
        if CS[U(cb + L.CS_GRANTED)] == 0 or pslot < 0 or found >= ncluster:
            return found, may_run, after_round, 0
        entry = code[U(pslot * L.NF + L.F_TX)]
        if entry < 0 or CS[U(cb + L.CS_FPUBUSY)] > CS[U(cb + L.CS_T)]:
            return found, may_run, after_round, 0
        c = found
        t = CS[U(cb + L.CS_T)]
        horizon = horizon_of(CS, CL, c, t, ncores, after_round, policy)
        after_round = False
        instret = CS[U(cb + L.CS_INSTRET)]
        granted = RESUMED if CS[U(cb + L.CS_TX_PARKED)] != 0 else 1
        while True:
            e, retired = run_translated_inline(translated, exits, entry, c, t, max_cycles,
                                               c * cap, granted, horizon, instret, CS, CL)
            parked = e >= 0 and exits[U(e + 3)] == EXIT_PARKED
            if retired == 0 and not parked:
                # stopped before the granted load: the loop performs it
                return c, may_run, after_round, 0
            instret += retired
            CS[U(cb + L.CS_PC)] = exits[U(e)]
            CS[U(cb + L.CS_INSTRET)] = instret
            CS[U(cb + L.CS_GRANTED)] = 0
            if not parked:
                return c, may_run, after_round, 0    # the loop goes on at the exit's pc
            t = CS[U(cb + L.CS_T)]
            res = CS[U(cb + L.CS_PARK_RES)]
            if (t != horizon or policy == L.POLICY_NONE or res < 0 or res >= 32
                    or not alone_at(CS, CL, c, t, res, ncores, policy)):
                break
            # nobody else can ask for the bank in this cycle: the round would grant it alone
            if policy == L.POLICY_ROUND_ROBIN or policy == L.POLICY_RR_ARB_TREE:
                CL[U(L.L_BANK_RR + res)] = pointer_after_grant(c, policy, 0, 1 << c)
            entry = code[U(exits[U(e + 1)] * L.NF + L.F_TX)]
            granted = RESUMED
        park(CS, cb, t, res, exits[U(e + 1)])
        CS[U(cb + L.CS_TX_PARKED)] = 1
        may_run &= ~(1 << c)


# ---------------------------------------------------------------------------------------------
# the loop
# ---------------------------------------------------------------------------------------------
@compiled(inline=True)
def leave(CS, CL, ev):
    """The loop returns ``ev`` to Python, with every core that sits out rounds back to retrying
    (``rejoin_waiting``): between calls the state is the one the rules give."""
    rejoin_waiting(CS, CL)
    return ev


@compiled
def run(code, pcmap, mem8, mem16, mem32, regions, R, RDY, CS, CAT, PCS, CFG, CL, OUT, TR,
        max_cycles, translated, exits):
    """Run the cluster until every core stopped, ``max_cycles`` passed, or Python is needed.

    ``translated`` is the table of the program's translated entry points and ``exits`` its exit
    table (see ``isasim.translate``), or both None: numba then compiles a version of the loop
    without the calls (their mere presence costs the interpreted path about 6 %)."""
    ncores = CFG[U(L.K_NCORES)]
    cap = PCS.size // (ncores * L.NPS)
    policy = CFG[U(L.K_POLICY)]
    tohost = CFG[U(L.K_TOHOST)]
    tcdm_base = CFG[U(L.K_TCDM_BASE)]
    tcdm_size = CFG[U(L.K_TCDM_SIZE)]
    # the cores that reach the TCDM through its banks (a SoC's fabric controller, the last core,
    # reaches it over the SoC interconnect: ordered, with its L2 latency, never arbitrated)
    ncluster = CFG[U(L.K_NCLUSTER)]
    cluster_tcdm_size = tcdm_size
    # a SoC's cluster cores also see their TCDM at address 0 (pulp-runtime's L1 pointers);
    # l1_alias is the size of that view for the core being run (0: none)
    soc_alias = tcdm_size if CFG[U(L.K_SOC)] != 0 else 0
    l1_alias = 0
    fpu_shared = CFG[U(L.K_FPU_SHARED)] != 0
    # CV32E40P: one FP operation outstanding; it occupies the FPU when it has a latency
    fpu_one = CFG[U(L.K_FPU_ONE_OUT)] != 0
    crossing_only = CFG[U(L.K_MIS_CROSSING)] != 0   # only an access crossing a word is split
    fpu_occupy = fpu_one and (CFG[U(L.K_FPU_LAT)] > 0 or CFG[U(L.K_FPU_OTHER_LAT)] > 0)
    tracing = CFG[U(L.K_TRACE)] != 0
    ic_on = CFG[U(L.K_ICACHE)] != L.ICACHE_IDEAL
    l2_axi = CFG[U(L.K_L2_AXI)] != 0
    CL[U(L.L_IC_MODE)] = CFG[U(L.K_ICACHE)]
    tr_limit = TR.size // L.TRW - TRACE_HEADROOM
    nregions = regions.size // L.RGW
    tcdm_off = 0
    for i in range(nregions):
        if regions[U(i * L.RGW + L.RG_KIND)] == L.RK_TCDM:
            tcdm_off = regions[U(i * L.RGW + L.RG_OFF)]
    nbanks_mask = CFG[U(L.K_NBANKS)] - 1
    if translated is not None:
        # where the translated code finds the arrays (see isasim.translate)
        CL[U(L.L_TX_ARRAYS)] = R.ctypes.data
        CL[U(L.L_TX_ARRAYS + 1)] = RDY.ctypes.data
        CL[U(L.L_TX_ARRAYS + 2)] = CS.ctypes.data
        CL[U(L.L_TX_ARRAYS + 3)] = CAT.ctypes.data
        CL[U(L.L_TX_ARRAYS + 4)] = PCS.ctypes.data
        CL[U(L.L_TX_ARRAYS + 5)] = mem32.ctypes.data + tcdm_off
        CL[U(L.L_TX_ARRAYS + 6)] = pcmap.ctypes.data + 4 * (tcdm_off >> 1)
    branch_pen = CFG[U(L.K_BRANCH_PEN)]
    jump_pen = CFG[U(L.K_JUMP_PEN)]
    load_rl = ((1 + CFG[U(L.K_LOAD_LAT)]) << L.RDY_SHIFT) | L.C_LOAD_USE
    for i in range(len(L.TIMING_CLASSES)):
        CL[U(L.L_LATWHY + i)] = result_latency(CFG, i)

    # the core being run and its state, held in locals while it runs
    c = ncores - 1
    cb = rb = pb = 0
    pc = t = instret = granted = cur_base = cur_size = cur_off = 0
    iline = -1       # the line the core's last fetch found in its L0 (see CS_ILINE)
    horizon = BIG
    first = True
    may_run = 0      # the running cores
    after_round = False   # the core about to resume is the one a scheduling round released
    for i in range(ncores):
        if CS[U(i * L.NCS + L.CS_STATUS)] == L.ST_RUNNING:
            may_run |= 1 << i
    # instruction links (next / branch-target slot) are followed until a store hits the text
    links_ok = CL[U(L.L_TEXT_DIRTY)] == 0
    link = -1
    ev = 0
    cause = 0
    tval = 0
    ipc = 0
    while True:
        if not first:
            CS[U(cb + L.CS_PC)] = pc
            CS[U(cb + L.CS_T)] = t
            CS[U(cb + L.CS_INSTRET)] = instret
            CS[U(cb + L.CS_GRANTED)] = granted
            CS[U(cb + L.CS_RBASE)] = cur_base
            CS[U(cb + L.CS_RSIZE)] = cur_size
            CS[U(cb + L.CS_ROFF)] = cur_off
            CS[U(cb + L.CS_ILINE)] = iline
            if ev > 0:
                CL[U(L.L_EVENT)] = ev
                CL[U(L.L_EV_CORE)] = c
                CL[U(L.L_EV_PC)] = ipc
                CL[U(L.L_EV_CAUSE)] = cause
                CL[U(L.L_EV_TVAL)] = tval
                return leave(CS, CL, ev)
            if CS[U(cb + L.CS_STATUS)] != L.ST_RUNNING:
                may_run &= ~(1 << c)
        first = False
        ev = 0
        if tracing and CL[U(L.L_TRN)] >= tr_limit:
            return leave(CS, CL, L.EV_TRACE_FULL)
        # pick the next running core after c (round robin, for fairness); only the core that
        # ran stops running between rounds, and only a round releases cores
        found = -1
        pslot = CS[U(cb + L.CS_PARK_SLOT)]
        if (translated is not None and links_ok and not tracing
                and CS[U(cb + L.CS_STATUS)] == L.ST_PARKED and pslot >= 0
                and code[U(pslot * L.NF + L.F_TX)] >= 0):
            # the core parked at a translated load: while the cores to run resume there,
            # run_translated_cores switches them (a program whose cores park elsewhere is
            # spared the call); the core returned is one this loop must run
            found, may_run, after_round, sev = run_translated_cores(
                code, pcmap, mem8, regions, R, RDY, CS, CAT, PCS, CFG, CL, TR, cap, max_cycles,
                translated, exits, c, may_run, after_round)
            if sev != 0:
                return leave(CS, CL, sev)
            links_ok = CL[U(L.L_TEXT_DIRTY)] == 0
        while found < 0:
            if may_run != 0:
                found = next_running(may_run, c)
            else:
                # every scheduling round may log records: check before each one
                if tracing and CL[U(L.L_TRN)] >= tr_limit:
                    return leave(CS, CL, L.EV_TRACE_FULL)
                sev = schedule(CS, CAT, PCS, CFG, CL, TR, R, RDY, code, cap, mem8, pcmap,
                               regions, max_cycles, tracing)
                if sev != 0:
                    return leave(CS, CL, sev)
                may_run = CL[U(L.L_RELEASED)]
                after_round = True
                links_ok = CL[U(L.L_TEXT_DIRTY)] == 0    # a DMA may have written text
        c = found
        cb = c * L.NCS
        # a core a round granted resumes at the instruction it parked on
        link = CS[U(cb + L.CS_PARK_SLOT)] if links_ok and CS[U(cb + L.CS_GRANTED)] != 0 else -1
        rb = c * L.RS
        pb = c * cap
        pc = CS[U(cb + L.CS_PC)]
        t = CS[U(cb + L.CS_T)]
        instret = CS[U(cb + L.CS_INSTRET)]
        granted = CS[U(cb + L.CS_GRANTED)]
        cur_base = CS[U(cb + L.CS_RBASE)]
        cur_size = CS[U(cb + L.CS_RSIZE)]
        cur_off = CS[U(cb + L.CS_ROFF)]
        iline = CS[U(cb + L.CS_ILINE)]
        horizon = horizon_of(CS, CL, c, t, ncores, after_round, policy)
        after_round = False
        tcdm_size = cluster_tcdm_size if c < ncluster else 0
        l1_alias = soc_alias if c < ncluster else 0

        # ---- run core c until it parks, sleeps, stops or needs Python ----
        while True:
            ipc = pc
            if t > max_cycles:
                # this core is done for the run; the others go on up to the limit too, and the
                # scheduler ends the run when nobody can act within it
                park(CS, cb, t, -1, -1)
                break
            # ---- fetch: follow the previous instruction's link, else look the pc up ----
            if link >= 0:
                slot = link
                link = -1
            else:
                d = pc - cur_base
                if d < 0 or d + 2 > cur_size:
                    off, kind = translate(regions, pc, 2)
                    if off < 0 or kind == L.RK_PERIPH or pc & 1:
                        cause = L.CAUSE_FETCH_ACCESS if pc & 1 == 0 else L.CAUSE_FETCH_MISALIGNED
                        tval = pc
                        handler = trap_entry(CS, cb, pc, cause, tval)
                        if handler < 0 or handler == pc:
                            # no handler, or the handler itself cannot be fetched: trapping again
                            # would repeat forever
                            ev = L.EV_FAULT
                            break
                        # like any trap: the lost issue cycle and the jump to the handler
                        charge(CAT, PCS, CS, CL, TR, CFG, code, c, cap, -1, L.C_JUMP, t,
                               1 + jump_pen)
                        t += 1 + jump_pen
                        pc = handler
                        start_run(CS, CL, cb, c, pc, instret)
                        continue
                    for ri in range(nregions):
                        rbase = regions[U(ri * L.RGW + L.RG_BASE)]
                        if rbase <= pc < rbase + regions[U(ri * L.RGW + L.RG_SIZE)]:
                            cur_base = rbase
                            cur_size = regions[U(ri * L.RGW + L.RG_SIZE)]
                            cur_off = regions[U(ri * L.RGW + L.RG_OFF)]
                    d = pc - cur_base
                slot = pcmap[U((cur_off + d) >> 1)]
                if slot < 0:
                    ev = L.EV_DECODE
                    break
            k = slot * L.NF
            # (translated code does not write the event log)
            # (nor while an FP operation is outstanding: translated code does not wait for it)
            # (nor for a SoC's fabric controller: it reaches the TCDM over the SoC interconnect,
            # which translated code's accesses, the cluster cores', do not model)
            if (translated is not None and links_ok and not tracing and code[U(k + L.F_TX)] >= 0
                    and CS[U(cb + L.CS_FPUBUSY)] <= t and c < ncluster):
                e, retired = run_translated(translated, exits, code[U(k + L.F_TX)], c, t,
                                            max_cycles, pb, granted, horizon, instret, CS, CL)
                if e >= 0:
                    t = CS[U(cb + L.CS_T)]
                if e >= 0 and (retired > 0 or exits[U(e + 3)] == EXIT_PARKED):
                    iline = -1
                    # translated code retired instructions up to an exit: go on from there
                    instret += retired
                    pc = exits[U(e)]
                    link = exits[U(e + 1)]
                    granted = 0
                    if exits[U(e + 3)] == EXIT_PARKED:
                        park(CS, cb, t, CS[U(cb + L.CS_PARK_RES)], link)
                        break
                    continue
            if ic_on and c < ncluster:
                # ---- instruction cache: look up only a fetch from another 16-byte line ----
                ln = code[U(k + L.F_LEN)]
                if pc >> icache.LINE_SHIFT != iline or (pc + ln - 1) >> icache.LINE_SHIFT != iline:
                    line = icache.first_missing(CL, c, pc, ln)
                    if line < 0:
                        iline = (pc + ln - 1) >> icache.LINE_SHIFT
                    else:
                        # the refill goes to a shared L1 bank, one request a cycle: arbitrated
                        # (under every policy, as a shared FPU) when another core could ask too
                        res = L.RES_ICACHE + icache.bank_of(line)
                        if granted == 0 and t >= horizon:
                            park(CS, cb, t, res, slot)
                            break
                        if granted == 0 and policy != L.POLICY_FIFO:
                            CL[U(L.L_BANK_RR + res)] = pointer_after_grant(c, policy, 0, 1 << c)
                        granted = 0
                        wait = icache.refill(CL, CFG, c, line, t)
                        charge(CAT, PCS, CS, CL, TR, CFG, code, c, cap, slot, L.C_IMISS, t, wait)
                        PCS[U((pb + slot) * L.NPS + L.PS_IMISS)] += 1
                        CS[U(cb + L.CS_IMISS)] += 1
                        t += wait
                        link = slot
                        continue
            op = code[U(k + L.F_OP)]
            nlink = code[U(k + L.F_NEXT)]
            wd = code[U(k + L.F_WD)]
            s1 = code[U(k + L.F_S1)]
            s2 = code[U(k + L.F_S2)]
            s3 = code[U(k + L.F_S3)]
            cls = code[U(k + L.F_CLS)]
            # ---- scoreboard: issue when every source is ready ----
            # scoreboard entries are ready_cycle << RDY_SHIFT | reason: the largest entry is the
            # latest operand, and its low bits say why it is late
            r = RDY[U(rb + s1)]
            r2 = RDY[U(rb + s2)]
            if r2 > r:
                r = r2
            r2 = RDY[U(rb + s3)]
            if r2 > r:
                r = r2
            s = t
            reason = 0
            if r >> L.RDY_SHIFT > t:
                s = r >> L.RDY_SHIFT
                reason = r & L.RDY_MASK
            is_fp = cls >= L.TC_FPU and cls <= L.TC_FDIV16
            if is_fp and CS[U(cb + L.CS_FPUBUSY)] > s:
                s = CS[U(cb + L.CS_FPUBUSY)]
                reason = L.C_FPU_STRUCT
            elif (fpu_one and wd == CS[U(cb + L.CS_FPU_WD)]
                  and CS[U(cb + L.CS_FPUBUSY)] > s):
                # CV32E40P: no write to the outstanding FP operation's destination (WAW)
                s = CS[U(cb + L.CS_FPUBUSY)]
                reason = L.C_FPU_DEP
            if s > t:
                # charged in place: the inlined charge() (its extra checks) measured 7 % slower here
                CAT[U(c * L.NCAT + reason)] += s - t
                PCS[U((pb + slot) * L.NPS + L.PS_STALL + reason)] += s - t
                if tracing:
                    trace_run(TR, CL, CS, c, t, s - t, reason, slot, code[U(k + L.F_SYM)])
                t = s
            a = R[U(rb + s1)]
            bv = R[U(rb + s2)]
            imm = np.int64(code[U(k + L.F_IMM)])
            ln = code[U(k + L.F_LEN)]
            npc = pc + ln
            res = 0
            pen = 0
            pcat = 0
            rl = CL[U(L.L_LATWHY + cls)]
            trap = -1

            # the common access, an aligned word at rs1 + imm in the TCDM, has a short path (nested
            # in this test: as a branch of its own in the chain below it measured 5 % slower, the
            # loop's register allocation being that sensitive)
            word_tcdm = False
            if op == O.OP_MEM:
                shape = code[U(k + L.F_MEM)] & ~L.MEM_SIGNED
                if shape == L.MEM_WORD_LOAD or shape == L.MEM_WORD_STORE:
                    ea = (a + imm) & M32
                    dd = ea - tcdm_base
                    if ea & 3 == 0 and 0 <= dd and dd + 4 <= tcdm_size:
                        # ---------------- lw, flw, sw, fsw of a TCDM word ----------------
                        word_tcdm = True
                        if granted == 0 and (s > horizon or (
                                s == horizon and policy != L.POLICY_NONE and (
                                    tracing or not alone_at(CS, CL, c, s, (ea >> 2) & nbanks_mask,
                                                            ncores, policy)))):
                            park(CS, cb, s, (ea >> 2) & nbanks_mask, slot)
                            break
                        if granted == 0 and policy == L.POLICY_ROUND_ROBIN:
                            CL[U(L.L_BANK_RR + ((ea >> 2) & nbanks_mask))] = c + 1
                        elif granted == 0 and policy == L.POLICY_RR_ARB_TREE:
                            CL[U(L.L_BANK_RR + ((ea >> 2) & nbanks_mask))] = c   # alone: c
                        granted = 0
                        off = tcdm_off + dd
                        if shape == L.MEM_WORD_LOAD:
                            res = np.int64(mem32[U(off >> 2)])
                            rl = load_rl
                        else:
                            if watched(CL, ea, 4):
                                # before the store, as a RISC-V trigger; the access is this
                                # core's now (granted): resuming performs it
                                ev = L.EV_WATCH
                                tval = ea
                                granted = 1
                                break
                            mem32[U(off >> 2)] = bv & M32
                            if invalidate_code(pcmap, CL, off, 4):
                                links_ok = False
                            if stored_in_tohost(tohost, ea):
                                ev = L.EV_TOHOST
                                tval = ea
                            wd = L.R_SINK
            if word_tcdm:
                pass    # performed above
            elif op == O.OP_MEM:
                # ---------------- loads and stores ----------------
                mem = code[U(k + L.F_MEM)]
                kind = mem & L.MEM_KIND_MASK
                lsz = (mem >> L.MEM_SIZE_SHIFT) & 3
                amode = (mem >> L.MEM_AMODE_SHIFT) & 3
                cv = R[U(rb + s3)]
                if amode == L.AMODE_IMM:
                    ea = (a + imm) & M32
                elif amode == L.AMODE_BASE:
                    ea = a
                elif kind == L.MEM_LOAD:
                    ea = (a + bv) & M32
                else:
                    ea = (a + cv) & M32
                size = 1 << lsz
                mis = ea & (size - 1)
                dd = ea - tcdm_base
                if 0 <= dd and dd + size <= tcdm_size:
                    off = tcdm_off + dd
                    rk = L.RK_TCDM
                elif ea + size <= l1_alias:
                    off = tcdm_off + ea
                    rk = L.RK_TCDM
                else:
                    off, rk = translate(regions, ea, size)
                    if rk == L.RK_TCDM:
                        rk = L.RK_L2     # the fabric controller's access (see tcdm_size)
                if off < 0:
                    trap = L.CAUSE_LOAD_ACCESS if kind == L.MEM_LOAD else L.CAUSE_STORE_ACCESS
                    tval = ea
                elif mis != 0 and (CFG[U(L.K_MISALIGN_FAULT)] != 0 or rk == L.RK_PERIPH):
                    trap = (L.CAUSE_LOAD_MISALIGNED if kind == L.MEM_LOAD
                            else L.CAUSE_STORE_MISALIGNED)
                    tval = ea
                elif granted == 0 and (s > horizon or (s == horizon and (
                        (policy != L.POLICY_NONE and (
                            rk != L.RK_TCDM or tracing
                            or not alone_at(CS, CL, c, s, (ea >> 2) & nbanks_mask, ncores,
                                            policy)))
                        or (l2_axi and rk == L.RK_L2)))):
                    # an L2 access under l2_contention "axi" asks its request channel, which
                    # takes one a cycle (arbitrated under every policy, as a shared FPU)
                    park(CS, cb, s, ((ea >> 2) & nbanks_mask) if rk == L.RK_TCDM else
                         L.RES_L2 + (kind == L.MEM_STORE) if l2_axi and rk == L.RK_L2 else -1,
                         slot)
                    break
                else:
                    if l2_axi and rk == L.RK_L2 and granted == 0 and policy != L.POLICY_FIFO:
                        ch = L.RES_L2 + (kind == L.MEM_STORE)
                        CL[U(L.L_BANK_RR + ch)] = pointer_after_grant(c, policy, 0, 1 << c)
                    if kind == L.MEM_STORE and watched(CL, ea, size):
                        ev = L.EV_WATCH
                        tval = ea
                        break
                    bank = (ea >> 2) & nbanks_mask
                    if mis != 0 and crossing_only and (ea & 3) + size <= 4:
                        mis = 0    # the RTL's one bus transaction reads it (no extra cycle)
                    if mis != 0 and CS[U(cb + L.CS_SECOND_HALF)] != 0:
                        CS[U(cb + L.CS_SECOND_HALF)] = 0   # a round granted its second half
                    elif mis != 0:
                        # RI5CY splits a misaligned access in two: this cycle is the first half
                        charge(CAT, PCS, CS, CL, TR, CFG, code, c, cap, slot, L.C_MISALIGNED, s,
                               CFG[U(L.K_MISALIGN_PEN)])
                        s += CFG[U(L.K_MISALIGN_PEN)]
                        if rk == L.RK_TCDM and (ea & 3) + size > 4:
                            # the second half needs the next word's bank: arbitrated like any
                            if granted == 0 and (policy == L.POLICY_ROUND_ROBIN
                                                 or policy == L.POLICY_RR_ARB_TREE):
                                CL[U(L.L_BANK_RR + bank)] = pointer_after_grant(c, policy, 0,
                                                                                1 << c)
                            granted = 0
                            bank = (bank + 1) & nbanks_mask
                            if s > horizon or (s == horizon and policy != L.POLICY_NONE):
                                t = s
                                park(CS, cb, s, bank, slot)
                                CS[U(cb + L.CS_SECOND_HALF)] = 1
                                break
                    if rk == L.RK_TCDM:
                        if granted == 0 and (policy == L.POLICY_ROUND_ROBIN
                                             or policy == L.POLICY_RR_ARB_TREE):
                            CL[U(L.L_BANK_RR + bank)] = pointer_after_grant(c, policy, 0, 1 << c)
                        if kind == L.MEM_LOAD:
                            if mis == 0 and lsz == 2:
                                res = np.int64(mem32[U(off >> 2)])
                            else:
                                res = load(mem8, mem16, mem32, off, lsz, mem & L.MEM_EXTEND)
                        else:
                            if mis == 0 and lsz == 2:
                                mem32[U(off >> 2)] = bv & M32
                            else:
                                store(mem8, mem16, mem32, off, lsz, bv)
                            if invalidate_code(pcmap, CL, off, size):
                                links_ok = False
                            if stored_in_tohost(tohost, ea):
                                ev = L.EV_TOHOST
                                tval = ea
                    else:
                        res, pen, pcat, ev, dst = exec_mem_slow(
                            c, kind, lsz, mem & L.MEM_EXTEND, ea, off, rk, bv, s, CS, CFG, CL, OUT,
                            regions, mem8, mem16, mem32, pcmap, tohost)
                        if ev == L.EV_TOHOST:
                            tval = ea
                        if kind == L.MEM_STORE and CL[U(L.L_TEXT_DIRTY)] != 0:
                            links_ok = False
                        if dst == D.DEV_RETRY:
                            # the DMA's queue is full: the store waits a cycle and tries again
                            charge(CAT, PCS, CS, CL, TR, CFG, code, c, cap, slot, L.C_DMA_WAIT,
                                   s, 1)
                            park(CS, cb, s + 1, -1, slot)
                            t = s + 1
                            break
                        if dst != 0:
                            horizon = s    # a device may wake cores or start the DMA: re-check
                            if dst == D.DEV_FAULT:
                                trap = L.CAUSE_DEVICE
                                tval = ea
                            elif dst == D.DEV_HALT:
                                CS[U(cb + L.CS_STATUS)] = L.ST_HALTED
                                CS[U(cb + L.CS_MISC)] = s + 1
                                ev = -1
                            elif dst == D.DEV_SLEEP:
                                CS[U(cb + L.CS_STATUS)] = L.ST_SLEEPING
                                CS[U(cb + L.CS_SLEEP_SINCE)] = s + 1
                                CS[U(cb + L.CS_SLEEP_WD)] = wd
                                CS[U(cb + L.CS_PARK_SLOT)] = slot
                                if tracing and D.is_barrier_wait(CFG, ea):
                                    D.trace_event(TR, CL, L.TR_BAR_ARRIVE, c, s, ea, 0)
                                wd = L.R_SINK
                                ev = -1
                    granted = 0
                    if trap < 0:
                        inc = (mem >> L.MEM_INC_SHIFT) & 3
                        if inc != L.INC_NONE:
                            step = imm if inc == L.INC_IMM else (bv if kind == L.MEM_LOAD else cv)
                            wd2 = code[U(k + L.F_WD2)]
                            R[U(rb + wd2)] = (a + step) & M32
                            RDY[U(rb + wd2)] = (s + 1) << L.RDY_SHIFT
                            if wd2 == wd and wd != L.R_SINK:
                                CS[U(cb + L.CS_WARN)] |= L.WARN_POSTINC_RD_EQ_RS1
                        if kind == L.MEM_LOAD:
                            rl = load_rl + (pen << L.RDY_SHIFT)
                        else:
                            wd = L.R_SINK
            elif op <= O.OP_AND:
                # ---------------- RV32I ----------------
                if op >= O.OP_ADDI:
                    res = alu_result(op, a, bv, imm, pc)
                elif op >= O.OP_BEQ:
                    if branch_taken(op, a, bv):
                        npc = (pc + imm) & M32
                        nlink = code[U(k + L.F_TGT)]
                        pen = branch_pen
                        pcat = L.C_BRANCH
                        CS[U(cb + L.CS_TAKEN)] += 1
                        if npc & 2:
                            pen += unaligned_target_penalty(regions, mem16, CFG, npc)
                elif op == O.OP_JAL:
                    res = npc
                    npc = (pc + imm) & M32
                    nlink = code[U(k + L.F_TGT)]
                    pen = jump_pen
                    pcat = L.C_JUMP
                    if npc & 2:
                        pen += unaligned_target_penalty(regions, mem16, CFG, npc)
                elif op == O.OP_JALR:
                    res = npc
                    npc = (a + imm) & 0xFFFFFFFE
                    nlink = -1
                    pen = jump_pen
                    # rs1 written by the instruction just before: RI5CY needs one more cycle
                    if s1 != 0 and RDY[U(rb + s1)] >> L.RDY_SHIFT >= s:
                        pen += CFG[U(L.K_JALR_DEP)]
                        CS[U(cb + L.CS_JMP_STALL)] += CFG[U(L.K_JALR_DEP)]
                    pcat = L.C_JUMP
                    if npc & 2:
                        pen += unaligned_target_penalty(regions, mem16, CFG, npc)
                elif op == O.OP_ILLEGAL:
                    trap = L.CAUSE_ILLEGAL
                    tval = code[U(k + L.F_WORD)] & M32
                else:
                    res = alu_result(op, a, bv, imm, pc)    # lui, auipc
            elif op == O.OP_MUL:
                res = alu_result(op, a, bv, imm, pc)
            elif op == O.OP_BEQIMM or op == O.OP_BNEIMM:
                if branch_taken(op, a, code[U(k + L.F_IMM2)] & M32):
                    npc = (pc + imm) & M32
                    nlink = code[U(k + L.F_TGT)]
                    pen = branch_pen
                    pcat = L.C_BRANCH
                    CS[U(cb + L.CS_TAKEN)] += 1
                    if npc & 2:
                        pen += unaligned_target_penalty(regions, mem16, CFG, npc)
            elif (is_fp or (op >= O.OP_MULH and op <= O.OP_REMU)
                  or (op >= O.OP_MAC and op <= O.OP_MACHHURN)
                  or (op >= simd.FIRST and op <= simd.LAST)):
                # ---------------- F, M, Xpulp ALU, packed SIMD ----------------
                cv = R[U(rb + s3)]
                rm = 0
                if is_fp:
                    rm = code[U(k + L.F_RM)]
                    if rm == 7:
                        rm = CS[U(cb + L.CS_FRM)]
                    if (CS[U(cb + L.CS_MSTATUS)] >> 13) & 3 == 0 or (rm > 4 and fp_needs_rm(op)):
                        trap = L.CAUSE_ILLEGAL
                        tval = code[U(k + L.F_WORD)] & M32
                    elif fpu_shared and granted == 0 and s >= horizon:
                        park(CS, cb, s, L.RES_FDIV if cls >= L.TC_FDIV else L.RES_FPU + (c & 3),
                             slot)
                        break
                    else:
                        if fpu_shared and cls >= L.TC_FDIV and CL[U(L.L_FDIV_BUSY)] > s:
                            # the shared divider is busy: wait for it, then ask for it in
                            # that cycle like any request (another core may ask then too)
                            wait = CL[U(L.L_FDIV_BUSY)] - s
                            charge(CAT, PCS, CS, CL, TR, CFG, code, c, cap, slot,
                                   L.C_FPU_STRUCT, s, wait)
                            s += wait
                            if s >= horizon:
                                t = s
                                park(CS, cb, s, L.RES_FDIV, slot)
                                CS[U(cb + L.CS_PARK_FIRST)] = s - wait    # FIFO: its age
                                break
                        if fpu_shared and granted == 0 and policy != L.POLICY_FIFO:
                            # uncontested: round robin moves past every core it grants
                            CL[U(L.L_BANK_RR + (L.RES_FDIV if cls >= L.TC_FDIV
                                                else L.RES_FPU + (c & 3)))] = (
                                pointer_after_grant(c, policy, 0, 1 << c))
                        granted = 0
                        if fpu_shared and cls >= L.TC_FDIV:
                            CL[U(L.L_FDIV_BUSY)] = s + (rl >> L.RDY_SHIFT)
                        if (cls >= L.TC_FDIV and not fpu_shared) or (cls < L.TC_FDIV
                                                                      and fpu_occupy):
                            # a private FPU's iterative divider blocks it (the shared divider
                            # of gvsoc4 is a unit apart from the core's adder/multiplier); with
                            # one operation outstanding (CV32E40P) every FP operation holds
                            # the FPU until its result is written
                            CS[U(cb + L.CS_FPUBUSY)] = s + (rl >> L.RDY_SHIFT)
                            CS[U(cb + L.CS_FPU_WD)] = wd if wd != L.R_SINK else -1
                if trap < 0:
                    done = False
                    if rm == 0 and op >= O.OP_FMADD_S and op <= O.OP_FMUL_S:
                        done, res, fl = fma_family_fast(op, a, bv, cv)
                        if done and fl != 0:
                            CS[U(cb + L.CS_FFLAGS)] |= fl
                    if not done:
                        res, fl, extra = exec_scalar(op, a, bv, cv, imm,
                                                     np.int64(code[U(k + L.F_IMM2)]), rm)
                        if fl != 0:
                            CS[U(cb + L.CS_FFLAGS)] |= fl
                        if extra != 0:
                            pen = CFG[U(L.K_MULH_CYC)] - 1 if extra < 0 else extra
                            pcat = L.C_MULDIV
            else:
                # ---------------- hardware loops and system ----------------
                imm2 = np.int64(code[U(k + L.F_IMM2)]) & M32
                if cls == L.TC_HWLOOP and code[U(k + L.F_RD)] != 0:
                    imm2 |= 1 << 32
                res, npc, pen, pcat, trap, tval, sev = exec_system(
                    op, c, pc, ln, a, imm, imm2, code[U(k + L.F_WORD)] & M32, s, slot, CS, CFG, CL,
                    regions, mem8, mem16, mem32)
                if sev == -2:
                    ev = L.EV_CSR
                    break
                if sev == -3:
                    ev = L.EV_EBREAK
                    tval = 0
                    break
                if sev == L.EV_ECALL and R[U(rb + 17)] == L.SYS_EXIT:
                    # exit(a0): the core halts here, as a simulated device's exit register
                    # halts it, rather than in Python (a run of 8 cores made 7 such returns)
                    CS[U(cb + L.CS_STATUS)] = L.ST_HALTED
                    CS[U(cb + L.CS_EXIT)] = R[U(rb + 10)] & M32
                    CS[U(cb + L.CS_MISC)] = s + 1
                    sev = -1
                if sev != 0:
                    ev = sev
                if npc != pc + ln:
                    nlink = -1

            # ---- exceptions: enter the handler, or stop with a fault report ----
            if trap >= 0:
                cause = trap
                handler = -1 if trap == L.CAUSE_DEVICE else trap_entry(CS, cb, pc, trap, tval)
                if handler < 0:
                    ev = L.EV_FAULT
                    break
                if trap == L.CAUSE_ECALL_M or trap == L.CAUSE_BREAKPOINT:
                    # ecall/ebreak retire (faulting instructions do not): issued at s like any other
                    PCS[U((pb + slot) * L.NPS)] += 1
                    if tracing:
                        trace_run(TR, CL, CS, c, s, 1, L.C_INSTR, slot, code[U(k + L.F_SYM)])
                    instret += 1
                else:
                    # the faulting instruction does not retire: its issue cycle is charged as part
                    # of the jump to the handler
                    charge(CAT, PCS, CS, CL, TR, CFG, code, c, cap, slot, L.C_JUMP, s, 1)
                charge(CAT, PCS, CS, CL, TR, CFG, code, c, cap, slot, L.C_JUMP, s + 1, jump_pen)
                t = s + 1 + jump_pen
                pc = handler
                start_run(CS, CL, cb, c, pc, instret)
                continue

            # ---- retire: write back, hardware loops, time ----
            R[U(rb + wd)] = res
            RDY[U(rb + wd)] = (s << L.RDY_SHIFT) + rl
            if pc == CS[U(cb + L.CS_LPE0)] and CS[U(cb + L.CS_LPC0)] != 0:
                CS[U(cb + L.CS_LPC0)] -= 1
                if CS[U(cb + L.CS_LPC0)] != 0:
                    npc = CS[U(cb + L.CS_LPS0)]
                    nlink = -1
                elif pc == CS[U(cb + L.CS_LPE1)] and CS[U(cb + L.CS_LPC1)] != 0:
                    CS[U(cb + L.CS_LPC1)] -= 1
                    if CS[U(cb + L.CS_LPC1)] != 0:
                        npc = CS[U(cb + L.CS_LPS1)]
                        nlink = -1
            elif pc == CS[U(cb + L.CS_LPE1)] and CS[U(cb + L.CS_LPC1)] != 0:
                CS[U(cb + L.CS_LPC1)] -= 1
                if CS[U(cb + L.CS_LPC1)] != 0:
                    npc = CS[U(cb + L.CS_LPS1)]
                    nlink = -1
            PCS[U((pb + slot) * L.NPS)] += 1
            if tracing:
                trace_run(TR, CL, CS, c, s, 1, L.C_INSTR, slot, code[U(k + L.F_SYM)])
            if pen != 0:
                CAT[U(c * L.NCAT + pcat)] += pen
                PCS[U((pb + slot) * L.NPS + L.PS_STALL + pcat)] += pen
                if tracing:
                    trace_run(TR, CL, CS, c, s + 1, pen, pcat, slot, code[U(k + L.F_SYM)])
            instret += 1
            if npc != pc + ln:
                start_run(CS, CL, cb, c, npc, instret)
            t = s + 1 + pen
            pc = npc
            if links_ok:
                link = nlink
            if ev != 0:
                break
            if tracing and CL[U(L.L_TRN)] >= tr_limit:
                ev = L.EV_TRACE_FULL
                break


def dependencies() -> list:
    """The modules whose code the loop compiles in (a change to any must recompile it)."""
    from isasim import (
        csr,
        devices,
        engine,
        icache,
        jitcache,
        layout,
        memory,
        opcodes,
        semantics,
        simd,
        smallfloat,
        soc,
        softfloat,
        softfloat16,
        translate,
        xpulp_alu,
    )

    return [csr, engine, devices, icache, jitcache, layout, memory, opcodes, semantics, simd,
            smallfloat, soc, softfloat, softfloat16, translate, xpulp_alu]


jitcache.ensure_fresh(dependencies())
