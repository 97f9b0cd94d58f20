"""Index constants shared by the compiled engine and its Python face.

The engine keeps all state in flat numpy arrays (few arguments, fixed strides: the layout the
design notes measured as fastest under numba).  This module names every position.  Numba reads
module-level integers as compile-time constants, so the names cost nothing in the hot loop.
"""

from __future__ import annotations

import numpy as np

# Index arrays with U(i) in compiled code: numba then skips its negative-index wrap-around fix-up
# (a shift, a mask and a shape load per access), which costs measurably in the hot loop.
U = np.uint64

# ---- predecoded instruction record: int32[nslots * NF] ------------------------------------------
F_OP = 0      # engine operation id (isasim.opcodes)
F_WD = 1      # register-file index written with the result (R_SINK when none / x0)
F_WD2 = 2     # second destination: the post-incremented base register (R_SINK when none)
F_S1 = 3      # register-file index of source 1 (R_ZERO when none)
F_S2 = 4
F_S3 = 5
F_IMM = 6
F_IMM2 = 7
F_RM = 8      # static rounding mode (7 = dynamic)
F_LEN = 9     # 2 or 4 bytes
F_CLS = 10    # timing class (TC_*)
F_MEM = 11    # memory access description (MEM_* bit fields), 0 for non-memory instructions
F_RD = 12     # raw rd field (hardware-loop index, CSR rd, ...)
F_WORD = 13   # the instruction word (mtval for illegal instructions)
F_NEXT = 14   # slot of the instruction at pc + length (-1: not decoded, other region)
F_TGT = 15    # slot of a branch's or jal's target pc + imm (-1: none, not decoded, other region)
F_SYM = 16    # id of the symbol (function) the instruction belongs to, for traces
F_TX = 17     # id of the translated run starting here (-1: none; isasim.translate)
NF = 18

# F_MEM bit fields: kind (1 load, 2 store) | log2(size) << 2 | signed << 4 | address mode << 5
#                   | post-increment source << 7
MEM_LOAD = 1
MEM_STORE = 2
MEM_KIND_MASK = 3
MEM_SIZE_SHIFT = 2
MEM_SIGNED = 1 << 4
MEM_AMODE_SHIFT = 5      # 0: rs1 + imm, 1: rs1 (post-increment), 2: rs1 + register (S2 / S3)
MEM_INC_SHIFT = 7        # 0: none, 1: + imm, 2: + register
MEM_NANBOX = 1 << 9      # flh: the loaded halfword is NaN-boxed (bits 31..16 set)
MEM_EXTEND = MEM_SIGNED | MEM_NANBOX     # what a load does above the loaded bytes
AMODE_IMM, AMODE_BASE, AMODE_REG = 0, 1, 2
# the two shapes of the engine's short path: a word at rs1 + imm, no increment (MEM_SIGNED aside)
MEM_WORD_LOAD = MEM_LOAD | (2 << MEM_SIZE_SHIFT)
MEM_WORD_STORE = MEM_STORE | (2 << MEM_SIZE_SHIFT)
INC_NONE, INC_IMM, INC_REG = 0, 1, 2

# ---- timing classes (same names as the table's `timing`) -----------------------------------------
# fdiv16: binary16 / bfloat16 scalar division and square root (their own latency in GVSoC)
TIMING_CLASSES = ("alu", "mul", "mulh", "div", "load", "store", "branch", "jump", "jalr", "csr",
                  "fence", "system", "fpu", "fpu_other", "fdiv", "fsqrt", "fdiv16", "hwloop",
                  "elw")
(TC_ALU, TC_MUL, TC_MULH, TC_DIV, TC_LOAD, TC_STORE, TC_BRANCH, TC_JUMP, TC_JALR, TC_CSR,
 TC_FENCE, TC_SYSTEM, TC_FPU, TC_FPU_OTHER, TC_FDIV, TC_FSQRT, TC_FDIV16, TC_HWLOOP,
 TC_ELW) = range(19)

# ---- register file: int64[ncores * RS] -----------------------------------------------------------
# x0..x31 at 0..31, f0..f31 (binary32 bit patterns) at 32..63, a write sink and a constant zero.
RS = 72
R_F = 32
R_SINK = 64
R_ZERO = 65
# scoreboard entries (RDY): the cycle a register's value is ready, shifted, or'ed with the
# category a wait for it is charged to
RDY_SHIFT = 4
RDY_MASK = (1 << RDY_SHIFT) - 1

