// The process result view, in the order a producer needs it: status
// badges and summary, ExplainAI's plan, the problems in the delivery
// (then those left in the aided output), the timeline with its Source |
// Delivery switch and the cue detail, what the uploaded file had, the
// changes CaptionQA made, the standard's clauses, and the outputs with
// their downloads.
//
// Three tracks have cues of their own, each numbered from 0: the uploaded
// file ("source": report.diagnostics and report.fixes point into it), the
// delivery (report.remaining, result.suggestions and the standard's
// findings) and the aided output (aidedReport.remaining). A selection
// names its track, so a cue number always means the cue it shows.

import type { Change, Clause, Diagnostic, OutputFormat, Report, RunResult } from "../api/types";
import { clock, readCues, type Cue } from "../captions";
import { announce, h, replace } from "../dom";
import { download, fromBase64, mimeOf, outputName } from "../download";
import { diagTable, newTableState, valueText, type DiagTable, type TableState } from "./diagtable";
import { explainView, newExplainState, type ExplainState } from "./explain";
import { presetLabel } from "./runform";
import { ACTION_LABELS, CLAUSE_LABELS, IMPACT_RANK, blocksTag, impactOf, impactTag, statusBadge } from "./labels";
import { omittedCount, omittedNote } from "./omitted";
import { timeline, type Timeline } from "./timeline";

/** Space is a track whose cues a list numbers. */
export type Space = "source" | "delivery" | "aided";

const SPACE_WORDS: Record<Space, { name: string; of: string }> = {
  source: { name: "Source", of: "of the uploaded file" },
  delivery: { name: "Delivery", of: "of the delivery" },
  aided: { name: "Aided output", of: "of the aided output" },
};

/** STRIP is the code of styling a format cannot carry: a change CaptionQA makes, listed with the changes, not the problems. */
const STRIP = "strip_styling";

export interface ResultState {
  result: RunResult;
  inputName: string;
  /** cues are each track's cues as this page could read them ([] when it could not). */
  cues: Record<Space, Cue[]>;
  /** selected is the cue in the cue detail, with its track. */
  selected: { space: Space; cue: number } | null;
  /** view is the track the timeline shows. */
  view: Space;
  tables: Record<Space, TableState>;
  /** explain is the editor's progress through ExplainAI's plan. */
  explain: ExplainState;
}

/** aidedDistinct: the result has an aided output of its own, with its report. */
function aidedDistinct(r: RunResult): boolean {
  return r.aidedSameAsDelivery === false && !!r.aidedOutput && !!r.aidedReport;
}

/** newResultState reads the delivery's and the aided output's cues; sourceCues are the uploaded file's. */
export function newResultState(result: RunResult, inputName: string, sourceCues: Cue[]): ResultState {
  const fmt = result.report.outputFormat;
  // A binary delivery (base64) is not read back here: its cues are the report's.
  const text = result.outputEncoding !== "base64";
  const delivery = text ? readCues(`delivery.${fmt}`, result.output ?? "") : [];
  const aided = text && aidedDistinct(result) ? readCues(`aided.${result.aidedReport?.outputFormat ?? fmt}`, result.aidedOutput ?? "") : [];
  return {
    result,
    inputName,
    cues: { source: sourceCues, delivery, aided },
    selected: null,
    view: delivery.length || !sourceCues.length ? "delivery" : "source",
    tables: { source: newTableState("impact"), delivery: newTableState("severity"), aided: newTableState("severity") },
    explain: newExplainState(),
  };
}

/** Lists are the findings each track's table and timeline show. */
type Lists = Record<Space, Diagnostic[]>;

function listsOf(r: RunResult): Lists {
  return {
    source: r.report.diagnostics.filter((d) => d.code !== STRIP),
    delivery: [...r.report.remaining, ...(r.suggestions ?? [])],
    aided: aidedDistinct(r) ? (r.aidedReport?.remaining ?? []) : [],
  };
}

/** totalsOf counts every entry of each list, the ones the API left out of it (omitted) too. */
function totalsOf(r: RunResult): Record<Space, number> {
  const lists = listsOf(r);
  const om = r.report.omitted;
  return {
    source: lists.source.length + omittedCount(om, "diagnostics", undefined, [STRIP]),
    delivery: lists.delivery.length + omittedCount(om, "remaining") + omittedCount(r.omitted, "suggestions"),
    aided: aidedDistinct(r) ? lists.aided.length + omittedCount(r.aidedReport?.omitted, "remaining") : 0,
  };
}

