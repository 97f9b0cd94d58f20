"""Whole-step memory planning: the phases of a training step, the tensors they pass, and where
every tensor lives over the step.

A deployed training step (``trainlib.deploy``) is a sequence of phases, one per work item of
``trainlib.workflow.work_list`` (a layer's forward, the loss, a weight or input gradient, a
residual's gradient sum, an update), each a step spec run under its own tiling.  Here the
phases are tied together by *tensors*: every spec tensor of a phase is bound to one tensor of the
model (the input, an activation, a gradient, a parameter, its gradient, the target, the loss).
A tensor lives from the phase that writes it to the last phase that reads it; parameters, the
input and the target live for the whole program.  Flatten's output is its input seen as a
vector, and an Add passes its output gradient through, so neither has a tensor of its own.

Two update orders:

* ``conventional``: all gradients, then all updates (PULP-TrainLib's deployer; every weight
  gradient lives until the end of the backward pass);
* ``reordered``: each updated layer's input gradient first, then its weight gradient fused with
  the update, tile by tile (``lowering.fused_update``): the weight gradient only ever exists one
  tile at a time (Tiny Training Engine's operator reordering with in-place updates).  The
  fused phase takes the tile of its own choice-table entry (``wg+update``, which the tuner
  measures on the fused phase; double-buffered where that fits, else single-buffered), else
  its weight gradient's tile.

Placement: ``tcdm`` keeps every tensor resident in TCDM; ``l2`` homes them in L2 and streams
each phase through TCDM in tiles (``trainlib.planner``); ``auto`` takes ``tcdm`` when the
packed plan fits, else the streamed plan with tensors moved into TCDM while the packed TCDM
still fits and the DMA moves fewer bytes (``mixed``; the phases use those tensors in place).
Buffers are packed by lifetime: two tensors share bytes when no phase needs both (first fit,
largest first).  A phase's own buffers (tiles, im2row scratch, copies of whole tensors, and its
argument window: call structures, DMA descriptors, time stamps) live in TCDM during that phase
only, so a phase takes exactly the TCDM its step plan counted.  With persistent tensors in
TCDM, a small window for their load and store copies comes on top.

Precision: the phases are the work items ``trainlib train`` runs, in the same precisions
(conversions between formats are phases, ``convert.<x|skip|dy|dskip>``, whose output is a
tensor of its own); every tensor has the element format of the spec tensors bound to it (16-bit
at 2 bytes), and an fp32 master copy (``master.<layer>.<p>``) is a persistent tensor like the
parameter it belongs to.

Sparse update forms (``Model.update_bias_only``, ``Model.update_channels``): bias-only computes
only the bias gradient and updates only the bias; ``update_channels = f`` computes the weight
gradient of the first ``ceil(f * Co)`` output channels (a prefix of the weight and of dY) and
updates only them; the backward pass stops at the first layer whose parameters are updated
(``Model.first_updated``).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from isasim.config import ClusterConfig
from trainlib.choices import FUSED_STEP, ChoiceTable
from trainlib.driver import STACK_BYTES, Barrier, Issue, Item, Ref, Transfer, Wait, args_layout
from trainlib.errors import NotAvailable, PlanError
from trainlib.formats import element_bytes
from trainlib.layers import Add, Flatten, Sigmoid, update_channel_count
from trainlib.lowering import StepSpec, fused_update, sparse_weight_grad, unavailable
from trainlib.model import Model
from trainlib.planner import StepPlan, aligned, measure, plan_step, plan_tile
from trainlib.precision import check_isa
from trainlib.schedule import in_place, items_and_buffers
from trainlib.workflow import Work, build_spec, update_spec, work_list

ORDERS = ("conventional", "reordered")
ARGS = "__args"                 # a phase's argument window: one of its own TCDM buffers
DMA_CHUNK = 1 << 16             # bytes per transfer of the load/store copies (17-bit field)
MEMORY_KINDS = ("tcdm", "l2")


@dataclass
class Tensor:
    """A tensor of the training step: its size, home, lifetime over the phases, and offset."""

    name: str
    size: int                   # elements
    kind: str                   # input | target | param | master | act | grad | cvt | pgrad |
                                # loss | local
    place: str                  # tcdm | l2
    first: int = 0              # phase that writes it (persistent: 0)
    last: int = 0               # last phase that reads it (persistent: the last phase)
    persistent: bool = False    # parameters, input, target: the whole program
    offset: int = -1            # bytes into its memory's arena (persistent L2: own symbol)
    phase: int = -1             # local buffers: the phase they belong to
    fmt: str = "fp32"           # element format (trainlib.formats)

    @property
    def nbytes(self) -> int:
        return aligned(element_bytes(self.fmt) * self.size)


@dataclass
class Phase:
    """One phase: a work item's spec and plan, and which model tensor each spec tensor is."""

    work: Work
    spec: StepSpec
    plan: StepPlan
    binds: dict[str, str]
    layer: str                  # layer name (the loss: the loss name)
    step: str                   # fw | loss | wg | ig | skip | update.<p> | wg+update |
                                # convert.<x|skip|dy|dskip>
    resident: frozenset[str] = frozenset()   # streamed: spec tensors homed in TCDM
    note: str = ""              # why the plan differs from the choice table's tile

    @property
    def title(self) -> str:
        return f"{self.layer} {self.step}"

    @property
    def symbol(self) -> str:
        return "phase_" + symbol_part(f"{self.layer}_{self.step}")


