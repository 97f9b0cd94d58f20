"""GCC-built C programs run unmodified and print what the same program prints on the host.

Each ``c/*.c`` is compiled twice: with Debian's ``riscv64-unknown-elf-gcc -march=rv32imfc
-mabi=ilp32f`` against picolibc with its semihosting OS layer (``printf`` ends in RISC-V
semihosting calls, ``exit`` in SYS_EXIT / SYS_EXIT_EXTENDED), and with the host's ``gcc``.  The
simulator's output and exit status must equal the host run's.  Both builds use
``-ffp-contract=off`` so that only explicit ``fmaf`` fuses (GCC would otherwise contract
``a * b + c`` into ``fmadd.s`` on RISC-V but not on x86-64).  The RISC-V image is linked into PULP
L2 (code at 0x1C000000, data and stack at 0x1C100000) with picolibc's own linker script.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from isasim.machine import Machine

SOURCES = sorted((Path(__file__).parent / "c").glob("*.c"))
CROSS = "riscv64-unknown-elf-gcc"
COMMON = ["-O2", "-ffp-contract=off", "-Wall", "-Werror"]
# rv32imfc, not rv32imfc_zicsr: GCC 12's multilib matcher maps the latter to the rv64 default
CROSS_FLAGS = ["-march=rv32imfc", "-mabi=ilp32f", "--specs=picolibc.specs", "--oslib=semihost",
               "--crt0=semihost", "-Wl,--defsym=__flash=0x1c000000",
               "-Wl,--defsym=__flash_size=0x100000", "-Wl,--defsym=__ram=0x1c100000",
               "-Wl,--defsym=__ram_size=0x80000"]

pytestmark = pytest.mark.needs_tool


def _cross_available() -> bool:
    if shutil.which(CROSS) is None or shutil.which("gcc") is None:
        return False
    specs = subprocess.run([CROSS, "-print-file-name=picolibc.specs"], capture_output=True,
                           text=True).stdout.strip()
    return Path(specs).is_file()


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    if not _cross_available():
        pytest.skip(f"needs {CROSS} with picolibc (Debian: gcc-riscv64-unknown-elf, "
                    f"picolibc-riscv64-unknown-elf) and the host gcc")
    return tmp_path_factory.mktemp("cbuild")


def _compile(cmd: list[str]) -> None:
    proc = subprocess.run(cmd, capture_output=True, text=True)
    assert proc.returncode == 0, f"{' '.join(cmd)}\n{proc.stderr}"


@pytest.mark.parametrize("source", SOURCES, ids=[s.stem for s in SOURCES])
def test_c_program_matches_host(builds: Path, source: Path) -> None:
    elf = builds / f"{source.stem}.elf"
    host = builds / f"{source.stem}.host"
    _compile([CROSS, *CROSS_FLAGS, *COMMON, str(source), "-lm", "-o", str(elf)])
    _compile(["gcc", *COMMON, str(source), "-lm", "-o", str(host)])
    expected = subprocess.run([str(host)], capture_output=True, text=True, timeout=60)
    r = Machine("single-core").load(elf).run(max_cycles=50_000_000)
    assert r.fault is None, r.fault.format()
    assert r.status == "exited"
    assert r.stdout == expected.stdout
    assert r.exit_code == expected.returncode
    assert not r.warnings, r.warnings            # every semihosting call it made is supported
    r.check_invariant()


def test_sources_exist() -> None:
    assert {s.stem for s in SOURCES} >= {"stdio_printf", "numeric"}


COMMONS_C = """
static int table[16];      /* gcc -O0: `.local table` + `.comm table,64,4` */
int counter;               /* -fcommon: `.comm counter,4,4` */
int values[5];
static int sum(int n) { int s = 0; for (int i = 0; i < n; i++) s += table[i]; return s; }
int main(void) {
    for (int i = 0; i < 16; i++) table[i] = 3 * i;
    for (int i = 0; i < 5; i++) values[i] += i;
    counter = sum(16) + values[4];
    return counter & 0xff;
}
"""
START = "    .text\n    .globl _start\n_start:\n    call main\n    li a7, 93\n    ecall\n"


@pytest.mark.parametrize("opt", ["-O0", "-O2"])
def test_gcc_assembly_with_common_symbols_assembles_and_runs(tmp_path: Path, opt: str) -> None:
    """GCC's own assembly output (``-S``), common symbols and all, goes through our assembler
    and runs: 3 * (0 + ... + 15) + 4 = 364, exit code 364 & 0xff = 108."""
    if shutil.which(CROSS) is None:
        pytest.skip(f"needs {CROSS}")
    from toolchain.asm import assemble

    source, asm = tmp_path / "commons.c", tmp_path / "commons.s"
    source.write_text(COMMONS_C)
    _compile([CROSS, "-march=rv32imfc", "-mabi=ilp32f", opt, "-fcommon", "-ffreestanding", "-S",
              str(source), "-o", str(asm)])
    text = asm.read_text()
    assert ".comm\tcounter" in text
    result = Machine("single-core").load(assemble(START + text, str(asm))).run()
    assert result.status == "exited" and result.exit_code == 108
