// The diagnostics table: sortable columns, severity and rule filters;
// a row selects its cue by click or Enter. The rows of a set of cues (an
// ExplainAI step's) can be highlighted at once.

import type { Diagnostic, Severity } from "../api/types";
import { h, replace } from "../dom";
import { severityTag } from "./labels";

export type SortKey = "severity" | "code" | "cue" | "line" | "message" | "value";

export interface TableState {
  sort: SortKey;
  asc: boolean;
  severity: Severity | "";
  rule: string;
}

const COLUMNS: { key: SortKey; label: string }[] = [
  { key: "severity", label: "Severity" },
  { key: "code", label: "Rule" },
  { key: "cue", label: "Cue" },
  { key: "line", label: "Line" },
  { key: "message", label: "Message" },
  { key: "value", label: "Value / limit" },
];

const SEV_RANK: Record<string, number> = { error: 0, warning: 1, info: 2 };

function compare(a: Diagnostic, b: Diagnostic, key: SortKey): number {
  switch (key) {
    case "severity":
      return (SEV_RANK[a.severity] ?? 9) - (SEV_RANK[b.severity] ?? 9);
    case "code":
      return a.code.localeCompare(b.code);
    case "cue":
      return (a.cueIndex ?? -1) - (b.cueIndex ?? -1);
    case "line":
      return a.line - b.line;
    case "message":
      return a.message.localeCompare(b.message);
    case "value":
      return (a.value ?? -Infinity) - (b.value ?? -Infinity);
  }
}

/** valueText renders "value unit / limit unit". */
export function valueText(d: Diagnostic): string {
  const n = (v: number) => (Number.isInteger(v) ? String(v) : v.toFixed(1));
  const u = d.unit ? ` ${d.unit}` : "";
  if (d.value === undefined && d.limit === undefined) return "—";
  if (d.limit === undefined) return `${n(d.value as number)}${u}`;
  if (d.value === undefined) return `limit ${n(d.limit)}${u}`;
  return `${n(d.value)} / ${n(d.limit)}${u}`;
}

export interface DiagTable {
  el: HTMLElement;
  /** mark highlights the rows of a cue. */
  mark(cue: number | null): void;
  /**
   * highlight marks the rows of these cues (none: clears), across sorting
   * and filtering; with codes, only the rows of those codes, unless no row
   * of the cues has one. It scrolls the first marked row into view and
   * returns how many the filters show.
   */
  highlight(cues: number[], codes?: string[]): number;
}

