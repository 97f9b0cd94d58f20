"""The single-register-file (zfinx) kernels of asm_kernels/zfinx_gen.py against their originals.

* Every rewritten kernel ``k_x`` computes, under the ``gvsoc-2022`` preset (FP values in x
  registers), outputs bit-identical to those of its f-register original ``k`` run with the
  same preset's timing and separate FP registers: the rewrite keeps the operations and their
  order, so any difference is a wrong register map or a wrong move.  Inputs are random bits
  (NaNs and infinities included for the 16-bit kernels, whose arrays are read as halves), on
  shapes with leftovers (n odd and not a multiple of a group, C x HW with C < cores).
* The kernels whose routines keep values in stack slots (too many values live at once for the
  x registers) on column blocks too: several quads and tail columns per core, channel wraps.
* The checked runner (``checked_run``) catches writes past an output, writes to inputs, and
  callee-saved registers the entries' save / restore would leave changed (or sp moved).
* Kept values are reloaded and stored outside the innermost loops; every frame keeps sp a
  multiple of 16.
* A zfinx kernel is refused for a core with f registers (``usable``; its file does not assemble
  for that ISA), every generated file is current and assembles for its catalogue ISA.
* Cycle baselines (``baselines/zfinx.json``) of every rewritten kernel on 8 cores, and of the
  kernels keeping values in the stack and their originals on two column quads per core.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from asm_kernels import zfinx_gen
from asm_kernels.catalogue import catalogue, for_isa, kernel, kernel_dir, usable
from toolchain.asm import AsmError, assemble

from .checked_run import run_checked
from .cycle_baselines import check

FAMILY = "zfinx"
PRESET = "gvsoc-2022"
ZFINX_ISA = "rv32imc_zfinx_xpulpv2_xf16_xf16alt_xfvec"
F_ISA = "rv32imfc_xpulpv2_xf16_xf16alt_xfvec"
GENERATED = sorted(n for n, k in catalogue().items()
                   if k.file.endswith("_zfinx.s") and not k.file.startswith("matmul"))
ALL_X = sorted(n for n, k in catalogue().items()
               if k.name.endswith(zfinx_gen.SUFFIX) and not k.file.startswith("matmul"))
# sizes with leftovers: (n) for element streams, (C, HW) for the bias kernels, (N, M, K,
# ker_size) for the depthwise ones (M not a multiple of the column blocks, ker odd and not a
# multiple of 3 for the unrolled ones; more channels than cores in the second), count partial
# slots for the loss combines, (C, H, W, Hk, Wk, Ho, Wo, strides, pads) for pooling (padded
# windows at the edges and strides that leave columns out, then a small unpadded one)
POOL = ({"H": 7, "W": 6, "Hk": 3, "Wk": 2, "Ho": 3, "Wo": 3, "stride_h": 2, "stride_w": 2,
         "pad_top": 1, "pad_left": 1},
        {"H": 3, "W": 3, "Hk": 2, "Wk": 2, "Ho": 2, "Wo": 2, "stride_h": 1, "stride_w": 1,
         "pad_top": 0, "pad_left": 0})
SHAPES = ({"n": 37, "C": 3, "HW": 13, "N": 3, "M": 7, "K": 15, "ker_size": 5, "count": 8,
           **POOL[0]},
          {"n": 3, "C": 1, "HW": 1, "N": 5, "M": 5, "K": 10, "ker_size": 2, "count": 3,
           **POOL[1]})


def args_for(name: str, sizes: dict, seed: int) -> tuple[dict, list[str]]:
    """Arguments of kernel ``name``: every i32 field from ``sizes``, every f32 field 0.37 (a
    slope, a learning rate, a fill value), every array random words, big enough for the product
    of the i32 fields whatever its element size (and than the per-core slots of a partial)."""
    k = kernel(name)
    rng = np.random.default_rng(seed)
    ints = {f: sizes[f] for f, kind in k.args.fields if kind == "i32"}
    words = min(int(np.prod([v for v in ints.values() if v])), 4096) + 64   # + partial slots
    args: dict = {}
    for f, kind in k.args.fields:
        if kind == "ptr":
            args[f] = rng.standard_normal(words).astype(np.float32)
            if "16" in name:                    # halves: random bits, specials included
                args[f] = rng.integers(0, 2**32, words, dtype=np.uint32).view(np.float32)
        else:
            args[f] = ints[f] if kind == "i32" else 0.37
    return args, [f for f, kind in k.args.fields if kind == "ptr"]


def run(name: str, sizes: dict, cores: int, seed: int = 0) -> tuple[dict, int]:
    args, arrays = args_for(name.removesuffix(zfinx_gen.SUFFIX), sizes, seed)
    return run_checked(name, args, arrays, cores=cores, config=PRESET)


@pytest.mark.parametrize("name", GENERATED)
def test_bit_identical_to_the_f_register_kernel(name):
    original = name.removesuffix(zfinx_gen.SUFFIX)
    for i, sizes in enumerate(SHAPES):
        cores = (8, 3)[i]
        got, _ = run(name, sizes, cores, seed=i)
        want, _ = run(original, sizes, cores, seed=i)
        for f in want:
            assert np.array_equal(got[f].view(np.uint32), want[f].view(np.uint32)), \
                (name, f, sizes, cores)


@pytest.mark.parametrize("name", ALL_X)
def test_zfinx_kernels_are_usable_only_with_zfinx(name):
    k = kernel(name)
    assert usable(k, ZFINX_ISA) and not usable(k, F_ISA)
    assert for_isa(name.removesuffix(zfinx_gen.SUFFIX), ZFINX_ISA) == name
    assert for_isa(name.removesuffix(zfinx_gen.SUFFIX), F_ISA) == name.removesuffix("_x")
    assemble(k.source(), filename=k.file, family=k.isa, include_dirs=[kernel_dir()])


@pytest.mark.parametrize("name", GENERATED[:1] + GENERATED[-1:])
def test_rewritten_file_does_not_assemble_with_f_registers(name):
    k = kernel(name)
    with pytest.raises(AsmError):
        assemble(k.source(), filename=k.file, family=F_ISA, include_dirs=[kernel_dir()])


def test_all_zfinx_files_assemble_as_one_program():
    """As trainlib assembles a step's kernel files: one source, macros renamed per file."""
    from trainlib.driver import program_source
    files = tuple(sorted({k.file for k in catalogue().values() if k.regfile == "x"}))
    assemble(program_source("    .text\n_start:\n    ret\n", files), filename="all.s",
             family=ZFINX_ISA, include_dirs=[kernel_dir()])