# ---- cycle categories: every cycle of every core is charged to exactly one --------------------
CATEGORIES = ("instr", "load_use", "tcdm_conflict", "ext_mem", "branch", "jump", "fpu_dep",
              "fpu_struct", "muldiv", "misaligned", "barrier", "dma_wait", "idle", "imiss")
(C_INSTR, C_LOAD_USE, C_TCDM, C_EXT, C_BRANCH, C_JUMP, C_FPU_DEP, C_FPU_STRUCT, C_MULDIV,
 C_MISALIGNED, C_BARRIER, C_DMA_WAIT, C_IDLE, C_IMISS) = range(14)
NCAT = 14
# per-core, per-instruction profile: [issued count, stall cycles per category..., misses]
NPS = 16
PS_COUNT = 0
PS_STALL = 1      # + category
PS_IMISS = 15     # instruction-cache (L0) misses of the instruction's fetch

# ---- per-core scalar state: int64[ncores * NCS] --------------------------------------------------
# CS_NEXT_T: the cycle of a parked core's access or a sleeping core's wake-up; BIG while the core
# runs, has stopped, or sleeps with nothing to wake it (the scheduler scans only this field)
(CS_PC, CS_T, CS_STATUS, CS_LPS0, CS_LPE0, CS_LPC0, CS_LPS1, CS_LPE1, CS_LPC1, CS_INSTRET,
 CS_LASTWD, CS_FPUBUSY, CS_FFLAGS, CS_FRM, CS_MSTATUS, CS_MTVEC, CS_MEPC, CS_MCAUSE, CS_MTVAL,
 CS_MSCRATCH, CS_MIE, CS_EXIT, CS_NEXT_T, CS_PARK_FIRST, CS_SECOND_HALF, CS_PARK_RES, CS_GRANTED,
 CS_HART, CS_SLEEP, CS_SLEEP_SINCE, CS_PCER, CS_PCMR, CS_WARN, CS_PARK_SLOT,
 CS_CSR_PEND, CS_CSR_VAL, CS_TR_STATE, CS_TR_START, CS_TR_SLOT, CS_TR_SYM, CS_MISC,
 CS_RUNS) = range(42)
CS_PERF_BASE = 48   # 32 PCCR baselines (performance counters readable by the guest)
CS_LD_EXT, CS_ST_EXT, CS_LD_EXT_CYC, CS_ST_EXT_CYC, CS_TAKEN = 80, 81, 82, 83, 84
CS_TR_LEN, CS_RBASE, CS_RSIZE, CS_ROFF, CS_SLEEP_WD, CS_JMP_STALL = 85, 86, 87, 88, 89, 90
CS_LOST = 91        # bank arbitrations lost at the current park, not yet charged (charge_lost)
CS_FPU_WD = 95      # the register the outstanding FP operation writes (until CS_FPUBUSY)
CS_IMISS = 96       # instruction-cache (L0) misses
CS_ILINE = 97       # the 16-byte line the last fetch checked resident in L0 (-1: none)
# extra cycles of this core's loads / stores to L2 (the cluster's cores reach it through the
# cluster's AXI port, the fabric controller directly: isasim.soc)
CS_EXT_LAT, CS_EXT_ST_LAT = 100, 101
CS_TX_PARKED = 102  # 1: parked by translated code at its current park (engine.park clears it)
NCS = 112
MAX_CORES = 9       # 8 cluster cores and a SoC's fabric controller (config.Config checks it)
# pending CSR access handled in Python (CS_CSR_PEND)
CSR_NONE, CSR_DONE, CSR_ILLEGAL = 0, 1, 2

# core status
ST_RUNNING, ST_PARKED, ST_SLEEPING, ST_HALTED = 0, 1, 2, 3
# what a sleeping core waits for
SLEEP_WFI, SLEEP_BARRIER, SLEEP_DMA, SLEEP_EVENT = 1, 2, 3, 4
SLEEP_OFF = 5       # a SoC's cluster core before the cluster control unit fetch-enables it
# shared resources a parked core may wait for: TCDM banks 0..31, then these
RES_FPU = 32          # + shared FPU index
RES_FDIV = 40         # the cluster's shared divider / square-root unit
RES_ICACHE = 48       # + shared instruction-cache (L1) bank: its one refill request a cycle
RES_L2 = 52           # + 0: the cluster's L2 read requests, + 1: its write requests (l2_contention)

# warnings raised inside the loop (bits of CS_WARN), reported once per run
WARN_POSTINC_RD_EQ_RS1 = 1
WARN_HWLOOP_SHORT_BODY = 2

