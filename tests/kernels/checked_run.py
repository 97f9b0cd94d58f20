"""Run a catalogue kernel with the checks every kernel test wants, whatever the kernel computes.

``run_checked`` wraps ``asm_kernels.runner.run_kernel`` so that a kernel test cannot pass while
the kernel misbehaves outside the values it is asked about:

* every output array gets guard words after its end; a write past the end fails the test;
* every input array is read back and must be bit-identical (no stray write, no in-place abuse);
* every core must exit normally, and ``RunResult.check_invariant()`` must hold;
* the ilp32f contract: ``sp`` back at the core's stack top and s0-s11 / fs0-fs11 still zero (their
  value at start-up), so a kernel that spills a callee-saved register without restoring it fails.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np

from asm_kernels.runner import run_kernel

GUARD_WORDS = 4
SENTINEL = np.uint32(0x7FA5A5A5)          # a NaN no kernel produces by arithmetic
CALLEE_SAVED = (8, 9, *range(18, 28))     # s0, s1, s2-s11 (and fs0.. at the same numbers)


def run_checked(name: str, args: Mapping[str, object], outputs: Iterable[str], *,
                cores: int, **kw) -> tuple[dict[str, np.ndarray], int]:
    """Run ``name``; return (outputs by name, total cycles) after the common checks."""
    outputs = list(outputs)
    padded = dict(args)
    for o in outputs:
        a = np.ascontiguousarray(args[o])
        padded[o] = np.concatenate([a.reshape(-1).view(np.uint32),
                                    np.full(GUARD_WORDS, SENTINEL, np.uint32)])
    arrays = [f for f, v in args.items() if isinstance(v, np.ndarray)]
    run = run_kernel(name, padded, outputs=arrays, cores=cores, **kw)
    res = run.result
    assert res.status == "exited" and res.exit_code == 0, (name, res.status, res.fault)
    res.check_invariant()
    for c in range(cores):
        assert int(res.x[c, 2]) == run.machine.stack_top(c), f"{name}: core {c} sp not restored"
        assert not res.x[c, list(CALLEE_SAVED)].any(), f"{name}: core {c} clobbered an s register"
        assert not res.f[c, list(CALLEE_SAVED)].any(), f"{name}: core {c} clobbered an fs register"
    out = {}
    for f in arrays:
        got = run.outputs[f]
        ref = np.ascontiguousarray(args[f])
        if f in outputs:
            assert (got[-GUARD_WORDS:] == SENTINEL).all(), f"{name}: wrote past the end of {f}"
            out[f] = got[:-GUARD_WORDS].view(ref.dtype).reshape(ref.shape)
        else:
            assert np.array_equal(got.view(np.uint8), ref.view(np.uint8)), \
                f"{name}: input {f} was modified"
    return out, run.cycles
