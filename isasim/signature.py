"""Signatures as Spike writes them (``--signature FILE --signature-granularity N``): the bytes
from ``begin_signature`` to ``end_signature``, N bytes a line, each line the hex of an N-byte
little-endian value (most significant byte first), a short last line padded with zero bytes.
The RISC-V architecture tests compare these files between a model and a reference."""

from __future__ import annotations

from pathlib import Path


def signature_range(program) -> tuple[int, int]:
    """(begin, end) of the program's signature; ValueError when it has none."""
    missing = [s for s in ("begin_signature", "end_signature") if s not in program.symbols]
    if missing:
        raise ValueError(f"--signature: the program has no {' or '.join(missing)} symbol")
    begin = program.symbols["begin_signature"].value
    end = program.symbols["end_signature"].value
    if end < begin:
        raise ValueError(f"--signature: end_signature ({end:#x}) is below begin_signature "
                         f"({begin:#x})")
    return begin, end


def format_signature(data: bytes, granularity: int = 4) -> str:
    """Spike's text of a signature: one line per ``granularity`` bytes."""
    lines = []
    for i in range(0, len(data), granularity):
        chunk = data[i:i + granularity].ljust(granularity, b"\0")
        lines.append(chunk[::-1].hex())
    return "".join(line + "\n" for line in lines)


def write_signature(machine, path: str | Path, granularity: int = 4) -> None:
    begin, end = signature_range(machine.program)
    Path(path).write_text(format_signature(machine.read_bytes(begin, end - begin), granularity))
