"""Build the bare-metal pulp-open programs of this directory, and pulp-runtime applications,
with Debian's GCC.

``python examples/pulp-open/build.py OUTDIR [NAME ...] [-DITERS=...]`` compiles each program
(``NAME.c``, all by default) with ``crt0.S`` and ``link.ld`` to ``OUTDIR/NAME.elf``.  The
flags are those of GVSoC's pulp-open cores without the PULP extensions (rv32imc, and Zfinx for
FP: those cores have one register file for integer and FP values).

``python examples/pulp-open/build.py --runtime PULPRT_HOME APPDIR OUTDIR`` builds a
pulp-runtime application (a directory with its Makefile) unmodified, with pulp-runtime's own
make rules and the flags that switch its PULP-only extensions off (docs/soc.md), into
``OUTDIR/<app>/build/test/test``.
"""

from __future__ import annotations

import os
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


# pulp-runtime's make variables for Debian's GCC: no PULP extensions (pulp-runtime
# rules/pulpos/default_rules.mk reads them), the pulp chip as GVSoC's pulp-open runs it
RUNTIME_MAKE = [
    "PULP_CC=riscv64-unknown-elf-gcc", "PULP_LD=riscv64-unknown-elf-gcc",
    "PULP_AR=riscv64-unknown-elf-ar", "PULP_OBJDUMP=riscv64-unknown-elf-objdump",
    "PULP_ARCH_CFLAGS=-march=rv32imc_zicsr_zifencei -mabi=ilp32 -ffreestanding -U__riscv__ "
    "-UARCHI_CORE_HAS_PULPV2 -DRV_ISA_RV32",
    "PULP_ARCH_LDFLAGS=-march=rv32imc_zicsr_zifencei -mabi=ilp32",
    "PULPRT_TARGET=pulp", "PULPRUN_TARGET=pulp-open", "platform=gvsoc",
]


def build_runtime_app(pulprt_home: Path, appdir: Path, outdir: Path) -> Path:
    """Build the pulp-runtime application in ``appdir`` (its sources left as they are, a copy
    built in ``outdir``) and return its ELF.  ``clzsi2.c`` is linked in: Debian's rv32 libgcc
    lacks ``__clzsi2``, which pulp-runtime's FLL code calls."""
    work = outdir / appdir.name
    if work.exists():
        shutil.rmtree(work)
    shutil.copytree(appdir, work)
    shutil.copy(HERE / "pulp-runtime" / "clzsi2.c", work / "clzsi2.c")
    make = (work / "Makefile").read_text()
    srcs = next((line.split("=", 1)[1].split() for line in make.splitlines()
                 if line.startswith("PULP_APP_SRCS")), ["test.c"])
    env = {**os.environ, "PULPRT_HOME": str(pulprt_home),
           "PULP_SDK_HOME": str(pulprt_home)}
    subprocess.run(["make", "all", f"PULP_APP_SRCS={' '.join([*srcs, 'clzsi2.c'])}",
                    *RUNTIME_MAKE], cwd=work, env=env, check=True, capture_output=True,
                   text=True)
    app = next((line.split("=", 1)[1].strip() for line in make.splitlines()
                if line.startswith("PULP_APP ") or line.startswith("PULP_APP=")), "test")
    return work / "build" / app / app


def have_gcc() -> bool:
    return shutil.which(GCC) is not None


def main(argv: list[str]) -> int:
    if len(argv) < 1:
        print(__doc__)
        return 2
    if not have_gcc():
        print(f"{GCC} not found (Debian: apt-get install gcc-riscv64-unknown-elf)")
        return 1
    if argv[0] == "--runtime" and len(argv) == 4:
        try:
            print(build_runtime_app(Path(argv[1]), Path(argv[2]), Path(argv[3])))
        except subprocess.CalledProcessError as e:
            print(e.stdout[-2000:], e.stderr[-2000:], file=sys.stderr)
            return 1
        return 0
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
