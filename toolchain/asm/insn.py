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

``opcode`` is a number or one of GNU's major-opcode names (``OP``, ``CUSTOM_0`` ...).
Registers may be integer or FP registers.  The compressed formats (``cr``, ``ci`` ...) are not
supported.
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
# operands after the opcode, per format
SHAPES = {"r": "func3, func7, rd, rs1, rs2", "r4": "func3, func2, rd, rs1, rs2, rs3",
          "i": "func3, rd, rs1, simm12", "s": "func3, rs2, simm12(rs1)",
          "b": "func3, rs1, rs2, target", "u": "rd, imm20", "j": "rd, target"}
# GNU's compressed formats: recognised, so that their use gets a clear refusal
COMPRESSED = ("cr", "ci", "ciw", "css", "cl", "cs", "ca", "cb", "cj", "cbc", "csc")
# operands with the opcode, once a simm12(rs1) operand is split in two
FIELDS = {"r": 6, "r4": 7, "i": 5, "s": 5, "b": 5, "u": 3, "j": 3}

Operand = tuple[str, int]          # text and column
Value = Callable[[str, int], int]  # evaluate an operand's expression (SourceError if bad)


def raw_length(value: int) -> int:
    """Bytes of an instruction word, from its low bits (11: 32-bit, else 16-bit)."""
    return 4 if value & 3 == 3 else 2


def encode(fmt: str, ops: list[Operand], pc: int, value: Value) -> int:
    """The 32-bit word of ``.insn fmt ops`` at ``pc``."""
    if fmt not in SHAPES:
        raise SourceError(f".insn format {fmt!r} is not supported (r, r4, i, s, b, u, j, or "
                          "a raw value)")
    if fmt in ("i", "s") and len(ops) == 4:   # simm12(rs1): as the separate rs1, simm12
        mem = split_memory(ops[3][0])
        if mem is not None:
            ops = [*ops[:3], (mem[1], ops[3][1]), (mem[0] or "0", ops[3][1])]
    if len(ops) != FIELDS[fmt]:
        raise SourceError(f".insn {fmt} expects opcode, {SHAPES[fmt]}")

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

    name = ops[0][0].strip()
    opcode = OPCODES[name.upper()] if name.upper() in OPCODES else field(0, 7, "opcode")
    if fmt == "u":
        return field(2, 20, "imm20") << 12 | reg(1) << 7 | opcode
    if fmt == "j":
        off = value(*ops[2]) - pc
        if off & 1:
            raise SourceError(f"target is {off} bytes away, not a multiple of 2", ops[2][1])
        off = signed(2, 21, "target offset", off)
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
    off = value(*ops[4]) - pc                    # b
    if off & 1:
        raise SourceError(f"target is {off} bytes away, not a multiple of 2", ops[4][1])
    off = signed(4, 13, "target offset", off)
    return ((off >> 12 & 1) << 31 | (off >> 5 & 0x3F) << 25 | reg(3) << 20 | reg(2) << 15
            | func3 << 12 | (off >> 1 & 0xF) << 8 | (off >> 11 & 1) << 7 | opcode)
