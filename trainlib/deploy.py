"""One program that trains a model for N steps on the cluster, with no host in the loop.

``deploy(model, steps)`` turns the whole-step memory plan (``trainlib.memplan``) into one
assembly program, PULP-TrainLib's TrainLib Deployer style:

* the input sample, the target and the initial parameters are data of the program (L2,
  symbols ``input``, ``target``, ``param_<layer>_<weight|bias>``, and the fp32 master copies
  ``master_<layer>_<weight|bias>`` of a 16-bit model with master weights), each in the
  format of the layer that computes with it; with the tensors resident in TCDM a load routine
  copies them in by DMA first and a store routine copies the parameters back at the end, so
  the final parameters are at those symbols either way;
* one routine per phase (``phase_<layer>_<step>``): core 0 copies the phase's argument block
  (call structures, DMA descriptors; addresses resolved by the assembler) from L2 into the
  TCDM argument window, every core meets in a barrier, then the phase's items run exactly as
  in a separate step run (``trainlib.driver.item_lines``: kernel calls each closed by a
  barrier, DMA of every tile between L2 and TCDM); a step constant (the zero row 16-bit
  matmuls pad odd-K rows from) is copied from its L2 symbol ``const_<name>`` into the phase's
  buffer in the same DMA batch as the argument block;
* a loop of N steps calls the phases in order; after the loss phase core 0 stores the loss at
  ``__deploy_losses[step]`` and prints ``step <i> loss <d.dddddde+xx> (0x<bits>)`` through
  semihosting (the decimal from fp32 arithmetic, the hexadecimal bits exact);
* core 0 writes ``mcycle`` into ``__deploy_stamps`` before every phase and at the end of every
  step (per-phase cycles of every step, read back by ``DeployRun``);
* every core records (phase, step) in ``__deploy_where`` when it enters a phase, and a trap
  handler prints ``deploy: core C faulted in step S of N, phase <layer> <step>`` before it
  uninstalls itself and returns to the faulting instruction, which then faults again and ends
  the run with the simulator's own report (core, pc, disassembly, cycle).  A fault inside a
  phase routine itself (a barrier deadlock, a DMA misuse) is named by the routine's symbol.
"""

from __future__ import annotations

import dataclasses
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from isasim.config import ClusterConfig, load_config
from isasim.machine import Machine
from toolchain.elf import write_elf
from toolchain.program import Program
from toolchain.table import parse_selection
from trainlib.choices import ChoiceTable
from trainlib.driver import (
    BARRIER,
    DMA_EVENT,
    DMA_INC,
    DMA_TO_TCDM,
    Issue,
    Item,
    _assemble,
    _stamp,
    arg_values,
    args_layout,
    check_transfers,
    dma_values,
    for_core,
    item_lines,
    kernel_dir,
    kernels_of,
    program_source,
    setup_lines,
    wait_dma_lines,
    word_of,
)
from trainlib.driver import Call as DriverCall
from trainlib.driver import DriverProgram as _Program
from trainlib.errors import ModelError, PlanError, SimulationError
from trainlib.formats import decode, encode, raw_dtype
from trainlib.memplan import (
    ARGS,
    MemPlan,
    Tensor,
    copy_items,
    plan_memory,
    symbol_part,
)
from trainlib.model import Model, Params
from trainlib.planner import aligned
from trainlib.schedule import items_and_buffers

SEMIHOST = [".option push", ".option norvc", "    slli x0, x0, 0x1f", "    ebreak",
            "    srai x0, x0, 7", ".option pop"]
SH_WRITE0 = 4


class Sym:
    """A symbolic address ``symbol + offset``: the assembler resolves it in the program."""

    def __init__(self, symbol: str, offset: int = 0) -> None:
        self.symbol, self.offset = symbol, offset

    def __add__(self, k: int) -> Sym:
        return Sym(self.symbol, self.offset + int(k))

    def __str__(self) -> str:
        return f"{self.symbol} + {self.offset}" if self.offset else self.symbol


