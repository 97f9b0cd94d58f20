"""The instruction reference in ``docs/isa/``, generated from the instruction table.

As riscv-opcodes and OpenTitan's OTBN generate their manuals from their data files, every page
here comes from ``toolchain/isa/*.toml`` (through ``toolchain.table``) and the cycle numbers from
the presets (``isasim/presets``): one page per extension file, whatever the file is, plus an
index with the timing classes and the operand fields.  Nothing is written by hand, so the pages
cannot drift from what the assembler, disassembler and simulator do; ``tests/docs`` regenerates
them and compares.  It lives in ``isasim`` rather than ``toolchain`` because it reads the
presets too, and ``toolchain`` depends on nothing above it.

Run ``python -m isasim.isadoc docs/isa`` after changing a table or a preset.
"""

from __future__ import annotations

import sys
import tomllib
from collections.abc import Callable
from importlib import resources
from pathlib import Path

from isasim.config import ClusterConfig, load_preset, preset_names
from toolchain.fields import Field
from toolchain.table import FAMILIES, Entry, load_isa

REGENERATE = "python -m isasim.isadoc docs/isa"
INDEX = "README.md"

# In one line per instruction: issue cycles, and when a dependent instruction can issue.
SHORT: dict[str, Callable[[ClusterConfig], str]] = {
    "mul": lambda c: "1" if c.mul_latency <= 1 else f"1, use after {c.mul_latency}",
    "mulh": lambda c: f"{c.mulh_cycles}",
    "div": lambda c: "3..35",
    "load": lambda c: f"1, use after {1 + c.load_latency}",
    "branch": lambda c: f"1, taken {1 + c.branch_penalty}",
    "jump": lambda c: f"{1 + c.jump_penalty}",
    "jalr": lambda c: f"{1 + c.jump_penalty} ({1 + c.jump_penalty + c.jalr_dep_penalty} after "
                      "a write of rs1)",
    "fpu": lambda c: f"1, use after {1 + c.fpu_latency}",
    "fpu_other": lambda c: f"1, use after {1 + c.fpu_other_latency}",
    "fdiv": lambda c: f"1, use after {c.fdiv_latency}",
    "fdiv16": lambda c: f"1, use after {c.fdiv16_latency}",
    "fsqrt": lambda c: f"1, use after {c.fdiv_latency}",
    "elw": lambda c: "1 + sleep",
}

