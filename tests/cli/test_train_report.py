"""``trainlib train --report``: one page for the whole training step, a selector per layer
step, opening on --report-step (else the costliest step); checked in headless Chromium."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.traces.trace_browser import CHROMIUM, cells, load
from trainlib import cli

NET0 = Path(__file__).resolve().parents[2] / "examples" / "pulp_trainlib_net0.toml"


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> tuple[Path, dict]:
    path = tmp_path_factory.mktemp("report") / "net0.html"
    assert cli.main(["train", str(NET0), "--steps", "1", "--report", str(path),
                     "--report-step", "dw3:ig"]) == 0
    steps = re.search(r'<script id="steps-data" type="application/json">(.*?)</script>',
                      path.read_text(), re.S)
    assert steps is not None
    return path, json.loads(steps.group(1))


def test_one_report_covers_every_layer_step(report):
    _, steps = report
    assert len(steps["labels"]) == len(steps["runs"]) == 23
    assert steps["labels"][0] == "conv1 fw" and "fc update.bias" in steps["labels"]
    assert steps["labels"][steps["initial"]] == "dw3 ig"
    assert all(run["timeline"] is not None for run in steps["runs"])


def _cycles_shown(dom: str) -> list[int]:
    return [int(d["data-value"]) for d, _ in cells(dom)
            if d.get("data-cat") == "cycles" and "data-core" in d]


@pytest.mark.needs_tool
@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")
@pytest.mark.parametrize("query, label", [("", "dw3 ig"), ("?step=0", "conv1 fw")])
def test_the_page_shows_the_selected_step(report, query, label):
    path, steps = report
    dom, console = load(path.as_uri() + query)
    assert not console, console
    k = steps["labels"].index(label)
    assert f"one training step: {label}</h1>" in dom
    assert _cycles_shown(dom) == steps["runs"][k]["cycles"]
    assert dom.count("<option") >= 23
