"""Memory-mapped devices of the PULP cluster, reached from the compiled loop.

All device state lives in the cluster array ``CL`` (offsets below) so the loop can pass it
around cheaply.  ``device_access`` is called for every load or store that lands in a device
window and returns ``(value, status)``:

* ``DEV_OK``      done; ``value`` is what a load returns;
* ``DEV_SLEEP``   done, and the core now sleeps until an event (barrier, DMA, software event);
                  the loop retires the instruction and the wake-up writes the loaded value;
* ``DEV_HALT``    the simulator device's exit register was written: this core stops;
* ``DEV_FAULT``   a refused access; ``CL[L_DEVERR]`` holds a DEVERR_* code for the report;
* ``DEV_OUT_FULL`` the output buffer must be handed to Python;
* ``DEV_SYNC``    done, and the access changed what another agent does next (a DMA transfer was
                  queued, an event was sent to a core): the loop must stop running this core
                  ahead of the others (it re-checks its horizon), or the DMA's beats and the
                  woken cores would be interleaved out of cycle order with this core's later
                  accesses (a lone core polling the DMA status would never see it finish);
* ``DEV_RETRY``   not done: the DMA's command queue is full; the core tries the same access
                  again in the next cycle (mchan holds the request until a transfer completes).
* ``DEV_EXIT``    done, and the whole run ends (a SoC's end of computation: ``isasim.soc``).

Devices (PULP addresses from gvsoc-pulp ``pulp_open/soc.json``, ``archi/eu_v3.h`` and
``mchan_v7_impl.cpp``; per-core demux windows):

* event unit, per-core view at ``eu_demux`` (0x10204000): 0x00 EVT_MASK (r/w), 0x04 MASK_AND,
  0x08 MASK_OR, 0x1C BUFFER (r), 0x20 BUFFER_MASKED (r), 0x28 BUFFER_CLEAR (w),
  0x38 EVENT_WAIT (r: sleep until a masked event), 0x3C EVENT_WAIT_CLEAR (r: same, then clear);
  hardware barrier ``id`` at 0x200 + 0x20*id: 0x00 TRIGGER_MASK, 0x04 STATUS, 0x0C TARGET_MASK,
  0x10 TRIGGER (w), 0x14 TRIGGER_SELF (r), 0x18 TRIGGER_WAIT (r), 0x1C TRIGGER_WAIT_CLEAR (r);
  software event ``n`` at 0x100 + 4*n (w: value = core mask to notify).  A wait costs
  ``barrier_req_latency`` + ``barrier_wakeup_latency`` cycles after the event (GVSoC: 6 + 2).
* cluster DMA (mchan v7 style), per-core view at ``dma_demux`` (0x10204400): 0x0 CMD — a read
  allocates a transfer id; writes push, in order, the command word (length bits 16..0, bit 17
  L2->TCDM, bit 18 incremental, bit 19 2-D, bit 20 event on completion), the TCDM address, the
  external address, and for 2-D the line length and the external stride; 0x4 STATUS — a read
  gives the mask of busy ids, a write frees ids.  Transfers run one at a time at ``dma_bandwidth``
  bytes per cycle after ``dma_setup_cycles``, and every TCDM beat is arbitrated with the cores.
  Queues as in mchan v7 (gvsoc-pulp mchan_v7_impl.cpp): a complete command enters its core's queue
  (depth 2), from which it moves to the global queue (depth 8, ahead of the transfer in progress) as
  soon as there is room, the cores' queues taking turns (round robin) when several wait.  A write to
  CMD while the core's queue is full, and a CMD read (or a command without one) while all 16
  transfer ids are busy, is not done: the core retries it each cycle, charged to ``dma_wait``, as
  mchan stalls the core until there is room.
  Each command word is checked when it is written (length and 2-D line length non-zero and
  multiples of 4, TCDM address word aligned and the TCDM side inside the TCDM, the external
  side inside L2 / RAM), so a bad transfer ends the run at the store that asked for it.
* simulator device at ``simdev_base``: +0x0 putchar (store a byte), +0x4 exit (store: this core
  stops with that code).
"""

from __future__ import annotations