# What one instruction of each timing class costs, written from the configuration's numbers as
# the engine charges them (isasim/engine.py; derivations and tests in docs/cycle-model.md).
TIMING: dict[str, tuple[str, Callable[[ClusterConfig], str]]] = {
    "alu": ("integer ALU, Xpulp ALU / bit manipulation / MAC", lambda c: "1"),
    "mul": ("32x32 multiply (low word)",
            lambda c: f"1, result usable after {c.mul_latency}"),
    "mulh": ("multiply high (structural: blocks the next issue)",
             lambda c: f"{c.mulh_cycles}"),
    "div": ("divide / remainder (structural)",
            lambda c: "clz(divisor) + 3; clz(~divisor) + 2 for a negative signed divisor; "
                      "35 for 0"),
    "load": ("load",
             lambda c: f"1; +{c.load_latency} when the next instruction uses the value; "
                       f"L2 +{c.l2_latency}; misaligned +{c.misaligned_penalty}; "
                       "TCDM bank conflict +1 per lost round"),
    "store": ("store",
              lambda c: f"1; L2 +{c.l2_store_latency}; misaligned +{c.misaligned_penalty}; "
                        "TCDM bank conflict +1 per lost round"),
    "branch": ("conditional branch", lambda c: f"1; taken +{c.branch_penalty}"),
    "jump": ("jal", lambda c: f"1 + {c.jump_penalty}"),
    "jalr": ("jalr",
             lambda c: f"1 + {c.jump_penalty}; +{c.jalr_dep_penalty} when rs1 was written by "
                       "the previous instruction"),
    "csr": ("CSR access", lambda c: "1"),
    "fence": ("fence", lambda c: "1"),
    "system": ("ecall, ebreak, mret, wfi",
               lambda c: f"1 (mret +{c.jump_penalty}; wfi sleeps until an event)"),
    "fpu": ("FP add / multiply / fused multiply-add",
            lambda c: f"1, result usable after {1 + c.fpu_latency}"
                      + ("; shared unit (core % 4)" if c.fpu_sharing == "gvsoc4" else "")),
    "fpu_other": ("FP compare / convert / classify / min / max / moves",
                  lambda c: f"1, result usable after {1 + c.fpu_other_latency}"),
    "fdiv": ("fdiv.s, vfdiv", lambda c: f"1, result usable after {c.fdiv_latency}"
             + ("; one divider per cluster" if c.fpu_sharing == "gvsoc4" else "")),
    "fsqrt": ("fsqrt.s, vfsqrt", lambda c: f"1, result usable after {c.fdiv_latency}"
              + ("; one divider per cluster" if c.fpu_sharing == "gvsoc4" else "")),
    "fdiv16": ("binary16 / bfloat16 scalar division and square root",
               lambda c: f"1, result usable after {c.fdiv16_latency}"),
    "hwloop": ("hardware-loop set-up; the loop's back edge costs 0", lambda c: "1"),
    "elw": ("event load (p.elw / cv.elw): sleeps until the event",
            lambda c: f"1 + sleep + {c.barrier_req_latency} + {c.barrier_wakeup_latency} "
                      "after the event"),
}


def table_files() -> dict[str, dict]:
    """Every extension file of the table (name without .toml -> its data), in name order."""
    files = {}
    for res in sorted(resources.files("toolchain.isa").iterdir(), key=lambda r: r.name):
        if res.name.endswith(".toml") and res.name[:-5] not in ("fields", "csrs"):
            files[res.name[:-5]] = {"data": tomllib.loads(res.read_text()),
                                    "header": header_comment(res.read_text())}
    return files


def header_comment(text: str) -> list[str]:
    """The comment lines at the top of a table file, without their ``#``."""
    lines = []
    for line in text.splitlines():
        if not line.startswith("#"):
            break
        lines.append(line[1:].removeprefix(" "))
    return lines


def entries_by_extension() -> dict[str, list[Entry]]:
    """Each extension's entries, in file order, taken from the first selection that has it."""
    out: dict[str, list[Entry]] = {}
    for family in FAMILIES:
        seen: dict[str, list[Entry]] = {}
        for e in load_isa(family).entries:
            seen.setdefault(e.extension, []).append(e)
        for ext, entries in seen.items():
            out.setdefault(ext, entries)
    return out


def prose(lines: list[str]) -> str:
    """A header comment as Markdown: paragraphs joined, indented blocks kept as code."""
    out, para = [], []
    for line in [*lines, ""]:
        if line.strip():
            para.append(line)
            continue
        if para:
            if any(p.startswith("  ") for p in para):
                out.append("```\n" + "\n".join(para) + "\n```")
            else:
                out.append(" ".join(p.strip() for p in para))
        para = []
    return "\n\n".join(out)


def field_label(f: Field, seg_index: int) -> str:
    """How a field's bits appear in an encoding: the name, with value bits when they are not
    simply the whole field in one piece (``bimm[10:5]``)."""
    s = f.segments[seg_index]
    if len(f.segments) == 1 and s.vlo == 0 and s.width == f.value_bits:
        return f.name
    hi = s.vlo + s.width - 1
    return f"{f.name}[{hi}]" if hi == s.vlo else f"{f.name}[{hi}:{s.vlo}]"


