"""The trace options of ``isasim run`` and the ``report`` / ``diff`` subcommands, end to end."""

from __future__ import annotations

import json
import re

import pytest
from trace_kernels import write_kernel

from isasim.cli import main
from isasim.result import RunResult


@pytest.fixture(autouse=True)
def wide(monkeypatch):
    monkeypatch.setenv("COLUMNS", "250")      # rich: no truncated cells in captured output


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """A run saved with every view, and the padded variant saved without an event log."""
    tmp = tmp_path_factory.mktemp("cli")
    kernel = write_kernel(tmp)
    args = ["run", str(kernel), "--cores", "8", "--quiet", "--json", str(tmp / "run.json"),
            "--trace", str(tmp / "t.json"), "--vcd", str(tmp / "t.vcd"),
            "--report", str(tmp / "t.html")]
    assert main(args) == 0
    padded = write_kernel(tmp, padded=True)
    assert main(["run", str(padded), "--quiet", "--json", str(tmp / "padded.json")]) == 0
    return tmp


def test_run_writes_every_view_and_keeps_the_event_log(saved):
    for name in ("t.json", "t.vcd", "t.html", "run.events"):
        assert (saved / name).stat().st_size > 1000, name
    result = RunResult.load(saved / "run.json")
    assert result.trace_file == "run.events"
    trace = json.loads((saved / "t.json").read_text())
    assert trace["otherData"]["cycles"] == result.cycles.tolist()
    assert RunResult.load(saved / "padded.json").trace_file is None


def test_report(saved, capsys):
    assert main(["report", str(saved / "run.json"), "--top", "3"]) == 0
    out = capsys.readouterr().out
    result = RunResult.load(saved / "run.json")
    assert "stall breakdown" in out and "hot spots" in out
    assert f"({int(result.conflicts.sum()):,} conflict cycles)" in out
    assert "matmul_rows" in out and "flw" in out
    assert f"{int(result.cycles.sum()):,}" in out


def test_report_html(saved, tmp_path, capsys):
    out = tmp_path / "r.html"
    assert main(["report", str(saved / "run.json"), "--html", str(out)]) == 0
    assert "run-data" in out.read_text()


def test_report_without_event_log_says_so(saved, tmp_path, capsys):
    run = json.loads((saved / "run.json").read_text())
    run["trace_file"] = None
    (tmp_path / "run.json").write_text(json.dumps(run))
    assert main(["report", str(tmp_path / "run.json")]) == 0
    out = capsys.readouterr().out
    assert "saved without an event log" in out
    per_bank = [sum(col) for col in zip(*run["conflicts"], strict=True)]
    assert "conflict cycles per bank" in out and f"{max(per_bank):,}" in out


def test_report_with_truncated_event_log(saved, tmp_path, capsys):
    run = json.loads((saved / "run.json").read_text())
    data = (saved / "run.events").read_bytes()
    (tmp_path / "run.events").write_bytes(data[:1000])
    (tmp_path / "run.json").write_text(json.dumps(run))
    assert main(["report", str(tmp_path / "run.json")]) == 0
    captured = capsys.readouterr()
    assert "truncated event log" in captured.out
    assert "Traceback" not in captured.out + captured.err


@pytest.mark.parametrize("content, message", [
    (b'{"traceEvents": []}', "not an isasim run result"),
    (b'{"format": "isasim-run/1", "cyc', "not JSON"),
    (b"ISASIMEV\x00\x80\xff", "a binary file"),
])
def test_report_of_a_foreign_or_truncated_result(tmp_path, capsys, content, message):
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    assert main(["report", str(bad)]) == 2
    assert message in capsys.readouterr().err


def test_diff(saved, capsys):
    assert main(["diff", str(saved / "run.json"), str(saved / "padded.json")]) == 0
    out = capsys.readouterr().out
    a = RunResult.load(saved / "run.json")
    b = RunResult.load(saved / "padded.json")
    before, after = int(a.category("tcdm_conflict")[0]), int(b.category("tcdm_conflict")[0])
    assert before > after
    total_a = int(a.category("tcdm_conflict").sum())
    total_b = int(b.category("tcdm_conflict").sum())
    row = rf"tcdm_conflict\s+{total_a:,}\s+{total_b:,}\s+{total_b - total_a:+,}\s"
    assert re.search(row, out)
    assert f"{after - before:+,}" in out
    assert "matmul_rows" in out and "configuration differences" not in out


def test_diff_of_a_missing_file(saved, capsys):
    assert main(["diff", str(saved / "run.json"), str(saved / "nope.json")]) == 2
    assert "nope.json" in capsys.readouterr().err


def test_bad_trace_name_is_refused_before_running(saved, capsys):
    assert main(["run", str(saved / "mm.s"), "--trace", "out.txt"]) == 2
    assert "--trace out.txt" in capsys.readouterr().err


def test_trace_too_large_for_json(saved, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("traces.perfetto.MAX_JSON_EVENTS", 100)
    code = main(["run", str(saved / "mm.s"), "--quiet", "--trace", str(tmp_path / "big.json"),
                 "--vcd", str(tmp_path / "ok.vcd")])
    err = capsys.readouterr().err
    assert code == 2
    assert "too many for a JSON trace" in err and ".pftrace" in err
    assert "Traceback" not in err
    assert (tmp_path / "ok.vcd").exists() and not (tmp_path / "big.json").exists()


def test_protobuf_trace(saved, tmp_path, capsys):
    pytest.importorskip("perfetto")
    assert main(["run", str(saved / "mm.s"), "--quiet", "--trace",
                 str(tmp_path / "t.pftrace")]) == 0
    assert "Perfetto protobuf trace" in capsys.readouterr().err
    assert (tmp_path / "t.pftrace").stat().st_size > 1000


def test_event_log_never_overwrites_the_result():
    from traces.outputs import events_path

    assert events_path("out/run.json").as_posix() == "out/run.events"
    assert events_path("run.events").as_posix() == "run.events.events"
