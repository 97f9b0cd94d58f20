"""Driver programs: a sequence of kernel calls, barriers and DMA transfers, run as one program.

``asm_kernels.runner`` runs one kernel; a training step needs several (im2row, then the matmul,
then the bias) with a barrier between them, and, when tensors live in L2, DMA transfers of
tiles into the TCDM and results back out.  A ``DriverProgram`` lists those as items:

* ``Call``     every core calls the kernel (``a0`` = its argument structure, ``a1`` = cores),
               then all meet in hardware barrier 0;
* ``Issue``    core 0 pushes a batch of DMA transfers; only the batch's last transfer asks for
               the completion event (transfers run in order, so that one ending means all did);
* ``Wait``     core 0 sleeps until the oldest batch not yet waited for has completed;
* ``Barrier``  every core meets (after core 0's ``Issue``/``Wait`` work, so the others see it).

The assembly text depends only on the item structure (which kernels, how many transfers, 1-D or
2-D), never on addresses or sizes: those are data, written into the argument area after the
program is loaded.  So a training loop that runs the same step again reuses the assembled
program (``functools.cache``), and only data moves.

Tensors are ``Buffer``s placed in TCDM or L2 by a bump allocator in program order; the plan
(``trainlib.planner``) has checked beforehand that they fit.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from asm_kernels.catalogue import Kernel, catalogue, for_isa, kernel, kernel_dir
from isasim.config import ClusterConfig, load_config
from isasim.machine import Machine
from isasim.result import RunResult
from toolchain.asm import assemble
from toolchain.program import Program
from toolchain.table import parse_selection
from trainlib.errors import NotAvailable, PlanError, SimulationError
from trainlib.formats import decode, element_bytes, encode, raw_dtype

STACK_BYTES = 512          # per core: kernels spill callee-saved registers and small tables
ALIGN = 16
DMA_WORDS = 5              # descriptor: command, TCDM address, external address, line, stride
DMA_EVENT = 1 << 20
DMA_TO_TCDM = 1 << 17
DMA_INC = 1 << 18
DMA_2D = 1 << 19
EVT_DMA = 1 << 8
EVT_BARRIER = 1 << 16


@dataclass
class Buffer:
    """A tensor in simulator memory for one run, of ``fmt`` elements (``trainlib.formats``)."""

    name: str
    size: int                               # elements
    place: str = "tcdm"                     # "tcdm" | "l2"
    init: np.ndarray | None = None          # written before the run (flattened)
    output: bool = False                    # read back after the run
    fmt: str = "fp32"                       # fp32 | fp16 | bf16

    @property
    def element_bytes(self) -> int:
        return element_bytes(self.fmt)

    @property
    def nbytes(self) -> int:
        return self.element_bytes * max(self.size, 1)


@dataclass(frozen=True)
class Ref:
    """An element offset into a buffer: what a pointer field of an argument struct gets (the
    buffer's element size scales it)."""

    buf: str
    offset: int = 0


@dataclass
class Call:
    kernel: str
    args: dict[str, Ref | int | float]
    label: str = ""                          # what this call does in its step ("mm", "im2row")


@dataclass
class Transfer:
    """One DMA command; 2-D when ``lines > 1`` (TCDM side contiguous, external side strided)."""

    tcdm: Ref
    ext: Ref
    line_bytes: int
    lines: int = 1
    stride_bytes: int = 0
    to_tcdm: bool = True

    @property
    def two_d(self) -> bool:
        return self.lines > 1 and self.stride_bytes != self.line_bytes


@dataclass
class Issue:
    transfers: list[Transfer]


@dataclass
class Wait:
    pass


@dataclass
class Barrier:
    label: str = "sync"


Item = Call | Issue | Wait | Barrier


@dataclass
class DriverProgram:
    buffers: list[Buffer]
    items: list[Item]
    label: str = ""


@dataclass
class DriverRun:
    """What one run gave: read-back outputs, the run result, and cycles per phase label.

    ``phases`` are cluster cycles between consecutive barriers as core 0's ``mcycle`` saw them,
    summed by the label of the call (or barrier) that ends the phase: how long the im2row, the
    matmul, the bias and the DMA waits of a step took.
    """

    outputs: dict[str, np.ndarray]
    result: RunResult
    addresses: dict[str, int]
    phases: dict[str, int] = field(default_factory=dict)

    @property
    def cycles(self) -> int:
        return self.result.total_cycles


# ---- code generation ------------------------------------------------------------------------
def kernels_of(items: Sequence[Item]) -> list[Kernel]:
    out: dict[str, Kernel] = {}
    for it in items:
        if isinstance(it, Call) and it.kernel not in out:
            try:
                out[it.kernel] = kernel(it.kernel)
            except KeyError:
                raise NotAvailable(f"kernel {it.kernel!r} ({it.label}) is not in the "
                                   f"asm_kernels catalogue") from None
    return list(out.values())


@dataclass(frozen=True)
class ArgsLayout:
    """Byte offsets in the argument area: call structs, DMA descriptors, phase time stamps."""

    calls: list[int]
    dma: list[int]
    stamps: int
    n_stamps: int
    size: int


def args_layout(items: Sequence[Item]) -> ArgsLayout:
    calls, dma, off = [], [], 0
    for it in items:
        if isinstance(it, Call):
            calls.append(off)
            off += kernel(it.kernel).args.size
        elif isinstance(it, Issue):
            for _ in it.transfers:
                dma.append(off)
                off += 4 * DMA_WORDS
    n_stamps = 1 + sum(isinstance(it, Call | Barrier) for it in items)
    return ArgsLayout(calls, dma, off, n_stamps, off + 4 * n_stamps)


def _stamp(i: int, off: int, label: str) -> list[str]:
    """Core 0 writes mcycle into stamp ``i`` (one per barrier: phase boundaries)."""
    return [f"    bnez s0, {label}", "    csrr t0, mcycle", *_addr("s3", off + 4 * i),
            "    sw t0, 0(a0)", f"{label}:"]


def _addr(reg: str, off: int) -> list[str]:
    """``addi a0, reg, off`` when off fits 12 bits, else li + add."""
    if off < 2048:
        return [f"    addi a0, {reg}, {off}"]
    return [f"    li a0, {off}", f"    add a0, a0, {reg}"]


def setup_lines(cores: int, eu_demux: int, dma_demux: int, args: str) -> list[str]:
    """Every core: s0 = core id, s1 = event unit, s2 = DMA, s3 = argument area ``args``;
    hardware barrier 0 spans the ``cores`` cores and is the only event listened to."""
    return [
        "    csrr s0, mhartid",
        "    andi s0, s0, 0x1f",
        f"    li s1, {eu_demux}",
        f"    li t0, {(1 << cores) - 1}",
        "    sw t0, 0x200(s1)           # barrier 0: every core triggers ...",
        "    sw t0, 0x20c(s1)           # ... and is woken",
        f"    li t0, {EVT_BARRIER}",
        "    sw t0, 0(s1)               # listen to the barrier only (DMA events stay buffered)",
        f"    li s2, {dma_demux}",
        f"    la s3, {args}",
    ]


def wait_dma_lines(label: str) -> list[str]:
    """Core 0 sleeps until the DMA completion event, then listens to the barrier again."""
    return [f"    bnez s0, {label}",
            f"    li t0, {EVT_DMA}",
            "    sw t0, 0(s1)               # listen to the DMA event ...",
            "    lw t0, 0x3c(s1)            # ... sleep until it, clear it",
            f"    li t0, {EVT_BARRIER}",
            "    sw t0, 0(s1)",
            f"{label}:"]


BARRIER = "    p.elw t0, 0x21c(s1)        # barrier"


def item_lines(items: Sequence[Item], cores: int, tag: str = "") -> list[str]:
    """The code of ``items`` (registers as ``setup_lines`` leaves them); stamp 0 is the
    caller's, ``tag`` keeps the local labels of several item lists apart in one program."""
    lay = args_layout(items)
    lines: list[str] = []
    ci = di = 0
    si = 1
    for n, it in enumerate(items, start=1):
        if isinstance(it, Call):
            k = kernel(it.kernel)
            lines.append(f"    # {it.label or 'call'}: {k.name}")
            lines += _addr("s3", lay.calls[ci])
            ci += 1
            lines += [f"    li a1, {cores}", f"    call {k.entry}", BARRIER,
                      *_stamp(si, lay.stamps, f".Lstamp{tag}{n}")]
            si += 1
        elif isinstance(it, Barrier):
            lines += [BARRIER, *_stamp(si, lay.stamps, f".Lstamp{tag}{n}")]
            si += 1
        elif isinstance(it, Issue):
            lines += [f"    bnez s0, .Ldrv{tag}{n}", "    # core 0: push a DMA batch"]
            for t in it.transfers:
                words = DMA_WORDS if t.two_d else 3
                lines += _addr("s3", lay.dma[di])
                di += 1
                for w in range(words):
                    lines += [f"    lw t0, {4 * w}(a0)", "    sw t0, 0(s2)"]
            lines.append(f".Ldrv{tag}{n}:")
        elif isinstance(it, Wait):
            lines += wait_dma_lines(f".Ldrv{tag}{n}")
    return lines


def generate(items: Sequence[Item], cores: int, eu_demux: int, dma_demux: int) -> str:
    """The driver's assembly (without the kernels)."""
    lay = args_layout(items)
    lines = [
        "    .section .l1.args, \"aw\"",
        "    .p2align 4",
        "__driver_args:",
        f"    .zero {lay.size}",
        "    .text",
        "    .globl _start",
        "_start:",
        *setup_lines(cores, eu_demux, dma_demux, "__driver_args"),
        "    p.elw t0, 0x21c(s1)        # barrier: start together",
        *_stamp(0, lay.stamps, ".Lstamp0"),
        *item_lines(items, cores),
        "    li a0, 0", "    li a7, 93", "    ecall", "",
    ]
    return "\n".join(lines)


LOCAL_LABEL = re.compile(r"\.L([A-Za-z0-9_$]+)")


@functools.lru_cache(maxsize=64)
def _assemble(driver: str, files: tuple[str, ...], family: str) -> Program:
    """One program: the driver, then each kernel file with its ``.L`` labels made unique.

    There is no linker: the files are assembled as one source, so the file-local ``.L`` labels
    two kernel files may share get a per-file prefix (``.Lk<i>_``), and the macros a kernel
    file defines itself a per-file suffix (``_local_macros``).  The macro files they
    ``.include`` (asm_kernels/*.inc) are not renamed: each is guarded to be read once per
    program, its macros number their labels per expansion (``\\@``) and take the labels of a
    kernel file as arguments.
    """
    return assemble(program_source(driver, files), filename="trainlib-driver.s",
                    family=family, include_dirs=[kernel_dir()])


MACRO_DEF = re.compile(r"^\s*\.macro\s+([A-Za-z_][\w$]*)", re.M)


def _local_macros(text: str, i: int) -> str:
    """The macros a kernel file defines itself, renamed for the file (``name_k<i>``): two
    files may define a macro of the same name (a 16-bit file and its fp32 original), and a
    macro is defined once per program.  Every whole-word use in the file's code (not in its
    comments, not a macro parameter ``\\name``, not a label ``name:``) is renamed: a macro is
    called by name, or passed by name to another macro (``pre=name``)."""
    names = list(dict.fromkeys(MACRO_DEF.findall(text)))
    if not names:
        return text
    word = re.compile(rf"(?<![\\\w.$])({'|'.join(map(re.escape, names))})\b(?![ \t]*:)")
    lines = []
    for line in text.split("\n"):
        code, hash_, comment = line.partition("#")
        lines.append(word.sub(rf"\g<1>_k{i}", code) + hash_ + comment)
    return "\n".join(lines)


def program_source(driver: str, files: Sequence[str]) -> str:
    """The one source of a program: the driver text, then the kernel files, their ``.L``
    labels and their own macros renamed per file."""
    return "\n".join([driver] + [_local_macros(LOCAL_LABEL.sub(rf".Lk{i}_\1",
                                                                kernel_source(f)), i)
                                 for i, f in enumerate(files)])


@functools.cache
def kernel_source(file: str) -> str:
    """The text of a kernel file of the catalogue (read once per process)."""
    return kernel_dir().joinpath(file).read_text()


def register_file_model(isa: str) -> str:
    """The register-file model of an ISA string, as messages name it."""
    return "single register file (zfinx)" if parse_selection(isa).zfinx else "f registers"


def core_kernel(name: str, isa: str, label: str = "") -> str:
    """The kernel a core of ``isa`` calls for a call of kernel ``name``: ``name`` when it is
    written for the core's register-file model, else its variant for that model (catalogue
    ``for_isa``: ``mm_4x2_n`` -> ``mmx_4x2_n``, ``bias_add`` -> ``bias_add_x``).  The two
    variants take the same argument structure, so only the code called changes.
    NotAvailable names the kernel family and the register-file model when there is none
    (some matmuls have no single-register-file variant, e.g. ``mm_4x6_n``: its register block
    needs more than the x registers)."""
    k = catalogue().get(name)
    if k is None or k.selection.zfinx == parse_selection(isa).zfinx:
        return name
    try:
        return for_isa(name, isa)
    except KeyError:
        what = f"{name} ({label})" if label else name
        raise NotAvailable(f"kernel {what}: family {k.family} has no variant of it for the "
                           f"{register_file_model(isa)} of {isa} (docs/kernels.md lists "
                           f"the kernels of both models)") from None


def for_core(items: Sequence[Item], isa: str) -> list[Item]:
    """``items`` with every call naming the kernel a core of ``isa`` runs (``core_kernel``)."""
    return [dataclasses.replace(it, kernel=core_kernel(it.kernel, isa, it.label))
            if isinstance(it, Call) else it for it in items]


def build_program(prog: DriverProgram, cfg: ClusterConfig) -> Program:
    """The assembled program of ``prog`` for the preset's ISA (its calls already naming that
    ISA's kernels: ``for_core``)."""
    ks = kernels_of(prog.items)
    text = generate(prog.items, cfg.cores, cfg.eu_demux, cfg.dma_demux)
    files = tuple(sorted({k.file for k in ks}))
    return _assemble(text, files, cfg.xpulp)


# ---- placement and running ------------------------------------------------------------------
def _align(x: int) -> int:
    return (x + ALIGN - 1) & ~(ALIGN - 1)


def free_memory(program: Program, cfg: ClusterConfig) -> dict[str, tuple[int, int]]:
    """[start, end) of the memory left for tensors in TCDM (below the stacks) and L2."""
    ends = {"tcdm": cfg.tcdm_base, "l2": cfg.l2_base}
    for s in program.sections:
        if not s.alloc:
            continue
        if cfg.tcdm_base <= s.addr < cfg.tcdm_end:
            ends["tcdm"] = max(ends["tcdm"], s.end)
        elif cfg.l2_base <= s.addr < cfg.l2_end:
            ends["l2"] = max(ends["l2"], s.end)
    stack_bottom = cfg.tcdm_end - cfg.cores * cfg.stack_size
    return {"tcdm": (_align(ends["tcdm"]), stack_bottom), "l2": (_align(ends["l2"]), cfg.l2_end)}


def place(buffers: Sequence[Buffer], free: dict[str, tuple[int, int]]) -> dict[str, int]:
    nxt = {k: v[0] for k, v in free.items()}
    out = {}
    for b in buffers:
        if b.place not in nxt:
            raise PlanError(f"buffer {b.name}: place must be tcdm or l2, not {b.place!r}")
        addr = nxt[b.place]
        end = addr + b.nbytes
        if end > free[b.place][1]:
            raise PlanError(f"buffer {b.name} ({b.nbytes} bytes) does not fit in {b.place}: "
                            f"{end - free[b.place][1]} bytes short")
        out[b.name] = addr
        nxt[b.place] = _align(end)
    return out


def run_config(config: str | ClusterConfig, cores: int) -> ClusterConfig:
    """The cluster configuration of a run: ``config`` with ``cores`` and the driver's stacks."""
    cfg = config if isinstance(config, ClusterConfig) else load_config(config)
    cfg = cfg.replace(cores=cores, stack_size=STACK_BYTES)
    cfg.validate()
    return cfg


def arg_values(call: Call, addresses: Mapping[str, Any],
               sizes: Mapping[str, int] | None = None) -> list[tuple[str, Any]]:
    """(kind, value) of every field of the call's argument structure, checked against the
    kernel's fields and constraints; a pointer is ``addresses[buf] + e * offset`` with ``e``
    the buffer's element bytes (``sizes``, default 4; addresses may be numbers or symbolic,
    see ``trainlib.deploy``)."""
    sizes = sizes or {}
    k = kernel(call.kernel)
    names = [n for n, _ in k.args.fields]
    missing = set(names) - set(call.args)
    extra = set(call.args) - set(names)
    if missing or extra:
        raise TypeError(f"{call.label}: kernel {k.name} takes {', '.join(names)}; "
                        f"missing {sorted(missing)}, unknown {sorted(extra)}")
    values = {n: v for n, v in call.args.items() if not isinstance(v, Ref)}
    why = k.violated(values)
    if why:
        raise NotAvailable(f"{call.label}: kernel {k.name} refuses {values}: constraint "
                           f"{why!r} does not hold")
    out: list[tuple[str, Any]] = []
    for n, kind in k.args.fields:
        v = call.args[n]
        if kind == "ptr":
            if not isinstance(v, Ref):
                raise TypeError(f"{call.label}: {k.name}.{n} needs a buffer reference")
            out.append((kind, addresses[v.buf] + sizes.get(v.buf, 4) * v.offset))
        else:
            out.append((kind, v))
    return out


def word_of(kind: str, v) -> int:
    """The 32-bit word of a numeric field value."""
    if kind == "f32":
        return int(np.float32(v).view(np.uint32))
    return int(np.int32(v).view(np.uint32)) if kind == "i32" else int(v)


def _arg_words(call: Call, addresses: dict[str, int], sizes: dict[str, int]) -> np.ndarray:
    return np.array([word_of(k, v) for k, v in arg_values(call, addresses, sizes)],
                    dtype=np.uint32)


def dma_values(t: Transfer, addresses: Mapping[str, Any], last: bool,
               sizes: Mapping[str, int] | None = None) -> list:
    """The five descriptor words of a transfer (the addresses possibly symbolic; ``sizes``:
    element bytes of the buffers, default 4)."""
    sizes = sizes or {}
    total = t.line_bytes * t.lines
    cmd = total | DMA_INC | (DMA_TO_TCDM if t.to_tcdm else 0) | (DMA_EVENT if last else 0)
    if t.two_d:
        cmd |= DMA_2D
    return [cmd, addresses[t.tcdm.buf] + sizes.get(t.tcdm.buf, 4) * t.tcdm.offset,
            addresses[t.ext.buf] + sizes.get(t.ext.buf, 4) * t.ext.offset, t.line_bytes,
            t.stride_bytes]


def _dma_words(t: Transfer, addresses: dict[str, int], last: bool,
               sizes: dict[str, int]) -> np.ndarray:
    return np.array(dma_values(t, addresses, last, sizes), dtype=np.uint32)


def check_transfers(prog: DriverProgram) -> None:
    """DMA limits the hardware enforces, checked before the run with the step's name."""
    for it in prog.items:
        if isinstance(it, Issue):
            # (a batch longer than the DMA's queues only stalls core 0 until they have room)
            for t in it.transfers:
                if t.line_bytes * t.lines >= 1 << 17:
                    raise PlanError(f"{prog.label}: DMA transfer of {t.line_bytes * t.lines} "
                                    f"bytes exceeds the 17-bit length field")


def run_driver(prog: DriverProgram, *, cores: int = 8, config: str | ClusterConfig = "pulp-open",
               max_cycles: int | None = None, machine_hook=None) -> DriverRun:
    """Assemble (cached), load, place and fill, run, read back; raise on a failed run.

    ``machine_hook(machine)`` runs the loaded machine instead of ``machine.run`` when given
    (the HTML report uses it to record an event log); it must return the RunResult.
    """
    cfg = run_config(config, cores)
    check_transfers(prog)
    prog = dataclasses.replace(prog, items=for_core(prog.items, cfg.xpulp))
    program = build_program(prog, cfg)
    machine = Machine(cfg).load(program)
    addresses = place(prog.buffers, free_memory(program, cfg))
    sizes = {b.name: b.element_bytes for b in prog.buffers}
    for b in prog.buffers:
        if b.init is not None:
            data = encode(b.init, b.fmt)
            if data.size != b.size:
                raise ValueError(f"buffer {b.name}: init has {data.size} elements, "
                                 f"buffer {b.size}")
            machine.write(addresses[b.name], data)
    base = program.symbol("__driver_args")
    lay = args_layout(prog.items)
    ci = di = 0
    for it in prog.items:
        if isinstance(it, Call):
            machine.write(base + lay.calls[ci], _arg_words(it, addresses, sizes))
            ci += 1
        elif isinstance(it, Issue):
            for j, t in enumerate(it.transfers):
                last = j == len(it.transfers) - 1
                machine.write(base + lay.dma[di], _dma_words(t, addresses, last, sizes))
                di += 1
    result = machine_hook(machine) if machine_hook else machine.run(max_cycles)
    if result.status != "exited" or result.exit_code != 0:
        why = " | ".join(result.fault.format().splitlines()[:2]) if result.fault else ""
        raise SimulationError(f"{prog.label}: run ended with status {result.status} "
                              f"(exit {result.exit_code}) {why}")
    outputs = {b.name: decode(machine.read(addresses[b.name], b.size, raw_dtype(b.fmt)), b.fmt)
               for b in prog.buffers if b.output}
    stamps = machine.read(base + lay.stamps, lay.n_stamps, np.uint32).astype(np.int64)
    return DriverRun(outputs, result, addresses, phase_cycles(prog.items, stamps))


def phase_cycles(items: Sequence[Item], stamps: np.ndarray) -> dict[str, int]:
    """Cycles between consecutive barrier stamps, summed by the label that ends each phase."""
    labels = [it.label or it.kernel if isinstance(it, Call) else it.label
              for it in items if isinstance(it, Call | Barrier)]
    out: dict[str, int] = {}
    for i, lab in enumerate(labels):
        out[lab] = out.get(lab, 0) + int(stamps[i + 1] - stamps[i])
    return out
