"""The engine's multi-core timing against a reference written from the rules alone.

The engine runs each core ahead on its own and parks it at shared accesses (``isasim.engine``).
The reference here does what the rules say in the plainest way: a loop over cycles, in which
every core whose next instruction can issue does so, the TCDM requests of the cycle are
arbitrated bank by bank (round robin, FIFO or none), winners perform their access and losers
retry in the next cycle.  Its rules (CV32E40P manual pipeline.rst; cluster_interconnect
rtl/tcdm_interconnect/xbar.sv; the choices in docs/cycle-model.md):

* an instruction issues when its sources are ready: an ALU result the next cycle, a loaded
  value one cycle later (load-use, charged ``load_use``);
* a bank grants one request per cycle; round robin takes the first requester at or after the
  bank's pointer, which moves past every core it grants; rr_arb_tree (common_cells
  src/rr_arb_tree.sv, FairArb) takes the requester whose index agrees with the pointer on the
  highest bit where the requesters differ (the lowest ``index ^ pointer``), and the pointer
  moves to the first requester of the cycle after it, else the lowest; FIFO takes the oldest
  request (ties: the lower core); each lost cycle is charged ``tcdm_conflict`` to the (core, bank);
* a misaligned access costs one ``misaligned`` cycle: a word straddling two words is two
  requests, the first word's bank then (in the next cycle, arbitrated again) the next one's;
  a half-word inside one word is one request, issued at its grant (the RTL, pulp-open's
  ``misaligned_split``), or issued the cycle after its grant (GVSoC's rule, ``any``);
* an L2 access costs ``l2_latency`` cycles after it issues (``ext_mem``), a ``mulh`` 4 more
  (``muldiv``), a taken branch 2 (``branch``), a jump 1 (``jump``); with ``l2_contention =
  "axi"`` the cluster's L2 read requests, and its write requests, are each taken one a cycle,
  arbitrated like a bank (a lost cycle is ``ext_mem``), else nothing is arbitrated there;
* with ``dma``, core 0 pushes one 128-byte L2 -> TCDM transfer by three stores to the DMA
  (the other cores store to L2 instead); its first beat comes ``dma_setup_cycles`` (4) idle
  cycles after the last store, then a beat a cycle of 8 bytes that needs two banks together:
  under round robin it takes them only if each of its ports (requesters 8 and 9) comes before
  the bank's core winner in the rotation, else it retries the next cycle and the cores keep
  their grants; under FIFO it always takes them; a core that loses a bank to it is charged
  ``tcdm_conflict`` like any loser;
* a hardware barrier (``p.elw`` on barrier 0, every core in its masks) issues like any
  instruction and the core sleeps from the next cycle; when the last core has arrived (cycle
  a), every core resumes at a + ``barrier_req_latency`` + ``barrier_wakeup_latency`` (6 + 2),
  its sleep charged ``barrier``;
* a hardware loop (``lp.setupi``) costs its set-up instruction and nothing at the back edge;
* an FP add's result is ready ``1 + fpu_latency`` cycles after it issues; with a latency, one
  FP operation is outstanding at a time (the manual's floating-point rows): the core's next
  FP instruction waits for the result (``fpu_struct``), other instructions do not;
* ``csrr mcycle`` takes 4 cycles (the manual's slow CSRs): the body starts 4 cycles after the
  value read before it;
* every core runs the same straight-line body of loads, stores and ALU instructions over
  words ``k * hartid + offset``, so cores meet on banks in many patterns;
* instruction cache (pulp-platform hier-icache; gvsoc-core cache_impl.cpp): each core fetches
  from a private L0 of 8 sets x 4 ways of 16-byte lines; a fetch from a line not there asks the
  line's bank (line & 1) of the shared L1 (2 banks of 32 sets x 4 ways), one request a bank and
  cycle, arbitrated like a TCDM bank (round robin when the TCDM has no conflicts), a lost cycle
  charged ``imiss``.  The granted request waits for an L1 line still being refilled, or, when
  the L1 misses, for the bank's previous refill and then ``l2_latency`` + 2 cycles for its own;
  the L0 refill adds 2; the wait is ``imiss``.  Hits change nothing; a refill takes the set's
  first free way (RTL, L0 only) or the 8-bit LFSR's (common_cells lfsr_8bit: way = state & 3,
  then a step; GVSoC: a step, then way = (state >> 1) & 3).  The set-up code before the body
  runs in lockstep on every core, so each of its lines is refilled once into the L1 and once
  into every L0, in address order.

Per core, the body's length in cycles (read with ``mcycle`` around it), its issued
instructions, ``load_use`` and ``tcdm_conflict`` cycles and the conflict matrix must be equal.
"""