@dataclass
class MemPlan:
    model: Model
    memory: str                          # tcdm | l2 | mixed (L2, some tensors in TCDM)
    order: str                           # conventional | reordered
    phases: list[Phase]
    tensors: dict[str, Tensor]
    locals: list[list[Tensor]]           # per phase: its own buffers (TCDM)
    args_bytes: int                      # argument window of the load / store routines
    tcdm_arena: int                      # packed TCDM bytes (tensors + phase buffers)
    l2_arena: int                        # packed L2 bytes (non-persistent tensors)
    l2_persistent: int                   # parameters, input, target in L2
    tcdm_budget: int
    live: list[dict[str, int]] = field(default_factory=list)   # bytes live per phase, by memory

    @property
    def l1_peak(self) -> int:
        return self.args_bytes + self.tcdm_arena

    @property
    def l2_peak(self) -> int:
        return self.l2_persistent + self.l2_arena

    def describe(self) -> str:
        where = ("resident in TCDM" if self.memory == "tcdm" else
                 "homed in L2, phases streamed through TCDM")
        if self.memory == "mixed":
            homed = [t.name for t in self.tensors.values() if t.place == "tcdm"]
            where += f" except {len(homed)} homed in TCDM ({', '.join(homed)})"
        return (f"{self.order} updates, tensors {where}: peak L1 {self.l1_peak} B "
                f"(of {self.tcdm_budget}), peak L2 {self.l2_peak} B "
                f"({self.l2_persistent} persistent + {self.l2_arena} packed)")


def symbol_part(text: str) -> str:
    """``text`` with every character a symbol cannot hold replaced by ``_``."""
    return re.sub(r"[^A-Za-z0-9_]", "_", text)


