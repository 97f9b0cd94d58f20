"""The memory timeline of a whole-step plan as a self-contained HTML page (inline SVG).

One chart per memory (TCDM, L2): the phases of the step left to right, byte offsets bottom to
top, and every packed tensor a box from the phase that writes it to the last phase that reads
it, at its offset and as tall as its bytes (hover: name, bytes, lifetime).  So the chart shows
both how many bytes are live at each phase (the top of the stack) and how the packer reused
them.  Persistent tensors (parameters, input, target) homed in L2 sit in their own band
below the packed arena.  ``timeline_section`` gives the fragment (to embed in a larger report),
``write_timeline`` a page.
"""

from __future__ import annotations

import html
import zlib
from pathlib import Path

from trainlib.memplan import MemPlan, Tensor

WIDTH, HEIGHT, LEFT, BOTTOM, TOP, RIGHT = 960, 320, 80, 110, 12, 60
COLOURS = {"input": "#8c8c8c", "target": "#8c8c8c", "param": "#4e79a7", "act": "#59a14f",
           "grad": "#e15759", "pgrad": "#f28e2b", "loss": "#b07aa1", "local": "#bab0ac"}


def _boxes(plan: MemPlan, place: str) -> tuple[list[tuple[Tensor, int]], int]:
    """(tensor, base offset) of every box of one memory, and the memory's height in bytes."""
    out: list[tuple[Tensor, int]] = []
    base = 0
    if place == "l2":
        for t in plan.tensors.values():
            if t.persistent:
                out.append((t, base))
                base += t.nbytes
    elif plan.args_bytes:
        out.append((Tensor("load/store argument window", plan.args_bytes // 4, "local", "tcdm",
                           0, len(plan.phases) - 1, offset=0), 0))
        base = plan.args_bytes
    for t in list(plan.tensors.values()) + [t for ls in plan.locals for t in ls]:
        if t.place == place and not (t.persistent and place == "l2"):
            out.append((t, base + t.offset))
    top = max((b + t.nbytes for t, b in out), default=1)
    return out, top


def _chart(plan: MemPlan, place: str) -> str:
    boxes, top = _boxes(plan, place)
    n = len(plan.phases)
    w = (WIDTH - LEFT - RIGHT) / max(n, 1)
    scale = HEIGHT / top
    parts = [f'<svg width="{WIDTH}" height="{TOP + HEIGHT + BOTTOM}" '
             f'xmlns="http://www.w3.org/2000/svg" font-family="sans-serif" font-size="10">',
             f'<g transform="translate(0,{TOP})">']
    for t, base in boxes:
        x = LEFT + t.first * w
        y = HEIGHT - (base + t.nbytes) * scale
        colour = COLOURS.get(t.kind, "#bab0ac")
        if t.kind == "local":     # a phase's own buffers: one shade per phase
            colour = f"hsl({zlib.crc32(t.name.encode()) % 360}, 25%, 70%)"
        life = (plan.phases[t.first].title if t.first == t.last else
                f"{plan.phases[t.first].title} .. {plan.phases[t.last].title}")
        tip = html.escape(f"{t.name}: {t.nbytes:,} B, offset {base:,}; {life}")
        parts.append(f'<rect x="{x:.1f}" y="{y:.1f}" width="{(t.last - t.first + 1) * w:.1f}" '
                     f'height="{max(t.nbytes * scale, 0.5):.1f}" fill="{colour}" '
                     f'stroke="#fff" stroke-width="0.5"><title>{tip}</title></rect>')
    for frac in (0, 0.25, 0.5, 0.75, 1):
        y = HEIGHT - frac * HEIGHT
        parts.append(f'<text x="{LEFT - 4}" y="{y + 3:.1f}" text-anchor="end">'
                     f'{int(frac * top):,}</text>')
    for p, ph in enumerate(plan.phases):
        x = LEFT + (p + 0.5) * w
        parts.append(f'<text transform="translate({x:.1f},{HEIGHT + 6}) rotate(60)">'
                     f'{html.escape(ph.title)}</text>')
    parts.append("</g></svg>")
    return "\n".join(parts)


def timeline_section(plan: MemPlan) -> str:
    """An HTML fragment: the peaks and one chart per memory."""
    legend = " ".join(f'<span style="background:{c};padding:0 6px">{k}</span>'
                      for k, c in COLOURS.items() if k != "target")
    return (f"<h2>Memory timeline: {html.escape(plan.model.name)}</h2>"
            f"<p>{html.escape(plan.describe())}</p><p>{legend}</p>"
            f"<h3>TCDM (L1), {plan.l1_peak:,} bytes at the peak</h3>{_chart(plan, 'tcdm')}"
            f"<h3>L2, {plan.l2_peak:,} bytes at the peak</h3>{_chart(plan, 'l2')}")


def write_timeline(plans: list[MemPlan], path: str | Path) -> Path:
    """A page with the timeline of each plan (e.g. both update orders)."""
    body = "\n".join(timeline_section(p) for p in plans)
    Path(path).write_text(f"<!doctype html><html><head><meta charset='utf-8'><title>memory "
                          f"timeline</title></head><body>{body}</body></html>\n")
    return Path(path)
