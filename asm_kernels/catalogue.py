"""The kernel catalogue: which kernels exist, where their code is, what they take.

Data lives in ``asm_kernels/*.toml``: ``structs.toml`` declares argument structures, and every
other file declares ``[[kernel]]`` entries:

    name        unique kernel name (the runner's key)
    file        assembly file in asm_kernels/ that defines it
    entry       its global entry symbol
    family      matmul | matmul_fp16 | matmul_bf16 | depthwise | im2col | transpose | loss | ...
    args        name of its argument structure (structs.toml)
    unroll      [U, V]: output block computed per inner loop (matmul-like kernels)
    parallel    dimension split over cores: N, M, channels, elements, rows, ...
    constraints list of conditions on the arguments, e.g. ["K >= 2"] (Python expressions)
    isa         the smallest ISA string it is written for (default ``rv32imfc_xpulpv2``): the
                register-file model (``f``: separate FP registers; ``_zfinx``: FP values in the
                x registers) and the optional extensions it uses (``_xf16``, ``_xfvec`` ...)
    doc         one line: what it computes

Kernel files may ``.include`` the shared macro files (``*.inc``) of this directory, which
``kernel_dir()`` names for the assembler wherever the package is installed.

Every kernel is an SPMD function: all cores call it with the argument pointer in a0 and the
number of cores in a1 (the hart id comes from mhartid); it takes its slice, returns with ``ret``,
follows the ilp32f calling convention (s0-s11, fs0-fs11 and sp preserved) and never waits in a
barrier itself (the caller does).

16-bit kernels (``asm_kernels/half_gen.py``, ``matmul_fp16_gen.py``): the counterpart of fp32
kernel ``k`` in binary16 is ``k_fp16`` (family ``<fp32 family>_fp16``), in bfloat16 ``k_bf16``
(family ``<fp32 family>_bf16``); a kernel that only moves 16-bit data or looks at bits (im2row,
transposes, copy, ReLU) serves both formats as ``k_16`` (family ``<fp32 family>_16``).  Their
argument structures are the fp32 kernel's: same fields and element counts, the pointers to
16-bit arrays (the losses' per-core ``partial`` slots and the ``out`` / ``stats`` words stay
binary32, see ``loss_fp16.s``).  ``variant(k, precision)`` names the kernel to call.  Family
``convert`` (``fp32_to_fp16``, ``fp16_to_fp32``, ``fp32_to_bf16``, ``bf16_to_fp32``, struct
copy) converts tensors between layers of different precisions.

Single register file (zfinx, the ``gvsoc-2022`` preset's cores): kernels exist for both
register-file models.  The matmul families name their zfinx variants by an ``x`` in the prefix
(``mm_`` -> ``mmx_``, ``mmh_`` -> ``mmhx_``, ``mmb_`` -> ``mmbx_``; block shapes that fit 32 x
registers, ``matmul_gen.py``); every other kernel ``k`` has ``k_x`` (``asm_kernels/zfinx_gen.py``,
``zfinx.toml``: the same code with each routine's f registers mapped to x registers by
liveness and FP loads, stores and moves made integer ones; integer-only kernels' ``_x``
entries name the original file; the routines that hold more values at once than the x
registers, ``mm_dw_1x4_u2``, ``depthwise_sp.s`` and the 16-bit in-grad ``_sp_1x4``, have
none), same family and argument structure, ``isa`` with ``_zfinx``.  ``for_isa(k, isa)`` names
the kernel to call on a core of that ISA; ``usable`` tells whether a core runs a kernel.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable

from toolchain.table import Selection, SelectionError, parse_selection

FIELD_KINDS = ("ptr", "i32", "f32")
DEFAULT_ISA = "rv32imfc_xpulpv2"


class CatalogueError(ValueError):
    """A mistake in the catalogue data."""


@dataclass(frozen=True)
class Struct:
    name: str
    fields: tuple[tuple[str, str], ...]     # (name, kind)

    @property
    def size(self) -> int:
        return 4 * len(self.fields)

    def offset(self, field_name: str) -> int:
        for i, (n, _) in enumerate(self.fields):
            if n == field_name:
                return 4 * i
        raise KeyError(f"struct {self.name} has no field {field_name!r}")


@dataclass(frozen=True)
class Kernel:
    name: str
    file: str
    entry: str
    family: str
    args: Struct
    unroll: tuple[int, ...] = (1, 1)
    parallel: str = ""
    constraints: tuple[str, ...] = ()
    doc: str = ""
    isa: str = DEFAULT_ISA
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def selection(self) -> Selection:
        return parse_selection(self.isa)

    @property
    def regfile(self) -> str:
        """``"x"``: FP values in the integer registers (zfinx), ``"f"``: separate FP registers."""
        return "x" if self.selection.zfinx else "f"

    def source(self) -> str:
        return kernel_dir().joinpath(self.file).read_text()

    def violated(self, values: dict[str, int | float]) -> str | None:
        """The first constraint the argument values break, or None."""
        for cond in self.constraints:
            if not eval(cond, {"__builtins__": {}}, dict(values)):  # noqa: S307 - catalogue data
                return cond
        return None


def kernel_dir() -> Traversable:
    """The directory of the kernel sources and catalogue data: the include directory to give
    the assembler for a kernel file's ``.include``s."""
    return resources.files("asm_kernels")


PRECISIONS = ("fp32", "fp16", "bf16")


