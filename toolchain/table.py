"""The instruction table: data files in ``isa/`` turned into entries, aliases and a decoder.

One TOML file per extension.  Base extensions (no ``family`` key) are always present; the Xpulp
extensions declare ``family = "xpulpv2"`` or ``family = "corev"`` and a program selects exactly
one of them (or none); extensions marked ``optional = true`` (the smallFloat ones) are present
when the selection names them.  A selection is an ISA string in GNU as's ``-march`` spelling
(``rv32imfc_xpulpv2_xf16_xf16alt_xfvec``; ``zfinx`` puts floating-point operands in the x
registers) or one of the family names of earlier versions (``parse_selection``).  Everything else
in the toolchain (encoder, decoder, disassembler, assembler) and the simulator's predecoder is
derived from what this module loads.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from toolchain.fields import Field, TableError, make_field
from toolchain.registers import FREGS, ROUNDING_MODES, XREGS, parse_fence_set
from toolchain.syntax import Template, parse_template, split_operands

FAMILIES = ("xpulpv2", "corev", "none")
DEFAULT_FAMILY = "xpulpv2"
SMALLFLOAT = ("xf16", "xf16alt", "xfvec")
# what each family name stands for as an ISA string (xpulpv2: the full PULP set)
FAMILY_ISA = {"xpulpv2": "rv32imfc_xpulpv2_xf16_xf16alt_xfvec", "corev": "rv32imfc_xcorev",
              "none": "rv32imfc"}
TIMING_CLASSES = {
    "alu", "mul", "mulh", "div", "load", "store", "branch", "jump", "jalr", "csr", "fence",
    "system", "fpu", "fpu_other", "fdiv", "fsqrt", "fdiv16", "hwloop", "elw",
}
_FIXED = re.compile(r"^(\d+)(?:\.\.(\d+))?=(0x[0-9a-fA-F]+|0b[01]+|\d+)$")


class EncodeError(ValueError):
    """An operand value that the chosen instruction cannot encode."""


# ---- data classes ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Mapping:
    """How one instruction's fields are written in terms of another's (aliases, RVC expansion).

    ``target`` is the instruction stood for; ``sources`` maps each of its fields to either
    ``("field", name)`` (a field of the alias / compressed instruction) or ``("const", value)``.
    """

    target: Entry
    sources: tuple[tuple[str, tuple[str, Any]], ...]

    def forward(self, values: dict[str, int]) -> dict[str, int]:
        out: dict[str, int] = {}
        for tname, (kind, src) in self.sources:
            out[tname] = values[src] if kind == "field" else src
        for tname, f in self.target.fields.items():
            out.setdefault(tname, f.default)
        return out

    def backward(self, target_values: dict[str, int], own_fields: dict[str, Field]
                 ) -> dict[str, int] | None:
        """Field values of the alias that stand for ``target_values``; None if impossible."""
        mine: dict[str, int] = {}
        mapped = set()
        for tname, (kind, src) in self.sources:
            mapped.add(tname)
            v = target_values.get(tname, self.target.fields[tname].default)
            if kind == "const":
                if v != src:
                    return None
                continue
            if src in mine and mine[src] != v:
                return None
            if own_fields[src].fits(v) is not None:
                return None
            mine[src] = v
        for tname, f in self.target.fields.items():
            if tname not in mapped and target_values.get(tname, f.default) != f.default:
                return None
        return mine


@dataclass
class Entry:
    """One encoding of one instruction."""

    name: str
    extension: str
    family: str | None
    length: int
    match: int
    mask: int
    templates: tuple[Template, ...]
    fields: dict[str, Field]
    op: str
    timing: str
    constraints: tuple[tuple[str, int], ...] = ()   # (field, value) pairs the value must avoid
    reads: tuple[str, ...] = ()                     # extra source fields (e.g. rd of p.mac)
    writes: tuple[str, ...] = ()                    # extra destination fields (post-increment)
    expands: Mapping | None = None                  # RVC: the base instruction it stands for
    # RVC: further base spellings the assembler compresses to this entry (GNU as compresses
    # `add a0, a1, a0` to `c.add a0, a1`); decoding always uses ``expands``
    also_compresses: tuple[Mapping, ...] = ()
    # RVC: the source spellings ("mnemonic" or "mnemonic template") GNU as compresses to this
    # entry; None: every spelling
    compress_from: tuple[str, ...] | None = None
    # a HINT encoding (RISC-V unprivileged spec, "HINT instructions"): decoded and executed as
    # what it expands to (writes to x0 discarded), never chosen by the assembler, which, as GNU
    # as, does not emit HINTs
    hint: bool = False
    key: str = ""

    def __hash__(self) -> int:
        return id(self)

    @property
    def pc_relative(self) -> bool:
        """Whether a field is relative to the instruction's address (a branch or jump target):
        its encoding, and its disassembly, then depend on where it is."""
        return any(f.kind == "pcrel" for f in self.fields.values())

    def matches(self, word: int) -> bool:
        if word & self.mask != self.match:
            return False
        return all(self.fields[f].extract(word) != v for f, v in self.constraints)

    def violated(self, values: dict[str, int]) -> str | None:
        for f, v in self.constraints:
            if values.get(f, self.fields[f].default) == v:
                return f"{self.name}: operand {f} cannot be {v}"
        return None


@dataclass
class Alias:
    name: str
    templates: tuple[Template, ...]
    fields: dict[str, Field]
    mapping: Mapping
    disasm: bool = True


@dataclass
class Decoded:
    """A decoded word: the instruction as written and, for RVC, the base instruction it means."""

    entry: Entry
    values: dict[str, int]
    word: int
    base: Entry
    base_values: dict[str, int]

    @property
    def length(self) -> int:
        return self.entry.length


@dataclass(frozen=True)
class Selection:
    """What a program may use: an Xpulp family, optional extensions, and the register file."""

    family: str                     # "xpulpv2", "corev" or "none"
    extensions: frozenset[str]      # optional extensions (SMALLFLOAT)
    fp: bool                        # RV32F (in f registers, or in x registers with zfinx)
    zfinx: bool                     # single register file: FP operands are x registers

    @property
    def name(self) -> str:
        """The ISA string, in GNU as's order and spelling."""
        text = "rv32im" + ("f" if self.fp and not self.zfinx else "") + "c"
        if self.zfinx:
            text += "_zfinx"
        if self.family != "none":
            text += "_" + ("xcorev" if self.family == "corev" else "xpulpv2")
        return text + "".join(f"_{x}" for x in SMALLFLOAT if x in self.extensions)