from __future__ import annotations

import numpy as np
import pytest

from isasim import layout as L

from .common import DMA, EU, EXIT, run_asm

BANKS, LOAD_LAT, FDIV_LAT, L2_LAT, MULH_EXTRA, BRANCH_PEN, JUMP_PEN = 16, 1, 14, 10, 4, 2, 1
LOADS = ("lw", "lw2", "lh1", "lwl2")
FDIV = 40                                  # the shared divider's resource number
DMA_SETUP, DMA_LENGTH, DMA_DST = 4, 128, 0x10000400    # the transfer's TCDM side: bank 0 on
BARRIER_WAKE = 6 + 2
IC_REFILL = 2                              # per cache level (gvsoc-pulp cluster.json)
CSR_SLOW = 4                               # csrr mcycle (CV32E40P manual, pipeline.rst)
POOL = ["t1", "t2", "t3", "t4", "t5", "t6", "a1", "a2", "a3", "a4"]


def random_body(rng: np.random.Generator, n: int, fp: bool, dma: bool = False,
                barriers: int = 0) -> list[tuple]:
    """(op, rd, rs, word): ``lw rd, 4*word(t0)``, ``sw rs, 4*word(t0)``, ``addi rd, rs, 1``,
    the misaligned ``lw rd, 4*word+2(t0)`` (op ``lw2``: words word and word + 1) and
    ``lh rd, 4*word+1(t0)`` (``lh1``: inside the word), and, when ``fp``,
    ``fadd.s f<rd>, f<rs>, f<rs>`` (register numbers of the pool's index)."""
    body: list[tuple] = []
    loaded = "t1"
    for _ in range(n):
        op = str(rng.choice(["lw", "lw", "sw", "addi", "lw2", "lh1", "lwl2", "swl2", "mul",
                             "mulh", "beq", "j"] + ["fadd", "fadd", "fadd", "fdiv"] * fp))
        rd, rs = (str(r) for r in rng.choice(POOL, 2))
        if rng.random() < 0.5:
            rs = loaded                 # often use what a recent load brings: load-use waits
        if op in LOADS:
            loaded = rd
        body.append((op, rd, rs, int(rng.integers(0, 40))))
    if dma:
        at = int(rng.integers(0, 12))
        body[at:at] = [(f"dma{i}", "", "", 0) for i in (1, 2, 3)]
    for _ in range(barriers):
        at = int(rng.integers(0, len(body)))
        body[at:at] = [("bar", "", "", 0)]
    for _ in range(2):              # hardware loops around a few straight-line instructions
        n, at = int(rng.integers(1, 5)), int(rng.integers(0, len(body) - 5))
        plain = all(op in LOADS + ("sw", "addi", "swl2", "mul", "mulh", "fadd", "fdiv")
                    for op, *_ in body[at:at + n])
        if plain and all(op != "loop" for op, *_ in body[max(0, at - 5):at]):   # not nested
            body[at:at] = [("loop", str(n), "", int(rng.integers(2, 5)))]
    return body


def dynamic(body: list[tuple]) -> list[tuple]:
    """The instructions ``body`` executes: each hardware loop's set-up, then its body
    ``count`` times."""
    out: list[tuple] = []
    i = 0
    while i < len(body):
        op, n, _, count = body[i]
        if op == "loop":
            out.append(("lpsetup", "", "", 0))
            out += body[i + 1:i + 1 + int(n)] * count
            i += 1 + int(n)
        else:
            out.append(body[i])
            i += 1
    return out


