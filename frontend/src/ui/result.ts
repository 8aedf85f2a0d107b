// The process result view: status badges, summary, ExplainAI's plan,
// diagnostics with the cue detail panel, timeline, clauses, outputs with
// downloads, fixes.

import type { Change, Clause, Diagnostic, OutputFormat, ProcessResult, Report } from "../api/types";
import { clock, type Cue } from "../captions";
import { h, replace } from "../dom";
import { download, mimeOf, outputName } from "../download";
import { diagTable, valueText, type TableState } from "./diagtable";
import { explainView, newExplainState, type ExplainState } from "./explain";
import { CLAUSE_LABELS, PRESET_LABELS, severityTag, statusBadge } from "./labels";
import { omittedCount, omittedNote } from "./omitted";
import { timeline } from "./timeline";

export interface ResultState {
  result: ProcessResult;
  inputName: string;
  cues: Cue[];
  selected: number | null;
  table: TableState;
  /** explain is the editor's progress through ExplainAI's plan. */
  explain: ExplainState;
}

export function newResultState(result: ProcessResult, inputName: string, cues: Cue[]): ResultState {
  return { result, inputName, cues, selected: null, table: { sort: "severity", asc: true, severity: "", rule: "" }, explain: newExplainState() };
}

function section(id: string, title: string, ...children: (Node | string | null)[]): HTMLElement {
  return h("section", { class: "card", "aria-labelledby": `${id}-h` }, h("h3", { id: `${id}-h` }, title), ...children);
}

/** resultView renders the whole result; remainingText is the quota line. */
export function resultView(st: ResultState, remainingText: string): HTMLElement {
  const r = st.result;
  const rep = r.report;
  const detail = h("div", { id: "cue-detail", class: "cue-detail", "aria-live": "polite", tabindex: -1 }, h("p", { class: "muted" }, "Select a diagnostic or a timeline marker to show its cue."));
  const select = (cue: number) => {
    st.selected = cue;
    table.mark(cue);
    tl.mark(cue);
    renderDetail(detail, st, cue);
  };
  const table = diagTable(rep.diagnostics, st.table, select);
  const tl = timeline(st.cues, rep.diagnostics, select);
  const plan = explainView(r, st.explain, {
    highlight: (cues, codes) => {
      tl.highlight(cues, codes);
      return table.highlight(cues, codes);
    },
    select,
  });
  if (st.selected !== null) select(st.selected);

  const heading = h("h2", { id: "result-heading", tabindex: -1 }, `Result for ${st.inputName}`);
  const view = h(
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
    section("diagnostics", `Diagnostics (${rep.diagnostics.length + omittedCount(rep.omitted, "diagnostics")})`, table.el, omittedNote(rep.omitted, "diagnostics")),
    section("cue", "Cue detail", detail),
    section("tl", "Timeline", tl.el),
    rep.standard ? clausesView(rep) : null,
    outputsView(st),
    section("fixes-s", `Fixes (${rep.fixes.length + omittedCount(rep.omitted, "fixes")})`, fixesView(rep.fixes), omittedNote(rep.omitted, "fixes")),
  );
  return view;
}

function meta(rep: Report): HTMLElement {
  const item = (k: string, v: string) => h("div", null, h("dt", null, k), h("dd", null, v));
  return h(
    "dl",
    { id: "report-meta", class: "meta" },
    item("Preset", PRESET_LABELS[rep.preset] ?? rep.preset),
    item("Fix profile", rep.fixProfile),
    item("Format", `${rep.inputFormat.toUpperCase()} → ${rep.outputFormat.toUpperCase()}`),
    item("Cues", `${rep.inputCues} in, ${rep.outputCues} out`),
    item("Encoding", rep.encoding || "unknown"),
  );
}

function renderDetail(el: HTMLElement, st: ResultState, cue: number): void {
  const c = st.cues[cue];
  const diags = st.result.report.diagnostics.filter((d) => d.cueIndex === cue);
  replace(
    el,
    h("h4", { id: "cue-detail-title" }, `Cue ${cue + 1}`),
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
          { class: "cue-diags" },
          ...diags.map((d: Diagnostic) => h("li", null, severityTag(d.severity), " ", h("code", null, d.code), ` — ${d.message}`, d.value !== undefined ? ` (${valueText(d)})` : "")),
        )
      : null,
  );
}