# ---- the phases and their tensors ---------------------------------------------------------------
class _Names:
    """Names of the activation and gradient tensors as the backward pass produces them."""

    def __init__(self, model: Model) -> None:
        self.model = model
        self.grads: dict[int, str] = {}
        self.versions: dict[int, int] = {}
        self.converted: dict[tuple[int, str], str] = {}   # (layer, x|skip|dskip): its copy

    def act(self, i: int) -> str:
        while i > 0 and isinstance(self.model.layers[i - 1], Flatten):
            i -= 1                                  # Flatten: its input, seen as a vector
        return "input" if i == 0 else f"act{i}"

    def grad(self, i: int) -> str:
        if i in self.grads:
            return self.grads[i]
        la = self.model.layers[i]
        if not isinstance(la, Flatten | Add):
            raise PlanError(f"gradient of the input of layer {la.name} is never computed")
        return self.grad(i + 1)

    def new_grad(self, i: int) -> str:
        v = self.versions.get(i, 0)
        self.versions[i] = v + 1
        self.grads[i] = f"grad{i}" + (f".{v}" if v else "")
        return self.grads[i]


def _param(layer: str, p: str) -> str:
    return f"param.{layer}.{p}"


def _master(layer: str, p: str) -> str:
    return f"master.{layer}.{p}"


def _convert_binds(model: Model, w: Work, names: _Names) -> dict[str, str]:
    """A conversion reads a tensor in one format and writes its copy in another: a layer's
    input (``x``; an Add's ``skip``) or a gradient.  The copy of an output gradient (``dy``)
    replaces it for the layers below; the others are what the layer's own steps read
    (``train._inputs`` and ``train.simulated_step`` pass them alike)."""
    i = w.layer
    la = model.layers[i]
    if w.param == "x":
        src = names.act(i)
    elif w.param == "skip":
        src = names.act(model.index(la.skip) + 1)
    else:
        src = names.grad(i + 1)
    if w.param == "dy":
        return {"x": src, "y": names.new_grad(i + 1)}
    dst = names.converted[(i, w.param)] = f"cvt{i}.{w.param}"
    return {"x": src, "y": dst}


def _binds(model: Model, w: Work, names: _Names) -> dict[str, str]:
    """Spec tensor name -> model tensor name for one work item (``train._inputs`` by name)."""
    n = len(model.layers)
    if w.kind == "loss":
        return {"y": names.act(n), "target": "target", "dy": names.new_grad(n), "loss": "loss"}
    if w.kind == "convert":
        return _convert_binds(model, w, names)
    la = model.layers[w.layer]
    i = w.layer
    params = {p: _param(la.name, p) for p in ("weight", "bias")}
    x = names.converted.get((i, "x"), names.act(i))
    if w.kind == "fw":
        b = {"x": x, "y": names.act(i + 1), **params}
        if isinstance(la, Add):
            b["skip"] = names.converted.get((i, "skip"), names.act(model.index(la.skip) + 1))
        return b
    if w.kind in ("wg", "wg+update"):
        b = {"x": x, "dy": names.grad(i + 1)}
        if w.kind == "wg":
            return b | {"d" + p: "d" + v for p, v in params.items()}
        return b | params | {f"master_{p}": _master(la.name, p) for p in params}
    if w.kind == "ig":
        b = {"dy": names.grad(i + 1), **params}
        if isinstance(la, Sigmoid):
            b["y"] = names.act(i + 1)
        else:
            b["x"] = x
        b["dx"] = names.new_grad(i)
        return b
    if w.kind == "skip":
        src = model.index(la.skip) + 1
        return {"dy": names.grad(src),
                "dskip": names.converted.get((i, "dskip"), names.grad(i + 1)),
                "dx": names.new_grad(src)}
    return {"w": _param(la.name, w.param), "g": "d" + _param(la.name, w.param),
            "master": _master(la.name, w.param)}


