"""What ``isasim run`` says about unusual inputs: ``.S`` files, programs without code, a
program that runs off the end of its code, unknown ecalls, binary files, ``--xpulp``."""

from __future__ import annotations

import warnings

import pytest

from isasim import cli
from toolchain.asm import preprocess

EXIT = "  li a7, 93\n  li a0, 0\n  ecall\n"


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = cli.main(["run", *args])
    out, err = capsys.readouterr()
    return code, out, err


needs_cpp = pytest.mark.skipif(preprocess.preprocessor() is None,
                               reason="no C preprocessor (cpp) installed")


@needs_cpp
def test_dot_S_goes_through_the_preprocessor(tmp_path, capsys):
    (tmp_path / "codes.h").write_text("#define CODE 7\n")
    src = tmp_path / "p.S"
    src.write_text('#include "codes.h"\n.text\n.globl _start\n_start:\n'
                   "#if CODE > 5\n  li a0, CODE\n#else\n  li a0, 1\n#endif\n"
                   "  li a7, 93\n  ecall\n")
    code, out, err = run(capsys, str(src), "--quiet")
    assert code == 7, err


@needs_cpp
def test_dot_S_errors_name_the_source_line(tmp_path, capsys):
    (tmp_path / "defs.h").write_text("#define ONE 1\n\n\n")
    src = tmp_path / "p.S"
    src.write_text('#include "defs.h"\n/* a comment\n   of two lines */\n.text\n'
                   ".globl _start\n_start:\n  li a0, ONE\n  bogus a0\n" + EXIT)
    code, _, err = run(capsys, str(src))
    assert code == 2
    assert err.startswith(f"{src}:8:3: error: unknown instruction 'bogus'"), err


@needs_cpp
def test_preprocessor_errors_are_shown_as_it_gives_them(tmp_path, capsys):
    src = tmp_path / "p.S"
    src.write_text("#error no kernel for this target\n")
    code, _, err = run(capsys, str(src))
    assert code == 2
    assert f"{src}:1:2: error: #error no kernel for this target" in err
    assert "Traceback" not in err


def test_dot_S_without_a_preprocessor_says_so(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(preprocess.shutil, "which", lambda name: None)
    src = tmp_path / "p.S"
    src.write_text(".text\n.globl _start\n_start:\n" + EXIT)
    code, _, err = run(capsys, str(src))
    assert code == 2
    assert "goes through the C preprocessor, and none is installed" in err


@pytest.mark.parametrize("text, message", [
    ("", "the program is empty: there is no code to run"),
    ("# nothing but a comment\n", "the program is empty"),
    (".data\nx: .word 1, 2, 3\n", "the program has data but no instructions"),
])
def test_program_without_code(tmp_path, capsys, text, message):
    src = tmp_path / "p.s"
    src.write_text(text)
    code, _, err = run(capsys, str(src))
    assert code == 2
    assert message in err and "c.unimp" not in err, err


def test_running_off_the_end_of_the_code(tmp_path, capsys):
    src = tmp_path / "p.s"
    src.write_text(".text\n.globl _start\n_start:\n  li a0, 1\n  addi a0, a0, 1\n")
    code, _, err = run(capsys, str(src), "--cores", "1")
    assert code == 3
    assert "guest fault: execution ran off the end of the code on core 0" in err
    assert "just past the last instruction of .text" in err and "c.unimp" not in err, err


def test_unknown_ecall_is_a_guest_event_not_a_python_warning(tmp_path, capsys):
    src = tmp_path / "p.s"
    src.write_text(".text\n.globl _start\n_start:\n  li a7, 999\n  ecall\n" + EXIT)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        code, _, err = run(capsys, str(src), "--cores", "1")
    assert code == 0
    assert not caught, [str(w.message) for w in caught]
    assert "guest event: core 0: unsupported ecall 999 (a7); returned -ENOSYS" in err
    assert "RuntimeWarning" not in err


def test_control_bytes_are_escaped(tmp_path, capsys):
    src = tmp_path / "p.s"
    src.write_bytes(b"\x1b[31mred\x07\x08 \x9b2J a0\n\x00\x01\x02\n")
    code, out, err = run(capsys, str(src))
    assert code == 2
    for raw in ("\x1b", "\x07", "\x08", "\x00", "\x01", "\x9b"):
        assert raw not in err and raw not in out
    assert "\\x1b" in err


def test_binary_elf_like_garbage_is_escaped(tmp_path, capsys):
    src = tmp_path / "p.elf"
    src.write_bytes(b"\x7fELF\x01\x01\x01\x1b[2J" + bytes(range(32)) * 4)
    code, out, err = run(capsys, str(src))
    assert code == 2
    assert "\x1b" not in err and "Traceback" not in err


@pytest.mark.parametrize("family", ["xpulpv2", "pulpv2", "corev", "none"])
def test_xpulp_takes_the_names_config_show_prints(tmp_path, capsys, family):
    src = tmp_path / "p.s"
    src.write_text(".text\n.globl _start\n_start:\n" + EXIT)
    code, _, err = run(capsys, str(src), "--xpulp", family, "--cores", "1", "--quiet")
    assert code == 0, err
