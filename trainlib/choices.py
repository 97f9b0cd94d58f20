"""The choice table: which kernel and tile each (layer, step) uses.

The autotuner writes it, ``trainlib train --choices FILE`` reads it, and a model file may carry
the same entries inline.  Format (TOML, ``format = "trainlib-choices/1"``)::

    format = "trainlib-choices/1"

    [meta]                      # optional, informational (what it was tuned for)
    cores = 8
    config = "pulp-open"

    [[choice]]
    layer = "conv1"             # layer name in the model
    step = "fw"                 # fw | wg | ig | update.weight | update.bias | wg+update
    kernel = "mm_4x4_n"         # catalogue kernel for the step's main operation
                                #   (matmul family; depthwise: mm_dw* for fw,
                                #    mm_dw_in_grad* for wg and ig); not for an update,
                                #   whose kernel is fixed by its precision, nor for
                                #   wg+update, which runs its weight gradient's kernel
    tile = 4                    # optional: indices of the split dimension per tile, for a
                                #   step streamed from L2 (Co for fw/wg, Ci for ig, C for
                                #   depthwise, elements for an update); omitted: the
                                #   planner's fewest tiles; a tile below the extent runs
                                #   several tiles double-buffered where they fit (wg+update:
                                #   single-buffered where they do not); ignored
                                #   when the model is resident in TCDM (steps run whole)
    signature = "conv2d in=..." # optional: Layer.signature(input shape) when tuned; a layer
                                #   that changed since is refused instead of silently mis-tuned
    cycles = 12345              # optional, informational: what the tuner measured

Steps without an entry use ``trainlib.lowering.DEFAULT_KERNELS``.  Entries are keyed by
(layer, step); a repeated key is an error.  The ``update.<param>`` entries tile the SGD update
phases that stay on their own; the ``wg+update`` entry tiles the fused weight-gradient/update
phase of the reordered update order (``trainlib.memplan``), which ``trainlib deploy`` alone
runs.  Without one (a table from before the entry existed) the fused phase is tiled as its
weight gradient's entry says.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from isasim.config import read_toml
from trainlib.errors import ModelError, checked

FORMAT = "trainlib-choices/1"
CHOICE_KINDS = {"layer": "str", "step": "str", "kernel": "str", "tile": "int", "signature": "str",
                "cycles": "int"}
KEYS = set(CHOICE_KINDS)
UPDATE_STEPS = ("update.weight", "update.bias")
FUSED_STEP = "wg+update"
STEPS = ("fw", "wg", "ig", *UPDATE_STEPS, FUSED_STEP)


@dataclass(frozen=True)
class Choice:
    layer: str
    step: str
    kernel: str | None = None
    tile: int | None = None
    signature: str | None = None
    cycles: int | None = None


@dataclass
class ChoiceTable:
    entries: dict[tuple[str, str], Choice] = field(default_factory=dict)
    meta: dict = field(default_factory=dict)

    def get(self, layer: str, step: str) -> Choice | None:
        return self.entries.get((layer, step))

    def add(self, c: Choice) -> None:
        if c.step not in STEPS:
            raise ModelError(f"choice for layer {c.layer}: step must be one of "
                             f"{', '.join(STEPS)}, not {c.step!r}")
        if c.step in UPDATE_STEPS and c.kernel is not None:
            raise ModelError(f"choice for layer {c.layer} {c.step}: an update has no kernel "
                             f"choice (its kernel is fixed by the layer's precision); give "
                             f"only its tile")
        if c.step == FUSED_STEP and c.kernel is not None:
            raise ModelError(f"choice for layer {c.layer} {c.step}: the fused phase runs its "
                             f"weight gradient's kernel (the layer's wg entry); give only "
                             f"its tile")
        if c.tile is not None and (not isinstance(c.tile, int) or c.tile < 1):
            raise ModelError(f"choice for layer {c.layer} {c.step}: tile must be a positive "
                             f"integer, not {c.tile!r}")
        if (c.layer, c.step) in self.entries:
            raise ModelError(f"choice for layer {c.layer} {c.step} given twice")
        self.entries[(c.layer, c.step)] = c

    @classmethod
    def from_entries(cls, entries: Iterable[dict], meta: dict | None = None,
                     where: str = "choice table") -> ChoiceTable:
        t = cls(meta=dict(meta or {}))
        for i, e in enumerate(entries):
            unknown = set(e) - KEYS
            if unknown or "layer" not in e or "step" not in e:
                raise ModelError(f"{where}: choice {i}: needs layer and step; unknown keys "
                                 f"{sorted(unknown)}" if unknown else
                                 f"{where}: choice {i}: needs layer and step")
            for key, value in e.items():
                checked(value, CHOICE_KINDS[key], f"{where}: choice {i}: {key}", key)
            t.add(Choice(**e))
        return t

    @classmethod
    def load(cls, path: str | Path) -> ChoiceTable:
        p = Path(path)
        data = read_toml(p, ModelError, "choice table ")
        if data.get("format", FORMAT) != FORMAT:
            raise ModelError(f"{p}: format {data.get('format')!r}, expected {FORMAT!r}")
        return cls.from_entries(data.get("choice", []), data.get("meta"), str(p))

    def dumps(self) -> str:
        lines = [f'format = "{FORMAT}"', ""]
        if self.meta:
            lines.append("[meta]")
            lines += [f"{k} = {toml_value(v)}" for k, v in self.meta.items()]
            lines.append("")
        for c in self.entries.values():
            lines.append("[[choice]]")
            for k in ("layer", "step", "kernel", "tile", "signature", "cycles"):
                v = getattr(c, k)
                if v is not None:
                    lines.append(f"{k} = {toml_value(v)}")
            lines.append("")
        return "\n".join(lines)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.dumps())

    def check_against(self, names_signatures: dict[str, str]) -> None:
        """Refuse entries for unknown layers or for layers changed since tuning."""
        for (layer, step), c in self.entries.items():
            if layer not in names_signatures:
                raise ModelError(f"choice for layer {layer} {step}: no such layer in the "
                                 f"model (layers: {', '.join(names_signatures)})")
            if c.signature is not None and c.signature != names_signatures[layer]:
                raise ModelError(f"choice for layer {layer} {step} was tuned for "
                                 f"'{c.signature}', the layer is '{names_signatures[layer]}'")


def toml_value(v) -> str:
    """A TOML value: bool, number, string, or a list of them."""
    if isinstance(v, list | tuple):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float):
        return repr(v)
    return '"' + str(v).replace("\\", "\\\\").replace('"', '\\"') + '"'
