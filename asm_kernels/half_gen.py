"""Generator of the 16-bit (binary16 and bfloat16) kernels other than the matmul family.

Every fp32 family trainlib's lowering uses has 16-bit counterparts generated here, so the
binary16 and the bfloat16 variant of a kernel are one template that differs only in the
instruction suffix (``.h``: Xf16 / Xfvec binary16, ``.ah``: Xf16alt / Xfvec "alt" = bfloat16
layout) and a few constants:

* ``<file>_fp16.s`` / ``<file>_bf16.s``, kernels ``<fp32 kernel>_fp16`` / ``_bf16``, families
  ``<fp32 family>_fp16`` / ``_bf16``: arithmetic, which rounds differently in the two formats;
* ``<file>_16.s``, kernels ``<fp32 kernel>_16``, families ``<fp32 family>_16``: pure data
  movement and sign-bit operations, identical for both 16-bit formats (im2row, transposes,
  copy, ReLU);
* ``convert_fp16.s`` / ``convert_bf16.s``, family ``convert``: fp32 <-> fp16 and fp32 <-> bf16
  for mixed-precision models.

How: element-wise, bias, SGD, loss and conversion kernels are templates here (``Source``); the
depthwise kernels are emitted block by block (``dw_block``); im2row, the transposes and pooling
are the fp32 files themselves with a checked list of edits (``Derived``: word moves to half
moves, binary32 operations to 16-bit ones), so their control flow exists once.  Where a 16-bit
kernel computes in binary32 it expands the fp32 kernel's own code from an include
(``sigmoid.inc``, ``loss_math.inc``).  Macros a generated file defines carry its suffix, so all
kernel files assemble together in one program.  ``half.toml`` gives each kernel the ISA it
needs (catalogue key ``isa``).

Layout: 16-bit arrays are dense, little-endian halves (element i at byte 2i), the argument
structures are the fp32 kernels' (``structs.toml``): same fields, same element counts.  The
packed-SIMD loops move two elements per 32-bit word; array bases on a word boundary are fastest
(any even address is correct: a word access straddling two words costs the core's misaligned
cycle).  Scalar 16-bit values sit NaN-boxed in the f registers (separate FP register file, the
default presets); a packed pair uses both lanes.

Rounding: every operation rounds once to the 16-bit format, nearest even (frm = 0), in the
order trainlib's golden model (``trainlib.golden``, 16-bit ``arith``) uses, so element-wise
results are bit-exact; reductions (bias gradient, MSE, depthwise) accumulate exact products in
binary32 with ``vfdotpex.s`` and round once at the end, which is closer to the exact value than the
golden model's sequential 16-bit sum and stays within ``golden.tolerance``.

``python -m asm_kernels.half_gen`` rewrites the ``.s`` files and ``half.toml``; a test checks
that the committed files are current.
"""

from __future__ import annotations

import re
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).parent


@dataclass(frozen=True)
class Fmt:
    """One 16-bit format: its precision name, instruction suffix and constants."""

    prec: str           # fp16 | bf16
    f: str              # instruction suffix: h | ah
    what: str           # its name in comments
    one: int            # bits of 1.0
    ninf: int           # bits of -inf
    isa: str            # what its kernels need (catalogue key isa): flh / fsh are Xf16's

    @property
    def subs(self) -> dict[str, str]:
        return {"p": self.prec, "f": self.f, "what": self.what, "isa": self.isa,
                "one2": hex(self.one * 0x10001), "ninf": hex(0xFFFF0000 | self.ninf)}


FP16 = Fmt("fp16", "h", "IEEE binary16", 0x3C00, 0xFC00, "rv32imfc_xpulpv2_xf16_xfvec")
BF16 = Fmt("bf16", "ah", "bfloat16", 0x3F80, 0xFF80,
           "rv32imfc_xpulpv2_xf16_xf16alt_xfvec")
FORMATS = (FP16, BF16)


@dataclass(frozen=True)
class K:
    """A catalogue entry: the kernel's name stem (the fp32 kernel's name), its argument
    structure, how it splits the work, its constraints and a one-line doc."""

    stem: str
    args: str
    parallel: str
    constraints: tuple[str, ...]
    doc: str


@dataclass(frozen=True)
class Source:
    """One generated family: a template per format (or one shared text) and its kernels."""

    stem: str                   # file / family stem (the fp32 family)
    kernels: tuple[K, ...]
    text: str                   # assembly template ({p}, {f}, {what}, {one2} substituted)
    shared: bool = False        # one file for both formats (suffix _16)

    def variants(self) -> list[tuple[str, str, dict[str, str]]]:
        """(suffix, header words, substitutions) of every file this source gives."""
        if self.shared:
            return [("16", "16-bit (binary16 and bfloat16 alike)", {"p": "16"})]
        return [(fm.prec, fm.what, fm.subs) for fm in FORMATS]


def own_macros(text: str, suffix: str) -> str:
    """``text`` with every macro it defines renamed ``<name>_<suffix>``: the kernel files of a
    program are assembled as one source (trainlib.driver), where a 16-bit file and its fp32
    original must not define the same macro twice."""
    for name in re.findall(r"(?m)^\.macro\s+(\w+)", text):
        text = re.sub(rf"(?<![\w.]){name}\b", f"{name}_{suffix}", text)
    return text


N1 = ("n >= 1",)
GENERATED = ("# GENERATED by asm_kernels/half_gen.py (layout, rounding and naming: its\n"
             "# docstring); edit the generator, not this file.\n")

# ---------------------------------------------------------------------------- element-wise
ELEMENTWISE_16 = Source("elementwise", (
    K("relu_fw", "act", "elements", N1,
      "y = max(x, 0) on the bits (pv.max.h, two per instruction): -0 -> +0, a NaN with clear "
      "sign bit passes; the same for binary16 and bfloat16"),
    K("relu_bw", "act_bw", "elements", N1,
      "dx = x > 0 ? dy : 0 (pv.cmpgt.h mask on the bits of x, x the forward input)"),
    K("copy", "copy", "elements", N1, "dst = src, bit-exact, 16-bit elements"),
), r"""# 16-bit element-wise kernels that only look at bits, so binary16 and bfloat16 share them
# (elementwise.s's relu_fw, relu_bw, copy on halves).
#
#   relu_fw_16   y  = x with its sign bit clear, else +0   (pv.max.h with 0: signed 16-bit max)
#   relu_bw_16   dx = x > 0 ? dy : 0                       (pv.cmpgt.h: all ones where x > +0)
#   copy_16      dst = src
#
# A 16-bit float is positive exactly when its bits, as a signed 16-bit integer, are > 0 (NaNs
# with a clear sign bit included, as elementwise.s's relu_fw lets them through), so both
# operations run on integer SIMD lanes, two elements per instruction.
# Scheduling: groups of four elements (two words) dealt round robin to the cores as in
# elementwise.s (post-increment word loads and stores, the second one jumping to the core's next
# group); the last core also takes the n % 4 tail, one half at a time.
#
# relu_fw_16: a0 -> {{x, y, n}}; relu_bw_16: {{x, dy, dx, n}}; copy_16: {{src, dst, n}};
# a1 = number of cores.
    .include "common.inc"
    .text
    .globl relu_fw_16
    .globl relu_bw_16
    .globl copy_16

.Lshare:
    deal_groups 1

# src (a3) -> dst (a4) through \op (a macro of one register, if given), word pairs then halves
.macro half_map op
    beqz t3, .Ltail\@
    add a2, a3, t2
    add a5, a4, t2
    addi t4, t4, -4
    lp.setup x0, t3, .Lgroup\@
    p.lw t0, 4(a2!)
    p.lw t2, t4(a2!)
    .ifnb \op
    \op t0
    \op t2
    .endif
    p.sw t0, 4(a5!)
.Lgroup\@:
    p.sw t2, t4(a5!)
.Ltail\@:
    beqz t5, .Ldone\@
    add a3, a3, t1
    add a4, a4, t1
    lp.setup x0, t5, .Lhalf\@
    p.lh t0, 2(a3!)
    .ifnb \op
    \op t0
    .endif
.Lhalf\@:
    p.sh t0, 2(a4!)
.Ldone\@:
    ret
.endm

.macro relu_bits r
    pv.max.h \r, \r, zero
.endm

relu_fw_16:
    split_groups .Lshare, 8, 2
    words lw, a0, a3, a4         # x, y
    half_map relu_bits

relu_bw_16:
    split_groups .Lshare, 12, 2
    words lw, a0, a3, a4, a5     # x, dy, dx
    beqz t3, 2f
    add a2, a3, t2
    add a6, a4, t2
    add a7, a5, t2
    addi t4, t4, -4
    lp.setup x0, t3, 1f
    p.lw t0, 4(a2!)
    p.lw t2, t4(a2!)
    p.lw a0, 4(a6!)
    p.lw t6, t4(a6!)
    pv.cmpgt.h t0, t0, zero      # x > 0: all ones
    pv.cmpgt.h t2, t2, zero
    and a0, a0, t0
    and t6, t6, t2
    p.sw a0, 4(a7!)
1:  p.sw t6, t4(a7!)
2:  beqz t5, 9f
    add a3, a3, t1
    add a4, a4, t1
    add a5, a5, t1
    lp.setup x0, t5, 3f
    p.lh t0, 2(a3!)
    p.lh t2, 2(a4!)
    pv.cmpgt.h t0, t0, zero
    and t2, t2, t0
3:  p.sh t2, 2(a5!)
9:  ret

copy_16:
    split_groups .Lshare, 8, 2
    words lw, a0, a3, a4         # src, dst
    half_map
""", shared=True)