def _ordered(model: Model, items: list[tuple[Work, StepSpec]], order: str,
             fits: Callable[[StepSpec], bool] = lambda spec: True
             ) -> list[tuple[Work, StepSpec]]:
    """The work items in ``order``: reordered puts each updated layer's input gradient first,
    then its weight gradient fused with the update (after the weights' last read).  A fused
    phase that does not ``fit`` even tiled (a 16-bit layer with fp32 master copies carries
    the master tile, in and out, beside the gradient tile) stays two
    phases, the weight gradient and right after it the update: the gradient then lives
    between the two only."""
    if order not in ORDERS:
        raise PlanError(f"update order must be one of {', '.join(ORDERS)}, not {order!r}")
    if order == "conventional":
        return items
    updates: dict[int, list[tuple[Work, StepSpec]]] = {}
    for w, s in items:
        if w.kind == "update":
            updates.setdefault(w.layer, []).append((w, s))
    fused: dict[int, list[tuple[Work, StepSpec]]] = {}
    for w, s in items:
        if w.kind == "wg":
            f = fused_update(s, {u.param: us for u, us in updates[w.layer]})
            fused[w.layer] = ([(Work("wg+update", w.layer), f)] if fits(f)
                              else [(w, s), *updates[w.layer]])
    with_ig = {w.layer for w, _ in items if w.kind == "ig"}
    out: list[tuple[Work, StepSpec]] = []
    for w, spec in items:
        if w.kind == "update" or (w.kind == "wg" and w.layer in with_ig):
            continue
        out += fused[w.layer] if w.kind == "wg" else [(w, spec)]
        if w.kind == "ig" and w.layer in fused:
            out += fused[w.layer]
    return out


def _sparse(model: Model, w: Work, spec: StepSpec) -> StepSpec | None:
    """The spec of a sparse weight gradient or update (None: drop the item)."""
    la = model.layers[w.layer]
    mode = "bias" if la.name in model.update_bias_only else "all"
    frac = model.update_channels.get(la.name, 1.0)
    if mode == "bias" and w.kind == "update" and w.param == "weight":
        return None
    if w.kind == "wg" and (mode == "bias" or frac < 1.0):
        return sparse_weight_grad(la, model.shapes()[w.layer], spec, mode, frac)
    if w.kind == "update" and frac < 1.0:
        shape = la.params(model.shapes()[w.layer])[w.param]
        return update_spec(model, la.name, w.param,
                           (update_channel_count(shape[0], frac), *shape[1:]))
    return spec


def phases_of(model: Model, cfg: ClusterConfig, memory: str, order: str,
              choices: ChoiceTable | None = None) -> list[Phase]:
    """The phases of one training step, planned in ``memory`` ("tcdm" or "l2"): the same
    work items, in the same precisions, as ``trainlib train`` runs (conversions included)."""
    check_isa(model, cfg.xpulp)
    items = []
    for w in work_list(model):
        try:
            spec = build_spec(model, w, cfg.cores, choices)
        except NotAvailable as e:
            raise NotAvailable(f"layer {' '.join(w.key(model))}: {e}") from None
        why = unavailable(spec, cfg.xpulp)
        if why:
            raise NotAvailable(f"layer {' '.join(w.key(model))}: {why}")
        sparse = _sparse(model, w, spec) if w.kind in ("wg", "update") else spec
        if sparse is not None:
            items.append((w, sparse))
    def fits(spec: StepSpec) -> bool:
        try:
            plan_step(spec, memory, cfg)
        except PlanError:
            return False
        return True
    ch = choices or model.choices
    names = _Names(model)
    phases = []
    for w, spec in _ordered(model, items, order, fits):
        c, fused = None, None
        if w.kind in ("fw", "wg", "ig", "update"):
            c = ch.get(*w.key(model))
        elif w.kind == "wg+update":
            # its own entry (tuned on the fused phase), else tiled as its weight gradient
            fused = ch.get(model.layers[w.layer].name, FUSED_STEP)
            c = fused or ch.get(model.layers[w.layer].name, "wg")
        tile = c.tile if c is not None and memory == "l2" else None
        if tile is not None:
            tile = min(tile, spec.extent)           # a sparse gradient has fewer channels
        layer = model.loss if w.kind == "loss" else model.layers[w.layer].name
        step = spec.step if w.kind in ("update", "wg+update", "convert") else w.kind
        note = ""
        try:
            plan = (plan_tile(spec, cfg, tile) if fused is not None and tile is not None
                    else plan_step(spec, memory, cfg, tile))
        except PlanError as e:
            if tile is None:
                raise
            # a table tuned for the step runs' TCDM (512-byte stacks) may not fit the program's
            plan = plan_step(spec, memory, cfg)
            note = f"{e}; the fewest tiles that fit instead ({plan.tiles} of {plan.tiling.tile})"
        b = _binds(model, w, names)
        missing = [t.name for t in spec.tensors if t.name not in b]
        if missing:
            raise PlanError(f"layer {layer} {step}: no model tensor for {', '.join(missing)}")
        phases.append(Phase(w, spec, plan, {t.name: b[t.name] for t in spec.tensors}, layer,
                            step, note=note))
    return phases