function section(id: string, title: string, ...children: (Node | string | null)[]): HTMLElement {
  return h("section", { id, class: "card", "aria-labelledby": `${id}-h` }, h("h3", { id: `${id}-h` }, title), ...children);
}

function plural(n: number, one: string, many: string): string {
  return `${n.toLocaleString("en")} ${n === 1 ? one : many}`;
}

/** resultView renders the whole result; remainingText is the quota line. */
export function resultView(st: ResultState, remainingText: string): HTMLElement {
  const r = st.result;
  const rep = r.report;
  const preset = presetLabel(rep.preset);
  const lists = listsOf(r);
  const aided = aidedDistinct(r);
  const detail = h("div", { id: "cue-detail", class: "cue-detail", "aria-live": "polite", tabindex: -1 }, h("p", { class: "muted" }, "Select a problem, a timeline marker or a cue link to show its cue."));
  const tables: Partial<Record<Space, DiagTable>> = {};
  const select = (space: Space, cue: number) => {
    st.selected = { space, cue };
    (Object.keys(tables) as Space[]).forEach((s) => tables[s]?.mark(s === space ? cue : null));
    tl.select(space, cue);
    renderDetail(detail, st, lists, space, cue);
  };
  const totals = totalsOf(r);
  const tableOf = (space: Space, id: string, caption: string, noun: string, empty: string) =>
    diagTable(lists[space], st.tables[space], (c) => select(space, c), { id, caption, line: space === "source", noun, empty, where: SPACE_WORDS[space].of, total: totals[space] });
  tables.delivery = tableOf("delivery", "delivery", "Problems in the delivery", "problems", "No problems.");
  if (aided) tables.aided = tableOf("aided", "aided", "Problems left in the aided output", "problems", "No problems.");
  tables.source = tableOf("source", "diag", "Found in the uploaded file", "findings", "No problems found.");
  const tl = switchTimeline(st, lists, aided, select);
  const tlCard = section("tl", "Timeline", tl.el);
  // A cue link far from the timeline (a clause's finding, a change) shows the cue and goes to it.
  const goTo = (space: Space, cue: number) => {
    select(space, cue);
    tlCard.scrollIntoView({ block: "start" });
    detail.focus({ preventScroll: true });
    announce(`Cue ${cue + 1} ${SPACE_WORDS[space].of} is in the cue detail.`);
  };
  const plan = explainView(r, st.explain, {
    // ExplainAI's steps name cues of the delivery.
    highlight: (cues, codes) => {
      tl.highlight("delivery", cues, codes);
      return tables.delivery!.highlight(cues, codes);
    },
    select: (cue) => select("delivery", cue),
  });
  if (st.selected !== null) select(st.selected.space, st.selected.cue);

  const heading = h("h2", { id: "result-heading", tabindex: -1 }, `Result for ${st.inputName}`);
  return h(
    "div",
    { id: "result", class: "result" },
    heading,
    h(
      "div",
      { class: "status-row" },
      statusBadge("delivery-status", "Delivery", r.deliveryStatus),
      statusBadge("aided-status", "Aided delivery", r.aidedStatus),
      h("p", { id: "remaining", class: "muted" }, remainingText),
    ),
    h("p", { id: "summary", class: "summary" }, rep.summary),
    meta(rep),
    plan,
    deliverySection(st, tables.delivery, preset),
    aided ? aidedSection(st, tables.aided!, preset) : null,
    tlCard,
    section("cue", "Cue detail", detail),
    sourceSection(st, tables.source),
    changesSection(rep, (cue) => goTo("source", cue)),
    rep.standard ? clausesView(rep, (cue) => goTo("delivery", cue)) : null,
    outputsView(st),
  );
}

function meta(rep: Report): HTMLElement {
  const item = (k: string, v: string) => h("div", null, h("dt", null, k), h("dd", null, v));
  return h(
    "dl",
    { id: "report-meta", class: "meta" },
    item("Preset", presetLabel(rep.preset)),
    item("Fix profile", rep.fixProfile),
    item("Format", `${rep.inputFormat.toUpperCase()} → ${rep.outputFormat.toUpperCase()}`),
    item("Cues", `${rep.inputCues} in, ${rep.outputCues} out`),
    item("Encoding", rep.encoding || "unknown"),
  );
}

