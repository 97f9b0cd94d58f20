"""Run a command line as at a terminal of a given width (a pseudo-terminal), or piped."""

from __future__ import annotations

import fcntl
import os
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def env(**extra: str) -> dict[str, str]:
    out = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    out.update(PYTHONPATH=str(ROOT), TERM="xterm-256color", **extra)
    return out


def at_terminal(args: list[str], columns: int, timeout: float = 600) -> tuple[int, str]:
    """(exit status, everything written to the terminal) of ``python -m args`` run with its
    stdout and stderr on a pseudo-terminal of ``columns`` columns."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 50, columns, 0, 0))
    proc = subprocess.Popen([sys.executable, "-m", *args], stdin=subprocess.DEVNULL,
                            stdout=slave, stderr=slave, cwd=ROOT,
                            env=env(COLUMNS=str(columns)))
    os.close(slave)
    chunks = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:          # the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        elif proc.poll() is not None:
            break
    os.close(master)
    code = proc.wait(timeout=10)
    return code, b"".join(chunks).decode(errors="replace").replace("\r\n", "\n")


def piped(args: list[str], timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True,
                          cwd=ROOT, env=env(), timeout=timeout)