def encoding(e: Entry, bits: str) -> str:
    """The word from its top bit down: each fixed-bit range of the table's ``bits`` in binary,
    operand fields by name."""
    owner: dict[int, tuple[str, object]] = {}       # bit -> (label, group)
    for name, f in e.fields.items():
        for i, s in enumerate(f.segments):
            for b in range(s.ilo, s.ihi + 1):
                owner[b] = (field_label(f, i), (name, i))
    for part in bits.split():
        span = part.split("=")[0]
        hi, _, lo = span.partition("..")
        for b in range(int(lo or hi), int(hi) + 1):
            owner[b] = (str(e.match >> b & 1), part)
    parts: list[str] = []
    group = None
    for b in range(8 * e.length - 1, -1, -1):
        label, g = owner[b]
        if g != group:
            parts.append(label)
        elif isinstance(g, str):
            parts[-1] += label
        group = g
    return " ".join(parts)


def cell(text: str) -> str:
    return text.replace("|", "\\|")


def entry_notes(e: Entry) -> str:
    notes = []
    if e.expands is not None:
        t = e.expands
        args = ", ".join(f"{name}={src}" for name, (_kind, src) in t.sources)
        notes.append(f"expands to `{t.target.name}` ({args})")
    cons = [f"{f} != {v}" for f, v in e.constraints]
    if cons:
        notes.append("not encodable: " + ", ".join(cons))
    if e.reads:
        notes.append("also reads " + ", ".join(e.reads))
    if e.writes:
        notes.append("also writes " + ", ".join(e.writes))
    return "; ".join(notes)


def extension_page(ext: str, info: dict, entries: list[Entry], presets: dict) -> str:
    data = info["data"]
    family = data.get("family")
    preset = presets["pulp-open"]
    lines = [f"# `{ext}`", "",
             "Generated from `toolchain/isa/" + ext + ".toml` by `" + REGENERATE
             + "`; do not edit.", ""]
    if family:
        lines += [f"Selection: Xpulp family `{family}` (`--xpulp {family}`); the other family's "
                  "files are not loaded with it.", ""]
    else:
        lines += ["Always part of the table (every Xpulp selection).", ""]
    text = prose(info["header"])
    if text:
        lines += [text, ""]
    top = 8 * entries[0].length - 1 if entries else 31
    lines += [f"{len(entries)} encodings. *encoding*: bits from {top} down to 0, fixed bits in "
              "binary, operand fields by name "
              "(`name[hi:lo]`: those bits of the field's value). *op*: the simulator's "
              "operation (`isasim/semantics.py`). *cycles*: `pulp-open`; other presets and "
              f"the rules in [the timing classes]({INDEX}#timing-classes).", "",
              "| mnemonic | operands | encoding | match / mask | op | timing | cycles | notes |",
              "|---|---|---|---|---|---|---|---|"]
    width = 4 if entries and entries[0].length == 2 else 8
    for e, spec in zip(entries, data.get("insn", []), strict=True):
        ops = "<br>".join(f"`{cell(t.text)}`" if t.text else "" for t in e.templates)
        bits = encoding(e, spec.get("bits", ""))
        lines.append(
            f"| `{e.name}` | {ops} | `{bits}` | `{e.match:#0{width + 2}x}` / "
            f"`{e.mask:#0{width + 2}x}` | `{e.op}` | [{e.timing}]({INDEX}#{e.timing}) | "
            f"{cell(SHORT.get(e.timing, lambda c: '1')(preset))} | {cell(entry_notes(e))} |")
    aliases = data.get("alias", [])
    if aliases:
        lines += ["", "## Aliases and pseudo-instructions", "",
                  "| mnemonic | operands | stands for | disassembled as the alias |",
                  "|---|---|---|---|"]
        for a in aliases:
            syntax = a.get("syntax", "")
            ops = "<br>".join(f"`{cell(s)}`" for s in ([syntax] if isinstance(syntax, str)
                                                        else syntax) if s)
            lines.append(f"| `{a['name']}` | {ops} | `{cell(a['means'])}` | "
                         f"{'yes' if a.get('disasm', True) else 'no'} |")
    return "\n".join(lines) + "\n"


