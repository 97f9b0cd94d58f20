"""The event log: the engine's trace records, streamed to disk in bounded memory.

The engine hands ``int64[n, TRW]`` chunks to a sink while it runs (``Machine.enable_trace``).
``EventRecorder`` is that sink: it never keeps a chunk, but appends its records to one temporary
file per *section* — one per core (that core's cycle-state runs and the bank conflicts it lost)
and one for the cluster (barrier and DMA events, in engine order).  Splitting by core means every
section is already in time order, so each viewer can read it in a single streaming pass.

``finish`` then packs the sections into one file that a later ``isasim report`` can reopen::

    b"ISASIMEV" + 8 reserved bytes        header
    int64[count, 6] per section           records, sections back to back
    JSON metadata (utf-8)                 sections (offset, count), code symbols, cycles ...
    uint64 length of the JSON             little-endian
    b"ISAEVEND"                           footer magic: its absence means a truncated file

``EventLog`` reads such a file back, checking it first, so that a foreign or truncated file gives
one clear ``TraceFileError`` instead of garbage.
"""

from __future__ import annotations

import json
import shutil
import struct
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from isasim import layout as L

MAGIC = b"ISASIMEV"
END_MAGIC = b"ISAEVEND"
FORMAT = "isasim-events/1"
HEADER = 16
RECORD = L.TRW * 8
CHUNK = 1 << 16
CLUSTER = "cluster"


class TraceFileError(ValueError):
    """An event log that cannot be read: missing, foreign, truncated or from another version."""


def core_section(core: int) -> str:
    return f"core{core}"


@dataclass(frozen=True)
class CodeMap:
    """What the viewers need to name a trace slot: its address, function and disassembly."""

    slot_pc: list[int]
    slot_sym: list[int]          # index in symbol_names, -1 when no code symbol precedes it
    slot_text: list[str]
    symbol_names: list[str]

    @classmethod
    def from_machine(cls, machine) -> CodeMap:
        code = machine.code.reshape(-1, L.NF)
        return cls(slot_pc=[int(a) for a in machine.slot_pc],
                   slot_sym=[int(s) for s in code[:len(machine.slot_pc), L.F_SYM]],
                   slot_text=[machine.disassemble_at(a) for a in machine.slot_pc],
                   symbol_names=list(machine.symbol_names))

    def function(self, slot: int) -> str:
        """Function name of a slot ('' for slot -1: cycles not tied to an instruction)."""
        if slot < 0:
            return ""
        sym = self.slot_sym[slot]
        return self.symbol_names[sym] if sym >= 0 else "(no symbol)"

    def sym_array(self) -> np.ndarray:
        """slot -> symbol id, with one extra entry at the end so that slot -1 maps to -2."""
        return np.array(self.slot_sym + [-2], dtype=np.int64)


class EventRecorder:
    """Trace sink for ``Machine.enable_trace``: streams records into per-section temp files."""

    def __init__(self, ncores: int) -> None:
        self.ncores = ncores
        self._dir = Path(tempfile.mkdtemp(prefix="isasim-events-"))
        self._names = [core_section(c) for c in range(ncores)] + [CLUSTER]
        self._files = {n: open(self._dir / n, "wb") for n in self._names}  # noqa: SIM115
        self._counts = dict.fromkeys(self._names, 0)

    def __call__(self, chunk: np.ndarray) -> None:
        # section key per record: its core for runs and conflicts, ncores for the cluster; a
        # stable sort on an 8-bit key (radix sort) keeps each section in engine order
        kind = chunk[:, 0]
        per_core = (kind == L.TR_RUN) | (kind == L.TR_CONFLICT)
        key = np.where(per_core, chunk[:, 1], self.ncores).astype(np.uint8)
        order = np.argsort(key, kind="stable")
        ordered = chunk[order]
        cuts = np.searchsorted(key[order], np.arange(self.ncores + 2))
        for i, name in enumerate(self._names):
            self._append(name, ordered[cuts[i]:cuts[i + 1]])

    def _append(self, name: str, records: np.ndarray) -> None:
        if len(records):
            self._files[name].write(np.ascontiguousarray(records, dtype="<i8").tobytes())
            self._counts[name] += len(records)

    def finish(self, path: str | Path, code: CodeMap, result) -> Path:
        """Pack the sections and the metadata into ``path``; remove the temporary files."""
        path = Path(path)
        sections = {}
        offset = HEADER
        try:
            for f in self._files.values():
                f.close()
            with open(path, "wb") as out:
                out.write(MAGIC + bytes(HEADER - len(MAGIC)))
                for name in self._names:
                    with open(self._dir / name, "rb") as src:
                        shutil.copyfileobj(src, out, 1 << 20)
                    sections[name] = [offset, self._counts[name]]
                    offset += self._counts[name] * RECORD
                meta = {"format": FORMAT, "ncores": self.ncores,
                        "nbanks": int(result.conflicts.shape[1]),
                        "cycles": [int(c) for c in result.cycles],
                        "categories": list(L.CATEGORIES), "sections": sections,
                        "slot_pc": code.slot_pc, "slot_sym": code.slot_sym,
                        "slot_text": code.slot_text, "symbol_names": code.symbol_names,
                        "config": result.config.get("name", ""),
                        "cluster_id": int(result.config.get("cluster_id", 0))}
                blob = json.dumps(meta).encode()
                out.write(blob + struct.pack("<Q", len(blob)) + END_MAGIC)
        finally:
            self.discard()
        return path

    def discard(self) -> None:
        for f in self._files.values():
            f.close()
        shutil.rmtree(self._dir, ignore_errors=True)