function clausesView(rep: Report): HTMLElement {
  const s = rep.standard!;
  return section(
    "clauses",
    `${s.title}${s.version ? " " + s.version : ""}`,
    h("p", { id: "clauses-summary", class: "muted" }, `${s.summary.pass} pass · ${s.summary.fail} fail · ${s.summary.notEvaluated} not evaluated`),
    h(
      "div",
      { class: "table-wrap" },
      h(
        "table",
        { id: "clauses", class: "data" },
        h("caption", { class: "visually-hidden" }, `Clauses of ${s.title}`),
        h("thead", null, h("tr", null, h("th", { scope: "col" }, "Clause"), h("th", { scope: "col" }, "Status"), h("th", { scope: "col" }, "Title"), h("th", { scope: "col" }, "Reason"), h("th", { scope: "col", class: "num" }, "Findings"))),
        h("tbody", null, ...s.clauses.map((c) => clauseRow(c, c.findings.length + omittedCount(rep.omitted, "findings", c.id)))),
      ),
    ),
  );
}

function clauseRow(c: Clause, findings: number): HTMLElement {
  const l = CLAUSE_LABELS[c.status] ?? { icon: "?", text: c.status };
  return h(
    "tr",
    { "data-clause": c.id, "data-status": c.status },
    h("td", null, h("code", null, c.id)),
    h("td", null, h("span", { class: `badge clause-${c.status}` }, h("span", { "aria-hidden": "true", class: "badge-icon" }, l.icon), " ", l.text)),
    h("td", null, h("span", { class: "clause-title" }, c.title), h("span", { class: "muted small block" }, c.requirement)),
    h("td", null, c.reason ?? "—"),
    h("td", { class: "num" }, String(findings)),
  );
}

function outputBlock(idp: string, title: string, body: string, name: string, format: OutputFormat, note: string): HTMLElement {
  const lines = body.split("\n");
  const preview = lines.length > 400 ? lines.slice(0, 400).join("\n") + `\n… ${lines.length - 400} more lines in the download` : body;
  return section(
    `${idp}-s`,
    title,
    h(
      "div",
      { class: "output-head" },
      h("p", { class: "muted" }, note),
      h(
        "button",
        { id: `download-${idp}`, type: "button", class: "button primary", "data-filename": name, onclick: () => download(body, name, mimeOf(format)) },
        `Download ${name}`,
      ),
    ),
    h("pre", { id: `${idp}-pre`, class: "output", tabindex: 0, "aria-label": `${title} preview` }, preview),
  );
}

function outputsView(st: ResultState): HTMLElement {
  const r = st.result;
  const fmt = r.report.outputFormat;
  const wrap = h("div", { class: "outputs" });
  wrap.appendChild(outputBlock("output", "Delivery output", r.output, outputName(st.inputName, fmt), fmt, `${fmt.toUpperCase()} for ${PRESET_LABELS[r.report.preset] ?? r.report.preset}.`));
  if (r.aidedSameAsDelivery === false && r.aidedOutput) {
    const afmt = r.aidedReport?.outputFormat ?? fmt;
    wrap.appendChild(outputBlock("aided", "Aided output", r.aidedOutput, outputName(st.inputName, afmt, ".aided"), afmt, "Enhanced delivery, fixed toward the preset's suggested targets as well."));
  } else {
    wrap.appendChild(h("p", { id: "aided-same", class: "muted" }, "The aided output is the same as the delivery output."));
  }
  return wrap;
}

function fixesView(fixes: Change[]): HTMLElement {
  if (!fixes.length) return h("p", { id: "fixes", class: "muted" }, "No changes were made.");
  return h(
    "ol",
    { id: "fixes", class: "fixes" },
    ...fixes.map((f) => h("li", null, h("code", null, f.action), " ", h("span", { class: "muted" }, `${f.cueIndex === undefined ? "whole file" : `cue #${f.cueIndex + 1}`} · ${f.code}`), ` — ${f.message}`)),
  );
}

/** remainingLine words the quota left after a run. */
export function remainingLine(r: ProcessResult): string {
  if (typeof r.remainingToday === "number") return `${r.remainingToday} free ${r.remainingToday === 1 ? "run" : "runs"} left today.`;
  if (typeof r.remainingApiRunsToday === "number") return `${r.remainingApiRunsToday} runs left today.`;
  return "";
}
