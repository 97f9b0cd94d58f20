"""Calls from the guest to the host: newlib-style ecall, RISC-V semihosting, Spike's HTIF.

Each handler reads its arguments from the calling core's registers and memory through the
machine and returns what the call returns; printing goes to the machine's output.
"""

from __future__ import annotations

import struct

from isasim.layout import SYS_EXIT

# newlib / Linux-style system call numbers (a7; SYS_EXIT = 93 is served in the loop)
SYS_WRITE = 64
ENOSYS = 38

# RISC-V semihosting operations (a0), as in the Arm semihosting specification
SH_OPEN, SH_CLOSE, SH_WRITEC, SH_WRITE0, SH_WRITE = 0x01, 0x02, 0x03, 0x04, 0x05
SH_READ, SH_ISTTY, SH_SEEK, SH_FLEN = 0x06, 0x09, 0x0A, 0x0C
SH_ERRNO, SH_CLOCK, SH_TIME, SH_GET_CMDLINE = 0x13, 0x10, 0x11, 0x15
SH_EXIT, SH_EXIT_EXTENDED = 0x18, 0x20
ADP_STOPPED_APPLICATION_EXIT = 0x20026
TT_HANDLE = 1        # handle returned for ":tt" (the console)
# The specification's feature file: a guest (picolibc's _exit) reads it to learn that
# SYS_EXIT_EXTENDED exists, and only then passes a non-zero exit code through it.
FEATURES_NAME = ":semihosting-features"
FEATURES_HANDLE = 2
FEATURES = b"SHFB\x01"      # magic, then feature byte 0: bit 0 = SH_EXT_EXIT_EXTENDED
CMDLINE = b"program"       # SYS_GET_CMDLINE: argv[0] for crt0s that build argv from it


class HostCalls:
    def __init__(self, machine) -> None:
        self.m = machine
        self.features_pos = 0       # read position in the feature file

    # ---- ecall (no trap handler installed) ---------------------------------------------------
    def ecall(self, core: int) -> None:
        m = self.m
        num = m.xreg(core, 17)
        a0, a1, a2 = m.xreg(core, 10), m.xreg(core, 11), m.xreg(core, 12)
        if num == SYS_WRITE:
            if a0 in (1, 2):
                m.emit(m.read_bytes(a1, a2))
                m.set_xreg(core, 10, a2)
            else:
                m.set_xreg(core, 10, -9 & 0xFFFFFFFF)     # EBADF
        else:
            m.warn(f"core {core}: unsupported ecall {num} (a7); returned -ENOSYS")
            m.set_xreg(core, 10, -ENOSYS & 0xFFFFFFFF)

    # ---- semihosting (slli x0,x0,0x1f; ebreak; srai x0,x0,7) ----------------------------------
    def semihost(self, core: int) -> None:
        m = self.m
        op, arg = m.xreg(core, 10), m.xreg(core, 11)
        ret = 0
        if op == SH_WRITEC:
            m.emit(m.read_bytes(arg, 1))
        elif op == SH_WRITE0:
            m.emit(m.read_cstring(arg))
        elif op == SH_WRITE:
            handle, buf, length = struct.unpack("<3I", m.read_bytes(arg, 12))
            m.emit(m.read_bytes(buf, length))
            ret = 0                      # bytes NOT written
        elif op == SH_OPEN:
            name_ptr, _mode, length = struct.unpack("<3I", m.read_bytes(arg, 12))
            name = m.read_bytes(name_ptr, length).decode(errors="replace")
            ret = {":tt": TT_HANDLE, FEATURES_NAME: FEATURES_HANDLE}.get(name, 0xFFFFFFFF)
            if ret == FEATURES_HANDLE:
                self.features_pos = 0
        elif op == SH_READ:
            handle, buf, length = struct.unpack("<3I", m.read_bytes(arg, 12))
            data = b""
            if handle == FEATURES_HANDLE:
                data = FEATURES[self.features_pos:self.features_pos + length]
                self.features_pos += len(data)
                m.write_bytes(buf, data)
            ret = length - len(data)         # bytes NOT read (all of them: end of file)
        elif op == SH_SEEK:
            handle, pos = struct.unpack("<2I", m.read_bytes(arg, 8))
            if handle == FEATURES_HANDLE:
                self.features_pos = pos
            ret = 0 if handle == FEATURES_HANDLE else 0xFFFFFFFF
        elif op == SH_FLEN:
            (handle,) = struct.unpack("<I", m.read_bytes(arg, 4))
            ret = len(FEATURES) if handle == FEATURES_HANDLE else 0xFFFFFFFF
        elif op == SH_GET_CMDLINE:
            buf, size = struct.unpack("<2I", m.read_bytes(arg, 8))
            if size > len(CMDLINE):
                m.write_bytes(buf, CMDLINE + b"\0")
                m.write_bytes(arg + 4, struct.pack("<I", len(CMDLINE)))
            ret = 0 if size > len(CMDLINE) else 0xFFFFFFFF
        elif op in (SH_CLOSE, SH_ERRNO):
            ret = 0
        elif op == SH_ISTTY:
            ret = 1
        elif op in (SH_CLOCK, SH_TIME):
            ret = int(m.CS_cycle(core) // 10_000) if op == SH_CLOCK else 0
        elif op == SH_EXIT:
            m.core_exit(core, 0 if arg == ADP_STOPPED_APPLICATION_EXIT else 1)
        elif op == SH_EXIT_EXTENDED:
            reason, code = struct.unpack("<2I", m.read_bytes(arg, 8))
            m.core_exit(core, code if reason == ADP_STOPPED_APPLICATION_EXIT else (code or 1))
        else:
            m.warn(f"core {core}: unsupported semihosting call {op:#x}; returned -1")
            ret = 0xFFFFFFFF
        m.set_xreg(core, 10, ret)

    # ---- HTIF tohost / fromhost (Spike) --------------------------------------------------------
    def tohost(self, core: int, written: int) -> bool:
        """Act on a write to ``tohost``; True when the whole run must end (exit)."""
        m = self.m
        th = m.tohost
        if written == th and m.next_store_hits(core, th + 4):
            return False                 # a 64-bit store in two halves: wait for the high word
        value = int.from_bytes(m.read_bytes(th, 8), "little")
        if value == 0:
            return False
        device, cmd, payload = value >> 56, (value >> 48) & 0xFF, value & 0xFFFF_FFFF_FFFF
        m.write_bytes(th, bytes(8))
        if device == 0 and payload & 1:
            m.run_exit(core, (payload >> 1) & 0xFFFFFFFF)
            return True
        if device == 0 and cmd == 0:
            return self._htif_syscall(core, payload)
        if device == 1 and cmd == 1:
            m.emit(bytes([payload & 0xFF]))
            return False
        m.warn(f"core {core}: unknown HTIF request {value:#x}")
        return False

    def _htif_syscall(self, core: int, ptr: int) -> bool:
        m = self.m
        which, a0, a1, a2 = struct.unpack("<4Q", m.read_bytes(ptr, 32))
        ret = 0
        if which == SYS_WRITE:
            m.emit(m.read_bytes(a1, a2))
            ret = a2
        elif which == SYS_EXIT:
            m.run_exit(core, a0 & 0xFFFFFFFF)
            return True
        else:
            ret = -ENOSYS & 0xFFFF_FFFF_FFFF_FFFF
        m.write_bytes(ptr, struct.pack("<Q", ret))
        if m.fromhost is not None:
            m.write_bytes(m.fromhost, struct.pack("<Q", 1))
        return False
