// A table of findings (the delivery's problems, the aided output's, the
// uploaded file's): sortable columns, impact, delivery and rule filters;
// a row selects its cue by click or Enter. The rows of a set of cues (an
// ExplainAI step's) can be highlighted at once.

import type { Diagnostic, Severity } from "../api/types";
import { h, replace } from "../dom";
import { IMPACT_LABELS, IMPACT_RANK, IMPACTS, KIND_LABELS, blocksTag, codeLabel, impactOf, impactTag, type Impact } from "./labels";

export type SortKey = "impact" | "severity" | "code" | "cue" | "line" | "message" | "value";

export interface TableState {
  sort: SortKey;
  asc: boolean;
  severity: Severity | "";
  impact: Impact | "";
  rule: string;
}

/** newTableState sorts by sort, ascending (high impact and blocking first), unfiltered. */
export function newTableState(sort: SortKey = "impact"): TableState {
  return { sort, asc: true, severity: "", impact: "", rule: "" };
}

export interface TableOptions {
  /** id prefixes the element ids: `${id}-table`, `${id}-body`, `${id}-count`, `${id}-filter-impact|severity|rule`. */
  id: string;
  /** caption names the table for screen readers. */
  caption: string;
  /** line shows the Line column (line numbers of the uploaded file). */
  line: boolean;
  /** noun counts the rows: "Showing 3 of 4 problems". */
  noun: string;
  /** empty is what the table says without rows. */
  empty: string;
  /** where words a cue for row labels: "of the delivery". */
  where: string;
  /** total counts every entry of the list, those the API left out of it too (its omitted); default the rows given. */
  total?: number;
  /** cueHref, when set, makes each row's cue number a "Go to cue" link there (the editor). */
  cueHref?: (cue: number) => string;
}

interface Column {
  key: SortKey;
  label: string;
}

const SEV_RANK: Record<string, number> = { error: 0, warning: 1, info: 2 };