from isasim import layout as L
from isasim.jitcache import compiled
from isasim.layout import U
from isasim.memory import translate

DEV_OK, DEV_FAULT, DEV_OUT_FULL, DEV_HALT, DEV_SLEEP, DEV_SYNC, DEV_RETRY, DEV_EXIT = range(8)
SIMDEV_PUTCHAR = 0x0
SIMDEV_EXIT = 0x4
SIMDEV_SIZE = 0x10

EVT_DMA = 8
EVT_BARRIER = 16
N_BARRIERS = 9
DMA_CORE_DEPTH = 2        # commands a core's queue holds before its next CMD write stalls
DMA_GLOBAL_DEPTH = 8      # commands waiting in the global queue behind the one in progress
DMA_RING = 1 + DMA_GLOBAL_DEPTH
DMA_IDS = 16

# CL offsets (inside L_CLUSTER .. L_LATWHY)
# per core (16 slots: the 8 cluster cores, and a SoC's fabric controller as core 8, whose
# interrupt controller isasim.soc keeps here: its wfi waits like a cluster core's event wait)
EU_MASK = L.L_CLUSTER
EU_BUF = EU_MASK + 16
EU_WAIT = EU_BUF + 16            # 0 not waiting, 1 wait, 2 wait-and-clear
BAR = EU_WAIT + 16               # 9 barriers x (trigger mask, target mask, status)
DMA_BUSY = BAR + 3 * N_BARRIERS  # mask of allocated transfer ids
DMA_NEXT_ID = DMA_BUSY + 1
DMA_NEXT_T = DMA_BUSY + 2        # cycle of the next beat (BIG when idle)
DMA_HEAD = DMA_BUSY + 3          # queue ring
DMA_COUNT = DMA_BUSY + 4
DMA_BYTES = DMA_BUSY + 5         # bytes moved in all (trace counter)
DMA_SCHED = DMA_BUSY + 6         # the core whose queue moves next when several wait
DMA_STAGE = DMA_BUSY + 8         # 8 cores x 8: words received, cmd, loc, ext, line, stride,
                                 # id allocated by a CMD read (-1: none)
DMA_Q = DMA_STAGE + 64           # ring of DMA_RING x QW: id, cmd, loc, ext, line, stride, done,
QW = 8                           # core; the head is the transfer in progress
DMA_CQN = DMA_Q + DMA_RING * QW  # 8 cores: commands in the core's queue
DMA_CQ = DMA_CQN + 8             # 8 cores x DMA_CORE_DEPTH x QW: the core queues (oldest first)
DMA_END = DMA_CQ + 8 * DMA_CORE_DEPTH * QW

# error codes reported with DEV_FAULT
(DEVERR_NONE, DEVERR_UNMAPPED, DEVERR_READ_ONLY, DEVERR_DMA_RANGE, DEVERR_DMA_ALIGN,
 DEVERR_BARRIER_ID, DEVERR_BARRIER_MASK, DEVERR_DMA_LENGTH, DEVERR_DMA_TCDM_RANGE,
 DEVERR_DMA_NO_ID, DEVERR_NOT_FROM_FC, DEVERR_SOC_UNMAPPED, DEVERR_SOC_SIZE) = range(13)
DEVERR_TEXT = (
    "", "no device register at this address", "write to a read-only device register",
    "DMA external address range (address + (lines - 1) * stride + line) outside L2 / RAM",
    "DMA TCDM address, length or 2-D line length not a multiple of 4 bytes",
    "no such hardware barrier (0..8)",
    "core is not in the barrier's trigger mask", "DMA transfer or 2-D line of length 0",
    "DMA TCDM address range (address + length) outside the TCDM",
    "DMA transfer id wanted while all 16 are busy, and no transfer or other core can free one",
    "the fabric controller has no access to the cluster's event unit and DMA (cluster cores "
    "only)",
    "no register of the SoC model at this address",
    "SoC peripheral registers take 32-bit accesses only",
)
BIG = 1 << 62


@compiled
def fault(CL, code):
    CL[U(L.L_DEVERR)] = code
    return 0, DEV_FAULT


