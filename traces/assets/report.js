"use strict";
// isasim run report: renders the run data embedded in #run-data.  No network, no libraries.
(function () {
  // a report of several runs (the layer steps of a training step) has #steps-data and a
  // selector; the page is drawn again from its pristine sections for the run selected
  const stepsData = document.getElementById("steps-data");
  const main = document.querySelector("main");
  const pristine = main.innerHTML;
  if (stepsData) {
    const S = JSON.parse(stepsData.textContent);
    const pick = document.getElementById("step-select");
    S.labels.forEach((label, i) => pick.appendChild(el("option", { value: String(i), text: label })));
    document.getElementById("step-picker").hidden = false;
    const params = new URLSearchParams(window.location.search);
    const first = params.has("step") ? Number(params.get("step")) : S.initial;
    pick.value = String(first);
    pick.addEventListener("change", () => {
      main.innerHTML = pristine;
      document.getElementById("notes").textContent = "";
      render(S.runs[Number(pick.value)]);
    });
    render(S.runs[first]);
  } else {
    render(JSON.parse(document.getElementById("run-data").textContent));
  }

  function el(tag, attrs, children) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) {
      if (k === "text") e.textContent = attrs[k];
      else if (k === "style") e.setAttribute("style", attrs[k]);
      else e.setAttribute(k, attrs[k]);
    }
    for (const c of children || []) e.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    return e;
  }