class EventLog:
    """A packed event log, checked on open; sections are read back in bounded chunks."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        try:
            size = self.path.stat().st_size
            with open(self.path, "rb") as f:
                head = f.read(HEADER)
                if not head.startswith(MAGIC):
                    raise TraceFileError(f"{self.path}: not an isasim event log")
                if size < HEADER + 16:
                    raise TraceFileError(f"{self.path}: truncated event log (no metadata)")
                f.seek(size - 16)
                tail = f.read(16)
                if tail[8:] != END_MAGIC:
                    raise TraceFileError(f"{self.path}: truncated event log (the run that wrote "
                                         f"it did not finish); record the run again")
                (n,) = struct.unpack("<Q", tail[:8])
                if n > size - HEADER - 16:
                    raise TraceFileError(f"{self.path}: corrupt event log (metadata length)")
                f.seek(size - 16 - n)
                meta = json.loads(f.read(n))
        except OSError as e:
            raise TraceFileError(f"{self.path}: {e.strerror or e}") from None
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise TraceFileError(f"{self.path}: corrupt event log (metadata)") from None
        self._check(meta, size - 16 - n)
        self.meta = meta
        self.chunk = CHUNK            # rows per read: bounds the memory of every viewer
        self.ncores: int = meta["ncores"]
        self.nbanks: int = meta["nbanks"]
        self.cycles: list[int] = meta["cycles"]
        self.code = CodeMap(meta["slot_pc"], meta["slot_sym"], meta["slot_text"],
                            meta["symbol_names"])

    def _check(self, meta: dict, data_end: int) -> None:
        if not isinstance(meta, dict) or meta.get("format") != FORMAT:
            raise TraceFileError(f"{self.path}: event log of another format "
                                 f"({meta.get('format') if isinstance(meta, dict) else '?'!r}, "
                                 f"expected {FORMAT})")
        if tuple(meta.get("categories", ())) != L.CATEGORIES:
            raise TraceFileError(f"{self.path}: event log written with other cycle categories")
        for name, (offset, count) in meta["sections"].items():
            if offset < HEADER or offset + count * RECORD > data_end:
                raise TraceFileError(f"{self.path}: corrupt event log (section {name})")

    @property
    def total_cycles(self) -> int:
        return max(self.cycles, default=0)

    def count(self, section: str) -> int:
        return int(self.meta["sections"][section][1])

    @property
    def nrecords(self) -> int:
        return sum(int(c) for _, c in self.meta["sections"].values())

    def records(self, section: str) -> Iterator[np.ndarray]:
        """The section's records, ``int64[k, TRW]`` at most ``self.chunk`` rows at a time."""
        chunk = self.chunk
        offset, count = self.meta["sections"][section]
        with open(self.path, "rb") as f:
            f.seek(offset)
            left = count
            while left:
                k = min(chunk, left)
                data = np.frombuffer(f.read(k * RECORD), dtype="<i8")
                yield data.reshape(k, L.TRW).astype(np.int64)
                left -= k


def resolve_trace(result, result_path: str | Path | None = None) -> Path | None:
    """The event log of a run: ``trace_file``, taken relative to the run's JSON file."""
    if not result.trace_file:
        return None
    p = Path(result.trace_file)
    if not p.is_absolute() and result_path is not None:
        p = Path(result_path).parent / p
    return p


def record_run(machine, path: str | Path, max_cycles: int | None = None,
               buffer_records: int = CHUNK, progress=None):
    """Run a loaded machine with tracing on; the event log goes to ``path``.

    Returns ``(RunResult, EventLog)``; the result's ``trace_file`` names the log.
    ``progress``: see ``Machine.run``.
    """
    recorder = EventRecorder(machine.config.cores)
    machine.enable_trace(recorder, buffer_records)
    try:
        result = machine.run(max_cycles, progress=progress)
    except BaseException:
        recorder.discard()
        raise
    recorder.finish(path, CodeMap.from_machine(machine), result)
    result.trace_file = str(path)
    return result, EventLog(path)
