"""Run control: pause the compiled loop at a cycle, step one core, stop at breakpoints and
watchpoints, and end a multi-core run exactly at a ``tohost`` write.

Pausing.  With ``CFG[K_PAUSE]`` set, ``engine.run(max_cycles=L)`` runs every core through the
instructions it fetches at cycles up to ``L`` and returns ``EV_PAUSE`` once every core is held
past ``L`` (a held core is parked with no instruction slot; ``Machine.release_held`` lets it
run again).  The loop's decisions depend only on the cores' clocks, never on where a call
started, so a run paused any number of times gives the same cycles, registers and memory as one
that never paused; ``tests/debug`` and ``tests/engine/test_slices.py`` check it.

Breakpoints cost nothing while running: the breakpoint's entry of the pc map is cleared, so a
core fetching there leaves the loop (``EV_DECODE``) before executing it, and instruction links
are switched off for the run (they would jump past the map).  Watchpoints are a store range
(``L_WATCH``) the loop checks before performing a store: a store into it leaves the loop before
executing, as a RISC-V trigger does, and the next resume performs it.

Exact exits.  A core that runs only private instructions (``j .``) never waits for the others,
so the loop lets it run ahead of them, up to the cycle limit.  When a core writes ``tohost``
the run must end for every core at that cycle ``E`` (the writer's clock after the store), as in
Spike or on a chip.  A multi-core run with a ``tohost`` symbol therefore runs in windows of
``WINDOW`` cycles from a snapshot of the machine; when the exit comes, the window is replayed
from its snapshot with the limit ``E - 1``: every core executes exactly the instructions it
fetched before ``E``, whatever order the loop ran them in, and the run ends there.  The
replay is skipped when nothing happened after ``E - 1`` yet (no core started an instruction
after it, no scheduling round acted after it): it would redo exactly what was done, since the
limit changes nothing before it.  That is the common case of a program whose other cores wait
(a barrier, an exit) when one writes ``tohost``: for the 8-core matmul of ``bench/engine.py``
the replay doubled the run's time.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from isasim import engine
from isasim import layout as L
from isasim.memory import NotInRam

WINDOW = 1 << 18        # cycles per snapshot window of an exact-exit run
# what a replay restores: arrays the loop may change anywhere, copied whole into the snapshot's
# buffers (reused window after window) ...
_ARRAYS = ("R", "RDY", "CS", "CAT", "CL", "OUT", "TR")
# ... the machine's Python state, copied ...
_OBJECTS = ("_cap", "_stdout", "_warnings", "_exit_codes", "_exit_time", "_status", "_fault")
# ... and the text (records, pc map, profile), of which only the part decoded so far: within a
# window the text only grows (a decode appends a slot, ``code`` becomes a new array) or loses
# pc map entries (a store over it), so the rows of the slots decoded at the snapshot and their
# pc map entries are all that must be kept (``Machine.slot_halfwords``)

# the buffers of the last snapshot of a closed run, for the next run's (a tuner or a benchmark
# runs many: fresh pages for each would cost more than the copy)
_SPARE: list[dict] = []


@dataclass
class Stop:
    """Why ``advance`` returned: ``pause`` (the cycle was reached), ``break`` (a core fetched a
    breakpoint), ``watch`` (a store hit a watchpoint), ``end`` (the run is over: see the
    machine's status)."""

    kind: str
    core: int = 0
    addr: int = 0


class RunControl:
    """Drives one loaded machine through pauses, steps, breakpoints and exact exits."""

    def __init__(self, machine, limit: int | None = None) -> None:
        self.m = machine
        self.limit = machine.config.max_cycles if limit is None else limit
        self.now = -1               # every core has run what it fetched at cycles <= now
        self.breakpoints: dict[int, int] = {}     # address -> its pc-map slot
        self.watches: set[tuple[int, int]] = set()     # (address, length) of store watches
        self._at_watch: int | None = None     # a core stopped before a watched store
        self._exit_limit: int | None = None   # a tohost exit: the cores run up to this cycle
        # snapshots only where an exit must be made exact: several cores and a tohost
        self.exact_exit = machine.tohost is not None and machine.config.cores > 1
        self._sink = machine.trace_sink
        self._held_chunks: list[np.ndarray] = []
        self._spare: dict | None = None       # a snapshot let go, its buffers for the next
        if self.exact_exit and self._sink is not None:
            # trace chunks of a window are handed on only once the window stands (no replay)
            machine.trace_sink = self._held_chunks.append

    # ---- whole runs ------------------------------------------------------------------------
    def run_to_end(self) -> None:
        """Run until the machine stops (exit, fault, time-out or deadlock)."""
        while self.m._status == "running":
            self.advance(self.now + WINDOW)
        self.close()

    def close(self) -> None:
        """Give the machine its own trace sink back (the run has ended or is handed back)."""
        self._commit()
        self.m.trace_sink = self._sink
        self.m.CFG[L.K_PAUSE] = 0
        if self._spare is not None:
            _SPARE[:] = [self._spare]
            self._spare = None

    # ---- state of the cores ----------------------------------------------------------------
    def core_time(self, core: int) -> int:
        return int(engine.core_time(self.m.CS, core * L.NCS))

    def instret(self, core: int) -> int:
        return int(self.m.CS[core * L.NCS + L.CS_INSTRET])

    def status(self, core: int) -> int:
        return int(self.m.CS[core * L.NCS + L.CS_STATUS])

    def pc(self, core: int) -> int:
        return int(self.m.CS[core * L.NCS + L.CS_PC])

    # ---- stepping --------------------------------------------------------------------------
    def step(self, core: int, interrupted: Callable[[], bool] = lambda: False) -> Stop:
        """Advance the cluster, cycle by cycle, until ``core`` retired one instruction (the
        other cores run the same cycles: stepping keeps every cycle count exact).

        While the core sleeps, the cluster advances in doubling strides from a snapshot; a
        stride in which it woke and ran on is undone and redone cycle by cycle."""
        goal = self.instret(core) + 1
        stride = 1
        calls = 0
        while True:
            if self.m._status != "running":
                return Stop("end")
            if self.status(core) == L.ST_HALTED or self.instret(core) >= goal:
                return Stop("pause", core)
            until = self.now + 1
            st = self.status(core)
            snap = None
            if st == L.ST_RUNNING or st == L.ST_PARKED:
                until = max(until, self.core_time(core))
                stride = 1
            else:
                until = self.now + stride
                if stride > 1:
                    snap = (self._snapshot(), self.now, self._exit_limit, self._at_watch)
                stride = min(2 * stride, 1 << 16)
            calls += 1
            stop = self.advance(until)
            if snap is not None and self.instret(core) > goal:
                state, self.now, self._exit_limit, self._at_watch = snap
                self._restore(state)        # woke and ran on: redo the stride cycle by cycle
                self._recycle(state)
                stride = 1
                continue
            if snap is not None:
                self._recycle(snap[0])
            if stop.kind != "pause" or (calls & 1023 == 0 and interrupted()):
                return stop

    def step_all(self) -> Stop:
        """Every core that can run retires one instruction (lockstep: the cluster advances
        until the slowest of them has)."""
        goals = {c: self.instret(c) + 1 for c in range(self.m.config.cores)
                 if self.status(c) in (L.ST_RUNNING, L.ST_PARKED)}
        stop = Stop("pause")
        for c, goal in goals.items():
            while self.instret(c) < goal and self.status(c) != L.ST_HALTED:
                stop = self.step(c)
                if stop.kind != "pause":
                    return stop
        return stop

    def cont(self, interrupted: Callable[[], bool], stride: int = 1 << 16) -> Stop:
        """Run until a breakpoint, a watchpoint, the end, or ``interrupted()`` (asked between
        strides of ``stride`` cycles)."""
        while True:
            stop = self.advance(self.now + stride)
            if stop.kind != "pause" or interrupted():
                return stop

    # ---- breakpoints and watchpoints ----------------------------------------------------------
    def _halfword(self, addr: int) -> int:
        return self.m.mmap.offset_of(addr, 2) >> 1

    def add_breakpoint(self, addr: int) -> None:
        """Stop any core before it executes ``addr`` (KeyError: no memory there)."""
        if addr in self.breakpoints:
            return
        h = self._halfword(addr)
        self.breakpoints[addr] = int(self.m.pcmap[h])
        self.m.pcmap[h] = -1
        self.m.CL[L.L_TEXT_DIRTY] = 1       # links would jump past the cleared entry

    def remove_breakpoint(self, addr: int) -> None:
        slot = self.breakpoints.pop(addr, None)
        if slot is None:
            return
        h = self._halfword(addr)
        if self.m.pcmap[h] == -1 and 0 <= slot < len(self.m.slot_pc) \
                and self.m.slot_pc[slot] == addr:
            self.m.pcmap[h] = slot

    def set_watch(self, addr: int, length: int) -> None:
        """Stop any core before it stores into [addr, addr + length)."""
        self.watches.add((addr, length))
        self._watch_range()

    def clear_watch(self, addr: int, length: int) -> None:
        self.watches.discard((addr, length))
        self._watch_range()

    def _watch_range(self) -> None:
        if self.watches:
            self.m.CL[L.L_WATCH] = min(a for a, _ in self.watches)
            self.m.CL[L.L_WATCH + 1] = max(a + n for a, n in self.watches)
        else:
            self.m.CL[L.L_WATCH:L.L_WATCH + 2] = 0

    def _step_over_watch(self) -> Stop:
        """Let the core stopped before a watched store perform it (the loop stops before the
        store while the range is watched, so the range is lifted for that one instruction)."""
        core, self._at_watch = self._at_watch, None
        saved = self.m.CL[L.L_WATCH:L.L_WATCH + 2].copy()
        self.m.CL[L.L_WATCH:L.L_WATCH + 2] = 0
        try:
            return self.step(core)
        finally:
            self.m.CL[L.L_WATCH:L.L_WATCH + 2] = saved

    def _watch_hit(self, addr: int) -> bool:
        # the loop reports the store's address; a word store may cover a watched byte
        return any(addr < a + n and a < addr + 4 for a, n in self.watches)

    # ---- the loop --------------------------------------------------------------------------
    def _next_fetch(self) -> int:
        """The earliest cycle at which a core that can run fetches next."""
        CS = self.m.CS
        return min((int(CS[c * L.NCS + L.CS_T]) for c in range(self.m.config.cores)
                    if CS[c * L.NCS + L.CS_STATUS] in (L.ST_RUNNING, L.ST_PARKED)),
                   default=engine.BIG)

    def advance(self, until: int) -> Stop:
        """Run every core through what it fetches at cycles up to ``until`` (or the run's
        limit), stopping early at a breakpoint, a watchpoint or the end of the run."""
        m = self.m
        if m._status != "running":
            return Stop("end")
        if self._at_watch is not None:
            stop = self._step_over_watch()
            if stop.kind != "pause":
                return stop
        limit = min(until, self.limit)
        # a window of one fetch cycle needs no snapshot: no core can fetch past an exit in it
        snap = self._snapshot() if self.exact_exit and limit > self._next_fetch() else None
        try:
            return self._run_window(limit, snap)
        finally:
            self._recycle(snap)

    def _run_window(self, limit: int, snap: dict | None) -> Stop:
        m = self.m
        while True:
            if self._exit_limit is not None:
                limit = min(limit, self._exit_limit)
            self.m.release_held()
            m.CFG[L.K_PAUSE] = 1 if limit < self.limit or self._exit_limit is not None else 0
            mm = m.mmap
            ev = int(engine.run(m.code, m.pcmap, mm.mem8, mm.mem16, mm.mem32, mm.table(), m.R,
                                m.RDY, m.CS, m.CAT, m.PCS, m.CFG, m.CL, m.OUT, m.TR, limit,
                                m._translated, m._exits))
            core = int(m.CL[L.L_EV_CORE])
            pc = int(m.CL[L.L_EV_PC])
            exiting = self._exit_limit is not None
            if ev == L.EV_PAUSE and not (exiting and limit >= self._exit_limit):
                self.now = limit
                self._commit()
                return Stop("pause")
            if exiting and ev in (L.EV_PAUSE, L.EV_DONE, L.EV_DEADLOCK):
                m._finish_all()          # the exit ends the run whatever the others wait for
                break
            if ev == L.EV_DECODE and pc in self.breakpoints:
                self._commit()
                return Stop("break", core, pc)
            if ev == L.EV_WATCH:
                addr = int(m.CL[L.L_EV_TVAL])
                self._commit()
                self._at_watch = core
                if self._watch_hit(addr):
                    return Stop("watch", core, addr)
                return self._step_over_watch()
            if ev == L.EV_TOHOST:
                if self._tohost(core, pc) and not exiting:
                    # every core runs what it fetched before the writer's clock, then stops
                    self._exit_limit = int(m.CS[core * L.NCS + L.CS_T]) - 1
                    if snap is not None and self._acted_after(self._exit_limit):
                        self._restore(snap)      # some ran past it: replay
            else:
                m._handle(ev, self.limit)
            if m._status != "running":
                break
        self._commit()
        return Stop("end")

    def _acted_after(self, cycle: int) -> bool:
        """Has any core started an instruction after ``cycle`` (the exit's ``E - 1``)?  A
        core's time is the cycle it issues next (a parked core's: its access, a sleeper's: since
        when it sleeps), so one past ``cycle + 1`` issued or stalled after ``cycle``.  No
        scheduling round (grants, wake-ups, DMA beats) can have come after it either: rounds
        come only while no core runs, and the writer ran up to its store, at ``cycle`` at the
        latest."""
        m = self.m
        for c in range(m.config.cores):
            b = c * L.NCS
            st = m.CS[b + L.CS_STATUS]
            t = (m.CS[b + L.CS_SLEEP_SINCE] if st == L.ST_SLEEPING
                 else m.CS[b + L.CS_NEXT_T] if st == L.ST_PARKED else m.CS[b + L.CS_T])
            if t > cycle + 1:
                return True
        return False

    def _tohost(self, core: int, pc: int) -> bool:
        """Serve a tohost write; True when it ends the run (the writer has then stopped)."""
        try:
            return self.m.tohost_write(core, int(self.m.CL[L.L_EV_TVAL]) & ~3)
        except NotInRam as e:
            self.m._set_fault("host call with a bad pointer", core, pc, str(e))
            return False

    # ---- snapshots -------------------------------------------------------------------------
    def _snapshot(self) -> dict:
        """The state a replay of the coming window starts from.  The buffers of the last
        snapshot that was let go (``_recycle``) are reused: no new memory each window."""
        m = self.m
        spare, self._spare = self._spare or (_SPARE.pop() if _SPARE else {}), None
        state: dict = {}

        def keep(name: str, src: np.ndarray) -> None:
            buf = spare.get(name)
            if buf is None or buf.shape != src.shape or buf.dtype != src.dtype:
                buf = np.empty_like(src)
            np.copyto(buf, src)
            state[name] = buf

        for k in _ARRAYS:
            keep(k, getattr(m, k))
        keep("mem8", m.mmap.mem8)
        n = len(m.slot_pc)
        keep("PCS", m.PCS.reshape(-1, m._cap, L.NPS)[:, :n])
        state["slots"] = n
        state["code"] = m.code      # not written in place within a window (see above)
        state["half"] = m.slot_halfwords()
        state["pcmap"] = m.pcmap[state["half"]]
        for k in _OBJECTS:
            state[k] = copy.deepcopy(getattr(m, k))
        state["plain"] = dict(m.csrs.plain)
        state["features_pos"] = m.host.features_pos
        return state

    def _restore(self, state: dict) -> None:
        m = self.m
        for k in _ARRAYS:
            np.copyto(getattr(m, k), state[k])
        np.copyto(m.mmap.mem8, state["mem8"])
        for k in _OBJECTS:
            setattr(m, k, copy.deepcopy(state[k]))
        n, now = state["slots"], len(m.slot_pc)
        m.forget_slots_after(n)
        m.pcmap[state["half"]] = state["pcmap"]
        m.code = state["code"]
        pcs = state["PCS"]
        if m.PCS.size != pcs.shape[0] * m._cap * L.NPS:     # grown in the window
            m.PCS = np.zeros(pcs.shape[0] * m._cap * L.NPS, dtype=np.int64)
        rows = m.PCS.reshape(-1, m._cap, L.NPS)
        rows[:, :n] = pcs
        rows[:, n:now] = 0      # (the rows past the slots decoded are zero)
        m.csrs.plain = dict(state["plain"])
        m.host.features_pos = state["features_pos"]
        self._held_chunks.clear()

    def _recycle(self, state: dict | None) -> None:
        """A snapshot no longer needed: its buffers serve the next one."""
        if state is not None:
            self._spare = state

    def _commit(self) -> None:
        """The window stands: hand its trace chunks on."""
        if self._held_chunks and self._sink is not None:
            for chunk in self._held_chunks:
                self._sink(chunk)
        self._held_chunks.clear()