def index_page(exts: dict[str, list[Entry]], files: dict[str, dict], presets: dict) -> str:
    lines = ["# Instruction reference", "",
             "Generated from the instruction table (`toolchain/isa/*.toml`) and the presets "
             "(`isasim/presets/*.toml`) by `" + REGENERATE + "`; do not edit. "
             "`tests/docs/test_isa_reference.py` fails when these pages are not current.", "",
             "| extension | selection | encodings | aliases |", "|---|---|---|---|"]
    for ext, entries in exts.items():
        data = files[ext]["data"]
        lines.append(f"| [`{ext}`]({ext}.md) | {data.get('family') or 'always'} | "
                     f"{len(entries)} | {len(data.get('alias', []))} |")
    names = list(presets)
    lines += ["", "## Timing classes", "",
              "Each instruction has one timing class; the cycles an instruction of the class "
              "costs in each preset, as the engine charges them (stall categories and sources: "
              "[cycle model](../cycle-model.md)). \"Usable after n\": an instruction that reads "
              "the result issues n cycles after this one at the earliest.", "",
              "| class | what | " + " | ".join(f"`{n}`" for n in names) + " |",
              "|---|---|" + "---|" * len(names)]
    for cls, (what, cycles) in TIMING.items():
        lines.append(f"| <a id=\"{cls}\"></a>`{cls}` | {what} | "
                     + " | ".join(cell(cycles(presets[n])) for n in names) + " |")
    lines += ["", "## Operand fields", "",
              "From `toolchain/isa/fields.toml` and the extension files: instruction bits "
              "`hi..lo` carry value bits (`:vhi..vlo`); bits no segment covers are zero.", "",
              "| field | bits | kind | signed | notes |", "|---|---|---|---|---|"]
    fields: dict[str, Field] = {}
    for entries in exts.values():
        for e in entries:
            for name, f in e.fields.items():
                fields.setdefault(name, f)
    for name in sorted(fields):
        f = fields[name]
        segs = " ".join(f"{s.ihi}..{s.ilo}" + (f":{s.vlo + s.width - 1}..{s.vlo}"
                                                if len(f.segments) > 1 or s.vlo else "")
                        for s in f.segments)
        notes = []
        if f.add:
            notes.append(f"register x{f.add} + value")
        if f.nonzero:
            notes.append("not 0")
        if f.asm_shift:
            notes.append(f"written as value >> {f.asm_shift}")
        if f.default:
            notes.append(f"default {f.default}")
        lines.append(f"| `{name}` | {segs} | {f.kind} | {'yes' if f.signed else ''} | "
                     f"{'; '.join(notes)} |")
    return "\n".join(lines) + "\n"


def generate() -> dict[str, str]:
    """File name -> content of every page of the reference."""
    files = table_files()
    exts = entries_by_extension()
    exts = {ext: exts[ext] for ext in files if ext in exts}
    presets = {n: load_preset(n) for n in ["pulp-open", *sorted(set(preset_names())
                                                                - {"pulp-open"})]}
    pages = {INDEX: index_page(exts, files, presets)}
    for ext, entries in exts.items():
        pages[f"{ext}.md"] = extension_page(ext, files[ext], entries, presets)
    return pages


def write(directory: Path) -> list[Path]:
    """Write the pages into ``directory``, removing pages of extensions that no longer exist."""
    directory.mkdir(parents=True, exist_ok=True)
    pages = generate()
    for old in directory.glob("*.md"):
        if old.name not in pages:
            old.unlink()
    written = []
    for name, text in pages.items():
        path = directory / name
        path.write_text(text)
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1 or args[0].startswith("-"):
        print(f"usage: {REGENERATE.replace('docs/isa', 'DIRECTORY')}", file=sys.stderr)
        return 2
    for path in write(Path(args[0])):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