/** diagTable renders filters and table; onSelect gets the row's cue index. */
export function diagTable(diags: Diagnostic[], st: TableState, onSelect: (cue: number) => void): DiagTable {
  let selected: number | null = null;
  // highlighted holds the indexes into diags of the marked rows.
  let highlighted = new Set<number>();
  const tbody = h("tbody", { id: "diag-body" });
  const count = h("p", { id: "diag-count", class: "muted", role: "status" });
  const heads = COLUMNS.map((c) => {
    const btn = h("button", { type: "button", class: "sort", "data-sort": c.key, onclick: () => sortBy(c.key) }, c.label);
    return h("th", { scope: "col", "data-col": c.key }, btn);
  });
  const table = h(
    "table",
    { id: "diag-table", class: "data" },
    h("caption", { class: "visually-hidden" }, "Diagnostics. Column headers sort; select a row to show its cue."),
    h("thead", null, h("tr", null, ...heads)),
    tbody,
  );

  const sevSel = h(
    "select",
    { id: "diag-filter-severity", onchange: () => ((st.severity = sevSel.value as Severity | ""), draw()) },
    h("option", { value: "" }, "All severities"),
    h("option", { value: "error" }, "Errors"),
    h("option", { value: "warning" }, "Warnings"),
    h("option", { value: "info" }, "Info"),
  );
  sevSel.value = st.severity;
  const rules = Array.from(new Set(diags.map((d) => d.code))).sort();
  const ruleSel = h(
    "select",
    { id: "diag-filter-rule", onchange: () => ((st.rule = ruleSel.value), draw()) },
    h("option", { value: "" }, "All rules"),
    ...rules.map((r) => h("option", { value: r }, r)),
  );
  ruleSel.value = st.rule;

  function sortBy(key: SortKey) {
    st.asc = st.sort === key ? !st.asc : true;
    st.sort = key;
    draw();
  }

  function draw() {
    heads.forEach((th, i) => {
      const key = COLUMNS[i].key;
      th.setAttribute("aria-sort", key === st.sort ? (st.asc ? "ascending" : "descending") : "none");
    });
    const rows = diags
      .map((d, i) => ({ d, i }))
      .filter(({ d }) => (!st.severity || d.severity === st.severity) && (!st.rule || d.code === st.rule))
      .sort((a, b) => (st.asc ? 1 : -1) * compare(a.d, b.d, st.sort) || a.i - b.i);
    replace(
      tbody,
      ...rows.map(({ d, i }) => {
        const hasCue = d.cueIndex !== undefined;
        const tr = h(
          "tr",
          {
            class: `sev-row-${d.severity}${hasCue && d.cueIndex === selected ? " selected" : ""}${highlighted.has(i) ? " highlighted" : ""}`,
            "data-cue": hasCue ? d.cueIndex : null,
            "data-code": d.code,
            "data-diag": i,
            tabindex: hasCue ? 0 : null,
            "aria-label": hasCue ? `${d.severity} ${d.code} on cue ${(d.cueIndex as number) + 1}: ${d.message}` : null,
          },
          h("td", null, severityTag(d.severity)),
          h("td", null, h("code", null, d.code)),
          h("td", { class: "num" }, hasCue ? `#${(d.cueIndex as number) + 1}` : "—"),
          h("td", { class: "num" }, d.line > 0 ? d.line : "—"),
          h("td", null, d.message),
          h("td", { class: "num" }, valueText(d)),
        );
        if (hasCue) {
          const pick = () => onSelect(d.cueIndex as number);
          tr.addEventListener("click", pick);
          tr.addEventListener("keydown", (e) => {
            if (e.key === "Enter" || e.key === " ") {
              e.preventDefault();
              pick();
            }
          });
        }
        return tr;
      }),
    );
    if (rows.length === 0) {
      tbody.appendChild(h("tr", null, h("td", { colspan: 6, class: "muted" }, diags.length ? "No diagnostics match the filters." : "No problems found.")));
    }
    count.textContent = `Showing ${rows.length} of ${diags.length} diagnostics`;
  }
  draw();

  const el = h(
    "div",
    { class: "diag" },
    h(
      "div",
      { class: "filters" },
      h("div", { class: "field inline" }, h("label", { for: "diag-filter-severity" }, "Severity"), sevSel),
      h("div", { class: "field inline" }, h("label", { for: "diag-filter-rule" }, "Rule"), ruleSel),
      count,
    ),
    h("div", { class: "table-wrap" }, table),
  );
  return {
    el,
    mark(cue) {
      selected = cue;
      tbody.querySelectorAll("tr").forEach((tr) => {
        tr.classList.toggle("selected", cue !== null && tr.getAttribute("data-cue") === String(cue));
      });
    },
    highlight(cues, codes = []) {
      highlighted = new Set(highlightedRows(diags, cues, codes));
      const rows: HTMLElement[] = [];
      tbody.querySelectorAll<HTMLElement>("tr[data-diag]").forEach((tr) => {
        const on = highlighted.has(Number(tr.getAttribute("data-diag")));
        tr.classList.toggle("highlighted", on);
        if (on) rows.push(tr);
      });
      rows[0]?.scrollIntoView({ block: "nearest" });
      return rows.length;
    },
  };
}

/**
 * highlightedRows returns the indexes of the diagnostics on cues: those
 * of codes when any of them has one (a step names the rules it settles),
 * else all of them.
 */
export function highlightedRows(diags: Diagnostic[], cues: number[], codes: string[]): number[] {
  const set = new Set(cues);
  const onCues = diags.map((d, i) => ({ d, i })).filter(({ d }) => d.cueIndex !== undefined && set.has(d.cueIndex));
  const want = new Set(codes);
  const ofCodes = onCues.filter(({ d }) => want.has(d.code));
  return (ofCodes.length ? ofCodes : onCues).map(({ i }) => i);
}