class SelectionError(ValueError):
    """An ISA string that names something the toolchain does not have, or a contradiction."""


_LETTERS = {"i", "m", "f", "c"}
_IGNORED = {"zicsr", "zifencei"}       # always present


def parse_selection(text: str) -> Selection:
    """``"rv32imfc_xpulpv2_xf16"``, ``"rv32imc_zfinx_zhinx"``, or a family name (``FAMILY_ISA``).

    ``zfh`` is Xf16 (the same encodings), ``zhinx`` is Xf16 on the x registers (it implies
    ``zfinx``); ``xcorev`` (or ``corev``) selects the CORE-V family.
    """
    low = text.strip().lower()
    low = FAMILY_ISA.get(low, low)
    if not low.startswith("rv32"):
        raise SelectionError(f"ISA string {text!r} must start with rv32 (e.g. "
                             f"{FAMILY_ISA['xpulpv2']}) or be one of {', '.join(FAMILIES)}")
    head, *parts = low[4:].split("_")
    letters = set(head)
    if not head or head[0] != "i" or letters - _LETTERS:
        raise SelectionError(f"ISA string {text!r}: single-letter extensions "
                             f"{head!r} are not supported (use i, m, f, c)")
    family = "none"
    exts: set[str] = set()
    zfinx = False
    for part in parts:
        if part in _IGNORED or not part:
            continue
        if part in ("xpulpv2", "xcorev", "corev"):
            fam = "xpulpv2" if part == "xpulpv2" else "corev"
            if family != "none" and fam != family:
                raise SelectionError(f"ISA string {text!r} selects both xpulpv2 and xcorev; "
                                     f"a program uses one Xpulp family")
            family = fam
        elif part in SMALLFLOAT:
            exts.add(part)
        elif part == "zfh":
            exts.add("xf16")
        elif part in ("zfinx", "zhinx"):
            zfinx = True
            if part == "zhinx":
                exts.add("xf16")
        else:
            raise SelectionError(f"ISA string {text!r}: unknown extension {part!r} (known: "
                                 f"zfinx, zhinx, zfh, xpulpv2, xcorev, {', '.join(SMALLFLOAT)})")
    fp = "f" in letters or zfinx
    if zfinx and "f" in letters:
        raise SelectionError(f"ISA string {text!r} selects both f (separate FP registers) and "
                             f"zfinx (FP operands in x registers)")
    if exts and not fp:
        raise SelectionError(f"ISA string {text!r}: {', '.join(sorted(exts))} need f or zfinx")
    return Selection(family, frozenset(exts), fp, zfinx)