ELEMENTWISE = Source("elementwise", (
    K("leakyrelu_fw", "leaky", "elements", N1,
      "y = x > 0 ? x : s*x, s = slope rounded to the format (vfmul + vfmax / vfmin)"),
    K("leakyrelu_bw", "leaky_bw", "elements", N1,
      "dx = x > 0 ? dy : s*dy: dy times a factor that is exactly 1 or s"),
    K("add", "add", "elements", N1, "out = a + b, two lanes per vfadd (residual, sum node)"),
), r"""# {what} element-wise kernels with arithmetic (elementwise.s's leakyrelu_fw, leakyrelu_bw,
# add on packed pairs; relu and copy are the format-free elementwise_16.s).
#
#   leakyrelu_fw_{p}   y  = x > 0 ? x : s*x      s = slope rounded to {what}
#   leakyrelu_bw_{p}   dx = x > 0 ? dy : s*dy
#   add_{p}            out = a + b
#
# Each product or sum is one correctly rounded {what} operation, as trainlib.golden's 16-bit
# arithmetic rounds it: the results are bit-exact.  leakyrelu_fw selects as elementwise.s does,
# with vfmax (slope <= 1) or vfmin (slope > 1).  leakyrelu_bw multiplies dy by a factor whose
# bits are built on integer SIMD lanes: f = s ^ ((s ^ 1.0) & (x > 0 ? ~0 : 0)), exactly 1 or s.
# Scheduling: groups of eight elements (four packed words; leakyrelu_bw: four elements) dealt
# round robin to the cores as in elementwise.s; loads first, then the arithmetic, then the
# stores; the last core takes the tail one element at a time (a NaN-boxed scalar through the
# same packed instruction, its upper lane unused).
#
# leakyrelu_fw_{p}: a0 -> {{x, y, n, slope}}; leakyrelu_bw_{p}: {{x, dy, dx, n, slope}};
# add_{p}: {{a, b, out, n}}; slope is binary32.  a1 = number of cores.
    .include "common.inc"
    .text
    .globl leakyrelu_fw_{p}
    .globl leakyrelu_bw_{p}
    .globl add_{p}

.Lshare:
    deal_groups 1

# y = fa1 * x (packed), then y = \select y, y, x: groups of 8 from a2 = x, a5 = y
.macro scaled_pairs select
    lp.setup x0, t3, .Lgroup\@
    words flw, a2, ft4, ft5, ft6, ft7
    add a2, a2, t4
    vfmul.{f} ft0, fa1, ft4
    vfmul.{f} ft1, fa1, ft5
    vfmul.{f} ft2, fa1, ft6
    vfmul.{f} ft3, fa1, ft7
    lanes \select
    words fsw, a5, ft0, ft1, ft2, ft3
.Lgroup\@:
    add a5, a5, t4
.endm

# the same for the tail elements from a3 = x, a4 = y, one at a time
.macro scaled_halves select
    lp.setup x0, t5, .Lelement\@
    flh ft4, 0(a3)
    addi a3, a3, 2
    vfmul.{f} ft0, fa1, ft4
    \select ft0, ft0, ft4
    fsh ft0, 0(a4)
.Lelement\@:
    addi a4, a4, 2
.endm

leakyrelu_fw_{p}:
    split_groups .Lshare, 8, 3
    words lw, a0, a3, a4         # x, y
    flw fa0, 12(a0)              # slope (binary32)
    vfcpka.{f}.s fa1, fa0, fa0   # s = slope rounded, in both lanes
    add a2, a3, t2
    add a5, a4, t2
    add a3, a3, t1               # the tail
    add a4, a4, t1
    fli ft0, 0x3f800000
    fle.s t0, fa0, ft0
    beqz t0, 5f                  # slope > 1: the vfmin loops
    beqz t3, 2f
    scaled_pairs vfmax.{f}
2:  beqz t5, 9f
    scaled_halves vfmax.{f}
9:  ret
5:  beqz t3, 7f
    scaled_pairs vfmin.{f}
7:  beqz t5, 9b
    scaled_halves vfmin.{f}
    ret

leakyrelu_bw_{p}:
    split_groups .Lshare, 12, 2
    words lw, a0, a3, a4, a5     # x, dy, dx
    flw fa0, 16(a0)
    vfcpka.{f}.s fa1, fa0, fa0
    fmv.x.w a1, fa1              # s, s (bits)
    li a0, {one2}
    xor a0, a0, a1               # s ^ 1.0 in both lanes
    beqz t3, 2f
    add a2, a3, t2
    add a6, a4, t2
    add a7, a5, t2
    addi t6, t4, -4
    lp.setup x0, t3, 1f
    p.lw t0, 4(a2!)
    p.lw t2, t6(a2!)
    flw ft0, 0(a6)
    flw ft1, 4(a6)
    add a6, a6, t4
    pv.cmpgt.h t0, t0, zero      # x > 0: all ones
    pv.cmpgt.h t2, t2, zero
    and t0, t0, a0
    and t2, t2, a0
    xor t0, t0, a1               # f = 1.0 where x > 0, else s
    xor t2, t2, a1
    fmv.w.x ft2, t0
    fmv.w.x ft3, t2
    vfmul.{f} ft0, ft0, ft2
    vfmul.{f} ft1, ft1, ft3
    fsw ft0, 0(a7)
    fsw ft1, 4(a7)
1:  add a7, a7, t4
2:  beqz t5, 9f
    add a3, a3, t1
    add a4, a4, t1
    add a5, a5, t1
    lp.setup x0, t5, 3f
    p.lh t0, 2(a3!)
    flh ft0, 0(a4)
    addi a4, a4, 2
    pv.cmpgt.h t0, t0, zero
    and t0, t0, a0
    xor t0, t0, a1
    fmv.w.x ft2, t0
    vfmul.{f} ft0, ft0, ft2
    fsh ft0, 0(a5)
3:  addi a5, a5, 2
9:  ret

add_{p}:
    split_groups .Lshare, 12, 3
    map2 vfadd.{f}, esz=2, ld=flh, st=fsh
""")

EXP_ENTER = r"""
# Spill fs0-fs11 into a new 48-byte frame (.Lrestore_fs_ret pops it), then load the expf
# constants into them (as loss.s does)
.macro exp_enter
    addi sp, sp, -48
    jal t5, .Lsave_fs
    jal t6, .Lexp_consts
.endm
    fs_spill_routines .Lsave_fs, .Lrestore_fs_ret
    exp_consts_routine .Lexp_consts
    expf_routine .Lexpf
"""

ACTIVATION = Source("activation", (
    K("sigmoid_fw", "act", "elements", N1,
      "y = 1/(1+exp(-x)): activation.s's binary32 code on the widened x, rounded once"),
    K("sigmoid_bw", "sigmoid_bw", "elements", N1,
      "dx = dy * (y * (1 - y)), three rounded operations as the golden model orders them"),
    K("mul", "mul", "elements", N1, "out = a * b element-wise, two lanes per vfmul"),
), r"""# {what} activations (activation.s's sigmoid_fw, sigmoid_bw and mul on 16-bit tensors).
#
#   sigmoid_fw_{p}   y  = 1 / (1 + exp(-x))
#   sigmoid_bw_{p}   dx = dy * (y * (1 - y))     (y: the forward OUTPUT)
#   mul_{p}          out = a * b
#
# sigmoid_fw runs activation.s's binary32 code (sigmoid.inc: expf without a division, within
# 2 ulp of binary32) on the widened x and rounds once to {what}, as the golden model rounds
# its float64 value: equal except where the binary32 value sits within its error of a {what}
# tie (then one ulp apart).  sigmoid_bw and mul round every operation once to {what}, in
# trainlib.golden's order: bit-exact.
# Scheduling: sigmoid_fw deals single elements, as activation.s; the others groups of eight
# elements (four packed words) round robin, loads first; the last core takes the tail one
# element at a time.
#
# sigmoid_fw_{p}: a0 -> {{x, y, n}}; sigmoid_bw_{p}: {{y, dy, dx, n}}; mul_{p}: {{a, b, out, n}}.
# a1 = number of cores.
    .include "common.inc"
    .include "sigmoid.inc"
    .text
    .globl sigmoid_fw_{p}
    .globl sigmoid_bw_{p}
    .globl mul_{p}

.Lshare:
    deal_groups 1

# y = 1 / (1 + exp(-x)): activation.s's binary32 code on the widened x, the result rounded once
sigmoid_fw_{p}:
    split_groups .Lshare, 8, 0
    sigmoid_fw_body flh, fsh, fcvt.s.{f}, fcvt.{f}.s

# y -> y * (1 - y), each step rounded (fa2 = 1.0 in both lanes, ft8 scratch)
.macro sigmoid_slope r
    vfsub.{f} ft8, fa2, \r
    vfmul.{f} \r, \r, ft8
.endm

sigmoid_bw_{p}:
    fli fa2, {one2}
    split_groups .Lshare, 12, 3
    map2 vfmul.{f}, pre=sigmoid_slope, esz=2, ld=flh, st=fsh

mul_{p}:
    split_groups .Lshare, 12, 3
    map2 vfmul.{f}, esz=2, ld=flh, st=fsh
""")

