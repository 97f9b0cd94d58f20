"""Assembler directives: one small handler per directive, looked up by name.

A handler reads the statement's operands and acts on the parser: switch sections, add data or
padding items, define symbols, change options.  Directives GNU as accepts that mean nothing for a
fully linked simulator program (``.file``, ``.size``, ``.type`` ...) are accepted and ignored.
"""

from __future__ import annotations

import re
import struct
from collections.abc import Callable
from typing import TYPE_CHECKING

from toolchain.asm.errors import SourceError
from toolchain.asm.floats import float32_bits
from toolchain.asm.insn import COMPRESSED, SHAPES, raw_length
from toolchain.asm.items import Align, Blob, Data, Org, RawInsn
from toolchain.asm.lexer import Statement, parse_string
from toolchain.table import FAMILIES

if TYPE_CHECKING:
    from toolchain.asm.driver import Parser

Handler = Callable[["Parser", Statement], None]

# no effect on a linked, single-file program (symbol visibility included)
IGNORED = frozenset({".file", ".ident", ".size", ".type", ".attribute", ".loc", ".hidden",
                     ".internal", ".protected"})
_IGNORED_OPTIONS = frozenset({"arch", "pic", "nopic", "relax", "norelax", "csr-check",
                              "no-csr-check"})
MAX_ALIGN_POWER = 16
# bytes that .space/.skip/.zero may fill in one file: far more than any PULP memory holds, small
# enough that a typo such as `.zero 1 << 40` is an error rather than the host running out of memory
MAX_FILL_BYTES = 1 << 28
_SYMBOL = re.compile(r"[A-Za-z_.$][\w.$]*")


def _operands(st: Statement, low: int, high: int, shape: str) -> list[tuple[str, int]]:
    ops = st.operands()
    if not low <= len(ops) <= high or any(not text for text, _ in ops):
        want = str(low) if low == high else f"{low} to {high}"
        raise SourceError(f"{st.op} expects {want} operand{'s' if high > 1 else ''} "
                          f"({shape}), got {len(ops)}", st.args_column)
    return ops


# ---- sections ----------------------------------------------------------------------------------
def _named_section(name: str) -> Handler:
    def handler(p: Parser, st: Statement) -> None:
        _operands(st, 0, 1, "optional subsection")
        p.switch_section(name, None, None)
    return handler


def _section(p: Parser, st: Statement) -> None:
    ops = _operands(st, 1, 4, 'name[, "flags"[, @type]]')
    name = ops[0][0]
    flags = None
    kind = None
    if len(ops) > 1:
        text, column = ops[1]
        if not (text.startswith('"') and text.endswith('"')):
            raise SourceError(f"expected section flags in double quotes, got {text!r}", column)
        flags = text[1:-1]
    if len(ops) > 2:
        text, column = ops[2]
        if text[:1] not in "@%":
            raise SourceError(f"expected a section type like @progbits, got {text!r}", column)
        kind = text[1:]
    p.switch_section(name, flags, kind)


# ---- symbols -----------------------------------------------------------------------------------
def _globl(p: Parser, st: Statement) -> None:
    for name, _ in _operands(st, 1, 1 << 16, "symbol, ..."):
        p.symbols.globals.add(name)


def _weak(p: Parser, st: Statement) -> None:
    for name, _ in _operands(st, 1, 1 << 16, "symbol, ..."):
        p.symbols.weak.add(name)


def _local(p: Parser, st: Statement) -> None:
    for name, _ in _operands(st, 1, 1 << 16, "symbol, ..."):
        p.symbols.globals.discard(name)
        p.declared_local.add(name)


