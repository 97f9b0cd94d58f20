"""The pulp-open SoC around the cluster: the fabric controller's peripherals, cluster control.

With ``soc = true`` (preset ``pulp-open-soc``) the machine is the pulp-open chip as GVSoC
models it: the cluster's cores plus the fabric controller (FC) as the last core (index
``cores - 1``, ``mhartid`` 0x3E0: cluster 31, core 0).  The FC starts at the ELF entry; the
cluster cores sleep (``SLEEP_OFF``) until the cluster control unit fetch-enables them, each at
its boot address.  A store of ``0x80000000 | code`` to the SoC control's core status register
ends the run with ``code``.  Everything here answers loads and stores that land in a device
window, called from the engine's slow memory path; the cluster's own event unit and DMA stay in
``isasim.devices``.

Register maps (primary sources: gvsoc-pulp ``pulp/chips/pulp_open/soc.json`` for the APB
mappings, ``pulp/cluster/cluster_ctrl_v2_impl.cpp`` and ``archi/cluster_ctrl_v2.h`` for the
cluster control unit, ``pulp/chips/pulp/apb_soc_impl.cpp`` and ``archi/apb_soc.h`` for the SoC
control; pulp-runtime ``include/archi/itc/itc_v1.h``, ``timer/timer_v2.h``,
``stdout/stdout_v3.h``, ``chips/pulp/memory_map.h``):

* cluster control, ``periph_base`` + 0x00 EOC, 0x08 FETCH_EN (a set bit starts that core at its
  boot address the next cycle), 0x10 EVENT, 0x18 CLUSTER_CFG, 0x20 CLK_GATE, 0x28 DBG_STATUS,
  0x38 DBG_HALT_MASK (kept, no effect), 0x40 + 4*i BOOT_ADDR of core i;
* the cluster's instruction-cache control, ``periph_base`` + 0x1400..0x17FF, and the FC's,
  0x1A108800..0x1A108FFF: accepted and read back (there is no cache to enable or flush);
* the cluster's peripherals are also seen by the cluster cores at 0x00200000 (pulp-runtime's
  ``ARCHI_CLUSTER_ADDR`` is 0: its event-unit calls use 0x00204000);
* SoC control 0x1A104000: 0x00 INFO (cores << 16 | clusters), 0x04 BOOTADDR, 0xA0 CORE_STATUS
  (bit 31 set: end of computation, status in bits 30..0), other registers kept as written;
* FLLs 0x1A100000..0x1A10002F (three, four registers each) and the SoC event generator
  0x1A106000..0x1A106FFF: kept as written (no clock is modelled: every core runs at one clock);
* the FC's interrupt controller 0x1A109800: 0x00 MASK, 0x04 MASK_SET, 0x08 MASK_CLR, 0x0C STATUS,
  0x10 STATUS_SET (any core: the cluster's way to send the FC an event), 0x14 STATUS_CLR,
  0x18 ACK, 0x1C ACK_SET, 0x20 ACK_CLR, 0x24 FIFO.  The FC's ``wfi`` sleeps until
  ``STATUS & MASK`` is non-zero; no interrupt handler is entered (events wake, they do not trap);
* the FC's timers 0x1A10B000 and 0x1A10B800 (timer_v2, low 32-bit counter): CFG_LO (bit 0
  enable, bit 1 reset, bit 6 prescaler enable, bits 15..8 prescaler), CNT_LO counting the FC's
  cycles, CMP_LO, START_LO (w: enable), RESET_LO (w: clear).  The reference-clock source
  (CFG_LO bit 7) and compare interrupts are refused, not approximated;
* stdout 0x1A10F000 + (cluster << 7) + (core << 3): a stored byte joins that core's line, which
  goes to the output at ``\\n`` (or when 127 bytes long).

Any other address in the SoC window 0x1A000000..0x1BFFFFFF, and any register of the models above
that is not listed, is a guest fault naming the address and the peripheral range
(``describe``), never a silent zero.
"""

from __future__ import annotations

from isasim import devices as D
from isasim import layout as L
from isasim.jitcache import compiled
from isasim.layout import U