@dataclass
class Isa:
    """The table for one selection (``parse_selection``)."""

    family: str
    entries: list[Entry]
    aliases: list[Alias]
    csrs: dict[str, int]
    selection: Selection | None = None
    by_name: dict[str, list[Entry]] = field(default_factory=dict)
    aliases_by_name: dict[str, list[Alias]] = field(default_factory=dict)
    aliases_for: dict[int, list[Alias]] = field(default_factory=dict)
    compressions: dict[int, list[Entry]] = field(default_factory=dict)
    csr_names: dict[int, str] = field(default_factory=dict)
    _buckets: dict[int, list[Entry]] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """The selection's ISA string (the key of ``load_isa``)."""
        return self.selection.name if self.selection is not None else FAMILY_ISA[self.family]

    def __post_init__(self) -> None:
        for e in self.entries:
            self._buckets.setdefault(_bucket_key(e.match, e.length), []).append(e)
            if e.hint:
                continue
            self.by_name.setdefault(e.name, []).append(e)
            if e.expands is not None:
                for target in dict.fromkeys(m.target for m in (e.expands, *e.also_compresses)):
                    self.compressions.setdefault(id(target), []).append(e)
        for bucket in self._buckets.values():
            bucket.sort(key=lambda e: -bin(e.mask).count("1"))
        for a in self.aliases:
            self.aliases_by_name.setdefault(a.name, []).append(a)
            if a.disasm:
                self.aliases_for.setdefault(id(a.mapping.target), []).append(a)
        for name, num in self.csrs.items():
            self.csr_names.setdefault(num, name)

    # ---- decoding --------------------------------------------------------------------------
    def decode(self, word: int) -> Decoded | None:
        """Decode the instruction in ``word`` (bits above 15 ignored for RVC); None if illegal."""
        length = 2 if word & 3 != 3 else 4
        if length == 2:
            word &= 0xFFFF
        else:
            word &= 0xFFFFFFFF
        for e in self._buckets.get(_bucket_key(word, length), ()):
            if e.matches(word):
                values = {n: f.extract(word) for n, f in e.fields.items()}
                if e.expands is not None:
                    return Decoded(e, values, word, e.expands.target, e.expands.forward(values))
                return Decoded(e, values, word, e, values)
        return None

    # ---- encoding --------------------------------------------------------------------------
    def encode(self, entry: Entry, values: dict[str, int]) -> int:
        """Encode; raises EncodeError naming the operand that does not fit."""
        word = entry.match
        for name, f in entry.fields.items():
            v = values.get(name, f.default)
            why = f.fits(v)
            if why is not None:
                raise EncodeError(f"{entry.name}: operand {name}: {why}")
            word |= f.insert(v)
        why = entry.violated(values)
        if why:
            raise EncodeError(why)
        return word

    def compress(self, entry: Entry, values: dict[str, int], written: str | None = None
                 ) -> tuple[Entry, dict[str, int]] | None:
        """The first RVC entry (table order) that encodes exactly this instruction, if any.

        ``written`` is how the source spelled it ("jr rs1": mnemonic and template text, see
        ``operands.Match.written``); GNU as compresses `jr a0` but not `jalr x0, 0(a0)`, so an
        entry with ``compress_from`` only accepts the spellings listed there.
        """
        for c in self.compressions.get(id(entry), ()):
            if written is not None and c.compress_from is not None:
                mnemonic = written.split(" ", 1)[0]
                if mnemonic not in c.compress_from and written not in c.compress_from:
                    continue
            for m in (c.expands, *c.also_compresses):
                if m.target is not entry:  # type: ignore[union-attr]
                    continue
                mine = m.backward(values, c.fields)
                if mine is not None and c.violated(mine) is None:
                    return c, mine
        return None


def _bucket_key(word: int, length: int) -> int:
    if length == 2:
        return 0x100 | (word & 3) | ((word >> 13) & 7) << 2
    return word & 0x7F


