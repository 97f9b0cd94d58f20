"""Ctrl-C (SIGINT) stops a long run within two seconds, exit status 130, no traceback.

The compiled loop runs in slices of about 0.1 s (``Machine.run``), so the signal is seen
between two of them; the run is padded to a common end and its figures printed.  A cold
compile of the loop (a minute) runs in a child process, which a Ctrl-C kills at once.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time

from tests.cli.terminal import ROOT, env

RUNAWAY = ".text\n.globl _start\n_start:\n1:  addi t0, t0, 1\n    j 1b\n"


def _ctrl_c_default() -> None:
    """In the child: SIGINT's default disposition, as at a terminal.  A shell starts a
    background job with SIGINT ignored, and an ignored signal stays ignored across exec, so a
    test run launched that way would otherwise send its Ctrl-C into the void."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _interrupt(args: list[str], after: float) -> tuple[int, float, str, str]:
    """Start ``python -m args``, send SIGINT ``after`` seconds (when it is busy running);
    (exit status, seconds from SIGINT to exit, stdout, stderr)."""
    proc = subprocess.Popen([sys.executable, "-m", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT, env=env(),
                            preexec_fn=_ctrl_c_default)
    time.sleep(after)
    assert proc.poll() is None, proc.communicate()
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    return proc.returncode, time.monotonic() - sent, out, err


def test_sigint_stops_a_runaway_isasim_run(tmp_path):
    source = tmp_path / "runaway.s"
    source.write_text(RUNAWAY)
    # the loop compiled and the program translated first (from the caches if they have them),
    # so that the Ctrl-C comes while it runs
    subprocess.run([sys.executable, "-m", "isasim.cli", "run", str(source), "--max-cycles",
                    "3000000"], cwd=ROOT, env=env(), capture_output=True, check=False)
    code, took, out, err = _interrupt(["isasim.cli", "run", str(source), "--max-cycles",
                                       str(10**12)], after=6.0)
    assert code == 130, err
    assert took < 2.0, f"exit {took:.2f} s after SIGINT"
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert "isasim run: interrupted," in out          # the figures so far, on stdout
    assert "run interrupted on core 0" in err and "stopped by Ctrl-C" in err


def test_sigint_during_a_cold_compile(tmp_path):
    """An empty numba cache: the run's first compile is under way in a child process."""
    source = tmp_path / "runaway.s"
    source.write_text(RUNAWAY)
    proc = subprocess.Popen([sys.executable, "-m", "isasim.cli", "run", str(source)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            env=env(NUMBA_CACHE_DIR=str(tmp_path / "numba")),
                            preexec_fn=_ctrl_c_default)
    deadline = time.monotonic() + 60
    while not (tmp_path / "numba").exists() and time.monotonic() < deadline:
        time.sleep(0.1)                 # the engine's import has created the (empty) cache
    time.sleep(2.0)
    assert proc.poll() is None, proc.communicate()
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert time.monotonic() - sent < 2.0
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert "isasim run: interrupted" in err


def test_sigint_stops_trainlib_tune(tmp_path):
    code, took, out, err = _interrupt(
        ["trainlib.cli", "tune", "examples/pulp_trainlib_net0.toml", "--exhaustive",
         "--no-cache", "--workers", "2", "-o", str(tmp_path / "c.toml")], after=6.0)
    assert code == 130, err
    assert took < 2.0, f"exit {took:.2f} s after SIGINT"
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert "trainlib tune: interrupted" in err