FC_HART = (31 << 5) | 0            # mhartid of the fabric controller: cluster 31, core 0
FC_CLUSTER = 31
SOC_BASE = 0x1A00_0000             # the SoC window (peripherals, ROM, FC alias) up to L2
SOC_END = 0x1C00_0000
CLUSTER_ALIAS = 0x0020_0000        # the cluster peripherals as the cluster cores see them
CLUSTER_ALIAS_SIZE = 0x0020_0000

FLL_BASE, FLL_SIZE = 0x1A10_0000, 0x30
APB_SOC_BASE, APB_SOC_SIZE = 0x1A10_4000, 0x1000
SOC_EU_BASE, SOC_EU_SIZE = 0x1A10_6000, 0x1000
FC_ICACHE_BASE, FC_ICACHE_SIZE = 0x1A10_8800, 0x800
ITC_BASE, ITC_SIZE = 0x1A10_9800, 0x800
TIMER_BASE, TIMER_SIZE = 0x1A10_B000, 0x1000       # two timers, 0x800 each
STDOUT_BASE, STDOUT_SIZE = 0x1A10_F000, 0x1000
CORE_STATUS = APB_SOC_BASE + 0xA0
EOC_BIT = 1 << 31

CC_FETCH_EN = 0x08
CC_BOOT0 = 0x40
ICACHE_CTRL, ICACHE_CTRL_END = 0x1400, 0x1800

# CL offsets (layout.L_SOC .. 7935); L_FC_RUNS (32 entries) comes first
SOC_STATUS = L.L_SOC + 32          # CORE_STATUS as last written
CC_REGS = SOC_STATUS + 1           # cluster control, 0x00..0x5C as 24 words
ICACHE_REGS = CC_REGS + 24         # cluster icache control, 0x00..0x3C
FC_ICACHE_REGS = ICACHE_REGS + 16  # FC icache control, 0x00..0x3C
FLL_REGS = FC_ICACHE_REGS + 16     # 12 words
ITC_ACK = FLL_REGS + 12
ITC_FIFO = ITC_ACK + 1
TIMER_REGS = ITC_FIFO + 1          # 2 timers x (cfg, count at start, start cycle, cmp)
SOC_EU_REGS = TIMER_REGS + 8       # 0x00..0xFC as 64 words
APB_SOC_REGS = SOC_EU_REGS + 64    # 0x00..0xFC as 64 words
LINES = APB_SOC_REGS + 64          # 9 line buffers (cluster cores 0..7, FC): length, 127 bytes
LINE_W = 128
N_LINES = 9
SOC_STATE_END = LINES + N_LINES * LINE_W
assert SOC_STATE_END <= 7936, "SoC state outside layout's range for it"

# the peripheral ranges of GVSoC's pulp-open (soc.json apb_ico mappings), for fault reports
RANGES = (
    (0x1A00_0000, 0x1A04_0000, "boot ROM (not modelled)"),
    (0x1A10_0000, 0x1A10_0030, "FLL control"),
    (0x1A10_1000, 0x1A10_2000, "GPIO (not modelled)"),
    (0x1A10_2000, 0x1A10_4000, "uDMA (not modelled)"),
    (0x1A10_4000, 0x1A10_5000, "SoC control"),
    (0x1A10_6000, 0x1A10_7000, "SoC event generator"),
    (0x1A10_7000, 0x1A10_7800, "PMU (not modelled)"),
    (0x1A10_8000, 0x1A10_8800, "RTC (not modelled)"),
    (0x1A10_8800, 0x1A10_9000, "FC instruction-cache control"),
    (0x1A10_9800, 0x1A10_A000, "FC interrupt controller"),
    (0x1A10_B000, 0x1A10_C000, "FC timers"),
    (0x1A10_F000, 0x1A11_0000, "stdout"),
    (0x1A15_0000, 0x1A16_0000, "XIP (not modelled)"),
    (0x1A19_0000, 0x1A19_1000, "FC debug unit and debug ROM (not modelled)"),
    (0x1B00_0000, 0x1C00_0000, "FC global alias (not modelled)"),
)