function render(D) {
  const CATS = D.categories;
  const COLORS = D.colors;
  const params = new URLSearchParams(window.location.search);
  const fmt = (n) => Number(n).toLocaleString("en-US");
  const pct = (a, b) => (b ? (100 * a / b).toFixed(1) + "%" : "-");
  const hex = (n) => "0x" + Number(n).toString(16).padStart(8, "0");
  const num = (v, attrs) => el("td", Object.assign({ class: "n", "data-value": String(v), text: fmt(v) }, attrs || {}));
  const TEXT_COLUMNS = new Set(["core", "pc", "function", "instruction", "stall cycles by reason", "core \\ bank", ""]);
  function head(table, names) { // numbers are right-aligned, and so are their headers
    table.appendChild(el("tr", {}, names.map((n) => el("th", { class: TEXT_COLUMNS.has(n) ? "" : "n", text: n }))));
  }
  function swatch(k) { return el("i", { style: "background:" + COLORS[k] }); }

  // ---- summary ----------------------------------------------------------------------------
  const totalInstr = D.instret.reduce((a, b) => a + b, 0);
  const coreCycles = D.cycles.reduce((a, b) => a + b, 0);
  document.getElementById("summary").textContent =
    D.status + ", exit code " + D.exit_code + ": " + fmt(D.total_cycles) + " cycles on " + D.ncores +
    " cores, " + fmt(totalInstr) + " instructions, cluster IPC " +
    (D.total_cycles ? (totalInstr / D.total_cycles).toFixed(2) : "-") + " (config " + (D.config.name || "?") + ")";
  const notes = document.getElementById("notes");
  if (D.fault) notes.appendChild(el("pre", { class: "warn", text: D.fault }));
  for (const w of D.warnings) notes.appendChild(el("div", { class: "warn", text: "warning: " + w }));
  if (!D.timeline) notes.appendChild(el("div", { class: "warn", text: "This run was saved without an event log: no timeline and no (instruction, bank) pairs. Run it again with --report or --trace." }));

  // ---- stall bars and table -----------------------------------------------------------------
  const used = CATS.map((_, k) => D.cat.some((row) => row[k] > 0));
  const legend = document.getElementById("legend");
  CATS.forEach((name, k) => { if (used[k]) legend.appendChild(el("span", {}, [swatch(k), name])); });
  document.getElementById("timeline-legend").appendChild(legend.cloneNode(true));
  const bars = document.getElementById("bars");
  for (let c = 0; c < D.ncores; c++) {
    const bar = el("div", { class: "bar" });
    CATS.forEach((name, k) => {
      const v = D.cat[c][k];
      if (!v) return;
      bar.appendChild(el("div", { style: "width:" + (100 * v / D.cycles[c]) + "%;background:" + COLORS[k], title: "core " + c + " " + name + ": " + fmt(v) + " cycles (" + pct(v, D.cycles[c]) + ")" }));
    });
    bars.appendChild(el("div", { class: "barrow" }, [el("b", { text: "core " + c }), bar]));
  }
  const st = document.getElementById("stall-table");
  head(st, ["core", "cycles", "IPC"].concat(CATS.filter((_, k) => used[k])));
  const sums = CATS.map(() => 0);
  for (let c = 0; c < D.ncores; c++) {
    const tr = el("tr", { "data-core": String(c) }, [el("td", { text: String(c) }), num(D.cycles[c], { "data-cat": "cycles", "data-core": String(c) }),
      el("td", { class: "n", text: D.cycles[c] ? (D.instret[c] / D.cycles[c]).toFixed(2) : "-" })]);
    CATS.forEach((name, k) => {
      if (!used[k]) return;
      sums[k] += D.cat[c][k];
      const td = num(D.cat[c][k], { "data-core": String(c), "data-cat": name, title: pct(D.cat[c][k], D.cycles[c]) });
      tr.appendChild(td);
    });
    st.appendChild(tr);
  }
  const all = el("tr", {}, [el("th", { text: "all" }), num(coreCycles), el("td", { class: "n", text: D.total_cycles ? (totalInstr / D.total_cycles).toFixed(2) : "-" })]);
  CATS.forEach((name, k) => { if (used[k]) all.appendChild(el("td", { class: "n", text: pct(sums[k], coreCycles) })); });
  st.appendChild(all);

  // ---- conflicts ------------------------------------------------------------------------------
  const hm = document.getElementById("heatmap");
  const nb = D.conflicts.length ? D.conflicts[0].length : 0;
  let peak = 1;
  D.conflicts.forEach((row) => row.forEach((v) => { peak = Math.max(peak, v); }));
  head(hm, ["core \\ bank"].concat(Array.from({ length: nb }, (_, b) => String(b))).concat(["total"]));
  const bankSum = new Array(nb).fill(0);
  D.conflicts.forEach((row, c) => {
    const tr = el("tr", {}, [el("th", { text: "core " + c })]);
    row.forEach((v, b) => {
      bankSum[b] += v;
      const a = v / peak;
      tr.appendChild(el("td", { class: "n", "data-core": String(c), "data-bank": String(b), "data-value": String(v), text: v ? fmt(v) : "",
        style: v ? "background:rgba(229,57,53," + (0.08 + 0.85 * a).toFixed(3) + ")" : "", title: "core " + c + ", bank " + b + ": " + fmt(v) + " cycles" }));
    });
    tr.appendChild(num(row.reduce((x, y) => x + y, 0), { "data-core": String(c), "data-bank": "total" }));
    hm.appendChild(tr);
  });
  const btot = el("tr", {}, [el("th", { text: "total" })]);
  bankSum.forEach((v, b) => btot.appendChild(num(v, { "data-bank-total": String(b) })));
  btot.appendChild(num(bankSum.reduce((x, y) => x + y, 0), { id: "conflicts-total" }));
  hm.appendChild(btot);
  const pairs = document.getElementById("pairs");
  if (D.pairs === null) {
    pairs.appendChild(el("tr", {}, [el("td", { text: "needs the run's event log (run with --trace or --report)" })]));
  } else if (!D.pairs.length) {
    pairs.appendChild(el("tr", {}, [el("td", { text: "no bank conflicts" })]));
  } else {
    head(pairs, ["pc", "function", "instruction", "bank", "cycles", "% of conflicts"]);
    const tot = bankSum.reduce((x, y) => x + y, 0);
    for (const p of D.pairs) {
      pairs.appendChild(el("tr", {}, [el("td", { class: "mono", text: hex(p.pc) }), el("td", { text: p.fn }),
        el("td", { class: "mono", text: p.text }), el("td", { class: "n", text: String(p.bank) }), num(p.cycles), el("td", { class: "n", text: pct(p.cycles, tot) })]));
    }
  }

  // ---- hot spots ------------------------------------------------------------------------------
  function stallText(stalls) {
    return Object.keys(stalls).sort((a, b) => stalls[b] - stalls[a]).map((k) => k + " " + fmt(stalls[k])).join(", ");
  }
  const hot = document.getElementById("hot");
  head(hot, ["pc", "function", "instruction", "cycles", "% of core-cycles", "issued", "icache misses", "stall cycles by reason"]);
  for (const h of D.hot) {
    hot.appendChild(el("tr", {}, [el("td", { class: "mono", text: hex(h.pc) }), el("td", { text: h.fn }), el("td", { class: "mono", text: h.text }),
      num(h.cycles), el("td", { class: "n", text: pct(h.cycles, coreCycles) }), num(h.count), num(h.imiss), el("td", { text: stallText(h.stalls) })]));
  }

  // ---- annotated listing ----------------------------------------------------------------------
  const sel = document.getElementById("core-select");
  sel.appendChild(el("option", { value: "all", text: "all" }));
  for (let c = 0; c < D.ncores; c++) sel.appendChild(el("option", { value: String(c), text: "core " + c }));
  function renderListing() {
    const L = D.listing;
    const table = document.getElementById("listing");
    table.textContent = "";
    const cores = sel.value === "all" ? D.cycles.map((_, c) => c) : [Number(sel.value)];
    const total = cores.reduce((a, c) => a + D.cycles[c], 0);
    const rows = L.pc.map((pc, i) => {
      let count = 0;
      const stalls = {};
      let cyc = 0;
      for (const c of cores) {
        count += L.count[c][i];
        CATS.forEach((name, k) => {
          const v = L.stall[c][k][i];
          if (v) { stalls[name] = (stalls[name] || 0) + v; cyc += v; }
        });
      }
      return { i: i, count: count, stalls: stalls, cycles: cyc + count };
    });
    const peakLine = Math.max(1, ...rows.map((r) => r.cycles));
    head(table, ["% cycles", "", "cycles", "issued", "stall cycles by reason", "pc", "instruction"]);
    let fn = null;
    for (const r of rows) {
      if (L.fn[r.i] !== fn) {
        fn = L.fn[r.i];
        const fnCycles = rows.filter((x) => L.fn[x.i] === fn).reduce((a, x) => a + x.cycles, 0);
        table.appendChild(el("tr", { class: "fn" }, [el("td", { colspan: "7", text: fn + "  (" + fmt(fnCycles) + " cycles, " + pct(fnCycles, total) + ")" })]));
      }
      table.appendChild(el("tr", { "data-pc": String(L.pc[r.i]) }, [el("td", { class: "n", text: r.cycles ? pct(r.cycles, total) : "" }),
        el("td", {}, [el("span", { class: "heat", style: "width:" + Math.round(60 * r.cycles / peakLine) + "px" })]),
        num(r.cycles), num(r.count), el("td", { text: stallText(r.stalls) }), el("td", { class: "mono", text: hex(L.pc[r.i]) }),
        el("td", { class: "mono", text: L.text[r.i] })]));
    }
  }
  sel.addEventListener("change", renderListing);
  renderListing();

  // ---- configuration --------------------------------------------------------------------------
  const cfg = document.getElementById("config");
  for (const k of Object.keys(D.config)) {
    const v = D.config[k];
    const shown = typeof v === "number" && /_base$/.test(k) ? hex(v) : JSON.stringify(v);
    cfg.appendChild(el("tr", {}, [el("th", { text: k }), el("td", { class: "mono", text: shown })]));
  }

  // ---- timeline -------------------------------------------------------------------------------
  const T = D.timeline;
  const canvas = document.getElementById("timeline");
  const note = document.getElementById("timeline-note");
  if (!T) {
    document.getElementById("s-timeline").hidden = true;
  } else {
    setupTimeline();
  }

  function setupTimeline() {
    const ctx = canvas.getContext("2d");
    const LEFT = 62, TOP = 22, LANE = 30, FN_H = 9, GAP = 4;
    const width = Math.max(400, Math.min(1200, canvas.parentElement.clientWidth || 1200));
    canvas.width = width;
    canvas.height = TOP + D.ncores * LANE + 8;
    const plotW = width - LEFT - 8;
    const total = Math.max(D.total_cycles, 1);
    const cores = T.cores.map((c) => {
      const starts = new Float64Array(c.len.length + 1);
      for (let i = 0; i < c.len.length; i++) starts[i + 1] = starts[i] + c.len[i];
      const mix = Object.keys(c.mix).map((name) => ({ k: CATS.indexOf(name), v: c.mix[name] }));
      return Object.assign({}, c, { starts: starts, mixList: mix });
    });
    const capped = cores.some((c, i) => c.detail_end < D.cycles[i]);
    note.textContent = "Window: " + fmt(T.window) + " cycles." + (capped ? " Exact runs are kept up to cycle " +
      fmt(Math.min.apply(null, cores.map((c) => c.detail_end))) + " (file size cap); later, the per-window mix is shown." : "");
    let t0 = Number(params.get("t0")) || 0;
    let t1 = Number(params.get("t1")) || total;
    if (!(t1 > t0)) { t0 = 0; t1 = total; }

    function bsearch(arr, x) { // last index i with arr[i] <= x
      let lo = 0, hi = arr.length - 1;
      if (hi < 0 || arr[0] > x) return -1;
      while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (arr[mid] <= x) lo = mid; else hi = mid - 1; }
      return lo;
    }
    const X = (t) => LEFT + (t - t0) * plotW / (t1 - t0);
    function fnColor(sym) { const h = (sym * 137.5) % 360; return "hsl(" + h + ",45%,72%)"; }
    function detailed(c) {
      if (t1 > c.detail_end + 0.5 || !c.len.length) return false;
      const i0 = Math.max(0, bsearch(c.starts, t0)), i1 = bsearch(c.starts, t1);
      return i1 - i0 < plotW / 3;   // about 3 pixels per run or more
    }
    function drawRuns(c, y) {
      const i0 = Math.max(0, bsearch(c.starts, t0));
      const i1 = Math.min(c.len.length - 1, bsearch(c.starts, t1));
      for (let i = i0; i <= i1; i++) {
        const x0 = X(c.starts[i]), x1 = X(c.starts[i + 1]);
        ctx.fillStyle = COLORS[c.state[i]];
        ctx.fillRect(Math.max(LEFT, x0), y + FN_H + 1, Math.max(0.6, Math.min(x1, LEFT + plotW) - Math.max(LEFT, x0)), LANE - FN_H - GAP - 1);
      }
    }
    function drawFns(c, y) {
      const j0 = bsearch(c.fn_t, t0), j1 = bsearch(c.fn_t, t1);
      ctx.font = "10px sans-serif";
      ctx.textBaseline = "middle";
      for (let j = Math.max(0, j0 - 1); j <= j1 && j < c.fn_t.length; j++) {
        if (c.fn_e[j] < t0) continue;
        const x0 = Math.max(LEFT, X(c.fn_t[j])), x1 = Math.min(LEFT + plotW, X(c.fn_e[j]));
        if (x1 <= x0) continue;
        ctx.fillStyle = fnColor(c.fn_sym[j]);
        ctx.fillRect(x0, y, Math.max(0.6, x1 - x0), FN_H);
        if (x1 - x0 > 40) {
          ctx.fillStyle = "#222";
          const name = c.fn_sym[j] >= 0 ? T.symbols[c.fn_sym[j]] : "(no symbol)";
          ctx.save(); ctx.beginPath(); ctx.rect(x0, y, x1 - x0, FN_H); ctx.clip();
          ctx.fillText(name, x0 + 2, y + FN_H / 2); ctx.restore();
        }
      }
    }
    function drawMix(c, y) {
      const cpp = (t1 - t0) / plotW;
      const h = LANE - FN_H - GAP - 1;
      for (let p = 0; p < plotW; p++) {
        const a = t0 + p * cpp, b = a + cpp;
        const k0 = Math.max(0, Math.floor(a / T.window)), k1 = Math.min(T.nwin - 1, Math.max(k0, Math.ceil(b / T.window) - 1));
        if (k0 > k1) continue;
        let sum = 0;
        const parts = [];
        for (const m of c.mixList) {
          let v = 0;
          for (let k = k0; k <= k1; k++) v += m.v[k];
          if (v) { parts.push([m.k, v]); sum += v; }
        }
        let yy = y + FN_H + 1;
        for (const part of parts) {
          const hh = h * part[1] / sum;
          ctx.fillStyle = COLORS[part[0]];
          ctx.fillRect(LEFT + p, yy, 1, hh);
          yy += hh;
        }
      }
    }
    function niceStep(span) {
      const raw = span / 8, p = Math.pow(10, Math.floor(Math.log10(raw)));
      for (const m of [1, 2, 5, 10]) if (m * p >= raw) return m * p;
      return 10 * p;
    }
    function draw() {
      ctx.clearRect(0, 0, canvas.width, canvas.height);
      ctx.fillStyle = "#444";
      ctx.font = "11px sans-serif";
      ctx.textBaseline = "alphabetic";
      const step = niceStep(t1 - t0);
      for (let t = Math.ceil(t0 / step) * step; t <= t1; t += step) {
        const x = X(t);
        ctx.fillRect(x, TOP - 5, 1, 4);
        ctx.fillText(fmt(Math.round(t)), x + 2, TOP - 8);
      }
      cores.forEach((c, i) => {
        const y = TOP + i * LANE;
        ctx.fillStyle = "#333";
        ctx.textBaseline = "middle";
        ctx.fillText("core " + i, 4, y + LANE / 2);
        if (detailed(c)) drawRuns(c, y); else drawMix(c, y);
        drawFns(c, y);
      });
      document.getElementById("range").textContent = "cycles " + fmt(Math.round(t0)) + " .. " + fmt(Math.round(t1)) +
        " (" + fmt(Math.round(t1 - t0)) + ")";
    }
    function zoom(factor, at) {
      const span = Math.min(total, Math.max(20, (t1 - t0) * factor));
      const f = (at - t0) / (t1 - t0);
      t0 = Math.max(0, at - f * span);
      t1 = t0 + span;
      if (t1 > total) { t1 = total; t0 = Math.max(0, total - span); }
      draw();
    }
    const cycleAt = (px) => t0 + (px - LEFT) * (t1 - t0) / plotW;
    function localX(ev) { const r = canvas.getBoundingClientRect(); return (ev.clientX - r.left) * canvas.width / r.width; }
    function localY(ev) { const r = canvas.getBoundingClientRect(); return (ev.clientY - r.top) * canvas.height / r.height; }
    canvas.addEventListener("wheel", (ev) => { ev.preventDefault(); zoom(ev.deltaY > 0 ? 1.25 : 0.8, cycleAt(localX(ev))); }, { passive: false });
    let drag = null;
    canvas.addEventListener("mousedown", (ev) => { drag = { x: localX(ev), t0: t0, t1: t1 }; });
    window.addEventListener("mouseup", () => { drag = null; });
    const tip = document.getElementById("tip");
    canvas.addEventListener("mousemove", (ev) => {
      const x = localX(ev), y = localY(ev);
      if (drag) {
        const dt = (x - drag.x) * (drag.t1 - drag.t0) / plotW;
        const span = drag.t1 - drag.t0;
        t0 = Math.min(Math.max(0, drag.t0 - dt), total - span);
        t1 = t0 + span;
        draw();
        return;
      }
      const core = Math.floor((y - TOP) / LANE);
      if (core < 0 || core >= D.ncores || x < LEFT) { tip.hidden = true; return; }
      tip.textContent = describe(cores[core], core, Math.floor(cycleAt(x)));
      tip.hidden = false;
      tip.style.left = (ev.offsetX + 14) + "px";
      tip.style.top = (ev.offsetY + 10) + "px";
    });
    canvas.addEventListener("mouseleave", () => { tip.hidden = true; });
    canvas.addEventListener("dblclick", () => { t0 = 0; t1 = total; draw(); });
    document.getElementById("zoom-in").addEventListener("click", () => zoom(0.5, (t0 + t1) / 2));
    document.getElementById("zoom-out").addEventListener("click", () => zoom(2, (t0 + t1) / 2));
    document.getElementById("zoom-reset").addEventListener("click", () => { t0 = 0; t1 = total; draw(); });
    function describe(c, core, t) {
      if (t < c.detail_end && c.len.length) {
        const i = bsearch(c.starts, t);
        const slot = c.slot[i];
        let s = "core " + core + ", cycle " + fmt(t) + "\n" + CATS[c.state[i]] + " for " + fmt(c.len[i]) + " cycles from " + fmt(c.starts[i]);
        if (slot >= 0) s += "\n" + hex(T.slot_pc[slot]) + "  " + T.slot_text[slot];
        const j = bsearch(c.fn_t, t);
        if (j >= 0 && t < c.fn_e[j]) s += "\nin " + (c.fn_sym[j] >= 0 ? T.symbols[c.fn_sym[j]] : "(no symbol)");
        return s;
      }
      const k = Math.min(T.nwin - 1, Math.floor(t / T.window));
      const parts = c.mixList.filter((m) => m.v[k]).sort((a, b) => b.v[k] - a.v[k]).map((m) => CATS[m.k] + " " + m.v[k]);
      return "core " + core + ", window " + fmt(k * T.window) + ".." + fmt((k + 1) * T.window) + "\n" + parts.join("\n");
    }
    draw();
  }

  if (params.get("only")) {
    for (const s of document.querySelectorAll("main > section")) s.hidden = s.id !== "s-" + params.get("only");
  }
  if (D.title) document.getElementById("title").textContent = D.title;
  document.body.dataset.ready = "1";
}
})();
