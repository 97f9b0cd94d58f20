"""Headless Chromium for the HTML report tests: load a page, return its DOM and console lines."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from html.parser import HTMLParser

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         "--enable-logging=stderr", "--v=0"]

needs_chromium = [pytest.mark.needs_tool,
                  pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")]


def load(url: str, timeout: float = 90) -> tuple[str, list[str]]:
    """(DOM after the page's scripts ran, console messages) of ``url``."""
    with tempfile.TemporaryDirectory(prefix="isasim-chromium-") as profile:
        done = subprocess.run([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "--dump-dom",
                               url], capture_output=True, text=True, timeout=timeout,
                              check=False)
    console = [line for line in done.stderr.splitlines() if ":CONSOLE" in line]
    return done.stdout, console


class Cells(HTMLParser):
    """Every element carrying data-* attributes, as (attribute dict, text)."""

    def __init__(self) -> None:
        super().__init__()
        self.cells: list[tuple[dict, str]] = []
        self._open: list[tuple[dict, list[str]]] = []

    def handle_starttag(self, tag, attrs):
        d = {k: v for k, v in attrs if k.startswith("data-") or k in ("id", "hidden")}
        self._open.append((d, []))

    def handle_endtag(self, tag):
        if self._open:
            d, text = self._open.pop()
            if d:
                self.cells.append((d, "".join(text)))
            if self._open:
                self._open[-1][1].extend(text)

    def handle_data(self, data):
        if self._open:
            self._open[-1][1].append(data)


def cells(dom: str) -> list[tuple[dict, str]]:
    p = Cells()
    p.feed(dom)
    return p.cells