# ---- lifetimes and packing ----------------------------------------------------------------------
PERSISTENT = ("input", "target", "param", "master")
STORED = ("param", "master")     # copied back to their L2 homes after the last step


def _kind(name: str) -> str:
    if name in ("input", "target", "loss"):
        return name
    if name.startswith("dparam."):
        return "pgrad"
    return re.match(r"[a-z]+", name).group(0)


def planning_config(cfg: ClusterConfig) -> ClusterConfig:
    """``cfg`` as the per-step planner must see it for a deployed program: the program runs
    on the configuration's own stacks (``stack_size`` per core, not the step runs' 512 B), so
    the TCDM the planner may give out is smaller by the difference."""
    extra = cfg.cores * max(0, cfg.stack_size - STACK_BYTES)
    return cfg.replace(tcdm_size=cfg.tcdm_size - extra)


def deploy_budget(cfg: ClusterConfig) -> int:
    """TCDM bytes a deployed program may use: everything below the cores' stacks."""
    return cfg.tcdm_size - cfg.cores * cfg.stack_size


def _lifetimes(phases: list[Phase], memory: str, homes: frozenset[str] = frozenset()
               ) -> dict[str, Tensor]:
    """Every model tensor with its lifetime and element format; its place is ``memory`` (tcdm
    or l2), or TCDM for the tensors named in ``homes``.  A step's constants
    (``StepSpec.consts``) are not model tensors: they are the phase's own buffers, filled by
    the phase routine (``trainlib.deploy``)."""
    last = len(phases) - 1
    out: dict[str, Tensor] = {}
    for p, ph in enumerate(phases):
        for name, size, fmt in [(ph.binds[t.name], t.size, t.fmt) for t in ph.spec.tensors]:
            kind = _kind(name)
            ten = out.get(name)
            if ten is None:
                persistent = kind in PERSISTENT
                place = "tcdm" if memory == "tcdm" or name in homes else "l2"
                ten = out[name] = Tensor(name, size, kind, place, 0 if persistent else p,
                                         last if persistent else p, persistent, fmt=fmt)
            if ten.fmt != fmt:
                raise PlanError(f"{ph.title}: tensor {name} is {ten.fmt} in an earlier phase, "
                                f"{fmt} here")
            ten.size = max(ten.size, size)
            if not ten.persistent:
                ten.last = max(ten.last, p)
    return out


def _pack(tensors: list[Tensor]) -> int:
    """Give every tensor a byte offset so that tensors live in the same phase never overlap
    (first fit, largest first); returns the arena's size."""
    placed: list[Tensor] = []
    end = 0
    for t in sorted(tensors, key=lambda t: (-t.nbytes, t.first, t.name)):
        busy = sorted((o.offset, o.offset + o.nbytes) for o in placed
                      if o.first <= t.last and t.first <= o.last)
        off = 0
        for lo, hi in busy:
            if off + t.nbytes <= lo:
                break
            off = max(off, hi)
        t.offset = off
        placed.append(t)
        end = max(end, off + t.nbytes)
    return end


