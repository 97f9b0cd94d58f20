"""A GDB remote-protocol server for a loaded machine: ``isasim run prog --gdb :3333``.

Each core is a thread (thread id = core + 1).  Breakpoints (``Z0``/``Z1``, the same
mechanism: the program's bytes are never patched) and write watchpoints (``Z2``) act on every
core; ``vCont`` steps one core or, with ``monitor lockstep on`` or a step of every thread, all
of them; ``c`` continues until a breakpoint, a watchpoint, the end or Ctrl-C.  Stepping goes
through ``isasim.runcontrol``, which advances the whole cluster cycle by cycle, so every cycle
count is the same as in a run without the debugger.  Registers: x0-x31, pc, f0-f31 and the
CSRs the simulated core has, described to GDB by a target description (``qXfer:features``).
The server listens on 127.0.0.1 only: the protocol lets its client write any memory.
"""

from __future__ import annotations

import select
import socket
import sys

from isasim import layout as L
from isasim.csr import IllegalCsr
from isasim.memory import NotInRam
from isasim.runcontrol import RunControl, Stop

ABI = ("zero ra sp gp tp t0 t1 t2 s0 s1 a0 a1 a2 a3 a4 a5 a6 a7 s2 s3 s4 s5 s6 s7 s8 s9 s10 "
       "s11 t3 t4 t5 t6").split()
PC = 32
F0 = 33
CSR0 = 65                 # GDB's RISC-V numbering: CSR n is register 65 + n
FP_CSRS = {1: "fflags", 2: "frm", 3: "fcsr"}
SIGINT, SIGILL, SIGTRAP, SIGBUS, SIGSEGV, SIGALRM = 2, 4, 5, 7, 11, 14
LOCAL_HOSTS = ("", "localhost", "127.0.0.1")


class GdbError(ValueError):
    """A --gdb address that cannot be served."""


def parse_address(text: str) -> tuple[str, int]:
    """``:3333``, ``3333`` or ``localhost:3333`` -> ("127.0.0.1", 3333); other hosts refused."""
    host, _, port = text.rpartition(":")
    if host not in LOCAL_HOSTS:
        raise GdbError(f"--gdb serves on localhost only (got host {host!r})")
    try:
        number = int(port)
    except ValueError:
        raise GdbError(f"--gdb needs a port number, got {text!r}") from None
    if not 0 <= number < 65536:
        raise GdbError(f"--gdb port out of range: {number}")
    return "127.0.0.1", number


def checksum(body: bytes) -> bytes:
    return b"%02x" % (sum(body) & 0xFF)


def escape(data: bytes) -> bytes:
    """Binary data in a packet: ``#``, ``$``, ``}`` and ``*`` escaped with ``}`` (x ^ 0x20)."""
    out = bytearray()
    for b in data:
        if b in b"#$}*":
            out += bytes((0x7D, b ^ 0x20))
        else:
            out.append(b)
    return bytes(out)


def hex32(v: int) -> str:
    return (v & 0xFFFFFFFF).to_bytes(4, "little").hex()


class Connection:
    """The packet layer: framing, checksums, acknowledgements, the interrupt byte."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.buf = b""
        self.ack = True
        self.interrupt = False

    def _fill(self) -> bool:
        data = self.sock.recv(65536)
        if not data:
            return False
        self.buf += data
        return True

    def read_packet(self) -> str | None:
        """The next packet's body (None: the client went away)."""
        while True:
            self.buf = self.buf.lstrip(b"+-")
            if self.buf.startswith(b"\x03"):
                self.buf = self.buf[1:]
                self.interrupt = True
                continue
            start = self.buf.find(b"$")
            end = self.buf.find(b"#", start)
            if start >= 0 and end >= 0 and len(self.buf) >= end + 3:
                body = self.buf[start + 1:end]
                self.buf = self.buf[end + 3:]
                if self.ack:
                    self.sock.sendall(b"+")
                return body.decode("latin-1")
            if not self._fill():
                return None

    def send(self, body: str | bytes) -> None:
        raw = body.encode("latin-1") if isinstance(body, str) else body
        self.sock.sendall(b"$" + raw + b"#" + checksum(raw))
        if self.ack:                       # wait for the '+' (a '-' asks for it again)
            while not self.buf:
                if not self._fill():
                    return
            if self.buf.startswith(b"-"):
                self.buf = self.buf[1:]
                self.send(body)

    def interrupted(self) -> bool:
        """Has the client sent Ctrl-C (polled while the target runs)?"""
        if not self.interrupt:
            ready, _, _ = select.select([self.sock], [], [], 0)
            if ready and self._fill() and b"\x03" in self.buf:
                self.buf = self.buf.replace(b"\x03", b"", 1)
                self.interrupt = True
        hit, self.interrupt = self.interrupt, False
        return hit