# ---------------------------------------------------------------------------- bias
BIAS = Source("bias", (
    K("bias_add", "bias_add", "elements", ("C >= 0", "HW >= 0"),
      "y[c][p] += b[c] in place (vfadd.r: b[c] in both lanes); flat C*HW range in chunks of "
      "an odd number of words"),
    K("bias_grad", "bias_grad", "channels", ("C >= 0", "HW >= 0"),
      "db[c] = sum_p dy[c][p]: binary32 accumulation by vfdotpex.s with (1, 1), one final "
      "rounding; whole channels round robin"),
), r"""# {what} bias add and bias gradient of channel-major (C x HW) tensors (bias.s on halves).
#
#   bias_add_{p}    y[c][p] += b[c]                 (in place, one rounding per element)
#   bias_grad_{p}   db[c] = sum_p dy[c][p]          (binary32 sum, rounded once)
#
# bias_add: as bias.s, the C*HW elements are one flat range cut into per-core chunks, here of
# L = ceil(C*HW / cores) rounded up to 2 mod 4 elements: an odd number of words, so the cores
# start in different TCDM banks and every chunk starts on a word.  A chunk is walked channel
# segment by channel segment, b[c] loaded once per segment and added to both lanes of each
# word (vfadd.r), eight elements per hardware-loop iteration, then the segment's leftover
# elements one by one (a channel of odd HW leaves the next one starting mid-word: those word
# accesses straddle two words, correct and a cycle slower).  HW = 1 (a linear layer) is a plain
# vector add of b onto y, eight elements per iteration, as in bias.s.
# bias_grad: whole channels dealt round robin (bias.s's reasons); per channel four binary32
# accumulators, each vfdotpex.s.{f} adding the two elements of a word times (1, 1) exactly, eight
# elements per iteration, the HW % 8 left with a zero upper lane (lhu + fmv.w.x); the four are
# added in binary32 and rounded once to {what}: every core count gives the same bits.
#
# a0 -> {{y, b, C, HW}} (bias_add_{p}) or {{dy, db, C, HW}} (bias_grad_{p}); a1 = number of cores.
    .include "common.inc"
    .text
    .globl bias_add_{p}
    .globl bias_grad_{p}

# y (a2) += v over \n elements, a2 advanced: v = fa0's lane 0 in every element (vfadd.r), or
# without \b the stream at a3 (advanced too).  Clobbers t0, \rest, ft0-ft7.
.macro add_run n, rest, b
    srli t0, \n, 3
    andi \rest, \n, 7
    beqz t0, .Lgroups_done\@
    lp.setup x0, t0, .Lgroup\@
    words flw, a2, ft0, ft1, ft2, ft3
    .ifb \b
    words flw, a3, ft4, ft5, ft6, ft7
    addi a3, a3, 16
    lanes vfadd.{f}
    .else
    lanes vfadd.r.{f}, fa0
    .endif
    words fsw, a2, ft0, ft1, ft2, ft3
.Lgroup\@:
    addi a2, a2, 16
.Lgroups_done\@:
    beqz \rest, .Ldone\@
    lp.setup x0, \rest, .Lone\@
    flh ft0, 0(a2)
    addi a2, a2, 2
    .ifb \b
    flh ft4, 0(a3)
    addi a3, a3, 2
    vfadd.{f} ft0, ft0, ft4
    .else
    vfadd.r.{f} ft0, ft0, fa0
    .endif
.Lone\@:
    fsh ft0, -2(a2)
.Ldone\@:
.endm

bias_add_{p}:
    lw t0, 8(a0)                 # C
    lw t1, 12(a0)                # HW
    mul t2, t0, t1               # N = C*HW
    beqz t2, 9f
    ceil_div t3, t2
    addi t3, t3, 1
    ori t3, t3, 2
    andi t3, t3, -2              # L: the next length = 2 mod 4
    core_id t4
    block_count t4, t5, t2, t3, t4, 9f   # lo = k L; t5 = elements of this core
    words lw, a0, a2, a3         # y, b
    slli t6, t4, 1
    add a2, a2, t6               # &y[lo]
    li t0, 1
    beq t1, t0, 20f              # HW = 1: plain vector add
    divu t0, t4, t1              # c = lo / HW
    mul t3, t0, t1
    sub t3, t4, t3               # p = lo - c HW
    slli t0, t0, 1
    add a3, a3, t0               # &b[c]
    sub t3, t1, t3               # HW - p: the first segment ends with channel c
    p.minu t3, t3, t5            # segment length
1:  flh fa0, 0(a3)               # b[c]
    addi a3, a3, 2
    add_run t3, t2, b
    sub t5, t5, t3               # elements left
    p.minu t3, t1, t5            # next segment: a whole channel, or what is left of the chunk
    bnez t5, 1b
9:  ret

20: add a3, a3, t6               # HW = 1: b[lo..hi) onto y[lo..hi)
    add_run t5, t5
    ret

bias_grad_{p}:
    lw t0, 8(a0)                 # C
    lw t1, 12(a0)                # HW
    core_id t2                   # k
    sub t3, t0, t2
    blez t3, 9f                  # no channel for this core
    ceil_div t3, t3              # channels of core k: ceil((C - k) / cores)
    words lw, a0, a2, a3         # dy, db
    mul t0, t2, t1
    slli t0, t0, 1
    add a2, a2, t0               # &dy[k][0]
    slli t0, t2, 1
    add a3, a3, t0               # &db[k]
    mul t4, a1, t1
    slli t4, t4, 1               # dy bytes from one of the core's channels to the next
    slli t5, a1, 1               # db bytes between them
    srli t0, t1, 3               # HW / 8
    andi t1, t1, 7               # HW % 8
    fli fa1, {one2}, a5          # (1, 1)
    lp.setup x1, t3, 5f          # the core's channels
    fzero ft0, ft1, ft2, ft3
    mv a4, a2
    beqz t0, 2f
    lp.setup x0, t0, 1f
    words flw, a4, ft4, ft5, ft6, ft7
    addi a4, a4, 16
    vfdotpex.s.{f} ft0, ft4, fa1
    vfdotpex.s.{f} ft1, ft5, fa1
    vfdotpex.s.{f} ft2, ft6, fa1
1:  vfdotpex.s.{f} ft3, ft7, fa1
2:  beqz t1, 4f
    lp.setup x0, t1, 3f
    p.lhu a5, 2(a4!)
    fmv.w.x ft4, a5              # (dy, +0)
3:  vfdotpex.s.{f} ft0, ft4, fa1
4:  fadd.s ft0, ft0, ft1
    fadd.s ft2, ft2, ft3
    fadd.s ft0, ft0, ft2
    fcvt.{f}.s ft0, ft0
    fsh ft0, 0(a3)
    add a2, a2, t4
5:  add a3, a3, t5
9:  ret
""")

