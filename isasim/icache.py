"""The PULP cluster's hierarchical instruction cache, as the engine's fetch sees it.

Geometry (pulp-platform hier-icache as pulp_cluster instantiates it, ``icache_hier_top`` with
``PRI_NB_WAYS`` 4, ``PRI_CACHE_SIZE`` 512, ``SH_NB_WAYS`` 4, ``SH_CACHE_SIZE`` 4096, 128-bit
lines; gvsoc-pulp ``pulp/chips/pulp_open/cluster.json`` "icache" has the same numbers): per core
a private L0 of 8 sets x 4 ways x 16-byte lines (512 B), and a shared L1 of two banks
interleaved on the line (bank = line & 1), each 32 sets x 4 ways x 16 B (4 KiB in all).

Replacement.  Neither level keeps any recency state: a hit changes nothing.  On a refill the RTL
(``RTL/L1_CACHE/pri_icache_controller.sv``) takes the lowest invalid way of the set, else the
way of an 8-bit LFSR (common_cells ``lfsr_8bit.sv``: way = state[1:0], then the state shifts
in ``!(q7 ^ q3 ^ q2 ^ q1)``), stepped only on such an eviction; the shared controller
(``RTL/L1.5_CACHE/share_icache_controller.sv``) takes the LFSR's way at every refill.  GVSoC
(gvsoc-core ``models/cache/cache_impl.cpp``, ``stepLru``) steps the same LFSR first and takes
``(state >> 1) & 3`` at every refill, at both levels.  Because hits leave the state alone, a
run of instructions whose lines are all in the L0 executes exactly as if each fetch were
checked, which is what lets translated code run behind a residency check (``resident``).

Timing (GVSoC ``cache_impl.cpp`` ``refill``: a refill costs the next level's latency plus the
level's ``refill_latency``, 2 in ``cluster.json``; one refill at a time per cache): an L0 miss
that hits the L1 costs ``refill`` cycles; one that misses it costs the L2 latency plus both
refills, and waits while the bank is still refilling another line; a hit on a line whose
refill is still in flight waits for it.  The prefetcher of the RTL's L0 is off at reset
(``hier_icache_ctrl_unit.sv``, ``enable_l1_l15_prefetch_o``) and is not modelled.

State lives in ``CL`` (``L_IC_*``): a tag is the line number + 1, so zeroed state is empty.
"""

from __future__ import annotations

from isasim import layout as L
from isasim.jitcache import compiled
from isasim.layout import U

LINE_SHIFT = 4          # 16-byte lines at both levels
L0_SETS = 8
L1_SETS = 32
L1_BANKS = 2
WAYS = 4
# after a core's L0 tags (L0_SETS x WAYS) and its LFSR in its CL stride: the generation (refills
# so far) and two memo entries of ``resident`` (first pc, end pc, generation)
L0_GEN = L0_SETS * WAYS + 1
L0_MEMO = L0_GEN + 1
MEMO_W = 3
assert L0_MEMO + 2 * MEMO_W <= L.IC_L0_STRIDE


@compiled(inline=True)
def lfsr_next(q):
    """common_cells lfsr_8bit: shift in the XNOR of bits 7, 3, 2 and 1."""
    bit = 1 - (((q >> 7) ^ (q >> 3) ^ (q >> 2) ^ (q >> 1)) & 1)
    return ((q << 1) | bit) & 0xFF


@compiled(inline=True)
def l0_base(c):
    return L.L_IC_L0 + c * L.IC_L0_STRIDE


@compiled(inline=True)
def l0_has(CL, c, line):
    """Is ``line`` (address >> 4) in core c's L0?"""
    w = l0_base(c) + (line & (L0_SETS - 1)) * WAYS
    tag = line + 1
    return (CL[U(w)] == tag or CL[U(w + 1)] == tag or CL[U(w + 2)] == tag
            or CL[U(w + 3)] == tag)


@compiled
def first_missing(CL, c, pc, ln):
    """The first line of the instruction at ``pc`` (``ln`` bytes) missing from core c's L0,
    or -1 when both (or its one) are there."""
    line = pc >> LINE_SHIFT
    if not l0_has(CL, c, line):
        return line
    last = (pc + ln - 1) >> LINE_SHIFT
    if last != line and not l0_has(CL, c, last):
        return last
    return -1


