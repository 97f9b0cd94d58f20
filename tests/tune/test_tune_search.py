"""The search on real layers: the tuned choice beats every fixed kernel, a warm rerun runs
nothing, and candidates that hang, crash or compute wrong numbers are reported, never chosen."""

from __future__ import annotations

from concurrent.futures import Future
from functools import partial

import pytest
import tune_fakes

from asm_kernels.catalogue import usable
from trainlib.layers import layer_from_dict
from trainlib.lowering import layer_step
from trainlib.tune.cache import ResultCache
from trainlib.tune.estimate import main_bound
from trainlib.tune.executor import Outcome
from trainlib.tune.layerspec import parse_layer
from trainlib.tune.measure import Job, Measurement, warm_up
from trainlib.tune.pool import LocalPool
from trainlib.tune.search import NONMAIN_JITTER, NONMAIN_SLACK, SearchOptions
from trainlib.tune.tuner import TuneOptions, tune_layer

LAYER = "linear:ci=40,co=12"


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("tune-cache")


def _tune(executor, cache_dir, steps=("fw", "ig"), exhaustive=False, **kw):
    layer, shape = parse_layer(LAYER)
    opts = TuneOptions(search=SearchOptions(exhaustive=exhaustive))
    return tune_layer(layer, shape, opts, steps, executor=executor,
                      cache=ResultCache(cache_dir), **kw)


def test_tuned_choice_beats_every_fixed_kernel(pool, cache_dir):
    pruned = _tune(pool, cache_dir)
    full = _tune(pool, cache_dir, exhaustive=True)     # the pruned run's results are reused
    for f, p in zip(full.steps, pruned.steps, strict=True):
        ref = f.search.reference
        fixed = [c for c in f.search.candidates if c.option == ref]
        assert len(fixed) == len(f.search.specs) >= 28
        assert all(c.result is not None and c.result.ok for c in fixed)
        w = p.winner
        assert w is not None and w.result is not None and w.result.ok
        assert w.cycles <= min(c.cycles for c in fixed), "tuned must beat every fixed kernel"
        helpers = [c.result.nonmain_cycles for c in fixed]     # the bound's helper-call part
        assert NONMAIN_SLACK * max(helpers) - NONMAIN_JITTER <= min(helpers)
        assert p.speedup >= 1.0 and p.default is not None and p.default.kernel in (
            "mm_naive_n", "mm_naive_m")
        statuses = {c.status for c in p.search.candidates}
        assert "pruned" in statuses, "the bound prunes some kernels"
        assert p.explanation() is not None and p.runner_up is not None
    assert pruned.stats.measured < full.stats.measured + full.stats.cached
    assert full.stats.cached >= pruned.stats.measured // 2


def test_warm_rerun_measures_nothing(pool, tmp_path):
    first = _tune(pool, tmp_path, steps=("ig",))
    again = _tune(pool, tmp_path, steps=("ig",))
    assert again.stats.measured == 0 and again.stats.cached == first.stats.measured
    assert [[c.status for c in s.search.candidates] for s in again.steps] == \
        [[c.status for c in s.search.candidates] for s in first.steps]
    assert [(s.winner.kernel, s.winner.option.tile, s.winner.cycles) for s in again.steps] == \
        [(s.winner.kernel, s.winner.option.tile, s.winner.cycles) for s in first.steps]


def test_hanging_crashing_and_wrong_candidates_are_reported_never_chosen(pool, cache_dir):
    clean = _tune(pool, cache_dir, steps=("fw",), exhaustive=True).steps[0]
    ranked = [c.kernel for c in clean.ranked if c.option == clean.search.reference]
    wrong, hang, crash = ranked[0], ranked[1], ranked[2]
    job = partial(tune_fakes.faulty, wrong=wrong, hang_kernel=hang, crash=crash)
    with LocalPool(2, timeout=3.0, initializer=warm_up) as short:
        bad = _tune(short, None, steps=("fw",), exhaustive=True, job_fn=job).steps[0]
    status = {c.kernel: c.status for c in bad.failures}
    assert status == {wrong: "wrong", hang: "timeout", crash: "crashed"}
    by_kernel = {c.kernel: c for c in bad.failures}
    assert "golden model" in by_kernel[wrong].result.message
    assert "killed after 3 s" in by_kernel[hang].result.message
    assert bad.winner is not None and bad.winner.kernel not in (wrong, hang, crash)
    assert bad.winner.result.ok