# ---------------------------------------------------------------------------- optimizer
OPTIMIZER = Source("optimizer", (
    K("sgd_update", "sgd", "elements", N1,
      "g += wd*w (written back); w -= lr*g: four rounded packed operations, lr and wd rounded "
      "to the format"),
    K("sgd_master", "sgd_master", "elements", N1,
      "mixed precision: master -= lr * (float(g) + wd*master) in binary32 (optimizer.s's two "
      "fused operations), w = master rounded to the format; one pass, no binary32 gradient"),
), r"""# {what} SGD: on the 16-bit weights (sgd_update_{p}), and on binary32 master weights with
# 16-bit gradient and weights (sgd_master_{p}, mixed-precision training).
#
# sgd_update_{p} (optimizer.s on packed pairs; PULP-TrainLib B.11):
#
#   g = g + wd * w        (written back, as the fp32 kernel does)
#   w = w - lr * g
#
# with lr and wd (binary32 fields) rounded to {what}, and each product and sum rounded once, in
# trainlib.golden's order (no fused multiply-add: the golden model rounds the product): the
# results are bit-exact.
# Scheduling: groups of eight elements (four words) dealt round robin (optimizer.s's reasons);
# a group's eight loads, then 16 packed operations, then eight stores; the last core takes the
# n % 8 tail one element at a time.
#
# sgd_master_{p}: the update of an fp32 master copy from a 16-bit gradient, and the 16-bit
# weights the next step computes with, in one pass:
#
#   t      = fma(wd, master, float(g))      (fmadd.s; float(g) exact: fcvt.s.{f})
#   master = fma(-lr, t, master)            (fnmsub.s)
#   w      = master rounded to {what}        (nearest even: vfcpka.{f}.s packs two)
#
# the operations of the widening conversion (family convert), sgd_update (optimizer.s) and
# the narrowing one run one after the other, on the same values: the same bits, without the
# binary32 gradient buffer and its two extra passes over memory.  With weight_decay = +0 (its
# bits all zero) the fmadd is left out: float(g) + 0*master is float(g) for every finite
# master (a -0 gradient may become +0, which changes no difference master - lr*t), so only an
# infinite master differs (it stays infinite, where the fmadd makes it NaN).
# Scheduling: groups of four elements (four halves of g and of w, four words of master) dealt
# round robin as sgd_update_{p}'s; per group the 8 loads, the conversions, the 4 (8) binary32
# operations, the master stores, two vfcpka and the two packed w words; the last core takes
# the n % 4 tail one element at a time (fcvt.{f}.s, fsh).
#
# a0 -> struct sgd {{w, g, n, lr, weight_decay}} (sgd_update_{p}) or struct sgd_master
# {{master, g, w, n, lr, weight_decay}} (sgd_master_{p}); a1 = number of cores.
    .include "common.inc"
    .text
    .globl sgd_update_{p}
    .globl sgd_master_{p}

.Lshare:
    deal_groups 1

# g (\g) += wd * w (\w); w -= lr * g, with fa0 = lr, fa1 = wd (both lanes), \t scratch
.macro sgd_step w, g, t
    vfmul.{f} \t, fa1, \w
    vfadd.{f} \g, \g, \t
    vfmul.{f} \t, fa0, \g
    vfsub.{f} \w, \w, \t
.endm

sgd_update_{p}:
    split_groups .Lshare, 8, 3
    words lw, a0, a3, a4         # w, g
    flw fa0, 12(a0)
    vfcpka.{f}.s fa0, fa0, fa0   # lr
    flw fa1, 16(a0)
    vfcpka.{f}.s fa1, fa1, fa1   # weight decay
    beqz t3, 3f
    add a5, a3, t2
    add a6, a4, t2
    lp.setup x0, t3, 2f
    words flw, a5, ft0, ft1, ft2, ft3
    words flw, a6, ft4, ft5, ft6, ft7
    sgd_step ft0, ft4, ft8
    sgd_step ft1, ft5, ft9
    sgd_step ft2, ft6, ft10
    sgd_step ft3, ft7, ft11
    words fsw, a6, ft4, ft5, ft6, ft7
    add a6, a6, t4
    words fsw, a5, ft0, ft1, ft2, ft3
2:  add a5, a5, t4
3:  beqz t5, 9f
    add a3, a3, t1
    add a4, a4, t1
    lp.setup x0, t5, 4f
    flh ft0, 0(a3)
    flh ft4, 0(a4)
    sgd_step ft0, ft4, ft8
    fsh ft4, 0(a4)
    fsh ft0, 0(a3)
    addi a4, a4, 2
4:  addi a3, a3, 2
9:  ret

# sgd_master's groups of four: g (a4), master (a3), w (a5) from the core's first group on
# (t2: its byte offset in halves), t3 groups, t4 / t6 bytes between a core's groups in halves /
# in words; fa0 = lr, fa1 = wd (binary32).  \decay = 0: no weight-decay term.
.macro master_groups decay
    beqz t3, .Ldone\@
    add a6, a4, t2
    slli a2, t2, 1
    add a7, a3, a2
    add t0, a5, t2
    lp.setup x0, t3, .Lgroup\@
    flh ft0, 0(a6)
    flh ft1, 2(a6)
    flh ft2, 4(a6)
    flh ft3, 6(a6)
    words flw, a7, ft4, ft5, ft6, ft7
    add a6, a6, t4
    fcvt.s.{f} ft0, ft0          # float(g), exact
    fcvt.s.{f} ft1, ft1
    fcvt.s.{f} ft2, ft2
    fcvt.s.{f} ft3, ft3
    .if \decay
    fmadd.s ft0, fa1, ft4, ft0   # t = g + wd * master
    fmadd.s ft1, fa1, ft5, ft1
    fmadd.s ft2, fa1, ft6, ft2
    fmadd.s ft3, fa1, ft7, ft3
    .endif
    fnmsub.s ft4, fa0, ft0, ft4  # master -= lr * t
    fnmsub.s ft5, fa0, ft1, ft5
    fnmsub.s ft6, fa0, ft2, ft6
    fnmsub.s ft7, fa0, ft3, ft7
    words fsw, a7, ft4, ft5, ft6, ft7
    add a7, a7, t6
    vfcpka.{f}.s ft0, ft4, ft5   # w: master rounded, two per word
    vfcpka.{f}.s ft1, ft6, ft7
    fsw ft0, 0(t0)
    fsw ft1, 4(t0)
.Lgroup\@:
    add t0, t0, t4
.Ldone\@:
.endm

# the last core's n % 4 tail (t5 elements at t1 bytes of halves), one element at a time
.macro master_tail decay
    beqz t5, .Ldone\@
    add a4, a4, t1
    add a5, a5, t1
    slli t1, t1, 1
    add a3, a3, t1
    lp.setup x0, t5, .Lone\@
    flh ft0, 0(a4)
    flw ft4, 0(a3)
    addi a4, a4, 2
    fcvt.s.{f} ft0, ft0
    .if \decay
    fmadd.s ft0, fa1, ft4, ft0
    .endif
    fnmsub.s ft4, fa0, ft0, ft4
    fsw ft4, 0(a3)
    addi a3, a3, 4
    fcvt.{f}.s ft4, ft4
    fsh ft4, 0(a5)
.Lone\@:
    addi a5, a5, 2
.Ldone\@:
.endm

sgd_master_{p}:
    split_groups .Lshare, 12, 2
    words lw, a0, a3, a4, a5     # master, g, w
    flw fa0, 16(a0)              # lr
    flw fa1, 20(a0)              # weight decay
    lw a2, 20(a0)
    slli t6, t4, 1
    beqz a2, 5f                  # weight decay +0: no decay term
    master_groups 1
    master_tail 1
    ret
5:  master_groups 0
    master_tail 0
    ret
""")


# ---------------------------------------------------------------------------- conversions
def convert_text(fm: Fmt) -> str:
    """fp32 <-> one 16-bit format (a file per format: each needs only its own extension)."""
    head = r"""# Conversions between binary32 and {what} (family convert), for mixed-precision
# models: trainlib inserts them between layers of different precisions (convert_fp16.s /
# convert_bf16.s, one file per format so that each needs only its own extension).
#
#   fp32_to_{p}   dst = src rounded to {what} (nearest even): two elements per vfcpka.{f}.s,
#                 the packed pair stored as one word
#   {p}_to_fp32   dst = src widened to binary32 (exact): fcvt.s.{f}
#
# Scheduling: groups of eight (narrowing) or four (widening) elements dealt round robin to the
# cores as in elementwise.s, loads first; the last core takes the tail one element at a time.
#
# a0 -> struct copy {{src, dst, n}}; a1 = number of cores.
    .include "common.inc"
    .text

.Lnarrow:                        # groups of 8 binary32 elements in, 8 halves out
    li t5, 3
    deal_groups 2

.Lwiden:                         # groups of 4 halves in, 4 binary32 elements out
    li t5, 2
    deal_groups 1
"""
    body = r"""
    .globl fp32_to_{p}
    .globl {p}_to_fp32

fp32_to_{p}:
    lw t1, 8(a0)
    jal t6, .Lnarrow
    words lw, a0, a3, a4         # src (binary32), dst
    beqz t3, 2f
    add a2, a3, t2
    srli t2, t2, 1
    add a5, a4, t2
    srli t4, t4, 1               # dst bytes between a core's groups
    slli t6, t4, 1               # src bytes between them
    lp.setup x0, t3, 1f
    words flw, a2, ft0, ft1, ft2, ft3, ft4, ft5, ft6, ft7
    add a2, a2, t6
    vfcpka.{f}.s ft0, ft0, ft1
    vfcpka.{f}.s ft2, ft2, ft3
    vfcpka.{f}.s ft4, ft4, ft5
    vfcpka.{f}.s ft6, ft6, ft7
    words fsw, a5, ft0, ft2, ft4, ft6
1:  add a5, a5, t4
2:  beqz t5, 9f
    add a3, a3, t1
    srli t1, t1, 1
    add a4, a4, t1
    lp.setup x0, t5, 3f
    flw ft0, 0(a3)
    addi a3, a3, 4
    fcvt.{f}.s ft0, ft0
    fsh ft0, 0(a4)
3:  addi a4, a4, 2
9:  ret

{p}_to_fp32:
    lw t1, 8(a0)
    jal t6, .Lwiden
    words lw, a0, a3, a4         # src (16-bit), dst (binary32)
    beqz t3, 2f
    add a2, a3, t2
    slli t2, t2, 1
    add a5, a4, t2
    slli t6, t4, 1               # dst bytes between a core's groups
    lp.setup x0, t3, 1f
    flh ft0, 0(a2)
    flh ft1, 2(a2)
    flh ft2, 4(a2)
    flh ft3, 6(a2)
    add a2, a2, t4
    fcvt.s.{f} ft0, ft0
    fcvt.s.{f} ft1, ft1
    fcvt.s.{f} ft2, ft2
    fcvt.s.{f} ft3, ft3
    words fsw, a5, ft0, ft1, ft2, ft3
1:  add a5, a5, t6
2:  beqz t5, 9f
    add a3, a3, t1
    slli t1, t1, 1
    add a4, a4, t1
    lp.setup x0, t5, 3f
    flh ft0, 0(a3)
    addi a3, a3, 2
    fcvt.s.{f} ft0, ft0
    fsw ft0, 0(a4)
3:  addi a4, a4, 4
9:  ret
"""
    return GENERATED + (head + body).format(**fm.subs)


def convert_kernels(fm: Fmt) -> list[dict]:
    return [dict(name=f"fp32_to_{fm.prec}", doc=f"dst = src rounded to {fm.what} (nearest "
                 f"even), two per vfcpka.{fm.f}.s"),
            dict(name=f"{fm.prec}_to_fp32", doc=f"dst = src ({fm.what}) widened to binary32, "
                 f"exact (fcvt.s.{fm.f})")]