def dynamic_pcs(body: list[tuple], base: int) -> list[int]:
    """The pc of each instruction ``dynamic(body)`` lists, the body's first at ``base`` (each
    entry of ``body``, a loop's set-up included, is one 4-byte instruction)."""
    out: list[int] = []
    i = 0
    while i < len(body):
        op, n, _, count = body[i]
        out.append(base + 4 * i)
        if op == "loop":
            out += [base + 4 * j for j in range(i + 1, i + 1 + int(n))] * count
            i += 1 + int(n)
        else:
            i += 1
    return out


def lfsr_step(q: int) -> int:
    """common_cells lfsr_8bit: shift in !(q7 ^ q3 ^ q2 ^ q1)."""
    return ((q << 1) | (1 ^ ((q >> 7) ^ (q >> 3) ^ (q >> 2) ^ (q >> 1)) & 1)) & 0xFF


class ICache:
    """The hierarchical instruction cache's rules (see the module docstring), plainly."""

    def __init__(self, cores: int, mode: str, l2_latency: int):
        self.mode, self.l2 = mode, l2_latency
        self.l0 = [[[None] * 4 for _ in range(8)] for _ in range(cores)]
        self.l0_lfsr = [0] * cores
        self.l1 = [[[None] * 4 for _ in range(32)] for _ in range(2)]
        self.l1_ready = [[[0] * 4 for _ in range(32)] for _ in range(2)]
        self.l1_lfsr = [0, 0]
        self.port = [-(1 << 40)] * 2      # the cycle each bank's refill port frees

    def way(self, ways: list, lfsr: list[int], i: int, first_free: bool) -> int:
        if first_free and None in ways:
            return ways.index(None)
        q = lfsr[i]
        if self.mode == "gvsoc":
            lfsr[i] = lfsr_step(q)
            return (lfsr[i] >> 1) & 3
        lfsr[i] = lfsr_step(q)
        return q & 3

    def in_l0(self, c: int, line: int) -> bool:
        return line in self.l0[c][line % 8]

    def refill(self, c: int, line: int, t: int) -> int:
        """Core c's request for ``line``, granted at cycle t: the cycles its fetch waits."""
        bank, s1 = line % 2, (line // 2) % 32
        ways = self.l1[bank][s1]
        if line in ways:
            ready = max(t, self.l1_ready[bank][s1][ways.index(line)])
        else:
            ready = max(t, self.port[bank]) + self.l2 + IC_REFILL
            w = self.way(ways, self.l1_lfsr, bank, False)
            ways[w] = line
            self.l1_ready[bank][s1][w] = ready
            self.port[bank] = ready
        w0 = self.way(self.l0[c][line % 8], self.l0_lfsr, c, self.mode == "rtl")
        self.l0[c][line % 8][w0] = line
        return ready + IC_REFILL - t


def source(body: list[tuple], k: int, cores: int) -> str:
    lines = []
    loop_end = -1
    for i, (op, rd, rs, word) in enumerate(body):
        if op == "loop":
            lines.append(f"    lp.setupi x0, {word}, 9f")
            loop_end = i + int(rd)
            continue
        lines.append(f"    lw {rd}, {4 * word}(t0)" if op == "lw" else
                     f"    lw {rd}, {4 * word + 2}(t0)" if op == "lw2" else
                     f"    lh {rd}, {4 * word + 1}(t0)" if op == "lh1" else
                     f"    sw {rs}, {4 * word}(t0)" if op == "sw" else
                     f"    addi {rd}, {rs}, 1" if op == "addi" else
                     f"    lw {rd}, {4 * word}(s2)" if op == "lwl2" else
                     f"    sw {rs}, {4 * word}(s2)" if op == "swl2" else
                     f"    {op} {rd}, {rs}, {rs}" if op in ("mul", "mulh") else
                     "    beq zero, zero, 1f\n1:" if op == "beq" else
                     "    j 1f\n1:" if op == "j" else
                     f"    sw {('s3', 's5', 's6')[int(op[3]) - 1]}, 0(s4)" if op[:3] == "dma" else
                     "    p.elw s9, 0x21c(s1)" if op == "bar" else
                     f"    {op}.s f{POOL.index(rd)}, f{POOL.index(rs)}, f{POOL.index(rs)}")
        if i == loop_end:
            lines[-1] = "9:" + lines[-1]      # Xpulpv2: the label marks the body's last
    return f"""
    .text
    .globl _start
_start:
    lui t0, 0x10000           # TCDM
    li t1, {4 * k}
    mul t1, t1, a0
    add t0, t0, t1            # word k * hartid
    la s2, l2_words
    li s3, {(1 << 17) | (1 << 18) | DMA_LENGTH:#x}   # DMA command: L2 -> TCDM, incremental
    li s5, {DMA_DST:#x}
    la s6, l2_words
    la s4, l2_scratch         # core 0: the DMA's command register, the others: L2
    li s7, {DMA:#x}
    sub s7, s7, s4
    seqz s8, a0
    mul s7, s7, s8
    add s4, s4, s7
    li s1, {EU:#x}
    li t1, {(1 << cores) - 1:#x}
    sw t1, 0x200(s1)          # barrier 0: every core triggers it ...
    sw t1, 0x20c(s1)          # ... and is woken by it
    li t1, 1 << 16
    sw t1, 0x8(s1)            # listen to the barrier event
    csrr s10, mcycle
body:
""" + "\n".join(lines) + "\n    csrr s11, mcycle\n" + EXIT + """
    .data
l2_words: .zero 160
l2_scratch: .zero 4
"""


def reference(body: list[tuple], cores: int, k: int, policy: str,
              shared_fpus: bool = False, fpu_lat: int = 0,
              split_any: bool = False, icache: ICache | None = None,
              pcs: list[int] | None = None, l2_axi: bool = False) -> dict[str, np.ndarray]:
    """Cycle-by-cycle lockstep run of ``body`` on ``cores`` cores, all starting at cycle 0.

    With ``shared_fpus`` (gvsoc4) core c's fadd.s asks FPU c % 4, which serves one operation a
    cycle, arbitrated like a bank (round robin when the TCDM has no conflicts); a lost cycle is
    ``fpu_struct``.  An fadd's result is ready ``1 + fpu_lat`` cycles after it issues, and
    the core's FPU is busy until then.  ``split_any``: a half-word inside one word costs the
    misaligned cycle too (GVSoC).  ``icache``: the instruction cache as the set-up code left it,
    ``pcs`` the address of each instruction of ``body`` and of the ``csrr`` after it.
    ``l2_axi``: the cores' L2 loads ask resource 52 and their L2 stores 53 (the cluster's AXI
    read and write request channels), each taking one request a cycle, arbitrated like a bank;
    a lost cycle is ``ext_mem``.
    """
    T = [0] * cores                        # the cycle each core's next instruction may issue
    ready = [dict() for _ in range(cores)]  # register -> (cycle it is ready, why it is late)
    idx = [0] * cores
    first = [-1] * cores                   # first cycle of a pending request (FIFO age)
    issue = [0] * cores                    # the cycle the current instruction tries to issue
    out = {name: np.zeros(cores, np.int64) for name in
           ("instr", "load_use", "fpu_dep", "tcdm", "fpu_struct", "misaligned", "ext_mem",
            "muldiv", "branch", "jump", "barrier", "imiss", "end")}
    arrived: dict[int, int] = {}           # core -> the cycle its barrier wait issued
    dma = {"next": -1, "done": 0}          # the cycle of the transfer's next beat
    fpu_busy = [0] * cores                 # a private FPU divides until then
    divider_busy = [0]                     # the shared divider (gvsoc4) divides until then
    half = [0] * cores                     # 1: the second half of a straddling load is next
    conflicts = np.zeros((cores, BANKS), np.int64)
    rr: dict[int, int] = {}            # per resource: banks 0..15, FPU u at 32 + u, L1 48 + b
    fetching: list[int | None] = [None] * cores    # the line a core's fetch waits for

    def arrive(c: int) -> None:
        """Core c's next instruction: when can it issue?  The wait is charged to why: the
        late operand (a load: load_use, an FP result: fpu_dep), or the core's own FPU still
        dividing (fpu_struct, which takes the whole wait when it ends last)."""
        if icache is not None and not icache.in_l0(c, pcs[idx[c]] >> 4):
            fetching[c] = pcs[idx[c]] >> 4     # the fetch asks the L1 first
            issue[c] = T[c]
            return
        if idx[c] == len(body):
            out["end"][c] = T[c]                # (the fetch of the csrr after the body done)
            return
        op, _, rs, _ = body[idx[c]]
        fp = op in ("fadd", "fdiv")
        src = None if op in LOADS + ("beq", "j") else "f" + rs if fp else rs
        s, why = ready[c].get(src, (0, ""))
        if fp and fpu_busy[c] > max(s, T[c]):
            s, why = fpu_busy[c], "fpu_struct"
        if s > T[c]:
            out[why][c] += s - T[c]
        issue[c] = max(s, T[c])

    def execute(c: int, t: int) -> None:
        op, rd, _, _ = body[idx[c]]
        if op == "lw2" and not half[c]:
            out["misaligned"][c] += 1       # the first half: the second asks the next cycle
            half[c] = 1
            first[c] = -1
            issue[c] = t + 1
            return
        if op == "lh1" and split_any:
            out["misaligned"][c] += 1       # granted now, issued the next cycle
            t += 1
        half[c] = 0
        if op[:3] == "dma" and c > 0:
            op = "swl2"                 # the other cores store to L2
        elif op == "dma3":
            dma["next"], dma["done"] = t + 1 + DMA_SETUP, 0
        after = {"lwl2": ("ext_mem", L2_LAT), "swl2": ("ext_mem", L2_LAT),
                 "mulh": ("muldiv", MULH_EXTRA), "beq": ("branch", BRANCH_PEN),
                 "j": ("jump", JUMP_PEN)}.get(op, ("", 0))
        if after[1]:
            out[after[0]][c] += after[1]
        if op in LOADS:
            ready[c][rd] = (t + 1 + after[1] + LOAD_LAT, "load_use")
        elif op in ("addi", "mulh"):
            ready[c][rd] = (t + 1, "")
        elif op == "mul":
            ready[c][rd] = (t + 1, "muldiv")
        elif op == "fadd":
            ready[c]["f" + rd] = (t + 1 + fpu_lat, "fpu_dep")
            fpu_busy[c] = t + 1 + fpu_lat
        elif op == "fdiv":
            ready[c]["f" + rd] = (t + FDIV_LAT, "fpu_dep")
            if shared_fpus:
                divider_busy[0] = t + FDIV_LAT
            else:
                fpu_busy[c] = t + FDIV_LAT
        out["instr"][c] += 1
        T[c] = t + 1 + after[1]
        idx[c] += 1
        first[c] = -1
        if op == "bar":
            arrived[c] = t
            issue[c] = -1                   # asleep
            if len(arrived) == cores:
                wake = t + BARRIER_WAKE
                for w, at in arrived.items():
                    out["barrier"][w] += wake - (at + 1)
                    T[w] = wake
                    arrive(w)
                arrived.clear()
            return
        arrive(c)

    for c in range(cores):
        arrive(c)
    t = 0
    while any(i < len(body) or f is not None for i, f in zip(idx, fetching, strict=True)):
        requests: dict[int, list[int]] = {}
        for c in range(cores):
            if issue[c] == t and fetching[c] is not None:
                if first[c] < 0:
                    first[c] = t
                requests.setdefault(48 + fetching[c] % 2, []).append(c)
                continue
            if idx[c] < len(body) and issue[c] == t:
                op, _, _, word = body[idx[c]]
                to_l2 = op in ("lwl2", "swl2") or (op[:3] == "dma" and c > 0)
                if (op in ("addi", "lwl2", "swl2", "mul", "mulh", "beq", "j", "dma1", "dma2",
                           "dma3", "bar", "lpsetup") and not (to_l2 and l2_axi)) or (
                        op in ("fadd", "fdiv") and not shared_fpus):
                    execute(c, t)
                    continue
                if first[c] < 0:
                    first[c] = t
                if op == "fdiv" and divider_busy[0] > t:
                    out["fpu_struct"][c] += divider_busy[0] - t     # wait for the divider
                    issue[c] = divider_busy[0]
                    continue
                res = (FDIV if op == "fdiv" else 32 + c % 4 if op == "fadd"
                       else 52 + (op != "lwl2") if to_l2
                       else (k * c + word + half[c]) % BANKS)
                requests.setdefault(res, []).append(c)
        chosen: dict[int, list[int]] = {}
        def order(res: int, who: int) -> int:
            """The arbiter's rank of requester ``who`` for ``res`` (lower wins)."""
            if policy == "rr_arb_tree":
                return who ^ rr.get(res, 0)     # the tree: agree with the pointer's bits
            return (who - rr.get(res, 0)) % L.NREQ

        def pointer(res: int, winner: int, asked: list[int]) -> int:
            """round robin: past the winner; rr_arb_tree: the first requester after the
            pointer, else the lowest."""
            if policy != "rr_arb_tree":
                return winner + 1
            after = [a for a in asked if a > rr.get(res, 0)]
            return min(after or asked)

        for res, who in requests.items():
            rule = "round_robin" if res >= 32 and policy == "none" else policy
            if rule == "none":
                chosen[res] = who
            elif rule == "fifo":
                chosen[res] = [min(who, key=lambda c: (first[c], c))]
            else:
                chosen[res] = [min(who, key=lambda c: order(res, c))]
        taken: tuple[int, ...] = ()
        dma_asked = dma["next"] == t
        pairs: tuple = ()
        if dma["next"] == t:
            b0 = ((DMA_DST + dma["done"]) >> 2) % BANKS
            pairs = ((L.DMA_PORT0, b0), (L.DMA_PORT0 + 1, (b0 + 1) % BANKS))
            rr_like = policy in ("round_robin", "rr_arb_tree")
            if not rr_like or all(b not in chosen or order(b, port) < order(b, chosen[b][0])
                                  for port, b in pairs):
                if policy != "none":
                    taken = tuple(b for _, b in pairs)
                if rr_like:
                    for port, b in pairs:
                        rr[b] = pointer(b, port, requests.get(b, []) + [port])
                dma["done"] += 8
            dma["next"] = t + 1 if dma["done"] < DMA_LENGTH else -1
        for res, who in requests.items():
            winners = [] if res in taken else chosen[res]
            if winners and (policy in ("round_robin", "rr_arb_tree")
                            or res >= 32 and policy == "none"):
                ports = [p for p, b in pairs if b == res] if dma_asked else []
                rr[res] = pointer(res, winners[0], who + ports)
            for c in who:
                if c in winners and fetching[c] is not None:
                    wait = icache.refill(c, fetching[c], t)
                    out["imiss"][c] += wait
                    fetching[c] = None
                    first[c] = -1
                    T[c] = t + wait
                    arrive(c)
                elif c in winners:
                    execute(c, t)
                elif res >= 52:
                    out["ext_mem"][c] += 1
                    issue[c] = t + 1
                elif res >= 48:
                    out["imiss"][c] += 1
                    issue[c] = t + 1
                elif res >= 32:
                    out["fpu_struct"][c] += 1
                    issue[c] = t + 1
                else:
                    out["tcdm"][c] += 1
                    conflicts[c, res] += 1
                    issue[c] = t + 1
        t += 1
    out["conflicts"] = conflicts
    return out


def warm_icache(m, body: list[tuple], cores: int, mode: str
                ) -> tuple[ICache | None, list[int]]:
    """The reference's instruction cache at the body's start (every line of the set-up code
    refilled in address order: once into the L1, then into each core's L0) and the pcs of the
    body's dynamic instructions."""
    start, base = m.program.entry, m.program.symbols["body"].value
    pcs = dynamic_pcs(body, base) + [base + 4 * len(body)]
    if mode == "ideal":
        return None, pcs
    icache = ICache(cores, mode, L2_LAT)
    for line in range(start >> 4, ((base - 1) >> 4) + 1):
        for c in range(cores):
            icache.refill(c, line, -1_000_000)
    return icache, pcs


@pytest.mark.parametrize("fpus", ["private", "gvsoc4"])
@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("policy", ["round_robin", "fifo", "none", "rr_arb_tree"])
def test_the_engine_times_cores_as_the_lockstep_reference_does(policy, seed, fpus):
    rng = np.random.default_rng(seed)
    cores = int(rng.choice([2, 3, 5, 8]))
    k = int(rng.choice([0, 1, 4, 8]))
    body = random_body(rng, 60, fp=fpus == "gvsoc4" or seed % 2 == 1, dma=seed % 3 != 0,
                       barriers=seed % 3)
    split = "any" if policy == "fifo" else "word_crossing"     # (fifo: as in gvsoc-2022)
    # the instruction cache: GVSoC's with fifo (as in gvsoc-2022), else the RTL's; some ideal
    mode = "ideal" if seed % 4 == 3 else "gvsoc" if policy == "fifo" else "rtl"
    l2 = "axi" if seed % 2 == 0 else "none"
    r, m = run_asm(source(body, k, cores), cores=cores, conflict_policy=policy,
                   fpu_sharing=fpus, misaligned_split=split, icache=mode, l2_contention=l2)
    assert r.status == "exited"
    icache, pcs = warm_icache(m, body, cores, mode)
    ref = reference(dynamic(body), cores, k, policy, shared_fpus=fpus == "gvsoc4",
                    split_any=split == "any", icache=icache, pcs=pcs, l2_axi=l2 == "axi")
    start = [m.reg(c, "s10") + CSR_SLOW for c in range(cores)]
    assert len(set(start)) == 1                     # the body starts in the same cycle on all
    ends = np.array([m.reg(c, "s11") - start[0] for c in range(cores)])
    assert ends.tolist() == ref["end"].tolist()
    assert len(set(r.instret - ref["instr"])) == 1   # the same set-up and exit on every core
    assert r.category("load_use").tolist() == ref["load_use"].tolist()
    assert r.category("tcdm_conflict").tolist() == ref["tcdm"].tolist()
    assert r.category("fpu_struct").tolist() == ref["fpu_struct"].tolist()
    assert r.category("misaligned").tolist() == ref["misaligned"].tolist()
    for name in ("fpu_dep", "ext_mem", "muldiv", "branch", "barrier"):
        assert r.category(name).tolist() == ref[name].tolist(), name
    # the misses of the body and of the csrr after it, from the per-instruction profile
    span = (r.profile_pc >= pcs[0]) & (r.profile_pc <= pcs[-1])
    body_imiss = r.profile_stall[:, span, L.C_IMISS].sum(axis=1)
    assert body_imiss.tolist() == ref["imiss"].tolist()
    assert (mode == "ideal") == (r.category("imiss") == 0).all()
    # the two csrr mcycle around the body are the run's other jump cycles
    assert (r.category("jump") - 2 * (CSR_SLOW - 1)).tolist() == ref["jump"].tolist()
    assert (r.conflicts[:, :BANKS] == ref["conflicts"]).all()


@pytest.mark.parametrize("fpus", ["private", "gvsoc4"])
@pytest.mark.parametrize("seed", range(6))
def test_one_outstanding_fp_operation_times_as_the_reference(seed, fpus):
    """With FPU_ADDMUL_LAT = 2 every fadd holds its core's FPU for 3 cycles (CV32E40P, the
    pulp-open default fpu_issue): cores issuing FP operations back to back wait in
    ``fpu_struct`` as the reference says, on top of the shared units' arbitration."""
    rng = np.random.default_rng(100 + seed)
    cores = int(rng.choice([2, 3, 5, 8]))
    k = int(rng.choice([0, 1, 4, 8]))
    body = random_body(rng, 60, fp=True, dma=seed % 2 == 0, barriers=seed % 3)
    r, m = run_asm(source(body, k, cores), cores=cores, fpu_sharing=fpus, fpu_latency=2,
                   icache="rtl")
    assert r.status == "exited"
    icache, pcs = warm_icache(m, body, cores, "rtl")
    ref = reference(dynamic(body), cores, k, "rr_arb_tree", shared_fpus=fpus == "gvsoc4",
                    fpu_lat=2, icache=icache, pcs=pcs)
    start = m.reg(0, "s10") + CSR_SLOW
    assert [m.reg(c, "s11") - start for c in range(cores)] == ref["end"].tolist()
    assert r.category("fpu_struct").tolist() == ref["fpu_struct"].tolist()
    for name in ("fpu_dep", "load_use", "tcdm_conflict"):
        assert r.category(name).tolist() == ref["tcdm" if name == "tcdm_conflict"
                                                else name].tolist(), name
