"""Memory-mapped devices reached from the compiled loop.

``device_access`` is called by the loop for every load or store that lands in a device window.
It returns ``(value, status, extra_cycles)``; status 0 means done, ``DEV_FAULT`` an access the
device refuses (the loop reports it with the address), ``DEV_OUT_FULL`` asks the loop to hand
the output buffer to Python.  The simulator device lives at ``simdev_base``:

* ``+0x0`` putchar: a store writes its low byte to the program's output;
* ``+0x4`` exit: a store stops the storing core with that exit code (a load returns 0).
"""

from __future__ import annotations

from numba import njit

from isasim import layout as L

DEV_OK, DEV_FAULT, DEV_OUT_FULL, DEV_HALT = 0, 1, 2, 3
SIMDEV_PUTCHAR = 0x0
SIMDEV_EXIT = 0x4
SIMDEV_SIZE = 0x10


@njit(cache=True)
def simdev_access(c, off, is_store, value, CS, CL, OUT):
    if off == SIMDEV_PUTCHAR:
        if is_store:
            n = CL[L.L_NOUT]
            OUT[n] = value & 0xFF
            CL[L.L_NOUT] = n + 1
            if n + 1 >= OUT.size - 1:
                return 0, DEV_OUT_FULL
        return 0, DEV_OK
    if off == SIMDEV_EXIT:
        if is_store:
            CS[c * L.NCS + L.CS_EXIT] = value & 0xFFFFFFFF
            return 0, DEV_HALT
        return 0, DEV_OK
    return 0, DEV_FAULT


@njit(cache=True)
def device_access(c, addr, is_store, value, CFG, CS, CL, OUT):
    """Dispatch a device access by address; see the module docstring for the result."""
    d = addr - CFG[L.K_SIMDEV]
    if 0 <= d < SIMDEV_SIZE:
        return simdev_access(c, d, is_store, value, CS, CL, OUT)
    return 0, DEV_FAULT
