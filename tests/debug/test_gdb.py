"""isasim's GDB server against Debian's gdb-multiarch, and its protocol corners (Ctrl-C,
kill, detach) with a raw client."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
KERNEL = Path(__file__).with_name("gdb_kernel.s")
GDB = shutil.which("gdb-multiarch")
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def isasim(*args: str, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "isasim.cli", *args], env=ENV,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def gdb_port(proc: subprocess.Popen) -> int:
    """The port the server announced (``--gdb :0`` picks a free one)."""
    seen = []
    for line in iter(proc.stderr.readline, ""):
        if "waiting for GDB on 127.0.0.1:" in line:
            return int(line.split("127.0.0.1:")[1].split()[0])
        seen.append(line)
    raise AssertionError(f"isasim did not start its GDB server: {''.join(seen)}")


@pytest.fixture(scope="module")
def elf(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("gdb") / "kernel.elf"
    subprocess.run([sys.executable, "-m", "isasim.cli", "asm", str(KERNEL), "-o", str(out)],
                   env=ENV, check=True)
    return out


SCRIPT = """
set architecture riscv:rv32
set pagination off
set confirm off
target remote :{port}
info threads
break kernel thread 4
continue
p $a0
p $mhartid
p/x $a1
x/8dw $a1
p $ft0
p/x $fcsr
stepi
p/x $pc
stepi
p $t1
watch -l *(int *)$a1
continue
p/x $pc
p *(int *)$a1
delete
continue
"""


@pytest.mark.needs_tool
@pytest.mark.skipif(GDB is None, reason="gdb-multiarch not installed (apt package "
                    "gdb-multiarch)")
def test_gdb_session_on_core_3_keeps_the_cycle_count(elf, tmp_path):
    plain = tmp_path / "plain.json"
    p = isasim("run", str(elf), "--cores", "8", "--quiet", "--json", str(plain))
    assert p.wait(60) == 0
    debugged = tmp_path / "gdb.json"
    server = isasim("run", str(elf), "--cores", "8", "--quiet", "--json", str(debugged),
                    "--gdb", ":0")
    port = gdb_port(server)
    script = tmp_path / "session.gdb"
    script.write_text(SCRIPT.format(port=port))
    out = subprocess.run([GDB, "-q", "-batch", "-nx", "-x", str(script), str(elf)],
                         capture_output=True, text=True, timeout=60).stdout
    assert server.wait(60) == 0, server.stderr.read()
    # eight threads, one per core
    assert "* 1    Thread 1 (core 0, running, cycle 0)" in out
    assert "8    Thread 8 (core 7" in out
    # the breakpoint in the kernel, on core 3 only (GDB's thread 4)
    assert "Thread 4 hit Breakpoint 1, 0x1c00002c in kernel ()" in out
    assert "$1 = 3\n$2 = 3\n$3 = 0x10000060\n" in out          # a0 and mhartid: core 3
    # core 3's slice of the TCDM array: words 24..31 of 1..64
    assert "0x10000060:\t25\t26\t27\t28\n0x10000070:\t29\t30\t31\t32" in out
    assert "$4 = 0\n$5 = 0x0\n" in out                         # ft0 and fcsr at reset
    # two single steps: slli, add (t1 = 3 * 25)
    assert "$6 = 0x1c000030" in out and "$7 = 75" in out
    # the watchpoint stops at the store; GDB steps over it and shows both values
    assert "Thread 4 hit Hardware watchpoint 2: -location *(int *)$a1" in out
    assert "Old value = 25\nNew value = 78" in out               # 3 * 25 + core 3
    assert "$8 = 0x1c00003c\n$9 = 78" in out
    assert "exited normally" in out
    a, b = json.loads(plain.read_text()), json.loads(debugged.read_text())
    assert b["cycles"] == a["cycles"] and b["instret"] == a["instret"]


# ---- a raw remote-protocol client -----------------------------------------------------------
def packet(body: str) -> bytes:
    raw = body.encode()
    return b"$" + raw + b"#" + b"%02x" % (sum(raw) & 0xFF)


class Client:
    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=20)
        self.buf = b""

    def send(self, body: str) -> None:
        self.sock.sendall(packet(body))

    def reply(self) -> str:
        while True:
            self.buf = self.buf.lstrip(b"+")
            end = self.buf.find(b"#")
            if self.buf.startswith(b"$") and end >= 0 and len(self.buf) >= end + 3:
                body, self.buf = self.buf[1:end], self.buf[end + 3:]
                self.sock.sendall(b"+")
                return body.decode()
            data = self.sock.recv(4096)
            if not data:
                return ""
            self.buf += data

    def ask(self, body: str) -> str:
        self.send(body)
        return self.reply()


SPIN = """    .text
    .globl _start
_start:
    addi t0, t0, 1
    j _start