@compiled
def deliver_event(CL, CS, CFG, core, bit, t):
    """Set event ``bit`` in ``core``'s buffer; wake it if it waits for a masked event.

    Events are delivered in global cycle order, so a waiting core issued its wait at or before
    ``t``; it wakes the request and wake-up latencies after ``t`` like every other target, also
    when its wait issued in the very cycle of the event (a core arriving at a barrier in the
    same cycle as the last one wakes with it, whichever of the two the loop handled first).
    """
    CL[U(EU_BUF + core)] |= 1 << bit
    b = core * L.NCS
    if (CL[U(EU_WAIT + core)] != 0 and CS[U(b + L.CS_STATUS)] == L.ST_SLEEPING
            and CS[U(b + L.CS_NEXT_T)] >= BIG and CL[U(EU_BUF + core)] & CL[U(EU_MASK + core)]):
        CS[U(b + L.CS_NEXT_T)] = t + CFG[U(L.K_BAR_REQ_LAT)] + CFG[U(L.K_BAR_WAKE_LAT)]
        CS[U(b + L.CS_SLEEP)] = sleep_kind(1 << bit)


@compiled
def wake_value(CL, core):
    """The value an event wait returns when the core wakes, clearing if it asked to."""
    v = CL[U(EU_BUF + core)] & CL[U(EU_MASK + core)]
    if CL[U(EU_WAIT + core)] == 2:
        CL[U(EU_BUF + core)] &= ~CL[U(EU_MASK + core)]
    CL[U(EU_WAIT + core)] = 0
    return v


@compiled
def sleep_kind(bits):
    """What a core waiting for (or woken by) these event bits is waiting on."""
    if bits & (1 << EVT_BARRIER):
        return L.SLEEP_BARRIER
    if bits & (1 << EVT_DMA):
        return L.SLEEP_DMA
    return L.SLEEP_EVENT


@compiled
def event_wait(CL, CS, CFG, c, clear, t, kind):
    """Start waiting for a masked event; the core sleeps even if one is pending (GVSoC).

    ``kind`` says what the core waits on while nothing is pending (deadlock reports, and the
    category its sleep is charged to).
    """
    CL[U(EU_WAIT + c)] = 2 if clear else 1
    b = c * L.NCS
    CS[U(b + L.CS_SLEEP_SINCE)] = t
    pending = CL[U(EU_BUF + c)] & CL[U(EU_MASK + c)]
    if pending:
        CS[U(b + L.CS_NEXT_T)] = t + CFG[U(L.K_BAR_REQ_LAT)] + CFG[U(L.K_BAR_WAKE_LAT)]
        CS[U(b + L.CS_SLEEP)] = sleep_kind(pending)
    else:
        CS[U(b + L.CS_NEXT_T)] = BIG
        CS[U(b + L.CS_SLEEP)] = kind
    return 0, DEV_SLEEP


@compiled
def barrier_arrive(CL, CS, CFG, c, bid, t, ncores):
    """Core ``c`` arrives at barrier ``bid`` at cycle t; on the last arrival notify targets."""
    base = BAR + 3 * bid
    trig = CL[U(base)]
    if trig & (1 << c) == 0:
        return False
    CL[U(base + 2)] |= 1 << c
    if CL[U(base + 2)] & trig == trig:
        CL[U(base + 2)] = 0
        targets = CL[U(base + 1)]
        for i in range(ncores):
            if targets & (1 << i):
                deliver_event(CL, CS, CFG, i, EVT_BARRIER, t)
    return True


@compiled
def is_barrier_wait(CFG, addr):
    """Is ``addr`` a barrier's trigger-and-wait register (either event-unit view)?"""
    d = addr - CFG[U(L.K_EU_DEMUX)]
    if not 0x200 <= d < 0x200 + 0x20 * N_BARRIERS:
        d = addr - CFG[U(L.K_EU_BASE)] - 0x200
    return 0x200 <= d < 0x200 + 0x20 * N_BARRIERS and (d & 0x1F) in (0x18, 0x1C)