function compare(a: Diagnostic, b: Diagnostic, key: SortKey): number {
  const imp = () => IMPACT_RANK[impactOf(a)] - IMPACT_RANK[impactOf(b)];
  const sev = () => (SEV_RANK[a.severity] ?? 9) - (SEV_RANK[b.severity] ?? 9);
  switch (key) {
    case "impact":
      return imp() || sev();
    case "severity":
      return sev() || imp();
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

/** ruleCode renders a rule's code, breakable after its underscores only. */
export function ruleCode(code: string): HTMLElement {
  const el = h("code", { class: "rule" });
  code.split("_").forEach((part, i, all) => {
    el.append(part + (i < all.length - 1 ? "_" : ""));
    if (i < all.length - 1) el.append(h("wbr"));
  });
  return el;
}

export interface DiagTable {
  el: HTMLElement;
  /** mark highlights the rows of a cue (null: none). */
  mark(cue: number | null): void;
  /**
   * highlight marks the rows of these cues (none: clears), across sorting
   * and filtering; with codes, only the rows of those codes, unless no row
   * of the cues has one. It scrolls the first marked row to the middle of the view and
   * returns how many the filters show.
   */
  highlight(cues: number[], codes?: string[]): number;
}

const FILTER_WORDS: Record<Severity, string> = { error: "Blocks delivery", warning: "Suggestions", info: "Notes" };

/** diagTable renders filters and table; onSelect gets the row's cue index. */
export function diagTable(diags: Diagnostic[], st: TableState, onSelect: (cue: number) => void, o: TableOptions): DiagTable {
  let selected: number | null = null;
  // highlighted holds the indexes into diags of the marked rows.
  let highlighted = new Set<number>();
  const impacts = diags.map(impactOf);
  const columns: Column[] = [
    { key: "impact", label: "Impact" },
    { key: "severity", label: "Delivery" },
    { key: "code", label: "Rule" },
    { key: "cue", label: "Cue" },
    ...(o.line ? [{ key: "line" as SortKey, label: "Line" }] : []),
    { key: "message", label: "Message" },
    { key: "value", label: "Value / limit" },
  ];
  const tbody = h("tbody", { id: `${o.id}-body` });
  const count = h("p", { id: `${o.id}-count`, class: "muted", role: "status" });
  const heads = columns.map((c) => {
    const btn = h("button", { type: "button", class: "sort", "data-sort": c.key, onclick: () => sortBy(c.key) }, c.label);
    return h("th", { scope: "col", "data-col": c.key }, btn);
  });
  const table = h(
    "table",
    { id: `${o.id}-table`, class: "data diag-table" },
    h("caption", { class: "visually-hidden" }, `${o.caption}. Column headers sort; select a row to show its cue.`),
    h("thead", null, h("tr", null, ...heads)),
    tbody,
  );

  const present = <T extends string>(all: readonly T[], have: T[]) => all.filter((v) => have.includes(v));
  const impSel = h(
    "select",
    { id: `${o.id}-filter-impact`, onchange: () => ((st.impact = impSel.value as Impact | ""), draw()) },
    h("option", { value: "" }, "All impacts"),
    ...present(IMPACTS, impacts).map((i) => h("option", { value: i }, IMPACT_LABELS[i])),
  );
  impSel.value = st.impact;
  const sevSel = h(
    "select",
    { id: `${o.id}-filter-severity`, onchange: () => ((st.severity = sevSel.value as Severity | ""), draw()) },
    h("option", { value: "" }, "All"),
    ...present<Severity>(["error", "warning", "info"], diags.map((d) => d.severity)).map((s) => h("option", { value: s }, FILTER_WORDS[s])),
  );
  sevSel.value = st.severity;
  const rules = Array.from(new Set(diags.map((d) => d.code))).sort();
  const ruleSel = h(
    "select",
    { id: `${o.id}-filter-rule`, onchange: () => ((st.rule = ruleSel.value), draw()) },
    h("option", { value: "" }, "All rules"),
    ...rules.map((r) => h("option", { value: r }, codeLabel(r) ? `${codeLabel(r)} (${r})` : r)),
  );
  ruleSel.value = st.rule;

  function sortBy(key: SortKey) {
    st.asc = st.sort === key ? !st.asc : true;
    st.sort = key;
    draw();
  }

  function draw() {
    heads.forEach((th, i) => {
      const key = columns[i].key;
      th.setAttribute("aria-sort", key === st.sort ? (st.asc ? "ascending" : "descending") : "none");
    });
    const rows = diags
      .map((d, i) => ({ d, i }))
      .filter(({ d, i }) => (!st.severity || d.severity === st.severity) && (!st.impact || impacts[i] === st.impact) && (!st.rule || d.code === st.rule))
      .sort((a, b) => (st.asc ? 1 : -1) * compare(a.d, b.d, st.sort) || a.i - b.i);
    replace(
      tbody,
      ...rows.map(({ d, i }) => {
        const hasCue = d.cueIndex !== undefined;
        const imp = impacts[i];
        const tr = h(
          "tr",
          {
            class: `sev-row-${d.severity} impact-row-${imp}${hasCue && d.cueIndex === selected ? " selected" : ""}${highlighted.has(i) ? " highlighted" : ""}`,
            "data-cue": hasCue ? d.cueIndex : null,
            "data-code": d.code,
            "data-diag": i,
            "data-impact": imp,
            "data-severity": d.severity,
            tabindex: hasCue ? 0 : null,
            "aria-label": hasCue
              ? `${IMPACT_LABELS[imp]} impact, ${KIND_LABELS[d.severity] ?? d.severity}: ${codeLabel(d.code) || d.code} on cue ${(d.cueIndex as number) + 1} ${o.where}: ${d.message}`
              : null,
          },
          h("td", null, impactTag(imp)),
          h("td", null, blocksTag(d.severity)),
          h("td", null, ruleCode(d.code), codeLabel(d.code) ? h("span", { class: "rule-label muted small" }, codeLabel(d.code)) : null),
          h(
            "td",
            { class: "num" },
            hasCue
              ? o.cueHref
                ? h("a", { class: "go-to-cue", href: o.cueHref(d.cueIndex as number), "aria-label": `Go to cue ${(d.cueIndex as number) + 1} in the editor` }, `#${(d.cueIndex as number) + 1}`)
                : `#${(d.cueIndex as number) + 1}`
              : "—",
          ),
          o.line ? h("td", { class: "num" }, d.line > 0 ? d.line : "—") : null,
          h("td", { class: "msg" }, d.message),
          // "60 / 20" stays on one line; the unit may wrap below it.
          h("td", { class: "val" }, valueText(d).replace(/ \/ /, "\u00a0/\u00a0")),
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
      tbody.appendChild(h("tr", null, h("td", { colspan: columns.length, class: "muted" }, diags.length ? "Nothing matches the filters." : o.empty)));
    }
    const total = Math.max(o.total ?? diags.length, diags.length);
    count.textContent =
      total > diags.length
        ? `Showing ${rows.length.toLocaleString("en")} of ${total.toLocaleString("en")} ${o.noun} (${(total - diags.length).toLocaleString("en")} not listed; counted below the table)`
        : `Showing ${rows.length.toLocaleString("en")} of ${total.toLocaleString("en")} ${o.noun}`;
  }
  draw();

  const el = h(
    "div",
    { class: "diag" },
    h(
      "div",
      { class: "filters" },
      h("div", { class: "field inline" }, h("label", { for: `${o.id}-filter-impact` }, "Impact"), impSel),
      h("div", { class: "field inline" }, h("label", { for: `${o.id}-filter-severity` }, "Delivery"), sevSel),
      h("div", { class: "field inline" }, h("label", { for: `${o.id}-filter-rule` }, "Rule"), ruleSel),
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
      // Centred, so whole rows show around it (nearest can leave it a fraction of a pixel out).
      rows[0]?.scrollIntoView({ block: "center" });
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
