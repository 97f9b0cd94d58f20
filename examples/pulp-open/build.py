"""Build the bare-metal pulp-open programs of this directory with Debian's GCC.

``python examples/pulp-open/build.py OUTDIR [NAME ...] [-DITERS=...]`` compiles each program
(``NAME.c``, all by default) with ``crt0.S`` and ``link.ld`` to ``OUTDIR/NAME.elf``.  The
flags are those of GVSoC's pulp-open cores without the PULP extensions (rv32imc, and Zfinx for
FP: those cores have one register file for integer and FP values).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
GCC = "riscv64-unknown-elf-gcc"
FLAGS = ["-mabi=ilp32", "-O2", "-nostdlib", "-ffreestanding", "-fno-builtin", "-g",
         "-T", str(HERE / "link.ld")]
# programs with FP arithmetic: Zfinx (GVSoC's single register file)
ARCH = {"matmul_fp32": "rv32imc_zicsr_zfinx"}
DEFAULT_ARCH = "rv32imc_zicsr"


def programs() -> list[str]:
    return sorted(p.stem for p in HERE.glob("*.c"))


def build(name: str, outdir: Path, defines: tuple[str, ...] = ()) -> Path:
    """``outdir/name.elf``; CalledProcessError with GCC's message when it does not build."""
    outdir.mkdir(parents=True, exist_ok=True)
    out = outdir / f"{name}.elf"
    cmd = [GCC, f"-march={ARCH.get(name, DEFAULT_ARCH)}", *FLAGS, *defines,
           str(HERE / "crt0.S"), str(HERE / f"{name}.c"), "-o", str(out)]
    subprocess.run(cmd, check=True, capture_output=True, text=True)
    return out


def have_gcc() -> bool:
    return shutil.which(GCC) is not None


def main(argv: list[str]) -> int:
    if len(argv) < 1:
        print(__doc__)
        return 2
    if not have_gcc():
        print(f"{GCC} not found (Debian: apt-get install gcc-riscv64-unknown-elf)")
        return 1
    outdir = Path(argv[0])
    defines = tuple(a for a in argv[1:] if a.startswith("-D"))
    names = [a for a in argv[1:] if not a.startswith("-D")] or programs()
    for name in names:
        try:
            print(build(name, outdir, defines))
        except subprocess.CalledProcessError as e:
            print(f"{name}: {e.stderr}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
