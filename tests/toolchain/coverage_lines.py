"""Assembly lines that exercise every standard instruction and alias (RV32IMFC, Zicsr, mret/wfi).

Used for byte comparisons with GNU as (``riscv64-unknown-elf-as -march=rv32imfc_zicsr_zifencei
-mabi=ilp32f -mno-relax``): per line in ``test_standard_vs_gnu.py`` and for whole files by the
assembler's tests.  Everything is deterministic and self-contained: branch and jump targets are
labels defined in the lines themselves (numeric local labels), and ``.space`` lines put some
targets exactly at the edge of a branch's reach.

- :func:`standard_lines` assembles under both ``.option rvc`` and ``.option norvc``.  With RVC on,
  GNU as compresses the base instructions; the lines are chosen so that this reaches every RVC
  entry except ``c.jal`` (GNU as 2.40 never compresses ``jal``), at both ends of each range.
- :func:`rvc_lines` writes the ``c.*`` mnemonics explicitly; GNU as accepts them only with RVC on.
"""

from __future__ import annotations

ROUNDING = ("rne", "rtz", "rdn", "rup", "rmm", "dyn")


def _with_rm(head: str, count: int) -> list[str]:
    """``head`` once without a rounding mode, then with each mode, cycling registers."""
    lines = [head.format(*_fregs(0, count))]
    for i, rm in enumerate(ROUNDING, start=1):
        lines.append(head.format(*_fregs(i, count)) + f", {rm}")
    return lines


_FREG_SETS = (
    ("fa0", "fa1", "fa2", "fa3"), ("ft0", "ft11", "fs11", "f31"), ("f0", "f1", "f2", "f3"),
    ("fs0", "fs1", "ft8", "fa7"), ("f31", "f30", "f29", "f28"), ("ft7", "fs2", "fa5", "ft3"),
    ("fa4", "fa4", "fa4", "fa4"),
)
_XREG_SETS = (
    ("a0", "a1", "a2"), ("zero", "ra", "sp"), ("t6", "s11", "x31"), ("x5", "fp", "gp"),
    ("s0", "s1", "a5"), ("tp", "t0", "zero"), ("a7", "a7", "a7"),
)


def _fregs(i: int, count: int) -> tuple[str, ...]:
    return _FREG_SETS[i % len(_FREG_SETS)][:count]


