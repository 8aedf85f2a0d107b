// The timeline: every cue along the running time, problem markers above
// it coloured by severity (and shaped, so colour is not the only cue);
// clicking or pressing Enter on a marker or a cue selects that cue. A set
// of cues (an ExplainAI step's) can be highlighted at once.

import type { Diagnostic, Severity } from "../api/types";
import { clock, type Cue } from "../captions";
import { h, svg } from "../dom";
import { highlightedRows } from "./diagtable";

const W = 1000;
const LANE: Record<Severity, number> = { error: 14, warning: 32, info: 50 };
const CUE_Y = 66;
const CUE_H = 22;
const AXIS_Y = 100;
const H = 120;

export interface Timeline {
  el: HTMLElement;
  mark(cue: number | null): void;
  /**
   * highlight marks these cues (none: clears) and their markers, with
   * codes only the markers of those codes unless no marker of the cues has
   * one, and scrolls the first cue into view.
   */
  highlight(cues: number[], codes?: string[]): void;
}

function interactive(el: SVGElement, label: string, pick: () => void): SVGElement {
  el.setAttribute("tabindex", "0");
  el.setAttribute("role", "button");
  el.setAttribute("aria-label", label);
  el.addEventListener("click", pick);
  el.addEventListener("keydown", (e) => {
    const k = (e as KeyboardEvent).key;
    if (k === "Enter" || k === " ") {
      e.preventDefault();
      pick();
    }
  });
  return el;
}

function niceStep(totalMs: number): number {
  const steps = [1000, 2000, 5000, 10000, 15000, 30000, 60000, 120000, 300000, 600000, 900000, 1800000, 3600000];
  return steps.find((s) => totalMs / s <= 10) ?? 3600000;
}

