// The timeline: every cue along the running time, problem markers above
// it in one lane per impact, coloured by impact and shaped by what they
// mean for the delivery (so colour is not the only cue); clicking or
// pressing Enter on a marker or a cue selects that cue. A set of cues (an
// ExplainAI step's) can be highlighted at once. The legend is drawn with
// the markers' own shapes and classes, and names only what is drawn.
//
// With a programme (the media's analysis, getMediaAnalysis) the timeline
// also draws, under the cue lane, the sound's waveform and a lane of the
// stretches where someone speaks, and the shot changes as thin dashed
// ticks across the cue lane; a second legend names them.

import type { Diagnostic, Severity } from "../api/types";
import { clock, type Cue } from "../captions";
import { h, svg } from "../dom";
import { highlightedRows } from "./diagtable";
import { IMPACT_LABELS, IMPACTS, KIND_LABELS, codeLabel, impactOf, type Impact } from "./labels";
import { speechTotalMs, type Programme } from "./programme";

const W = 1000;
const PAD = 12;
const LANE: Record<Impact, number> = { high: 14, medium: 33, low: 52 };
const CUE_Y = 68;
const CUE_H = 22;
/** Shot-change ticks run from above the cue lane to just under it. */
const SHOT_Y1 = CUE_Y - 8;
const SHOT_Y2 = CUE_Y + CUE_H + 4;
/** With a programme: the waveform's band, then the speech lane, then the axis. */
const WAVE_Y = CUE_Y + CUE_H + 8;
const WAVE_H = 28;
const SPEECH_Y = WAVE_Y + WAVE_H + 6;
const SPEECH_H = 10;
/** The axis sits this far under the last lane. */
const AXIS_GAP = 12;
const AXIS_BELOW = 22;
/** SPREAD is how far apart markers of one cue in one lane are drawn. */
const SPREAD = 20;

export interface Timeline {
  el: HTMLElement;
  mark(cue: number | null): void;
  /**
   * highlight marks these cues (none: clears) and their markers, with
   * codes only the markers of those codes unless no marker of the cues has
   * one, and scrolls the first cue into view.
   */
  highlight(cues: number[], codes?: string[]): void;
  /** playhead draws the player's position, in ms, across the lanes. */
  playhead(ms: number): void;
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
  const steps = [100, 200, 500, 1000, 2000, 5000, 10000, 15000, 30000, 60000, 120000, 300000, 600000, 900000, 1800000, 3600000, 7200000];
  return steps.find((s) => totalMs / s <= 10) ?? 7200000;
}

/** shape draws a marker's shape at (cx, cy): a diamond blocks delivery, a triangle suggests, a circle notes. */
function shape(sev: Severity, cx: number, cy: number, r: number): SVGElement {
  if (sev === "error") return svg("rect", { x: cx - r, y: cy - r, width: 2 * r, height: 2 * r, transform: `rotate(45 ${cx} ${cy})` });
  if (sev === "warning") return svg("polygon", { points: `${cx},${cy - r - 1} ${cx + r + 1},${cy + r} ${cx - r - 1},${cy + r}` });
  return svg("circle", { cx, cy, r });
}

/** key is a legend symbol: a small SVG drawn with the timeline's own classes. */
function key(...children: SVGElement[]): HTMLElement {
  return svg("svg", { class: "tl-key", viewBox: "0 0 16 16", width: 16, height: 16, "aria-hidden": "true", focusable: "false" }, ...children) as unknown as HTMLElement;
}

export interface TimelineOptions {
  /** label names what the cues are, for the accessible title: "Delivery". */
  label?: string;
  /** empty is what shows when there are no cues to draw. */
  empty?: string;
  /** programme draws the media's waveform, speech and shot changes with the cues. */
  programme?: Programme;
  /**
   * edit makes the cues draggable (the editor): dragging a cue moves it,
   * dragging one of its edges (the outer 6 units) retimes that edge;
   * snap maps each dragged time (to a shot change, a frame), and onRetime
   * gets the cue's new times when the drag ends.
   */
  edit?: {
    snap(ms: number): number;
    onRetime(cue: number, startMs: number, endMs: number): void;
  };
  /** view draws only this stretch of time (zoomed in); the whole programme without it. */
  view?: { fromMs: number; toMs: number };
}

