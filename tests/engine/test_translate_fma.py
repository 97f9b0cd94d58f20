"""Translated code's fp32 multiply-add fast path (``llvm_emit.fma_fast``) against the loop's
(``semantics.fma_family_fast``), bit for bit: whether it decides, the result, the flags.

Both run on the host's float64 arithmetic; the IR must do the same operations in the same
order.  The operands cover every class (zeros of both signs, subnormals, infinities, NaNs, the
normal range's ends) and random normals whose products and sums land near overflow, near the
smallest normal, on exact zeros (x * y = -z) and on ties of the binary32 rounding.
"""

from __future__ import annotations

import ctypes
import struct

import numpy as np
import pytest
from llvmlite import ir
from numba import njit

from isasim import llvm_emit, llvm_jit
from isasim import opcodes as O
from isasim.semantics import fma_family_fast

OPS = range(O.OP_FMADD_S, O.OP_FMUL_S + 1)
I64 = ir.IntType(64)


@njit(cache=True)
def _reference(op, a, b, c, out):
    for i in range(a.size):
        ok, v, fl = fma_family_fast(op, a[i], b[i], c[i])
        out[3 * i] = 1 if ok else 0
        out[3 * i + 1] = v
        out[3 * i + 2] = fl


def _batch_ir() -> str:
    """``batch<op>(a, b, c, out, n)``: ``fma_fast`` on n operand triples, (decided, result,
    flags) per triple into out."""
    module = ir.Module(name="fma_fast_test")
    p = I64.as_pointer()
    for op in OPS:
        fn = ir.Function(module, ir.FunctionType(ir.VoidType(), [p, p, p, p, I64]), f"batch{op}")
        a, b_, c, out, n = fn.args
        b = ir.IRBuilder(fn.append_basic_block("entry"))
        head, body, done = (fn.append_basic_block(x) for x in ("head", "body", "done"))
        entry = b.block
        b.branch(head)
        b.position_at_end(head)
        i = b.phi(I64)
        i.add_incoming(ir.Constant(I64, 0), entry)
        b.cbranch(b.icmp_signed("<", i, n), body, done)
        b.position_at_end(body)
        x, y, z = (b.load(b.gep(arr, [i])) for arr in (a, b_, c))
        ok, bits, flags = llvm_emit.fma_fast(b, op, x, y, z)
        base = b.mul(i, ir.Constant(I64, 3))
        for k, v in enumerate((b.zext(ok, I64), bits, flags)):
            b.store(v, b.gep(out, [b.add(base, ir.Constant(I64, k))]))
        i.add_incoming(b.add(i, ir.Constant(I64, 1)), body)
        b.branch(head)
        b.position_at_end(done)
        b.ret_void()
    return str(module)


def _bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


def _operands(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(28)
    special = [0, 0x80000000, 1, 0x807FFFFF, 0x00800000, 0x80800000, 0x7F7FFFFF, 0xFF7FFFFF,
               0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0xFFC00001, 0x3F800000,
               0xBF800000, 0x34000000, 0x5F800000, 0x1F800000, 0x20000000, 0x60000000]
    grid = np.array(np.meshgrid(special, special, special)).reshape(3, -1).astype(np.int64)
    rand = rng.integers(0, 1 << 32, size=(3, n), dtype=np.int64)      # every class
    normal = []
    for lo, hi in ((-70, -55), (55, 70), (-10, 10), (-130, -120)):
        # exponents whose products land near the smallest normal, near overflow, in the middle
        v = rng.standard_normal((3, n)) * 2.0 ** rng.integers(lo, hi, size=(3, n))
        normal.append(v.astype(np.float32).view(np.uint32).astype(np.int64))
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    exact = (x.astype(np.float64) * y).astype(np.float32)   # x * y + -(x * y rounded): small
    cancel = np.stack([x.view(np.uint32), y.view(np.uint32),
                       (-exact).view(np.uint32)]).astype(np.int64)
    # a + b where b is half an ulp of a: ties of the binary32 rounding
    a = np.abs(rng.standard_normal(n)).astype(np.float32) + np.float32(1)
    half = (np.spacing(a) / 2).astype(np.float32)
    ties = np.stack([a.view(np.uint32), np.full(n, _bits(1.0)),
                     half.view(np.uint32)]).astype(np.int64)
    # a + (half an ulp of a, less 2**-46 of it): the float64 sum rounds onto the binary32 tie,
    # which only the round-to-odd step resolves (down, to a)
    k = 2.0 ** rng.integers(-60, 60, n)
    step = np.stack([np.float32(2.0 ** -24 * (1 + 2.0 ** -23)) * np.sign(x) * k,
                     np.full(n, np.float32(1 - 2.0 ** -23)),
                     np.sign(x) * (a * k)]).astype(np.float32)
    odd = step.view(np.uint32).astype(np.int64)
    big = np.float32(2.0 ** 127) * (1 + rng.integers(0, 1 << 23, n) / 2.0 ** 23)
    near_max = np.stack([big.astype(np.float32).view(np.uint32), np.full(n, _bits(1.0)),
                         big.astype(np.float32).view(np.uint32)]).astype(np.int64)
    every = np.concatenate([grid, rand, *normal, cancel, ties, odd, near_max], axis=1)
    return every[0].copy(), every[1].copy(), every[2].copy()


@pytest.fixture(scope="module")
def batches(tmp_path_factory):
    names = [f"batch{op}" for op in OPS]
    addresses = llvm_jit.load(_batch_ir(), names, tmp_path_factory.mktemp("tx"))
    proto = ctypes.CFUNCTYPE(None, *[ctypes.c_void_p] * 4, ctypes.c_int64)
    return {op: proto(a) for op, a in zip(OPS, addresses, strict=True)}


@pytest.mark.parametrize("op", OPS)
def test_fast_path_is_fma_family_fast_bit_for_bit(op: int, batches) -> None:
    a, b, c = _operands(20_000)
    want = np.zeros(3 * a.size, dtype=np.int64)
    _reference(op, a, b, c, want)
    got = np.zeros_like(want)
    batches[op](a.ctypes.data, b.ctypes.data, c.ctypes.data, got.ctypes.data, a.size)
    want, got = want.reshape(-1, 3), got.reshape(-1, 3)
    got[got[:, 0] == 0] = 0         # declined: the result and flags are the loop's business
    bad = np.flatnonzero((want != got).any(axis=1))
    assert bad.size == 0, (f"{bad.size} differ, first: operands "
                           f"{a[bad[0]]:#x} {b[bad[0]]:#x} {c[bad[0]]:#x}: "
                           f"{want[bad[0]]} != {got[bad[0]]}")
    # the operands reach every outcome: declined, decided exactly, inexact, exact zero
    decided = want[:, 0] == 1
    assert (~decided).sum() > 1000 and decided.sum() > 10_000
    assert (want[decided, 2] == 0).any() and (want[decided, 2] != 0).any()
    assert ((want[decided, 1] & 0x7FFFFFFF) == 0).any()
