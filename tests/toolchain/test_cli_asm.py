"""``isasim asm`` and ``isasim disasm`` through ``isasim.cli.main``: outputs, exit codes, and
error messages without tracebacks."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from isasim.cli import main
from toolchain.elf import read_elf

KERNEL = """\
    .globl _start
_start:
    li a0, 5
    mv a1, a0
    lp.setup x0, a0, 1f
    addi a1, a1, 1
1:  addi a2, a2, 2
    call done
done:
    ret
    .data
value: .word 3
"""


@pytest.fixture
def kernel(tmp_path: Path) -> Path:
    path = tmp_path / "kernel.s"
    path.write_text(KERNEL)
    return path


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return code, out, err


def test_asm_then_disasm(kernel, tmp_path, capsys):
    elf = tmp_path / "out.elf"
    assert run(["asm", str(kernel), "-o", str(elf)], capsys) == (0, "", "")
    program = read_elf(elf)
    assert program.family == "xpulpv2" and program.entry == program.symbol("_start")
    code, out, err = run(["disasm", str(elf)], capsys)
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "Disassembly of section .text:"
    assert "1c000000 <_start>:" in lines and any(line.endswith("<done>:") for line in lines)
    first = next(line for line in lines if line.startswith("1c000000:"))
    assert first.split()[1] == "4515"                      # c.li a0,5: 16-bit raw hex
    assert any("lp.setup x0,a0,0x1c00000a <_start+0xa>" in line for line in lines)
    assert any(line.split()[1:3] == ["00000097", "auipc"] for line in lines if ":" in line)


def test_default_output_no_rvc_and_no_aliases(kernel, capsys):
    assert run(["asm", str(kernel), "--no-rvc"], capsys)[0] == 0
    elf = kernel.with_suffix(".elf")
    code, out, _ = run(["disasm", "--no-aliases", str(elf)], capsys)
    assert code == 0
    rows = [line.split() for line in out.splitlines() if line[:1] == " " or line[:1].isdigit()]
    code_rows = [r for r in rows if r[0].endswith(":") and len(r) > 2]
    assert all(len(r[1]) == 8 for r in code_rows)           # every instruction is 32-bit
    mnemonics = [r[2] for r in code_rows]
    assert mnemonics[:2] == ["addi", "addi"] and "li" not in mnemonics and "mv" not in mnemonics


def test_xpulp_family_option(tmp_path, capsys):
    src = tmp_path / "cv.s"
    src.write_text("cv.mac a0, a1, a2\n")
    code, _, err = run(["asm", str(src)], capsys)
    assert code == 2
    assert f"{src}:1:1: error: 'cv.mac' is a corev instruction" in err
    assert run(["asm", str(src), "--xpulp", "corev"], capsys)[0] == 0
    code, out, _ = run(["disasm", str(src.with_suffix(".elf"))], capsys)
    assert code == 0 and "cv.mac a0,a1,a2" in out
    code, out, _ = run(["disasm", "--xpulp", "none", str(src.with_suffix(".elf"))], capsys)
    assert code == 0 and ".word" in out and "cv.mac" not in out


def test_assembly_errors_exit_2_with_locations(tmp_path, capsys):
    src = tmp_path / "bad.s"
    src.write_text("nop\n  addi a0, a1, 9999\n  jal nowhere\n")
    code, out, err = run(["asm", str(src), "-o", str(tmp_path / "bad.elf")], capsys)
    assert code == 2 and out == ""
    assert f"{src}:2:16: error: operand 3: value 9999 out of range [-2048, 2047]" in err
    assert f"{src}:3:7: error: operand 1: undefined symbol 'nowhere'" in err
    assert not (tmp_path / "bad.elf").exists()


def test_bytes_that_are_not_utf8_pass_through_strings_and_are_shown_in_errors(tmp_path, capsys):
    """Latin-1 in a comment and a string assembles, the string's bytes kept as GNU as keeps
    them (e9 74 e9); a stray such byte in code is an error at its line, shown as \\xNN, from
    ``isasim asm`` and ``isasim run`` alike (it used to be a bare UnicodeDecodeError)."""
    good = tmp_path / "latin.s"
    good.write_bytes(b'# caf\xe9\n.data\ns: .ascii "\xe9t\xe9"\n.text\n.globl _start\n'
                     b"_start: nop\n")
    code, _, _ = run(["asm", str(good), "-o", str(tmp_path / "latin.elf")], capsys)
    assert code == 0
    data = read_elf(tmp_path / "latin.elf").section(".data").data
    assert bytes(data[:3]) == b"\xe9t\xe9"
    bad = tmp_path / "stray.s"
    bad.write_bytes(b"nop\n  addi a0, a0, 1 \xff\n")
    for argv in (["asm", str(bad), "-o", str(tmp_path / "stray.elf")], ["run", str(bad)]):
        code, _, err = run(argv, capsys)
        assert code == 2
        assert f"{bad}:2:16: error: operand 3: unexpected '\\xff' in expression" in err
        assert "  addi a0, a0, 1 \\xff" in err


@pytest.mark.parametrize("argv, message", [
    (["asm", "/nonexistent/k.s"], "isasim asm: /nonexistent/k.s: No such file or directory"),
    (["disasm", "/nonexistent/k.elf"], "isasim disasm: /nonexistent/k.elf: No such file"),
])
def test_missing_files(argv, message, capsys):
    code, _, err = run(argv, capsys)
    assert code == 2 and message in err


def test_disasm_of_a_non_elf(tmp_path, capsys):
    path = tmp_path / "notes.txt"
    path.write_text("hello\n")
    code, _, err = run(["disasm", str(path)], capsys)
    assert code == 2
    assert err.strip() == f"isasim disasm: {path}: not an ELF file (no \\x7fELF magic)"


@pytest.mark.parametrize("argv, expected", [
    ([], 2), (["frobnicate"], 2), (["asm"], 2), (["asm", "k.s", "--xpulp", "v3"], 2),
    (["--help"], 0), (["asm", "--help"], 0),
])
def test_usage(argv, expected, capsys):
    code, out, err = run(argv, capsys)
    assert code == expected
    assert ("usage: isasim" in out) if expected == 0 else ("usage: isasim" in err)


def test_module_entry_point(kernel):
    proc = subprocess.run([sys.executable, "-m", "isasim.cli", "asm", str(kernel), "-o",
                           "/nonexistent/dir/k.elf"], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2])
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and "k.elf" in proc.stderr


def test_include_dirs_option(tmp_path, capsys):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "defs.inc").write_text(".equ ANSWER, 42\n")
    src = tmp_path / "main.s"
    src.write_text('.include "defs.inc"\n    .globl _start\n_start:\n    li a0, ANSWER\n'
                   "    li a7, 93\n    ecall\n")
    code, _, err = run(["asm", str(src)], capsys)
    assert code == 2 and "include file 'defs.inc' not found" in err
    assert run(["asm", "-I", str(tmp_path / "nowhere"), "-I", str(tmp_path / "inc"), str(src)],
               capsys)[0] == 0
    assert read_elf(src.with_suffix(".elf")).symbol("ANSWER") == 42
    # `isasim run` assembles with the same search path; the program exits with ANSWER
    code, out, _ = run(["run", "-I", str(tmp_path / "inc"), "--cores", "1", "--quiet", str(src)],
                       capsys)
    assert code == 42


def test_asm_and_run_print_assembler_warnings(tmp_path, capsys):
    """A value GNU as would truncate with a warning assembles, and the warning names the place."""
    src = tmp_path / "wide.s"
    src.write_text(".globl _start\n_start:\n    li a0, 0\n    li a7, 93\n    ecall\n"
                   "    .data\n    .byte 300\n")
    code, out, err = run(["asm", str(src), "-o", str(tmp_path / "wide.elf")], capsys)
    assert code == 0 and out == ""
    assert err.startswith(f"{src}:7:11: warning: value 0x12c truncated to 0x2c\n")
    assert read_elf(tmp_path / "wide.elf").section(".data").data[0] == 0x2c
    code, _, err = run(["run", str(src), "--quiet"], capsys)
    assert code == 0 and "7:11: warning: value 0x12c truncated to 0x2c" in err