def _build(model: Model, cfg: ClusterConfig, memory: str, order: str,
           choices: ChoiceTable | None) -> MemPlan:
    phases = phases_of(model, planning_config(cfg), memory, order, choices)
    return _assemble(model, cfg, memory, order, phases, frozenset())


def _assemble(model: Model, cfg: ClusterConfig, memory: str, order: str, phases: list[Phase],
              homes: frozenset[str]) -> MemPlan:
    """The plan of planned phases with the tensors ``homes`` in TCDM: lifetimes, each phase's
    own buffers, packing."""
    tensors = _lifetimes(phases, memory, homes)
    locals_: list[list[Tensor]] = []
    for p, ph in enumerate(phases):
        items, bufs = items_and_buffers(ph.spec, ph.plan.tiling, resident=ph.resident)
        own = ({t.name for t in ph.spec.tensors} if memory == "tcdm" else set(ph.resident))
        locals_.append([Tensor(f"{ph.title}/{b.name}", b.size, "local", "tcdm", p, p, phase=p,
                               fmt=b.fmt)
                        for b in bufs if b.name not in own and b.place == "tcdm"])
        locals_[-1].append(Tensor(f"{ph.title}/{ARGS}", args_layout(items).size // 4, "local",
                                  "tcdm", p, p, phase=p))
    args = max(args_layout(copy_items(tensors, d)).size for d in (True, False))
    in_tcdm = [t for t in tensors.values() if t.place == "tcdm"]
    tcdm = _pack(in_tcdm + [t for ls in locals_ for t in ls])
    l2 = _pack([t for t in tensors.values() if t.place == "l2" and not t.persistent])
    persistent = sum(t.nbytes for t in tensors.values() if t.persistent)
    plan = MemPlan(model, "mixed" if homes else memory, order, phases, tensors, locals_,
                   aligned(args), tcdm, l2, persistent, deploy_budget(cfg))
    plan.live = [_live(plan, p) for p in range(len(phases))]
    return plan


def _home_in_tcdm(plan: MemPlan, cfg: ClusterConfig) -> MemPlan:
    """A streamed plan with tensors moved to TCDM while the packed TCDM still fits: the
    tensors most phases move first (bytes of DMA saved per byte of TCDM), smaller first among
    equals.  Each phase keeps its tiling; a tensor it would have to use in place but whose
    tiles are not contiguous runs (``schedule.in_place``) stays in L2.  Accepted when the
    moved bytes go down."""
    uses: dict[str, int] = {}
    for ph in plan.phases:
        for b in ph.binds.values():
            uses[b] = uses.get(b, 0) + 1
    order = sorted(plan.tensors.values(), key=lambda t: (-uses[t.name], t.nbytes, t.name))
    best, moved = plan, _moved(plan)
    homes: frozenset[str] = frozenset()
    for t in order:
        if t.nbytes > plan.tcdm_budget:
            continue
        trial_homes = homes | {t.name}
        try:
            phases = [_with_homes(ph, trial_homes, cfg) for ph in plan.phases]
        except ValueError:
            continue
        trial = _assemble(plan.model, cfg, "l2", plan.order, phases, trial_homes)
        m = _moved(trial)
        if trial.l1_peak <= trial.tcdm_budget and m < moved:
            best, moved, homes = trial, m, trial_homes
    return best


def _with_homes(ph: Phase, homes: frozenset[str], cfg: ClusterConfig) -> Phase:
    """The phase with its spec tensors bound to ``homes`` used in place (same tiling)."""
    resident = frozenset(t.name for t in ph.spec.tensors if ph.binds[t.name] in homes)
    if resident == ph.resident:
        return ph
    tiling = ph.plan.tiling
    for t in ph.spec.tensors:
        if t.name in resident and not in_place(t, tiling.tile, ph.spec.extent):
            raise ValueError(t.name)
    tcdm, l2 = measure(ph.spec, tiling, resident)
    plan = StepPlan(tiling, ph.plan.tiles, tcdm, l2, ph.plan.budget)
    return dataclasses.replace(ph, plan=plan, resident=resident)