/** EDGE is how near a cue's end, in viewBox units, a drag takes that edge. */
const EDGE = 6;

/**
 * waveformPath is the waveform as one closed SVG path, mirrored about its
 * band's middle: one column a viewBox unit wide from left to right, each
 * the loudest peak of its stretch of time (so a peak is never lost when
 * many fall in one column).
 */
function waveformPath(p: Programme, t0: number, t1: number, x0: number, width: number, mid: number, half: number): string {
  const peaks = p.peaks;
  if (!peaks || !peaks.length || p.peakMs <= 0) return "";
  const cols = Math.max(1, Math.round(width));
  const amp: number[] = new Array(cols).fill(0);
  const span = t1 - t0;
  for (let k = 0; k < cols; k++) {
    const from = Math.floor((t0 + (k / cols) * span) / p.peakMs);
    const to = Math.min(peaks.length, Math.max(from + 1, Math.ceil((t0 + ((k + 1) / cols) * span) / p.peakMs)));
    let m = 0;
    for (let i = from; i < to; i++) if (peaks[i] > m) m = peaks[i];
    amp[k] = m / 255;
  }
  const step = width / cols;
  const f = (v: number) => v.toFixed(1);
  const top = amp.map((a, k) => `${k === 0 ? "M" : "L"}${f(x0 + k * step)},${f(mid - Math.max(0.5, a * half))}`);
  const bottom = amp.map((a, k) => `L${f(x0 + k * step)},${f(mid + Math.max(0.5, a * half))}`).reverse();
  return `${top.join("")}${bottom.join("")}Z`;
}

