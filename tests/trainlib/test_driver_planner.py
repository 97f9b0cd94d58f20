"""Driver programs (calls, barriers, DMA, time stamps) and memory plans."""

from __future__ import annotations

import numpy as np
import pytest

from asm_kernels.catalogue import catalogue
from isasim.config import load_config
from trainlib.driver import (
    Barrier,
    Buffer,
    Call,
    DriverProgram,
    Issue,
    Ref,
    Transfer,
    Wait,
    _assemble,
    run_config,
    run_driver,
)
from trainlib.errors import NotAvailable, PlanError
from trainlib.layers import Conv2D, DepthWise, Linear
from trainlib.lowering import layer_step
from trainlib.planner import measure, plan_step, tcdm_budget
from trainlib.schedule import Tiling, driver_program


def _mm(a, b, c, n, m, k, kernel="mm_naive_n", acc=0):
    return Call(kernel, dict(A=Ref(a), B=Ref(b), C=Ref(c), N=n, M=m, K=k, trans_B=0,
                             accumulate=acc), "mm")


def test_every_kernel_file_in_one_program():
    """No linker: the kernel files are one source, their .L labels and their own macros renamed
    per file (a 16-bit file defines the macros of its fp32 original again), and the macro files
    several of them include are read once (guarded).  One program per register-file model
    (catalogue isa): the f-register kernels and the single-register-file ones."""
    for regfile, isa in (("f", "xpulpv2"), ("x", "rv32imc_zfinx_xpulpv2_xf16_xf16alt_xfvec")):
        kernels = [k for k in catalogue().values() if k.regfile == regfile]
        program = _assemble("    .text\n", tuple(sorted({k.file for k in kernels})), isa)
        for k in kernels:
            assert program.symbols[k.entry].binding == "global"


def test_two_d_dma_moves_a_column_block_and_back():
    """A 2-D transfer takes a column block out of an L2 matrix and puts it back elsewhere."""
    rows, cols, lo, n = 6, 10, 3, 4
    src = np.arange(rows * cols, dtype=np.float32)
    bufs = [Buffer("m", rows * cols, "l2", src), Buffer("blk", rows * n),
            Buffer("out", rows * cols, "l2", np.zeros(rows * cols, np.float32), output=True)]
    col = dict(line_bytes=4 * n, lines=rows, stride_bytes=4 * cols)
    items = [Issue([Transfer(Ref("blk"), Ref("m", lo), **col)]), Wait(), Barrier("dma"),
             Issue([Transfer(Ref("blk"), Ref("out", lo), to_tcdm=False, **col)]), Wait(),
             Barrier("dma")]
    run = run_driver(DriverProgram(bufs, items, "dma"))
    out = run.outputs["out"].reshape(rows, cols)
    ref = np.zeros((rows, cols), np.float32)
    ref[:, lo:lo + n] = src.reshape(rows, cols)[:, lo:lo + n]
    assert np.array_equal(out, ref)
    assert run.phases["dma"] > 0


def test_calls_run_in_order_with_barriers_and_stamps():
    """The second call reads what the first wrote on other cores: barriers order them."""
    n, k = 16, 3
    a = np.ones((n, k), np.float32)
    b = np.full((k, 1), 2.0, np.float32)
    bufs = [Buffer("a", n * k, init=a), Buffer("b", k, init=b), Buffer("c", n),
            Buffer("one", 1, init=np.ones(1, np.float32)),
            Buffer("d", n, output=True)]
    # c = a b (rows over cores); d = c (columns over cores: each core reads other cores' rows)
    items = [_mm("a", "b", "c", n, 1, k), Call("mm_naive_m", dict(
        A=Ref("one"), B=Ref("c"), C=Ref("d"), N=1, M=n, K=1, trans_B=0, accumulate=0), "copy")]
    run = run_driver(DriverProgram(bufs, items, "order"))
    assert np.array_equal(run.outputs["d"], np.full(n, 6.0, np.float32))
    assert set(run.phases) == {"mm", "copy"}
    assert sum(run.phases.values()) <= run.cycles


def test_missing_kernel_and_refused_arguments():
    bufs = [Buffer("a", 4)]
    with pytest.raises(NotAvailable, match="not in the asm_kernels catalogue"):
        run_driver(DriverProgram(bufs, [Call("no_such_kernel", {}, "x")], "t"))
    with pytest.raises(NotAvailable, match="constraint"):
        run_driver(DriverProgram(bufs, [_mm("a", "a", "a", 0, 1, 1)], "t"))


CONV = Conv2D("conv", in_channels=4, out_channels=6, kernel=(3, 3), padding=(1, 1))


def test_plan_bytes_are_what_the_driver_places():
    cfg = run_config("pulp-open", 8)
    spec = layer_step(CONV, (4, 8, 8), "fw")
    for tiling in (Tiling("tcdm", 6), Tiling("l2", 4, True), Tiling("l2", 6)):
        tcdm, l2 = measure(spec, tiling)
        run = run_driver(driver_program(spec, tiling), config=cfg)
        placed = [a for a in run.addresses.values() if a < cfg.l2_base]
        assert tcdm >= max(placed) - cfg.tcdm_base
        assert tcdm <= tcdm_budget(cfg)


def test_planner_picks_one_tile_when_it_fits_and_tiles_otherwise():
    cfg = run_config("pulp-open", 8)
    small = layer_step(CONV, (4, 8, 8), "fw")
    p = plan_step(small, "l2", cfg)
    assert p.tiles == 1
    big = layer_step(Linear("fc", in_features=1600, out_features=12), (1600,), "fw")
    p = plan_step(big, "l2", cfg)
    assert p.tiles > 1 and p.tiling.double_buffer and p.tcdm_bytes <= p.budget
    with pytest.raises(PlanError, match=r"layer fc fw: needs \d+ bytes of TCDM, 61440 "
                                        r"available \(\d+ bytes short\)"):
        plan_step(big, "tcdm", cfg)


def test_plan_refuses_what_cannot_fit_even_tiled_saying_by_how_much():
    cfg = run_config("pulp-open", 8)
    dw = DepthWise("dwbig", channels=2, kernel=(5, 5), padding=(2, 2))
    spec = layer_step(dw, (2, 48, 48), "fw")
    with pytest.raises(PlanError, match=r"layer dwbig fw: does not fit even tiled: one C at a "
                                        r"time needs (\d+) bytes of TCDM, 61440 available "
                                        r"\((\d+) bytes short\)"):
        plan_step(spec, "l2", cfg)
    with pytest.raises(PlanError, match="tile C=3 outside 1..2"):
        plan_step(spec, "l2", cfg, tile=3)


def test_smaller_tcdm_forces_more_tiles():
    spec = layer_step(Linear("fc", in_features=1600, out_features=12), (1600,), "fw")
    full = plan_step(spec, "l2", run_config("pulp-open", 8))
    cfg = load_config("pulp-open").replace(tcdm_size=32 * 1024, cores=8, stack_size=512)
    half = plan_step(spec, "l2", cfg)
    assert half.tiles > full.tiles and half.tcdm_bytes <= half.budget < full.budget