"""


@pytest.fixture(params=["2000000000"])
def spinner(tmp_path, request):
    """Two cores counting in t0 forever, served to a raw client (``--max-cycles`` from the
    parameter)."""
    src = tmp_path / "spin.s"
    src.write_text(SPIN)
    server = isasim("run", str(src), "--cores", "2", "--quiet", "--gdb", "localhost:0",
                    "--max-cycles", request.param)
    yield server, Client(gdb_port(server))
    server.kill()
    server.wait()


def test_ctrl_c_interrupts_a_running_target_and_kill_ends_it(spinner):
    server, c = spinner
    assert c.ask("?").startswith("T05")
    assert "qXfer:features:read+" in c.ask("qSupported:multiprocess+")
    c.send("vCont;c")
    time.sleep(0.3)
    c.sock.sendall(b"\x03")
    assert c.reply().startswith("T02thread:")
    t0 = int.from_bytes(bytes.fromhex(c.ask("p5")), "little")
    assert t0 > 0                                       # core 0 looped
    c.send("k")
    assert server.wait(20) == 137
    assert "killed by the debugger" in server.stderr.read()


@pytest.mark.parametrize("spinner", ["100000"], indirect=True)
def test_registers_memory_and_detach(spinner):
    server, c = spinner
    xml, part = "", "m"
    while part.startswith("m"):
        part = c.ask(f"qXfer:features:read:target.xml:{len(xml):x},800")
        xml += part[1:]
    assert xml.startswith("<?xml") and xml.endswith("</target>")
    assert "org.gnu.gdb.riscv.fpu" in xml and 'name="mstatus"' in xml
    assert c.ask("Hg2") == "OK"
    assert c.ask("p20") == "0000001c"                     # pc (register 32): _start
    assert c.ask(f"p{65 + 0xF14:x}") == "01000000"        # mhartid of core 1
    assert c.ask("P5=2a000000") == "OK" and c.ask("p5") == "2a000000"
    assert c.ask("m10000000,4") == "00000000"
    assert c.ask("M10000000,4:efbeadde") == "OK" and c.ask("m10000000,4") == "efbeadde"
    assert c.ask("m0,4").startswith("E")                  # no memory there
    assert c.ask("qfThreadInfo") == "m1,2" and c.ask("qsThreadInfo") == "l"
    assert c.ask("mzz,4") == "E00" and c.ask("Hg9") == "E01"    # malformed, no such thread
    assert c.ask("Z1,1c000000,2") == "OK"                 # a hardware breakpoint at _start
    assert c.ask("vCont;c") in ("T05thread:1;hwbreak:;", "T05thread:2;hwbreak:;")
    assert c.ask("z1,1c000000,2") == "OK"
    assert c.ask("Hg2") == "OK"
    assert c.ask("vCont;s:2").startswith("T05thread:2;")
    assert int.from_bytes(bytes.fromhex(c.ask("p5")), "little") >= 43
    # monitor lockstep on: one step advances every core by one instruction
    def instructions() -> list[int]:
        text = bytes.fromhex(c.ask("qRcmd," + b"cycles".hex())[1:]).decode()
        assert c.reply() == "OK"
        return [int(line.split(", ")[1].split()[0]) for line in text.splitlines()]

    before = instructions()
    assert c.ask("qRcmd," + b"step 3".hex()).startswith("O")     # core 1 (Hg2): 3 steps
    assert c.reply() == "OK"
    after = instructions()
    assert after[1] == before[1] + 3 and after[0] >= before[0]   # core 0 runs the same cycles
    before = after
    assert c.ask("qRcmd," + b"lockstep on".hex()).startswith("O")
    assert c.reply() == "OK"
    assert c.ask("vCont;s:1").startswith("T05thread:1;")
    assert instructions() == [n + 1 for n in before]
    c.send("D")
    assert c.reply() == "OK"
    # detached: the run goes on without GDB, to its cycle limit (the spin never ends)
    assert server.wait(60) == 3


def test_gdb_serves_localhost_only(tmp_path, capsys):
    from isasim.cli import main

    src = tmp_path / "spin.s"
    src.write_text(SPIN)
    assert main(["run", str(src), "--gdb", "0.0.0.0:3333"]) == 2
    assert "localhost only" in capsys.readouterr().err
    assert main(["run", str(src), "--gdb", ":notaport"]) == 2
    assert main(["run", str(src), "--gdb", ":0", "--log-commits", "x.log"]) == 2
    assert "cannot be combined" in capsys.readouterr().err


# core 1 exits with 5 by the simulated device's exit register, core 0 later with 0 by ecall
# (both halt in the loop): GDB is told the run's code, the first non-zero one
EXITS = """    .text
    .globl _start
_start:
    csrr t0, mhartid
    andi t0, t0, 31
    beqz t0, 1f
    li t0, 0x1a110004        # the simulator device: exit
    li t1, 5
    sw t1, 0(t0)
1:  li t1, 50
2:  addi t1, t1, -1
    bnez t1, 2b
    li a7, 93
    li a0, 0
    ecall
"""


def test_exit_code_reaches_gdb(tmp_path):
    src = tmp_path / "exits.s"
    src.write_text(EXITS)
    server = isasim("run", str(src), "--cores", "2", "--quiet", "--gdb", "localhost:0")
    try:
        c = Client(gdb_port(server))
        assert c.ask("vCont;c") == "W05"
        c.sock.close()
        assert server.wait(20) == 5
    finally:
        server.kill()
        server.wait()