def _common(local: bool) -> Handler:
    """``.comm symbol, length[, alignment]`` / ``.lcomm symbol, length``: zeroed space in .bss
    (``Parser.finish`` places it).  As RISC-V GNU as 2.40 does: the alignment is a byte
    boundary, for ``.comm`` by default the smallest power of two >= length up to 16, for
    ``.lcomm`` the largest of 1, 2, 4 and 8 <= length; ``.comm`` is global unless ``.local``;
    a second ``.comm`` keeps the first length, with a warning."""
    def handler(p: Parser, st: Statement) -> None:
        ops = _operands(st, 2, 2 if local else 3, "symbol, length" + ("" if local else
                                                                       "[, alignment]"))
        (name, name_column), (text, column) = ops[0], ops[1]
        if not _SYMBOL.fullmatch(name):
            raise SourceError(f"expected a symbol name, got {name!r}", name_column)
        if p.defined(name):
            raise SourceError(f"symbol {name!r} is already defined "
                              f"(line {p.symbols.where(name).line})", name_column)
        size = p.constant(text, column)
        if size < 0:
            p.errors.warn(st.at(column), f"size ({size}) out of range, ignored")
            return
        if len(ops) > 2:
            align = p.constant(*ops[2])
            if align <= 0 or align & (align - 1) or align > 1 << MAX_ALIGN_POWER:
                raise SourceError(f"alignment {align} is not a power of two up to "
                                  f"{1 << MAX_ALIGN_POWER}", ops[2][1])
        elif local:
            align = 8 if size >= 8 else 4 if size >= 4 else 2 if size >= 2 else 1
        else:
            align = min(16, 1 << max(size - 1, 0).bit_length())
        if name not in p.commons:
            _reserve(p, size, column)
        p.declare_common(name, size, align, local, st.at(name_column))
    return handler


def _equ(once: bool) -> Handler:
    """``.set``/``.equ`` may redefine a symbol; ``.equiv`` (``once``) may not."""
    def handler(p: Parser, st: Statement) -> None:
        (name, name_column), (text, column) = _operands(st, 2, 2, "symbol, expression")
        if not _SYMBOL.fullmatch(name):
            raise SourceError(f"expected a symbol name, got {name!r}", name_column)
        p.define_equate(name, text, column, st, once)
    return handler


# ---- data --------------------------------------------------------------------------------------
def _data(width: int) -> Handler:
    def handler(p: Parser, st: Statement) -> None:
        values = _operands(st, 1, 1 << 16, "value, ...")
        p.add(Data(st.location, p.locals, width * len(values), width=width,
                   values=tuple(values)), st)
    return handler


def _float(p: Parser, st: Statement) -> None:
    out = bytearray()
    for text, column in _operands(st, 1, 1 << 16, "number, ..."):
        try:
            out += struct.pack("<I", float32_bits(text))
        except ValueError as e:
            raise SourceError(str(e), column) from None
    p.add(Blob(st.location, p.locals, data=bytes(out)), st)


def _strings(terminate: bool) -> Handler:
    def handler(p: Parser, st: Statement) -> None:
        out = bytearray()
        for text, column in _operands(st, 1, 1 << 16, '"text", ...'):
            try:
                out += parse_string(text)
            except SourceError as e:
                raise SourceError(e.message, column) from None
            if terminate:
                out.append(0)
        p.add(Blob(st.location, p.locals, data=bytes(out)), st)
    return handler


def _space(p: Parser, st: Statement) -> None:
    ops = _operands(st, 1, 2, "size[, fill]")
    size = p.constant(*ops[0])
    fill = p.constant(*ops[1]) if len(ops) > 1 else 0
    if size < 0:
        raise SourceError(f"size {size} is negative", ops[0][1])
    _reserve(p, size, ops[0][1])
    p.add(Blob(st.location, p.locals, data=bytes([fill & 0xFF]) * size), st, zero=fill == 0)


def _fill(p: Parser, st: Statement) -> None:
    """``.fill repeat[, size[, value]]``: GNU as's rules, each unit the low ``size`` bytes of
    the 8-byte number whose low 4 bytes are ``value`` (size clamped to 8, with a warning; a
    negative repeat ignored, with a warning)."""
    ops = _operands(st, 1, 3, "repeat[, size[, value]]")
    repeat = p.constant(*ops[0])
    size = p.constant(*ops[1]) if len(ops) > 1 else 1
    value = p.constant(*ops[2]) if len(ops) > 2 else 0
    if size > 8:
        p.errors.warn(st.at(ops[1][1]), ".fill size clamped to 8")
        size = 8
    if repeat < 0:
        p.errors.warn(st.at(ops[0][1]), "repeat < 0; .fill ignored")
        return
    if size < 0:
        raise SourceError(f"size {size} is negative", ops[1][1])
    _reserve(p, repeat * size, ops[0][1])
    unit = (value & 0xFFFFFFFF).to_bytes(8, "little")[:size]
    p.add(Blob(st.location, p.locals, data=unit * repeat), st, zero=not any(unit))


