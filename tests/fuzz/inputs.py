"""Random bad input for the fuzz tests: mutated assembly, random programs, corrupted ELF files.

Each generator takes a ``random.Random`` so that a failing case is reproduced from its seed.
The mutations aim at what users get wrong (a deleted operand, a stray token, a huge count, a
truncated file) rather than at uniform noise, which the lexer would refuse on the first line.
"""

from __future__ import annotations

import random
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KERNELS = ROOT / "asm_kernels"
MODELS = ROOT / "examples"

# tokens a mutation may insert: operators, relocations, directives with extreme arguments,
# expansion openers without their closers, registers of the wrong kind
TOKENS = (
    "(", ")", ",", "%hi(", "%lo(", "%pcrel_lo(", "1b", "1f", ".", "-", "+", "<<", ">>", "0x",
    "9999999999999999999", "-2147483649", ".word", ".macro m a", ".endm", ".rept 3", ".endr",
    ".irp x,1,2", ".if", ".endif", ".else", '"', "'", "\\", "\\a", "a0", "ft0", "x0",
    "lp.setup", "p.lw", "cv.setupi", "!", "(a0!)", ".option push", ".option pop",
    ".section .foo", ".align 40", ".p2align 31", ".space -1", '.include "missing.s"', ".equ",
    ".set x, x+1", ":", "label:", ".globl", "#", "/*", "*/", ";", "\t", ".float nan",
    ".balign 3", ".skip 100000000", ".zero 1<<40", ".byte 1/0", ".word 1%0", '.string "\\x"',
    "li a0, 1<<70", "la a0, .+1", "j .+1", ".rept 100000", ".irpc c, abc", ".ifc a,b",
    ".exitm", ".purgem m", "call", "tail", ".option xpulpv2", ".option corev", ".option rvc",
    ".option norvc", "lw a0, 5", "sw a0, x, t0", ".half -40000", ".org 0x100", ".org -1",
    ".fill 3, 9, -1", ".fill 1<<30, 8", ".uleb128 -5", ".sleb128 x", ".weak x", ".error",
    '.warning "w"', ".end", ".insn r 0x33, 0, 0, a0, a1, a2", ".insn i 0x13, 0, a0, a1, 5000",
    ".insn cr 2, 9, a0, a1", ".insn b 0x63, 0, a0, a1, 1b", ".insn 0x3",
)


def bundled(folder: Path, pattern: str) -> list[str]:
    """The texts of the bundled files (kernels, example models): real input to mutate."""
    return [p.read_text() for p in sorted(folder.glob(pattern))]


def mutate_source(source: str, rng: random.Random) -> str:
    """A few line-level edits of ``source``: delete, duplicate, insert tokens, cut, garble."""
    lines = source.split("\n")
    for _ in range(rng.randint(1, 6)):
        i = rng.randrange(len(lines))
        edit = rng.randrange(6)
        if edit == 0 and len(lines) > 1:
            del lines[i]
        elif edit == 1:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif edit == 2:
            at = rng.randint(0, len(lines[i]))
            lines[i] = lines[i][:at] + rng.choice(TOKENS) + lines[i][at:]
        elif edit == 3 and lines[i]:
            at = rng.randrange(len(lines[i]))
            lines[i] = lines[i][:at] + lines[i][at + rng.randint(1, 5):]
        elif edit == 4:
            lines.insert(i, " ".join(rng.choice(TOKENS) for _ in range(rng.randint(1, 5))))
        else:
            lines[i] = "".join(chr(rng.randint(32, 126)) if rng.random() < 0.05 else ch
                               for ch in lines[i])
    return "\n".join(lines)


# ---- random programs -------------------------------------------------------------------------
# registers the body computes with, and base registers set up to point at each kind of memory
_X = ("a0", "a1", "a2", "a3", "t0", "t1", "t2", "s2", "s3")
_F = ("fa0", "fa1", "ft0", "ft1")
_BASES = ("a4", "a5", "a6", "a7", "sp")      # TCDM, L2, event unit, DMA, own stack
_PROLOGUE = """\
    .text
    .globl _start
_start:
    li t0, 0x6000
    csrs mstatus, t0
    li a4, 0x10000100
    li a5, 0x1c010000
    li a6, 0x10204000
    li a7, 0x10200400
    li s2, {team}
"""
_EXIT = "    li a7, 93\n    li a0, 0\n    ecall\n"
_OFFSETS = (0, 4, 8, 0x10, 0x14, 0x18, 0x1C, 0x20, 0x3C, 0x80, 0x100, 0x200, 0x204, 0x20C,
            0x21C, 1, 2, 3, -4)