def test_register_map_follows_liveness():
    """ft0 is live while t0 is (t0 written between ft0's load and its use): not t0.  ft1 is
    born where ft0 dies, so both take t1, the first caller-saved register free of t0."""
    src = """
    .text
    .globl k
k:
    flw ft0, 0(a0)
    lw t0, 4(a0)
    fadd.s ft1, ft0, ft0
    fsw ft1, 0(a0)
    add t0, t0, t0
    sw t0, 4(a0)
    ret
"""
    assert zfinx_gen.register_map("k.s", src, "rv32imfc_xpulpv2") == {0: 6, 1: 6}
    # the same with ft0 still read after t0's last use: ft0 and ft1 overlap
    src2 = src.replace("    ret", "    fsw ft0, 8(a0)\n    ret")
    assert zfinx_gen.register_map("k.s", src2, "rv32imfc_xpulpv2") == {0: 6, 1: 7}


def test_routines_with_too_many_live_values_keep_some_in_the_stack():
    """Per-routine maps: depthwise.s, loss.s and pooling.s are generated; the routines whose own
    values exceed the x registers keep their outer-loop counts and strides in stack slots
    (``spilled_allocation``), so none is left out any more."""
    listed = zfinx_gen.CATALOGUE.read_text()
    cat = catalogue()
    for src in ("depthwise.s", "depthwise_sp.s", "loss.s", "pooling.s", "pooling_fp16.s",
                "loss_bf16.s"):
        assert (zfinx_gen.HERE / src.replace(".s", "_zfinx.s")).exists(), src
    assert "Not generated" not in listed
    assert set(KEPT) == {"mm_dw_1x4_u2", "mm_dw_in_grad_1x4_u2", "mm_dw_sp_1x4",
                         "mm_dw_in_grad_sp_1x4", "mm_dw_in_grad_sp_1x4_fp16",
                         "mm_dw_in_grad_sp_1x4_bf16"}
    # the channel loop's index, end, group count and channel stride: none in the ker loop
    assert KEPT["mm_dw_1x4_u2"] == ["t0", "t1", "t2", "a6"]
    assert "mm_dw_fp16_x" in cat and "mm_dw_in_grad_bf16_x" in cat   # with the loads sunk
    for name in ("mm_dw_x", "mm_dw_in_grad_x", "ce_partial_x", "mse_grad_fp16_x",
                 "avgpool_fw_bf16_x", "maxpool_bw_x", *(k + zfinx_gen.SUFFIX for k in KEPT)):
        assert cat[name].regfile == "x", name