def _moved(plan: MemPlan) -> int:
    """Bytes the DMA moves in one step (every transfer of every phase)."""
    total = 0
    for ph in plan.phases:
        items, _ = items_and_buffers(ph.spec, ph.plan.tiling, resident=ph.resident)
        total += sum(t.line_bytes * t.lines for it in items if isinstance(it, Issue)
                     for t in it.transfers)
    return total


def copy_items(tensors: dict[str, Tensor], to_tcdm: bool) -> list[Item]:
    """Resident tensors: the DMA that copies the persistent ones from their L2 homes
    (``<name>@l2``) into TCDM before the first step, or the parameters (and fp32 master
    copies) back after the last.  Offsets are in bytes (the buffers' element size is 1); a
    tensor of 16-bit elements moves in whole words, its last word's other half the padding
    both homes have (every tensor takes a multiple of 16 bytes)."""
    transfers: list[Transfer] = []
    for t in tensors.values():
        if not t.persistent or t.place != "tcdm" or (not to_tcdm and t.kind not in STORED):
            continue
        nbytes = (element_bytes(t.fmt) * t.size + 3) // 4 * 4
        for lo in range(0, nbytes, DMA_CHUNK):
            n = min(DMA_CHUNK, nbytes - lo)
            transfers.append(Transfer(Ref(t.name, lo), Ref(t.name + "@l2", lo), n,
                                      to_tcdm=to_tcdm))
    return [Issue(transfers), Wait(), Barrier("dma")] if transfers else []


def _live(plan: MemPlan, p: int) -> dict[str, int]:
    """Bytes in use per memory during phase p (every persistent tensor has its L2 home)."""
    live = {"tcdm": plan.args_bytes, "l2": plan.l2_persistent}
    for t in list(plan.tensors.values()) + plan.locals[p]:
        if t.first <= p <= t.last and not (t.persistent and t.place == "l2"):
            live[t.place] += t.nbytes
    return live


def plan_memory(model: Model, cfg: ClusterConfig, memory: str | None = None,
                order: str = "conventional", choices: ChoiceTable | None = None,
                l2_budget: int | None = None) -> MemPlan:
    """The whole-step memory plan; PlanError (naming the tensor and the bytes missing, and a
    form that fits when there is one) when it does not fit the TCDM or ``l2_budget``."""
    memory = memory or model.memory
    if memory == "auto":
        try:
            plan = _build(model, cfg, "tcdm", order, choices)
            if plan.l1_peak <= plan.tcdm_budget and fits_l2(plan, cfg, l2_budget):
                return plan
        except PlanError:
            pass
        plan = _build(model, cfg, "l2", order, choices)
        if not shortfall(plan, cfg, l2_budget):
            return _home_in_tcdm(plan, cfg)
        memory = "l2"
    if memory not in MEMORY_KINDS:
        raise PlanError(f"memory must be auto, tcdm or l2, not {memory!r}")
    plan = _build(model, cfg, memory, order, choices)
    problem = shortfall(plan, cfg, l2_budget)
    if problem:
        raise PlanError(problem + suggestion(model, cfg, l2_budget, choices, memory, order))
    return plan


def fits_l2(plan: MemPlan, cfg: ClusterConfig, l2_budget: int | None) -> bool:
    return plan.l2_peak <= (cfg.l2_size if l2_budget is None else l2_budget)