@dataclass
class Routine:
    """A routine of the program: its symbol, what it does, its items and buffer addresses."""

    symbol: str
    title: str
    items: list[Item]
    addresses: dict[str, Sym]
    window: Sym                         # where its arguments are copied (s3)
    sizes: dict[str, int]               # element bytes of each buffer (a Ref's offset unit)
    # step constants (a zero row for padding): the buffer's address, the L2 symbol of its
    # value, bytes; core 0 copies them in with the arguments
    consts: list[tuple[Sym, str, int]] = dataclasses.field(default_factory=list)


@dataclass
class Deployment:
    """A deployed training program: the plan, the routines, the assembly and the program."""

    plan: MemPlan
    steps: int
    cfg: ClusterConfig
    routines: list[Routine]
    driver: str                         # the generated assembly (without the kernels)
    files: tuple[str, ...]              # kernel files of the catalogue it includes
    program: Program
    # (layer, weight|bias) -> (symbol, shape, element format) of the trained parameter: the
    # fp32 master copy where the layer has one, else the parameter itself
    param_symbols: dict[tuple[str, str], tuple[str, tuple[int, ...], str]]

    def write(self, path: str | Path) -> Path:
        write_elf(self.program, path)
        return Path(path)

    def emit_asm(self, directory: str | Path, name: str = "net") -> Path:
        """Write the whole source (generated routines, then the kernel files) and the macro
        files it includes, so ``isasim asm DIR/NAME.s`` rebuilds the program."""
        d = Path(directory)
        d.mkdir(parents=True, exist_ok=True)
        out = d / f"{name}.s"
        out.write_text(program_source(self.driver, self.files))
        for inc in kernel_dir().iterdir():
            if inc.name.endswith(".inc"):
                with inc.open("rb") as src, (d / inc.name).open("wb") as dst:
                    shutil.copyfileobj(src, dst)
        return out


# ---- addresses ----------------------------------------------------------------------------------
def _home(t: Tensor) -> Sym:
    """Where a model tensor is during the step."""
    if t.persistent and t.place == "l2":
        return Sym(data_symbol(t.name))
    return Sym("__deploy_l1" if t.place == "tcdm" else "__deploy_l2", t.offset)


CONST = "const."                 # a step's constant (``StepSpec.consts``), by name


def data_symbol(name: str) -> str:
    """The program symbol of a persistent tensor: input, target, param_<layer>_<p>,
    master_<layer>_<p> (an fp32 master copy), const_<name> (a step's constant)."""
    kind, dot, rest = name.partition(".")
    if kind in ("param", "master"):
        layer, _, p = rest.rpartition(".")
        return f"{kind}_" + symbol_part(f"{layer}_{p}")
    if kind == "const":
        return "const_" + symbol_part(rest)
    return name


def _phase_routines(plan: MemPlan) -> list[Routine]:
    out = []
    for p, ph in enumerate(plan.phases):
        items, bufs = items_and_buffers(ph.spec, ph.plan.tiling, resident=ph.resident)
        own = {t.name for t in ph.spec.tensors}
        local = {t.name.rpartition("/")[2]: t for t in plan.locals[p]}
        addresses = {}
        for b in bufs:
            if b.name in own and b.name not in local:
                addresses[b.name] = _home(plan.tensors[ph.binds[b.name]])
            else:
                addresses[b.name] = Sym("__deploy_l1", local[b.name].offset)
        check_transfers(_Program(bufs, items, f"layer {ph.title}"))
        consts = [(addresses[b.name], data_symbol(CONST + b.name), aligned(b.nbytes))
                  for b in bufs if b.name in ph.spec.consts]
        out.append(Routine(ph.symbol, f"layer {ph.layer} {ph.step}", items, addresses,
                           Sym("__deploy_l1", local[ARGS].offset),
                           {b.name: b.element_bytes for b in bufs}, consts))
    return out