/** timeline renders cues and markers; onSelect gets a cue index. */
export function timeline(cues: Cue[], diags: Diagnostic[], onSelect: (cue: number) => void): Timeline {
  const legend = h(
    "ul",
    { class: "legend", "aria-label": "Timeline legend" },
    // Without diagnostics (a project's timeline) only cues are drawn.
    diags.length ? h("li", null, h("span", { class: "key key-error", "aria-hidden": "true" }, "✕"), " Error") : null,
    diags.length ? h("li", null, h("span", { class: "key key-warning", "aria-hidden": "true" }, "▲"), " Warning") : null,
    diags.length ? h("li", null, h("span", { class: "key key-info", "aria-hidden": "true" }, "●"), " Info") : null,
    h("li", null, h("span", { class: "key key-cue", "aria-hidden": "true" }), " Cue"),
  );
  const legendHighlight = h("li", { id: "timeline-legend-highlight", hidden: true }, h("span", { class: "key key-highlight", "aria-hidden": "true" }), " Cue of the chosen step");
  legend.appendChild(legendHighlight);
  if (cues.length === 0) {
    return {
      el: h(
        "div",
        { id: "timeline", class: "timeline-empty" },
        h("p", { class: "muted" }, "The timeline needs cue times this page could not read from the file; the diagnostics above are complete."),
      ),
      mark() {},
      highlight() {},
    };
  }
  const end = Math.max(...cues.map((c) => c.endMs), 1000);
  const x = (t: number) => (Math.max(0, t) / end) * (W - 20) + 10;
  const withCue = diags.filter((d) => d.cueIndex !== undefined && d.cueIndex < cues.length);
  const counts = { error: 0, warning: 0, info: 0 } as Record<Severity, number>;
  withCue.forEach((d) => (counts[d.severity] = (counts[d.severity] ?? 0) + 1));

  const root = svg(
    "svg",
    {
      id: "timeline",
      viewBox: `0 0 ${W} ${H}`,
      role: "group",
      "aria-labelledby": "timeline-title",
      "aria-describedby": "timeline-desc",
      class: "timeline",
    },
    svg("title", { id: "timeline-title" }, "Caption timeline"),
    svg(
      "desc",
      { id: "timeline-desc" },
      `${cues.length} cues over ${clock(end)}; ${counts.error} error, ${counts.warning} warning and ${counts.info} info markers. Select a marker or cue to show the cue.`,
    ),
    svg("line", { x1: 10, x2: W - 10, y1: AXIS_Y, y2: AXIS_Y, class: "axis" }),
  );
  const step = niceStep(end);
  for (let t = 0; t <= end; t += step) {
    root.appendChild(svg("line", { x1: x(t), x2: x(t), y1: AXIS_Y, y2: AXIS_Y + 5, class: "axis" }));
    root.appendChild(svg("text", { x: x(t), y: AXIS_Y + 16, class: "tick", "text-anchor": t === 0 ? "start" : "middle" }, clock(t).replace(/\.\d+$/, "")));
  }
  const cueEls: SVGElement[] = cues.map((c, i) => {
    const w = Math.max(2, x(c.endMs) - x(c.startMs));
    const r = svg(
      "rect",
      { x: x(c.startMs), y: CUE_Y, width: w, height: CUE_H, rx: 2, class: "cue", "data-cue": i },
      svg("title", null, `Cue ${i + 1}: ${clock(c.startMs)} → ${clock(c.endMs)}`),
    );
    return interactive(r, `Cue ${i + 1}, ${clock(c.startMs)} to ${clock(c.endMs)}`, () => onSelect(i));
  });
  const cueGroup = svg("g", { class: "cues", "aria-label": "Cues" }, ...cueEls);
  const markers = withCue.map((d) => {
    const c = cues[d.cueIndex as number];
    const cx = x((c.startMs + c.endMs) / 2);
    const cy = LANE[d.severity] ?? LANE.info;
    const label = `${d.severity} ${d.code} on cue ${(d.cueIndex as number) + 1}: ${d.message}`;
    let shape: SVGElement;
    if (d.severity === "error") shape = svg("rect", { x: cx - 5, y: cy - 5, width: 10, height: 10, transform: `rotate(45 ${cx} ${cy})` });
    else if (d.severity === "warning") shape = svg("polygon", { points: `${cx},${cy - 6} ${cx + 6},${cy + 5} ${cx - 6},${cy + 5}` });
    else shape = svg("circle", { cx, cy, r: 5 });
    const g = svg("g", { class: `marker marker-${d.severity}`, "data-cue": d.cueIndex, "data-code": d.code }, svg("title", null, label), shape);
    return interactive(g, label, () => onSelect(d.cueIndex as number));
  });
  root.appendChild(cueGroup);
  root.appendChild(svg("g", { class: "markers", "aria-label": "Problem markers" }, ...markers));

  const scroller = h("div", { class: "timeline-scroll" }, root as unknown as HTMLElement);
  const el = h("figure", { class: "timeline-wrap" }, scroller, legend);
  return {
    el,
    mark(cue) {
      cueEls.forEach((r, i) => r.classList.toggle("selected", i === cue));
      markers.forEach((m) => m.classList.toggle("selected", m.getAttribute("data-cue") === String(cue)));
    },
    highlight(list, codes = []) {
      const set = new Set(list);
      cueEls.forEach((r, i) => r.classList.toggle("highlighted", set.has(i)));
      const marked = new Set(highlightedRows(withCue, list, codes));
      markers.forEach((m, i) => m.classList.toggle("highlighted", marked.has(i)));
      legendHighlight.hidden = !cueEls.some((_, i) => set.has(i));
      // Only the timeline's own box scrolls (sideways, on a narrow
      // screen): the page stays where the diagnostics table put it.
      const first = cueEls.findIndex((_, i) => set.has(i));
      if (first >= 0 && scroller.scrollWidth > scroller.clientWidth) {
        const r = cueEls[first].getBoundingClientRect();
        const b = scroller.getBoundingClientRect();
        scroller.scrollLeft += r.left - b.left - b.width / 4;
      }
    },
  };
}
