"""Compiling translated code (``isasim.llvm_emit``'s IR) and keeping its object code on disk.

Each program's IR is optimised and compiled to an object file by LLVM (llvmlite), which is then
loaded into an MCJIT engine of its own (so that the runs' names need not differ between
programs).  Object files are kept in the translation cache directory under a hash of the IR
text and of what else decides the machine code (LLVM's version, the host CPU and its features,
the optimisation level, this file): a program seen before costs its IR's writing and a load.
The directory is bounded (``cache_limit``): past the bound the least recently used files go.
"""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path

import llvmlite
import llvmlite.binding as llvm

from isasim import translate as TX

# -O1 halves LLVM's time against -O2 and -O3 on the ISA test programs and runs the bench
# kernels as fast (measured by bench/engine.py; docs/engine.md has the figures)
OPT = 1
CACHE_MB = 256          # the default bound of the cache directory ($ISASIM_TRANSLATE_CACHE_MB)

# IR hash -> its engine and object (kept: the code lives in them)
_ENGINES: dict[str, tuple] = {}
_LOADED: dict[str, list[int]] = {}


def _new_target():
    """A target machine for the host (an MCJIT engine owns the one it is given)."""
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    target = llvm.Target.from_triple(llvm.get_process_triple())
    return target.create_target_machine(cpu=llvm.get_host_cpu_name(),
                                        features=llvm.get_host_cpu_features().flatten(),
                                        opt=OPT, codemodel="jitdefault", jit=True)


@functools.cache
def _target():
    """The target machine compiling translated code, with the helpers' addresses made known to
    the loader."""
    for name, address in TX.helper_addresses().items():
        llvm.add_symbol(name, address)
    return _new_target()


@functools.cache
def _stamp() -> bytes:
    machine = _target()
    return "|".join([llvmlite.__version__, str(llvm.llvm_version_info), machine.triple,
                     llvm.get_host_cpu_name(), llvm.get_host_cpu_features().flatten(), str(OPT),
                     hashlib.sha256(Path(__file__).read_bytes()).hexdigest()]).encode()


def compile_ir(text: str) -> bytes:
    """The object code of IR ``text``."""
    machine = _target()
    module = llvm.parse_assembly(text)
    module.triple = machine.triple
    module.data_layout = str(machine.target_data)
    tuning = llvm.create_pipeline_tuning_options(speed_level=OPT)
    builder = llvm.create_pass_builder(machine, tuning)
    passes = builder.getModulePassManager()
    passes.run(module, builder)
    # the pass builder's analyses refer to the module: they go first (else LLVM aborts when
    # the module is freed before them)
    passes.close()
    builder.close()
    obj = machine.emit_object(module)
    module.close()
    return obj


def cache_limit() -> int:
    """Bytes the cache directory may hold (``$ISASIM_TRANSLATE_CACHE_MB``, default 256 MB)."""
    return int(float(os.environ.get("ISASIM_TRANSLATE_CACHE_MB", CACHE_MB)) * 2**20)


def evict(directory: Path, limit: int) -> None:
    """Remove the least recently used files until the directory holds at most ``limit``
    bytes (three quarters of it, so that eviction is not run at every new program)."""
    files = []
    for p in directory.iterdir():
        try:
            st = p.stat()
        except OSError:
            continue
        files.append((st.st_mtime, st.st_size, p))
    total = sum(size for _, size, _ in files)
    if total <= limit:
        return
    for _, size, p in sorted(files):
        if total <= limit * 3 // 4:
            break
        try:
            p.unlink()
            total -= size
        except OSError:
            pass


def _object(text: str, key: str, directory: Path) -> bytes:
    path = directory / f"{key}.o"
    try:
        obj = path.read_bytes()
        os.utime(path)        # recently used
        return obj
    except OSError:
        pass
    obj = compile_ir(text)
    try:
        directory.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(obj)
        tmp.replace(path)
        evict(directory, cache_limit())
    except OSError:
        pass        # a read-only cache: the code is used from memory
    return obj


def load(text: str, names: list[str], directory: Path) -> list[int]:
    """The addresses of functions ``names`` of IR ``text``, compiled or from the cache."""
    h = hashlib.sha256(text.encode())
    h.update(_stamp())
    key = f"tx{h.hexdigest()[:32]}"
    if key not in _LOADED:
        obj = _object(text, key, directory)
        _target()
        engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), _new_target())
        ref = llvm.ObjectFileRef.from_data(obj)
        engine.add_object_file(ref)
        engine.finalize_object()
        _ENGINES[key] = (engine, ref, obj)
        _LOADED[key] = [engine.get_function_address(n) for n in names]
    return _LOADED[key]