@compiled
def eu_access(c, off, is_store, value, t, CFG, CS, CL):
    ncores = CFG[U(L.K_NCLUSTER)]
    if 0x200 <= off < 0x400:
        bid = (off - 0x200) >> 5
        if bid >= N_BARRIERS:
            return fault(CL, DEVERR_BARRIER_ID)
        reg = off & 0x1F
        base = BAR + 3 * bid
        if reg == 0x00:
            if is_store:
                CL[U(base)] = value & 0xFF
            return CL[U(base)], DEV_OK
        if reg == 0x0C:
            if is_store:
                CL[U(base + 1)] = value & 0xFF
            return CL[U(base + 1)], DEV_OK
        if reg == 0x04 or reg == 0x08:
            if is_store:
                return fault(CL, DEVERR_READ_ONLY)
            return CL[U(base + 2)], DEV_OK
        if reg == 0x10:
            if not is_store:
                return fault(CL, DEVERR_UNMAPPED)
            for i in range(ncores):
                if value & (1 << i) and not barrier_arrive(CL, CS, CFG, i, bid, t, ncores):
                    return fault(CL, DEVERR_BARRIER_MASK)
            return 0, DEV_SYNC
        if reg == 0x14 or reg == 0x18 or reg == 0x1C:
            if is_store:
                return fault(CL, DEVERR_READ_ONLY)
            if not barrier_arrive(CL, CS, CFG, c, bid, t, ncores):
                return fault(CL, DEVERR_BARRIER_MASK)
            if reg == 0x14:
                return 0, DEV_SYNC
            return event_wait(CL, CS, CFG, c, reg == 0x1C, t, L.SLEEP_BARRIER)
        return fault(CL, DEVERR_UNMAPPED)
    if 0x100 <= off < 0x120:
        # software events 0..7: a store notifies the cores in the value's mask
        if not is_store:
            return fault(CL, DEVERR_UNMAPPED)
        for i in range(ncores):
            if value & (1 << i):
                deliver_event(CL, CS, CFG, i, (off - 0x100) >> 2, t)
        return 0, DEV_SYNC
    if off == 0x00:
        if is_store:
            CL[U(EU_MASK + c)] = value & 0xFFFFFFFF
        return CL[U(EU_MASK + c)], DEV_OK
    if off == 0x04 or off == 0x08 or off == 0x28:
        if not is_store:
            return fault(CL, DEVERR_UNMAPPED)
        if off == 0x04:
            CL[U(EU_MASK + c)] &= ~value
        elif off == 0x08:
            CL[U(EU_MASK + c)] |= value & 0xFFFFFFFF
        else:
            CL[U(EU_BUF + c)] &= ~value
        return 0, DEV_OK
    if off == 0x1C or off == 0x20:
        if is_store:
            return fault(CL, DEVERR_READ_ONLY)
        v = CL[U(EU_BUF + c)]
        return (v if off == 0x1C else v & CL[U(EU_MASK + c)]), DEV_OK
    if off == 0x38 or off == 0x3C:
        if is_store:
            return fault(CL, DEVERR_READ_ONLY)
        return event_wait(CL, CS, CFG, c, off == 0x3C, t, sleep_kind(CL[U(EU_MASK + c)]))
    return fault(CL, DEVERR_UNMAPPED)


@compiled
def in_ram(regions, addr, size, want_tcdm):
    """True when [addr, addr+size) lies in one RAM region (the TCDM when ``want_tcdm``)."""
    n = regions.size // L.RGW
    for i in range(n):
        base = regions[U(i * L.RGW + L.RG_BASE)]
        kind = regions[U(i * L.RGW + L.RG_KIND)]
        if kind == L.RK_PERIPH or (want_tcdm and kind != L.RK_TCDM):
            continue
        if base <= addr and addr + size <= base + regions[U(i * L.RGW + L.RG_SIZE)]:
            return True
    return False


@compiled
def dma_alloc_id(CL):
    """The next free transfer id (round robin), marked busy; -1 when all 16 are busy."""
    tid = CL[U(DMA_NEXT_ID)]
    for _ in range(DMA_IDS):
        if CL[U(DMA_BUSY)] & (1 << tid) == 0:
            CL[U(DMA_NEXT_ID)] = (tid + 1) & (DMA_IDS - 1)
            CL[U(DMA_BUSY)] |= 1 << tid
            return tid
        tid = (tid + 1) & (DMA_IDS - 1)
    return -1


