"""16-bit lowering: a step spec in fp16 or bf16, conversions between formats, the ISA check.

A layer computing in fp16 or bf16 is lowered exactly as in fp32 (``trainlib.lowering``), then
``in_precision`` rewrites the spec: every tensor and scratch buffer holds 16-bit elements, and
every call takes the 16-bit counterpart of its fp32 kernel from the catalogue:

* the counterpart of a kernel is the catalogue's ``variant`` (``k_fp16`` / ``k_bf16``, ``k_16``
  for data movement shared by both formats, or ``k`` itself for a kernel that reads and writes
  binary32 words in every precision); else a kernel of family ``F_fp16`` / ``F_bf16`` or of a
  shared 16-bit family with the same argument structure, whose name without its format tag
  (``fp16``, ``bf16``, ``f16``, ``h``, ``16``) is the fp32 kernel's, or with the same register
  block and parallel dimension (``mm_naive_n`` -> ``mmh_naive_n``);
* the main matmul takes the chosen kernel of family ``matmul_<precision>``.  Where such a
  kernel only takes a transposed B (``trans_B == 1``) and the step's product has B untransposed
  (K x M with K, M > 1), the tile transposes B into a scratch buffer first, with the 16-bit
  ``transpose`` kernel (the Conv2D weight gradient lowers its B, the im2row rows, already
  transposed for such a kernel: ``im2col``, no transpose call); the packed kernels read rows
  padded to an even K, so with K odd the tile pads the rows of A and B (``_pad_rows``: a zero
  row, transposes).  Those calls are part of the step and of its cycles.

A kernel the catalogue lacks makes the step's calls raise ``NotAvailable`` naming the kernel
family it needs (``unavailable`` turns that into the plan's refusal): nothing computes on the
host.  Conversions between formats (``convert_spec``) are kernels of family ``convert``
(fp32 <-> fp16, fp32 <-> bf16; fp16 <-> bf16 goes through fp32, exact in the first half).
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re

import numpy as np

from asm_kernels.catalogue import Kernel, catalogue, variant
from trainlib.driver import Call, Ref
from trainlib.errors import ModelError, NotAvailable
from trainlib.lowering import (
    MAIN_LABELS,
    MM_LABEL,
    Scratch,
    Split,
    StepSpec,
    TensorUse,
    reads_untransposed_b,
)

SIXTEEN = ("fp16", "bf16")
# what each precision needs of the ISA (toolchain.table.parse_selection's extension names):
# scalar binary16 / bfloat16 (Xf16 / Xf16alt) and the packed-SIMD two-lane vectors (Xfvec)
# that PULP's 16-bit kernels compute with
EXTENSIONS = {"fp32": (), "fp16": ("xf16", "xfvec"), "bf16": ("xf16alt", "xfvec")}
_TAG = re.compile(r"^(fp16|bf16|f16|h|16)$")
_FORMAT_TOKEN = re.compile(r"bf16|fp16|fp32|f16|f32")
_TOKEN_FORMAT = {"bf16": "bf16", "fp16": "fp16", "f16": "fp16", "fp32": "fp32", "f32": "fp32"}


def missing_extensions(precision: str, selection: str) -> list[str]:
    """The ISA extensions ``precision`` needs that the ISA string ``selection`` lacks."""
    from toolchain.table import parse_selection
    have = parse_selection(selection).extensions
    return [e for e in EXTENSIONS[precision] if e not in have]


def check_isa(model, selection: str) -> None:
    """Refuse, before any run, a model whose precisions the ISA cannot execute."""
    for p in sorted(model.precisions):
        miss = missing_extensions(p, selection)
        if miss:
            layers = [la.name for la in model.layers if model.precision_of(la.name) == p]
            raise ModelError(f"model {model.name}: precision {p} (layer(s) {', '.join(layers)})"
                             f" needs the ISA extension(s) {', '.join(miss)}, which the "
                             f"selected ISA {selection!r} lacks")


def _families(family: str, precision: str) -> set[str]:
    """The families a 16-bit counterpart of a ``family`` kernel may come from."""
    own = {f"{family}_{precision}"}
    shared = {k.family for k in catalogue().values()
              if "16" in k.family and not any(p in k.family for p in SIXTEEN)}
    return own | shared


def _stem(name: str) -> str:
    return "_".join(t for t in name.split("_") if not _TAG.match(t))


@functools.cache
def counterpart(name: str, precision: str) -> Kernel | None:
    """The ``precision`` kernel that computes what fp32 kernel ``name`` computes, or None:
    the catalogue's ``variant`` (``name_fp16`` / ``name_bf16`` / ``name_16``, or ``name`` for
    a kernel that reads and writes binary32 in every precision), else the kernel of family
    ``F_<precision>`` with the same structure, register block and parallel dimension
    (``mm_naive_n`` -> ``mmh_naive_n``)."""
    cat = catalogue()
    k = cat[name]
    try:
        return cat[variant(name, precision)]
    except KeyError:
        pass
    fams = _families(k.family, precision)
    cands = [c for c in cat.values() if c.family in fams and c.args == k.args]
    by_name = [c for c in cands if _stem(c.name) == name]
    if by_name:
        return by_name[0]
    same = [c for c in cands if c.unroll == k.unroll and c.parallel == k.parallel
            and c.family == f"{k.family}_{precision}" and _on_f_registers(c)]
    return sorted(same, key=lambda c: c.name)[0] if same else None


def _on_f_registers(k: Kernel) -> bool:
    """The driver assembles for the separate f registers (``trainlib.driver``): kernels
    written for the single register file (zfinx) are not candidates."""
    return k.regfile == "f"


def _need(name: str, precision: str, label: str) -> Kernel:
    k = counterpart(name, precision)
    if k is None:
        fam = catalogue()[name].family
        raise NotAvailable(f"no {precision} kernel for {name} ({label}): the catalogue has no "
                           f"kernel family {fam}_{precision} (nor a shared 16-bit "
                           f"data-movement family) with its counterpart")
    return k


def default_kernel(fp32_default: str, precision: str) -> str:
    """The default main kernel in ``precision``: the counterpart of the fp32 default."""
    if precision == "fp32":
        return fp32_default
    k = counterpart(fp32_default, precision)
    if k is None:
        fam = f"{catalogue()[fp32_default].family}_{precision}"
        raise NotAvailable(f"no {precision} counterpart of {fp32_default}: the catalogue has "
                           f"no kernel family {fam}")
    return k.name


def _main(c: Call, kernel: str, precision: str) -> list[Call]:
    """The main call with the 16-bit kernel: B transposed first where the kernel needs it,
    rows padded to an even K where it reads padded rows (``_pad_rows``)."""
    a = dict(c.args)
    if c.label != MM_LABEL:
        return [Call(kernel, a, c.label)]
    pre: list[Call] = []
    untransposed = a.get("trans_B", 1) == 0 and not reads_untransposed_b(kernel)
    odd = a["K"] % 2 == 1
    b_done = untransposed and min(a["K"], a["M"]) > 1
    if b_done and odd:                         # K x M into a (K+1) x M with a zero last row
        pre += _pad_rows(a["B"], a["M"], a["K"], "b", precision, transposed=True)
        a["B"] = Ref("bp")
    elif b_done:                               # K x M -> M x K
        tr = _need("transpose", precision, "transpose of B")
        pre.append(Call(tr.name, dict(src=a["B"], dst=Ref("bT"), R=a["K"], C=a["M"]),
                        "transpose"))
        a["B"] = Ref("bT")
    if untransposed:
        a["trans_B"] = 1                       # done above, or a vector: its own transpose
    if odd and a["N"] > 1:
        pre += _pad_rows(a["A"], a["N"], a["K"], "a", precision)
        a["A"] = Ref("ap")
    if odd and a["M"] > 1 and not b_done:      # B is M x K dense rows now
        pre += _pad_rows(a["B"], a["M"], a["K"], "b", precision)
        a["B"] = Ref("bp")
    return [*pre, Call(kernel, a, c.label)]


def _pad_rows(x: Ref, rows: int, k: int, tag: str, precision: str,
              transposed: bool = False) -> list[Call]:
    """Calls giving ``rows`` x (k + 1) rows of ``x`` with a zero pad value each (scratch
    ``<tag>p``), the layout of the packed-SIMD matmuls for an odd K: every row starts on a word
    (``asm_kernels/matmul_fp16_gen.py``).  ``x`` is rows x k, or k x rows when ``transposed``.
    Built with the 16-bit data-movement kernels: x transposed (or copied, when it already is)
    into a (k + 1) x rows buffer whose last row is copied from the step's zero constant, then
    transposed."""
    tr = _need("transpose", precision, "row padding")
    cp = _need("copy", precision, "row padding")
    big = Ref(f"{tag}P")
    calls = [Call(cp.name, dict(src=Ref(ZEROS), dst=Ref(big.buf, k * rows), n=rows), "pad")]
    if transposed:
        calls.append(Call(cp.name, dict(src=x, dst=big, n=k * rows), "pad"))
    else:
        calls.append(Call(tr.name, dict(src=x, dst=big, R=rows, C=k), "pad"))
    calls.append(Call(tr.name, dict(src=big, dst=Ref(f"{tag}p"), R=k + 1, C=rows), "pad"))
    return calls


ZEROS = "zeros16"


def _calls(calls: list[Call], precision: str) -> list[Call]:
    out: list[Call] = []
    for c in calls:
        if c.label in MAIN_LABELS:                  # already the chosen 16-bit kernel
            out += _main(c, c.kernel, precision)
        else:
            out.append(Call(_need(c.kernel, precision, c.label).name, dict(c.args), c.label))
    return out
PAD_SCRATCH = ("bT", "aP", "ap", "bP", "bp")


def _written(calls: list[Call], buf: str) -> int:
    """Elements of scratch ``buf`` the calls write (transpose: R x C; copy, fill: n)."""
    most = 0
    for c in calls:
        dst = c.args.get("dst")
        if isinstance(dst, Ref) and dst.buf == buf:
            n = c.args["R"] * c.args["C"] if "R" in c.args else c.args["n"]
            most = max(most, dst.offset + int(n))
    return most


# the loss kernels keep binary32 words in every precision (asm_kernels/catalogue.py): the loss
# value and statistics they write, and their per-core partial sums
BINARY32_TENSORS = frozenset({"loss"})
BINARY32_SCRATCH = frozenset({"partial"})


def in_precision(spec: StepSpec, precision: str) -> StepSpec:
    """``spec`` (lowered with its main kernel already of ``precision``, the helpers fp32)
    computing in ``precision`` with 16-bit elements and kernels."""
    tensors = [t if t.name in BINARY32_TENSORS else dataclasses.replace(t, fmt=precision)
               for t in spec.tensors]

    def tile(n: int) -> list[Call]:
        return _calls(spec.tile(n), precision)

    def prologue() -> list[Call]:
        return _calls(spec.prologue(), precision)

    scratch = [s if s.name in BINARY32_SCRATCH else dataclasses.replace(s, fmt=precision)
               for s in spec.scratch]
    consts = dict(spec.consts)
    if spec.kernel is not None and catalogue()[spec.kernel].family.startswith("matmul"):
        scratch += [Scratch(b, lambda n, b=b: _written(tile(n), b), fmt=precision)
                    for b in PAD_SCRATCH]
        try:
            rows = max([c.args["n"] for c in tile(spec.extent)
                        if c.args.get("src") == Ref(ZEROS)], default=0)
        except NotAvailable:
            rows = 0                            # refused when planned (``unavailable``)
        if rows:
            consts[ZEROS] = np.zeros((rows + 1) // 2, np.float32)    # 2 zero halves a word
    return dataclasses.replace(spec, tensors=tensors, tile=tile, prologue=prologue,
                               scratch=scratch, consts=consts, precision=precision)


# ---- conversions and the fp32 master-weight update --------------------------------------------
def convert_kernel(src: str, dst: str) -> Kernel:
    """The ``convert`` kernel from ``src`` to ``dst`` (one of them fp32): the one whose name
    names the two formats in that order (``..._fp32_fp16``, ``...f16_to_f32``); NotAvailable
    names the family when the catalogue has none."""
    for k in sorted(catalogue().values(), key=lambda k: k.name):
        fmts = [_TOKEN_FORMAT[t] for t in _FORMAT_TOKEN.findall(k.name)]
        if k.family == "convert" and fmts[:2] == [src, dst]:
            return k
    raise NotAvailable(f"no conversion {src} -> {dst}: the catalogue has no kernel of family "
                       f"convert for it")


def _convert_call(src: str, dst: str, a: Ref, b: Ref, n: int, label: str) -> Call:
    k = convert_kernel(src, dst)
    ptrs = [f for f, kind in k.args.fields if kind == "ptr"]
    ints = [f for f, kind in k.args.fields if kind == "i32"]
    if len(ptrs) != 2 or len(ints) != 1:
        raise NotAvailable(f"convert kernel {k.name}: expected (src, dst, n) arguments, its "
                           f"structure is {k.args.name}")
    return Call(k.name, {ptrs[0]: a, ptrs[1]: b, ints[0]: n}, label)


def convert_calls(src: str, dst: str, a: Ref, b: Ref, n: int, via: Ref | None = None
                  ) -> list[Call]:
    """Calls converting n elements ``a`` (``src``) to ``b`` (``dst``); between the two 16-bit
    formats through the fp32 buffer ``via``."""
    if "fp32" in (src, dst):
        return [_convert_call(src, dst, a, b, n, "convert")]
    assert via is not None
    return [_convert_call(src, "fp32", a, via, n, "convert"),
            _convert_call("fp32", dst, via, b, n, "convert")]


def convert_spec(layer: str, step: str, shape: tuple[int, ...], src: str, dst: str
                 ) -> StepSpec:
    """A conversion of one tensor (``x`` in ``src`` -> ``y`` in ``dst``), split by elements."""
    size = math.prod(shape)
    sp = Split(1)
    ts = [TensorUse("x", shape, "in", sp, src), TensorUse("y", shape, "out", sp, dst)]
    both16 = "fp32" not in (src, dst)
    scratch = [Scratch("x32", lambda n: n)] if both16 else []

    def tile(n: int) -> list[Call]:
        return convert_calls(src, dst, Ref("x"), Ref("y"), n, Ref("x32") if both16 else None)
    return StepSpec(layer, step, "n", size, ts, tile, scratch=scratch, precision=dst)


MASTER_KERNEL = "sgd_master"


def master_kernel(precision: str) -> Kernel:
    """The mixed-precision SGD kernel of ``precision`` (``sgd_master_fp16`` / ``_bf16``);
    NotAvailable names it when the catalogue lacks it."""
    name = f"{MASTER_KERNEL}_{precision}"
    try:
        return catalogue()[name]
    except KeyError:
        raise NotAvailable(f"no {precision} master-weight update: the catalogue has no kernel "
                           f"{name}") from None


def master_update(name: str, shape: tuple[int, ...], precision: str, lr: float,
                  weight_decay: float) -> StepSpec:
    """SGD on the fp32 master copy, the 16-bit weights rounded from it (mixed-precision
    training), one ``sgd_master_<precision>`` call per tile: the 16-bit gradient ``g`` read
    and widened in registers, ``master`` updated in place by ``sgd_update``'s two fused
    binary32 operations, ``w`` written rounded from the new ``master``.  The same bits as
    widening ``g`` into an fp32 buffer, ``sgd_update`` and narrowing ``master`` into ``w``
    (with weight decay +0: for every finite master), in one pass over the tile and without
    the buffer.  A catalogue without the kernel makes the calls raise NotAvailable, as the
    other 16-bit steps' calls do (``unavailable``)."""
    sp = Split(1)
    ts = [TensorUse("master", shape, "inout", sp), TensorUse("g", shape, "in", sp, precision),
          TensorUse("w", shape, "out", sp, precision)]

    def tile(n: int) -> list[Call]:
        return [Call(master_kernel(precision).name, dict(
            master=Ref("master"), g=Ref("g"), w=Ref("w"), n=n, lr=lr,
            weight_decay=weight_decay), "sgd")]
    return StepSpec(name, "update", "n", math.prod(shape), ts, tile, precision=precision)
