"""The autotuner: per layer step, the tiling and kernel that run fastest on the simulator.

``tune_model`` / ``tune_layer`` (``trainlib.tune.tuner``) search tilings (``tiler``) and
catalogue kernels, ranked and pruned by cheap bounds (``estimate``), each candidate measured by
running the whole step on the simulator (``measure``) through an executor (``pool``: local
processes with hard time-outs; ``daskexec``: a Dask cluster) and an on-disk cache (``cache``);
``explain`` says why the winner wins.  ``python -m trainlib.tune`` is the command line
(``cli``; ``trainlib tune`` once wired in).
"""

from trainlib.tune.cache import ResultCache, default_dir
from trainlib.tune.executor import Executor, Outcome, make_executor
from trainlib.tune.layerspec import parse_layer
from trainlib.tune.pool import LocalPool
from trainlib.tune.search import SearchOptions
from trainlib.tune.tuner import StepTuning, TuneOptions, Tuning, tune_layer, tune_model

__all__ = ["Executor", "LocalPool", "Outcome", "ResultCache", "SearchOptions", "StepTuning",
           "TuneOptions", "Tuning", "default_dir", "make_executor", "parse_layer",
           "tune_layer", "tune_model"]