def describe(addr: int, periph_base: int = 0x1020_0000) -> str:
    """The peripheral range ``addr`` falls in, for a fault report ("" for none)."""
    d = addr - periph_base
    if 0 <= d < 0x1_0000:
        names = ((0, 0x400, "cluster control unit"), (0x400, 0x800, "cluster timer (not "
                 "modelled)"), (0x800, 0x1000, "cluster event unit"),
                 (0x1000, 0x1400, "HWCE (not modelled)"),
                 (0x1400, 0x1800, "cluster instruction-cache control"),
                 (0x1800, 0x1C00, "cluster DMA"), (0x4000, 0x4800, "per-core event unit and "
                                                  "DMA"))
        for lo, hi, name in names:
            if lo <= d < hi:
                return f"{name}, {periph_base + lo:#010x}..{periph_base + hi - 1:#010x}"
        return f"cluster peripherals, {periph_base:#010x}..{periph_base + 0xFFFF:#010x}"
    if CLUSTER_ALIAS <= addr < CLUSTER_ALIAS + CLUSTER_ALIAS_SIZE:
        return describe(addr - CLUSTER_ALIAS + periph_base, periph_base) + \
            f" (seen at its alias {CLUSTER_ALIAS:#010x})"
    for lo, hi, name in RANGES:
        if lo <= addr < hi:
            return f"{name}, {lo:#010x}..{hi - 1:#010x}"
    if SOC_BASE <= addr < SOC_END:
        return f"SoC window {SOC_BASE:#010x}..{SOC_END - 1:#010x}, no peripheral there"
    if addr < 0x8000:
        return "L2 private bank 0's alias at 0 (not modelled; its address is 0x1c000000)"
    return ""


@compiled
def start_core(CS, CL, i, pc, t):
    """Cluster core ``i`` (asleep since reset) starts fetching at ``pc`` in cycle t."""
    b = i * L.NCS
    if CS[U(b + L.CS_STATUS)] != L.ST_SLEEPING or CS[U(b + L.CS_SLEEP)] != L.SLEEP_OFF:
        return
    CS[U(b + L.CS_PC)] = pc & 0xFFFFFFFE
    CS[U(b + L.CS_NEXT_T)] = t
    k = CS[U(b + L.CS_RUNS)]
    w = L.L_RUNS + i * L.RUN_RING * 2 + (k & (L.RUN_RING - 1)) * 2
    CL[U(w)] = pc & 0xFFFFFFFE
    CL[U(w + 1)] = CS[U(b + L.CS_INSTRET)]
    CS[U(b + L.CS_RUNS)] = k + 1


@compiled
def cluster_ctrl(c, off, is_store, value, t, CFG, CS, CL):
    """The cluster control unit (``periph_base`` + 0x000..0x3FF)."""
    ncl = CFG[U(L.K_NCLUSTER)]
    if off == 0x00 or off == 0x10 or off == 0x18 or off == 0x20 or off == 0x28 or off == 0x38 \
            or (CC_BOOT0 <= off < CC_BOOT0 + 4 * ncl) or off == CC_FETCH_EN:
        r = CC_REGS + (off >> 2)
        if not is_store:
            return CL[U(r)], D.DEV_OK
        CL[U(r)] = value & 0xFFFFFFFF
        if off == CC_FETCH_EN:
            for i in range(ncl):
                if value >> i & 1:
                    start_core(CS, CL, i, CL[U(CC_REGS + (CC_BOOT0 >> 2) + i)], t + 1)
            return 0, D.DEV_SYNC
        return 0, D.DEV_OK
    return D.fault(CL, D.DEVERR_SOC_UNMAPPED)


@compiled
def plain(CL, base, off, span, is_store, value):
    """A block of registers kept as written (``span`` bytes of 32-bit registers)."""
    if off >= span:
        return D.fault(CL, D.DEVERR_SOC_UNMAPPED)
    r = base + (off >> 2)
    if is_store:
        CL[U(r)] = value & 0xFFFFFFFF
        return 0, D.DEV_OK
    return CL[U(r)], D.DEV_OK