# PULP PCER event numbers (RI5CY, gvsoc pcer_v2.h) — also the PCCR index
(PE_CYCLES, PE_INSTR, PE_LD_STALL, PE_JMP_STALL, PE_IMISS, PE_LD, PE_ST, PE_JUMP, PE_BRANCH,
 PE_TAKEN_BRANCH, PE_RVC, PE_ELW, PE_LD_EXT, PE_ST_EXT, PE_LD_EXT_CYC, PE_ST_EXT_CYC,
 PE_TCDM_CONT, PE_APU_TY_CONF, PE_APU_CONT, PE_APU_DEP, PE_APU_WB) = range(21)
PCER_NAMES = ("CYCLES", "INSTR", "LD_STALL", "JMP_STALL", "IMISS", "LD", "ST", "JUMP", "BRANCH",
              "TAKEN_BRANCH", "RVC", "ELW", "LD_EXT", "ST_EXT", "LD_EXT_CYC", "ST_EXT_CYC",
              "TCDM_CONT", "APU_TY_CONF", "APU_CONT", "APU_DEP", "APU_WB")

# ---- memory regions: int64[nregions * RGW] ------------------------------------------------------
RG_BASE, RG_SIZE, RG_OFF, RG_KIND = 0, 1, 2, 3
RGW = 4
RK_TCDM, RK_L2, RK_PERIPH = 0, 1, 2

# ---- engine configuration numbers: int64[NCFG] ---------------------------------------------
(K_NCORES, K_BRANCH_PEN, K_JUMP_PEN, K_JALR_DEP, K_LOAD_LAT, K_MUL_LAT, K_MULH_CYC, K_FPU_LAT,
 K_FPU_OTHER_LAT, K_FDIV_LAT, K_MISALIGN_PEN, K_MISALIGN_FAULT, K_EXT_LAT, K_EXT_ST_LAT,
 K_NBANKS, K_POLICY, K_TOHOST, K_FAMILY, K_SIMDEV, K_EU_BASE, K_EU_DEMUX, K_BAR_REQ_LAT,
 K_BAR_WAKE_LAT, K_DMA_BASE, K_DMA_DEMUX, K_DMA_BW, K_DMA_SETUP, K_FPU_SHARED, K_CLUSTER_ID,
 K_TRACE, K_TCDM_BASE, K_TCDM_SIZE, K_DMA_BURST, K_FDIV16_LAT) = range(34)
# set by a debugger or an exact tohost exit (isasim.runcontrol): the cycle limit pauses the run
# (every core held just past it, resumable) instead of ending it with a time-out
K_PAUSE = 34
# (numbered from the top of the array down)
K_FPU_ONE_OUT = 39    # 1: one FP operation outstanding at a time (CV32E40P), 0: pipelined
K_UNALIGNED_TGT = 38  # extra cycles of a jump / taken branch to a non-word-aligned 32-bit target
K_FENCE_I_PEN = 37    # extra cycles of fence.i
K_CSR_SLOW = 36       # cycles of an access to the CV32E40P's slow CSRs
K_MIS_CROSSING = 35   # 1: only an access crossing a word costs misaligned_penalty
K_ICACHE = 40         # instruction cache: ICACHE_IDEAL, ICACHE_RTL or ICACHE_GVSOC
K_IC_REFILL = 41      # refill latency of each cache level (L0 from L1, L1 from L2)
K_L2_AXI = 42         # 1: the cores' L2 reads, and their writes, take one request a cycle
# the pulp-open SoC around the cluster (isasim.soc): 1 when the last core is the fabric
# controller, and the number of cluster cores (the cores before it)
K_SOC = 48
K_NCLUSTER = 49
K_SOC_PERIPH_LAT = 50   # extra cycles of an access to the SoC's peripherals (0x1A000000..)
NCFG = 64
POLICY_ROUND_ROBIN, POLICY_FIFO, POLICY_NONE = 0, 1, 2
POLICY_RR_ARB_TREE = 3     # common_cells rr_arb_tree (FairArb), as the TCDM interconnect's xbar
FAMILY_XPULPV2, FAMILY_COREV, FAMILY_NONE = 0, 1, 2
# instruction cache (isasim.icache): none (every fetch hits), or the hierarchical cache with the
# RTL's replacement (first free way, else the LFSR's) or GVSoC's (the LFSR's, stepped first)
ICACHE_IDEAL, ICACHE_RTL, ICACHE_GVSOC = 0, 1, 2

# ---- cluster / event state: int64[NCL] ---------------------------------------------------
(L_EVENT, L_EV_CORE, L_EV_PC, L_EV_CAUSE, L_EV_TVAL, L_NOUT, L_NOW, L_END, L_TRN,
 L_FDIV_BUSY, L_DEVERR, L_RELEASED, L_TEXT_DIRTY, L_ROUND_HORIZON, L_ROUND_STAMP) = range(15)