def _rv32i() -> list[str]:
    lines = [
        # U-type: both ends of the 20-bit field; c.lui takes 1..0x1f and 0xfffe0..0xfffff
        "lui a0, 0", "lui t6, 0xfffff", "lui x1, 0x80000", "lui s0, 0x7ffff", "lui a5, 1",
        "lui a0, 0x1f", "lui a0, 0x20", "lui s1, 0xfffe0", "lui s1, 0xfffdf", "lui sp, 1",
        "lui zero, 1",
        "auipc a0, 0", "auipc t0, 0xfffff", "auipc s11, 0x12345",
    ]
    # loads and stores: 12-bit ends, empty offset, and the compressible ranges
    lines += [
        "lb a0, -2048(a1)", "lb t0, 2047(sp)", "lh ra, 0(zero)", "lh s0, -1(s1)",
        "lw ra, 0(sp)", "lw s0, 124(s1)", "lw s0, 128(s1)", "lw a5, 0(a4)", "lw a0, 252(sp)",
        "lw a0, 256(sp)", "lw a0, 2(sp)", "lw zero, 4(sp)", "lw a0, (a1)", "lw t1, -4(s0)",
        "lbu a0, 2047(x31)", "lbu s2, -2048(s3)", "lhu a0, 6(a1)", "lhu t3, -6(t4)",
        "sb a0, -2048(a1)", "sb zero, 2047(sp)", "sh t6, 0(t5)", "sh a0, -2(fp)",
        "sw a0, 0(sp)", "sw s1, 124(s0)", "sw s1, 128(s0)", "sw a5, 252(sp)", "sw a0, 256(sp)",
        "sw zero, 4(sp)", "sw zero, 4(s0)", "sw ra, (sp)", "sw x31, -2048(x1)",
    ]
    # immediate arithmetic, with the forms GNU as compresses and the ones it keeps 32-bit
    lines += [
        "addi a0, a1, -2048", "addi t0, t1, 2047", "addi a0, a1, 0", "addi zero, zero, 0",
        "addi x0, x0, 5", "addi a0, sp, 4", "addi s0, sp, 1020", "addi s0, sp, 1024",
        "addi s0, sp, 2", "addi a0, a0, 1", "addi a0, a0, -32", "addi t6, t6, 31",
        "addi a0, a0, 32", "addi sp, sp, 16", "addi sp, sp, -32", "addi sp, sp, 32",
        "addi sp, sp, 496", "addi sp, sp, -512", "addi sp, sp, 512", "addi sp, sp, 24",
        "addi a0, x0, 0", "addi a0, zero, -32", "addi a0, zero, 31", "addi a0, a0, 0",
        "addi sp, a0, 0", "addi a0, sp, 0",
        "slti a0, a1, -2048", "slti t0, zero, 2047", "sltiu a0, a1, 1", "sltiu s0, s0, -1",
        "xori a0, a1, -1", "xori t2, t3, 0x7ff", "ori a0, a1, 0", "ori s4, s5, -0x800",
        "andi a0, a1, 255", "andi s0, s0, -32", "andi s0, s0, 31", "andi s0, s0, 32",
        "andi a5, a5, 0", "andi a0, a0, 1",
        "slli a0, a1, 0", "slli a0, a0, 3", "slli t6, t6, 31", "slli zero, zero, 0x1f",
        "slli a0, a0, 0",
        "srli a0, a1, 31", "srli s0, s0, 1", "srli a5, a5, 31", "srli s0, s0, 0",
        "srai a0, a1, 7", "srai s1, s1, 31", "srai a2, a2, 1", "srai zero, zero, 7",
    ]
    # register-register, with the operand orders GNU as compresses
    lines += [
        "add a0, a1, a2", "add a0, x0, a1", "add a0, a1, x0", "add a0, a1, a0", "add a0, a0, a1",
        "add a0, a0, a0", "add x0, x0, a0", "add sp, sp, t0", "add t6, zero, t6",
        "sub a0, a1, a2", "sub s0, s0, s1", "sub s0, s1, s0", "sub a5, a5, a4", "sub t0, t0, t0",
        "sll a0, a1, a2", "sll s0, s0, s1", "slt a0, a1, a2", "slt zero, x31, x30",
        "sltu a0, a1, a2", "sltu s0, s0, s1",
        "xor a0, a1, a2", "xor s0, s0, s1", "xor s0, s1, s0", "xor a0, a0, a0",
        "srl a0, a1, a2", "srl s0, s0, s1", "sra a0, a1, a2", "sra s1, s1, s1",
        "or a0, a1, a2", "or s0, s0, s1", "or s0, s1, s0", "or a4, a4, a5",
        "and a0, a1, a2", "and s0, s0, s1", "and s0, s1, s0", "and a5, a5, a5",
    ]
    lines += [
        "fence", "fence iorw, iorw", "fence rw, w", "fence r, r", "fence w, rw", "fence io, io",
        "fence i, o", "fence o, i", "fence iorw, r", "fence w, iorw", "fence.i",
        "ecall", "ebreak",
    ]
    # one-instruction pseudo-instructions
    lines += [
        "nop", "li a0, 0", "li a0, -32", "li a0, 31", "li a0, 32", "li t0, -2048", "li s0, 2047",
        "li x0, 0", "li x0, 5", "li a0, -1",
        "mv a0, a1", "mv sp, a0", "mv a0, sp", "mv a0, zero", "mv zero, zero", "mv t6, t6",
        "not a0, a1", "not s0, s0", "neg a0, a1", "neg s0, s0", "seqz a0, a1", "seqz t0, t0",
        "snez a0, a1", "snez s0, zero", "sltz a0, a1", "sltz t6, t5", "sgtz a0, a1",
        "sgtz s1, s1",
    ]
    lines += _control_flow()
    return lines


