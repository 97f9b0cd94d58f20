"""ClusterConfig: every timing and topology number of the simulated cluster, in one place.

Presets are TOML files in ``isasim/presets/``; a user file may name a preset to start from
(``base = "pulp-open"``) and override any field.  Each field carries its meaning and source in
``FIELD_DOCS`` so that ``isasim config show`` can print every number with what it means.
"""

from __future__ import annotations

import dataclasses
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np

from isasim import layout as L
from toolchain.table import SelectionError, parse_selection

KiB = 1024


# TCDM arbitration policies, in the order of layout.POLICY_*
POLICIES = ("round_robin", "fifo", "none", "rr_arb_tree")
# instruction-cache models, in the order of layout.ICACHE_*
ICACHE_MODES = ("ideal", "rtl", "gvsoc")


class ConfigError(ValueError):
    """A configuration file or value that cannot be used."""


@dataclass(frozen=True)
class ClusterConfig:
    name: str = "pulp-open"
    cores: int = 8
    cluster_id: int = 0
    xpulp: str = "xpulpv2"
    # memory map (gvsoc-pulp pulp_open/cluster.json, soc.json)
    tcdm_base: int = 0x1000_0000
    tcdm_size: int = 64 * KiB
    tcdm_banks: int = 16
    l2_base: int = 0x1C00_0000
    l2_size: int = 0x19_0000
    periph_base: int = 0x1020_0000
    periph_size: int = 0x1_0000
    simdev_base: int = 0x1A11_0000
    stack_size: int = 1 * KiB
    stack_in: str = "tcdm"
    # core timing (RI5CY / CV32E40P manual, pipeline.rst)
    branch_penalty: int = 2
    jump_penalty: int = 1
    jalr_dep_penalty: int = 1
    load_latency: int = 1
    mul_latency: int = 1
    mulh_cycles: int = 5
    fpu_latency: int = 0
    fpu_other_latency: int = 0
    fdiv_latency: int = 14
    fdiv16_latency: int = 10
    fpu_issue: str = "one_outstanding"
    misaligned_penalty: int = 1
    misaligned: str = "support"
    misaligned_split: str = "word_crossing"
    unaligned_target_penalty: int = 1
    fence_i_penalty: int = 1
    csr_slow_cycles: int = 4
    fs_reset: int = 3
    half_in_x: str = "sign"
    # cluster (gvsoc-pulp pulp_open, pcer_v2.h)
    conflict_policy: str = "rr_arb_tree"
    l2_latency: int = 10
    l2_store_latency: int = 10
    barrier_req_latency: int = 6
    barrier_wakeup_latency: int = 2
    dma_bandwidth: int = 8
    dma_setup_cycles: int = 4
    fpu_sharing: str = "private"
    # instruction cache (isasim.icache)
    icache: str = "ideal"
    icache_refill_latency: int = 2
    l2_contention: str = "none"
    # the pulp-open SoC around the cluster (isasim.soc): the last core is the fabric controller
    soc: bool = False
    fc_l2_latency: int = 1
    fc_l2_store_latency: int = 0
    soc_periph_latency: int = 0
    sleep_in_cycle_counter: bool = False
    perf_counts_enabling_write: bool = True
    max_cycles: int = 2_000_000_000
    extra: dict = field(default_factory=dict, compare=False, repr=False)

    # ---- derived ------------------------------------------------------------------------------
    @property
    def tcdm_end(self) -> int:
        return self.tcdm_base + self.tcdm_size

    @property
    def l2_end(self) -> int:
        return self.l2_base + self.l2_size

    @property
    def eu_base(self) -> int:
        return self.periph_base + 0x800

    @property
    def eu_demux(self) -> int:
        return self.periph_base + 0x4000

    @property
    def dma_base(self) -> int:
        return self.periph_base + 0x1800

    @property
    def dma_demux(self) -> int:
        return self.periph_base + 0x4400

    @property
    def cluster_cores(self) -> int:
        """The cluster's cores (0..n-1): every core but a SoC's fabric controller."""
        return self.cores - 1 if self.soc else self.cores

    @property
    def fc_core(self) -> int | None:
        """The fabric controller's core index (the last core), None without a SoC."""
        return self.cores - 1 if self.soc else None

    def replace(self, **changes) -> ClusterConfig:
        return dataclasses.replace(self, **changes)

    def validate(self) -> None:
        """ConfigError naming the setting and its allowed values for any that the simulator
        cannot use (the compiled loop computes in 64-bit cycles and 32-bit addresses)."""
        if not isinstance(self.dma_bandwidth, int) or self.dma_bandwidth not in (1, 2, 4, 8):
            # a beat uses the DMA's two 32-bit TCDM ports (mchan_v7_impl.cpp): a wider beat, or
            # one of 3, 5, 6 or 7 bytes (which straddles words), would touch banks that were
            # never arbitrated
            raise ConfigError(f"dma_bandwidth must be 1, 2, 4 or 8 bytes per cycle, got "
                              f"{self.dma_bandwidth}")
        for name, (lo, hi) in INT_RANGES.items():
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ConfigError(f"{name} must be an integer, got {value!r}")
            if not lo <= value <= hi:
                raise ConfigError(f"{name} = {value} is out of range: it must be "
                                  f"{_span(lo, hi)}")
        if self.cores > L.MAX_CORES - 1 + self.soc or (self.soc and self.cores < 2):
            raise ConfigError(f"cores = {self.cores} is out of range: it must be "
                              + ("2..9 (1..8 cluster cores and the fabric controller)"
                                 if self.soc else "1..8"))
        for base, size in (("tcdm_base", "tcdm_size"), ("l2_base", "l2_size"),
                           ("periph_base", "periph_size")):
            end = getattr(self, base) + getattr(self, size)
            if end > ADDRESS_END:
                raise ConfigError(f"{base} + {size} = {end:#x} is past the 32-bit address space")
        try:
            parse_selection(self.xpulp)
        except SelectionError as e:
            raise ConfigError(f"xpulp: {e}") from None
        if self.conflict_policy not in POLICIES:
            raise ConfigError(f"conflict_policy must be one of {', '.join(POLICIES)}, "
                              f"got {self.conflict_policy!r}")
        if self.misaligned not in ("support", "fault"):
            raise ConfigError(f"misaligned must be support or fault, got {self.misaligned!r}")
        if self.fpu_issue not in ("one_outstanding", "pipelined"):
            raise ConfigError(f"fpu_issue must be one_outstanding or pipelined, got "
                              f"{self.fpu_issue!r}")
        if self.misaligned_split not in ("word_crossing", "any"):
            raise ConfigError(f"misaligned_split must be word_crossing or any, got "
                              f"{self.misaligned_split!r}")
        if self.fpu_sharing not in ("private", "gvsoc4"):
            raise ConfigError(f"fpu_sharing must be private or gvsoc4, got {self.fpu_sharing!r}")
        if self.icache not in ICACHE_MODES:
            raise ConfigError(f"icache must be one of {', '.join(ICACHE_MODES)}, got "
                              f"{self.icache!r}")
        if self.l2_contention not in ("none", "axi"):
            raise ConfigError(f"l2_contention must be none or axi, got {self.l2_contention!r}")
        if self.half_in_x not in ("sign", "zero"):
            raise ConfigError(f"half_in_x must be sign or zero, got {self.half_in_x!r}")
        if self.stack_in not in ("tcdm", "l2"):
            raise ConfigError(f"stack_in must be tcdm or l2, got {self.stack_in!r}")
        if self.tcdm_banks & (self.tcdm_banks - 1):
            raise ConfigError(f"tcdm_banks must be a power of two up to 32, got "
                              f"{self.tcdm_banks}")
        room = self.tcdm_size if self.stack_in == "tcdm" else self.l2_size
        if self.stack_size * self.cores > room // 2:
            raise ConfigError(f"the {self.cores} cores' stacks of {self.stack_size} bytes take "
                              f"more than half of the {room} bytes of "
                              f"{'TCDM' if self.stack_in == 'tcdm' else 'L2'} (stack_in)")
        if self.barrier_req_latency + self.barrier_wakeup_latency < 1:
            # the awaited value reaches the core one cycle after the p.elw issues at the
            # earliest; a zero-cycle wait would wake the core before it went to sleep
            raise ConfigError("barrier_req_latency + barrier_wakeup_latency must be at least 1")

    def engine_array(self, tohost: int = -1) -> np.ndarray:
        """The numbers the compiled loop reads (``layout.K_*``)."""
        k = np.zeros(L.NCFG, dtype=np.int64)
        k[L.K_NCORES] = self.cores
        k[L.K_NCLUSTER] = self.cluster_cores
        k[L.K_SOC] = int(self.soc)
        k[L.K_SOC_PERIPH_LAT] = self.soc_periph_latency
        k[L.K_BRANCH_PEN] = self.branch_penalty
        k[L.K_JUMP_PEN] = self.jump_penalty
        k[L.K_JALR_DEP] = self.jalr_dep_penalty
        k[L.K_LOAD_LAT] = self.load_latency
        k[L.K_MUL_LAT] = self.mul_latency
        k[L.K_MULH_CYC] = self.mulh_cycles
        k[L.K_FPU_LAT] = self.fpu_latency
        k[L.K_FPU_OTHER_LAT] = self.fpu_other_latency
        k[L.K_FDIV_LAT] = self.fdiv_latency
        k[L.K_FDIV16_LAT] = self.fdiv16_latency
        k[L.K_MISALIGN_PEN] = self.misaligned_penalty
        k[L.K_MISALIGN_FAULT] = int(self.misaligned == "fault")
        k[L.K_EXT_LAT] = self.l2_latency
        k[L.K_EXT_ST_LAT] = self.l2_store_latency
        k[L.K_NBANKS] = self.tcdm_banks
        k[L.K_POLICY] = POLICIES.index(self.conflict_policy)
        k[L.K_TOHOST] = tohost
        k[L.K_FAMILY] = ("xpulpv2", "corev", "none").index(parse_selection(self.xpulp).family)
        k[L.K_SIMDEV] = self.simdev_base
        k[L.K_EU_BASE] = self.eu_base
        k[L.K_EU_DEMUX] = self.eu_demux
        k[L.K_BAR_REQ_LAT] = self.barrier_req_latency
        k[L.K_BAR_WAKE_LAT] = self.barrier_wakeup_latency
        k[L.K_DMA_BASE] = self.dma_base
        k[L.K_DMA_DEMUX] = self.dma_demux
        k[L.K_DMA_BW] = self.dma_bandwidth
        k[L.K_DMA_SETUP] = self.dma_setup_cycles
        k[L.K_FPU_SHARED] = int(self.fpu_sharing == "gvsoc4")
        k[L.K_CLUSTER_ID] = self.cluster_id
        k[L.K_TCDM_BASE] = self.tcdm_base
        k[L.K_TCDM_SIZE] = self.tcdm_size
        k[L.K_FPU_ONE_OUT] = int(self.fpu_issue == "one_outstanding")
        k[L.K_UNALIGNED_TGT] = self.unaligned_target_penalty
        k[L.K_FENCE_I_PEN] = self.fence_i_penalty
        k[L.K_CSR_SLOW] = self.csr_slow_cycles
        k[L.K_MIS_CROSSING] = int(self.misaligned_split == "word_crossing")
        k[L.K_ICACHE] = ICACHE_MODES.index(self.icache)
        k[L.K_IC_REFILL] = self.icache_refill_latency
        k[L.K_L2_AXI] = int(self.l2_contention == "axi")
        return k

    @property
    def fp_in_loop(self) -> bool:
        """Must the engine's loop execute every FP operation itself (translated code leaves
        them to it)?  A shared FPU is arbitrated, and with one operation outstanding and a
        result latency each FP operation occupies the FPU past its issue cycle."""
        return self.fpu_sharing != "private" or (
            self.fpu_issue == "one_outstanding"
            and (self.fpu_latency > 0 or self.fpu_other_latency > 0))