def _copy_routine(plan: MemPlan, to_tcdm: bool) -> Routine:
    """Resident tensors: copy the persistent ones L2 -> TCDM (load) or the parameters back."""
    addresses: dict[str, Sym] = {}
    for t in plan.tensors.values():
        if t.persistent:
            addresses[t.name] = _home(t)
            addresses[t.name + "@l2"] = Sym(data_symbol(t.name))
    what = "load" if to_tcdm else "store"
    return Routine(f"__deploy_{what}", f"{what} of the resident tensors",
                   copy_items(plan.tensors, to_tcdm), addresses, Sym("__deploy_args"),
                   dict.fromkeys(addresses, 1))             # copy_items: offsets in bytes


# ---- code generation ---------------------------------------------------------------------------
def _words(r: Routine) -> list[str]:
    """The routine's argument block: the words ``item_lines`` finds at its offsets."""
    out: list[str] = []
    for it in r.items:
        if isinstance(it, DriverCall):
            for kind, v in arg_values(it, r.addresses, r.sizes):
                out.append(str(v) if isinstance(v, Sym) else f"{word_of(kind, v):#x}")
        elif isinstance(it, Issue):
            for j, t in enumerate(it.transfers):
                vals = dma_values(t, r.addresses, j == len(it.transfers) - 1, r.sizes)
                out += [str(v) if isinstance(v, Sym) else f"{int(v):#x}" for v in vals]
    return out


def _routine_text(k: int, r: Routine, cores: int) -> list[str]:
    lay = args_layout(r.items)
    nbytes = lay.stamps
    lines = ["", "    .text", "    .p2align 2", f"    .globl {r.symbol}",
             f"{r.symbol}:                  # {r.title}",
             "    addi sp, sp, -16", "    sw ra, 12(sp)",
             f"    li t0, {k}", "    sw t0, 0(s5)               # where: this routine ...",
             "    sw s4, 4(s5)               # ... in this step",
             f"    la s3, {r.window}          # its argument window"]
    if nbytes >= 1 << 17:
        raise PlanError(f"{r.title}: {nbytes} bytes of arguments exceed one DMA transfer "
                        f"(17-bit length); give it larger tiles")
    copies = ([("s3", f"__args_{k}", nbytes)] if nbytes else []) + [
        (str(dst), src, n) for dst, src, n in r.consts]
    if copies:
        lines += [f"    bnez s0, .Lr{k}_copied",
                  "    # core 0: this routine's arguments -> the TCDM window, constants -> "
                  "their buffers"]
        for j, (dst, src, n) in enumerate(copies):
            cmd = n | DMA_INC | DMA_TO_TCDM | (DMA_EVENT if j == len(copies) - 1 else 0)
            lines += [f"    li t0, {cmd:#x}", "    sw t0, 0(s2)"]
            lines += ["    sw s3, 0(s2)"] if dst == "s3" else [f"    la t0, {dst}",
                                                               "    sw t0, 0(s2)"]
            lines += [f"    la t0, {src}", "    sw t0, 0(s2)"]
        lines += [f".Lr{k}_copied:", *wait_dma_lines(f".Lr{k}_waited")]
    lines += [BARRIER, *_stamp(0, lay.stamps, f".Lr{k}_stamp0"),
              *item_lines(r.items, cores, tag=f"r{k}_"),
              "    lw ra, 12(sp)", "    addi sp, sp, 16", "    ret"]
    words = _words(r)
    data = ["", "    .data", "    .p2align 2", f"__args_{k}:                # {r.title}"]
    data += [f"    .word {', '.join(words[i:i + 6])}" for i in range(0, len(words), 6)]
    return lines + data