@compiled(inline=True)
def resident(CL, c, first_pc, end_pc):
    """Are all lines of [first_pc, end_pc) in core c's L0?  (Translated code's guard, asked at
    every entry: on 8 cores about one in ten host cycles went to the tag compares.)  A core's
    L0 changes only when it refills a line (hits change nothing), which steps its generation
    (``L0_GEN``); the last two ranges found resident, with the generation they were found in,
    answer again without looking at the tags until the next refill."""
    base = l0_base(c)
    gen = CL[U(base + L0_GEN)]
    for m in range(L0_MEMO, L0_MEMO + 2 * MEMO_W, MEMO_W):
        if (CL[U(base + m)] == first_pc and CL[U(base + m + 1)] == end_pc
                and CL[U(base + m + 2)] == gen):
            return True
    line = first_pc >> LINE_SHIFT
    last = (end_pc - 1) >> LINE_SHIFT
    while line <= last:
        if not l0_has(CL, c, line):
            return False
        line += 1
    # the newer memo entry moves down, this range takes its place
    for k in range(MEMO_W):
        CL[U(base + L0_MEMO + MEMO_W + k)] = CL[U(base + L0_MEMO + k)]
    CL[U(base + L0_MEMO)] = first_pc
    CL[U(base + L0_MEMO + 1)] = end_pc
    CL[U(base + L0_MEMO + 2)] = gen
    return True


@compiled(inline=True)
def victim(CL, base, lfsr_at, rtl_first_free):
    """The way a refill of the set at ``base`` replaces, stepping the LFSR at ``lfsr_at``."""
    if rtl_first_free:
        for w in range(WAYS):
            if CL[U(base + w)] == 0:
                return w
    q = CL[U(lfsr_at)]
    if CL[U(L.L_IC_MODE)] == L.ICACHE_GVSOC:
        q = lfsr_next(q)
        CL[U(lfsr_at)] = q
        return (q >> 1) & (WAYS - 1)
    CL[U(lfsr_at)] = lfsr_next(q)
    return q & (WAYS - 1)


@compiled(inline=True)
def bank_of(line):
    return line & (L1_BANKS - 1)


@compiled
def refill(CL, CFG, c, line, t):
    """Core c misses ``line`` in its L0 at cycle t: fill it from the shared L1 (refilled from L2
    when it misses there).  Returns the cycles the fetch waits."""
    rtl = CL[U(L.L_IC_MODE)] == L.ICACHE_RTL
    lat = CFG[U(L.K_IC_REFILL)]
    bank = bank_of(line)
    b1 = L.L_IC_L1 + bank * L.IC_L1_STRIDE
    l1line = line >> 1
    set1 = b1 + (l1line & (L1_SETS - 1)) * WAYS
    tag = line + 1
    ready = t
    hit = False
    for w in range(WAYS):
        if CL[U(set1 + w)] == tag:
            hit = True
            ready = max(t, CL[U(b1 + L1_SETS * WAYS + (set1 - b1) + w)])
    if not hit:
        # the L1 bank refills one line at a time: its port (after the tags, the ready cycles
        # and the LFSR) frees when the previous refill ends
        start = max(t, CL[U(b1 + 2 * L1_SETS * WAYS + 1)])
        ready = start + CFG[U(L.K_EXT_LAT)] + lat
        w = victim(CL, set1, b1 + 2 * L1_SETS * WAYS, False)
        CL[U(set1 + w)] = tag
        CL[U(b1 + L1_SETS * WAYS + (set1 - b1) + w)] = ready
        CL[U(b1 + 2 * L1_SETS * WAYS + 1)] = ready
    base0 = l0_base(c) + (line & (L0_SETS - 1)) * WAYS
    w = victim(CL, base0, l0_base(c) + L0_SETS * WAYS, rtl)
    CL[U(base0 + w)] = tag
    CL[U(l0_base(c) + L0_GEN)] += 1
    return ready + lat - t