# ---- literal operand values (used by templates, aliases and the assembler) ---------------------
def parse_literal(f: Field, text: str, csrs: dict[str, int]) -> int | None:
    """Value of a literal operand written in the text (register, number, csr, rm, fence set)."""
    t = text.strip()
    low = t.lower()
    if f.kind == "xreg":
        return XREGS.get(low)
    if f.kind == "freg":
        return FREGS.get(low)
    if f.kind == "rm":
        return ROUNDING_MODES.get(low)
    if f.kind == "fence":
        return parse_fence_set(low)
    if f.kind == "csr" and low in csrs:
        return csrs[low]
    if f.kind == "loop" and low in ("x0", "x1"):
        return int(low[1])
    try:
        return int(t, 0)
    except ValueError:
        return None


# ---- loading -----------------------------------------------------------------------------------
@functools.cache
def _read_data() -> tuple[dict[str, dict], dict[str, dict]]:
    files: dict[str, dict] = {}
    for res in sorted(resources.files("toolchain.isa").iterdir(), key=lambda r: r.name):
        if res.name.endswith(".toml"):
            files[res.name[:-5]] = tomllib.loads(res.read_text())
    fields_file = files.pop("fields")
    csr_file = files.pop("csrs")
    return {"fields": fields_file, "csrs": csr_file}, files


def _parse_fixed(spec: str, length: int, where: str) -> tuple[int, int]:
    match = mask = 0
    for part in spec.split():
        m = _FIXED.match(part)
        if not m:
            raise TableError(f"{where}: bad fixed bits {part!r}")
        hi = int(m.group(1))
        lo = int(m.group(2)) if m.group(2) is not None else hi
        value = int(m.group(3), 0)
        width = hi - lo + 1
        if hi >= length * 8 or lo > hi or value >> width:
            raise TableError(f"{where}: fixed bits {part!r} do not fit")
        bits = ((1 << width) - 1) << lo
        if mask & bits:
            raise TableError(f"{where}: bit defined twice in {part!r}")
        mask |= bits
        match |= value << lo
    return match, mask


def _as_list(v: str | list[str]) -> list[str]:
    return [v] if isinstance(v, str) else list(v)


def _make_mapping(text: str, own: dict[str, Field], targets: list[Entry], csrs: dict[str, int],
                  where: str) -> Mapping:
    """Parse ``"addi rd, x0, imm12"`` against the target's templates."""
    mnemonic, _, ops = text.strip().partition(" ")
    operands = split_operands(ops)
    for target in targets:
        for tpl in target.templates:
            got = _bind(tpl, operands, own, target, csrs)
            if got is not None:
                return Mapping(target, tuple(got.items()))
    raise TableError(f"{where}: cannot read {text!r} as {mnemonic}")


def _bind(tpl: Template, operands: list[str], own: dict[str, Field], target: Entry,
          csrs: dict[str, int]) -> dict[str, tuple[str, Any]] | None:
    from toolchain.syntax import split_memory

    if len(tpl.patterns) != len(operands):
        return None
    out: dict[str, tuple[str, Any]] = {}

    def put(tfield: str, text: str) -> bool:
        if text in own:
            out[tfield] = ("field", text)
            return True
        v = parse_literal(target.fields[tfield], text, csrs)
        if v is None:
            return False
        out[tfield] = ("const", v)
        return True

    for pat, text in zip(tpl.patterns, operands, strict=True):
        if pat.literal is not None:
            if text.lower() != pat.literal.lower():
                return None
            continue
        if pat.is_memory:
            mem = split_memory(text)
            if mem is None:
                return None
            off, base, bang = mem
            if bang != pat.bang:
                return None
            if pat.fixed_base:
                if XREGS.get(base.lower()) != XREGS[pat.base.lower()]:  # type: ignore[union-attr]
                    return None
            elif not put(pat.base, base):  # type: ignore[arg-type]
                return None
            if pat.field is not None and not put(pat.field, off or "0"):
                return None
        elif not put(pat.field, text):  # type: ignore[arg-type]
            return None
    return out


