"""Presets as TOML files and ``isasim config show``: every number, with its meaning."""

from __future__ import annotations

import dataclasses

import pytest

from isasim.cli import main
from isasim.config import FIELD_DOCS, ClusterConfig, ConfigError, load_config, preset_names

FIELDS = [f.name for f in dataclasses.fields(ClusterConfig) if f.name != "extra"]


def test_the_three_presets_exist_and_validate():
    assert {"pulp-open", "gvsoc-2022", "single-core"} <= set(preset_names())
    for name in preset_names():
        cfg = load_config(name)
        cfg.validate()
        assert cfg.name == name


def test_pulp_open_is_the_rtl_cluster():
    """gvsoc-pulp pulp_open/cluster.json and the pulp_cluster RTL: 8 cores, 64 KiB TCDM in 16
    word-interleaved banks, the TCDM xbar's rr_arb_tree arbitration, RI5CY timing (mul 1, taken
    branch +2, jump +1), barrier 6 + 2, DMA 8 B/cycle."""
    cfg = load_config("pulp-open")
    assert (cfg.cores, cfg.tcdm_size, cfg.tcdm_banks) == (8, 64 * 1024, 16)
    assert cfg.conflict_policy == "rr_arb_tree"
    assert (cfg.mul_latency, cfg.branch_penalty, cfg.jump_penalty, cfg.load_latency) == (1, 2, 1, 1)
    assert (cfg.barrier_req_latency, cfg.barrier_wakeup_latency) == (6, 2)
    assert cfg.dma_bandwidth == 8 and cfg.fpu_sharing == "private" and cfg.fdiv_latency == 14


def test_gvsoc_2022_is_the_papers_simulator():
    """archived pulp-platform/gvsoc isa_pulp_gen.py (class Riscy): load-use 1, mul result latency
    2, taken branch +2, jump +1, fdiv 9, no FPU contention; FIFO bank conflicts (its
    docs/timing_models.rst)."""
    cfg = load_config("gvsoc-2022")
    assert (cfg.mul_latency, cfg.load_latency, cfg.branch_penalty, cfg.jump_penalty) == (2, 1, 2, 1)
    assert cfg.fdiv_latency == 9 and cfg.conflict_policy == "fifo"
    assert cfg.fpu_sharing == "private"
    assert cfg.cores == 8 and cfg.tcdm_banks == 16


def test_single_core_is_pulp_open_with_one_core():
    one, full = load_config("single-core"), load_config("pulp-open")
    assert one.cores == 1
    assert dataclasses.replace(one, cores=8, name="pulp-open") == full


def test_every_field_has_a_meaning():
    assert set(FIELDS) == set(FIELD_DOCS)
    assert all(FIELD_DOCS[name].strip() for name in FIELDS)


@pytest.mark.parametrize("preset", ["pulp-open", "gvsoc-2022", "single-core"])
def test_config_show_prints_every_number_with_its_meaning(preset, capsys):
    assert main(["config", "show", preset]) == 0
    out = capsys.readouterr().out
    cfg = load_config(preset)
    # piped, the table is plain rows: setting, value, meaning, one line each
    rows = {}
    for line in out.splitlines()[2:]:
        cells = line.split(None, 2)
        rows[cells[0]] = cells + [""] * (3 - len(cells))
    for name in FIELDS:
        assert name in rows, f"{name} missing from config show"
        v = getattr(cfg, name)
        shown = f"{v:#x}" if isinstance(v, int) and name.endswith("_base") else str(v)
        assert rows[name][1] == shown, name
        assert rows[name][2] == FIELD_DOCS[name], name


def test_config_file_starts_from_a_preset_and_overrides(tmp_path, capsys):
    f = tmp_path / "my.toml"
    f.write_text('base = "gvsoc-2022"\nname = "mine"\ncores = 4\nl2_latency = 12\n')
    cfg = load_config(f)
    assert (cfg.cores, cfg.l2_latency, cfg.mul_latency, cfg.conflict_policy) == (4, 12, 2, "fifo")
    assert main(["config", "show", str(f)]) == 0
    assert "mine" in capsys.readouterr().out


@pytest.mark.parametrize("text, message", [
    ("cores = 9\n", "cores = 9 is out of range: it must be 1..8"),
    ("conflict_policy = 'lottery'\n", "conflict_policy must be"),
    ("dma_bandwidth = 16\n", "dma_bandwidth must be 1, 2, 4 or 8"),
    ("dma_bandwidth = 6\n", "dma_bandwidth must be 1, 2, 4 or 8"),
    ("barrier_req_latency = 0\nbarrier_wakeup_latency = 0\n", "must be at least 1"),
    ("dma_burst = 256\n", "unknown setting(s) dma_burst"),
    ("shared_fpus = 2\n", "unknown setting(s) shared_fpus"),
    ("l2_latency = 'slow'\n", "l2_latency must be int"),
    ("stack_size = 8192\n", "the 8 cores' stacks of 8192 bytes take more than half of the "
                            "65536 bytes of TCDM"),
    ("cores = = 8\n", "bad.toml: Invalid value (at line 1, column 9)"),
    ("cores = 8 \udce9\n", "bad.toml: not a TOML file (byte 0xe9 at offset 10 is not UTF-8 text)"),
])
def test_bad_config_files_are_refused_with_a_reason(tmp_path, capsys, text, message):
    """Settings the model cannot honour are refused: bandwidth beyond the DMA's two 32-bit
    ports, a zero-cycle event wait, and knobs the model never read (dma_burst, shared_fpus)."""
    f = tmp_path / "bad.toml"
    f.write_bytes(text.encode("utf-8", "surrogateescape"))   # \udcNN: the byte NN
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_config(f)
    assert main(["config", "show", str(f)]) == 2
    assert message in capsys.readouterr().err


def test_unknown_preset_lists_the_presets(capsys):
    assert main(["config", "show", "pulp-closed"]) == 2
    err = capsys.readouterr().err
    assert "unknown preset" in err and "gvsoc-2022" in err


def test_config_list(capsys):
    assert main(["config", "list"]) == 0
    out = capsys.readouterr().out
    for name in ("pulp-open", "gvsoc-2022", "single-core"):
        assert name in out