/** deliverySection: the delivery's remaining problems, then its suggestions, with its own cue numbers and values. */
function deliverySection(st: ResultState, table: DiagTable, preset: string): HTMLElement {
  const r = st.result;
  const rep = r.report;
  const blocking = rep.remaining.length + omittedCount(rep.omitted, "remaining");
  const suggested = (r.suggestions?.length ?? 0) + omittedCount(r.omitted, "suggestions");
  const name = outputName(st.inputName, rep.outputFormat);
  let clear: HTMLElement | null = null;
  if (blocking === 0) {
    clear = h(
      "p",
      { id: "delivery-clear", class: "clear-line" },
      h("span", { class: "clear-icon", "aria-hidden": "true" }, "✓"),
      suggested === 0
        ? `None: the delivery meets every rule ${preset} enforces, and CaptionQA has no suggestions for it.`
        : `Nothing blocks delivery: the delivery meets every rule ${preset} enforces. ${plural(suggested, "suggestion", "suggestions")} for readability:`,
    );
  }
  return section(
    "delivery-problems",
    `Problems in the delivery (${blocking + suggested})`,
    h(
      "p",
      { id: "delivery-intro", class: "muted" },
      blocking ? `${plural(blocking, "problem blocks", "problems block")} delivery, ${plural(suggested, "suggestion", "suggestions")}. ` : "",
      `Cue numbers and values are those of the delivery file, ${name}.`,
    ),
    clear,
    blocking + suggested > 0 ? impactKey(preset) : null,
    blocking + suggested > 0 ? table.el : null,
    omittedNote(rep.omitted, "remaining"),
    omittedNote(r.omitted, "suggestions"),
  );
}

/** impactKey says what the two tags of a problem mean. */
function impactKey(preset: string): HTMLElement {
  return h(
    "p",
    { class: "impact-key muted small" },
    h("strong", null, "Impact"),
    " is what a problem does to viewers (high, medium, low). ",
    h("strong", null, "Blocks delivery"),
    ` marks a rule ${preset} enforces: the delivery is not ready until it is fixed; a suggestion only helps readability.`,
  );
}

/** aidedSection: every problem left in the aided output, which differs from the delivery. */
function aidedSection(st: ResultState, table: DiagTable, preset: string): HTMLElement {
  const ar = st.result.aidedReport!;
  const n = ar.remaining.length + omittedCount(ar.omitted, "remaining");
  return section(
    "aided-problems",
    `Problems left in the aided output (${n})`,
    h("p", { id: "aided-intro", class: "muted" }, "The aided output is also fixed toward the preset's suggested targets. Cue numbers and values are its own."),
    n === 0 ? h("p", { id: "aided-clear", class: "clear-line" }, h("span", { class: "clear-icon", "aria-hidden": "true" }, "✓"), `None: the aided output meets every rule and suggestion of ${preset}.`) : table.el,
    omittedNote(ar.omitted, "remaining"),
  );
}

/** sourceSection: the uploaded file's findings, before CaptionQA's changes. */
function sourceSection(st: ResultState, table: DiagTable): HTMLElement {
  const rep = st.result.report;
  const shown = rep.diagnostics.filter((d) => d.code === STRIP).length;
  const stripped = shown + stripOmitted(rep);
  const n = rep.diagnostics.length - shown + omittedCount(rep.omitted, "diagnostics", undefined, [STRIP]);
  return section(
    "source-findings",
    `Found in the uploaded file (${n})`,
    h(
      "p",
      { id: "source-intro", class: "muted" },
      `What the file had as uploaded, before CaptionQA's changes: its own cue numbers, line numbers and values. The delivery's problems are listed above.`,
      stripped ? ` ${plural(stripped, "styling removal is", "styling removals are")} listed under Changes CaptionQA made.` : "",
    ),
    table.el,
    omittedNote(rep.omitted, "diagnostics", [STRIP]),
  );
}

function stripOmitted(rep: Report): number {
  return (rep.omitted ?? []).filter((o) => o.list === "diagnostics" && o.code === STRIP && o.clause === undefined).reduce((n, o) => n + o.count, 0);
}