def _leb128(signed: bool) -> Handler:
    """``.uleb128`` / ``.sleb128`` of one constant (RISC-V GNU as takes one per line)."""
    def handler(p: Parser, st: Statement) -> None:
        (text, column), = _operands(st, 1, 1, "value")
        v = p.constant(text, column)
        if not signed:
            v &= (1 << 64) - 1
        out = bytearray()
        while True:
            byte = v & 0x7F
            v >>= 7
            done = (v == 0 and not byte & 0x40) or (v == -1 and byte & 0x40) if signed else v == 0
            out.append(byte | (0 if done else 0x80))
            if done:
                break
        p.add(Blob(st.location, p.locals, data=bytes(out)), st)
    return handler


def _org(p: Parser, st: Statement) -> None:
    """``.org offset[, fill]``: the offset is a constant from the start of the section."""
    ops = _operands(st, 1, 2, "offset[, fill]")
    target = p.constant(*ops[0])
    if target < 0:
        raise SourceError(f"offset {target} is negative", ops[0][1])
    fill = p.constant(*ops[1]) & 0xFF if len(ops) > 1 else None
    _reserve(p, target, ops[0][1])
    p.add(Org(st.location, p.locals, target=target, fill=fill), st, zero=not fill)


def _message(error: bool) -> Handler:
    """``.error`` / ``.warning ["text"]``: a diagnostic at this line, as GNU as gives."""
    def handler(p: Parser, st: Statement) -> None:
        raw = st.args.strip()      # one string, commas and all
        text = (parse_string(raw).decode(errors="replace") if raw else
                f"{st.op} directive invoked in source file")
        if error:
            raise SourceError(text)
        p.errors.warn(st.location, text)
    return handler


def _insn(p: Parser, st: Statement) -> None:
    """``.insn FORMAT fields`` or ``.insn [length,] value`` (``toolchain.asm.insn``)."""
    ops = _operands(st, 1, 8, "format, fields or [length,] value")
    head, column = ops[0]
    fmt, _, first = head.partition(" ")
    if first.strip() and (fmt.lower() in SHAPES or fmt.lower() in COMPRESSED):
        if fmt.lower() in COMPRESSED and not p.rvc:
            raise SourceError(f".insn {fmt.lower()} is a compressed format: it needs the C "
                              "extension (.option rvc)", column)
        rest = ((first.strip(), column + len(fmt) + 1 + first.index(first.strip())), *ops[1:])
        p.add(RawInsn(st.location, p.locals, 2 if fmt.lower() in COMPRESSED else 4,
                      fmt=fmt.lower(), operands=rest), st)
        return
    if len(ops) > 2:
        raise SourceError(f"unknown .insn format {fmt!r} (r, r4, i, s, b, u, j, cr, ci, ciw, "
                          "css, cl, cs, ca, cb, cj)", column)
    if len(ops) == 2:
        size = p.constant(*ops[0])
        if size not in (2, 4):
            raise SourceError(f".insn length {size}: only 2 and 4 are supported", column)
    else:
        size = raw_length(p.constant(head, column))
    p.add(RawInsn(st.location, p.locals, size, operands=(ops[-1],)), st)


def _incbin(p: Parser, st: Statement) -> None:
    """``.incbin "file"[, skip[, count]]``: the file's bytes, found like an ``.include``."""
    ops = _operands(st, 1, 3, '"file"[, skip[, count]]')
    try:
        name = parse_string(ops[0][0]).decode()
    except (SourceError, UnicodeDecodeError):
        raise SourceError(".incbin expects a file name in double quotes", ops[0][1]) from None
    assert p.includer is not None, "the driver sets the includer"
    data = p.includer.binary(name, st, ops[0][1])
    skip = p.constant(*ops[1]) if len(ops) > 1 else 0
    count = p.constant(*ops[2]) if len(ops) > 2 else len(data) - skip
    if not 0 <= skip <= len(data) or not 0 <= count <= len(data) - skip:
        raise SourceError(f"skip {skip} and count {count} do not fit the {len(data)} bytes of "
                          f"{name!r}", ops[1][1])
    _reserve(p, count, ops[0][1])
    p.add(Blob(st.location, p.locals, data=data[skip:skip + count]), st)


def _end(p: Parser, st: Statement) -> None:
    """``.end``: the rest of the file is not assembled."""
    p.ended = True


def _reserve(p: Parser, size: int, column: int) -> None:
    """Count ``size`` fill bytes against MAX_FILL_BYTES before they are allocated."""
    if p.filled + size > MAX_FILL_BYTES:
        raise SourceError(f"size {size} is too large: the file would fill more than "
                          f"{MAX_FILL_BYTES >> 20} MiB", column)
    p.filled += size