@compiled
def dma_admit(CL, CFG, t):
    """Move commands from the core queues into the global queue while it has room, the cores
    taking turns from ``DMA_SCHED``; a transfer entering an idle DMA starts after the setup."""
    for _ in range(8 * DMA_CORE_DEPTH):
        if CL[U(DMA_COUNT)] >= DMA_RING:
            return
        c = CL[U(DMA_SCHED)]
        for _ in range(8):
            if CL[U(DMA_CQN + c)] > 0:
                break
            c = (c + 1) & 7
        if CL[U(DMA_CQN + c)] == 0:
            return
        src = DMA_CQ + c * DMA_CORE_DEPTH * QW
        dst = DMA_Q + ((CL[U(DMA_HEAD)] + CL[U(DMA_COUNT)]) % DMA_RING) * QW
        for w in range(QW):
            CL[U(dst + w)] = CL[U(src + w)]
        for w in range(QW * (DMA_CORE_DEPTH - 1)):
            CL[U(src + w)] = CL[U(src + QW + w)]
        CL[U(DMA_CQN + c)] -= 1
        CL[U(DMA_SCHED)] = (c + 1) & 7
        if CL[U(DMA_COUNT)] == 0:
            CL[U(DMA_NEXT_T)] = t + 1 + CFG[U(L.K_DMA_SETUP)]
        CL[U(DMA_COUNT)] += 1


@compiled
def dma_check(CL, CFG, st, n, need, regions):
    """DEVERR code for a command whose word ``n`` (1-based) was just pushed; 0 when fine.

    Each word is checked as it arrives, so a fault report names the store that wrote the bad
    value (the command word for the length, the TCDM address for its alignment and range, the
    2-D line length, and the last word for the external range, which needs every field).
    """
    length = CL[U(st + 1)] & 0x1FFFF
    v = CL[U(st + n)]
    if n == 1 or n == 4:        # the length, or the 2-D line length
        size = length if n == 1 else v
        if size == 0:
            return DEVERR_DMA_LENGTH
        if size & 3:
            return DEVERR_DMA_ALIGN
    elif n == 2:                # the TCDM address
        if CFG[U(L.K_SOC)] != 0 and 0 <= v < CFG[U(L.K_TCDM_SIZE)]:
            # a SoC's cluster cores see their TCDM at 0 too (isasim.soc); mchan takes the
            # TCDM-relative address
            v += CFG[U(L.K_TCDM_BASE)]
            CL[U(st + n)] = v
        if v & 3:
            return DEVERR_DMA_ALIGN
        if not in_ram(regions, v, length, True):
            return DEVERR_DMA_TCDM_RANGE
    if n == need:
        line = CL[U(st + 4)] if need == 5 else length
        stride = CL[U(st + 5)] if need == 5 else length
        nlines = (length + line - 1) // line
        if not in_ram(regions, CL[U(st + 3)], (nlines - 1) * stride + line, False):
            return DEVERR_DMA_RANGE
    return DEVERR_NONE


@compiled
def dma_no_id(c, CFG, CS, CL):
    """Core c wants a transfer id and all are busy: wait for one (DEV_RETRY), unless nothing
    can free one, no transfer being queued and every other core stopped or asleep (a sleeper
    needs a running core or the DMA to wake it): then that is a deadlock, reported."""
    if CL[U(DMA_COUNT)] == 0:
        for i in range(CFG[U(L.K_NCORES)]):
            st = CS[U(i * L.NCS + L.CS_STATUS)]
            if i != c and (st == L.ST_RUNNING or st == L.ST_PARKED):
                return 0, DEV_RETRY
        return fault(CL, DEVERR_DMA_NO_ID)
    return 0, DEV_RETRY