def kept_in_stack() -> dict[str, list[str]]:
    """Entry -> the x registers its routine keeps in stack slots, from the generated headers."""
    out = {}
    for path in sorted(zfinx_gen.HERE.glob("*_zfinx.s")):
        for m in re.finditer(r"(?m)^# kept in the stack by ([\w, ]+) \(.*\): (.*)$",
                             path.read_text()):
            out.update({e: m.group(2).split(", ") for e in m.group(1).split(", ")})
    return out


KEPT = kept_in_stack()


def test_kept_values_are_reloaded_outside_the_innermost_loops():
    """Every reload and store of a kept value lies outside the ker loops (``lp.setup x0``
    up to the instruction after its end label): the innermost loops run as before."""
    spill = re.compile(r"^\s+(lw|sw) \w+, \d+\(sp\)\s+# kept in the stack$")
    seen = 0
    for path in sorted(zfinx_gen.HERE.glob("*_zfinx.s")):
        lines = path.read_text().split("\n")
        end = None
        for i, line in enumerate(lines):
            m = re.match(r"\s+lp\.setup\s+x0,\s*\w+,\s*([\w.]+)", line)
            if m:
                end = m.group(1)
            if "# kept in the stack" in line and not line.startswith("#"):
                assert spill.match(line), f"{path.name}:{i + 1}: {line}"   # within the frame
                seen += 1
                assert end is None, f"{path.name}:{i + 1} inside the loop ending at {end}"
            label = end and re.match(rf"\s*{re.escape(end.rstrip('f'))}:\s*(\S*)", line)
            if label:                   # the last instruction: on this line or the next
                end = None if label.group(1) else "next"
            elif end == "next" and line.strip() and not line.strip().endswith(":"):
                end = None
    assert seen >= 6


def test_every_frame_keeps_the_stack_16_byte_aligned():
    """RISC-V psABI: sp stays a multiple of 16; the frames the entries push for their saved
    registers and kept values are rounded up."""
    steps = [int(m.group(1)) for path in zfinx_gen.HERE.glob("*_zfinx.s")
             for m in re.finditer(r"(?m)^\w+_x:\n\s+addi sp, sp, (-\d+)\n",
                                  path.read_text())]
    assert len(steps) > 50 and all(s % 16 == 0 for s in steps)
    assert zfinx_gen.frame_code(zfinx_gen.Frame((8, 9), 4))[2] == 32
    assert zfinx_gen.frame_code(zfinx_gen.Frame((), 1))[2] == 16