def _main_text(plan: MemPlan, steps: int, cfg: ClusterConfig, resident: bool) -> list[str]:
    n_ph = len(plan.phases)
    loss_phase = next(p for p, ph in enumerate(plan.phases) if ph.work.kind == "loss")
    loss_at = _home(plan.tensors["loss"])
    lines = ["    .text", "    .globl _start", "_start:",
             *setup_lines(cfg.cores, cfg.eu_demux, cfg.dma_demux, "__deploy_args"),
             "    la t0, __deploy_where", "    slli t1, s0, 3", "    add s5, t0, t1",
             "    la t0, __deploy_trap", "    csrw mtvec, t0", "    li s4, 0",
             "    la s6, __deploy_stamps",
             "    p.elw t0, 0x21c(s1)        # barrier: start together"]
    if resident:
        lines.append("    call __deploy_load")
    lines.append(".Ldeploy_step:")
    for p, ph in enumerate(plan.phases):
        lines += [f"    bnez s0, .Lm{p}", "    csrr t0, mcycle", f"    sw t0, {4 * p}(s6)",
                  f".Lm{p}:", f"    call {ph.symbol}"]
        if p == loss_phase:
            lines += [f"    bnez s0, .Lm{p}_loss", f"    la a0, {loss_at}",
                      "    call __deploy_loss", f".Lm{p}_loss:"]
    lines += ["    bnez s0, .Lm_end", "    csrr t0, mcycle", f"    sw t0, {4 * n_ph}(s6)",
              ".Lm_end:", f"    addi s6, s6, {4 * (n_ph + 1)}", "    addi s4, s4, 1",
              f"    li t0, {steps}", "    blt s4, t0, .Ldeploy_step"]
    if resident:
        lines += [f"    li s4, {steps - 1}              # (a fault report names the last step)",
                  "    call __deploy_store"]
    lines += ["    csrw mtvec, zero", "    li a0, 0", "    li a7, 93", "    ecall"]
    return lines


# ``catf``'s FP registers on a core that keeps FP values in the x registers (zfinx): x
# registers no ``__deploy_cat*`` routine and no caller of them holds a value in
CATF_ZFINX = {"ft0": "a2", "ft1": "a3", "ft2": "a4", "ft3": "a5", "fmv.w.x": "mv"}