# ---------------------------------------------------------------------------- losses
LOSS = Source("loss", (
    K("mse_partial", "mse_partial", "elements", N1,
      "partial[core] (binary32) = sum of (y - t)^2 over the core's elements: d = y - t rounded "
      "(vfsub), d*d summed exactly in binary32 by vfdotpex.s"),
    K("mse_grad", "mse_grad", "elements", N1,
      "dy = c * (y - t), c = 2/n rounded to the format, two rounded operations"),
    K("ce_partial", "ce_partial", "elements", N1,
      "partial[4*core:4*core+4] (binary32) = (max z, sum exp(z - max), sum y, sum y*(z - max)) "
      "of the core's 16-bit logits, in binary32 (loss.s's expf)"),
    K("ce_grad", "ce_grad", "elements", N1,
      "dz = exp(z - M) * sum(y) / S - y in binary32 from ce_combine's binary32 stats, rounded "
      "once"),
), r"""# {what} losses (loss.s's MSE and cross-entropy kernels on 16-bit tensors).
#
#   mse_partial_{p}  partial[k] = sum over core k's elements of (y - t)^2     (binary32 slots)
#   mse_grad_{p}     dy = c (y - t), c = 2/n rounded to {what}
#   ce_partial_{p}   partial[4k..4k+3] = (m_k, s_k, sy_k, u_k) of core k's logits, as loss.s
#   ce_grad_{p}      dz = exp(z - M) * (sy / S) - y, stats = ce_combine's [loss, M, S, sy]
#
# The combines are loss.s's reduce_sum and ce_combine themselves: the partial slots, the loss
# and the statistics are binary32 words in every precision (a reduction kept in binary32, the
# loss read by the host in one format), y, t, dy, z, dz are {what}.
# Rounding, as trainlib.golden's 16-bit arithmetic: mse_grad rounds y - t and then c (y - t)
# (c = 2/n divided in binary32 and rounded to {what}: a quotient rounded twice through
# binary32 is the correctly rounded one, 24 >= 2*11 + 2), bit-exact.  mse_partial squares the
# rounded differences exactly and sums them in binary32 (vfdotpex.s); the golden model rounds
# each square and each sum to {what}, so the loss agrees within golden.tolerance.  The
# cross-entropy kernels widen each value exactly to binary32 and compute as loss.s does (expf
# within 1 ulp of binary32); dz is then rounded once to {what}, as the golden model rounds its
# float64 result: equal except where the binary32 value sits within its error of a {what} tie.
# Scheduling: loss.s's round-robin deal, in groups of eight elements (four words) for the MSE
# kernels, single elements for the cross-entropy ones.
#
# a0 -> mse_partial_{p}: {{y, t, partial, n}}; mse_grad_{p}: {{y, t, dy, n}}; ce_partial_{p}:
# {{z, y, partial, n}}; ce_grad_{p}: {{z, y, dz, n, stats}}.  a1 = number of cores.
    .include "common.inc"
    .include "loss_math.inc"
    .text
    .globl mse_partial_{p}
    .globl mse_grad_{p}
    .globl ce_partial_{p}
    .globl ce_grad_{p}

.Lshare:
    deal_groups 1
""" + EXP_ENTER + r"""
# ---------------------------------------------------------------------------- MSE
mse_partial_{p}:
    split_groups .Lshare, 12, 3
    words lw, a0, a3, a4         # y, t
    fzero ft8, ft9, ft10, ft11   # four binary32 partial sums
    beqz t3, 2f
    add a5, a3, t2
    add a6, a4, t2
    lp.setup x0, t3, 1f
    words flw, a5, ft0, ft1, ft2, ft3
    add a5, a5, t4
    words flw, a6, ft4, ft5, ft6, ft7
    add a6, a6, t4
    lanes vfsub.{f}              # d = y - t, rounded
    vfdotpex.s.{f} ft8, ft0, ft0 # += d0^2 + d1^2, exact squares
    vfdotpex.s.{f} ft9, ft1, ft1
    vfdotpex.s.{f} ft10, ft2, ft2
1:  vfdotpex.s.{f} ft11, ft3, ft3
2:  beqz t5, 4f
    add a3, a3, t1
    add a4, a4, t1
    lp.setup x0, t5, 3f
    p.lhu t0, 2(a3!)
    p.lhu t2, 2(a4!)
    fmv.w.x ft0, t0              # (y, +0)
    fmv.w.x ft4, t2
    vfsub.{f} ft0, ft0, ft4
3:  vfdotpex.s.{f} ft8, ft0, ft0
4:  fadd.s ft8, ft8, ft9
    fadd.s ft10, ft10, ft11
    fadd.s ft0, ft8, ft10
    core_id t0
    slli t0, t0, 2
    lw a5, 8(a0)
    add a5, a5, t0
    fsw ft0, 0(a5)               # every core writes its slot (0 when idle)
    ret

.macro times_c r
    vfmul.{f} \r, fa0, \r
.endm

mse_grad_{p}:
    lw t1, 12(a0)
    fcvt.s.w ft0, t1
    fli fa0, 0x40000000
    fdiv.s fa0, fa0, ft0         # 2/n
    vfcpka.{f}.s fa0, fa0, fa0   # c: rounded to {what}, both lanes
    li t5, 3
    jal t6, .Lshare
    map2 vfsub.{f}, post=times_c, esz=2, ld=flh, st=fsh

# ---------------------------------------------------------------------------- cross entropy
ce_partial_{p}:
    exp_enter
    ce_partial_body .Lshare, .Lexpf, .Lrestore_fs_ret, flh, fcvt.s.{f}

ce_grad_{p}:
    exp_enter
    ce_grad_body .Lshare, .Lexpf, .Lrestore_fs_ret, flh, fsh, fcvt.s.{f}, fcvt.{f}.s
""")

# ---------------------------------------------------------------------------- depthwise
DW_PTRS = ("a1", "s0", "s1", "s2")            # B pointers of the columns of a block


def dw_pairs(ptrs: tuple[str, ...], flipped: bool, f: str, pairs: int) -> list[str]:
    """``pairs`` (1 or 2) k pairs of every column of a block: the A words (flipped: read
    backwards, lanes swapped by p.ror), the B words, the pointer bumps, then the vfdotpex.s."""
    ints, aregs = ("s3", "s5"), ("ft8", "ft9")
    bregs = (("ft4", "ft5", "ft6", "ft7"), ("fa0", "fa1", "fa2", "fa3"))
    out = []
    for q in range(pairs):
        out += ([f"    p.lw {ints[q]}, -4(a0!)"] if flipped else
                [f"    flw {aregs[q]}, {4 * q}(a0)"])
    if not flipped:
        out += [f"    addi a0, a0, {4 * pairs}"]
    out += [f"    flw {bregs[q][i]}, {4 * q}({p})" for q in range(pairs)
            for i, p in enumerate(ptrs)]
    if flipped:
        out += [f"    p.ror {ints[q]}, {ints[q]}, s4" for q in range(pairs)]
        out += [f"    fmv.w.x {aregs[q]}, {ints[q]}" for q in range(pairs)]
    out += [f"    addi {p}, {p}, {4 * pairs}" for p in ptrs]
    out += [f"    vfdotpex.s.{f} ft{i}, {aregs[q]}, {bregs[q][i]}" for q in range(pairs)
            for i in range(len(ptrs))]
    return out


def dw_block(tag: str, v: int, flipped: bool, f: str) -> list[str]:
    """One block of ``v`` columns of one channel: binary32 sums ft0.. by vfdotpex.s, two k
    pairs per hardware-loop iteration (each A word feeds all v columns), then the ker % 4 left:
    a pair, and the odd last k, then the sums rounded once and stored at t4 (advanced).
    Flipped (in-grad) weights are read backwards a word at a time and their lanes swapped."""
    ptrs = DW_PTRS[:v]
    lbl = {k: f".L{tag}_{k}" for k in ("k", "pair", "odd", "word", "store")}
    out = [f"    fmv.w.x ft{i}, zero" for i in range(v)]
    out += ["    mv a0, a2", f"    mv {ptrs[0]}, t5"]
    out += [f"    add {ptrs[i]}, {ptrs[i - 1]}, a4" for i in range(1, v)]
    out += [f"    beqz a5, {lbl['pair']}", f"    lp.setup x0, a5, {lbl['k']}"]
    body = dw_pairs(ptrs, flipped, f, 2)
    out += body[:-1] + [f"{lbl['k']}:", body[-1]]
    out += [f"{lbl['pair']}:", "    andi s3, a7, 2", f"    beqz s3, {lbl['odd']}"]
    out += dw_pairs(ptrs, flipped, f, 1)
    # the odd last k: A as (0, a) against the B word ending with it, (b[ker-2], b[ker-1]);
    # with ker = 1 that word would start before the row, so then (a, 0) against (b, 0)
    a_last = f"{2 if flipped else 0}(a0)"
    out += [f"{lbl['odd']}:", "    andi s3, a7, 1", f"    beqz s3, {lbl['store']}",
            f"    lhu s3, {a_last}", f"    bnez a5, {lbl['word']}", "    andi s5, a7, 2",
            f"    bnez s5, {lbl['word']}", "    fmv.w.x ft8, s3             # ker = 1: (a, 0)"]
    for i, p in enumerate(ptrs):
        out += [f"    lhu s3, 0({p})", f"    fmv.w.x ft{4 + i}, s3",
                f"    vfdotpex.s.{f} ft{i}, ft8, ft{4 + i}"]
    out += [f"    j {lbl['store']}", f"{lbl['word']}:",
            "    slli s3, s3, 16", "    fmv.w.x ft8, s3              # (0, a)"]
    out += [f"    flw ft{4 + i}, -2({p})" for i, p in enumerate(ptrs)]
    out += [f"    vfdotpex.s.{f} ft{i}, ft8, ft{4 + i}" for i in range(v)]
    out += [f"{lbl['store']}:"]
    for i in range(v):
        out += [f"    fcvt.{f}.s ft{i}, ft{i}", f"    fsh ft{i}, {2 * i}(t4)"]
    out += [f"    addi t4, t4, {2 * v}"]
    return out