/** timeline renders cues and markers; onSelect gets a cue index. */
export function timeline(cues: Cue[], diags: Diagnostic[], onSelect: (cue: number) => void, opts: TimelineOptions = {}): Timeline {
  if (cues.length === 0) {
    return {
      el: h(
        "div",
        { id: "timeline", class: "timeline-empty" },
        h("p", { class: "muted" }, opts.empty ?? "The timeline needs cue times this page could not read from the file."),
      ),
      mark() {},
      highlight() {},
      playhead() {},
    };
  }
  const prog = opts.programme;
  const end = Math.max(...cues.map((c) => c.endMs), prog?.durationMs ?? 0, 1000);
  const AXIS_Y = (prog ? SPEECH_Y + SPEECH_H : CUE_Y + CUE_H) + AXIS_GAP;
  const H = AXIS_Y + AXIS_BELOW;
  const v0 = Math.max(0, opts.view?.fromMs ?? 0);
  const v1 = Math.max(v0 + 1, opts.view?.toMs ?? end);
  const span = v1 - v0;
  // Times outside the view stay near its edges: the box clips them.
  const x = (t: number) => ((Math.min(Math.max(t, v0 - span), v1 + span) - v0) / span) * (W - 2 * PAD) + PAD;
  const inView = (a: number, b: number) => b >= v0 && a <= v1;
  const withCue = diags.filter((d) => d.cueIndex !== undefined && d.cueIndex < cues.length && inView(cues[d.cueIndex].startMs, cues[d.cueIndex].endMs));
  const impacts = withCue.map(impactOf);
  const counts: Record<Impact, number> = { high: 0, medium: 0, low: 0 };
  impacts.forEach((i) => counts[i]++);
  const blocking = withCue.filter((d) => d.severity === "error").length;

  const title = opts.label ? `Caption timeline: ${opts.label}` : "Caption timeline";
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
    svg("title", { id: "timeline-title" }, title),
    svg(
      "desc",
      { id: "timeline-desc" },
      `${cues.length} cues over ${clock(end)}` +
        (withCue.length
          ? `; ${withCue.length} problem markers, ${counts.high} of high, ${counts.medium} of medium and ${counts.low} of low impact, ${blocking} blocking delivery.`
          : ".") +
        (prog
          ? ` Programme of ${clock(prog.durationMs)}: ${prog.shotChanges.length} shot changes, ${prog.speech.length} stretches of speech (${clock(speechTotalMs(prog))} in all)${prog.peaks ? ", and the waveform of the sound" : ""}.`
          : "") +
        " Select a marker or cue to show the cue.",
    ),
    svg("line", { x1: PAD, x2: W - PAD, y1: AXIS_Y, y2: AXIS_Y, class: "axis" }),
  );
  const step = niceStep(span);
  for (let t = Math.ceil(v0 / step) * step; t <= v1; t += step) {
    const tx = x(t);
    // The first label starts at its tick and the last ends at it, so neither leaves the box.
    const anchor = tx < PAD + 30 ? "start" : tx > W - 40 ? "end" : "middle";
    const label = step < 1000 ? clock(t) : clock(t).replace(/\.\d+$/, "");
    root.appendChild(svg("line", { x1: tx, x2: tx, y1: AXIS_Y, y2: AXIS_Y + 5, class: "axis" }));
    root.appendChild(svg("text", { x: tx, y: AXIS_Y + 18, class: "tick", "text-anchor": anchor }, label));
  }
  const cueEls: (SVGElement | null)[] = cues.map((c, i) => {
    if (!inView(c.startMs, c.endMs)) return null;
    const w = Math.max(2, x(c.endMs) - x(c.startMs));
    const r = svg(
      "rect",
      { x: x(c.startMs), y: CUE_Y, width: w, height: CUE_H, rx: 2, class: "cue", "data-cue": i },
      svg("title", null, `Cue ${i + 1}: ${clock(c.startMs)} → ${clock(c.endMs)}`),
    );
    const el = interactive(r, `Cue ${i + 1}, ${clock(c.startMs)} to ${clock(c.endMs)}`, () => onSelect(i));
    if (opts.edit) draggable(el as SVGRectElement, i, c, opts.edit);
    return el;
  });
  const cueGroup = svg("g", { class: "cues", "aria-label": "Cues" }, ...cueEls.filter((r): r is SVGElement => r !== null));

  /** draggable lets the pointer move cue i, or retime an edge of it, on the timeline. */
  function draggable(r: SVGRectElement, i: number, c: Cue, edit: NonNullable<TimelineOptions["edit"]>): void {
    const msPerUnit = end / (W - 2 * PAD);
    r.addEventListener("pointerdown", (e) => {
      const ctm = (root as SVGSVGElement).getScreenCTM();
      if (!ctm || e.button !== 0) return;
      const toUnits = (clientX: number) => (clientX - ctm.e) / ctm.a;
      const x0 = toUnits(e.clientX);
      const left = x(c.startMs);
      const right = x(c.endMs);
      const mode = x0 - left < EDGE && right - left > 2 * EDGE ? "in" : right - x0 < EDGE && right - left > 2 * EDGE ? "out" : "move";
      let start = c.startMs;
      let stop = c.endMs;
      let moved = false;
      r.setPointerCapture(e.pointerId);
      r.classList.add("dragging");
      const onMove = (m: PointerEvent) => {
        const d = (toUnits(m.clientX) - x0) * msPerUnit;
        if (Math.abs(toUnits(m.clientX) - x0) > 1) moved = true;
        if (mode === "move") {
          start = Math.max(0, edit.snap(c.startMs + d));
          stop = start + (c.endMs - c.startMs);
        } else if (mode === "in") {
          start = Math.min(edit.snap(c.startMs + d), c.endMs - 1);
        } else {
          stop = Math.max(edit.snap(c.endMs + d), c.startMs + 1);
        }
        r.setAttribute("x", String(x(start)));
        r.setAttribute("width", String(Math.max(2, x(stop) - x(start))));
      };
      const onUp = () => {
        r.removeEventListener("pointermove", onMove);
        r.removeEventListener("pointerup", onUp);
        r.removeEventListener("pointercancel", onUp);
        r.classList.remove("dragging");
        if (moved && (start !== c.startMs || stop !== c.endMs)) edit.onRetime(i, Math.round(start), Math.round(stop));
      };
      r.addEventListener("pointermove", onMove);
      r.addEventListener("pointerup", onUp);
      r.addEventListener("pointercancel", onUp);
    });
  }
  // Markers of one cue in one lane sit side by side, centred on the cue.
  const slots = new Map<string, number>();
  withCue.forEach((d, k) => {
    const id = `${d.cueIndex}:${impacts[k]}`;
    slots.set(id, (slots.get(id) ?? 0) + 1);
  });
  const used = new Map<string, number>();
  const markers = withCue.map((d, k) => {
    const imp = impacts[k];
    const id = `${d.cueIndex}:${imp}`;
    const n = slots.get(id) ?? 1;
    const j = used.get(id) ?? 0;
    used.set(id, j + 1);
    const c = cues[d.cueIndex as number];
    const cx = Math.min(W - PAD, Math.max(PAD, x((c.startMs + c.endMs) / 2) + (j - (n - 1) / 2) * SPREAD));
    const cy = LANE[imp];
    const label = `${IMPACT_LABELS[imp]} impact, ${KIND_LABELS[d.severity] ?? d.severity}: ${codeLabel(d.code) || d.code} on cue ${(d.cueIndex as number) + 1}: ${d.message}`;
    const g = svg(
      "g",
      { class: `marker marker-${d.severity} mk-${imp}`, "data-cue": d.cueIndex, "data-code": d.code, "data-impact": imp, "data-severity": d.severity },
      svg("title", null, label),
      shape(d.severity, cx, cy, 6),
    );
    return interactive(g, label, () => onSelect(d.cueIndex as number));
  });
  root.appendChild(cueGroup);
  if (prog) drawProgramme(root, prog, v0, v1, x);
  root.appendChild(svg("g", { class: "markers", "aria-label": "Problem markers" }, ...markers));
  const head = svg("line", { id: "timeline-playhead", class: "playhead", x1: PAD, x2: PAD, y1: 4, y2: AXIS_Y, visibility: "hidden", "aria-hidden": "true" });
  root.appendChild(head);

  // The legend names what is drawn, with the markers' own shapes and classes.
  const sevs = (["error", "warning", "info"] as Severity[]).filter((s) => withCue.some((d) => d.severity === s));
  const imps = IMPACTS.filter((i) => counts[i] > 0);
  const legendHighlight = h(
    "li",
    { id: "timeline-legend-highlight", "data-key": "highlight", hidden: true },
    key(svg("rect", { x: 1, y: 4, width: 14, height: 8, rx: 1, class: "cue highlighted" })),
    " Cue of the chosen step (its markers outlined)",
  );
  const legend = h(
    "ul",
    { class: "legend", "aria-label": "Timeline legend" },
    ...imps.map((i) =>
      h("li", { "data-key": `impact-${i}` }, key(svg("g", { class: `mk-${i}` }, svg("rect", { x: 2, y: 2, width: 12, height: 12, rx: 2 }))), ` ${IMPACT_LABELS[i]} impact`),
    ),
    ...sevs.map((s) => h("li", { "data-key": `shape-${s}` }, key(svg("g", { class: "mk-shape" }, shape(s, 8, 8, 4.5))), ` ${KIND_LABELS[s]}`)),
    h("li", { "data-key": "cue" }, key(svg("rect", { x: 1, y: 4, width: 14, height: 8, rx: 1, class: "cue" })), " Cue"),
    h("li", { "data-key": "selected" }, key(svg("rect", { x: 1, y: 4, width: 14, height: 8, rx: 1, class: "cue selected" })), " Selected cue"),
    legendHighlight,
  );

  const scroller = h("div", { class: "timeline-scroll" }, root as unknown as HTMLElement);
  const el = h("figure", { class: "timeline-wrap" }, scroller, legend, prog ? programmeLegend(prog) : null);
  return {
    el,
    mark(cue) {
      cueEls.forEach((r, i) => r?.classList.toggle("selected", i === cue));
      markers.forEach((m) => m.classList.toggle("selected", m.getAttribute("data-cue") === String(cue)));
    },
    playhead(ms) {
      const px = x(ms).toFixed(1);
      head.setAttribute("x1", px);
      head.setAttribute("x2", px);
      head.setAttribute("visibility", "visible");
    },
    highlight(list, codes = []) {
      const set = new Set(list);
      cueEls.forEach((r, i) => r?.classList.toggle("highlighted", set.has(i)));
      const marked = new Set(highlightedRows(withCue, list, codes));
      markers.forEach((m, i) => m.classList.toggle("highlighted", marked.has(i)));
      legendHighlight.hidden = !cueEls.some((r, i) => r && set.has(i));
      // Only the timeline's own box scrolls (sideways, on a narrow
      // screen): the page stays where the table put it.
      const first = cueEls.findIndex((r, i) => r && set.has(i));
      const firstEl = first >= 0 ? cueEls[first] : null;
      if (firstEl && scroller.scrollWidth > scroller.clientWidth) {
        const r = firstEl.getBoundingClientRect();
        const b = scroller.getBoundingClientRect();
        scroller.scrollLeft += r.left - b.left - b.width / 4;
      }
    },
  };
}