def _control_flow() -> list[str]:
    """Branches and jumps to nearby labels, both directions, every alias."""
    lines = [
        "1:",
        "beq a0, a1, 1b", "bne t0, t1, 1f", "blt s0, s1, 1b", "bge a2, a3, 1f",
        "bltu x5, x31, 1b", "bgeu zero, ra, 1f", "beq s0, x0, 1f", "beq s0, zero, 1b",
        "bne a5, zero, 1b", "beq x0, s0, 1f", "bne zero, s0, 1b", "beq a0, a0, 1b",
        "beqz a0, 1b", "beqz s1, 1f", "bnez s1, 1f", "bnez t0, 1b", "blez a0, 1f",
        "bgez s0, 1b", "bltz t6, 1f", "bgtz a2, 1b", "bgt a0, a1, 1f", "ble s0, s1, 1b",
        "bgtu t0, t1, 1f", "bleu a4, a5, 1b",
        "j 1b", "j 1f", "jal 1f", "jal ra, 1b", "jal x0, 1f", "jal t0, 1b", "jal zero, 1b",
        "jalr ra, 0(a0)", "jalr ra, a0, 0", "jalr t0, -2048(t1)", "jalr a0, 2047(a1)",
        "jalr zero, 0(ra)", "jalr x0, ra, 0", "jalr a0", "jalr 0(a0)", "jalr 8(s0)",
        "jr a0", "jr 0(a0)", "jr -4(t0)", "jr ra", "ret", "jr zero",
        "1:",
        "nop",
        # backward targets at the edge of reach: exactly -256 / -2048 / -4096, and just beyond
        "2:", ".space 256", "bnez a5, 2b",
        "2:", ".space 258", "beqz a4, 2b",
        "2:", ".space 2048", "j 2b",
        "2:", ".space 4096", "bne t0, t1, 2b",
        "jal 2f", ".space 5000", "2:",
    ]
    return lines


def _forward_edges() -> list[str]:
    """Forward targets exactly at the end of reach (+4094, +254, +2046) and just beyond.

    GNU as sizes forward branches by relaxation, which never shrinks a branch again: with
    other relaxable branches before it, one within a few bytes of its edge can end up in the
    long form (bne + jal).  So these come first in the file, where GNU as decides exactly.
    """
    return [
        "beq a0, a1, 2f", ".space 4090", "2:",
        "beqz s0, 2f", ".space 252", "2:",
        "bnez s1, 2f", ".space 254", "2:",
        "j 2f", ".space 2044", "2:",
        "j 2f", ".space 2046", "2:",
    ]


def _m() -> list[str]:
    lines = []
    for name in ("mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu"):
        for regs in _XREG_SETS[:4]:
            lines.append(f"{name} {', '.join(regs)}")
    return lines