def test_spill_code_at_a_hardware_loop_end_stays_in_the_loop():
    """A reload before the last instruction of a hardware loop goes before its end label (the
    loop still ends at that instruction), a store after one takes the label (the loop ends at
    the store); elsewhere a reload follows the labels.  Offsets count the routine's own frame
    (16 bytes here) above the slot."""
    src = "\n".join(["    .text", "    .globl k", "k:", "    addi sp, sp, -16", "    li t1, 4",
                     "    li t0, 3", "    lp.setup x0, t0, 1f", "    addi a0, a0, 1",
                     "1:  add a1, a1, t1", "2:  addi t1, t1, 1", "    lp.setup x0, t0, 3f",
                     "    addi a0, a0, 1", "3:  addi t1, t1, 1", "    addi sp, sp, 16",
                     "    ret", ""])
    isa = "rv32imfc_xpulpv2"
    flat = zfinx_gen.flatten("k.s", src, isa, set(range(len(src.split("\n")))))
    an = zfinx_gen.analyse("k.s", flat, isa)
    at = {code: pc for pc, ln in an.line.items()
          if (code := zfinx_gen.code_only(flat.split("\n")[ln]).strip())}
    adds = sorted(pc for pc, ln in an.line.items() if "addi t1" in flat.split("\n")[ln])
    plan = zfinx_gen.SpillPlan(6, {at["add a1, a1, t1"], adds[0], adds[1]},
                               {at["li t1, 4"], adds[0], adds[1]}, set())
    out = [zfinx_gen.code_only(ln).strip() for ln in
           zfinx_gen.with_spills(flat, an, 1, [plan], 2).split("\n")]
    out = [ln for ln in out if ln]
    i = out.index("li t1, 4")
    assert out[i + 1] == "sw t1, 24(sp)"                 # slot 2, 16 bytes above
    i = out.index("add a1, a1, t1")
    assert out[i - 3:i + 1] == ["addi a0, a0, 1", "lw t1, 24(sp)", "1:", "add a1, a1, t1"]
    assert out[i + 1:i + 5] == ["2:", "lw t1, 24(sp)", "addi t1, t1, 1", "sw t1, 24(sp)"]
    j = out.index("lp.setup x0, t0, 3f")
    assert out[j + 1:j + 6] == ["addi a0, a0, 1", "lw t1, 24(sp)", "addi t1, t1, 1", "3:",
                                "sw t1, 24(sp)"]
    assemble(zfinx_gen.with_spills(flat, an, 1, [plan], 2), filename="k.s", family=isa)


def test_a_routine_with_nothing_to_keep_in_the_stack_is_left_out():
    """31 f values live at once beside the argument a0 and sp: no value the routine defines
    in an x register to keep in a slot, so it is left out, with its count."""
    src = "\n".join(["    .text", "    .globl k", "k:",
                     *(f"    flw f{i}, {4 * i}(a0)" for i in range(31)),
                     *(f"    fadd.s f0, f0, f{i}" for i in range(1, 31)),
                     "    fsw f0, 0(a0)", "    ret", ""])
    with pytest.raises(zfinx_gen.ZfinxError, match=r"every routine: k 32 values"):
        zfinx_gen.rewrite("k.s", src, "rv32imfc_xpulpv2")


# column blocks: (N, M, K, ker_size, cores) with quads and tail columns per core, fewer and
# more channels than cores (the column-split kernels wrap their channel loop), odd ker
BLOCKS = ((3, 45, 15, 5, 3), (10, 37, 30, 3, 8), (3, 11, 15, 5, 8))


@pytest.mark.parametrize("name", sorted(KEPT))
def test_kernels_keeping_values_in_the_stack_are_bit_identical_on_column_blocks(name):
    for i, (n, m, k, ker, cores) in enumerate(BLOCKS):
        sizes = {"N": n, "M": m, "K": k, "ker_size": ker}
        got, _ = run(name + zfinx_gen.SUFFIX, sizes, cores, seed=10 + i)
        want, _ = run(name, sizes, cores, seed=10 + i)
        for f in want:
            assert np.array_equal(got[f].view(np.uint32), want[f].view(np.uint32)), \
                (name, f, sizes, cores)


def test_each_routine_has_its_own_map_and_calls_keep_the_abi():
    """Two routines call one subroutine (``jal t6``, returning through ``jr t6``) that writes
    ft2.  ``a`` keeps ft1 across the call, so its ft1 cannot share ft2's register; in ``b``, t0
    is live while ft1 is, so b's ft1 is not t0, while a's is (the first free one): one map per
    routine.  The argument fa0 takes the same register in the routines and the subroutine."""
    src = """
    .text
    .globl a
    .globl b
.Lsub:
    fadd.s ft2, fa0, fa0
    fsw ft2, 0(a0)
    jr t6
a:
    flw ft1, 4(a0)
    flw fa0, 8(a0)
    jal t6, .Lsub
    fsw ft1, 12(a0)
    ret
b:
    lw t0, 0(a0)
    flw ft1, 4(a0)
    fadd.s fa0, ft1, ft1
    sw t0, 16(a0)
    jal t6, .Lsub
    ret
"""
    alloc = zfinx_gen.allocate("k.s", src, "rv32imfc_xpulpv2")
    a, b, shared = (alloc.maps[alloc.entry_region["a"]], alloc.maps[alloc.entry_region["b"]],
                    alloc.maps[0])
    assert a[1] != shared[2]
    assert a[1] == 5 and b[1] != 5
    assert a[10] == b[10] == shared[10]
    assert a[1] != a[10]
    assert not alloc.dropped