def _support_text(steps: int, title_bytes: int, zfinx: bool = False) -> list[str]:
    """Text formatting, printing (one semihosting SYS_WRITE0 per line, so lines of several
    cores never interleave), the loss report and the trap handler.

    The ``__deploy_cat*`` routines append to the buffer at a1 and leave a1 at the new end
    (the terminating NUL); they use t0-t4, a0 and (``catf``) ft0-ft3, or a2-a5 with
    ``zfinx`` (``CATF_ZFINX``).
    """
    if zfinx:
        names = re.compile(r"(?<![\w.])(" + "|".join(map(re.escape, CATF_ZFINX)) + r")(?![\w.])")
        return [names.sub(lambda m: CATF_ZFINX[m.group(1)], line)
                for line in _support_text(steps, title_bytes)]
    frame = (len(TRAP_SAVED) * 4 + 64 + title_bytes + 15) // 16 * 16
    return [
        "", "    .text", "    .p2align 2",
        "__deploy_puts:                 # a1 = NUL-terminated string",
        f"    li a0, {SH_WRITE0}", *SEMIHOST, "    ret",
        "__deploy_cat:                  # a0 = string",
        "    lbu t0, 0(a0)", "    sb t0, 0(a1)", "    beqz t0, .Lcat_end", "    addi a0, a0, 1",
        "    addi a1, a1, 1", "    j __deploy_cat", ".Lcat_end:", "    ret",
        "__deploy_catu:                 # a0 = unsigned, in decimal",
        "    mv t0, a1", "    li t1, 10",
        ".Lcatu_digit:", "    remu t2, a0, t1", "    divu a0, a0, t1", "    addi t2, t2, 48",
        "    sb t2, 0(a1)", "    addi a1, a1, 1", "    bnez a0, .Lcatu_digit",
        "    sb zero, 0(a1)", "    addi t1, a1, -1",
        ".Lcatu_reverse:", "    bgeu t0, t1, .Lcatu_end", "    lbu t2, 0(t0)",
        "    lbu t3, 0(t1)", "    sb t3, 0(t0)", "    sb t2, 0(t1)", "    addi t0, t0, 1",
        "    addi t1, t1, -1", "    j .Lcatu_reverse", ".Lcatu_end:", "    ret",
        "__deploy_cathex:               # a0 = word, as 8 hex digits",
        "    li t0, 8",
        ".Lcathex_digit:", "    srli t2, a0, 28", "    slli a0, a0, 4", "    li t3, 10",
        "    blt t2, t3, .Lcathex_dec", "    addi t2, t2, 39", ".Lcathex_dec:",
        "    addi t2, t2, 48", "    sb t2, 0(a1)", "    addi a1, a1, 1", "    addi t0, t0, -1",
        "    bnez t0, .Lcathex_digit", "    sb zero, 0(a1)", "    ret",
        "__deploy_catf:                 # a0 = float32 bits, as d.dddddde+xx",
        "    bgez a0, .Lcatf_pos", "    li t0, 45", "    sb t0, 0(a1)", "    addi a1, a1, 1",
        "    slli a0, a0, 1", "    srli a0, a0, 1", ".Lcatf_pos:",
        "    srli t0, a0, 23", "    li t1, 255", "    bne t0, t1, .Lcatf_finite",
        "    slli t0, a0, 9", "    la a0, .Ls_inf", "    beqz t0, __deploy_cat",
        "    la a0, .Ls_nan", "    j __deploy_cat", ".Lcatf_finite:",
        "    bnez a0, .Lcatf_nonzero", "    la a0, .Ls_zero", "    j __deploy_cat",
        ".Lcatf_nonzero:",
        "    fmv.w.x ft0, a0", "    li t0, 0x41200000", "    fmv.w.x ft1, t0",
        "    li t0, 0x3f800000", "    fmv.w.x ft2, t0", "    li t2, 0",
        ".Lcatf_down:", "    fle.s t0, ft1, ft0", "    beqz t0, .Lcatf_up",
        "    fdiv.s ft0, ft0, ft1", "    addi t2, t2, 1", "    j .Lcatf_down",
        ".Lcatf_up:", "    flt.s t0, ft0, ft2", "    beqz t0, .Lcatf_digits",
        "    fmul.s ft0, ft0, ft1", "    addi t2, t2, -1", "    j .Lcatf_up",
        ".Lcatf_digits:", "    li t1, 0",
        ".Lcatf_digit:", "    fcvt.w.s t0, ft0, rtz", "    li t4, 9",
        "    ble t0, t4, .Lcatf_clamped", "    mv t0, t4", ".Lcatf_clamped:",
        "    fcvt.s.w ft3, t0", "    fsub.s ft0, ft0, ft3", "    fmul.s ft0, ft0, ft1",
        "    addi t0, t0, 48", "    sb t0, 0(a1)", "    addi a1, a1, 1",
        "    bnez t1, .Lcatf_nodot", "    li t0, 46", "    sb t0, 0(a1)", "    addi a1, a1, 1",
        ".Lcatf_nodot:", "    addi t1, t1, 1", "    li t0, 7", "    blt t1, t0, .Lcatf_digit",
        "    li t0, 101", "    sb t0, 0(a1)", "    li t0, 43", "    bgez t2, .Lcatf_esign",
        "    li t0, 45", "    neg t2, t2", ".Lcatf_esign:", "    sb t0, 1(a1)",
        "    li t1, 10", "    divu t0, t2, t1", "    addi t0, t0, 48", "    sb t0, 2(a1)",
        "    remu t0, t2, t1", "    addi t0, t0, 48", "    sb t0, 3(a1)", "    sb zero, 4(a1)",
        "    addi a1, a1, 4", "    ret",
        "",
        "__deploy_loss:                 # core 0, a0 = the loss tensor, s4 = step",
        "    addi sp, sp, -80", "    sw ra, 76(sp)", "    sw s7, 72(sp)", "    lw s7, 0(a0)",
        "    la t0, __deploy_losses", "    slli t1, s4, 2", "    add t0, t0, t1",
        "    sw s7, 0(t0)", "    mv a1, sp",
        "    la a0, .Ls_step", "    call __deploy_cat",
        "    addi a0, s4, 1", "    call __deploy_catu",
        "    la a0, .Ls_loss", "    call __deploy_cat",
        "    mv a0, s7", "    call __deploy_catf",
        "    la a0, .Ls_hex", "    call __deploy_cat",
        "    mv a0, s7", "    call __deploy_cathex",
        "    la a0, .Ls_close", "    call __deploy_cat",
        "    mv a1, sp", "    call __deploy_puts",
        "    lw s7, 72(sp)", "    lw ra, 76(sp)", "    addi sp, sp, 80", "    ret",
        "",
        "    .p2align 2",
        "__deploy_trap:                 # name the phase and step, then fault again unhandled",
        f"    addi sp, sp, -{frame}",
        *[f"    sw {r}, {4 * i}(sp)" for i, r in enumerate(TRAP_SAVED)],
        "    csrw mtvec, zero",
        "    csrr s8, mhartid", "    andi s8, s8, 0x1f",
        "    la t0, __deploy_where", "    slli t1, s8, 3", "    add s9, t0, t1",
        f"    addi a1, sp, {4 * len(TRAP_SAVED)}",
        "    la a0, .Ls_fault_core", "    call __deploy_cat",
        "    mv a0, s8", "    call __deploy_catu",
        "    la a0, .Ls_fault_step", "    call __deploy_cat",
        "    lw a0, 4(s9)", "    addi a0, a0, 1", "    call __deploy_catu",
        "    la a0, .Ls_fault_of", "    call __deploy_cat",
        "    lw t0, 0(s9)", "    slli t0, t0, 2", "    la t1, __deploy_titles",
        "    add t0, t0, t1", "    lw a0, 0(t0)", "    call __deploy_cat",
        "    la a0, .Ls_newline", "    call __deploy_cat",
        f"    addi a1, sp, {4 * len(TRAP_SAVED)}", "    call __deploy_puts",
        *[f"    lw {r}, {4 * i}(sp)" for i, r in enumerate(TRAP_SAVED)],
        f"    addi sp, sp, {frame}", "    mret",
        "",
        "    .section .rodata",
        ".Ls_step:", '    .asciz "step "', ".Ls_loss:", '    .asciz " loss "',
        ".Ls_hex:", '    .asciz " (0x"', ".Ls_close:", '    .asciz ")\\n"',
        ".Ls_newline:", '    .asciz "\\n"',
        ".Ls_inf:", '    .asciz "inf"', ".Ls_nan:", '    .asciz "nan"',
        ".Ls_zero:", '    .asciz "0.000000e+00"',
        ".Ls_fault_core:", '    .asciz "deploy: core "',
        ".Ls_fault_step:", '    .asciz " faulted in step "',
        ".Ls_fault_of:", f'    .asciz " of {steps}, "',
    ]