def _f() -> list[str]:
    lines = [
        "flw fa0, -2048(a0)", "flw ft0, 2047(sp)", "flw fs0, 0(s1)", "flw fs0, 124(s1)",
        "flw fs0, 128(s1)", "flw fa0, 252(sp)", "flw fa0, 256(sp)", "flw f31, (x31)",
        "flw fa5, 8(a5)",
        "fsw fa0, 2047(a0)", "fsw ft0, -2048(sp)", "fsw fs1, 0(s0)", "fsw fs1, 124(s0)",
        "fsw fa0, 252(sp)", "fsw fa0, 256(sp)", "fsw ft11, (t6)", "fsw f8, 4(x15)",
    ]
    for name in ("fmadd.s", "fmsub.s", "fnmsub.s", "fnmadd.s"):
        lines += _with_rm(name + " {}, {}, {}, {}", 4)
    for name in ("fadd.s", "fsub.s", "fmul.s", "fdiv.s"):
        lines += _with_rm(name + " {}, {}, {}", 3)
    lines += _with_rm("fsqrt.s {}, {}", 2)
    for name in ("fsgnj.s", "fsgnjn.s", "fsgnjx.s", "fmin.s", "fmax.s"):
        lines += [f"{name} fa0, fa1, fa2", f"{name} ft0, ft0, ft0", f"{name} f31, fs11, f1"]
    xf = (("a0", "fa0"), ("zero", "f31"), ("t6", "ft0"), ("s1", "fs11"), ("ra", "fa7"),
          ("x31", "f1"), ("a5", "fs0"))
    for name in ("fcvt.w.s", "fcvt.wu.s"):
        lines.append(f"{name} a0, fa1")
        lines += [f"{name} {x}, {f}, {rm}" for (x, f), rm in zip(xf, ROUNDING, strict=False)]
    for name in ("fcvt.s.w", "fcvt.s.wu"):
        lines.append(f"{name} fa1, a0")
        lines += [f"{name} {f}, {x}, {rm}" for (x, f), rm in zip(xf, ROUNDING, strict=False)]
    for name in ("fmv.x.w", "fclass.s", "fmv.x.s"):
        lines += [f"{name} {x}, {f}" for x, f in xf[:3]]
    for name in ("fmv.w.x", "fmv.s.x"):
        lines += [f"{name} {f}, {x}" for x, f in xf[:3]]
    for name in ("feq.s", "flt.s", "fle.s", "fgt.s", "fge.s"):
        lines += [f"{name} a0, fa0, fa1", f"{name} zero, f31, f0", f"{name} t6, ft1, ft1"]
    for name in ("fmv.s", "fneg.s", "fabs.s"):
        lines += [f"{name} fa0, fa1", f"{name} ft0, ft0", f"{name} f31, f0"]
    return lines


# CSR operands: names from every group, numbers (hex and decimal), both ends of the range
_CSRS = ("fflags", "frm", "fcsr", "mstatus", "mscratch", "mepc", "mcause", "mhartid",
         "0x7c0", "3072", "0xfff", "1", "0xcc0", "cycle", "instreth")


def _zicsr() -> list[str]:
    lines = []
    for i, csr in enumerate(_CSRS):
        rd, _, rs = _XREG_SETS[i % len(_XREG_SETS)]
        for name in ("csrrw", "csrrs", "csrrc"):
            lines.append(f"{name} {rd}, {csr}, {rs}")
        for name, imm in (("csrrwi", 0), ("csrrsi", 31), ("csrrci", i)):
            lines.append(f"{name} {rd}, {csr}, {imm}")
    lines += [
        "csrrs a0, fflags, zero", "csrrs zero, fcsr, zero", "csrrw x0, frm, x0",
        "csrrw x0, cycle, x0", "csrrw x0, cycle, a0", "csrrs x0, cycle, x0",
        "csrrsi zero, mstatus, 0", "csrrwi zero, frm, 3", "csrrwi a0, fflags, 31",
        # the immediate forms GNU as accepts under the register-form names
        "csrrw a0, mstatus, 3", "csrrs a0, mstatus, 31", "csrrc t0, 0x7c0, 0",
    ]
    for reader in ("rdcycle", "rdcycleh", "rdtime", "rdtimeh", "rdinstret", "rdinstreth",
                   "frcsr", "frrm", "frflags", "frsr"):
        lines += [f"{reader} a0", f"{reader} zero", f"{reader} t6"]
    for writer in ("fscsr", "fsrm", "fsflags", "fssr"):
        lines += [f"{writer} a0, a1", f"{writer} a1", f"{writer} zero, t0", f"{writer} a0, zero"]
    for writer in ("fsrmi", "fsflagsi"):
        lines += [f"{writer} a0, 3", f"{writer} 0", f"{writer} zero, 31", f"{writer} 31"]
    lines += ["csrr a0, mstatus", "csrr zero, mscratch", "csrr t6, 0x7c0", "csrr a0, 3072",
              "csrr a0, fflags", "csrr a0, cycleh"]
    for name in ("csrw", "csrs", "csrc"):
        lines += [f"{name} mstatus, a0", f"{name} 0x7c0, zero", f"{name} fcsr, t6",
                  f"{name} mepc, 3", f"{name} frm, 0", f"{name} 0xfff, 31"]
    for name in ("csrwi", "csrsi", "csrci"):
        lines += [f"{name} mstatus, 0", f"{name} fflags, 31", f"{name} 0x7c0, 7"]
    lines += ["unimp"]
    return lines


