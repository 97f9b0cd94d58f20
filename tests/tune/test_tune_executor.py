"""The executors' contract: every job ends as an Outcome record, a hung job's worker is killed
within its time-out, and the pool keeps going after a time-out, a crash or an exception."""

from __future__ import annotations

import os
import time
from concurrent.futures import wait

import pytest
import tune_fakes

from trainlib.tune.cache import ResultCache
from trainlib.tune.executor import make_executor
from trainlib.tune.layerspec import parse_layer
from trainlib.tune.measure import Measurement, run_candidate
from trainlib.tune.pool import LocalPool
from trainlib.tune.search import SearchOptions
from trainlib.tune.tuner import TuneOptions, tune_layer


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_pool_runs_jobs_and_reports_failures_as_records():
    with LocalPool(2, timeout=30.0) as pool:
        futs = [pool.submit(tune_fakes.square, i) for i in range(5)]
        futs.append(pool.submit(tune_fakes.boom, "bad candidate"))
        futs.append(pool.submit(tune_fakes.die, 7))
        futs.append(pool.submit(tune_fakes.unpicklable, None))
        wait(futs, timeout=60)
        outs = [f.result() for f in futs]
        assert [o.value for o in outs[:5]] == [0, 1, 4, 9, 16]
        assert all(o.status == "done" for o in outs[:5])
        assert outs[5].status == "error" and "RuntimeError: bad candidate" in outs[5].error
        assert outs[6].status == "crashed" and "code 7" in outs[6].error
        assert outs[7].status == "error"
        assert pool.submit(tune_fakes.square, 3).result(timeout=60).value == 9


def test_pool_kills_a_hung_worker_within_its_timeout():
    with LocalPool(1, timeout=1.5) as pool:
        before = pool.submit(tune_fakes.pid, None).result(timeout=60).value
        t0 = time.monotonic()
        out = pool.submit(tune_fakes.hang, 600).result(timeout=60)
        took = time.monotonic() - t0
        assert out.status == "timeout" and 1.5 <= out.seconds and took < 5
        assert not _alive(before)               # the worker itself is gone, not just the wait
        after = pool.submit(tune_fakes.pid, None).result(timeout=60)
        assert after.status == "done" and after.value != before


def test_make_executor_refuses_unknown_schemes():
    with pytest.raises(ValueError, match="dask://"):
        make_executor("ray://x:1", 1, 1.0)


@pytest.fixture(scope="module")
def dask_address():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=True,
                                  dashboard_address=None) as cluster:
        yield "dask://" + cluster.scheduler_address.split("://", 1)[1]


def test_dask_executor_same_contract(dask_address):
    ex = make_executor(dask_address, None, 2.0)
    try:
        assert ex.capacity == 2
        ok = ex.submit(tune_fakes.square, 7)
        bad = ex.submit(tune_fakes.boom, "dask candidate")
        hung = ex.submit(tune_fakes.hang, 600)
        dead = ex.submit(tune_fakes.die, 5)
        wait([ok, bad, hung, dead], timeout=120)
        assert ok.result().status == "done" and ok.result().value == 49
        assert bad.result().status == "error" and "dask candidate" in bad.result().error
        assert hung.result().status == "timeout" and hung.result().seconds < 10
        assert dead.result().status == "crashed"
    finally:
        ex.close()


def test_tuning_through_dask_measures_what_the_local_pool_measures(dask_address, pool,
                                                                    tmp_path):
    layer, shape = parse_layer("linear:ci=24,co=8")
    opts = TuneOptions(executor=dask_address, timeout=60.0,
                       search=SearchOptions(top_kernels=1, tilings=1))
    tuning = tune_layer(layer, shape, opts, ("fw",), cache=ResultCache(tmp_path))
    (step,) = tuning.steps
    w = step.winner
    assert w is not None and w.result is not None and w.result.ok
    local = pool.submit(run_candidate, step.search.job(w)).result(timeout=120)
    assert Measurement.from_dict(local.value).cycles == w.cycles