def test_sunk_loads_move_to_their_use_past_pointer_bumps():
    """A register-blocked body's loads come first; sunk, each sits one instruction before its
    first use, its offset corrected for the base's ``addi`` it passed (-8 after +8); a load
    stops at a store, and one on a labelled line stays."""
    src = "\n".join(["k:", "    flw ft4, 0(a1)", "    flw fa0, 4(a1)", "    flw ft5, 0(a2)",
                     "    addi a1, a1, 8", "    fmadd.s ft0, ft4, ft4, ft0",
                     "    fmadd.s ft1, ft5, ft5, ft1", "    fmadd.s ft2, fa0, fa0, ft2",
                     "    flw ft6, 0(a2)", "    fsw ft1, 0(a3)", "    fadd.s ft3, ft6, ft6",
                     "1:  flw ft7, 0(a2)", "    slli a2, a2, 1", "    fadd.s ft3, ft7, ft7"])
    assert zfinx_gen.sink_loads(src).split("\n") == [
        "k:", "    addi a1, a1, 8", "    flw ft4, -8(a1)", "    flw ft5, 0(a2)",
        "    fmadd.s ft0, ft4, ft4, ft0", "    flw fa0, -4(a1)", "    fmadd.s ft1, ft5, ft5, ft1",
        "    fmadd.s ft2, fa0, fa0, ft2", "    flw ft6, 0(a2)", "    fsw ft1, 0(a3)",
        "    fadd.s ft3, ft6, ft6", "1:  flw ft7, 0(a2)", "    slli a2, a2, 1",
        "    fadd.s ft3, ft7, ft7"]


def test_generated_files_are_current():
    stale = [p.name for p, text in zfinx_gen.outputs().items()
             if not p.exists() or p.read_text() != text]
    assert not stale, f"regenerate with: python -m asm_kernels.zfinx_gen ({stale})"


def test_for_isa_refuses_a_kernel_without_a_variant():
    """4x6 register blocks need more than the 32 x registers: no mmx_4x6_n, no mmhx_4x6_n."""
    for name in ("mm_4x6_n", "mmh_4x6_n"):
        with pytest.raises(KeyError, match="zfinx"):
            for_isa(name, ZFINX_ISA)
    assert for_isa("mm_2x2_n", ZFINX_ISA) == "mmx_2x2_n"
    assert for_isa("mm_dw_1x4_u2", ZFINX_ISA) == "mm_dw_1x4_u2_x"


BASELINE_SIZES = {"n": 256, "C": 8, "HW": 32, "N": 8, "M": 16, "K": 72, "ker_size": 9,
                  "count": 8, "H": 16, "W": 16, "Hk": 2, "Wk": 2, "Ho": 8, "Wo": 8,
                  "stride_h": 2, "stride_w": 2, "pad_top": 0, "pad_left": 0}


def cycles(name: str) -> int:
    return run(name, BASELINE_SIZES, 8)[1]


BASELINE_CASES = {f"{name}/c8": (lambda name=name: cycles(name)) for name in GENERATED}
# the kernels keeping values in the stack, and their originals, on two column quads per core
QUADS = {**BASELINE_SIZES, "M": 64}
BASELINE_CASES.update({f"{name}/c8_M64": (lambda name=name: run(name, QUADS, 8)[1])
                       for k in KEPT for name in (k, k + zfinx_gen.SUFFIX)})


@pytest.mark.parametrize("case_id", sorted(BASELINE_CASES))
def test_cycles_match_baseline(case_id):
    check(FAMILY, case_id, BASELINE_CASES[case_id]())
