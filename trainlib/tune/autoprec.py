"""``trainlib tune --precision auto``: per layer, the fastest precision within an error budget.

For every precision the selected ISA can execute (``trainlib.precision.EXTENSIONS``; fp32
always), the model's tunable steps are tuned in that precision (the catalogue per precision:
an fp16 step tunes among the fp16 kernels and tiles, as an fp32 one among the fp32 ones).
For every layer with parameters the choice is then:

* its **cycles** in a precision: the sum of its tuned steps' winners (forward, weight and input
  gradient as the model's work list runs them); a precision whose kernels are missing or that
  has no correct candidate for some step is refused, with the reason;
* its **error** in a precision: the worst relative difference, over its step outputs, between
  the golden model computing the layer in that precision and the fp32 golden model, on the
  tensors the layer really sees in a training step (the model's sample, its initial
  parameters, the fp32 activations and output gradients).  The golden model sums in the
  format itself, the least accurate way a kernel of that precision may sum (those summing in
  binary32 are closer to fp32), and every tuned candidate matches it within
  ``golden.tolerance``, so the error stands for the simulated step's.  Relative:
  max |out_p - out_fp32| over max |out_fp32| per output tensor;
* the winner: the fastest precision whose error is within ``max_rel_error``; fp32 (error 0)
  when none is;
* then the conversions: a run of consecutive layers in a 16-bit precision whose conversions
  (measured on the simulator: the ``convert`` steps the mix adds to a training step) cost
  more cycles than the run saves goes back to fp32, one run at a time while that lowers the
  total.

A parameter-free layer (activation, pooling, flatten, residual add) computes in the precision
of the layer before it, so a convolution and its activation do not convert between them.  The
conversions the chosen mix needs are steps of the trained model (``trainlib.workflow``), so
``trainlib train`` on the written model counts them.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import numpy as np

from trainlib import golden
from trainlib.choices import ChoiceTable
from trainlib.layers import Layer
from trainlib.model import PRECISIONS, Model
from trainlib.precision import missing_extensions
from trainlib.step import run_spec
from trainlib.tune.tuner import TUNABLE, TuneOptions, Tuning, model_steps, tune_steps
from trainlib.workflow import build_spec, convert_shape, plan_model, work_list

DEFAULT_MAX_REL_ERROR = 1e-2


@dataclass
class Trial:
    """One layer in one precision."""

    precision: str
    cycles: int = 0
    error: float = 0.0
    refused: str = ""              # why this precision cannot run the layer


@dataclass
class LayerChoice:
    layer: str
    chosen: str
    why: str
    trials: list[Trial] = field(default_factory=list)


@dataclass
class AutoPrecision:
    model: Model                    # with the chosen precisions and kernel choices
    choices: ChoiceTable
    layers: list[LayerChoice]
    tunings: dict[str, Tuning]
    max_rel_error: float
    skipped: dict[str, str]         # precisions the ISA cannot execute, and why


def _rel(a: np.ndarray, ref: np.ndarray) -> float:
    ref = np.asarray(ref, np.float64)
    scale = float(np.abs(ref).max(initial=0.0)) or 1.0
    return float(np.abs(np.asarray(a, np.float64) - ref).max(initial=0.0)) / scale


def layer_errors(model: Model, precision: str) -> dict[str, float]:
    """Per layer with parameters: the worst relative error of its steps computed in
    ``precision`` against fp32, on the tensors of the model's first fp32 training step."""
    fp32 = dataclasses.replace(model, precision="fp32", layer_precision={},
                               master_weights=False)
    x, t = fp32.sample()
    params = fp32.initial_params()
    rec: dict = {}
    golden.train_step(fp32, params, x, t, rec)
    acts, grads = rec["acts"], rec.get("grads", {})
    out = {}
    for i, la in enumerate(model.layers):
        if not la.has_params:
            continue
        p = params.get(la.name, {})
        errs = [_rel(golden.forward(la, acts[i], p, precision=precision),
                     golden.forward(la, acts[i], p))]
        if i in grads:
            g = grads[i]
            if la.name in model.updated:
                ref = golden.weight_grad(la, acts[i], g)
                got = golden.weight_grad(la, acts[i], g, precision=precision)
                errs += [_rel(got[k], ref[k]) for k in ref]
            if i > model.first_updated:
                errs.append(_rel(golden.input_grad(la, acts[i], g, p, precision=precision),
                                 golden.input_grad(la, acts[i], g, p)))
        out[la.name] = max(errs)
    return out