def dw_kernel(name: str, flipped: bool, f: str, columns: bool = False) -> list[str]:
    """A whole kernel: set-up, then per channel its groups of four columns and the leftover
    columns one by one.  ``columns``: every core does every channel on its own block of columns
    (starting at channel core % N and wrapping), else each core does whole channels."""
    tag = name
    saved = "s0, s1, s2, s3, s4, s5" + (", s6, s7, s8, s9, s10" if columns else "")
    frame = 48 if columns else 32     # psABI: sp stays a multiple of 16
    out = ["", f"{name}:", f"    addi sp, sp, -{frame}", f"    words sw, sp, {saved}",
           f"    li a7, {int(flipped)}"]
    if columns:
        out += ["    jal t5, .Ldw_setup_sp"]
    else:
        out += ["    jal t5, .Ldw_setup", f"    bgeu t0, t1, .L{tag}_done"]
    if flipped:
        out += ["    li s4, 16"]
    out += [f".L{tag}_channel:"]
    if columns:
        out += ["    mul t3, t0, a6", "    add a2, s6, t3              # this channel's A",
                "    add t3, s7, t3              # its B at the core's first column",
                "    mul t4, t0, s9", "    add t4, s8, t4              # its C there"]
    out += ["    mv t5, t3", f"    beqz t2, .L{tag}_tail", f"    lp.setup x1, t2, .L{tag}_group"]
    out += dw_block(f"{tag}_4", 4, flipped, f)
    out += [f".L{tag}_group:", "    add t5, t5, t6", f".L{tag}_tail:",
            f"    beqz a3, .L{tag}_next", f"    lp.setup x1, a3, .L{tag}_column"]
    out += dw_block(f"{tag}_1", 1, flipped, f)
    out += [f".L{tag}_column:", "    add t5, t5, a4", f".L{tag}_next:"]
    if columns:
        out += ["    addi t0, t0, 1", f"    bne t0, s10, .L{tag}_wrapped", "    li t0, 0",
                f".L{tag}_wrapped:", "    addi t1, t1, -1", f"    bnez t1, .L{tag}_channel"]
    else:
        out += ["    add a2, a2, a6", "    add t3, t3, a6", "    addi t0, t0, 1",
                f"    bltu t0, t1, .L{tag}_channel", f".L{tag}_done:"]
    out += [f"    words lw, sp, {saved}", f"    addi sp, sp, {frame}", "    ret"]
    return out


def depthwise_text(fm: Fmt) -> str:
    head = r"""# {what} depthwise "matmuls" (depthwise.s's mm_dw family on packed pairs;
# PULP-TrainLib's mm_dw_fp16_SIMD / mm_dw_in_grad_fp16_SIMD):
#
#   mm_dw_{p}, mm_dw_sp_1x4_{p}:
#       C[k*M + j] = sum_{{t<ker}} A[k*ker + t]         * B[j*K + k*ker + t]
#   mm_dw_in_grad_{p}, mm_dw_in_grad_sp_1x4_{p}:
#       C[k*M + j] = sum_{{t<ker}} A[k*ker + ker-1 - t] * B[j*K + k*ker + t]
#
# for every channel k < N and column j < M, A, B, C {what}.  Rounding: each sum accumulated
# in binary32 by vfdotpex.s.{f}, one k pair per instruction (both products exact, fma(a1, b1,
# a0*b0) rounded to binary32 and added rounded), the odd last k as a pair whose other lane
# holds a zero weight, then rounded once to {what} (the matmul_fp16 family's order).
# Scheduling: channels split over the cores in contiguous blocks (depthwise.s), or, for the _sp
# kernels, every channel on every core over its own block of columns (depthwise_sp.s: tiles of
# fewer channels than cores keep every core busy); per channel the
# columns in groups of four (hardware loop 1), two k pairs per iteration of hardware loop 0
# (each A word loaded once for the four columns' B words: 23 instructions for 16 MACs, 26
# flipped, no load-use stall), then a leftover pair and the odd last k (A as (0, a) against the
# B word that ends with the row's last element: no extra loads), then the M % 4 columns one by
# one.  The flipped weights are read from the channel's end a word at a time (post-decrement)
# with the lanes swapped by p.ror.  Rows of A and of B start wherever k*ker and j*K put them:
# with ker or K odd, half of them start mid-word and their word loads straddle two words
# (correct, one cycle more each).
#
# a0 -> struct mm_dw {{A, B, C, N, M, K, ker_size}}; a1 = number of cores.
    .include "common.inc"
    .text
    .globl mm_dw_{p}
    .globl mm_dw_in_grad_{p}
    .globl mm_dw_sp_1x4_{p}
    .globl mm_dw_in_grad_sp_1x4_{p}

# Set-up, called with `jal t5` (a7 = 1: flipped).  Returns t0 = first channel, t1 = end
# channel, a2 = this channel's first A word read (flipped: the word of its last two weights),
# a3 = M % 4, t2 = M / 4, a4 = 2K (B column stride), a5 = ker / 4, a7 = ker % 4, a6 = 2 ker,
# t3 = &B[t0*ker], t4 = &C[t0*M], t6 = 8K (B stride of four columns).
.Ldw_setup:
    core_id t0
    lw t1, 12(a0)                # N
    ceil_div t2, t1
    mul t0, t0, t2               # first channel
    add t2, t2, t0
    p.minu t1, t2, t1            # end channel
    words lw, a0, a2, t3, t4     # A, B, C
    lw a3, 16(a0)                # M
    lw a4, 20(a0)                # K
    lw a5, 24(a0)                # ker
    slli a4, a4, 1
    slli a6, a5, 1
    mul t2, t0, a6
    add a2, a2, t2
    add t3, t3, t2
    mul t2, t0, a3
    slli t2, t2, 1
    add t4, t4, t2
    beqz a7, 1f
    add a2, a2, a6
    addi a2, a2, -4
1:  andi a7, a5, 3
    srli a5, a5, 2
    srli t2, a3, 2
    andi a3, a3, 3
    slli t6, a4, 2
    jr t5

# The columns split's set-up (jal t5, a7 = 1: flipped): every core does every channel on its
# block of ceil(M / cores) columns [j0, j1), from channel core % N on (cores that all began
# with channel 0 would load the same A word in the same cycle: depthwise_sp.s).  Returns
# t0 = first channel, t1 = N (channels to do), s10 = N, s6 = A (flipped: + the offset of a
# channel's last word), s7 = &B[j0*K], s8 = &C[j0], s9 = 2M, t2 / a3 = groups of four / leftover
# columns of the block (none for a core past M), a4, a5, a6, a7, t6 as .Ldw_setup.
.Ldw_setup_sp:
    lw a3, 16(a0)                # M
    block_split t0, t1, a3, t2, t6   # this core's columns [t0, t1); t6 = core id
    sub t1, t1, t0
    p.max t1, t1, zero           # its number of columns
    lw s10, 12(a0)               # N
    remu t6, t6, s10             # first channel
    words lw, a0, s6, s7, s8     # A, B, C
    lw a4, 20(a0)                # K
    lw a5, 24(a0)                # ker
    slli a4, a4, 1
    slli a6, a5, 1
    mul t2, t0, a4
    add s7, s7, t2
    slli t2, t0, 1
    add s8, s8, t2
    slli s9, a3, 1
    mv t0, t6
    beqz a7, 1f
    add s6, s6, a6
    addi s6, s6, -4
1:  andi a7, a5, 3
    srli a5, a5, 2
    srli t2, t1, 2
    andi a3, t1, 3
    slli t6, a4, 2
    mv t1, s10
    jr t5
""".format(**fm.subs)
    body = dw_kernel(f"mm_dw_{fm.prec}", False, fm.f)
    body += dw_kernel(f"mm_dw_in_grad_{fm.prec}", True, fm.f)
    body += dw_kernel(f"mm_dw_sp_1x4_{fm.prec}", False, fm.f, columns=True)
    body += dw_kernel(f"mm_dw_in_grad_sp_1x4_{fm.prec}", True, fm.f, columns=True)
    return GENERATED + head + "\n".join(body) + "\n"


DW_CONSTRAINTS = ("N >= 1", "M >= 1", "ker_size >= 1", "K >= N * ker_size")


def depthwise_kernels(fm: Fmt) -> list[dict]:
    loop = "binary32 sums by vfdotpex.s, 4 columns x 2 k pairs per loop"
    return [dict(name=f"mm_dw_{fm.prec}", parallel="channels",
                 doc=f"{fm.what} depthwise forward / weight gradient: {loop}; channels split "
                 "over cores"),
            dict(name=f"mm_dw_in_grad_{fm.prec}", parallel="channels",
                 doc=f"{fm.what} depthwise input gradient (weights flipped per channel, lanes "
                 f"swapped by p.ror): {loop}; channels split over cores"),
            dict(name=f"mm_dw_sp_1x4_{fm.prec}", parallel="columns",
                 doc=f"{fm.what} depthwise forward / weight gradient: {loop}; columns split "
                 "over cores (every core does every channel)"),
            dict(name=f"mm_dw_in_grad_sp_1x4_{fm.prec}", parallel="columns",
                 doc=f"{fm.what} depthwise input gradient: {loop}; columns split over cores")]