def _check_overlaps(entries: list[Entry], family: str) -> None:
    """Refuse two entries that can both match one word (constraints may keep them apart)."""
    buckets: dict[int, list[Entry]] = {}
    for e in entries:
        buckets.setdefault(_bucket_key(e.match, e.length), []).append(e)
    for bucket in buckets.values():
        for i, a in enumerate(bucket):
            for b in bucket[i + 1:]:
                if (a.match ^ b.match) & a.mask & b.mask:
                    continue
                if _separated(a, b) or _separated(b, a):
                    continue
                raise TableError(
                    f"overlapping encodings in selection {family!r}: {a.name} ({a.extension}) "
                    f"and {b.name} ({b.extension}) both match "
                    f"{(a.match | b.match):#010x}")


def _separated(a: Entry, b: Entry) -> bool:
    """True if a constraint of ``a`` excludes every word ``b`` matches."""
    for fname, value in a.constraints:
        f = a.fields[fname]
        if f.inst_mask & ~b.mask == 0 and b.match & f.inst_mask == f.insert(value):
            return True
    return False


def load_isa(selection: str = DEFAULT_FAMILY) -> Isa:
    """The table for ``selection`` (an ISA string or family name), checked and cached;
    SelectionError (a ValueError) when the string cannot be used."""
    return _load(parse_selection(selection))


@functools.cache
def _load(sel: Selection) -> Isa:
    family = sel.family
    common, files = _read_data()
    fields: dict[str, Field] = {}
    for name, spec in common["fields"].get("field", {}).items():
        fields[name] = make_field(name, spec, "fields.toml")
    for fname, data in files.items():
        for name, spec in data.get("field", {}).items():
            if name in fields:
                raise TableError(f"{fname}.toml: field {name} defined twice")
            fields[name] = make_field(name, spec, f"{fname}.toml")

    csrs = {k.lower(): v for k, v in common["csrs"].get("csr", {}).items()}
    if family != "none":
        csrs.update({k.lower(): v for k, v in common["csrs"].get(family, {}).items()})

    if sel.zfinx:
        # the single register file: every FP register operand names an x register
        fields = {n: dataclasses.replace(f, kind="xreg") if f.kind == "freg" else f
                  for n, f in fields.items()}
    selected = [(n, d) for n, d in files.items()
                if d.get("family") in (None, family)
                and (not d.get("optional") or n in sel.extensions) and (n != "f" or sel.fp)]
    entries: list[Entry] = []
    pending_expansions: list[tuple[Entry, str | list[str], str]] = []
    for fname, data in selected:
        length = int(data.get("length", 4))
        for spec in data.get("insn", []):
            if spec.get("fregs_only") and (sel.zfinx or not sel.fp):
                continue
            entry, expands = _make_entry(spec, fname, data.get("family"), length, fields)
            entries.append(entry)
            if expands:
                pending_expansions.append((entry, expands, fname))

    by_name: dict[str, list[Entry]] = {}
    for e in entries:
        by_name.setdefault(e.name, []).append(e)
    for e in entries:
        same = by_name[e.name]
        e.key = e.name if len(same) == 1 else f"{e.name}/{same.index(e)}"
    for entry, texts, fname in pending_expansions:
        mappings = []
        for text in _as_list(texts):
            target = text.split()[0]
            if target not in by_name:
                raise TableError(f"{fname}.toml: {entry.name} expands to unknown {target!r}")
            mappings.append(_make_mapping(text, entry.fields, by_name[target], csrs,
                                          f"{fname}.toml: {entry.name}"))
        entry.expands, entry.also_compresses = mappings[0], tuple(mappings[1:])
    _check_overlaps(entries, family)

    aliases: list[Alias] = []
    for fname, data in selected:
        for spec in data.get("alias", []):
            where = f"{fname}.toml: alias {spec.get('name')}"
            target = spec["means"].split()[0]
            if target not in by_name and _dropped(files, target):
                continue
            if target not in by_name:
                raise TableError(f"{where}: stands for unknown {target!r}")
            templates, own = _templates(spec, fields, where)
            mapping = _make_mapping(spec["means"], own, by_name[target], csrs, where)
            aliases.append(Alias(spec["name"], templates, own, mapping,
                                 bool(spec.get("disasm", True))))
    return Isa(family, entries, aliases, csrs, sel)


def _dropped(files: dict[str, dict], name: str) -> bool:
    """Whether instruction ``name`` exists only with separate FP registers."""
    return any(spec.get("name") == name and spec.get("fregs_only")
               for data in files.values() for spec in data.get("insn", []))