def variant(name: str, precision: str) -> str:
    """The kernel computing what fp32 kernel ``name`` computes, on data of ``precision``:
    ``name`` itself for fp32, else ``name_fp16`` / ``name_bf16`` (arithmetic in that format),
    else ``name_16`` (16-bit data movement, both formats), else ``name`` when the fp32 kernel
    works on binary32 values whatever the layer's precision (the losses' combines, which read
    binary32 partial sums).  KeyError when the catalogue has none of them."""
    if precision not in PRECISIONS:
        raise ValueError(f"precision {precision!r}: one of {', '.join(PRECISIONS)}")
    cat = catalogue()
    if precision == "fp32":
        return kernel(name).name
    for cand in (f"{name}_{precision}", f"{name}_16"):
        if cand in cat:
            return cand
    if name in BINARY32_IN_EVERY_PRECISION:
        return name
    raise KeyError(f"no {precision} variant of kernel {name!r} in the catalogue")


def for_isa(name: str, isa: str) -> str:
    """The kernel computing what kernel ``name`` computes that a core whose ISA is ``isa`` runs:
    ``name`` itself when ``usable``, else its single-register-file variant (``name_x``, or the
    matmul prefix's ``x`` form), else its f-register original when ``name`` is a zfinx one.
    KeyError naming the register-file model when the catalogue has none."""
    cat = catalogue()
    base = name.removesuffix("_x")
    cands = [name, f"{name}_x", base]
    for f_prefix, x_prefix in MATMUL_ZFINX_PREFIX:
        if name.startswith(f_prefix):
            cands.append(x_prefix + name[len(f_prefix):])
        elif name.startswith(x_prefix):
            cands.append(f_prefix + name[len(x_prefix):])
    for cand in cands:
        if cand in cat and usable(cat[cand], isa):
            return cand
    model = "single register file (zfinx)" if parse_selection(isa).zfinx else "f registers"
    raise KeyError(f"no variant of kernel {name!r} for {isa} ({model}) in the catalogue")


MATMUL_ZFINX_PREFIX = (("mm_", "mmx_"), ("mmh_", "mmhx_"), ("mmb_", "mmbx_"))


# fp32 kernels that serve the 16-bit layers too: they read and write only binary32 words
BINARY32_IN_EVERY_PRECISION = frozenset({"reduce_sum", "ce_combine"})


@functools.cache
def structs() -> dict[str, Struct]:
    data = tomllib.loads(kernel_dir().joinpath("structs.toml").read_text())
    out = {}
    for name, spec in data.get("struct", {}).items():
        fields = []
        for f in spec["fields"]:
            fname, _, kind = f.partition(":")
            if kind not in FIELD_KINDS:
                raise CatalogueError(f"struct {name}: field {f!r}: kind must be one of "
                                     f"{FIELD_KINDS}")
            fields.append((fname, kind))
        out[name] = Struct(name, tuple(fields))
    return out


@functools.cache
def catalogue() -> dict[str, Kernel]:
    """Every kernel of every catalogue file, by name."""
    known = {"name", "file", "entry", "family", "args", "unroll", "parallel", "constraints",
             "doc", "isa"}
    out: dict[str, Kernel] = {}
    files = sorted(r for r in kernel_dir().iterdir()
                   if r.name.endswith(".toml") and r.name != "structs.toml")
    for res in files:
        for spec in tomllib.loads(res.read_text()).get("kernel", []):
            where = f"{res.name}: kernel {spec.get('name', '?')}"
            unknown = set(spec) - known
            if unknown:
                raise CatalogueError(f"{where}: unknown keys {sorted(unknown)}")
            if spec["name"] in out:
                raise CatalogueError(f"{where}: defined twice")
            if spec["args"] not in structs():
                raise CatalogueError(f"{where}: unknown argument struct {spec['args']!r}")
            try:
                parse_selection(spec.get("isa", DEFAULT_ISA))
            except SelectionError as e:
                raise CatalogueError(f"{where}: isa: {e}") from None
            out[spec["name"]] = Kernel(
                name=spec["name"], file=spec["file"], entry=spec["entry"],
                family=spec["family"], args=structs()[spec["args"]],
                unroll=tuple(spec.get("unroll", (1, 1))), parallel=spec.get("parallel", ""),
                constraints=tuple(spec.get("constraints", ())), doc=spec.get("doc", ""),
                isa=spec.get("isa", DEFAULT_ISA))
    return out


def kernel(name: str) -> Kernel:
    try:
        return catalogue()[name]
    except KeyError:
        raise KeyError(f"no kernel {name!r}; known: {', '.join(sorted(catalogue()))}") from None


def usable(k: Kernel | str, isa: str) -> bool:
    """Whether a core whose ISA string is ``isa`` (a preset's ``xpulp``) runs kernel ``k`` as
    written: the same register-file model (a zfinx core has no f registers; a core with them
    does not take FP operands from the x registers), the same Xpulp family, and every optional
    extension the kernel uses.  This is what a tuner filters its candidates with, so that it
    tunes under the preset's model."""
    k = kernel(k) if isinstance(k, str) else k
    need, have = k.selection, parse_selection(isa)
    return (need.zfinx == have.zfinx and need.fp <= have.fp and need.family == have.family
            and need.extensions <= have.extensions)


def program_isa(k: Kernel | str, isa: str) -> str:
    """The ISA to assemble and run kernel ``k`` with on a core configured with ``isa``: that
    ISA with the kernel's register-file model (so that both models' kernels can be measured
    under one timing preset, as ``bench/kernels.py`` does)."""
    k = kernel(k) if isinstance(k, str) else k
    have = parse_selection(isa)
    if k.selection.zfinx == have.zfinx:
        return isa
    zfinx = k.selection.zfinx
    return Selection(have.family, have.extensions, have.fp, zfinx).name