function renderDetail(el: HTMLElement, st: ResultState, lists: Lists, space: Space, cue: number): void {
  const c = st.cues[space][cue];
  const diags = lists[space].filter((d) => d.cueIndex === cue).sort((a, b) => IMPACT_RANK[impactOf(a)] - IMPACT_RANK[impactOf(b)]);
  const changes = space === "source" ? st.result.report.fixes.filter((f) => f.cueIndex === cue) : [];
  replace(
    el,
    h(
      "div",
      { class: "cue-detail-head" },
      h("h4", { id: "cue-detail-title" }, `Cue ${cue + 1}`),
      h("span", { id: "cue-detail-where", class: "badge neutral", "data-space": space }, SPACE_WORDS[space].of.replace(/^of the /, "In the ")),
    ),
    c
      ? h(
          "p",
          { id: "cue-detail-times", class: "times" },
          `${clock(c.startMs)} → ${clock(c.endMs)} `,
          h("span", { class: "muted" }, `(${((c.endMs - c.startMs) / 1000).toFixed(2)} s)`),
        )
      : h("p", { class: "muted" }, "Cue times are not available for this file."),
    c ? h("blockquote", { id: "cue-detail-text", class: "cue-text" }, c.text || "(empty)") : null,
    diags.length
      ? h(
          "ul",
          { id: "cue-detail-problems", class: "cue-diags" },
          ...diags.map((d) =>
            h("li", null, impactTag(impactOf(d)), " ", blocksTag(d.severity), " ", h("code", null, d.code), ` — ${d.message}`, d.value !== undefined ? ` (${valueText(d)})` : ""),
          ),
        )
      : h("p", { class: "muted" }, space === "source" ? "No findings on this cue." : "No problems on this cue."),
    changes.length
      ? h(
          "div",
          { id: "cue-detail-changes" },
          h("h5", null, "Changes CaptionQA made to this cue"),
          h("ul", { class: "cue-diags" }, ...changes.map((f) => h("li", null, h("span", { class: "change-action" }, ACTION_LABELS[f.action] ?? f.action), ` — ${f.message}`))),
        )
      : null,
  );
}

interface SwitchTimeline {
  el: HTMLElement;
  /** select marks the cue in its track's timeline (none in the others) and shows that track. */
  select(space: Space, cue: number): void;
  /** highlight marks cues of a track (ExplainAI's step) and shows that track. */
  highlight(space: Space, cues: number[], codes: string[]): void;
}

const VIEW_NOTES: Record<Space, string> = {
  source: "The uploaded file as read, before CaptionQA's changes; the markers are its findings.",
  delivery: "The delivery as written; the markers are its problems and suggestions.",
  aided: "The aided output as written; the markers are the problems left in it.",
};

/** switchTimeline is one timeline per track, drawn when first shown, behind a Source | Delivery (| Aided output) switch. */
function switchTimeline(st: ResultState, lists: Lists, aided: boolean, onSelect: (space: Space, cue: number) => void): SwitchTimeline {
  const spaces: Space[] = aided ? ["source", "delivery", "aided"] : ["source", "delivery"];
  const views = new Map<Space, Timeline>();
  // What each track's timeline shows once drawn.
  const marks: Partial<Record<Space, number | null>> = {};
  const lights: Partial<Record<Space, { cues: number[]; codes: string[] }>> = {};
  const view = (s: Space): Timeline => {
    let v = views.get(s);
    if (!v) {
      v = timeline(st.cues[s], lists[s], (c) => onSelect(s, c), {
        label: SPACE_WORDS[s].name,
        empty: `The timeline needs the cue times of the ${s === "source" ? "uploaded file" : SPACE_WORDS[s].name.toLowerCase()}, which this page could not read; the lists of problems are complete.`,
      });
      views.set(s, v);
      v.mark(marks[s] ?? null);
      const l = lights[s];
      if (l) v.highlight(l.cues, l.codes);
    }
    return v;
  };
  const holder = h("div", { id: "timeline-view" });
  const note = h("p", { id: "timeline-note", class: "muted small" });
  const buttons = spaces.map((s) =>
    h(
      "button",
      { id: `tl-view-${s}`, type: "button", class: "seg", "data-space": s, "aria-pressed": "false", "aria-controls": "timeline-view", onclick: () => show(s, true) },
      SPACE_WORDS[s].name,
      h("span", { class: "seg-count" }, ` · ${plural(st.cues[s].length, "cue", "cues")}`),
    ),
  );
  const show = (s: Space, told = false) => {
    if (!spaces.includes(s)) return;
    const changed = st.view !== s || !holder.firstChild;
    st.view = s;
    buttons.forEach((b) => b.setAttribute("aria-pressed", String(b.getAttribute("data-space") === s)));
    note.textContent = VIEW_NOTES[s];
    holder.setAttribute("data-space", s);
    if (changed) replace(holder, view(s).el);
    if (told) announce(`The timeline shows the ${s === "source" ? "uploaded file" : SPACE_WORDS[s].name.toLowerCase()}: ${plural(st.cues[s].length, "cue", "cues")}.`);
  };
  show(spaces.includes(st.view) ? st.view : "delivery");
  const el = h(
    "div",
    { class: "timeline-switchable" },
    h("div", { class: "seg-group", role: "group", "aria-label": "Timeline of" }, ...buttons),
    note,
    holder,
  );
  return {
    el,
    select(space, cue) {
      spaces.forEach((s) => {
        marks[s] = s === space ? cue : null;
        views.get(s)?.mark(marks[s] ?? null);
      });
      show(space);
    },
    highlight(space, cues, codes) {
      lights[space] = { cues, codes };
      views.get(space)?.highlight(cues, codes);
      if (cues.length) show(space);
    },
  };
}