@compiled
def dma_access(c, off, is_store, value, t, CFG, CS, CL, regions):
    st = DMA_STAGE + 8 * c
    if off == 0x4:
        if is_store:
            CL[U(DMA_BUSY)] &= ~value
            return 0, DEV_OK
        return CL[U(DMA_BUSY)], DEV_OK
    if off != 0x0:
        return fault(CL, DEVERR_UNMAPPED)
    if not is_store:
        tid = dma_alloc_id(CL)
        if tid < 0:
            return dma_no_id(c, CFG, CS, CL)    # mchan stalls the read until an id is freed
        CL[U(st + 6)] = tid          # the id of the command this core is about to push
        return tid, DEV_OK
    if CL[U(DMA_CQN + c)] >= DMA_CORE_DEPTH:
        return 0, DEV_RETRY          # the core's queue is full: the write waits for room
    n = CL[U(st)]
    CL[U(st + 1 + n)] = value & 0xFFFFFFFF
    n += 1
    cmd = CL[U(st + 1)]
    need = 5 if cmd & (1 << 19) else 3
    err = dma_check(CL, CFG, st, n, need, regions)
    if err != DEVERR_NONE:
        CL[U(st)] = 0
        return fault(CL, err)
    if n < need:
        CL[U(st)] = n
        return 0, DEV_OK
    # the id: the one this core allocated with a CMD read, else a fresh one
    tid = CL[U(st + 6)] if CL[U(st + 6)] >= 0 else dma_alloc_id(CL)
    if tid < 0:
        CL[U(st)] = n - 1           # no free id: the retried store pushes this last word again
        return dma_no_id(c, CFG, CS, CL)
    CL[U(st)] = 0
    length = cmd & 0x1FFFF
    loc = CL[U(st + 2)]
    ext = CL[U(st + 3)]
    line = CL[U(st + 4)] if need == 5 else length
    stride = CL[U(st + 5)] if need == 5 else length
    q = DMA_CQ + (c * DMA_CORE_DEPTH + CL[U(DMA_CQN + c)]) * QW
    CL[U(st + 6)] = -1
    CL[U(q + 0)] = tid
    CL[U(q + 1)] = cmd
    CL[U(q + 2)] = loc
    CL[U(q + 3)] = ext
    CL[U(q + 4)] = line
    CL[U(q + 5)] = stride
    CL[U(q + 6)] = 0
    CL[U(q + 7)] = c
    CL[U(DMA_BUSY)] |= 1 << tid
    CL[U(DMA_CQN + c)] += 1
    dma_admit(CL, CFG, t)
    return tid, DEV_SYNC


@compiled
def simdev_access(c, off, is_store, value, CS, CL, OUT):
    if off == SIMDEV_PUTCHAR:
        if is_store:
            n = CL[U(L.L_NOUT)]
            OUT[U(n)] = value & 0xFF
            CL[U(L.L_NOUT)] = n + 1
            if n + 1 >= OUT.size - 1:
                return 0, DEV_OUT_FULL
        return 0, DEV_OK
    if off == SIMDEV_EXIT:
        if is_store:
            CS[U(c * L.NCS + L.CS_EXIT)] = value & 0xFFFFFFFF
            return 0, DEV_HALT
        return 0, DEV_OK
    return fault(CL, DEVERR_UNMAPPED)


@compiled
def device_access(c, addr, is_store, value, t, CFG, CS, CL, OUT, regions):
    """Dispatch a device access by address; see the module docstring for the result."""
    if c >= CFG[U(L.K_NCLUSTER)] and CFG[U(L.K_EU_BASE)] <= addr < CFG[U(L.K_EU_DEMUX)] + 0x800:
        # a SoC's fabric controller reaches the cluster's event unit and DMA only through
        # cluster cores' per-core windows, which it does not have (isasim.soc)
        return fault(CL, DEVERR_NOT_FROM_FC)
    d = addr - CFG[U(L.K_EU_DEMUX)]
    if 0 <= d < 0x400:
        return eu_access(c, d, is_store, value, t, CFG, CS, CL)
    d = addr - CFG[U(L.K_DMA_DEMUX)]
    if 0 <= d < 0x10:
        return dma_access(c, d, is_store, value, t, CFG, CS, CL, regions)
    d = addr - CFG[U(L.K_EU_BASE)]
    if 0x400 <= d < 0x400 + 0x20 * N_BARRIERS:
        # the cluster-wide event unit view of the barriers (same registers as the demux)
        return eu_access(c, d - 0x200, is_store, value, t, CFG, CS, CL)
    d = addr - CFG[U(L.K_DMA_BASE)]
    if 0 <= d < 0x10:
        return dma_access(c, d, is_store, value, t, CFG, CS, CL, regions)
    d = addr - CFG[U(L.K_SIMDEV)]
    if 0 <= d < SIMDEV_SIZE:
        return simdev_access(c, d, is_store, value, CS, CL, OUT)
    return fault(CL, DEVERR_UNMAPPED)


