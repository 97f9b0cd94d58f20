"""GNU as's ``.insn``: an instruction given by its format and fields rather than its name.

Users write it for encodings the instruction table does not name (a custom extension, an
instruction of a newer spec).  The forms are GNU as's (RISC-V, binutils 2.40):

    .insn r  opcode, func3, func7, rd, rs1, rs2
    .insn r4 opcode, func3, func2, rd, rs1, rs2, rs3
    .insn i  opcode, func3, rd, rs1, simm12        (or rd, simm12(rs1))
    .insn s  opcode, func3, rs2, simm12(rs1)
    .insn b  opcode, func3, rs1, rs2, target
    .insn u  opcode, rd, imm20
    .insn j  opcode, rd, target
    .insn [length,] value                          (the word itself)

and the compressed (16-bit) ones, which need the C extension (``.option rvc``):

    .insn cr  opcode2, func4, rd, rs2
    .insn ci  opcode2, func3, rd, simm6
    .insn ciw opcode2, func3, rd', uimm8
    .insn css opcode2, func3, rs2, uimm6
    .insn cl  opcode2, func3, rd', uimm5(rs1')
    .insn cs  opcode2, func3, rs2', uimm5(rs1')
    .insn ca  opcode2, func6, func2, rd', rs1'
    .insn cb  opcode2, func3, rs1', target
    .insn cj  opcode2, func3, target

``opcode`` is a number or one of GNU's major-opcode names (``OP``, ``CUSTOM_0`` ...), ``opcode2``
a number or ``C0``..``C2``; ``sb`` and ``uj`` are GNU's other names of ``b`` and ``j``.
Registers may be integer or FP registers; a primed one is one of x8..x15 (f8..f15).  A
compressed format's immediate is its raw field, placed as GNU as places it (checked against
it): ``ci`` splits bit 5 from bits 4..0, ``cl``/``cs`` put bits 4..2 at 12..10 and bits 1..0
at 6..5, and ``cb``/``cj`` targets are encoded like the branch and jump offsets of ``c.beqz``
and ``c.j``.
"""

from __future__ import annotations

from collections.abc import Callable

from toolchain.asm.errors import SourceError
from toolchain.registers import FREGS, XREGS
from toolchain.syntax import split_memory

OPCODES = {
    "LOAD": 0x03, "LOAD_FP": 0x07, "CUSTOM_0": 0x0B, "MISC_MEM": 0x0F, "OP_IMM": 0x13,
    "AUIPC": 0x17, "OP_IMM_32": 0x1B, "STORE": 0x23, "STORE_FP": 0x27, "CUSTOM_1": 0x2B,
    "AMO": 0x2F, "OP": 0x33, "LUI": 0x37, "OP_32": 0x3B, "MADD": 0x43, "MSUB": 0x47,
    "NMSUB": 0x4B, "NMADD": 0x4F, "OP_FP": 0x53, "OP_V": 0x57, "CUSTOM_2": 0x5B,
    "BRANCH": 0x63, "JALR": 0x67, "JAL": 0x6F, "SYSTEM": 0x73, "CUSTOM_3": 0x7B,
}
OPCODES2 = {"C0": 0, "C1": 1, "C2": 2}
ALIASES = {"sb": "b", "uj": "j"}
# operands after the opcode, per format
SHAPES = {"r": "func3, func7, rd, rs1, rs2", "r4": "func3, func2, rd, rs1, rs2, rs3",
          "i": "func3, rd, rs1, simm12", "s": "func3, rs2, simm12(rs1)",
          "b": "func3, rs1, rs2, target", "u": "rd, imm20", "j": "rd, target",
          "sb": "func3, rs1, rs2, target", "uj": "rd, target"}
COMPRESSED = {"cr": "func4, rd, rs2", "ci": "func3, rd, simm6", "ciw": "func3, rd', uimm8",
              "css": "func3, rs2, uimm6", "cl": "func3, rd', uimm5(rs1')",
              "cs": "func3, rs2', uimm5(rs1')", "ca": "func6, func2, rd', rs1'",
              "cb": "func3, rs1', target", "cj": "func3, target"}
# operands with the opcode, once a simm12(rs1) / uimm5(rs1') operand is split in two
FIELDS = {"r": 6, "r4": 7, "i": 5, "s": 5, "b": 5, "u": 3, "j": 3, "cr": 4, "ci": 4, "ciw": 4,
          "css": 4, "cl": 5, "cs": 5, "ca": 5, "cb": 4, "cj": 3}

Operand = tuple[str, int]          # text and column
Value = Callable[[str, int], int]  # evaluate an operand's expression (SourceError if bad)


def raw_length(value: int) -> int:
    """Bytes of an instruction word, from its low bits (11: 32-bit, else 16-bit)."""
    return 4 if value & 3 == 3 else 2