TRAP_SAVED = ("ra", "t0", "t1", "t2", "t3", "t4", "a0", "a1", "s8", "s9")


def _data_text(plan: MemPlan, routines: list[Routine], steps: int, cores: int,
               data: dict[str, tuple[np.ndarray, str]]) -> list[str]:
    n_ph = len(plan.phases)
    lines = ["", "    .section .l1.args, \"aw\"", "    .p2align 4", "__deploy_args:",
             f"    .zero {max(plan.args_bytes, 16)}",
             "", "    .section .l1.arena, \"aw\", @nobits", "    .p2align 4", "__deploy_l1:",
             f"    .zero {max(plan.tcdm_arena, 4)}",
             "", "    .section .bss.deploy, \"aw\", @nobits", "    .p2align 4", "__deploy_l2:",
             f"    .zero {max(plan.l2_arena, 4)}",
             "    .globl __deploy_losses", "__deploy_losses:", f"    .zero {4 * steps}",
             "    .globl __deploy_stamps", "__deploy_stamps:",
             f"    .zero {4 * steps * (n_ph + 1)}",
             "    .globl __deploy_where", "__deploy_where:", f"    .zero {8 * cores}",
             "", "    .data"]
    for name, (arr, fmt) in data.items():
        raw = encode(arr, fmt).view(np.uint8)
        padded = np.zeros(aligned(raw.size), np.uint8)     # what the tensor's TCDM slot takes
        padded[:raw.size] = raw
        words = padded.view("<u4")
        sym = data_symbol(name)
        lines += ["    .p2align 4", f"    .globl {sym}", f"{sym}:                # {name}"]
        lines += [f"    .word {', '.join(f'{w:#010x}' for w in words[i:i + 8])}"
                  for i in range(0, len(words), 8)]
    lines += ["", "    .section .rodata", "    .p2align 2", "__deploy_titles:"]
    lines += [f"    .word .Ltitle{k}" for k in range(len(routines))]
    for k, r in enumerate(routines):
        title = r.title.replace("\\", "\\\\").replace('"', '\\"')
        lines += [f".Ltitle{k}:", f'    .asciz "{title}"']
    return lines