/** changesSection lists report.fixes grouped by what was done, each with a link to its cue of the uploaded file. */
function changesSection(rep: Report, goTo: (cue: number) => void): HTMLElement {
  const n = rep.fixes.length + omittedCount(rep.omitted, "fixes");
  const groups = new Map<string, Change[]>();
  rep.fixes.forEach((f) => groups.set(f.action, [...(groups.get(f.action) ?? []), f]));
  const item = (f: Change) =>
    h(
      "li",
      { "data-cue": f.cueIndex ?? null, "data-code": f.code },
      f.cueIndex === undefined
        ? h("span", { class: "whole-file" }, "Whole file")
        : h("button", { type: "button", class: "linklike cue-link", "data-space": "source", "data-cue": f.cueIndex, onclick: () => goTo(f.cueIndex as number) }, `Cue ${f.cueIndex + 1}`),
      ` ${f.message} `,
      h("code", { class: "muted small" }, f.code),
    );
  const SHOWN = 10;
  return section(
    "changes",
    `Changes CaptionQA made (${n})`,
    h("p", { class: "muted" }, "Cue numbers are those of the uploaded file; a link shows the cue on the Source timeline."),
    n === 0
      ? h("p", { id: "fixes", class: "muted" }, "None: CaptionQA changed nothing.")
      : h(
          "div",
          { id: "fixes", class: "change-groups" },
          ...Array.from(groups, ([action, list]) =>
            h(
              "section",
              { class: "change-group", "data-action": action, "aria-labelledby": `change-${action}-h` },
              h("h4", { id: `change-${action}-h` }, ACTION_LABELS[action] ?? action, h("span", { class: "muted" }, ` · ${plural(list.length, "change", "changes")}`)),
              h("ul", { class: "changes" }, ...list.slice(0, SHOWN).map(item)),
              list.length > SHOWN ? h("details", { class: "more" }, h("summary", null, `Show ${list.length - SHOWN} more`), h("ul", { class: "changes" }, ...list.slice(SHOWN).map(item))) : null,
            ),
          ),
        ),
    omittedNote(rep.omitted, "fixes"),
  );
}

const CLAUSE_ORDER: Record<string, number> = { fail: 0, not_evaluated: 1, pass: 2 };

/** clausesView grades the delivery against the standard: failed clauses first, with their first findings. */
function clausesView(rep: Report, goTo: (cue: number) => void): HTMLElement {
  const s = rep.standard!;
  const clauses = s.clauses.map((c, i) => ({ c, i })).sort((a, b) => (CLAUSE_ORDER[a.c.status] ?? 9) - (CLAUSE_ORDER[b.c.status] ?? 9) || a.i - b.i);
  return section(
    "clauses-s",
    `Standard: ${s.title}`,
    s.version ? h("p", { id: "clauses-version", class: "muted small" }, `Version: ${s.version}`) : null,
    h("p", { id: "clauses-summary", class: "muted" }, `${s.summary.pass} pass · ${s.summary.fail} fail · ${s.summary.notEvaluated} not evaluated. Graded on the delivery: cue links show its cues.`),
    h("ul", { id: "clauses", class: "clauses", "aria-label": `Clauses of ${s.title}` }, ...clauses.map(({ c }) => clauseItem(c, c.findings.length + omittedCount(rep.omitted, "findings", c.id), goTo))),
  );
}

const FIRST_FINDINGS = 3;

