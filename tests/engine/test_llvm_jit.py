"""The translation cache (``isasim.llvm_jit``): object code kept by content, bounded on disk."""

from __future__ import annotations

import os

from isasim import llvm_jit

IR = """
define i64 @twice(i64 %x) {
  %y = shl i64 %x, 1
  ret i64 %y
}
"""


def _call(address: int, x: int) -> int:
    import ctypes

    return ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64)(address)(x)


def test_object_code_is_kept_and_loaded_by_content(tmp_path, monkeypatch) -> None:
    (address,) = llvm_jit.load(IR, ["twice"], tmp_path)
    assert _call(address, 21) == 42
    objects = list(tmp_path.glob("*.o"))
    assert len(objects) == 1
    # a new process: the object comes from the directory, not from LLVM
    monkeypatch.setattr(llvm_jit, "_LOADED", {})
    monkeypatch.setattr(llvm_jit, "compile_ir", lambda text: (_ for _ in ()).throw(
        AssertionError("compiled again")))
    (again,) = llvm_jit.load(IR, ["twice"], tmp_path)
    assert _call(again, -5) == -10
    # other IR is another entry
    monkeypatch.undo()
    monkeypatch.setattr(llvm_jit, "_LOADED", {})
    llvm_jit.load(IR.replace("shl i64 %x, 1", "shl i64 %x, 2"), ["twice"], tmp_path)
    assert len(list(tmp_path.glob("*.o"))) == 2


def test_eviction_keeps_the_most_recently_used(tmp_path) -> None:
    for i in range(10):
        p = tmp_path / f"f{i}.o"
        p.write_bytes(b"x" * 1000)
        os.utime(p, (1000 + i, 1000 + i))
    llvm_jit.evict(tmp_path, 10_000)          # at the bound: nothing goes
    assert len(list(tmp_path.iterdir())) == 10
    llvm_jit.evict(tmp_path, 8_000)           # past it: down to three quarters, oldest first
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"f{i}.o" for i in range(4, 10)]