@compiled
def itc(c, off, is_store, value, t, CFG, CS, CL):
    """The FC's interrupt controller; its mask and status are the FC's event-unit slots."""
    fc = CFG[U(L.K_NCORES)] - 1
    mask = D.EU_MASK + fc
    status = D.EU_BUF + fc
    if off == 0x00 or off == 0x0C or off == 0x18:
        r = mask if off == 0x00 else (status if off == 0x0C else ITC_ACK)
        if is_store:
            CL[U(r)] = value & 0xFFFFFFFF
            if off != 0x18:
                return 0, D.DEV_SYNC
            return 0, D.DEV_OK
        return CL[U(r)], D.DEV_OK
    if off == 0x24:
        if is_store:
            return D.fault(CL, D.DEVERR_READ_ONLY)
        return CL[U(ITC_FIFO)], D.DEV_OK
    if not is_store:
        return D.fault(CL, D.DEVERR_SOC_UNMAPPED)
    if off == 0x04:
        CL[U(mask)] |= value & 0xFFFFFFFF
        wake_if_pending(CS, CL, CFG, fc, t)
        return 0, D.DEV_SYNC
    if off == 0x08:
        CL[U(mask)] &= ~value
        return 0, D.DEV_OK
    if off == 0x10:
        for bit in range(32):
            if value >> bit & 1:
                D.deliver_event(CL, CS, CFG, fc, bit, t)
        return 0, D.DEV_SYNC
    if off == 0x14:
        CL[U(status)] &= ~value
        return 0, D.DEV_OK
    if off == 0x1C:
        CL[U(ITC_ACK)] |= value & 0xFFFFFFFF
        return 0, D.DEV_OK
    if off == 0x20:
        CL[U(ITC_ACK)] &= ~value
        return 0, D.DEV_OK
    return D.fault(CL, D.DEVERR_SOC_UNMAPPED)


@compiled
def wake_if_pending(CS, CL, CFG, core, t):
    """A mask change may make an event already in the buffer wake a waiting core."""
    pending = CL[U(D.EU_BUF + core)]
    for bit in range(32):
        if pending >> bit & 1:
            D.deliver_event(CL, CS, CFG, core, bit, t)
            return


@compiled
def timer(off, is_store, value, t, CL):
    """One FC timer (timer_v2, 32-bit): counts the FC's cycles (through the prescaler)."""
    k = off >> 11                   # timer 0 or 1
    r = TIMER_REGS + 4 * k          # cfg, count at start, start cycle, cmp
    o = off & 0x7FF
    cfg = CL[U(r)]
    div = ((cfg >> 8) & 0xFF) + 1 if cfg & 0x40 else 1
    count = CL[U(r + 1)]
    if cfg & 1:
        count += (t - CL[U(r + 2)]) // div
    if o == 0x00:
        if not is_store:
            return cfg, D.DEV_OK
        if value & 0x84:
            # the 32 kHz reference clock and compare interrupts are not modelled
            return D.fault(CL, D.DEVERR_SOC_UNMAPPED)
        CL[U(r + 1)] = 0 if value & 2 else count & 0xFFFFFFFF
        CL[U(r + 2)] = t
        CL[U(r)] = value & 0xFFFFFFFD
        return 0, D.DEV_OK
    if o == 0x08:
        if is_store:
            CL[U(r + 1)] = value & 0xFFFFFFFF
            CL[U(r + 2)] = t
            return 0, D.DEV_OK
        return count & 0xFFFFFFFF, D.DEV_OK
    if o == 0x10:
        if is_store:
            CL[U(r + 3)] = value & 0xFFFFFFFF
            return 0, D.DEV_OK
        return CL[U(r + 3)], D.DEV_OK
    if o == 0x18 or o == 0x20:
        if not is_store:
            return D.fault(CL, D.DEVERR_SOC_UNMAPPED)
        CL[U(r + 1)] = count & 0xFFFFFFFF if o == 0x18 else 0
        CL[U(r + 2)] = t
        if o == 0x18:
            CL[U(r)] |= 1
        return 0, D.DEV_OK
    return D.fault(CL, D.DEVERR_SOC_UNMAPPED)


@compiled
def stdout_put(off, value, CFG, CL, OUT):
    """A byte for the line of (cluster, core) = (off >> 7, (off >> 3) & 15)."""
    cluster = off >> 7
    core = (off >> 3) & 0xF
    if cluster == FC_CLUSTER and core == 0:
        k = N_LINES - 1
    elif cluster == CFG[U(L.K_CLUSTER_ID)] and core < CFG[U(L.K_NCLUSTER)] and core < 8:
        k = core
    else:
        return D.fault(CL, D.DEVERR_SOC_UNMAPPED)
    b = LINES + k * LINE_W
    n = CL[U(b)]
    ch = value & 0xFF
    CL[U(b + 1 + n)] = ch
    n += 1
    CL[U(b)] = n
    if ch != 10 and n < LINE_W - 1:
        return 0, D.DEV_OK
    o = CL[U(L.L_NOUT)]
    for i in range(n):
        OUT[U(o + i)] = CL[U(b + 1 + i)]
    CL[U(L.L_NOUT)] = o + n
    CL[U(b)] = 0
    if o + n + LINE_W >= OUT.size:
        return 0, D.DEV_OUT_FULL
    return 0, D.DEV_OK