def _zero(p: Parser, st: Statement) -> None:
    (text, column), = _operands(st, 1, 1, "size")
    size = p.constant(text, column)
    if size < 0:
        raise SourceError(f"size {size} is negative", column)
    _reserve(p, size, column)
    p.add(Blob(st.location, p.locals, data=bytes(size)), st, zero=True)


# ---- alignment ---------------------------------------------------------------------------------
def _align(power_of_two: bool) -> Handler:
    """``.align``/``.p2align`` take a power (RISC-V GNU as), ``.balign`` a byte count."""
    def handler(p: Parser, st: Statement) -> None:
        ops = _operands(st, 1, 3, "alignment[, fill[, max]]")
        n = p.constant(*ops[0])
        if power_of_two:
            if not 0 <= n <= MAX_ALIGN_POWER:
                raise SourceError(f"alignment power {n} out of range [0, {MAX_ALIGN_POWER}]",
                                  ops[0][1])
            boundary = 1 << n
        else:
            if n <= 0 or n & (n - 1) or n > 1 << MAX_ALIGN_POWER:
                raise SourceError(f"alignment {n} is not a power of two up to "
                                  f"{1 << MAX_ALIGN_POWER}", ops[0][1])
            boundary = n
        fill = p.constant(*ops[1]) & 0xFF if len(ops) > 1 and ops[1][0] else None
        max_skip = p.constant(*ops[2]) if len(ops) > 2 else None
        p.section.align = max(p.section.align, boundary)
        p.add(Align(st.location, p.locals, boundary=boundary, fill=fill, max_skip=max_skip,
                    code=p.section.executable, rvc=p.rvc), st, zero=not fill)
    return handler


# ---- options -----------------------------------------------------------------------------------
def _option(p: Parser, st: Statement) -> None:
    ops = st.operands()
    if not ops or not ops[0][0]:
        raise SourceError(".option expects a name (rvc, norvc, push, pop, ...)", st.args_column)
    name, column = ops[0][0].lower(), ops[0][1]
    if name == "rvc":
        p.rvc = True
    elif name == "norvc":
        p.rvc = False
    elif name == "push":
        p.option_stack.append(p.rvc)
    elif name == "pop":
        if not p.option_stack:
            raise SourceError(".option pop without a matching .option push", column)
        p.rvc = p.option_stack.pop()
    elif name in FAMILIES and name != "none":
        p.select_family(name, st.at(column))
    elif name not in _IGNORED_OPTIONS:
        raise SourceError(f"unknown .option {name!r} (known: rvc, norvc, push, pop, "
                          f"xpulpv2, corev, {', '.join(sorted(_IGNORED_OPTIONS))})", column)


def _ignore(p: Parser, st: Statement) -> None:
    """Accepted for compatibility with compiler output; no effect on a linked program."""


DIRECTIVES: dict[str, Handler] = {
    ".text": _named_section(".text"),
    ".data": _named_section(".data"),
    ".bss": _named_section(".bss"),
    ".rodata": _named_section(".rodata"),
    ".section": _section,
    ".globl": _globl,
    ".global": _globl,
    ".local": _local,
    ".weak": _weak,
    ".comm": _common(False),
    ".lcomm": _common(True),
    ".equ": _equ(False),
    ".set": _equ(False),
    ".equiv": _equ(True),
    ".word": _data(4),
    ".long": _data(4),
    ".4byte": _data(4),
    ".dword": _data(8),
    ".quad": _data(8),
    ".8byte": _data(8),
    ".half": _data(2),
    ".short": _data(2),
    ".2byte": _data(2),
    ".byte": _data(1),
    ".float": _float,
    ".single": _float,
    ".string": _strings(True),
    ".asciz": _strings(True),
    ".ascii": _strings(False),
    ".space": _space,
    ".skip": _space,
    ".zero": _zero,
    ".fill": _fill,
    ".org": _org,
    ".uleb128": _leb128(False),
    ".sleb128": _leb128(True),
    ".error": _message(True),
    ".warning": _message(False),
    ".end": _end,
    ".insn": _insn,
    ".incbin": _incbin,
    ".align": _align(True),
    ".p2align": _align(True),
    ".balign": _align(False),
    ".option": _option,
    **{name: _ignore for name in IGNORED},
}
