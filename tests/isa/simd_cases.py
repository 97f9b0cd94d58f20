"""Corner-operand cases for every packed-SIMD instruction, and the programs that run them.

``python -m tests.isa.simd_cases`` rewrites ``programs/xpulpv2_simd.{s,exp}`` and
``programs/corev_simd.{s,exp}``: one case per line of ``.exp``, the expected word computed by the
numpy model (``simd_model.result``), the program storing rD after each instruction into ``out``.
``test_simd.py`` checks that the files are what this module generates.
"""

from __future__ import annotations

import random
from pathlib import Path

from tests.isa.simd_model import result

PROGRAMS = Path(__file__).parent / "programs"

LANE_OPS = ("add sub avg avgu min minu max maxu srl sra sll or xor and dotup dotusp dotsp "
            "sdotup sdotusp sdotsp cmpeq cmpne cmpgt cmpge cmplt cmple cmpgtu cmpgeu cmpltu "
            "cmpleu").split()
SIGNED_IMM = {"add", "sub", "avg", "min", "max", "or", "xor", "and", "dotusp", "dotsp",
              "sdotusp", "sdotsp", "cmpeq", "cmpne", "cmpgt", "cmpge", "cmplt", "cmple"}
SHIFTS = {"srl", "sra", "sll"}

RD = 0xA5A5C3C3
# (rs1, rs2): per-lane overflow both ways, negative lanes for min/max/compares, equal lanes,
# the most negative lane, carries that must not cross lanes
PAIRS = [
    (0x7FFF8000, 0x00017FFF),
    (0x80007FFF, 0xFFFF0001),
    (0x7F80FF01, 0x0180FF7F),
    (0xFFFFFFFF, 0x00000001),
    (0x12345678, 0x12349ABC),
    (0x80808080, 0x7F7F807F),
]
SHIFT_RS2 = [0x001F0011, 0x0F090701, 0x00000000, 0xFFF8FFF7]


def _imm_bounds(family: str, op: str, width: str) -> list[int]:
    if op in SHIFTS:
        top = 31 if family == "pv" else (15 if width == "h" else 7)
        return [0, 1, 7 if width == "b" else 9, top]
    if op in SIGNED_IMM:
        return [-32, -1, 5, 31]
    return [0, 1, 33, 63]


def cases(family: str) -> list[tuple[str, str, int, int, int, int]]:
    """(mnemonic, operand text, rd, rs1, rs2, imm) for every instruction of ``family``
    (``pv`` or ``cv``)."""
    out = []
    for op in LANE_OPS:
        for width in ("h", "b"):
            for variant in ("", "sc.", "sci."):
                name = f"{family}.{op}.{variant}{width}"
                if variant == "sci.":
                    for k, imm in enumerate(_imm_bounds(family, op, width)):
                        rs1 = PAIRS[k][0]
                        out.append((name, f"a0, a1, {imm}", RD, rs1, 0, imm))
                    continue
                rs2s = SHIFT_RS2 if op in SHIFTS else [p[1] for p in PAIRS]
                for k, rs2 in enumerate(rs2s):
                    out.append((name, "a0, a1, a2", RD, PAIRS[k][0], rs2, 0))
    for width, n in (("h", 2), ("b", 4)):
        for rs1, _ in PAIRS:
            out.append((f"{family}.abs.{width}", "a0, a1", RD, rs1, 0, 0))
        for name in ("extract", "extractu", "insert"):
            for i in range(n):
                out.append((f"{family}.{name}.{width}", f"a0, a1, {i}", RD, 0x8001FF7F, 0, i))
    # shuffles with every selector pattern
    for rs2 in (0x00000000, 0x00000001, 0x00010000, 0x00010001, 0xFFFE0003):
        out.append((f"{family}.shuffle.h", "a0, a1, a2", RD, 0x12348765, rs2, 0))
    for rs2 in (0x00010203, 0x03020100, 0x01030002, 0xFCFDFEFF, 0x02020202):
        out.append((f"{family}.shuffle.b", "a0, a1, a2", RD, 0x44332211, rs2, 0))
    for imm in range(4):
        out.append((f"{family}.shuffle.sci.h", f"a0, a1, {imm}", RD, 0x12348765, 0, imm))
    for k in range(4):
        for imm in (0, 27, 36, 57, 63):
            out.append((f"{family}.shufflei{k}.sci.b", f"a0, a1, {imm}", RD, 0x44332211, 0, imm))
    for rs2 in (0x00000000, 0x00010001, 0x00020002, 0x00030003, 0x00030000, 0x00010002):
        out.append((f"{family}.shuffle2.h", "a0, a1, a2", RD, 0x12348765, rs2, 0))
    for rs2 in (0x03020100, 0x07060504, 0x04050607, 0x00070106, 0xF8FBFCFF):
        out.append((f"{family}.shuffle2.b", "a0, a1, a2", RD, 0x44332211, rs2, 0))
    packs = ["pack.h", "packhi.b", "packlo.b"] if family == "pv" else [
        "pack", "pack.h", "packhi.b", "packlo.b"]
    for p in packs:
        for rs1, rs2 in PAIRS[:3]:
            out.append((f"{family}.{p}", "a0, a1, a2", RD, rs1, rs2, 0))
    return out


