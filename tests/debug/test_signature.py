"""Signatures as Spike writes them (``--signature``, ``--signature-granularity``)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from isasim.signature import format_signature, signature_range
from toolchain.asm import assemble


def test_signature_text_is_spikes():
    data = bytes(range(1, 11))
    # 4-byte lines, little-endian values, most significant byte first; short tail zero-padded
    assert format_signature(data, 4) == "04030201\n08070605\n00000a09\n"
    assert format_signature(data, 8) == "0807060504030201\n0000000000000a09\n"
    assert format_signature(data, 1) == "".join(f"{b:02x}\n" for b in data)
    assert format_signature(b"", 4) == ""


def test_signature_needs_the_symbols():
    p = assemble("    .text\n    .globl _start\n_start: nop\n", filename="t.s", family="none")
    with pytest.raises(ValueError, match="begin_signature or end_signature"):
        signature_range(p)


def test_isasim_cli_signature_matches_spike_format(tmp_path):
    """``isasim run --signature`` writes the file the plugin's in-process run writes."""
    src = tmp_path / "s.s"
    src.write_text("    .text\n    .globl _start\n_start:\n    la t0, tohost\n    li t1, 1\n"
                   "    sw t1, 0(t0)\n    sw zero, 4(t0)\n1:  j 1b\n    .data\n    .align 3\n"
                   "    .globl tohost\ntohost: .word 0, 0\n    .globl begin_signature\n"
                   "begin_signature: .word 0x11223344, 0x55667788, 0x99\n"
                   "    .globl end_signature\nend_signature:\n")
    sig = tmp_path / "sig"
    out = subprocess.run([sys.executable, "-m", "isasim.cli", "run", str(src), "--cores", "1",
                          "--quiet", "--signature", str(sig), "--signature-granularity", "8"],
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert sig.read_text() == "5566778811223344\n0000000000000099\n"