ADDRESS_END = 1 << 32
MAX_LATENCY = 1_000_000      # cycles: far above any real unit, far below 64-bit overflow
MAX_MEMORY = 1 << 28         # bytes of one memory (the host allocates it)
MAX_RUN_CYCLES = 1 << 60     # the loop's "never" is 2^62 cycles

# the allowed values of every integer setting, (lowest, highest)
INT_RANGES: dict[str, tuple[int, int]] = {
    "cores": (1, 9),                         # 9: a SoC's 8 cluster cores and its FC
    "cluster_id": (0, 63),                   # mhartid bits 10..5
    "tcdm_base": (0, ADDRESS_END - 4),
    "tcdm_size": (4, MAX_MEMORY),
    "tcdm_banks": (1, 32),
    "l2_base": (0, ADDRESS_END - 4),
    "l2_size": (4, MAX_MEMORY),
    "periph_base": (0, ADDRESS_END - 4),
    "periph_size": (0x8000, MAX_MEMORY),     # event unit, DMA and their per-core demux
    "simdev_base": (0, ADDRESS_END - 8),
    "stack_size": (0, MAX_MEMORY),
    "branch_penalty": (0, MAX_LATENCY),
    "jump_penalty": (0, MAX_LATENCY),
    "jalr_dep_penalty": (0, MAX_LATENCY),
    "load_latency": (0, MAX_LATENCY),
    "mul_latency": (0, MAX_LATENCY),
    "mulh_cycles": (1, MAX_LATENCY),
    "fpu_latency": (0, MAX_LATENCY),
    "fpu_other_latency": (0, MAX_LATENCY),
    "fdiv_latency": (1, MAX_LATENCY),
    "fdiv16_latency": (1, MAX_LATENCY),
    "misaligned_penalty": (0, MAX_LATENCY),
    "unaligned_target_penalty": (0, MAX_LATENCY),
    "fence_i_penalty": (0, MAX_LATENCY),
    "csr_slow_cycles": (1, MAX_LATENCY),
    "fs_reset": (0, 3),                      # mstatus.FS is two bits
    "l2_latency": (0, MAX_LATENCY),
    "fc_l2_latency": (0, MAX_LATENCY),
    "fc_l2_store_latency": (0, MAX_LATENCY),
    "soc_periph_latency": (0, MAX_LATENCY),
    "l2_store_latency": (0, MAX_LATENCY),
    "barrier_req_latency": (0, MAX_LATENCY),
    "barrier_wakeup_latency": (0, MAX_LATENCY),
    "dma_setup_cycles": (0, MAX_LATENCY),
    "icache_refill_latency": (0, MAX_LATENCY),
    "max_cycles": (1, MAX_RUN_CYCLES),
}