def _initial_data(model: Model, plan: MemPlan) -> dict[str, tuple[np.ndarray, str]]:
    """Every persistent tensor's initial value and element format.  The fp32 sample, target
    and parameters are rounded to nearest-even into a 16-bit format (``formats.encode``), as
    the step runs of ``trainlib train`` write them; a master copy keeps the fp32 value."""
    x, target = model.sample()
    params = model.initial_params()
    out: dict[str, tuple[np.ndarray, str]] = {}
    for name, t in plan.tensors.items():
        if not t.persistent:
            continue
        if name == "input":
            value = x
        elif name == "target":
            value = target
        else:
            layer, _, p = name.partition(".")[2].rpartition(".")
            value = params[layer][p]
        out[name] = (value, t.fmt)
    # parameters no phase touches (frozen, before the backward's end) still get a symbol
    for layer, ps in params.items():
        for p, v in ps.items():
            out.setdefault(f"param.{layer}.{p}", (v, model.precision_of(layer)))
    for name in sorted({k for ph in plan.phases for k in ph.spec.consts}):
        out[CONST + name] = (_const(plan, name), "fp32")
    return out


def _const(plan: MemPlan, name: str) -> np.ndarray:
    """A step constant's value: the largest of the phases' (equal where they overlap)."""
    values = [ph.spec.consts[name] for ph in plan.phases if name in ph.spec.consts]
    big = max(values, key=lambda v: v.size)
    if any(not np.array_equal(v, big[:v.size]) for v in values):
        raise PlanError(f"step constant {name}: phases give it different values")
    return big


def deploy(model: Model, steps: int, *, cores: int = 8, config: str | ClusterConfig = "pulp-open",
           memory: str | None = None, order: str = "conventional",
           choices: ChoiceTable | None = None, l2_budget: int | None = None) -> Deployment:
    """The program that trains ``model`` for ``steps`` steps (see the module docstring)."""
    if steps < 1:
        raise PlanError("--steps must be at least 1")
    cfg = deploy_config(config, cores)
    _check_symbols(model)
    plan = plan_memory(model, cfg, memory, order, choices, l2_budget)
    resident = any(t.persistent and t.place == "tcdm" for t in plan.tensors.values())
    routines = _phase_routines(plan)
    if resident:
        routines += [_copy_routine(plan, True), _copy_routine(plan, False)]
    # every call runs the kernel written for the cores' register-file model (a zfinx core:
    # the ``_x`` / ``mmx_`` variants); NotAvailable names a family without one
    routines = [dataclasses.replace(r, items=for_core(r.items, cfg.xpulp)) for r in routines]
    data = _initial_data(model, plan)
    text = ["# generated by trainlib deploy: " + f"{model.name}, {steps} step(s), "
            f"{plan.describe()}"]
    text += _main_text(plan, steps, cfg, resident)
    for k, r in enumerate(routines):
        text += _routine_text(k, r, cfg.cores)
    text += _support_text(steps, max(len(r.title) for r in routines),
                          parse_selection(cfg.xpulp).zfinx)
    text += _data_text(plan, routines, steps, cfg.cores, data)
    driver = "\n".join(text) + "\n"
    items = [it for r in routines for it in r.items]
    files = tuple(sorted({k.file for k in kernels_of(items)}))
    program = _assemble(driver, files, cfg.xpulp)
    _check_layout(program, plan)
    symbols = {}
    for name, (value, fmt) in data.items():
        kind, _, rest = name.partition(".")
        layer, _, p = rest.rpartition(".")
        if kind == "master" or (kind == "param" and (layer, p) not in symbols):
            symbols[(layer, p)] = (data_symbol(name), value.shape, fmt)
    return Deployment(plan, steps, cfg, routines, driver, files, program, symbols)