function clauseItem(c: Clause, total: number, goTo: (cue: number) => void): HTMLElement {
  const l = CLAUSE_LABELS[c.status] ?? { icon: "?", text: c.status };
  const head = h(
    "div",
    { class: "clause-head" },
    h("span", { class: `badge clause-${c.status}` }, h("span", { "aria-hidden": "true", class: "badge-icon" }, l.icon), " ", l.text),
    h("code", { class: "clause-id" }, c.id),
    h("span", { class: "clause-title" }, c.title),
  );
  const li = h("li", { class: `clause clause-row-${c.status}`, "data-clause": c.id, "data-status": c.status }, head);
  if (c.status === "pass") return li;
  li.appendChild(h("p", { class: "clause-req muted small" }, c.requirement));
  if (c.reason) li.appendChild(h("p", { class: "clause-reason" }, h("span", { class: "clause-reason-label" }, c.status === "not_evaluated" ? "Why not evaluated: " : "Why: "), c.reason));
  if (c.status === "fail") {
    // The findings that decided the failure (severity error) come first.
    const first = c.findings
      .map((d, i) => ({ d, i }))
      .sort((a, b) => (a.d.severity === "error" ? 0 : 1) - (b.d.severity === "error" ? 0 : 1) || a.i - b.i)
      .slice(0, FIRST_FINDINGS)
      .map(({ d }) => d);
    if (first.length) {
      li.appendChild(
        h(
          "ul",
          { class: "clause-findings" },
          ...first.map((d) =>
            h(
              "li",
              { "data-code": d.code, "data-cue": d.cueIndex ?? null },
              d.cueIndex === undefined
                ? h("span", { class: "whole-file" }, "Whole file")
                : h("button", { type: "button", class: "linklike cue-link", "data-space": "delivery", "data-cue": d.cueIndex, onclick: () => goTo(d.cueIndex as number) }, `Cue ${d.cueIndex + 1}`),
              " ",
              impactTag(impactOf(d)),
              " ",
              h("span", { class: "clause-msg" }, d.message),
            ),
          ),
        ),
      );
    }
    const more = total - first.length;
    li.appendChild(
      h("p", { class: "clause-more muted small" }, first.length === 0 ? `${plural(total, "finding", "findings")}.` : more > 0 ? `and ${plural(more, "more finding", "more findings")}` : plural(total, "finding", "findings") + " in all."),
    );
  }
  return li;
}

function outputBlock(idp: string, title: string, body: string, name: string, format: OutputFormat, note: string, encoding?: string): HTMLElement {
  // A binary delivery (EBU STL) comes as base64: it downloads as its
  // bytes, and there is no text to preview.
  const bytes = encoding === "base64" ? fromBase64(body) : null;
  const lines = bytes ? [] : body.split("\n");
  const preview = bytes
    ? `${format.toUpperCase()} is a binary format: ${bytes.length.toLocaleString("en")} bytes in the download. The cues are listed above.`
    : lines.length > 400
      ? lines.slice(0, 400).join("\n") + `\n… ${lines.length - 400} more lines in the download`
      : body;
  return section(
    `${idp}-s`,
    title,
    h(
      "div",
      { class: "output-head" },
      h("p", { class: "muted" }, note),
      h(
        "button",
        { id: `download-${idp}`, type: "button", class: "button primary", "data-filename": name, onclick: () => download(bytes ?? body, name, mimeOf(format)) },
        `Download ${name}`,
      ),
    ),
    h("pre", { id: `${idp}-pre`, class: "output", tabindex: 0, "aria-label": `${title} preview`, "data-encoding": encoding ?? null }, preview),
  );
}

function outputsView(st: ResultState): HTMLElement {
  const r = st.result;
  const fmt = r.report.outputFormat;
  const wrap = h("div", { class: "outputs" });
  wrap.appendChild(outputBlock("output", "Delivery output", r.output, outputName(st.inputName, fmt), fmt, `${fmt.toUpperCase()} for ${presetLabel(r.report.preset)}.`, r.outputEncoding));
  if (r.aidedSameAsDelivery === false && r.aidedOutput) {
    const afmt = r.aidedReport?.outputFormat ?? fmt;
    wrap.appendChild(outputBlock("aided", "Aided output", r.aidedOutput, outputName(st.inputName, afmt, ".aided"), afmt, "Enhanced delivery, fixed toward the preset's suggested targets as well.", r.outputEncoding));
  } else {
    wrap.appendChild(h("p", { id: "aided-same", class: "muted" }, "The aided output is the same as the delivery output."));
  }
  return wrap;
}

/** remainingLine words the quota left after a run. */
export function remainingLine(r: RunResult): string {
  if (typeof r.remainingToday === "number") return `${r.remainingToday} free ${r.remainingToday === 1 ? "run" : "runs"} left today.`;
  if (typeof r.remainingApiRunsToday === "number") return `${r.remainingApiRunsToday} runs left today.`;
  return "";
}