def encode(fmt: str, ops: list[Operand], pc: int, value: Value) -> int:
    """The 32-bit or 16-bit (compressed ``fmt``) word of ``.insn fmt ops`` at ``pc``."""
    fmt = ALIASES.get(fmt, fmt)
    if fmt not in SHAPES and fmt not in COMPRESSED:
        raise SourceError(f".insn format {fmt!r} is not supported (r, r4, i, s, b, u, j, cr, "
                          "ci, ciw, css, cl, cs, ca, cb, cj, or a raw value)")
    if fmt in ("i", "s", "cl", "cs") and len(ops) == FIELDS[fmt] - 1:
        # simm12(rs1) / uimm5(rs1'): as the separate rs1, immediate
        mem = split_memory(ops[-1][0])
        if mem is not None:
            ops = [*ops[:-1], (mem[1], ops[-1][1]), (mem[0] or "0", ops[-1][1])]
    if len(ops) != FIELDS[fmt]:
        raise SourceError(f".insn {fmt} expects opcode{'2' if fmt in COMPRESSED else ''}, "
                          f"{COMPRESSED.get(fmt) or SHAPES[fmt]}")

    def field(i: int, bits: int, what: str) -> int:
        v = value(*ops[i])
        if not 0 <= v < 1 << bits:
            raise SourceError(f"{what} {v} out of range [0, {(1 << bits) - 1}]", ops[i][1])
        return v

    def reg(i: int) -> int:
        name = ops[i][0].strip().lower()
        n = XREGS.get(name, FREGS.get(name))
        if n is None:
            raise SourceError(f"expected a register, got {ops[i][0]!r}", ops[i][1])
        return n

    def signed(i: int, bits: int, what: str, v: int | None = None) -> int:
        v = value(*ops[i]) if v is None else v
        if not -(1 << (bits - 1)) <= v < 1 << (bits - 1):
            raise SourceError(f"{what} {v} out of range [{-(1 << (bits - 1))}, "
                              f"{(1 << (bits - 1)) - 1}]", ops[i][1])
        return v & ((1 << bits) - 1)

    def target(i: int, bits: int) -> int:
        off = value(*ops[i]) - pc
        if off & 1:
            raise SourceError(f"target is {off} bytes away, not a multiple of 2", ops[i][1])
        return signed(i, bits, "target offset", off)

    name = ops[0][0].strip()
    if fmt in COMPRESSED:
        opcode = OPCODES2[name.upper()] if name.upper() in OPCODES2 else field(0, 2, "opcode2")
        if opcode == 3:
            raise SourceError("opcode2 3 is not a compressed opcode (0, 1, 2)", ops[0][1])
        return _compressed(fmt, ops, opcode, field, reg, signed, target)
    opcode = OPCODES[name.upper()] if name.upper() in OPCODES else field(0, 7, "opcode")
    if fmt == "u":
        return field(2, 20, "imm20") << 12 | reg(1) << 7 | opcode
    if fmt == "j":
        off = target(2, 21)
        imm = ((off >> 20 & 1) << 31 | (off >> 1 & 0x3FF) << 21 | (off >> 11 & 1) << 20
               | (off >> 12 & 0xFF) << 12)
        return imm | reg(1) << 7 | opcode
    func3 = field(1, 3, "func3")
    if fmt == "r":
        return (field(2, 7, "func7") << 25 | reg(5) << 20 | reg(4) << 15 | func3 << 12
                | reg(3) << 7 | opcode)
    if fmt == "r4":
        return (reg(6) << 27 | field(2, 2, "func2") << 25 | reg(5) << 20 | reg(4) << 15
                | func3 << 12 | reg(3) << 7 | opcode)
    if fmt == "i":
        return signed(4, 12, "simm12") << 20 | reg(3) << 15 | func3 << 12 | reg(2) << 7 | opcode
    if fmt == "s":
        imm = signed(4, 12, "simm12")
        return ((imm >> 5) << 25 | reg(2) << 20 | reg(3) << 15 | func3 << 12
                | (imm & 0x1F) << 7 | opcode)
    off = target(4, 13)                          # b
    return ((off >> 12 & 1) << 31 | (off >> 5 & 0x3F) << 25 | reg(3) << 20 | reg(2) << 15
            | func3 << 12 | (off >> 1 & 0xF) << 8 | (off >> 11 & 1) << 7 | opcode)


def _compressed(fmt: str, ops: list[Operand], opcode: int, field, reg, signed, target) -> int:
    """The 16-bit word of a compressed ``.insn`` (``field``, ``reg`` ... as in ``encode``)."""
    def prime(i: int) -> int:
        n = reg(i)
        if not 8 <= n <= 15:
            raise SourceError(f"{ops[i][0].strip()!r} is not one of the compressed registers "
                              "s0, s1, a0-a5 (fs0, fs1, fa0-fa5)", ops[i][1])
        return n - 8

    if fmt == "cr":
        return field(1, 4, "func4") << 12 | reg(2) << 7 | reg(3) << 2 | opcode
    if fmt == "ca":
        return (field(1, 6, "func6") << 10 | prime(3) << 7 | field(2, 2, "func2") << 5
                | prime(4) << 2 | opcode)
    func3 = field(1, 3, "func3") << 13
    if fmt == "ci":
        imm = signed(3, 6, "simm6")
        return func3 | (imm >> 5) << 12 | reg(2) << 7 | (imm & 0x1F) << 2 | opcode
    if fmt == "ciw":
        return func3 | field(3, 8, "uimm8") << 5 | prime(2) << 2 | opcode
    if fmt == "css":
        return func3 | field(3, 6, "uimm6") << 7 | reg(2) << 2 | opcode
    if fmt in ("cl", "cs"):
        imm = field(4, 5, "uimm5")
        return func3 | (imm >> 2) << 10 | prime(3) << 7 | (imm & 3) << 5 | prime(2) << 2 | opcode
    if fmt == "cb":
        off = target(3, 9)
        return (func3 | (off >> 8 & 1) << 12 | (off >> 3 & 3) << 10 | prime(2) << 7
                | (off >> 6 & 3) << 5 | (off >> 1 & 3) << 3 | (off >> 5 & 1) << 2 | opcode)
    off = target(2, 12)                          # cj
    return (func3 | (off >> 11 & 1) << 12 | (off >> 4 & 1) << 11 | (off >> 8 & 3) << 9
            | (off >> 10 & 1) << 8 | (off >> 6 & 1) << 7 | (off >> 7 & 1) << 6
            | (off >> 1 & 7) << 3 | (off >> 5 & 1) << 2 | opcode)