L_BANK_RR = 16          # 64 round-robin pointers, one per resource (banks 0..31, units 32..)
L_BANK_WIN = 80         # 64 slots: the winner of each resource in a round (see L_ROUND_STAMP)
L_CONF = 144            # 8 x 32 conflict counts (victim core, bank)
L_CONF_WIN = 400        # 8 x 10 conflict counts (victim core, winner: core 0..7, DMA 8, 9)
L_CLUSTER = 512         # event unit, DMA, shared FPU state (isasim.cluster)
L_LATWHY = 3648         # per timing class: result latency << RDY_SHIFT | stall category
# for translated code: the host addresses of R, RDY, CS, CAT, PCS, CFG, the TCDM's first word
# and the pcmap entry of its first halfword (see isasim.translate.ARRAYS)
L_TX_ARRAYS = 3680
# per core, a ring of the last 16 runs of sequential execution, each (start pc, instret of its
# first instruction): a record at every control transfer (CS_RUNS counts them) lets a fault
# report rebuild the core's last instructions without a store per instruction
L_RUNS = 3712
RUN_RING = 16
# a range [lo, hi) of addresses whose stores leave the loop (EV_WATCH; GDB watchpoints); hi = 0: off
L_WATCH = 3968
# (numbered from the top of the array down) per resource, the requesters (bit mask) of the
# current round: rr_arb_tree's pointer update looks at all of them
L_BANK_ASKED = 4032
# instruction cache (isasim.icache): the mode (copy of K_ICACHE, for translated-code guards), per
# core its private L0 (tags of sets x ways, then the LFSR), per shared-L1 bank its tags, the
# cycle each line's refill completes, the LFSR and the cycle its refill port frees
L_IC_MODE = 4096
L_IC_L0 = 4104
IC_L0_STRIDE = 40
L_IC_L1 = L_IC_L0 + 16 * IC_L0_STRIDE     # 4744
IC_L1_STRIDE = 264
# the pulp-open SoC's state (isasim.soc): the fabric controller's ring of runs (it is core 8,
# past L_RUNS' eight rings), then the SoC peripherals' registers
L_SOC = 6144
L_FC_RUNS = L_SOC
# per TCDM bank: the cores waiting there that sit out the rounds they cannot win (a bit mask,
# engine.schedule; empty whenever engine.run returns)
L_BANK_WAIT = 7936
NCL = 8192


def runs_base(core: int) -> int:
    """The CL index of ``core``'s ring of runs (see ``L_RUNS``): cluster cores 0..7 in
    ``L_RUNS``, the fabric controller (core 8 of a SoC) in ``L_FC_RUNS``."""
    return L_RUNS + core * RUN_RING * 2 if core < 8 else L_FC_RUNS


# the requester ids of the DMA's two TCDM ports in bank arbitration
DMA_PORT0 = 8
NREQ = 10

# trace records: int64[cap * TRW] = (kind, core, start, length or arg, state or arg, slot or arg)
TRW = 6
TR_RUN, TR_BAR_ARRIVE, TR_BAR_RELEASE, TR_DMA_START, TR_DMA_END, TR_CONFLICT = range(6)

# events that make the compiled loop return to Python
(EV_NONE, EV_DONE, EV_MAX_CYCLES, EV_DECODE, EV_FAULT, EV_ECALL, EV_EBREAK, EV_TOHOST,
 EV_TRACE_FULL, EV_DEADLOCK, EV_OUT_FULL, EV_CSR, EV_WATCH, EV_PAUSE) = range(14)
# the exit system call's number (a7) of an ``ecall`` the host serves: the loop halts the core
# itself (no return to Python), the other calls are ``isasim.hostcalls``'
SYS_EXIT = 93

# trap causes (mcause) and the fault kinds reported when no handler is installed
CAUSE_FETCH_MISALIGNED = 0
CAUSE_FETCH_ACCESS = 1
CAUSE_ILLEGAL = 2
CAUSE_BREAKPOINT = 3
CAUSE_LOAD_MISALIGNED = 4
CAUSE_LOAD_ACCESS = 5
CAUSE_STORE_MISALIGNED = 6
CAUSE_STORE_ACCESS = 7
CAUSE_ECALL_M = 11
# simulator-level stops, not RISC-V causes
CAUSE_DEADLOCK = 100
CAUSE_DEVICE = 101       # bad use of a device register (details in L_DEVERR)
CAUSE_ALL_ASLEEP = 102   # every core sleeps in wfi and none has exited
