"""Every shell command of the README and of docs/*.md runs as written and exits with status 0.

The ```sh blocks are read from README.md, then from the pages in docs/ (a line ending in ``\\``
continues the command, ``#`` starts a comment); each command runs in a scratch directory that links
the repository's ``docs``, ``examples`` and ``tests`` directories, so the files a command writes
stay there and the commands that read them later find them.  ``isasim`` and ``trainlib`` are run as
``python -m isasim.cli`` / ``python -m trainlib.cli`` with this interpreter, so the checkout's code
is what is tested, not an installed copy.  The tuner's cache goes to the scratch directory.

Commands that need a tool which is not installed (GCC for RISC-V) skip. Of the set-up commands
(``pip install ... && ...``), what follows the install runs (the installation and the test run
are CI's own steps). The ```python blocks run
too.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md")), ROOT / "examples" / "cluster" / "README.md"]
SETUP = ("pip install",)                 # the set-up commands: CI runs them (.ci/run)


def blocks(text: str, lang: str) -> list[str]:
    return re.findall(rf"^```{lang}\n(.*?)^```", text, flags=re.S | re.M)


def commands(text: str) -> list[str]:
    out: list[str] = []
    for block in blocks(text, "sh"):
        pending = ""
        for line in block.splitlines():
            line = re.sub(r"(^|\s)#.*$", "", line).rstrip()
            if line.endswith("\\"):
                pending += line[:-1] + " "
                continue
            line = (pending + line).strip()
            pending = ""
            if line:
                out.append(line)
    return out


ALL = [c for page in PAGES for c in commands(page.read_text())]
# the set-up commands' own work after the install (not the test run, which is this suite)
AFTER_INSTALL = [c.split("&&", 1)[1].strip() for c in ALL
                 if c.startswith(SETUP) and "&&" in c and "pytest" not in c]
TOUR = list(dict.fromkeys(AFTER_INSTALL + [c for c in ALL if not c.startswith(SETUP)]))


def as_tested(command: str) -> str:
    """The command with ``isasim`` / ``trainlib`` run from this checkout."""
    py = f"{sys.executable} -m"
    return re.sub(r"(^|[|&;]\s*)(isasim|trainlib)\b",
                  lambda m: f"{m.group(1)}{py} {m.group(2)}.cli", command)


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    d = tmp_path_factory.mktemp("tour")
    for name in ("docs", "examples", "tests"):
        (d / name).symlink_to(ROOT / name)
    return d


def test_the_readme_has_a_tour_and_the_set_up_commands():
    assert len(TOUR) >= 10
    setup = [c for c in commands(README.read_text()) if c.startswith(SETUP)]
    assert any("pytest" in c for c in setup), "the test set-up command"
    assert any("trainlib train" in c for c in setup), "the install-and-run set-up command"


@pytest.mark.parametrize("command", TOUR)
def test_tour_command(command, scratch):
    tool = command.split()[0]
    if tool not in ("isasim", "trainlib", "python", "python3") and shutil.which(tool) is None:
        pytest.skip(f"{tool} is not installed")
    env = dict(os.environ, PYTHONPATH=str(ROOT), XDG_CACHE_HOME=str(scratch / "cache"),
               COLUMNS="100")
    done = subprocess.run(["bash", "-o", "pipefail", "-c", as_tested(command)], cwd=scratch,
                          env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, (
        f"{command}\nexit status {done.returncode}\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}")
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("index", range(len(blocks(README.read_text(), "python"))))
def test_readme_python_block(index, scratch):
    code = blocks(README.read_text(), "python")[index]
    done = subprocess.run([sys.executable, "-c", code], cwd=scratch, capture_output=True,
                          text=True, timeout=900, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert done.returncode == 0, done.stderr[-3000:]