def _check_symbols(model: Model) -> None:
    """Layer names become parts of symbols (``[^A-Za-z0-9_]`` -> ``_``): refuse two that would
    give the same one."""
    seen: dict[str, str] = {}
    for la in model.layers:
        part = symbol_part(la.name)
        if part in seen:
            raise ModelError(f"layers {seen[part]!r} and {la.name!r} give the same program "
                             f"symbols ({part}); rename one")
        seen[part] = la.name


def deploy_config(config: str | ClusterConfig, cores: int) -> ClusterConfig:
    """The configuration a deployed program runs on: ``config`` with ``cores``, its own stacks
    (``isasim run --cores N`` gives the program exactly this machine)."""
    cfg = config if isinstance(config, ClusterConfig) else load_config(config)
    cfg = cfg.replace(cores=cores)
    cfg.validate()
    return cfg


def _check_layout(program: Program, plan: MemPlan) -> None:
    """The TCDM the program takes ends below the stacks (the plan said it would)."""
    cfg_end = program.symbol("__deploy_l1") + plan.tcdm_arena
    start = program.symbol("__deploy_args")
    used = cfg_end - start
    if used > plan.tcdm_budget:
        raise PlanError(f"model {plan.model.name}: the program takes {used} bytes of TCDM, "
                        f"{plan.tcdm_budget} available ({used - plan.tcdm_budget} bytes short)")


# ---- running and reading back ------------------------------------------------------------------
@dataclass
class DeployRun:
    """What a deployed program left: the losses, the final parameters, per-phase cycles."""

    losses: list[float]
    loss_bits: list[int]
    params: Params
    stamps: np.ndarray                 # [step, phase + 1] core 0's mcycle
    stdout: str
    result: object

    def phase_cycles(self) -> np.ndarray:
        """Cycles of every phase of every step, [step, phase]."""
        return np.diff(self.stamps, axis=1)

    def step_cycles(self) -> np.ndarray:
        return self.stamps[:, -1] - self.stamps[:, 0]


def read_back(machine: Machine, dep: Deployment) -> DeployRun:
    """Losses, parameters and stamps from the program's symbols in the machine's memory."""
    bits = machine.read("__deploy_losses", dep.steps, np.uint32)
    params: Params = {}
    for (layer, p), (sym, shape, fmt) in dep.param_symbols.items():
        n = int(np.prod(shape))
        params.setdefault(layer, {})[p] = decode(machine.read(sym, n, raw_dtype(fmt)),
                                                 fmt).reshape(shape)
    n_ph = len(dep.plan.phases)
    stamps = machine.read("__deploy_stamps", dep.steps * (n_ph + 1), np.uint32)
    return DeployRun([float(v) for v in bits.view(np.float32)], [int(b) for b in bits], params,
                     stamps.astype(np.int64).reshape(dep.steps, n_ph + 1), "", None)


def run_deployed(dep: Deployment, *, max_cycles: int | None = None,
                 program: Program | str | Path | None = None) -> DeployRun:
    """Run the program (or its ELF file) on the machine it was built for and read it back."""
    machine = Machine(dep.cfg).load(program if program is not None else dep.program)
    result = machine.run(max_cycles)
    if result.status != "exited" or result.exit_code != 0:
        why = result.fault.format().splitlines()[0] if result.fault else ""
        raise SimulationError(f"deployed {dep.plan.model.name}: run ended with status "
                              f"{result.status} (exit {result.exit_code}) {result.stdout} {why}")
    run = read_back(machine, dep)
    run.stdout, run.result = result.stdout, result
    return run