def _multi() -> list[str]:
    """Pseudo-instructions GNU as expands to several instructions."""
    values = ("0x12345", "-2049", "0x7fffffff", "0x80000000", "0xffffffff", "0x1f000",
              "0x800", "0x12001", "-0x80000000", "0xfffff800", "4096", "-4096", "0x7ff00",
              "0xabcdef12")
    lines = [f"li a0, {v}" for v in values]
    lines += ["li t6, 0x10000", "li s0, 0x12345678", "li sp, 0x1c010000"]
    lines += ["3:", "la a0, 3b", "la t0, 3f", "call 3b", "call 3f", "tail 3b", "tail 3f", "3:",
              "nop"]
    return lines


def standard_lines() -> list[str]:
    """Every standard entry and alias, several operand choices each (valid rvc and norvc)."""
    return [*_forward_edges(), *_rv32i(), *_m(), *_f(), *_zicsr(), "mret", "wfi", *_multi()]


def rvc_lines() -> list[str]:
    """Every RVC entry written as ``c.*``, at the ends of its ranges (valid with rvc only)."""
    return [
        "c.addi4spn a0, sp, 4", "c.addi4spn s0, sp, 1020", "c.addi4spn a5, sp, 512",
        "c.lw s0, 0(s1)", "c.lw a5, 124(a0)", "c.lw a0, (a1)",
        "c.flw fs0, 0(s1)", "c.flw fa5, 124(a0)",
        "c.sw s0, 0(s1)", "c.sw a5, 124(a0)",
        "c.fsw fs1, 0(s0)", "c.fsw fa0, 124(a5)",
        "c.nop",
        "c.addi a0, 1", "c.addi t6, -32", "c.addi sp, 31",
        "c.addi16sp sp, 16", "c.addi16sp sp, -512", "c.addi16sp sp, 496",
        "c.li a0, 0", "c.li ra, -32", "c.li t6, 31",
        "c.lui a0, 1", "c.lui t6, 0x1f", "c.lui ra, 0xfffe0", "c.lui s0, 0xfffff",
        "c.srli s0, 1", "c.srli a5, 31", "c.srai s1, 31", "c.srai a0, 1",
        "c.andi s0, -32", "c.andi a5, 31", "c.andi a0, 0",
        "c.sub s0, s1", "c.xor a0, a5", "c.or s1, s1", "c.and a4, s0",
        "4:",
        "c.j 4b", "c.j 4f", "c.jal 4b", "c.jal 4f",
        "c.beqz s0, 4b", "c.beqz a5, 4f", "c.bnez a0, 4b", "c.bnez s1, 4f",
        "4:",
        "c.slli a0, 1", "c.slli t6, 31", "c.slli ra, 16",
        "c.lwsp a0, 0(sp)", "c.lwsp ra, 252(sp)", "c.lwsp t6, 4(x2)",
        "c.flwsp fa0, 0(sp)", "c.flwsp f31, 252(sp)",
        "c.jr a0", "c.jr ra", "c.mv a0, a1", "c.mv sp, t6", "c.ebreak", "c.jalr a0",
        "c.jalr t6", "c.add a0, a1", "c.add sp, sp",
        "c.swsp a0, 0(sp)", "c.swsp zero, 252(sp)", "c.fswsp fa0, 0(sp)", "c.fswsp f31, 252(sp)",
        "c.unimp",
    ]
