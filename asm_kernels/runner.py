"""Run one catalogue kernel on the simulated cluster, with numpy arrays in and out.

The runner links the kernel's assembly file with a small SPMD driver (every core: ``a0`` = the
argument structure, ``a1`` = the number of cores, call the kernel, meet in hardware barrier 0;
once, or more times to measure with warm caches; exit), places the operand arrays
in TCDM or L2, fills the argument structure, runs, and reads the outputs back.  The assembled
program depends only on the kernel, so it is built once per process and reused.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np

from asm_kernels.catalogue import Kernel, kernel, kernel_dir, program_isa
from isasim.config import ClusterConfig, load_config
from isasim.machine import Machine
from isasim.result import RunResult
from toolchain.asm import assemble
from toolchain.program import Program

ARGS_BYTES = 256          # room for the argument structure at the start of the program's TCDM
DEFAULT_STACK = 512       # bytes of stack per core (kernels spill callee-saved registers only)
ALIGN = 16

DRIVER = """
    .section .l1.args, "aw"
    .p2align 4
    .globl __kernel_args
__kernel_args:
    .zero {args_bytes}
    .text
    .globl _start
_start:
{calls}    li a0, 0
    li a7, 93
    ecall
"""
CALL = """
    la a0, __kernel_args
    li a1, {cores}
    call {entry}
    li t0, {eu_demux}
    li t1, {core_mask}
    sw t1, 0x200(t0)          # hardware barrier 0: every core triggers ...
    sw t1, 0x20c(t0)          # ... and every core is woken
    li t1, 1 << 16
    sw t1, 0x8(t0)            # listen to the barrier event
    p.elw t1, 0x21c(t0)       # trigger, wait, clear
"""


class KernelArgumentError(ValueError):
    """Arguments that do not match the kernel's structure or constraints, or do not fit."""


@dataclass
class KernelRun:
    outputs: dict[str, np.ndarray]
    result: RunResult
    addresses: dict[str, int]
    machine: Machine

    @property
    def cycles(self) -> int:
        return self.result.total_cycles


@functools.cache
def kernel_program(name: str, cores: int, eu_demux: int, family: str,
                   calls: int = 1) -> Program:
    """Driver + kernel, assembled once per (kernel, core count, calls)."""
    k = kernel(name)
    call = CALL.format(entry=k.entry, eu_demux=eu_demux, cores=cores,
                       core_mask=(1 << cores) - 1)
    driver = DRIVER.format(args_bytes=ARGS_BYTES, calls=call * calls)
    return assemble(driver + "\n" + k.source(), filename=k.file, family=family,
                    include_dirs=[kernel_dir()])


class Allocator:
    """Bump allocation of operand arrays in TCDM (below the stacks) and L2 (after the code)."""

    def __init__(self, program: Program, cfg: ClusterConfig, stack_bottom: int) -> None:
        tcdm_end_used = cfg.tcdm_base
        l2_end_used = cfg.l2_base
        for s in program.sections:
            if not s.alloc:
                continue
            if cfg.tcdm_base <= s.addr < cfg.tcdm_end:
                tcdm_end_used = max(tcdm_end_used, s.end)
            elif cfg.l2_base <= s.addr < cfg.l2_end:
                l2_end_used = max(l2_end_used, s.end)
        self.next = {"tcdm": _align(tcdm_end_used), "l2": _align(l2_end_used)}
        self.limit = {"tcdm": stack_bottom, "l2": cfg.l2_end}

    def alloc(self, place: str, nbytes: int, what: str) -> int:
        if place not in self.next:
            raise KernelArgumentError(f"{what}: place must be 'tcdm' or 'l2', not {place!r}")
        addr = self.next[place]
        end = addr + max(nbytes, 4)
        if end > self.limit[place]:
            free = self.limit[place] - addr
            raise KernelArgumentError(f"{what}: {nbytes} bytes do not fit in {place} "
                                      f"({free} bytes left, {end - self.limit[place]} short)")
        self.next[place] = _align(end)
        return addr


def _align(x: int) -> int:
    return (x + ALIGN - 1) & ~(ALIGN - 1)


def run_kernel(name: str, args: Mapping[str, object], *, outputs: Iterable[str] = (),
               cores: int = 8, config: str | ClusterConfig = "pulp-open",
               place: str | Mapping[str, str] = "tcdm", max_cycles: int | None = None,
               calls: int = 1, **overrides) -> KernelRun:
    """Run kernel ``name``; ``args`` gives every field of its argument structure.

    ``calls``: how many times the driver calls the kernel, every core meeting in the barrier
    after each call (the later calls find the instruction caches warm).

    Pointer fields take numpy arrays (written to memory before the run; the names listed in
    ``outputs`` are read back after it, same shape and dtype).  i32 / f32 fields take numbers.
    ``place`` puts arrays in "tcdm" or "l2" (one place for all, or a mapping by field name).
    """
    k = kernel(name)
    values = {n: v for n, v in args.items() if not isinstance(v, np.ndarray)}
    _check_fields(k, args)
    why = k.violated(values)
    if why:
        raise KernelArgumentError(f"kernel {name}: constraint {why!r} does not hold for {values}")
    cfg = config if isinstance(config, ClusterConfig) else load_config(config)
    cfg = cfg.replace(cores=cores, stack_size=overrides.pop("stack_size", DEFAULT_STACK),
                      **overrides)
    # each kernel is written for one register-file model (its catalogue isa), whatever the
    # preset's: the preset's ISA with the kernel's model
    program = kernel_program(name, cores, cfg.eu_demux, program_isa(k, cfg.xpulp), calls)
    machine = Machine(cfg).load(program)
    alloc = Allocator(program, cfg, machine.stack_top(cores - 1) - cfg.stack_size)
    addresses: dict[str, int] = {}
    words = np.zeros(len(k.args.fields), dtype=np.uint32)
    for i, (fname, kind) in enumerate(k.args.fields):
        v = args[fname]
        if kind == "ptr":
            arr = np.ascontiguousarray(v)
            where = place if isinstance(place, str) else place.get(fname, "tcdm")
            addr = alloc.alloc(where, arr.nbytes, fname)
            machine.write(addr, arr)
            addresses[fname] = addr
            words[i] = addr
        elif kind == "f32":
            words[i] = np.float32(v).view(np.uint32)
        else:
            words[i] = np.int32(v).view(np.uint32)
    machine.write("__kernel_args", words)
    result = machine.run(max_cycles)
    out = {}
    for fname in outputs:
        ref = np.asarray(args[fname])
        got = machine.read(addresses[fname], ref.size, ref.dtype)
        out[fname] = got.reshape(ref.shape)
    return KernelRun(out, result, addresses, machine)


def _check_fields(k: Kernel, args: Mapping[str, object]) -> None:
    names = {n for n, _ in k.args.fields}
    missing = names - set(args)
    extra = set(args) - names
    if missing or extra:
        raise KernelArgumentError(
            f"kernel {k.name} takes {', '.join(n for n, _ in k.args.fields)}"
            + (f"; missing {', '.join(sorted(missing))}" if missing else "")
            + (f"; unknown {', '.join(sorted(extra))}" if extra else ""))
    for n, kind in k.args.fields:
        if kind == "ptr" and not isinstance(args[n], np.ndarray):
            raise KernelArgumentError(f"kernel {k.name}: {n} must be a numpy array")