class Inline:
    """An executor that runs each job at once in this process (the search logic alone)."""

    capacity = 2

    def submit(self, fn, arg):
        fut = Future()
        fut.set_result(Outcome("done", fn(arg)))
        return fut

    def close(self):
        pass


def synthetic(job: Job) -> dict:
    """A made-up but consistent result: kernels differ in speed, tilings in overhead."""
    layer = layer_from_dict(dict(job.layer), 0)
    spec = layer_step(layer, job.in_shape, job.step, job.kernel)
    n = job.tile or spec.extent
    spans = [(lo, min(lo + n, spec.extent)) for lo in range(0, spec.extent, n)]
    main = int(main_bound(spec, spans, job.cores) * (1.2 + 0.05 * (len(job.kernel) % 7)))
    main += 300 * len(spans)
    return Measurement("ok", cycles=main + 500, macs=spec.macs, main_cycles=main,
                       phases={"mm": main, "dma": 500}, core_cycles=[main + 500]).to_dict()


def test_search_logic_prunes_explores_and_replays_from_the_cache(tmp_path):
    layer, shape = parse_layer("pw:ci=16,co=40,h=6,w=6")
    opts = TuneOptions(search=SearchOptions(top_kernels=2, tilings=3, explore=10.0))
    cold = tune_layer(layer, shape, opts, ("fw", "wg"), executor=Inline(),
                      cache=ResultCache(tmp_path), job_fn=synthetic)
    warm = tune_layer(layer, shape, opts, ("fw", "wg"), executor=Inline(),
                      cache=ResultCache(tmp_path), job_fn=synthetic)
    assert warm.stats.measured == 0 and warm.stats.cached == cold.stats.measured
    for c, w in zip(cold.steps, warm.steps, strict=True):
        ref = c.search.reference
        assert [x.status for x in c.search.candidates] == [x.status for x in w.search.candidates]
        assert (c.winner.kernel, c.winner.option) == (w.winner.kernel, w.winner.option)
        best = c.winner.cycles
        ran = [x for x in c.search.candidates if x.result is not None]
        assert c.winner.cycles == min(x.cycles for x in ran)
        for x in c.search.candidates:
            if x.status == "pruned":
                assert x.bound >= best and synthetic(c.search.job(x))["cycles"] >= best
        phase2 = [x for x in c.search.candidates if x.option != ref]
        assert phase2 and len({x.kernel for x in phase2}) <= 2
        assert all(x.status in ("ok", "pruned") for x in phase2)


def test_tunes_under_the_single_register_file_of_gvsoc_2022(pool, tmp_path):
    """gvsoc-2022's cores keep FP values in the x registers: every candidate, the default and
    the winner are kernels written for that register file, and every kernel the measured
    programs contain is one (the cache key hashes those files)."""
    layer, shape = parse_layer(LAYER)
    opts = TuneOptions(config="gvsoc-2022", search=SearchOptions())
    (st,) = tune_layer(layer, shape, opts, ("fw",), executor=pool,
                       cache=ResultCache(tmp_path)).steps
    isa = opts.cluster().xpulp
    assert "zfinx" in isa
    cands = {c.kernel for c in st.search.candidates}
    assert len(st.search.specs) >= 20 and cands <= set(st.search.specs)
    assert all(usable(k, isa) for k in st.search.specs)
    assert all(usable(k, isa) for k in st.search.kernels_of(st.winner.kernel))
    assert st.search.default_kernel == "mmx_naive_n"
    assert st.winner.result.ok and st.default is not None
    assert st.winner.cycles <= st.default.cycles