def expected(case: tuple[str, str, int, int, int, int]) -> int:
    name, _, rd, rs1, rs2, imm = case
    return result(name, rd, rs1, rs2, imm)


def random_cases(family: str, seed: int, per_instruction: int) -> list:
    """The same instructions with random registers and in-range immediates."""
    rng = random.Random(seed)
    out = []
    for name, ops, *_ in {c[0]: c for c in cases(family)}.values():
        for _ in range(per_instruction):
            rd, rs1, rs2 = (rng.getrandbits(32) for _ in range(3))
            imm = 0
            if ops != "a0, a1, a2" and ops != "a0, a1":
                imm = rng.choice([c[5] for c in cases(family) if c[0] == name])
                ops = f"a0, a1, {imm}"
            out.append((name, ops, rd, rs1, rs2, imm))
    return out


def program(case_list: list, title: str) -> str:
    """Assembly storing rD after each case into consecutive words of ``out``."""
    lines = [f"# {title}", "# Generated by tests/isa/simd_cases.py; expected words in the .exp.",
             "    .option norvc", "    .text", "    .globl _start", "_start:", "    la s0, out"]
    for name, ops, rd, rs1, rs2, _ in case_list:
        lines += [f"    li a0, {rd:#x}", f"    li a1, {rs1:#x}", f"    li a2, {rs2:#x}",
                  f"    {name} {ops}", "    sw a0, 0(s0)", "    addi s0, s0, 4"]
    lines += ["    li a0, 0", "    li a7, 93", "    ecall", "    .data", "out:",
              f"    .space {4 * len(case_list)}", ""]
    return "\n".join(lines)


def expectation(case_list: list, family: str) -> str:
    lines = ["# One word of `out` per case: rD computed lane by lane by tests/isa/simd_model.py",
             f"family = {family}"]
    for i, case in enumerate(case_list):
        name, ops, rd, rs1, rs2, _ = case
        lines.append(f"[out+{4 * i}] = {expected(case):#010x}   # {name} {ops} with "
                     f"rD={rd:#x} rs1={rs1:#x} rs2={rs2:#x}")
    return "\n".join(lines) + "\n"


def files() -> dict[Path, str]:
    out = {}
    for family, prefix, title in (("xpulpv2", "pv", "Xpulpv2 packed SIMD (pv.*)"),
                                  ("corev", "cv", "CORE-V packed SIMD (cv.*)")):
        cs = cases(prefix)
        out[PROGRAMS / f"{family}_simd.s"] = program(cs, f"{title}: every instruction over "
                                                         "corner operands")
        out[PROGRAMS / f"{family}_simd.exp"] = expectation(cs, family)
    return out


if __name__ == "__main__":
    for path, text in files().items():
        path.write_text(text)
