"""Perfetto protobuf trace (TrackEvent), encoded with the ``perfetto`` package's protos.

For runs too large for JSON, so it must stream and be quick.  The package's
``TraceProtoBuilder`` builds a message object per packet (about 17 us each, with the pc and
instruction as debug annotations): too slow for millions of slices.  So each distinct packet
*content* (this stall, at this instruction, on this core's track) is built and serialised once
with the package's ``TracePacket`` message and cached; every occurrence then only adds its
timestamp and the framing as a ``Trace.packet`` entry.  Concatenated serialised fields form one
valid message, so the file is an ordinary ``Trace``.  The field tags come from serialising the
messages, never from hand-written field numbers.

Tracks: the cluster as a process, each core as a thread, each counter as a counter track under
the process.  Every core's slices are on their own packet sequence, in time order; counters and
barrier flows are on two more sequences, also in time order.  Timestamps are native nanoseconds
(1 cycle = 1 ns).  Flows join instant events: one ``barrier arrive`` on the last core to arrive,
with a flow to a ``barrier release`` on each core it wakes.
"""

from __future__ import annotations

import heapq
from pathlib import Path

from isasim import layout as L
from traces.eventlog import EventLog
from traces.events import OP_BEGIN, OP_END, barrier_flows, timeline_ops
from traces.perfetto import DMA_TRACK, dma_counter, process_name, thread_name, window_counters

FLUSH = 1 << 20
PROCESS_UUID = 1
PID = 1
SEQ_META, SEQ_COUNTERS, SEQ_FLOWS, SEQ_CORE0 = 1, 2, 3, 16


def _protos():
    try:
        from perfetto.protos.perfetto.trace import perfetto_trace_pb2 as pb
    except ImportError:
        raise RuntimeError("the protobuf trace needs the 'perfetto' Python package "
                           "(pip install perfetto); or write Chrome JSON with a .json name"
                           ) from None
    return pb


def _varint(n: int) -> bytes:
    out = bytearray()
    while n > 0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


class _Stream:
    """Appends ``Trace.packet`` entries to a file, buffered."""

    def __init__(self, f, pb) -> None:
        self.f = f
        self.pb = pb
        self.buf = bytearray()
        self.n = 0
        self.started: set[int] = set()
        self.frame_tag = pb.Trace(packet=[pb.TracePacket()]).SerializeToString()[:-1]
        self.ts_tag = pb.TracePacket(timestamp=1).SerializeToString()[:-1]
        self.cleared = pb.TracePacket(
            sequence_flags=pb.TracePacket.SEQ_INCREMENTAL_STATE_CLEARED).SerializeToString()

    def body(self, seq: int, packet) -> bytes:
        """Serialise a packet (without timestamp) for ``write``."""
        packet.trusted_packet_sequence_id = seq
        return packet.SerializeToString()

    def write(self, seq: int, time: int, body: bytes) -> None:
        payload = self.ts_tag + _varint(time) + body
        if seq not in self.started:
            self.started.add(seq)
            payload += self.cleared
        self.buf += self.frame_tag + _varint(len(payload)) + payload
        self.n += 1
        if len(self.buf) >= FLUSH:
            self.flush()

    def message(self, seq: int, time: int, packet) -> None:
        self.write(seq, time, self.body(seq, packet))

    def flush(self) -> None:
        self.f.write(self.buf)
        self.buf.clear()