class GdbServer:
    """Serves one client for one machine; ``serve`` returns when the session ends."""

    def __init__(self, machine, limit: int | None = None) -> None:
        self.m = machine
        self.rc = RunControl(machine, limit)
        machine.CL[L.L_TEXT_DIRTY] = 1      # no instruction links: pc writes and breakpoints
        self.ncores = machine.config.cores
        self.thread = 0                     # the core 'g', 'p', 'm' act on (Hg)
        self.lockstep = False
        self.killed = False
        self.detached = False
        names = {num: name for name, num in machine.isa.csrs.items()}
        self.csrs = {num: names.get(num, f"csr{num:#x}") for num in sorted(machine.csrs.readers)}
        self.hardware: set[int] = set()     # breakpoints GDB set as hardware ones (Z1)

    # ---- target description ------------------------------------------------------------------
    def target_xml(self) -> str:
        x = "".join(f'<reg name="{n}" bitsize="32" type="{"code_ptr" if n == "ra" else "int"}"'
                    f' regnum="{i}"/>' for i, n in enumerate(ABI))
        f = "".join(f'<reg name="f{i}" bitsize="32" type="ieee_single" regnum="{F0 + i}"/>'
                    for i in range(32))
        f += "".join(f'<reg name="{n}" bitsize="32" type="int" regnum="{CSR0 + num}"/>'
                     for num, n in FP_CSRS.items())
        c = "".join(f'<reg name="{n}" bitsize="32" type="int" regnum="{CSR0 + num}"/>'
                    for num, n in self.csrs.items() if num not in FP_CSRS)
        return ('<?xml version="1.0"?><!DOCTYPE target SYSTEM "gdb-target.dtd">'
                '<target version="1.0"><architecture>riscv:rv32</architecture>'
                f'<feature name="org.gnu.gdb.riscv.cpu">{x}'
                f'<reg name="pc" bitsize="32" type="code_ptr" regnum="{PC}"/></feature>'
                f'<feature name="org.gnu.gdb.riscv.fpu">{f}</feature>'
                f'<feature name="org.gnu.gdb.riscv.csr">{c}</feature></target>')

    # ---- registers ---------------------------------------------------------------------------
    def read_reg(self, core: int, n: int) -> int | None:
        m = self.m
        if 0 <= n < 32:
            return m.xreg(core, n)
        if n == PC:
            return self.rc.pc(core)
        if F0 <= n < F0 + 32:
            return int(m.R[core * L.RS + L.R_F + n - F0]) & 0xFFFFFFFF
        csr = n - CSR0
        b = core * L.NCS
        if csr in FP_CSRS:      # readable by the debugger even with the FPU off
            flags, frm = int(m.CS[b + L.CS_FFLAGS]) & 0x1F, int(m.CS[b + L.CS_FRM]) & 7
            return {1: flags, 2: frm, 3: frm << 5 | flags}[csr]
        read = m.csrs.readers.get(csr)
        if read is None:
            return None
        try:
            return read(core) & 0xFFFFFFFF
        except IllegalCsr:
            return None

    def write_reg(self, core: int, n: int, v: int) -> bool:
        m = self.m
        if 0 <= n < 32:
            m.set_xreg(core, n, v)
        elif n == PC:
            m.CS[core * L.NCS + L.CS_PC] = v & 0xFFFFFFFE
        elif F0 <= n < F0 + 32:
            m.R[core * L.RS + L.R_F + n - F0] = v & 0xFFFFFFFF
        else:
            csr = n - CSR0
            b = core * L.NCS
            if csr in FP_CSRS:
                if csr & 1:
                    m.CS[b + L.CS_FFLAGS] = v & 0x1F
                if csr & 2:
                    m.CS[b + L.CS_FRM] = (v >> (5 if csr == 3 else 0)) & 7
                return True
            write = m.csrs.writers.get(csr)
            if write is None:
                return False
            try:
                write(core, v & 0xFFFFFFFF)
            except IllegalCsr:
                return False
        return True

    # ---- stop replies ------------------------------------------------------------------------
    def stop_reply(self, stop: Stop) -> str:
        if stop.kind == "end":
            return self.end_reply()
        self.thread = stop.core
        tid = f"thread:{stop.core + 1:x};"
        if stop.kind == "break":
            kind = "hwbreak" if stop.addr in self.hardware else "swbreak"
            return f"T{SIGTRAP:02x}{tid}{kind}:;"
        if stop.kind == "watch":
            return f"T{SIGTRAP:02x}watch:{stop.addr:x};{tid}"
        if stop.kind == "interrupt":
            return f"T{SIGINT:02x}{tid}"
        return f"T{SIGTRAP:02x}{tid}"

    def end_reply(self) -> str:
        m = self.m
        if m._status == "exited":
            return f"W{m.exit_code() & 0xFF:02x}"
        fault = m._fault
        if fault is not None and m._status == "fault":
            signal = SIGILL if "illegal" in fault.kind else (
                SIGSEGV if "access" in fault.kind or "fetch" in fault.kind else SIGBUS)
            self.thread = fault.core
            return f"T{signal:02x}thread:{fault.core + 1:x};"
        return f"X{SIGALRM:02x}"            # time-out or deadlock: the run cannot go on

    # ---- resuming ------------------------------------------------------------------------
    def resume(self, conn: Connection, actions: list[tuple[str, int | None]]) -> str:
        """Run as ``vCont`` asks.  GDB resumes a single thread to step it over a breakpoint;
        the model cannot hold the other cores (their cycles would change), so they run too,
        and a breakpoint or watchpoint one of them meets meanwhile is passed silently."""
        if self.m._status != "running":
            return self.end_reply()
        rc = self.rc
        only = None if any(t is None for _, t in actions) else {t for _, t in actions}
        steps = [t for a, t in actions if a in ("s", "S")]
        core = steps[0] if steps and steps[0] is not None else self.thread
        goal = rc.instret(core) + 1
        while True:
            if steps and (self.lockstep or steps[0] is None):
                stop = rc.step_all()
                if stop.kind == "pause":
                    stop.core = core
            elif steps:
                stop = rc.step(core, conn.interrupted) if rc.instret(core) < goal \
                    else Stop("pause", core)
            else:
                stop = rc.cont(conn.interrupted)
                if stop.kind == "pause":
                    stop = Stop("interrupt", self.thread)
            if only is None or stop.kind not in ("break", "watch") or stop.core in only:
                return self.stop_reply(stop)
            if stop.kind == "break":       # pass it: that core steps over the breakpoint
                rc.remove_breakpoint(stop.addr)
                rc.step(stop.core)
                rc.add_breakpoint(stop.addr)

    @staticmethod
    def parse_vcont(args: str) -> list[tuple[str, int | None]]:
        out: list[tuple[str, int | None]] = []
        for part in args.split(";"):
            if not part:
                continue
            action, _, tid = part.partition(":")
            thread = None
            if tid and tid not in ("-1", "0"):
                thread = int(tid.rpartition(".")[2], 16) - 1
            out.append((action[0], thread))
        return out

    # ---- packets ----------------------------------------------------------------------------
    def handle(self, conn: Connection, pkt: str) -> str | None:
        """The reply to one packet (None: no reply, the session ends)."""
        m = self.m
        if pkt.startswith("qSupported"):
            return ("PacketSize=4000;qXfer:features:read+;QStartNoAckMode+;"
                    "vContSupported+;swbreak+;hwbreak+")
        if pkt == "QStartNoAckMode":
            conn.send("OK")
            conn.ack = False
            return ""
        if pkt.startswith("qXfer:features:read:target.xml:"):
            off, length = (int(v, 16) for v in pkt.rsplit(":", 1)[1].split(","))
            xml = self.target_xml().encode()
            chunk = xml[off:off + length]
            return b"".join((b"m" if off + length < len(xml) else b"l",
                             escape(chunk))).decode("latin-1")
        if pkt == "?":
            return self.stop_reply(Stop("pause", self.thread)) \
                if m._status == "running" else self.end_reply()
        if pkt == "qfThreadInfo":
            return "m" + ",".join(f"{c + 1:x}" for c in range(self.ncores))
        if pkt == "qsThreadInfo":
            return "l"
        if pkt == "qC":
            return f"QC{self.thread + 1:x}"
        if pkt == "qAttached":
            return "1"
        if pkt.startswith("qThreadExtraInfo,"):
            c = int(pkt.split(",")[1], 16) - 1
            state = ("running", "waiting for a shared resource", "asleep",
                     "stopped")[self.rc.status(c)]
            return f"core {c}, {state}, cycle {self.rc.core_time(c)}".encode().hex()
        if pkt[:1] == "H":
            tid = pkt[2:]
            if tid not in ("-1", "0", ""):
                c = int(tid, 16) - 1
                if not 0 <= c < self.ncores:
                    return "E01"
                if pkt[1] == "g":
                    self.thread = c
            return "OK"
        if pkt[:1] == "T":
            c = int(pkt[1:], 16) - 1
            return "OK" if 0 <= c < self.ncores else "E01"
        if pkt == "g":
            return "".join(hex32(self.read_reg(self.thread, n)) for n in range(33))
        if pkt[:1] == "G":
            data = bytes.fromhex(pkt[1:])
            for n in range(min(33, len(data) // 4)):
                self.write_reg(self.thread, n, int.from_bytes(data[4 * n:4 * n + 4], "little"))
            return "OK"
        if pkt[:1] == "p":
            v = self.read_reg(self.thread, int(pkt[1:], 16))
            return "E01" if v is None else hex32(v)
        if pkt[:1] == "P":
            n, _, v = pkt[1:].partition("=")
            ok = self.write_reg(self.thread, int(n, 16), int.from_bytes(bytes.fromhex(v),
                                                                         "little"))
            return "OK" if ok else "E01"
        if pkt[:1] == "m":
            addr, length = (int(v, 16) for v in pkt[1:].split(","))
            try:
                return m.read_bytes(addr, length).hex()
            except (NotInRam, KeyError):
                return "E14"
        if pkt[:1] == "M":
            where, _, data = pkt[1:].partition(":")
            addr = int(where.split(",")[0], 16)
            try:
                m.write_bytes(addr, bytes.fromhex(data))
            except (NotInRam, KeyError):
                return "E14"
            return "OK"
        if pkt[:1] in ("Z", "z"):
            kind, addr, length = pkt[1], *(int(v, 16) for v in pkt[3:].split(";")[0].split(","))
            if kind in "01":
                try:
                    if pkt[0] == "Z":
                        self.rc.add_breakpoint(addr)
                        if kind == "1":
                            self.hardware.add(addr)
                    else:
                        self.rc.remove_breakpoint(addr)
                        self.hardware.discard(addr)
                except (NotInRam, KeyError):
                    return "E14"
                return "OK"
            if kind == "2":
                if pkt[0] == "Z":
                    self.rc.set_watch(addr, length)
                else:
                    self.rc.clear_watch(addr, length)
                return "OK"
            return ""                       # read / access watchpoints: not supported
        if pkt == "vCont?":
            return "vCont;c;C;s;S"
        if pkt.startswith("vCont;"):
            return self.resume(conn, self.parse_vcont(pkt[6:]))
        if pkt[:1] in ("c", "C"):
            return self.resume(conn, [("c", None)])
        if pkt[:1] in ("s", "S"):
            return self.resume(conn, [("s", self.thread)])
        if pkt.startswith("qRcmd,"):
            return self.monitor(conn, bytes.fromhex(pkt[6:]).decode(errors="replace"))
        if pkt[:1] == "D":
            self.detached = True
            conn.send("OK")
            return None
        if pkt == "k" or pkt.startswith("vKill"):
            self.killed = True
            if pkt.startswith("vKill"):
                conn.send("OK")
            return None
        return ""                           # unsupported: the empty reply

    def monitor(self, conn: Connection, cmd: str) -> str:
        words = cmd.split()
        if words[:1] == ["lockstep"] and words[1:] in (["on"], ["off"]):
            self.lockstep = words[1] == "on"
            text = f"lockstep {'on: a step advances every core' if self.lockstep else 'off'}\n"
        elif words[:1] == ["step"] and len(words) <= 2:
            # exact steps of the selected core (GDB's own stepi computes the next pc itself
            # and cannot follow Xpulp hardware loops); GDB must then re-read the registers
            count = int(words[1]) if len(words) == 2 else 1
            for _ in range(count):
                if self.rc.step(self.thread, conn.interrupted).kind != "pause":
                    break
            text = (f"core {self.thread}: pc {self.rc.pc(self.thread):#010x}, cycle "
                    f"{self.rc.core_time(self.thread)} (run 'flushregs' to see its registers)\n")
        elif words == ["cycles"]:
            text = "".join(f"core {c}: cycle {self.rc.core_time(c)}, "
                           f"{self.rc.instret(c)} instructions\n" for c in range(self.ncores))
        else:
            text = ("monitor commands: 'lockstep on|off' (a step advances every core, or only "
                    "the selected thread's), 'step [N]' (N exact steps of the selected thread, "
                    "hardware loops included), 'cycles' (each core's cycle and instruction "
                    "count)\n")
        conn.send("O" + text.encode().hex())
        return "OK"

    # ---- the session ---------------------------------------------------------------------
    def session(self, sock: socket.socket) -> None:
        """Serve packets until detach, kill, or the client goes away (then as a detach)."""
        conn = Connection(sock)
        try:
            while True:
                pkt = conn.read_packet()
                if pkt is None:
                    self.detached = True
                    return
                try:
                    reply = self.handle(conn, pkt)
                except (ValueError, IndexError):
                    reply = "E00"           # a malformed packet
                if reply is None:
                    return
                if pkt != "QStartNoAckMode":
                    conn.send(reply)
        except (ConnectionError, OSError):
            self.detached = True


def serve(machine, address: str, limit: int | None = None, announce=sys.stderr):
    """Wait for GDB on ``address``, serve it, and return the RunResult (None: GDB killed the
    run).  After a detach, or when GDB goes away, the run goes on to its end without it."""
    host, port = parse_address(address)
    server = GdbServer(machine, limit)
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as listener:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            listener.bind((host, port))
        except OSError as e:
            raise GdbError(f"cannot listen on {host}:{port}: {e.strerror}") from None
        listener.listen(1)
        print(f"isasim: waiting for GDB on {host}:{listener.getsockname()[1]} "
              f"(target remote :{listener.getsockname()[1]})", file=announce, flush=True)
        try:
            sock, _ = listener.accept()
        except KeyboardInterrupt:
            raise GdbError("interrupted while waiting for GDB") from None
    with sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        server.session(sock)
    if server.killed:
        server.rc.close()
        return None
    for addr in list(server.rc.breakpoints):
        server.rc.remove_breakpoint(addr)
    for addr, length in list(server.rc.watches):
        server.rc.clear_watch(addr, length)
    server.rc.run_to_end()
    return machine.run(limit)          # the run has ended: this only gathers the result