def _span(lo: int, hi: int) -> str:
    """``0..1,000,000`` (hexadecimal for addresses and sizes past a million)."""
    def show(v: int) -> str:
        return f"{v:#x}" if v >= 1 << 20 and v & 0xFFF in (0, 0xFFC, 0xFF8) else f"{v:,}"
    return f"{show(lo)}..{show(hi)}"


FIELD_DOCS: dict[str, str] = {
    "name": "preset name",
    "cores": "worker cores in the cluster (SPMD: all start at the entry); with soc, the "
             "cluster's cores and the fabric controller (the last one)",
    "cluster_id": "cluster index in mhartid = cluster << 5 | core",
    "xpulp": "ISA decoded, as an ISA string (rv32imfc_xpulpv2_xf16_xf16alt_xfvec: the PULP "
             "set; _zfinx: FP values in the x registers) or a family: xpulpv2 (that PULP set), "
             "corev (cv.*) or none",
    "tcdm_base": "L1 / TCDM base address (PULP map)",
    "tcdm_size": "L1 / TCDM size in bytes",
    "tcdm_banks": "word-interleaved TCDM banks: bank = (addr >> 2) % banks",
    "l2_base": "L2 base address (PULP map)",
    "l2_size": "L2 size in bytes (GVSoC pulp-open: 2 x 32 KiB private + 1.5 MiB shared)",
    "periph_base": "cluster peripherals (event unit +0x800, DMA +0x1800, per-core demux +0x4000)",
    "periph_size": "size of the cluster peripheral window",
    "simdev_base": "simulator device: +0 putchar (byte), +4 exit this core (code)",
    "stack_size": "stack bytes per core; sp starts at the top of the core's stack",
    "stack_in": "memory holding the stacks: tcdm (top of L1, as the PULP runtime) or l2",
    "branch_penalty": "extra cycles of a taken branch (RI5CY: 3 cycles in all)",
    "jump_penalty": "extra cycles of jal/jalr (RI5CY: 2 cycles in all)",
    "jalr_dep_penalty": "extra cycle when jalr's rs1 was written by the previous instruction",
    "load_latency": "load-use stall cycles when the next instruction uses a loaded register",
    "mul_latency": "result latency of mul (1 = no stall; GVSoC 2022 charged 2)",
    "mulh_cycles": "cycles of mulh/mulhsu/mulhu (structural, blocks issue)",
    "fpu_latency": "FPU_ADDMUL_LAT: extra result latency of fadd/fsub/fmul/fmadd family",
    "fpu_other_latency": "FPU_OTHERS_LAT: extra latency of FP compare/convert/classify/min/max",
    "fdiv_latency": "cycles of fdiv.s / fsqrt.s and the packed vfdiv / vfsqrt (iterative unit; "
                    "RTL up to 19, GVSoC 14)",
    "fdiv16_latency": "cycles of the scalar binary16 / bfloat16 fdiv / fsqrt (.h, .ah; GVSoC "
                      "pulp-open: 10, its sfdiv resource)",
    "half_in_x": "binary16 / bfloat16 scalar results in x registers (zfinx): sign-extended "
                 "(Zhinx, as Spike) or zero-extended (GVSoC's single register file)",
    "fpu_issue": "one_outstanding (CV32E40P: while an FP operation is outstanding only non-FP "
                 "instructions issue, and none writing its destination) or pipelined (GVSoC: "
                 "a new FP operation every cycle, only a use of a result waits)",
    "misaligned_penalty": "extra cycles of a misaligned access (two bus transactions)",
    "misaligned": "misaligned loads/stores: support (PULP, +penalty) or fault (trap)",
    "misaligned_split": "word_crossing (RTL: only a word, or a half-word crossing a word, is two "
                        "transactions) or any (GVSoC: every misaligned access pays the penalty)",
    "unaligned_target_penalty": "extra cycles of a jump or taken branch (fence.i too) to a 32-bit "
                                "instruction that is not word-aligned",
    "fence_i_penalty": "extra cycles of fence.i (CV32E40P: a jump to the next instruction, 2 in "
                       "all)",
    "csr_slow_cycles": "cycles of an access to mstatus, mepc, mtvec, mcause, mcycle, minstret, "
                       "mhpmcounter*, mcountinhibit, mhpmevent*, dcsr, dpc, dscratch* "
                       "(CV32E40P: 4)",
    "fs_reset": "mstatus.FS at reset (0 off: FP traps until enabled; 3 dirty: FP usable)",
    "conflict_policy": "TCDM bank arbitration: round_robin (past each winner), rr_arb_tree (the "
                       "RTL's tree arbiter), fifo (GVSoC <= 2025), none",
    "l2_latency": "extra cycles of a load from L2 / external memory (ext_mem)",
    "l2_store_latency": "extra cycles of a store to L2 / external memory (ext_mem)",
    "barrier_req_latency": "event-unit request latency of every p.elw wait: barrier, DMA or "
                           "software event (GVSoC: 6)",
    "barrier_wakeup_latency": "cycles from the awaited event to the core running (GVSoC: 2)",
    "dma_bandwidth": "DMA bytes per cycle L2 <-> TCDM: 1, 2, 4 or 8 (mchan: 8, two 32-bit ports)",
    "dma_setup_cycles": "idle cycles between the command's last word and its first data beat",
    "fpu_sharing": "private FPU per core, or gvsoc4: core % 4 share one, one divider per "
                   "cluster; a shared unit serves one operation a cycle, arbitrated like the "
                   "banks (round robin when conflict_policy is none)",
    "icache": "instruction cache: ideal (every fetch hits), rtl (hier-icache: 512 B L0 per core, "
              "4 KiB L1 in 2 banks, first free way else LFSR) or gvsoc (the same geometry, "
              "GVSoC's LFSR replacement); a miss is charged imiss",
    "icache_refill_latency": "cycles each cache level adds to a refill (GVSoC cluster.json "
                             "refill_latency: 2); an L1 miss adds l2_latency too",
    "l2_contention": "cores' L2 accesses: none (each pays l2_latency whatever the others do, "
                     "as GVSoC's routers) or axi (the cluster's AXI port to the SoC takes one "
                     "read and one write request a cycle; a loser waits, ext_mem)",
    "soc": "the pulp-open SoC around the cluster (isasim.soc): the last core is the fabric "
           "controller, started at the entry; cluster cores start through the cluster control "
           "unit; SoC control, stdout, interrupt controller, timers",
    "fc_l2_latency": "extra cycles of a fabric-controller load from L2 or the TCDM (soc)",
    "fc_l2_store_latency": "extra cycles of a fabric-controller store to L2 or the TCDM (soc)",
    "soc_periph_latency": "extra cycles of a load or store to the SoC peripherals at "
                          "0x1A000000 (soc; GVSoC's APB interconnect)",
    "sleep_in_cycle_counter": "the PCER cycle counter also counts the cycles a core sleeps "
                              "(GVSoC) instead of stopping with the core's gated clock (RTL)",
    "perf_counts_enabling_write": "the cycle and instruction counters count the CSR write "
                                  "that starts them (false: counting starts after it, GVSoC)",
    "max_cycles": "default cycle limit of a run",
}