def write_pftrace(log: EventLog, path: str | Path) -> int:
    """Write the trace; returns the number of packets."""
    pb = _protos()
    T = pb.TrackEvent
    core_uuid = [100 + c for c in range(log.ncores)]
    with open(path, "wb") as f:
        s = _Stream(f, pb)
        p = pb.TracePacket()
        p.track_descriptor.uuid = PROCESS_UUID
        p.track_descriptor.process.pid = PID
        p.track_descriptor.process.process_name = process_name(log)
        s.message(SEQ_META, 0, p)
        for c in range(log.ncores):
            p = pb.TracePacket()
            d = p.track_descriptor
            d.uuid = core_uuid[c]
            d.parent_uuid = PROCESS_UUID
            d.thread.pid = PID
            d.thread.tid = c + 1
            d.thread.thread_name = thread_name(c)
            s.message(SEQ_CORE0 + c, 0, p)
        series = list(window_counters(log))
        counter_uuid: dict[str, int] = {}
        for name in [x.name for x in series] + [DMA_TRACK]:
            counter_uuid[name] = 1000 + len(counter_uuid)
            p = pb.TracePacket()
            p.track_descriptor.uuid = counter_uuid[name]
            p.track_descriptor.parent_uuid = PROCESS_UUID
            p.track_descriptor.name = name
            p.track_descriptor.counter.SetInParent()
            s.message(SEQ_COUNTERS, 0, p)
        for c in range(log.ncores):
            _core_slices(s, log, c, core_uuid[c])
        points = [zip(x.cycles.tolist(), x.values.tolist(), [counter_uuid[x.name]] * len(x.cycles),
                      strict=True) for x in series]
        dma = ((t, v, counter_uuid[DMA_TRACK]) for cyc, val in dma_counter(log)
               for t, v in zip(cyc.tolist(), val.tolist(), strict=True))
        for time, value, uuid in heapq.merge(*points, dma):
            s.message(SEQ_COUNTERS, time, pb.TracePacket(track_event=T(
                type=T.TYPE_COUNTER, track_uuid=uuid, double_counter_value=value)))
        for k, (src, src_cycle, release, dsts) in enumerate(_episodes(log)):
            ids = [(k << 8) + d + 1 for d in dsts]
            s.message(SEQ_FLOWS, src_cycle, pb.TracePacket(track_event=T(
                type=T.TYPE_INSTANT, track_uuid=core_uuid[src], categories=["barrier"],
                name="barrier arrive", flow_ids=ids)))
            for d, fid in zip(dsts, ids, strict=True):
                s.message(SEQ_FLOWS, release, pb.TracePacket(track_event=T(
                    type=T.TYPE_INSTANT, track_uuid=core_uuid[d], categories=["barrier"],
                    name="barrier release", terminating_flow_ids=[fid])))
        s.flush()
    return s.n


def _core_slices(s: _Stream, log: EventLog, core: int, uuid: int) -> None:
    """One core's function and stall slices, each distinct packet serialised once."""
    pb = s.pb
    T = pb.TrackEvent
    code = log.code
    seq = SEQ_CORE0 + core
    end = s.body(seq, pb.TracePacket(track_event=T(type=T.TYPE_SLICE_END, track_uuid=uuid)))
    begins: dict[tuple[int, int, int], bytes] = {}
    for ops in timeline_ops(log, core):
        for op, time, dur, what, slot in ops.tolist():
            if op == OP_END:
                s.write(seq, time, end)
                continue
            key = (op, what, slot)
            body = begins.get(key)
            if body is None:
                if op == OP_BEGIN:
                    ev = T(type=T.TYPE_SLICE_BEGIN, track_uuid=uuid, categories=["function"],
                           name=code.symbol_names[what] if what >= 0 else "(no symbol)")
                else:
                    ev = T(type=T.TYPE_SLICE_BEGIN, track_uuid=uuid, categories=["stall"],
                           name=L.CATEGORIES[what])
                    if slot >= 0:
                        ev.debug_annotations.add(name="pc",
                                                 string_value=f"{code.slot_pc[slot]:#010x}")
                        ev.debug_annotations.add(name="insn", string_value=code.slot_text[slot])
                body = begins[key] = s.body(seq, pb.TracePacket(track_event=ev))
            s.write(seq, time, body)
            if op != OP_BEGIN:
                s.write(seq, time + dur, end)


def _episodes(log: EventLog):
    """Barrier flows grouped by release: (source core, its arrival, release cycle, woken cores)."""
    group: list = []
    for fl in barrier_flows(log):
        key = (fl.src_core, fl.src_cycle, fl.dst_cycle)
        if group and group[0] != key:
            yield (*group[0], group[1])
            group = []
        if not group:
            group = [key, []]
        group[1].append(fl.dst_core)
    if group:
        yield (*group[0], group[1])
