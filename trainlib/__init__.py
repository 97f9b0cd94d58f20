"""trainlib: DNN training steps run on the simulated PULP cluster, PULP-TrainLib style.

Public API:

* ``Model`` (``trainlib.model``): a model from TOML, Python or a ``torch.nn.Sequential``;
* ``train`` (``trainlib.train``): N training steps on the simulator beside the golden model;
* ``run_layer_step`` (``trainlib.step``): one layer step with a kernel choice and tile, its
  outputs, ``RunResult``, MACs and golden reference (the autotuner's entry point);
* ``ChoiceTable`` (``trainlib.choices``): the kernel/tile choice table format;
* ``plan_model`` / ``plan_step`` (``trainlib.workflow`` / ``trainlib.planner``): memory plans;
* ``kernel_candidates`` / ``tile_candidates``: what an autotuner may try for a step.
"""

from trainlib.choices import Choice, ChoiceTable
from trainlib.errors import ModelError, NotAvailable, PlanError, SimulationError, TrainlibError
from trainlib.lowering import kernel_candidates, layer_step
from trainlib.model import Model
from trainlib.planner import StepPlan, plan_step, tile_candidates
from trainlib.step import StepRun, run_layer_step, run_spec
from trainlib.train import TrainResult, train
from trainlib.workflow import plan_model

__all__ = ["Choice", "ChoiceTable", "Model", "ModelError", "NotAvailable", "PlanError",
           "SimulationError", "StepPlan", "StepRun", "TrainResult", "TrainlibError",
           "kernel_candidates", "layer_step", "plan_model", "plan_step", "run_layer_step",
           "run_spec", "tile_candidates", "train"]