def preset_names() -> list[str]:
    return sorted(r.name[:-5] for r in resources.files("isasim.presets").iterdir()
                  if r.name.endswith(".toml"))


def _from_mapping(data: dict, where: str, start: ClusterConfig | None = None) -> ClusterConfig:
    known = {f.name for f in dataclasses.fields(ClusterConfig)} - {"extra"}
    unknown = set(data) - known - {"base"}
    if unknown:
        raise ConfigError(f"{where}: unknown setting(s) {', '.join(sorted(unknown))}")
    cfg = start or ClusterConfig()
    try:
        cfg = dataclasses.replace(cfg, **{k: v for k, v in data.items() if k != "base"})
    except TypeError as e:
        raise ConfigError(f"{where}: {e}") from None
    for f in dataclasses.fields(ClusterConfig):
        if f.name == "extra":
            continue
        want = type(getattr(ClusterConfig(), f.name))
        got = getattr(cfg, f.name)
        if not isinstance(got, want) or (want is int and isinstance(got, bool)):
            raise ConfigError(f"{where}: {f.name} must be {want.__name__}, got {got!r}")
    try:
        cfg.validate()
    except ConfigError as e:
        raise ConfigError(f"{where}: {e}") from None
    return cfg


def load_preset(name: str) -> ClusterConfig:
    """A named preset (``pulp-open``, ``gvsoc-2022``, ``single-core``)."""
    res = resources.files("isasim.presets").joinpath(f"{name}.toml")
    if not res.is_file():
        raise ConfigError(f"unknown preset {name!r}; presets: {', '.join(preset_names())}")
    data = tomllib.loads(res.read_text())
    base = load_preset(data["base"]) if "base" in data else None
    return _from_mapping(data, f"preset {name}", base)


def read_toml(path: Path, error: type[Exception], what: str = "") -> dict:
    """The table of TOML file ``path`` (a config, a model, a choice table: ``what``); an
    ``error`` naming the file when it cannot be read, is not UTF-8 text, or is not TOML."""
    try:
        return tomllib.loads(path.read_bytes().decode("utf-8"))
    except OSError as e:
        raise error(f"cannot read {what}{path}: {e.strerror}") from None
    except UnicodeDecodeError as e:
        raise error(f"{path}: not a TOML file (byte {e.object[e.start]:#04x} at offset "
                    f"{e.start} is not UTF-8 text)") from None
    except tomllib.TOMLDecodeError as e:
        raise error(f"{path}: {e}") from None


def load_config(spec: str | Path | None) -> ClusterConfig:
    """A preset name or a TOML file path (which may start from ``base = "<preset>"``)."""
    if spec is None:
        return load_preset("pulp-open")
    path = Path(spec)
    if path.suffix == ".toml" or path.exists():
        data = read_toml(path, ConfigError)
        base = load_preset(data["base"]) if "base" in data else load_preset("pulp-open")
        return _from_mapping(data, str(path), base)
    return load_preset(str(spec))
