"""What the two RISCOF plugins share: compile each test, run it, leave its signature where
RISCOF looks for it (``<work_dir>/<plugin name>.signature``)."""

from __future__ import annotations

import logging
import os
import re
import shlex
import subprocess
from abc import abstractmethod
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from riscof.pluginTemplate import pluginTemplate

from isasim.riscof_plugin import ENV_DIR

logger = logging.getLogger(__name__)
GCC = "riscv64-unknown-elf-gcc"
MAX_CYCLES = 50_000_000       # the longest architecture test retires about 1e6 instructions


def march(test_isa: str) -> str:
    """gcc's -march for a test's ISA string (``RV32IFZicsr`` -> ``rv32if_zicsr_zifencei``):
    the test's single-letter extensions, its Z extensions, and always Zicsr and Zifencei
    (the test environment's trap set-up uses CSRs whatever the test covers)."""
    m = re.fullmatch(r"(?i)rv(32|64)([a-y]*)(.*)", test_isa)
    if m is None:
        raise ValueError(f"not an ISA string: {test_isa!r}")
    multi = ["z" + p.lower() for p in re.split(r"[_zZ]", m.group(3)) if p]
    for always in ("zicsr", "zifencei"):
        if always not in multi:
            multi.append(always)
    return f"rv{m.group(1)}{m.group(2).lower()}_" + "_".join(multi)


class TestRunner(pluginTemplate):
    """A RISCOF plugin whose model runs an ELF and writes its signature (``run_elf``)."""

    __model__ = "model"
    __version__ = "1"

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        config = kwargs.get("config") or {}
        self.config = config
        self.jobs = int(config.get("jobs", 1))
        self.isa_spec = os.path.abspath(config["ispec"]) if "ispec" in config else ""
        self.platform_spec = os.path.abspath(config["pspec"]) if "pspec" in config else ""
        self.target_run = config.get("target_run", "1") != "0"
        self.work_dir = self.suite_dir = self.archtest_env = ""
        self.xlen = "32"

    def initialise(self, suite, work_dir, archtest_env):
        self.work_dir = work_dir
        self.suite_dir = suite
        self.archtest_env = archtest_env

    def build(self, isa_yaml, platform_yaml):
        from riscof import utils

        ispec = utils.load_yaml(isa_yaml)["hart0"]
        self.xlen = "64" if 64 in ispec["supported_xlen"] else "32"

    def compile_command(self, source: str, elf: str, test_isa: str,
                        macros: list[str]) -> list[str]:
        abi = "lp64" if self.xlen == "64" else "ilp32"
        return [GCC, f"-march={march(test_isa)}", f"-mabi={abi}", "-static", "-mcmodel=medany",
                "-fvisibility=hidden", "-nostdlib", "-nostartfiles",
                "-T", str(ENV_DIR / "link.ld"), "-I", str(ENV_DIR), "-I", self.archtest_env,
                *(f"-D{m}" for m in macros), "-o", elf, source]

    @abstractmethod
    def run_elf(self, elf: str, signature: str, test_isa: str) -> None:
        """Run ``elf`` and write its signature to ``signature``."""

    def _one(self, entry: dict) -> None:
        work = Path(entry["work_dir"])
        elf = str(work / f"{self.name[:-1].lower()}.elf")
        cmd = self.compile_command(entry["test_path"], elf, entry["isa"], entry["macros"])
        logger.debug("compile: %s", shlex.join(cmd))
        subprocess.run(cmd, check=True, cwd=work, capture_output=True, text=True)
        if self.target_run:
            self.run_elf(elf, str(work / (self.name[:-1] + ".signature")), entry["isa"])

    def runTests(self, testList):
        entries = list(testList.values())
        if self.jobs > 1:
            with ThreadPoolExecutor(self.jobs) as pool:
                list(pool.map(self._one, entries))
        else:
            for entry in entries:
                self._one(entry)
        if not self.target_run:
            raise SystemExit(0)