# ---------------------------------------------------------------------------- data movement
@dataclass(frozen=True)
class Derived:
    """A 16-bit file made from its fp32 source by a fixed list of edits: every byte size of an
    element (shifts by 2, steps of 4) and every word move becomes its half-word twin, and (for
    ``per_format`` sources) every binary32 operation its ``.h`` / ``.ah`` one; entry points get
    the suffix ``_16`` (one file for both formats) or ``_fp16`` / ``_bf16``.  Each edit must
    apply exactly as many times as given, so a change of the fp32 source that the edits no
    longer fit fails the generator instead of producing a wrong kernel."""

    source: str
    family: str
    entries: tuple[str, ...]
    edits: tuple[tuple[str, str, int], ...]       # (old, new, occurrences), new formatted
    title: str                                    # replaces the source's first line
    per_format: bool = False
    docs: dict = field(default_factory=dict)      # catalogue docs that differ from fp32's

    def variants(self) -> list[tuple[str, str, dict[str, str]]]:
        """(suffix, what the kernels take, substitutions) of every file."""
        if not self.per_format:
            return [("16", "16-bit (binary16 and bfloat16 alike)", {})]
        return [(fm.prec, fm.what, fm.subs) for fm in FORMATS]

    def text(self, suffix: str, subs: dict[str, str]) -> str:
        src = (HERE / self.source).read_text()
        first, rest = src.split("\n", 1)
        out = f"{self.title.format(**subs)}\n{rest}"
        for old, new, count in self.edits:
            found = out.count(old)
            if found != count:
                raise ValueError(f"{self.source}: {old!r} found {found} times, expected {count}")
            out = out.replace(old, new.format(**subs))
        for e in self.entries:
            out = re.sub(rf"(?m)^(\s*\.globl |){e}(:?)$", rf"\g<1>{e}_{suffix}\2", out)
        return GENERATED + own_macros(out, suffix)

    def kernels(self) -> list[dict]:
        data = tomllib.loads((HERE / self.source.replace(".s", ".toml")).read_text())
        return [k for k in data["kernel"] if k["entry"] in self.entries]


HALF_MOVES = ", lh, p.lh, p.sh"
TRANSPOSE_16 = Derived("transpose.s", "transpose", ("blocktranspose", "transpose"), (
    ("slli a6, t2, 2               # kernel size (bytes)",
     "slli a6, t2, 1               # kernel size (bytes)", 1),
    ("addi a4, a4, -4 ", "addi a4, a4, -2 ", 1),
    ("copy_words t3, t2, t6, -4, a5, 4, a0, a1",
     "copy_words t3, t2, t6, -2, a5, 2, a0, a1" + HALF_MOVES, 1),
    ("slli a6, t1, 2               # src row stride",
     "slli a6, t1, 1               # src row stride", 1),
    ("slli t4, a2, 2\n", "slli t4, a2, 1\n", 1),
    ("slli t4, t4, 2\n", "slli t4, t4, 1\n", 1),
    ("copy_words t3, t0, t6, a6, a5, 4, t4, t5",
     "copy_words t3, t0, t6, a6, a5, 2, t4, t5" + HALF_MOVES, 1),
    ("addi a4, a4, 4\n", "addi a4, a4, 2\n", 1),
), "# Transposes of 16-bit elements (binary16 and bfloat16 alike), copied bit-exactly:\n"
   "# transpose.s with half-word moves.")

# im2row_16 / im2row_ig_16 on a flat unit (wk) and the next one (wk + 1) of the same kernel
# row, when the buf word holding both columns is aligned: the pixel's two halves are
# X[y][x], X[y][x + 1], one source word (on a half for every other pixel: the misaligned
# cycle), so the pair is written as one run of words, its first word b's half alone where wk
# starts a pixel later (x = -1), its last a's alone where wk + 1 ends a pixel earlier
# (x + 1 = Ws); every word the run reads lies between b's first hit and a's last; then each
# column's gaps are zeroed.
FLAT_HEAD = (".Li2r_flat:                      # the hits as one run of the source, then the "
             "gaps zeroed\n    beqz a0, .Li2r_zcol\n    beqz a1, .Li2r_zcol\n")
PAIR_UNITS = FLAT_HEAD + """    .equ F16_GAPA, 456           # (pairs: each column's first gap)
    .equ F16_GAPB, 460
    p.beqimm s0, 2, .Li2r_single # buf contiguous (im2col): its own run of words
    li t0, 2
    blt s9, t0, .Li2r_single     # wk the kernel row's last
    blt s8, t0, .Li2r_single     # the core's last unit
    andi t0, t6, 2
    bnez t0, .Li2r_single        # the pair's word not aligned
    lw a4, 16(s5)                # nx of wk + 1 (b)
    beqz a4, .Li2r_single
    lw t0, 0(s4)
    mul t0, t0, s2
    lw a2, 0(s5)
    lw a3, 12(s5)
    add t1, t0, a3               # zero words before the run: L_b = oy0*Wout + ox0_b
    add t0, t0, a2               # L_a
    sub a2, a2, a3               # 1 when the run starts with b's half alone
    addi a0, a0, -1              # hit rows after the first
    mul t2, a0, s2
    add t3, t2, a1
    add t3, t3, a2               # words of the run: from L_b to a's last hit
    add t4, t2, a4
    sub t4, t3, t4               # 1 when it ends with a's half alone
    sub t2, a6, t1
    sub t2, t2, t3
    sw t2, F16_TRAIL(sp)         # zero words after the run
    add t2, t0, a1
    mul t2, t2, s0
    add t2, t2, t6
    sw t2, F16_GAPA(sp)
    add t2, t1, a4
    mul t2, t2, s0
    add t2, t2, t6
    addi t2, t2, 2
    sw t2, F16_GAPB(sp)
    beqz t1, 1f
    zeros t1, t6, s0
1:  beqz a2, 2f
    lhu t0, 0(t5)                # b's half alone
    slli t0, t0, 16
    p.sw t0, s0(t6!)
    addi t3, t3, -1
2:  sub t3, t3, t4               # words of both halves
    srli a3, t3, 1
    beqz a3, 3f
    lp.setup x0, a3, 4f
    p.lw t0, 2(t5!)
    p.lw t1, 2(t5!)
    p.sw t0, s0(t6!)
4:  p.sw t1, s0(t6!)
3:  andi a3, t3, 1
    beqz a3, 5f
    p.lw t0, 2(t5!)
    p.sw t0, s0(t6!)
5:  beqz t4, 6f
    lhu t0, 0(t5)                # a's half alone
    p.sw t0, s0(t6!)
6:  lw t2, F16_TRAIL(sp)
    beqz t2, 7f
    zeros t2, t6, s0
7:  lw a3, F16_GAPA(sp)
    sub a2, s2, a1
    jal t5, .Li2r_gaps
    lw a3, F16_GAPB(sp)
    sub a2, s2, a4
    jal t5, .Li2r_gaps
    lw t0, F16_USTEP(sp)         # the pair took two units: step over the first
    add s7, s7, t0
    addi s8, s8, -1
    addi s5, s5, 12
    addi s9, s9, -1
    j .Li2r_next

# Zero the gaps of one column of a pair: a0 rows of a2 halves from a3 on, one output row
# apart.  Clobbers a3, t4, t6; returns through t5.
.Li2r_gaps:
    beqz a0, 9f
    beqz a2, 9f
    mul t4, s2, s0               # buf step of one output row
    p.bneimm a2, 1, 4f
    zeros a0, a3, t4, p.sh       # gaps of one: a store per row
    jr t5
4:  lp.setup x1, a0, 3f
    mv t6, a3
    zeros a2, t6, s0, p.sh
3:  add a3, a3, t4
9:  jr t5

.Li2r_single:
"""

IM2COL_16 = Derived("im2col.s", "im2col", ("im2row", "im2col", "im2row_ig"), (
    ("slli s0, t4, 2               # L4", "slli s0, t4, 1               # L2", 1),
    ("li t6, 4                     # and", "li t6, 2                     # and", 1),
    ("li s0, 4                     # im2col", "li s0, 2                     # im2col", 1),
    ("slli t6, a6, 2\n", "slli t6, a6, 1\n", 1),
    ("slli s11, t5, 2              # Ws4", "slli s11, t5, 1              # Ws2", 1),
    ("slli s1, s9, 2               # source step along a row: a_w words",
     "slli s1, s9, 1               # source step along a row: a_w halves", 1),
    ("slli t1, t1, 2\n", "slli t1, t1, 1\n", 1),
    ("copy_words a4, a1, t4, s1, t6, s0, t0, t1",
     "copy_words a4, a1, t4, s1, t6, s0, t0, t1" + HALF_MOVES, 2),
    (", t6, s0\n", ", t6, s0, p.sh\n", 8),
    ("""    srli a4, \\n, 1
    andi a1, \\n, 1
    copy_words a4, a1, t5, s1, t6, s0, t0, \\n
""", """    p.bneimm s0, 2, .Lstrided\\@    # buf contiguous (im2col): two halves a word
    andi t0, t6, 2
    beqz t0, .Laligned\\@
    p.lh t0, 2(t5!)              # buf on a half: one half first
    p.sh t0, 2(t6!)
    addi \\n, \\n, -1
.Laligned\\@:
    srli a4, \\n, 2              # two words per iteration, no store waiting for its load (a
    beqz a4, .Lpairs_done\\@     # source on a half costs a load the misaligned cycle)
    lp.setup x0, a4, .Lpair\\@
    p.lw t0, 4(t5!)
    p.lw a1, 4(t5!)
    p.sw t0, 4(t6!)
.Lpair\\@:
    p.sw a1, 4(t6!)
.Lpairs_done\\@:
    andi a4, \\n, 2
    beqz a4, .Lword_done\\@
    p.lw t0, 4(t5!)
    p.sw t0, 4(t6!)
.Lword_done\\@:
    andi a4, \\n, 1
    beqz a4, .Lrun_done\\@
    p.lh t0, 2(t5!)
    p.sh t0, 2(t6!)
    j .Lrun_done\\@
.Lstrided\\@:
    srli a4, \\n, 1
    andi a1, \\n, 1
    copy_words a4, a1, t5, s1, t6, s0, t0, \\n, lh, p.lh, p.sh
.Lrun_done\\@:
""", 1),
    ("p.lw t0, s1(t4!)", "p.lh t0, s1(t4!)", 1),
    ("p.sw t0, a2(t6!)", "p.sh t0, a2(t6!)", 1),
    ("zeros a0, a3, t4", "zeros a0, a3, t4, p.sh", 1),
    (FLAT_HEAD, PAIR_UNITS, 1),
    ("F_", "F16_", 32),
    ("FRAME", "FRAME16", 5),
), "# im2row for Conv2D (CHW, batch 1) on 16-bit elements (binary16 and bfloat16 alike), copied\n"
   "# bit-exactly: im2col.s with half-word moves.")