def shortfall(plan: MemPlan, cfg: ClusterConfig, l2_budget: int | None) -> str | None:
    """Why the plan does not fit (the memory, the largest tensor live at the peak, the bytes
    missing), or None."""
    name = plan.model.name
    if plan.l1_peak > plan.tcdm_budget:
        p = max(range(len(plan.phases)), key=lambda i: plan.live[i]["tcdm"])
        big = _largest(plan, p, "tcdm")
        return (f"model {name} ({plan.order}, tensors in {plan.memory}): needs {plan.l1_peak} "
                f"bytes of TCDM, {plan.tcdm_budget} available "
                f"({plan.l1_peak - plan.tcdm_budget} bytes short); at the peak "
                f"({plan.phases[p].title}) the largest tensor is {big}")
    budget = cfg.l2_size if l2_budget is None else l2_budget
    if plan.l2_peak > budget:
        p = max(range(len(plan.phases)), key=lambda i: plan.live[i]["l2"])
        big = _largest(plan, p, "l2")
        return (f"model {name} ({plan.order}, tensors in {plan.memory}): needs {plan.l2_peak} "
                f"bytes of L2, the budget is {budget} ({plan.l2_peak - budget} bytes short); "
                f"at the peak ({plan.phases[p].title}) the largest tensor is {big}")
    return None


def _largest(plan: MemPlan, p: int, place: str) -> str:
    live = [t for t in list(plan.tensors.values()) + plan.locals[p]
            if t.first <= p <= t.last and t.place == place]
    if place == "l2":                    # every persistent tensor has its L2 home
        live += [t for t in plan.tensors.values() if t.persistent]
    if not live:
        return "(none)"
    t = max(live, key=lambda t: t.nbytes)
    return f"{t.name} ({t.nbytes} bytes)"


def suggestion(model: Model, cfg: ClusterConfig, l2_budget: int | None,
               choices: ChoiceTable | None, memory: str, order: str) -> str:
    """'; it fits with ...' naming the first form that fits, or that none does."""
    best = None
    forms = candidate_forms(model)
    if memory == "tcdm":
        forms.insert(0, ("the tensors in L2 (memory 'l2')", model, order))
    for label, m, order in forms:
        try:
            plan = _build(m, cfg, "l2", order, choices)
        except PlanError:
            continue
        if plan.l1_peak <= plan.tcdm_budget and fits_l2(plan, cfg, l2_budget):
            return f"; it fits with {label} (peak L1 {plan.l1_peak} B, L2 {plan.l2_peak} B)"
        if best is None or plan.l2_peak < best[1]:
            best = (label, plan.l2_peak)
    if best is None:
        return "; no update form fits"
    return (f"; no update form fits (the smallest, {best[0]}, needs {best[1]} bytes of L2)")


def candidate_forms(model: Model) -> list[tuple[str, Model, str]]:
    """Update forms to try when a plan does not fit, least change first: the reordered update,
    then each sparse form (``sparse_forms``) with it."""
    return [("update order 'reordered'", model, "reordered")] + [
        (f"update order 'reordered' and {label}", m, "reordered")
        for label, m in sparse_forms(model)]


def sparse_forms(model: Model) -> list[tuple[str, Model]]:
    """The model under each sparse update form: a fraction of each updated layer's output
    channels, only the biases (layers without one frozen), only the last k updated layers."""
    updated = model.updated
    plain = dict(update_channels={}, update_bias_only=set())
    out = [(f"update_channels = {f} on every updated layer",
            dataclasses.replace(model, update_channels={n: f for n in updated},
                                update_bias_only=set())) for f in (0.5, 0.25)]
    shapes = model.shapes()
    with_bias = [n for n in updated
                 if "bias" in model.layers[model.index(n)].params(shapes[model.index(n)])]
    if with_bias:
        out.append((f"update = \"bias\" on {', '.join(with_bias)} (the rest frozen)",
                    dataclasses.replace(model, update=set(with_bias), update_channels={},
                                        update_bias_only=set(with_bias))))
    for k in range(len(updated) - 1, 0, -1):
        out.append((f"only the last {k} updated layer(s) ({', '.join(updated[-k:])})",
                    dataclasses.replace(model, update=set(updated[-k:]), **plain)))
    return out