/**
 * drawProgramme adds the programme's lanes under the cues (the waveform,
 * then speech) and its shot changes across the cue lane. Shot changes
 * let clicks through to the cues under them; their count and the
 * speech's are in the timeline's description.
 */
function drawProgramme(root: SVGElement, p: Programme, from: number, to: number, x: (t: number) => number): void {
  const mid = WAVE_Y + WAVE_H / 2;
  const d = waveformPath(p, from, to, x(from), x(to) - x(from), mid, WAVE_H / 2);
  root.appendChild(
    svg(
      "g",
      { id: "timeline-waveform", class: "waveform", role: "img", "aria-label": p.peaks ? "Waveform of the programme's sound" : "No sound in the programme" },
      svg("line", { x1: x(from), x2: x(to), y1: mid, y2: mid, class: "waveform-mid" }),
      d ? svg("path", { d, class: "waveform-path" }) : null,
    ),
  );
  const speech = p.speech.filter((s) => s.endMs >= from && s.startMs <= to).map((s) =>
    svg(
      "rect",
      { x: x(s.startMs), y: SPEECH_Y, width: Math.max(1, x(s.endMs) - x(s.startMs)), height: SPEECH_H, class: "speech", "data-start": s.startMs, "data-end": s.endMs },
      svg("title", null, `Speech ${clock(s.startMs)} → ${clock(s.endMs)} (confidence ${Math.round(s.confidence * 100)}%)`),
    ),
  );
  root.appendChild(
    svg(
      "g",
      { id: "timeline-speech", class: "speech-lane", role: "img", "aria-label": `Speech: ${p.speech.length} stretches, ${clock(speechTotalMs(p))} in all` },
      ...speech,
    ),
  );
  const shots = p.shotChanges.filter((t) => t >= from && t <= to).map((t) => svg("line", { x1: x(t), x2: x(t), y1: SHOT_Y1, y2: SHOT_Y2, class: "shot-change", "data-time": t }));
  root.appendChild(svg("g", { class: "shot-changes", role: "img", "aria-label": `${p.shotChanges.length} shot changes` }, ...shots));
}

/** programmeLegend names the programme's lanes, drawn with their own classes. */
function programmeLegend(p: Programme): HTMLElement {
  return h(
    "ul",
    { id: "programme-legend", class: "legend", "aria-label": "Programme legend" },
    h("li", { "data-key": "waveform" }, key(svg("path", { d: "M1,8 L3,5 L5,10 L7,2 L9,13 L11,6 L13,9 L15,8 L13,8 L11,10 L9,3 L7,14 L5,6 L3,11 Z", class: "waveform-path" })), p.peaks ? " Waveform of the sound" : " Waveform (no sound)"),
    h("li", { "data-key": "speech" }, key(svg("rect", { x: 1, y: 5, width: 14, height: 6, class: "speech" })), " Speech"),
    h("li", { "data-key": "shot-change" }, key(svg("line", { x1: 8, x2: 8, y1: 1, y2: 15, class: "shot-change-key" })), ` Shot change (${p.shotChanges.length})`),
  );
}