def with_family(selection: str, family: str) -> str:
    """``selection`` with its Xpulp family replaced (``.option xpulpv2`` / ``.option corev``)."""
    if selection in FAMILIES:
        return family
    return dataclasses.replace(parse_selection(selection), family=family).name


def with_fp_registers(selection: str) -> str:
    """``selection`` with the separate f registers instead of zfinx: the ISA of code written
    with flw / fsw and f-register operands (the fp32 kernel library) on a core whose preset
    selects the single register file."""
    sel = parse_selection(selection)
    if not sel.zfinx:
        return selection
    return dataclasses.replace(sel, zfinx=False, fp=True).name


def extension_of(mnemonic: str) -> tuple[str, bool] | None:
    """(extension, needs separate FP registers) of an instruction or alias in any selection;
    None when no table has it."""
    for isa_string in (FAMILY_ISA["xpulpv2"], FAMILY_ISA["corev"]):
        isa = load_isa(isa_string)
        entries = isa.by_name.get(mnemonic) or [a.mapping.target for a in
                                                isa.aliases_by_name.get(mnemonic, ())]
        if entries:
            e = entries[0]
            ext = "xpulpv2" if e.family == "xpulpv2" else "xcorev" if e.family else e.extension
            _, files = _read_data()
            return ext, _dropped(files, e.name)
    return None


def _templates(spec: dict, fields: dict[str, Field], where: str
               ) -> tuple[tuple[Template, ...], dict[str, Field]]:
    texts = _as_list(spec.get("syntax", ""))
    templates = tuple(parse_template(t, set(fields), where) for t in texts)
    own: dict[str, Field] = {}
    for t in templates:
        for n in t.field_names():
            own[n] = fields[n]
    return templates, own


def _make_entry(spec: dict, fname: str, family: str | None, length: int,
                fields: dict[str, Field]) -> tuple[Entry, str | list[str] | None]:
    known = {"name", "syntax", "bits", "op", "timing", "constraints", "reads", "writes",
             "expands", "compress_from", "length", "extra_fields", "fregs_only", "hint"}
    where = f"{fname}.toml: {spec.get('name', '?')}"
    unknown = set(spec) - known
    if unknown:
        raise TableError(f"{where}: unknown keys {sorted(unknown)}")
    length = int(spec.get("length", length))
    match, mask = _parse_fixed(spec.get("bits", ""), length, where)
    templates, own = _templates(spec, fields, where)
    for extra in spec.get("extra_fields", []):
        own[extra] = fields[extra]
    covered = mask
    for f in own.values():
        if covered & f.inst_mask:
            raise TableError(f"{where}: field {f.name} overlaps other bits")
        covered |= f.inst_mask
    full = (1 << (8 * length)) - 1
    if covered != full:
        raise TableError(f"{where}: bits {full & ~covered:#x} are not accounted for")
    if length == 4 and match & 3 != 3:
        raise TableError(f"{where}: 32-bit instructions need bits 1..0 = 3")
    if length == 2 and match & 3 == 3:
        raise TableError(f"{where}: 16-bit instructions cannot have bits 1..0 = 3")
    constraints: list[tuple[str, int]] = []
    for c in spec.get("constraints", []):
        m = re.match(r"^\s*(\w+)\s*!=\s*(-?\w+)\s*$", c)
        if not m or m.group(1) not in own:
            raise TableError(f"{where}: bad constraint {c!r}")
        constraints.append((m.group(1), int(m.group(2), 0)))
    for f in own.values():
        if f.nonzero:
            constraints.append((f.name, 0))
    timing = spec.get("timing", "alu")
    if timing not in TIMING_CLASSES:
        raise TableError(f"{where}: unknown timing class {timing!r}")
    for n in (*spec.get("reads", []), *spec.get("writes", [])):
        if n not in own:
            raise TableError(f"{where}: reads/writes names unknown field {n!r}")
    entry = Entry(
        name=spec["name"], extension=fname, family=family, length=length, match=match,
        mask=mask, templates=templates, fields=own,
        op=spec.get("op", spec["name"].replace(".", "_")), timing=timing,
        constraints=tuple(constraints), reads=tuple(spec.get("reads", [])),
        writes=tuple(spec.get("writes", [])),
        compress_from=(tuple(spec["compress_from"]) if "compress_from" in spec else None),
        hint=bool(spec.get("hint", False)),
    )
    return entry, spec.get("expands")