POOLING = Derived("pooling.s", "pooling", (
    "maxpool_fw", "avgpool_fw", "maxpool_bw", "avgpool_bw"), (
    ("s0 = 4*W", "s0 = 2*W", 1),
    ("a6 = 4*H*W", "a6 = 2*H*W", 1),
    ("computed as sum * (1 / (Hk*Wk))",
     "computed as sum / (Hk*Wk) in binary32 (a multiplication\n"
     "#                by 2^-k when Hk*Wk = 2^k)", 1),
    ("slli s0, s2, 2", "slli s0, s2, 1", 1),
    ("# fa1 = 1 / (Hk*Wk) (clobbers t0, ft0)\n.Linv_area:\n    mul t0, s3, s4\n"
     "    fcvt.s.w ft0, t0\n    fli fa1, 0x3f800000\n    fdiv.s fa1, fa1, ft0\n",
     "# fa1 = Hk*Wk, binary32; when it is a power of two 2^k (and a7 = 1 on entry), also\n"
     "# fa2 = 2^-k and a7 = 2: the quotient is then one exact multiplication (clobbers t0, t2)\n"
     ".Larea:\n    mul t0, s3, s4\n    fcvt.s.w fa1, t0\n    p.cnt t2, t0\n"
     "    p.bneimm t2, 1, 1f\n    p.ff1 t0, t0\n    li t2, 127\n    sub t2, t2, t0\n"
     "    slli t2, t2, 23\n    fmv.w.x fa2, t2\n    li a7, 2\n1:\n", 1),
    ("    pool_enter 8\n    jal t6, .Linv_area", "    pool_enter 8\n    li a7, 1\n"
     "    jal t6, .Larea", 1),
    ("jal t6, .Linv_area", "jal t6, .Larea", 1),
    ("slli t4, t4, 2", "slli t4, t4, 1", 1),
    ("flw ft1, 0(t6)", "flh ft1, 0(t6)", 3),
    ("addi t6, t6, 4", "addi t6, t6, 2", 3),
    ("slli t0, t0, 2", "slli t0, t0, 1", 2),
    ("fli fa0, 0xff800000", "fli fa0, {ninf}", 2),
    ("fmv.w.x fa0, zero            # avg: start from 0",
     "fmv.{f}.x fa0, zero           # avg: start from 0", 1),
    ("window_fold fmax.s", "window_fold fmax.{f}", 1),
    ("window_fold fadd.s", "window_fold fadd.{f}", 1),
    ("    fmul.s ft0, ft0, fa1\n4:  fsw ft0, 0(a5)\n    addi a5, a5, 4\n",
     "    fcvt.s.{f} ft0, ft0\n    p.bneimm a7, 2, 5f\n    fmul.s ft0, ft0, fa2\n    j 6f\n"
     "5:  fdiv.s ft0, ft0, fa1\n6:  fcvt.{f}.s ft0, ft0\n"
     "4:  fsh ft0, 0(a5)\n    addi a5, a5, 2\n", 1),
    ("flt.s a6, ft0, ft1", "flt.{f} a6, ft0, ft1", 1),
    ("fmax.s ft0, ft0, ft1", "fmax.{f} ft0, ft0, ft1", 1),
    ("    flw ft2, 0(a5)\n    flw ft3, 0(a0)\n    addi a5, a5, 4\n    fadd.s ft3, ft3, ft2\n"
     "    fsw ft3, 0(a0)\n",
     "    flh ft2, 0(a5)\n    flh ft3, 0(a0)\n    addi a5, a5, 2\n    fadd.{f} ft3, ft3, ft2\n"
     "    fsh ft3, 0(a0)\n", 1),
    ("srli t1, a6, 2", "srli t1, a6, 1", 2),
    ("zeros t1, t0                 #", "zeros t1, t0, 2, p.sh        #", 2),
    ("    flw ft2, 0(a5)\n    addi a5, a5, 4\n    fmul.s ft2, ft2, fa1         # dy / (Hk*Wk)\n",
     "    flh ft2, 0(a5)\n    addi a5, a5, 2\n    fcvt.s.{f} ft2, ft2\n    p.bneimm a7, 2, 5f\n"
     "    fmul.s ft2, ft2, fa2\n    j 6f\n5:  fdiv.s ft2, ft2, fa1\n"
     "6:  fcvt.{f}.s ft2, ft2          # dy / (Hk*Wk), rounded once\n", 1),
    ("    fadd.s ft1, ft1, ft2\n1:  fsw ft1, -4(t6)\n",
     "    fadd.{f} ft1, ft1, ft2\n1:  fsh ft1, -2(t6)\n", 1),
), "# {what} max and average pooling, forward and backward, CHW: pooling.s on 16-bit elements,\n"
   "# each maximum, sum and quotient rounded to {what} as trainlib.golden rounds it (the\n"
   "# quotient by Hk*Wk divided in binary32 and rounded once more: correctly rounded, 24 >=\n"
   "# 2p + 2), bit-exact; generated from pooling.s (PULP-TrainLib pulp_pooling_fp32.c, with",
    per_format=True, docs={
        "avgpool_fw": "y = window sum (rounded step by step) / (Hk*Wk), rounded once (padding "
                      "counts as zero); (channel, output row) units split over cores",
        "avgpool_bw": "dx = 0; each in-image element of a window += dy / (Hk*Wk) (rounded "
                      "once); channels split over cores"})

DERIVED = (TRANSPOSE_16, IM2COL_16, POOLING)

SOURCES = (ELEMENTWISE_16, ELEMENTWISE, ACTIVATION, BIAS, OPTIMIZER, LOSS)


def _toml_entry(name: str, file: str, family: str, args: str, parallel: str,
                constraints: tuple[str, ...], doc: str, isa: str | None = None) -> list[str]:
    cons = ", ".join(f'"{c}"' for c in constraints)
    return (["[[kernel]]", f'name = "{name}"', f'file = "{file}"', f'entry = "{name}"',
             f'family = "{family}"', f'args = "{args}"', f'parallel = "{parallel}"',
             f"constraints = [{cons}]"] + ([f'isa = "{isa}"'] if isa else [])
            + [f'doc = "{doc}"', ""])


def outputs() -> dict[Path, str]:
    """Every generated file and its content."""
    files: dict[Path, str] = {}
    toml = ["# The 16-bit kernels (binary16 *_fp16, bfloat16 *_bf16, both formats *_16, and the",
            "# conversions), GENERATED by asm_kernels/half_gen.py",
            "# (python -m asm_kernels.half_gen).",
            "# Layout, rounding and naming: that module's docstring.", ""]
    for src in SOURCES:
        for suffix, what, subs in src.variants():
            file = f"{src.stem}_{suffix}.s"
            files[HERE / file] = GENERATED + own_macros(src.text.format(**subs), suffix)
            for k in src.kernels:
                toml += _toml_entry(f"{k.stem}_{suffix}", file, f"{src.stem}_{suffix}", k.args,
                                    k.parallel, k.constraints, f"{what}: {k.doc}",
                                    subs.get("isa"))
    for d in DERIVED:
        for suffix, what, subs in d.variants():
            file = d.source.replace(".s", f"_{suffix}.s")
            files[HERE / file] = d.text(suffix, subs)
            for k in d.kernels():
                doc = d.docs.get(k["name"], k["doc"])
                toml += _toml_entry(f"{k['name']}_{suffix}", file, f"{d.family}_{suffix}",
                                    k["args"], k["parallel"], tuple(k["constraints"]),
                                    f"{what}: {doc}", subs.get("isa"))
    for fm in FORMATS:
        file = f"depthwise_{fm.prec}.s"
        files[HERE / file] = depthwise_text(fm)
        for k in depthwise_kernels(fm):
            toml += _toml_entry(k["name"], file, f"depthwise_{fm.prec}", "mm_dw", k["parallel"],
                                DW_CONSTRAINTS, k["doc"], fm.isa)
    for fm in FORMATS:
        file = f"convert_{fm.prec}.s"
        files[HERE / file] = convert_text(fm)
        for k in convert_kernels(fm):
            toml += _toml_entry(k["name"], file, "convert", "copy", "elements", N1, k["doc"],
                                fm.isa)
    files[HERE / "half.toml"] = "\n".join(toml)
    return files


def main() -> int:
    for path, text in outputs().items():
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
            print(f"wrote {path.relative_to(HERE.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