def _layer_cycles(tuning: Tuning, layer: str) -> tuple[int, str]:
    """The layer's tuned cycles (its steps' winners), or why some step has no winner."""
    total, why = 0, ""
    for s in tuning.steps:
        if s.layer != layer:
            continue
        w = s.winner
        if w is None:
            why = why or f"{s.step}: {_reason(s)}"
        else:
            total += w.cycles
    return total, why


def _reason(s) -> str:
    """Why no kernel ran a step, said once: the first kernel's reason (the others' alike)."""
    rejected = s.search.rejected
    if not rejected:
        return s.error or "no candidate ran correctly"
    k, why = next(iter(rejected.items()))
    more = len(rejected) - 1
    return why + (f" (and {more} other kernel(s))" if more else "")


def precisions_for(selection: str) -> tuple[list[str], dict[str, str]]:
    """The precisions the ISA string can execute, and why each other one cannot."""
    ok, skipped = [], {}
    for p in PRECISIONS:
        miss = missing_extensions(p, selection)
        if miss:
            skipped[p] = f"the ISA {selection!r} lacks {', '.join(miss)}"
        else:
            ok.append(p)
    return ok, skipped


def auto_precision(model: Model, opts: TuneOptions, max_rel_error: float = DEFAULT_MAX_REL_ERROR,
                   **kw) -> AutoPrecision:
    """Tune ``model`` in every precision the ISA executes and pick per layer (module doc)."""
    cfg = opts.cluster()
    usable, skipped = precisions_for(cfg.xpulp)
    fp32 = dataclasses.replace(model, precision="fp32", layer_precision={})
    memory = opts.memory or plan_model(fp32, cfg).memory
    steps = model_steps(fp32)
    tunings = {p: tune_steps([(la, s, st, p) for la, s, st, _ in steps], memory, opts, **kw)
               for p in usable}
    errors = {p: layer_errors(model, p) if p != "fp32" else {} for p in usable}
    layers: list[LayerChoice] = []
    for la in model.layers:
        if not isinstance(la, TUNABLE):
            continue
        trials = []
        for p in usable:
            cycles, why = _layer_cycles(tunings[p], la.name)
            trials.append(Trial(p, cycles, errors[p].get(la.name, 0.0), why))
        ok = [t for t in trials if not t.refused and t.error <= max_rel_error]
        best = min(ok, key=lambda t: t.cycles) if ok else Trial("fp32")
        layers.append(LayerChoice(la.name, best.precision, _why(best, trials, max_rel_error),
                                  trials))
    _pay_for_conversions(model, layers, cfg, memory)
    chosen = _following(model, {lc.layer: lc.chosen for lc in layers})
    model_out = _with_precisions(model, chosen)
    table = ChoiceTable(meta={"cores": cfg.cores, "config": cfg.name, "memory": memory,
                              "max_rel_error": max_rel_error})
    for p, tuning in tunings.items():
        for c in tuning.choice_table().entries.values():
            if chosen.get(c.layer) == p:
                table.add(c)
    model_out.choices = ChoiceTable(dict(table.entries))
    return AutoPrecision(model_out, table, layers, tunings, max_rel_error, skipped)