def _instruction(rng: random.Random) -> str:
    x, f, base = (lambda: rng.choice(_X)), (lambda: rng.choice(_F)), (lambda: rng.choice(_BASES))
    forms = (
        lambda: f"addi {x()}, {x()}, {rng.randint(-2048, 2047)}",
        lambda: f"li {x()}, {rng.choice((0, 1, 3, 0xFF, 0x10000, 0x1C008000, -1))}",
        lambda: f"li {x()}, {rng.getrandbits(32)}",
        lambda: f"{rng.choice(('lw', 'lh', 'lbu', 'sw', 'sh', 'sb'))} {x()}, "
                f"{rng.choice(_OFFSETS)}({base()})",
        lambda: f"{rng.choice(('flw', 'fsw'))} {f()}, {rng.choice(_OFFSETS)}({base()})",
        lambda: f"{rng.choice(('fadd.s', 'fmul.s', 'fdiv.s', 'fmin.s'))} {f()}, {f()}, {f()}",
        lambda: f"fsqrt.s {f()}, {f()}",
        lambda: f"fmadd.s {f()}, {f()}, {f()}, {f()}",
        lambda: f"fcvt.s.w {f()}, {x()}",
        lambda: f"{rng.choice(('mul', 'div', 'remu', 'mulh'))} {x()}, {x()}, {x()}",
        lambda: f"{rng.choice(('p.lw', 'p.sw'))} {x()}, 4({rng.choice(('a4', 'sp'))}!)",
        lambda: f"{rng.choice(('beq', 'bne', 'blt', 'bgeu'))} {x()}, {x()}, "
                f"{rng.choice(('1b', '1f', '2f'))}",
        lambda: "wfi",
        lambda: f"csrr {x()}, {rng.choice(('mhartid', 'mcycle', 'fcsr', '0x7c2', '0xcc0'))}",
        lambda: f"csrw {rng.choice(('0x7c0', '0x7c2', 'fcsr', 'mtvec', '0xcc1'))}, {x()}",
        lambda: f"lp.setupi x{rng.randint(0, 1)}, {rng.randint(0, 5)}, 3f",
        lambda: f"lp.setup x{rng.randint(0, 1)}, {x()}, 3f",
        lambda: "ecall",
        lambda: f"li a7, {rng.choice((64, 93))}",                # ecall: write or exit
        lambda: (".option push\n    .option norvc\n    slli x0, x0, 0x1f\n    ebreak\n"
                 "    srai x0, x0, 7\n    .option pop"),                # semihosting call
        lambda: "fence.i",
        lambda: f"jalr {x()}, 0({x()})",
        lambda: "mret",
    )
    return rng.choice(forms)()


def random_program(rng: random.Random) -> str:
    """A short program of plausible instructions: loops, device and DMA register traffic,
    hardware loops, traps, host calls with whatever pointers the registers hold, FP; most of
    them fault or hang, which is the point."""
    body = []
    for _ in range(rng.randint(3, 30)):
        for label in ("1", "2", "3"):
            if rng.random() < 0.1:
                body.append(f"{label}:")
        body.append("    " + _instruction(rng))
    body += ["1:", "2:", "3:", "    nop"]
    team = (1 << rng.randint(1, 8)) - 1
    return _PROLOGUE.format(team=team) + "\n".join(body) + "\n" + _EXIT


# ---- corrupted ELF files ---------------------------------------------------------------------
def mutate_elf(data: bytes, rng: random.Random) -> bytes:
    """Overwrite bytes (mostly in the headers), overwrite words, or cut the file short."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        kind = rng.random()
        if kind < 0.5:
            span = min(len(out), 256) if rng.random() < 0.6 else len(out)
            out[rng.randrange(span)] = rng.getrandbits(8)
        elif kind < 0.8 and len(out) > 4:
            at = rng.randrange(len(out) - 4)
            out[at:at + 4] = rng.getrandbits(32).to_bytes(4, "little")
        elif len(out) > 1:
            out = out[:rng.randrange(1, len(out))]     # never empty: the edits need a byte
    return bytes(out)


# ---- model files -------------------------------------------------------------------------------
_MODEL_VALUES = ("0", "-1", "1", "2", "3", "1000000", '"x"', "1.5", "[]", "[1]", "[0, 0, 0]",
                 "true", '"conv2d"', '"linear"', '"relu"', '"maxpool"', '"pw2"', "[3, 1, 1]",
                 "[1, 32, 32]", '"tcdm"', '"l2"', '"class:99"')


def mutate_model(text: str, rng: random.Random) -> str:
    """Replace values with ones of other types or absurd sizes, delete or duplicate lines."""
    lines = text.split("\n")
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(lines))
        kind = rng.random()
        if "=" in lines[i] and kind < 0.7:
            lines[i] = lines[i].split("=")[0] + "= " + rng.choice(_MODEL_VALUES)
        elif kind < 0.85 and len(lines) > 1:
            del lines[i]
        else:
            lines.insert(i, lines[rng.randrange(len(lines))])
    return "\n".join(lines)
