"""The compiled simulation loop: all cores of the cluster, cycle-exact, in one numba function.

How time works.  Each core has its own clock ``T`` (the cycle at which it can issue next) and
runs ahead through instructions that touch only its own state: registers, its scoreboard of
register ready-cycles, hardware loops.  Every access to shared state (a load or store, a device
register) is a scheduling point: the core *parks* with the cycle at which it would issue the
access.  The scheduler then takes the earliest parked cycle, arbitrates the TCDM banks among all
cores that want them in that same cycle (round robin, FIFO or none), lets the winners perform
their access and run ahead again, and makes the losers retry one cycle later.  Shared state is
therefore touched in global cycle order, exactly as a lockstep simulation would, while the
cheap private instructions run without any per-cycle bookkeeping.

How cycles are charged.  Issuing an instruction costs one cycle (``instr``).  Cycles before the
issue are charged to the reason the latest source operand was late (``load_use``, ``fpu_dep``,
``muldiv``...), cycles after it to the instruction's own penalty (``branch``, ``jump``,
``ext_mem``, ``misaligned``...), lost arbitrations to ``tcdm_conflict``, sleeping to ``barrier``
or ``idle``.  The same amounts go to the per-instruction profile.  The sum equals the core's
cycle count by construction, and a test checks it on every run.

Rare work (CSR accesses, ecall, ebreak, faults, undecoded words, the HTIF ``tohost`` location)
leaves the loop with an event code; ``isasim.machine`` handles it in Python and resumes.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from isasim import layout as L
from isasim import opcodes as O
from isasim import softfloat as sf
from isasim import xpulp_alu as X
from isasim.devices import DEV_FAULT, DEV_HALT, DEV_OUT_FULL, device_access
from isasim.memory import load, store, translate

M32 = 0xFFFFFFFF
BIG = 1 << 62
SEMIHOST_PRE = 0x01F01013    # slli x0, x0, 0x1f
SEMIHOST_EBREAK = 0x00100073
SEMIHOST_POST = 0x40705013   # srai x0, x0, 7


@njit(cache=True)
def trap_entry(CS, cb, pc, cause, tval):
    """Enter the machine-mode trap handler; -1 when the program installed none (mtvec = 0)."""
    mtvec = CS[cb + L.CS_MTVEC]
    if mtvec == 0:
        return -1
    CS[cb + L.CS_MEPC] = pc
    CS[cb + L.CS_MCAUSE] = cause
    CS[cb + L.CS_MTVAL] = tval & M32
    ms = CS[cb + L.CS_MSTATUS]
    mie = (ms >> 3) & 1
    ms = (ms & ~((1 << 7) | (1 << 3) | (3 << 11))) | (mie << 7) | (3 << 11)
    CS[cb + L.CS_MSTATUS] = ms
    return mtvec & 0xFFFFFFFC


@njit(cache=True)
def charge(CAT, PCS, c, cap, slot, cat, n):
    """Charge ``n`` cycles of category ``cat`` to core ``c`` and to instruction ``slot``."""
    CAT[c * L.NCAT + cat] += n
    if slot >= 0:
        PCS[(c * cap + slot) * L.NPS + L.PS_STALL + cat] += n


@njit(cache=True)
def read_word(regions, mem8, mem16, mem32, addr):
    off, kind = translate(regions, addr, 4)
    if off < 0 or kind == L.RK_PERIPH:
        return -1
    return load(mem8, mem16, mem32, off, 2, False)


@njit(cache=True)
def finish(CS, CAT, CFG, CL):
    """No core can run any more: pad every core to the common end with idle, or report deadlock.

    Returns EV_DONE, or EV_DEADLOCK when some core sleeps in a barrier that nothing can complete.
    """
    n = CFG[L.K_NCORES]
    end = 0
    for i in range(n):
        b = i * L.NCS
        st = CS[b + L.CS_STATUS]
        t = CS[b + L.CS_SLEEP_SINCE] if st == L.ST_SLEEPING else CS[b + L.CS_T]
        if st == L.ST_SLEEPING and CS[b + L.CS_SLEEP] != L.SLEEP_WFI:
            CL[L.L_EV_CORE] = i
            CL[L.L_EV_PC] = CS[b + L.CS_PC]
            CL[L.L_EV_CAUSE] = L.CAUSE_DEADLOCK
            return L.EV_DEADLOCK
        if t > end:
            end = t
    for i in range(n):
        b = i * L.NCS
        st = CS[b + L.CS_STATUS]
        t = CS[b + L.CS_SLEEP_SINCE] if st == L.ST_SLEEPING else CS[b + L.CS_T]
        CAT[i * L.NCAT + L.C_IDLE] += end - t
        CS[b + L.CS_T] = end
        if st == L.ST_SLEEPING:
            CS[b + L.CS_SLEEP_SINCE] = end
    CL[L.L_END] = end
    return L.EV_DONE


@njit(cache=True)
def schedule(CS, CAT, PCS, CFG, CL, cap, max_cycles):
    """Advance global time to the next parked access or wake-up and arbitrate the banks.

    Returns 0 when some core can run again, else the event that ends the run.
    """
    n = CFG[L.K_NCORES]
    tmin = BIG
    for i in range(n):
        b = i * L.NCS
        st = CS[b + L.CS_STATUS]
        if st == L.ST_PARKED:
            ti = CS[b + L.CS_PARK_T]
        elif st == L.ST_SLEEPING:
            ti = CS[b + L.CS_WAKE_T]
        else:
            continue
        if ti < tmin:
            tmin = ti
    if tmin >= BIG:
        return finish(CS, CAT, CFG, CL)
    if tmin > max_cycles:
        return L.EV_MAX_CYCLES
    CL[L.L_NOW] = tmin
    policy = CFG[L.K_POLICY]
    # wake-ups due now
    for i in range(n):
        b = i * L.NCS
        if CS[b + L.CS_STATUS] == L.ST_SLEEPING and CS[b + L.CS_WAKE_T] == tmin:
            cat = L.C_BARRIER if CS[b + L.CS_SLEEP] == L.SLEEP_BARRIER else L.C_IDLE
            if CS[b + L.CS_SLEEP] == L.SLEEP_DMA:
                cat = L.C_DMA_WAIT
            charge(CAT, PCS, i, cap, CS[b + L.CS_PARK_SLOT], cat, tmin - CS[b + L.CS_SLEEP_SINCE])
            CS[b + L.CS_STATUS] = L.ST_RUNNING
            CS[b + L.CS_T] = tmin
            CS[b + L.CS_WAKE_T] = BIG
    # arbitration of the accesses parked at tmin: pick a winner per bank
    for i in range(n):
        b = i * L.NCS
        if CS[b + L.CS_STATUS] != L.ST_PARKED or CS[b + L.CS_PARK_T] != tmin:
            continue
        res = CS[b + L.CS_PARK_RES]
        if res < 0 or policy == L.POLICY_NONE:
            continue
        w = CL[L.L_BANK_WIN + res]
        if w < 0:
            CL[L.L_BANK_WIN + res] = i
        elif policy == L.POLICY_ROUND_ROBIN:
            rr = CL[L.L_BANK_RR + res]
            if (i - rr) % n < (w - rr) % n:
                CL[L.L_BANK_WIN + res] = i
        elif CS[b + L.CS_PARK_FIRST] < CS[w * L.NCS + L.CS_PARK_FIRST]:
            CL[L.L_BANK_WIN + res] = i
    for i in range(n):
        b = i * L.NCS
        if CS[b + L.CS_STATUS] != L.ST_PARKED or CS[b + L.CS_PARK_T] != tmin:
            continue
        res = CS[b + L.CS_PARK_RES]
        w = i if res < 0 or policy == L.POLICY_NONE else CL[L.L_BANK_WIN + res]
        if w == i:
            CS[b + L.CS_STATUS] = L.ST_RUNNING
            CS[b + L.CS_GRANTED] = 1
            CS[b + L.CS_T] = tmin
            if res >= 0:
                CL[L.L_BANK_RR + res] = (i + 1) % n
        else:
            CS[b + L.CS_PARK_T] = tmin + 1
            charge(CAT, PCS, i, cap, CS[b + L.CS_PARK_SLOT], L.C_TCDM, 1)
            CL[L.L_CONF + i * 32 + res] += 1
            CL[L.L_CONF_WIN + i * 8 + w] += 1
    for r in range(CFG[L.K_NBANKS]):
        CL[L.L_BANK_WIN + r] = -1
    return 0


@njit(cache=True)
def run(code, pcmap, mem8, mem16, mem32, regions, R, RDY, RSN, CS, CAT, PCS, CFG, CL, OUT,
        max_cycles):
    """Run the cluster until every core stopped, ``max_cycles`` passed, or Python is needed."""
    ncores = CFG[L.K_NCORES]
    cap = PCS.size // (ncores * L.NPS)
    multi = ncores > 1
    tohost = CFG[L.K_TOHOST]
    tcdm_base = CFG[L.K_TCDM_BASE]
    tcdm_size = CFG[L.K_TCDM_SIZE]
    tcdm_off = 0
    for i in range(regions.size // L.RGW):
        if regions[i * L.RGW + L.RG_KIND] == L.RK_TCDM:
            tcdm_off = regions[i * L.RGW + L.RG_OFF]
    nbanks_mask = CFG[L.K_NBANKS] - 1
    load_lat = CFG[L.K_LOAD_LAT]
    corev = CFG[L.K_FAMILY] == L.FAMILY_COREV
    # result latency and stall reason per timing class
    lat = np.ones(len(L.TIMING_CLASSES), dtype=np.int64)
    why = np.full(len(L.TIMING_CLASSES), L.C_LOAD_USE, dtype=np.int64)
    lat[L.TC_MUL] = CFG[L.K_MUL_LAT]
    why[L.TC_MUL] = L.C_MULDIV
    why[L.TC_MULH] = L.C_MULDIV
    why[L.TC_DIV] = L.C_MULDIV
    lat[L.TC_FPU] = 1 + CFG[L.K_FPU_LAT]
    why[L.TC_FPU] = L.C_FPU_DEP
    lat[L.TC_FPU_OTHER] = 1 + CFG[L.K_FPU_OTHER_LAT]
    why[L.TC_FPU_OTHER] = L.C_FPU_DEP
    lat[L.TC_FDIV] = CFG[L.K_FDIV_LAT]
    why[L.TC_FDIV] = L.C_FPU_DEP
    lat[L.TC_FSQRT] = CFG[L.K_FDIV_LAT]
    why[L.TC_FSQRT] = L.C_FPU_DEP

    while True:
        c = -1
        for i in range(ncores):
            if CS[i * L.NCS + L.CS_STATUS] == L.ST_RUNNING:
                c = i
                break
        if c < 0:
            ev = schedule(CS, CAT, PCS, CFG, CL, cap, max_cycles)
            if ev != 0:
                return ev
            continue

        # ---------------- run core c ahead until it parks, sleeps, stops or needs Python --------
        cb = c * L.NCS
        rb = c * L.RS
        pc = CS[cb + L.CS_PC]
        t = CS[cb + L.CS_T]
        lps0 = CS[cb + L.CS_LPS0]
        lpe0 = CS[cb + L.CS_LPE0]
        lpc0 = CS[cb + L.CS_LPC0]
        lps1 = CS[cb + L.CS_LPS1]
        lpe1 = CS[cb + L.CS_LPE1]
        lpc1 = CS[cb + L.CS_LPC1]
        instret = CS[cb + L.CS_INSTRET]
        prev_wd = CS[cb + L.CS_LASTWD]
        fpubusy = CS[cb + L.CS_FPUBUSY]
        fflags = CS[cb + L.CS_FFLAGS]
        frm = CS[cb + L.CS_FRM]
        fs_on = (CS[cb + L.CS_MSTATUS] >> 13) & 3 != 0
        granted = CS[cb + L.CS_GRANTED]
        cur_base = 0
        cur_size = 0
        cur_off = 0
        ev = 0
        cause = 0
        tval = 0
        while True:
            ipc = pc
            if t > max_cycles:
                ev = L.EV_MAX_CYCLES
                break
            # ---- fetch ----
            d = pc - cur_base
            if d < 0 or d + 2 > cur_size:
                off, kind = translate(regions, pc, 2)
                if off < 0 or kind == L.RK_PERIPH or pc & 1:
                    cause = L.CAUSE_FETCH_ACCESS if pc & 1 == 0 else L.CAUSE_FETCH_MISALIGNED
                    tval = pc
                    npc = trap_entry(CS, cb, pc, cause, tval)
                    if npc < 0:
                        ev = L.EV_FAULT
                        break
                    pc = npc
                    continue
                for ri in range(regions.size // L.RGW):
                    rbase = regions[ri * L.RGW + L.RG_BASE]
                    if rbase <= pc < rbase + regions[ri * L.RGW + L.RG_SIZE]:
                        cur_base = rbase
                        cur_size = regions[ri * L.RGW + L.RG_SIZE]
                        cur_off = regions[ri * L.RGW + L.RG_OFF]
                d = pc - cur_base
            slot = pcmap[(cur_off + d) >> 1]
            if slot < 0:
                ev = L.EV_DECODE
                break
            k = slot * L.NF
            op = code[k + L.F_OP]
            wd = code[k + L.F_WD]
            s1 = code[k + L.F_S1]
            s2 = code[k + L.F_S2]
            s3 = code[k + L.F_S3]
            cls = code[k + L.F_CLS]
            # ---- scoreboard: issue when every source is ready ----
            s = t
            reason = 0
            r = RDY[rb + s1]
            if r > s:
                s = r
                reason = RSN[rb + s1]
            r = RDY[rb + s2]
            if r > s:
                s = r
                reason = RSN[rb + s2]
            r = RDY[rb + s3]
            if r > s:
                s = r
                reason = RSN[rb + s3]
            if cls >= L.TC_FPU and cls <= L.TC_FSQRT and fpubusy > s:
                s = fpubusy
                reason = L.C_FPU_STRUCT
            if s > t:
                charge(CAT, PCS, c, cap, slot, reason, s - t)
                t = s
            a = R[rb + s1]
            bv = R[rb + s2]
            cv = R[rb + s3]
            imm = np.int64(code[k + L.F_IMM])
            ln = code[k + L.F_LEN]
            npc = pc + ln
            res = 0
            pen = 0
            pcat = 0
            rl = lat[cls]
            rwhy = why[cls]

            if op == O.OP_MEM:
                mem = code[k + L.F_MEM]
                kind = mem & L.MEM_KIND_MASK
                lsz = (mem >> L.MEM_SIZE_SHIFT) & 3
                amode = (mem >> L.MEM_AMODE_SHIFT) & 3
                if amode == L.AMODE_IMM:
                    ea = (a + imm) & M32
                elif amode == L.AMODE_BASE:
                    ea = a
                elif kind == L.MEM_LOAD:
                    ea = (a + bv) & M32
                else:
                    ea = (a + cv) & M32
                size = 1 << lsz
                dd = ea - tcdm_base
                if 0 <= dd and dd + size <= tcdm_size:
                    off = tcdm_off + dd
                    rk = L.RK_TCDM
                else:
                    off, rk = translate(regions, ea, size)
                if off < 0:
                    cause = L.CAUSE_LOAD_ACCESS if kind == L.MEM_LOAD else L.CAUSE_STORE_ACCESS
                    tval = ea
                    npc = trap_entry(CS, cb, pc, cause, tval)
                    if npc < 0:
                        ev = L.EV_FAULT
                        break
                    pc = npc
                    t = s + 1
                    continue
                mis = ea & (size - 1)
                if mis != 0 and (CFG[L.K_MISALIGN_FAULT] != 0 or rk == L.RK_PERIPH):
                    cause = (L.CAUSE_LOAD_MISALIGNED if kind == L.MEM_LOAD
                             else L.CAUSE_STORE_MISALIGNED)
                    tval = ea
                    npc = trap_entry(CS, cb, pc, cause, tval)
                    if npc < 0:
                        ev = L.EV_FAULT
                        break
                    pc = npc
                    t = s + 1
                    continue
                if multi and granted == 0:
                    CS[cb + L.CS_STATUS] = L.ST_PARKED
                    CS[cb + L.CS_PARK_T] = s
                    CS[cb + L.CS_PARK_FIRST] = s
                    CS[cb + L.CS_PARK_ADDR] = ea
                    CS[cb + L.CS_PARK_RES] = ((ea >> 2) & nbanks_mask) if rk == L.RK_TCDM else -1
                    CS[cb + L.CS_PARK_SLOT] = slot
                    break
                granted = 0
                halt = False
                out_full = False
                if rk == L.RK_PERIPH:
                    val, st = device_access(c, ea, kind == L.MEM_STORE, bv, CFG, CS, CL, OUT)
                    if st == DEV_FAULT:
                        cause = L.CAUSE_LOAD_ACCESS if kind == L.MEM_LOAD else L.CAUSE_STORE_ACCESS
                        tval = ea
                        npc = trap_entry(CS, cb, pc, cause, tval)
                        if npc < 0:
                            ev = L.EV_FAULT
                            break
                        pc = npc
                        t = s + 1
                        continue
                    halt = st == DEV_HALT
                    out_full = st == DEV_OUT_FULL
                elif kind == L.MEM_LOAD:
                    val = load(mem8, mem16, mem32, off, lsz, mem & L.MEM_SIGNED)
                else:
                    val = 0
                    store(mem8, mem16, mem32, off, lsz, bv)
                if rk == L.RK_L2:
                    if kind == L.MEM_LOAD:
                        pen = CFG[L.K_EXT_LAT]
                        CS[cb + L.CS_LD_EXT] += 1
                        CS[cb + L.CS_LD_EXT_CYC] += pen
                    else:
                        pen = CFG[L.K_EXT_ST_LAT]
                        CS[cb + L.CS_ST_EXT] += 1
                        CS[cb + L.CS_ST_EXT_CYC] += pen
                    pcat = L.C_EXT
                if mis != 0:
                    charge(CAT, PCS, c, cap, slot, L.C_MISALIGNED, CFG[L.K_MISALIGN_PEN])
                    s += CFG[L.K_MISALIGN_PEN]
                inc = (mem >> L.MEM_INC_SHIFT) & 3
                if inc != L.INC_NONE:
                    step = imm if inc == L.INC_IMM else (bv if kind == L.MEM_LOAD else cv)
                    wd2 = code[k + L.F_WD2]
                    R[rb + wd2] = (a + step) & M32
                    RDY[rb + wd2] = s + 1
                    if wd2 == wd and wd != L.R_SINK:
                        CS[cb + L.CS_WARN] |= L.WARN_POSTINC_RD_EQ_RS1
                if kind == L.MEM_LOAD:
                    res = val
                    rl = 1 + pen + load_lat
                    rwhy = L.C_LOAD_USE
                else:
                    wd = L.R_SINK
                    if rk != L.RK_PERIPH:
                        h = off >> 1
                        if (pcmap[h] >= 0 or (h > 0 and pcmap[h - 1] >= 0)
                                or (size == 4 and pcmap[h + 1] >= 0)):
                            pcmap[h] = -1
                            if h > 0:
                                pcmap[h - 1] = -1
                            if size == 4:
                                pcmap[h + 1] = -1
                    if tohost >= 0 and (ea & ~3) in (tohost, tohost + 4):
                        ev = L.EV_TOHOST
                        tval = ea
                if halt:
                    CS[cb + L.CS_STATUS] = L.ST_HALTED
                    CS[cb + L.CS_MISC] = s + 1 + pen
                    ev = -1
                elif out_full:
                    ev = L.EV_OUT_FULL

            # ---------------- integer ALU ----------------
            elif op == O.OP_ADDI:
                res = (a + imm) & M32
            elif op == O.OP_ADD:
                res = (a + bv) & M32
            elif op == O.OP_LUI:
                res = imm & M32
            elif op == O.OP_AUIPC:
                res = (pc + imm) & M32
            elif op == O.OP_SLLI:
                res = (a << (imm & 31)) & M32
            elif op == O.OP_SRLI:
                res = a >> (imm & 31)
            elif op == O.OP_SRAI:
                res = (X.sx32(a) >> (imm & 31)) & M32
            elif op == O.OP_ANDI:
                res = a & imm & M32
            elif op == O.OP_ORI:
                res = (a | imm) & M32
            elif op == O.OP_XORI:
                res = (a ^ imm) & M32
            elif op == O.OP_SLTI:
                res = 1 if X.sx32(a) < imm else 0
            elif op == O.OP_SLTIU:
                res = 1 if a < (imm & M32) else 0
            elif op == O.OP_SUB:
                res = (a - bv) & M32
            elif op == O.OP_SLL:
                res = (a << (bv & 31)) & M32
            elif op == O.OP_SRL:
                res = a >> (bv & 31)
            elif op == O.OP_SRA:
                res = (X.sx32(a) >> (bv & 31)) & M32
            elif op == O.OP_AND:
                res = a & bv
            elif op == O.OP_OR:
                res = a | bv
            elif op == O.OP_XOR:
                res = a ^ bv
            elif op == O.OP_SLT:
                res = 1 if X.sx32(a) < X.sx32(bv) else 0
            elif op == O.OP_SLTU:
                res = 1 if a < bv else 0
            # ---------------- control transfer ----------------
            elif op >= O.OP_BEQ and op <= O.OP_BGEU:
                if op == O.OP_BEQ:
                    taken = a == bv
                elif op == O.OP_BNE:
                    taken = a != bv
                elif op == O.OP_BLT:
                    taken = X.sx32(a) < X.sx32(bv)
                elif op == O.OP_BGE:
                    taken = X.sx32(a) >= X.sx32(bv)
                elif op == O.OP_BLTU:
                    taken = a < bv
                else:
                    taken = a >= bv
                if taken:
                    npc = (pc + imm) & M32
                    pen = CFG[L.K_BRANCH_PEN]
                    pcat = L.C_BRANCH
                    CS[cb + L.CS_TAKEN] += 1
            elif op == O.OP_BEQIMM or op == O.OP_BNEIMM:
                taken = (a == (code[k + L.F_IMM2] & M32)) == (op == O.OP_BEQIMM)
                if taken:
                    npc = (pc + imm) & M32
                    pen = CFG[L.K_BRANCH_PEN]
                    pcat = L.C_BRANCH
                    CS[cb + L.CS_TAKEN] += 1
            elif op == O.OP_JAL:
                res = npc
                npc = (pc + imm) & M32
                pen = CFG[L.K_JUMP_PEN]
                pcat = L.C_JUMP
            elif op == O.OP_JALR:
                res = npc
                npc = (a + imm) & 0xFFFFFFFE
                pen = CFG[L.K_JUMP_PEN]
                if s1 == prev_wd and s1 != 0:
                    pen += CFG[L.K_JALR_DEP]
                pcat = L.C_JUMP
            # ---------------- M ----------------
            elif op == O.OP_MUL:
                res = (X.sx32(a) * X.sx32(bv)) & M32
            elif op == O.OP_MULH:
                res = ((X.sx32(a) * X.sx32(bv)) >> 32) & M32
                pen = CFG[L.K_MULH_CYC] - 1
                pcat = L.C_MULDIV
            elif op == O.OP_MULHSU:
                res = ((X.sx32(a) * bv) >> 32) & M32
                pen = CFG[L.K_MULH_CYC] - 1
                pcat = L.C_MULDIV
            elif op == O.OP_MULHU:
                res = X.mulhu(a, bv)
                pen = CFG[L.K_MULH_CYC] - 1
                pcat = L.C_MULDIV
            elif op >= O.OP_DIV and op <= O.OP_REMU:
                signed = op == O.OP_DIV or op == O.OP_REM
                if bv == 0:
                    res = M32 if op <= O.OP_DIVU else a
                elif signed:
                    x = X.sx32(a)
                    y = X.sx32(bv)
                    if x == -0x80000000 and y == -1:
                        res = a if op == O.OP_DIV else 0
                    else:
                        q = abs(x) // abs(y)
                        if (x < 0) != (y < 0):
                            q = -q
                        res = (q if op == O.OP_DIV else x - q * y) & M32
                else:
                    res = a // bv if op == O.OP_DIVU else a % bv
                pen = X.div_cycles(bv, signed) - 1
                pcat = L.C_MULDIV
            # ---------------- F ----------------
            elif cls >= L.TC_FPU and cls <= L.TC_FSQRT:
                if not fs_on:
                    cause = L.CAUSE_ILLEGAL
                    tval = code[k + L.F_WORD] & M32
                    npc = trap_entry(CS, cb, pc, cause, tval)
                    if npc < 0:
                        ev = L.EV_FAULT
                        break
                    pc = npc
                    t = s + 1
                    continue
                rm = code[k + L.F_RM]
                if rm == 7:
                    rm = frm
                fl = 0
                if (rm > 4 and op != O.OP_FSGNJ_S and op != O.OP_FSGNJN_S
                        and op != O.OP_FSGNJX_S and op != O.OP_FMIN_S and op != O.OP_FMAX_S
                        and op != O.OP_FMV_X_W and op != O.OP_FMV_W_X and op != O.OP_FEQ_S
                        and op != O.OP_FLT_S and op != O.OP_FLE_S and op != O.OP_FCLASS_S):
                    cause = L.CAUSE_ILLEGAL
                    tval = code[k + L.F_WORD] & M32
                    npc = trap_entry(CS, cb, pc, cause, tval)
                    if npc < 0:
                        ev = L.EV_FAULT
                        break
                    pc = npc
                    t = s + 1
                    continue
                if op == O.OP_FMADD_S:
                    res, fl = sf.f32_fma(a, bv, cv, rm, 0, 0)
                elif op == O.OP_FADD_S:
                    res, fl = sf.f32_add(a, bv, rm)
                elif op == O.OP_FMUL_S:
                    res, fl = sf.f32_mul(a, bv, rm)
                elif op == O.OP_FSUB_S:
                    res, fl = sf.f32_sub(a, bv, rm)
                elif op == O.OP_FMSUB_S:
                    res, fl = sf.f32_fma(a, bv, cv, rm, 0, 1)
                elif op == O.OP_FNMSUB_S:
                    res, fl = sf.f32_fma(a, bv, cv, rm, 1, 0)
                elif op == O.OP_FNMADD_S:
                    res, fl = sf.f32_fma(a, bv, cv, rm, 1, 1)
                elif op == O.OP_FDIV_S:
                    res, fl = sf.f32_div(a, bv, rm)
                    fpubusy = s + rl
                elif op == O.OP_FSQRT_S:
                    res, fl = sf.f32_sqrt(a, rm)
                    fpubusy = s + rl
                elif op == O.OP_FSGNJ_S:
                    res = (a & 0x7FFFFFFF) | (bv & 0x80000000)
                elif op == O.OP_FSGNJN_S:
                    res = (a & 0x7FFFFFFF) | (~bv & 0x80000000)
                elif op == O.OP_FSGNJX_S:
                    res = a ^ (bv & 0x80000000)
                elif op == O.OP_FMIN_S:
                    res, fl = sf.f32_min(a, bv)
                elif op == O.OP_FMAX_S:
                    res, fl = sf.f32_max(a, bv)
                elif op == O.OP_FCVT_W_S:
                    res, fl = sf.f32_to_i32(a, rm)
                elif op == O.OP_FCVT_WU_S:
                    res, fl = sf.f32_to_u32(a, rm)
                elif op == O.OP_FMV_X_W or op == O.OP_FMV_W_X:
                    res = a
                elif op == O.OP_FEQ_S:
                    res, fl = sf.f32_eq(a, bv)
                elif op == O.OP_FLT_S:
                    res, fl = sf.f32_lt(a, bv)
                elif op == O.OP_FLE_S:
                    res, fl = sf.f32_le(a, bv)
                elif op == O.OP_FCLASS_S:
                    res = sf.f32_classify(a)
                elif op == O.OP_FCVT_S_W:
                    res, fl = sf.i32_to_f32(a, rm)
                elif op == O.OP_FCVT_S_WU:
                    res, fl = sf.u32_to_f32(a, rm)
                fflags |= fl
            # ---------------- Xpulp ALU ----------------
            elif op == O.OP_MAC:
                res = (cv + X.sx32(a) * X.sx32(bv)) & M32
            elif op == O.OP_MSU:
                res = (cv - X.sx32(a) * X.sx32(bv)) & M32
            elif op >= O.OP_MULSN and op <= O.OP_MACHHURN:
                i16 = op - O.OP_MULSN
                is3 = code[k + L.F_IMM2]
                high = (i16 & 1) == 1
                unsigned = (i16 >> 1) & 1 == 1
                rnd = (i16 >> 2) & 1 == 1
                acc = cv if i16 >= 8 else 0
                res = X.mul_norm(X.mul16(a, bv, high, unsigned), acc, is3, rnd, unsigned)
            elif op == O.OP_ABS:
                res = (-X.sx32(a)) & M32 if a & 0x80000000 else a
            elif op == O.OP_SLET:
                res = 1 if X.sx32(a) <= X.sx32(bv) else 0
            elif op == O.OP_SLETU:
                res = 1 if a <= bv else 0
            elif op == O.OP_MIN:
                res = a if X.sx32(a) < X.sx32(bv) else bv
            elif op == O.OP_MINU:
                res = a if a < bv else bv
            elif op == O.OP_MAX:
                res = a if X.sx32(a) > X.sx32(bv) else bv
            elif op == O.OP_MAXU:
                res = a if a > bv else bv
            elif op == O.OP_ROR:
                res = X.ror(a, bv)
            elif op == O.OP_FF1:
                res = X.ff1(a)
            elif op == O.OP_FL1:
                res = X.fl1(a)
            elif op == O.OP_CLB:
                res = X.clb(a)
            elif op == O.OP_CNT:
                res = X.popcount(a)
            elif op == O.OP_EXTHS:
                res = X.sx16(a) & M32
            elif op == O.OP_EXTHZ:
                res = a & 0xFFFF
            elif op == O.OP_EXTBS:
                res = (((a & 0xFF) ^ 0x80) - 0x80) & M32
            elif op == O.OP_EXTBZ:
                res = a & 0xFF
            elif op == O.OP_CLIP or op == O.OP_CLIPU:
                res = X.clip_imm(a, imm, op == O.OP_CLIPU)
            elif op == O.OP_CLIPR or op == O.OP_CLIPUR:
                res = X.clip_reg(a, bv, op == O.OP_CLIPUR)
            elif op == O.OP_CV_CLIPR or op == O.OP_CV_CLIPUR:
                res = X.clip_reg(a, bv & 0x7FFFFFFF, op == O.OP_CV_CLIPUR)
            elif op >= O.OP_EXTRACT and op <= O.OP_BITREV:
                if op >= O.OP_EXTRACTR and op <= O.OP_BSETR:
                    lm1 = (bv >> 5) & 31
                    pos = bv & 31
                else:
                    lm1 = code[k + L.F_IMM2]
                    pos = imm
                if op == O.OP_EXTRACT or op == O.OP_EXTRACTR:
                    res = X.extract(a, lm1, pos, True)
                elif op == O.OP_EXTRACTU or op == O.OP_EXTRACTUR:
                    res = X.extract(a, lm1, pos, False)
                elif op == O.OP_INSERT or op == O.OP_INSERTR:
                    res = X.insert(cv, a, lm1, pos)
                elif op == O.OP_BCLR or op == O.OP_BCLRR:
                    res = a & ~X.field_mask(lm1, pos) & M32
                elif op == O.OP_BSET or op == O.OP_BSETR:
                    res = a | X.field_mask(lm1, pos)
                else:
                    res = X.bitrev(a, lm1 & 3, pos)
            elif op >= O.OP_ADDN and op <= O.OP_SUBURNR:
                j = op - O.OP_ADDN
                regform = j >= 8
                sub = (j & 7) >= 4
                unsigned = j & 1 == 1
                rnd = (j >> 1) & 1 == 1
                if regform:
                    x, y, sh = cv, a, bv & 31
                else:
                    x, y, sh = a, bv, code[k + L.F_IMM2]
                total = (x - y) if sub else (x + y)
                res = X.norm_shift(total, sh, rnd, unsigned)
            # ---------------- hardware loops ----------------
            elif cls == L.TC_HWLOOP:
                lp = code[k + L.F_RD]
                if op == O.OP_LP_SETUP or op == O.OP_LP_SETUPI or op == O.OP_CV_SETUP \
                        or op == O.OP_CV_SETUPI:
                    start = pc + ln
                    end = pc + imm - (4 if op >= O.OP_CV_SETUP else 0)
                    count = a if op == O.OP_LP_SETUP or op == O.OP_CV_SETUP \
                        else code[k + L.F_IMM2]
                    if lp == 0:
                        lps0, lpe0, lpc0 = start, end, count
                    else:
                        lps1, lpe1, lpc1 = start, end, count
                    if corev and (end - start) < 8:
                        CS[cb + L.CS_WARN] |= L.WARN_HWLOOP_SHORT_BODY
                elif op == O.OP_LP_STARTI or op == O.OP_LP_START:
                    v = pc + imm if op == O.OP_LP_STARTI else a & 0xFFFFFFFC
                    if lp == 0:
                        lps0 = v
                    else:
                        lps1 = v
                elif op == O.OP_LP_ENDI or op == O.OP_CV_ENDI or op == O.OP_CV_END:
                    if op == O.OP_LP_ENDI:
                        v = pc + imm
                    elif op == O.OP_CV_ENDI:
                        v = pc + imm - 4
                    else:
                        v = (a & 0xFFFFFFFC) - 4
                    if lp == 0:
                        lpe0 = v
                    else:
                        lpe1 = v
                else:
                    v = a if op == O.OP_LP_COUNT else code[k + L.F_IMM2]
                    if lp == 0:
                        lpc0 = v
                    else:
                        lpc1 = v
            # ---------------- system ----------------
            elif op >= O.OP_CSRRW and op <= O.OP_CSRRCI:
                pend = CS[cb + L.CS_CSR_PEND]
                if pend == L.CSR_NONE:
                    ev = L.EV_CSR
                    break
                CS[cb + L.CS_CSR_PEND] = L.CSR_NONE
                if pend == L.CSR_ILLEGAL:
                    cause = L.CAUSE_ILLEGAL
                    tval = code[k + L.F_WORD] & M32
                    npc = trap_entry(CS, cb, pc, cause, tval)
                    if npc < 0:
                        ev = L.EV_FAULT
                        break
                    pc = npc
                    t = s + 1
                    continue
                res = CS[cb + L.CS_CSR_VAL]
                # the handler may have changed loop registers, rounding mode or mstatus
                lps0 = CS[cb + L.CS_LPS0]
                lpe0 = CS[cb + L.CS_LPE0]
                lpc0 = CS[cb + L.CS_LPC0]
                lps1 = CS[cb + L.CS_LPS1]
                lpe1 = CS[cb + L.CS_LPE1]
                lpc1 = CS[cb + L.CS_LPC1]
                fflags = CS[cb + L.CS_FFLAGS]
                frm = CS[cb + L.CS_FRM]
                fs_on = (CS[cb + L.CS_MSTATUS] >> 13) & 3 != 0
            elif op == O.OP_FENCE or op == O.OP_FENCE_I:
                res = 0
            elif op == O.OP_MRET:
                npc = CS[cb + L.CS_MEPC] & 0xFFFFFFFE
                ms = CS[cb + L.CS_MSTATUS]
                mpie = (ms >> 7) & 1
                CS[cb + L.CS_MSTATUS] = (ms & ~((1 << 3) | (3 << 11))) | (mpie << 3) | (1 << 7)
                pen = CFG[L.K_JUMP_PEN]
                pcat = L.C_JUMP
            elif op == O.OP_ECALL:
                npc2 = trap_entry(CS, cb, pc, L.CAUSE_ECALL_M, 0)
                if npc2 >= 0:
                    npc = npc2
                else:
                    ev = L.EV_ECALL
            elif op == O.OP_EBREAK:
                word = code[k + L.F_WORD] & M32
                if (word == SEMIHOST_EBREAK
                        and read_word(regions, mem8, mem16, mem32, pc - 4) == SEMIHOST_PRE
                        and read_word(regions, mem8, mem16, mem32, pc + 4) == SEMIHOST_POST):
                    ev = L.EV_EBREAK
                    tval = 1
                else:
                    npc2 = trap_entry(CS, cb, pc, L.CAUSE_BREAKPOINT, pc)
                    if npc2 >= 0:
                        npc = npc2
                    else:
                        ev = L.EV_EBREAK
                        tval = 0
                        break
            elif op == O.OP_WFI:
                CS[cb + L.CS_STATUS] = L.ST_SLEEPING
                CS[cb + L.CS_SLEEP] = L.SLEEP_WFI
                CS[cb + L.CS_SLEEP_SINCE] = s + 1
                CS[cb + L.CS_WAKE_T] = BIG
                CS[cb + L.CS_PARK_SLOT] = slot
                ev = -1
            else:
                # illegal (or an op this build does not know)
                cause = L.CAUSE_ILLEGAL
                tval = code[k + L.F_WORD] & M32
                npc = trap_entry(CS, cb, pc, cause, tval)
                if npc < 0:
                    ev = L.EV_FAULT
                    break
                pc = npc
                t = s + 1
                continue

            # ---- retire: write back, hardware loops, time ----
            R[rb + wd] = res
            RDY[rb + wd] = s + rl
            RSN[rb + wd] = rwhy
            if pc == lpe0 and lpc0 != 0:
                lpc0 -= 1
                if lpc0 != 0:
                    npc = lps0
                elif pc == lpe1 and lpc1 != 0:
                    lpc1 -= 1
                    if lpc1 != 0:
                        npc = lps1
            elif pc == lpe1 and lpc1 != 0:
                lpc1 -= 1
                if lpc1 != 0:
                    npc = lps1
            PCS[(c * cap + slot) * L.NPS] += 1
            CL[L.L_HIST + c * 8 + (instret & 7)] = ipc
            if pen != 0:
                charge(CAT, PCS, c, cap, slot, pcat, pen)
            instret += 1
            prev_wd = wd
            t = s + 1 + pen
            pc = npc
            if ev != 0:
                break

        # ---------------- save the core's state ----------------
        CS[cb + L.CS_PC] = pc
        CS[cb + L.CS_T] = t
        CS[cb + L.CS_LPS0] = lps0
        CS[cb + L.CS_LPE0] = lpe0
        CS[cb + L.CS_LPC0] = lpc0
        CS[cb + L.CS_LPS1] = lps1
        CS[cb + L.CS_LPE1] = lpe1
        CS[cb + L.CS_LPC1] = lpc1
        CS[cb + L.CS_INSTRET] = instret
        CS[cb + L.CS_LASTWD] = prev_wd
        CS[cb + L.CS_FPUBUSY] = fpubusy
        CS[cb + L.CS_FFLAGS] = fflags
        CS[cb + L.CS_GRANTED] = granted
        if ev > 0:
            CL[L.L_EVENT] = ev
            CL[L.L_EV_CORE] = c
            CL[L.L_EV_PC] = ipc
            CL[L.L_EV_CAUSE] = cause
            CL[L.L_EV_TVAL] = tval
            return ev