def _following(model: Model, tuned: dict[str, str]) -> dict[str, str]:
    """Every layer's precision: the tuned layers' own, a parameter-free layer its
    predecessor's (fp32 before the first tuned layer)."""
    out, current = {}, "fp32"
    for la in model.layers:
        current = tuned.get(la.name, current)
        out[la.name] = current
    return out


def _stretches(layers: list[LayerChoice]) -> list[list[LayerChoice]]:
    """Runs of consecutive tuned layers in one 16-bit precision."""
    runs: list[list[LayerChoice]] = []
    for lc in layers:
        if lc.chosen == "fp32":
            continue
        if runs and runs[-1][-1].chosen == lc.chosen and layers.index(runs[-1][-1]) + 1 == \
                layers.index(lc):
            runs[-1].append(lc)
        else:
            runs.append([lc])
    return runs


def _pay_for_conversions(model: Model, layers: list[LayerChoice], cfg, memory: str) -> None:
    """Set back to fp32 every 16-bit run of layers whose conversions cost more cycles than
    the run saves (the conversions measured on the simulator, ``conversion_cycles``)."""
    def total(tuned: dict[str, str]) -> int:
        m = _with_precisions(model, _following(model, tuned))
        own = sum(next(t.cycles for t in lc.trials if t.precision == tuned[lc.layer])
                  for lc in layers)
        return own + conversion_cycles(m, cfg, memory)
    changed = True
    while changed:
        changed = False
        tuned = {lc.layer: lc.chosen for lc in layers}
        now = total(tuned)
        for run in _stretches(layers):
            back = dict(tuned, **{lc.layer: "fp32" for lc in run})
            after = total(back)
            if after < now:
                for lc in run:
                    lc.why += (f"; set back to fp32 with {', '.join(x.layer for x in run)}: "
                               f"their conversions cost more than they save ({now:,} -> "
                               f"{after:,} cycles)")
                    lc.chosen = "fp32"
                changed = True
                break


_CONVERSIONS: dict[tuple, int] = {}


def conversion_cycles(model: Model, cfg, memory: str) -> int:
    """Cycles of every conversion step of the model's training step, run on the simulator
    (each shape and pair of formats once per process)."""
    total = 0
    for w in work_list(model):
        if w.kind != "convert":
            continue
        shape = convert_shape(model, w)
        key = (shape, w.src, w.dst, memory, repr(cfg))
        if key not in _CONVERSIONS:
            spec = build_spec(model, w, cfg.cores)
            data = {"x": np.zeros(shape, np.float32)}
            _CONVERSIONS[key] = run_spec(spec, data, memory=memory, cores=cfg.cores,
                                         config=cfg).cycles
        total += _CONVERSIONS[key]
    return total


def _with_precisions(model: Model, chosen: dict[str, str]) -> Model:
    """The model with one precision per layer (the model's default: its first layer's)."""
    base = chosen[model.layers[0].name]
    per = {n: p for n, p in chosen.items() if p != base
           and not _is_view(model, n)}
    return dataclasses.replace(model, precision=base, layer_precision=per)


def _is_view(model: Model, name: str) -> bool:
    la: Layer = model.layers[model.index(name)]
    return la.kind == "flatten"


def _why(best: Trial, trials: list[Trial], budget: float) -> str:
    """One line: why this precision and not the others."""
    parts = []
    for t in trials:
        if t is best or t.precision == best.precision:
            continue
        if t.refused:
            parts.append(f"{t.precision} cannot run: {t.refused}")
        elif t.error > budget:
            parts.append(f"{t.precision} error {t.error:.2g} > {budget:.2g}")
        elif t.cycles > best.cycles:
            parts.append(f"{t.precision} slower ({t.cycles:,} cycles)")
        else:
            parts.append(f"{t.precision} no faster ({t.cycles:,} cycles)")
    head = (f"fastest within the budget ({best.cycles:,} cycles, error {best.error:.2g})"
            if best.cycles else "fp32: the reference")
    return "; ".join([head, *parts])