@compiled
def apb(c, addr, is_store, value, lsz, t, CFG, CS, CL, OUT, regions):
    """The SoC window: the APB peripherals above, the simulator device, else a fault."""
    d = addr - CFG[U(L.K_SIMDEV)]
    if 0 <= d < D.SIMDEV_SIZE:
        return D.device_access(c, addr, is_store, value, t, CFG, CS, CL, OUT, regions)
    d = addr - STDOUT_BASE
    if 0 <= d < STDOUT_SIZE:
        if not is_store:
            return D.fault(CL, D.DEVERR_SOC_UNMAPPED)
        return stdout_put(d, value, CFG, CL, OUT)
    if lsz != 2:
        return D.fault(CL, D.DEVERR_SOC_SIZE)
    d = addr - APB_SOC_BASE
    if 0 <= d < APB_SOC_SIZE:
        if d == 0xA0:
            if not is_store:
                return CL[U(SOC_STATUS)], D.DEV_OK
            CL[U(SOC_STATUS)] = value & 0xFFFFFFFF
            if value & EOC_BIT:
                return 0, D.DEV_EXIT
            return 0, D.DEV_OK
        if d == 0x00 and not is_store:
            return (CFG[U(L.K_NCLUSTER)] << 16) | 1, D.DEV_OK
        return plain(CL, APB_SOC_REGS, d, 0x100, is_store, value)
    d = addr - ITC_BASE
    if 0 <= d < ITC_SIZE:
        return itc(c, d, is_store, value, t, CFG, CS, CL)
    d = addr - TIMER_BASE
    if 0 <= d < TIMER_SIZE:
        return timer(d, is_store, value, t, CL)
    d = addr - FLL_BASE
    if 0 <= d < FLL_SIZE:
        return plain(CL, FLL_REGS, d, FLL_SIZE, is_store, value)
    d = addr - SOC_EU_BASE
    if 0 <= d < SOC_EU_SIZE:
        return plain(CL, SOC_EU_REGS, d, 0x100, is_store, value)
    d = addr - FC_ICACHE_BASE
    if 0 <= d < FC_ICACHE_SIZE:
        return plain(CL, FC_ICACHE_REGS, d, 0x40, is_store, value)
    return D.fault(CL, D.DEVERR_SOC_UNMAPPED)


@compiled
def soc_access(c, addr, is_store, value, lsz, t, CFG, CS, CL, OUT, regions):
    """Every device access of a SoC machine: cluster control, the cluster peripherals' alias,
    the SoC window; the cluster's event unit and DMA go on to ``devices.device_access``.
    Returns ``(value, DEV_* status)``; ``DEV_EXIT`` for the end of computation."""
    if CLUSTER_ALIAS <= addr < CLUSTER_ALIAS + CLUSTER_ALIAS_SIZE:
        if c >= CFG[U(L.K_NCLUSTER)]:
            return D.fault(CL, D.DEVERR_SOC_UNMAPPED)
        addr = addr - CLUSTER_ALIAS + CFG[U(L.K_EU_BASE)] - 0x800
    if SOC_BASE <= addr < SOC_END:
        return apb(c, addr, is_store, value, lsz, t, CFG, CS, CL, OUT, regions)
    d = addr - (CFG[U(L.K_EU_BASE)] - 0x800)       # the cluster peripherals' base
    if 0 <= d < 0x400:
        if lsz != 2:
            return D.fault(CL, D.DEVERR_SOC_SIZE)
        return cluster_ctrl(c, d, is_store, value, t, CFG, CS, CL)
    if ICACHE_CTRL <= d < ICACHE_CTRL_END:
        return plain(CL, ICACHE_REGS, d - ICACHE_CTRL, 0x40, is_store, value)
    return D.device_access(c, addr, is_store, value, t, CFG, CS, CL, OUT, regions)
