"""Guest memory: one byte array holding every region, and address translation for the loop.

Regions (TCDM, L2, and plain RAM for ELF segments outside the PULP map, such as the standard
test suites' 0x80000000) are laid out back to back in one numpy byte array, word aligned, so the
compiled loop reads words through a uint32 view with one region lookup.  Device windows have no
backing bytes (offset -1); accesses to them go to the device code.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from isasim import layout as L
from isasim.jitcache import compiled
from isasim.layout import U


class NotInRam(KeyError):
    """A guest address range that no RAM backs (a KeyError, so lookups can treat it as one)."""

    def __str__(self) -> str:
        return str(self.args[0])


@dataclass(frozen=True)
class Region:
    name: str
    base: int
    size: int
    kind: int          # layout.RK_*
    offset: int = -1   # into the byte array; -1 for device windows


class MemoryMap:
    """The regions of one machine and the bytes behind them."""

    def __init__(self, regions: list[tuple[str, int, int, int]]):
        placed: list[Region] = []
        offset = 0
        for name, base, size, kind in sorted(regions, key=lambda r: r[1]):
            if kind == L.RK_PERIPH:
                placed.append(Region(name, base, size, kind))
                continue
            size = (size + 3) & ~3
            placed.append(Region(name, base, size, kind, offset))
            offset += size
        for a, b in zip(placed, placed[1:], strict=False):
            if a.base + a.size > b.base:
                raise ValueError(f"memory regions {a.name} and {b.name} overlap")
        # TCDM first: the loop checks regions in table order and TCDM is the hot one
        self.regions = sorted(placed, key=lambda r: (r.kind != L.RK_TCDM, r.base))
        self.mem8 = np.zeros(offset + 8, dtype=np.uint8)
        self.mem16 = self.mem8.view(np.uint16)
        self.mem32 = self.mem8.view(np.uint32)

    def table(self) -> np.ndarray:
        t = np.zeros(len(self.regions) * L.RGW, dtype=np.int64)
        for i, r in enumerate(self.regions):
            t[i * L.RGW + L.RG_BASE] = r.base
            t[i * L.RGW + L.RG_SIZE] = r.size
            t[i * L.RGW + L.RG_OFF] = r.offset
            t[i * L.RGW + L.RG_KIND] = r.kind
        return t

    def region_of(self, addr: int, size: int = 1) -> Region | None:
        for r in self.regions:
            if r.base <= addr and addr + size <= r.base + r.size:
                return r
        return None

    def offset_of(self, addr: int, size: int = 1) -> int:
        """Byte offset of ``addr`` in the array; NotInRam if it is not backed by RAM."""
        r = self.region_of(addr, size)
        if r is None or r.offset < 0:
            raise NotInRam(f"address {addr:#010x} (+{size}) is not in guest RAM")
        return r.offset + addr - r.base

    def read(self, addr: int, size: int) -> bytes:
        o = self.offset_of(addr, size)
        return self.mem8[o:o + size].tobytes()

    def write(self, addr: int, data: bytes) -> None:
        o = self.offset_of(addr, len(data))
        self.mem8[o:o + len(data)] = np.frombuffer(data, dtype=np.uint8)


@compiled(inline=True)
def translate(regions, addr, size):
    """(byte offset or -1, region kind or -1) for an access of ``size`` bytes at ``addr``."""
    n = regions.size // L.RGW
    for i in range(n):
        d = addr - regions[U(i * L.RGW + L.RG_BASE)]
        if 0 <= d and d + size <= regions[U(i * L.RGW + L.RG_SIZE)]:
            kind = regions[U(i * L.RGW + L.RG_KIND)]
            if kind == L.RK_PERIPH:
                return d, kind
            return regions[U(i * L.RGW + L.RG_OFF)] + d, kind
    return -1, -1


@compiled(inline=True)
def load(mem8, mem16, mem32, off, lsz, signed):
    """Load 1 << lsz bytes at byte offset ``off`` as a 32-bit pattern (misaligned allowed)."""
    if lsz == 2:
        if off & 3 == 0:
            return np.int64(mem32[U(off >> 2)])
        return (np.int64(mem8[U(off)]) | np.int64(mem8[U(off + 1)]) << 8
                | np.int64(mem8[U(off + 2)]) << 16 | np.int64(mem8[U(off + 3)]) << 24)
    if lsz == 1:
        if off & 1 == 0:
            v = np.int64(mem16[U(off >> 1)])
        else:
            v = np.int64(mem8[U(off)]) | np.int64(mem8[U(off + 1)]) << 8
        if (signed and v & 0x8000) or signed & L.MEM_NANBOX:
            v |= 0xFFFF0000
        return v
    v = np.int64(mem8[U(off)])
    if signed and v & 0x80:
        v |= 0xFFFFFF00
    return v


@compiled(inline=True)
def store(mem8, mem16, mem32, off, lsz, value):
    if lsz == 2:
        if off & 3 == 0:
            mem32[U(off >> 2)] = value & 0xFFFFFFFF
        else:
            for i in range(4):
                mem8[U(off + i)] = (value >> (8 * i)) & 0xFF
    elif lsz == 1:
        if off & 1 == 0:
            mem16[U(off >> 1)] = value & 0xFFFF
        else:
            mem8[U(off)] = value & 0xFF
            mem8[U(off + 1)] = (value >> 8) & 0xFF
    else:
        mem8[U(off)] = value & 0xFF