# ---- the DMA engine: one beat per cycle while a transfer is queued ----------------------------
@compiled
def dma_beat_plan(CL, CFG):
    """(TCDM byte address, bytes) of the next beat of the head transfer."""
    q = DMA_Q + CL[U(DMA_HEAD)] * QW
    done = CL[U(q + 6)]
    length = CL[U(q + 1)] & 0x1FFFF
    line = CL[U(q + 4)]
    o = done % line
    n = min(CFG[U(L.K_DMA_BW)], line - o, length - done)
    return CL[U(q + 2)] + done, n


@compiled
def dma_beat_do(t, CL, CS, CFG, mem8, pcmap, regions, TR):
    """Move the head transfer's next beat at cycle t; finish the transfer when it is done.

    Returns the number of bytes moved.  On completion the transfer's id is released from the
    busy mask and, when its command asked for it (bit 20), the issuing core gets the DMA event.
    """
    q = DMA_Q + CL[U(DMA_HEAD)] * QW
    cmd = CL[U(q + 1)]
    done = CL[U(q + 6)]
    length = cmd & 0x1FFFF
    line = CL[U(q + 4)]
    li = done // line
    o = done - li * line
    n = min(CFG[U(L.K_DMA_BW)], line - o, length - done)
    loc = CL[U(q + 2)] + done
    ext = CL[U(q + 3)] + li * CL[U(q + 5)] + o
    loc_off, _k1 = translate(regions, loc, n)
    ext_off, _k2 = translate(regions, ext, n)
    if cmd & (1 << 17):
        src, dst = ext_off, loc_off
    else:
        src, dst = loc_off, ext_off
    for i in range(n):
        mem8[U(dst + i)] = mem8[U(src + i)]
    for h in range(dst >> 1, (dst + n + 1) >> 1):
        if pcmap[U(h)] >= 0:
            pcmap[U(h)] = -1
            CL[U(L.L_TEXT_DIRTY)] = 1
    CL[U(q + 6)] = done + n
    CL[U(DMA_BYTES)] += n
    if done == 0 and CFG[U(L.K_TRACE)]:
        trace_event(TR, CL, L.TR_DMA_START, CL[U(q + 7)], t, CL[U(q + 0)], length)
    if done + n >= length:
        tid = CL[U(q + 0)]
        CL[U(DMA_BUSY)] &= ~(1 << tid)
        if CFG[U(L.K_TRACE)]:
            trace_event(TR, CL, L.TR_DMA_END, CL[U(q + 7)], t + 1, tid, length)
        if cmd & (1 << 20):
            deliver_event(CL, CS, CFG, CL[U(q + 7)], EVT_DMA, t + 1)
        CL[U(DMA_HEAD)] = (CL[U(DMA_HEAD)] + 1) % DMA_RING
        CL[U(DMA_COUNT)] -= 1
        dma_admit(CL, CFG, t)
    CL[U(DMA_NEXT_T)] = t + 1 if CL[U(DMA_COUNT)] > 0 else BIG
    return n


@compiled
def trace_event(TR, CL, kind, core, t, a, b):
    """Append one point event to the trace buffer (the loop flushes it before it fills)."""
    n = CL[U(L.L_TRN)]
    w = n * L.TRW
    if w + L.TRW > TR.size:
        return
    TR[U(w)] = kind
    TR[U(w + 1)] = core
    TR[U(w + 2)] = t
    TR[U(w + 3)] = a
    TR[U(w + 4)] = b
    TR[U(w + 5)] = -1
    CL[U(L.L_TRN)] = n + 1
