// ExplainAI's editorial plan in the result view (issue 18): headline and
// message, the two delivery scores, the actions as a checklist whose steps
// highlight their cues in the delivery's problems and its timeline (a
// step's cue indexes are the delivery's), the client
// summary with a Copy button, platform notes, what was already fixed, and
// who wrote the text. A result that asked for it but may not have it shows
// one line saying why instead.

import type { ExplainAction, Explanation, RunResult } from "../api/types";
import { announce, h } from "../dom";
import { copyText } from "../download";
import { FIX_LABELS } from "./labels";

/** ExplainState is what the editor did with the plan: ticked steps, the chosen step. */
export interface ExplainState {
  /** done maps an action id to its ticked checkbox. */
  done: Record<string, boolean>;
  /** chosen is the action whose cues are highlighted, or null. */
  chosen: string | null;
}

export function newExplainState(): ExplainState {
  return { done: {}, chosen: null };
}

/** ExplainHooks link the plan to the rest of the result view. */
export interface ExplainHooks {
  /**
   * highlight marks cues of the delivery in its problems table and its
   * timeline (none: clears), the findings of codes among them; it returns
   * the table rows shown.
   */
  highlight(cues: number[], codes: string[]): number;
  /** select shows a cue of the delivery in the cue detail panel, as a click on its row does. */
  select(cue: number): void;
}

const SKIPPED: Record<string, string> = {
  not_entitled: "ExplainAI needs a Pro workspace with the ExplainAI entitlement.",
  not_configured: "ExplainAI is turned off on this server (serve --explain off).",
  quota_exceeded: "Today's ExplainAI allowance is used up; it resets at midnight UTC.",
};

const PRIORITY: Record<number, { text: string; cls: string }> = {
  1: { text: "Blocking", cls: "prio-blocking" },
  2: { text: "Standard", cls: "prio-standard" },
  3: { text: "Suggestion", cls: "prio-suggestion" },
  4: { text: "Manual review", cls: "prio-review" },
};

const FALLBACK: Record<string, string> = {
  timeout: "the model did not answer in time",
  unavailable: "the model could not be reached",
  invalid_response: "the model's answer was not in the form asked for",
  invented_cues: "it named cues this file does not have",
  invented_actions: "it named steps the plan does not have",
};

/**
 * explainView returns the plan card (id "explain"), the one-line notice
 * (id "explain-skipped") when the result says why the plan is absent, or
 * null when the run did not ask for one.
 */
export function explainView(r: RunResult, st: ExplainState, hooks: ExplainHooks): HTMLElement | null {
  if (r.explain) return planCard(r.explain, st, hooks);
  if (r.explainSkippedReason) {
    const text = SKIPPED[r.explainSkippedReason] ?? `ExplainAI did not run (${r.explainSkippedReason}).`;
    return h("p", { id: "explain-skipped", class: "explain-skipped", role: "note", "data-reason": r.explainSkippedReason }, h("span", { class: "badge neutral" }, "ExplainAI"), " ", text);
  }
  return null;
}

function planCard(x: Explanation, st: ExplainState, hooks: ExplainHooks): HTMLElement {
  const clear = x.status === "clear" || x.actions.length === 0;
  const actions = clear ? null : checklist(x.actions, st, hooks);
  const card = h(
    "section",
    { id: "explain", class: "card explain", "aria-labelledby": "explain-h", "data-status": x.status },
    h("h3", { id: "explain-h" }, "Editorial plan"),
    h("p", { id: "explain-headline", class: "explain-headline" }, clear ? `Nothing to do: ${x.headline}` : x.headline),
    x.message ? h("p", { id: "explain-message" }, x.message) : null,
    scores(x),
    h(
      "div",
      { class: "explain-grid" },
      actions,
      h(
        "div",
        { class: "explain-side" },
        clientSummary(x.clientSummary),
        x.platformNotes ? h("div", { class: "explain-notes" }, h("h4", { id: "explain-platform-h" }, "Platform notes"), h("p", { id: "explain-platform", class: "prose" }, x.platformNotes)) : null,
        x.alreadyFixedSummary ? h("div", { class: "explain-notes" }, h("h4", { id: "explain-fixed-h" }, "Already fixed"), h("p", { id: "explain-fixed", class: "prose" }, x.alreadyFixedSummary)) : null,
      ),
    ),
    h("p", { id: "explain-writer", class: "muted small explain-writer", "data-written-by": x.writtenBy, "data-fallback": x.fallback ?? null }, writerLine(x)),
  );
  return card;
}

function writerLine(x: Explanation): string {
  const who = x.writtenBy === "model" ? `Written by ${x.model || "a language model"}` : "Written by the built-in explainer";
  if (!x.fallback) return `${who}.`;
  return `${who}; the model's text was not used: ${FALLBACK[x.fallback] ?? x.fallback}.`;
}

function score(id: string, label: string, value: number): HTMLElement {
  const v = Math.max(0, Math.min(100, Math.round(Number.isFinite(value) ? value : 0)));
  return h(
    "div",
    { id, class: "explain-score", "data-score": v },
    h("span", { id: `${id}-label`, class: "score-label" }, label),
    h("span", { class: "score-figure" }, h("span", { class: "score-value" }, String(v)), h("span", { class: "muted" }, " / 100")),
    h("meter", { min: 0, max: 100, low: 60, high: 85, optimum: 100, value: v, "aria-labelledby": `${id}-label`, "aria-valuetext": `${v} out of 100` }),
  );
}

function scores(x: Explanation): HTMLElement {
  const c = x.deliveryComparison;
  return h(
    "div",
    { id: "explain-scores", class: "explain-scores" },
    score("explain-score-upload", "Upload-ready", c.uploadReadyScore),
    score("explain-score-enhanced", "Enhanced", c.enhancedScore),
    c.summary ? h("p", { id: "explain-comparison", class: "score-summary" }, c.summary) : null,
  );
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function checklist(actions: ExplainAction[], st: ExplainState, hooks: ExplainHooks): HTMLElement {
  const progress = h("p", { id: "explain-progress", class: "muted small", role: "status" });
  const total = actions.reduce((n, a) => n + (a.effortMinutes || 0), 0);
  const showProgress = () => {
    const done = actions.filter((a) => st.done[a.id]).length;
    const left = actions.filter((a) => !st.done[a.id]).reduce((n, a) => n + (a.effortMinutes || 0), 0);
    progress.textContent = `${done} of ${plural(actions.length, "step", "steps")} done` + (total ? ` · about ${plural(left, "minute", "minutes")} of work left` : "");
  };
  const buttons = new Map<string, HTMLButtonElement>();
  const choose = (a: ExplainAction) => {
    st.chosen = st.chosen === a.id ? null : a.id;
    buttons.forEach((b, id) => b.setAttribute("aria-pressed", String(id === st.chosen)));
    items.forEach((li) => li.classList.toggle("chosen", li.getAttribute("data-action") === st.chosen));
    if (st.chosen === null) {
      hooks.highlight([], []);
      announce("Highlight cleared.");
      return;
    }
    const rows = hooks.highlight(a.cueIndexes, a.codes ?? []);
    if (a.cueIndexes.length) hooks.select(a.cueIndexes[0]);
    announce(`“${a.title}”: ${plural(a.cueIndexes.length, "cue", "cues")} highlighted, ${plural(rows, "problem row", "problem rows")} shown; cue ${a.cueIndexes[0] + 1} of the delivery is in the cue detail.`);
  };
  const items = actions.map((a) => actionItem(a, st, choose, buttons, showProgress));
  showProgress();
  // A step chosen before the view was drawn again keeps its highlight.
  const chosen = actions.find((a) => a.id === st.chosen);
  if (chosen) {
    buttons.get(chosen.id)?.setAttribute("aria-pressed", "true");
    items.find((li) => li.getAttribute("data-action") === chosen.id)?.classList.add("chosen");
    hooks.highlight(chosen.cueIndexes, chosen.codes ?? []);
  }
  return h(
    "div",
    { class: "explain-plan" },
    h("h4", { id: "explain-actions-h" }, "Checklist"),
    h("p", { class: "muted small" }, "Tick a step once it is done. Choose a step's title to highlight its cues in the delivery's problems and on the timeline."),
    progress,
    h("ol", { id: "explain-actions", class: "explain-actions", "aria-labelledby": "explain-actions-h" }, ...items),
  );
}

function actionItem(
  a: ExplainAction,
  st: ExplainState,
  choose: (a: ExplainAction) => void,
  buttons: Map<string, HTMLButtonElement>,
  changed: () => void,
): HTMLElement {
  const p = PRIORITY[a.priority] ?? { text: `Priority ${a.priority}`, cls: "prio-review" };
  const titleId = `explain-title-${a.id}`;
  const box = h("input", {
    id: `explain-done-${a.id}`,
    type: "checkbox",
    class: "explain-done",
    checked: !!st.done[a.id],
    "aria-label": `Done: ${a.title}`,
    onchange: () => {
      st.done[a.id] = box.checked;
      li.classList.toggle("done", box.checked);
      changed();
    },
  });
  let title: HTMLElement;
  if (a.cueIndexes.length) {
    const b = h(
      "button",
      {
        id: titleId,
        type: "button",
        class: "linklike explain-choose",
        "aria-pressed": "false",
        "aria-controls": "delivery-table timeline",
        "aria-describedby": `explain-facts-${a.id}`,
        onclick: () => choose(a),
      },
      a.title,
    );
    buttons.set(a.id, b);
    title = b;
  } else {
    title = h("span", { id: titleId, class: "explain-title" }, a.title);
  }
  const tag = h("span", { class: `badge prio ${p.cls}`, "data-priority": a.priority }, a.blocking && a.priority !== 1 ? `${p.text} · blocking` : p.text);
  const li = h(
    "li",
    { class: `explain-action${st.done[a.id] ? " done" : ""}`, "data-action": a.id, "data-priority": a.priority, "data-cues": a.cueIndexes.join(" ") },
    box,
    h(
      "div",
      { class: "explain-action-body" },
      h("div", { class: "explain-action-head" }, title, " ", tag),
      a.detail ? h("p", { class: "explain-detail" }, a.detail) : null,
      h("ul", { id: `explain-facts-${a.id}`, class: "explain-facts" }, ...facts(a)),
    ),
  );
  return li;
}

function facts(a: ExplainAction): HTMLElement[] {
  const out: HTMLElement[] = [];
  const shown = a.cueIndexes.length;
  if (shown) {
    out.push(h("li", { class: "fact-count" }, shown < a.count ? `${a.count} cues (the first ${shown} highlighted)` : plural(a.count, "cue", "cues")));
  } else {
    // A manual review counts clauses; any other step without cues counts file-wide findings.
    const what = a.kind === "review_manually" ? plural(a.count, "clause", "clauses") : `${plural(a.count, "finding", "findings")}, whole file`;
    out.push(h("li", { class: "fact-count" }, a.count > 0 ? what : "Whole file"));
  }
  if (a.owner) out.push(h("li", { class: "fact-owner" }, `Owner: ${a.owner}`));
  if (a.effortMinutes > 0) out.push(h("li", { class: "fact-effort" }, `about ${plural(a.effortMinutes, "minute", "minutes")}`));
  if (a.autoFixable && a.fixProfile) {
    const name = FIX_LABELS[a.fixProfile];
    out.push(
      h(
        "li",
        { class: "fact-autofix" },
        h("span", { "aria-hidden": "true" }, "↻ "),
        "Fix profile ",
        h("code", null, a.fixProfile),
        name ? ` (${name})` : "",
        " does this",
      ),
    );
  }
  if (a.clauses.length) out.push(h("li", { class: "fact-clauses" }, a.clauses.length === 1 ? "Clause " : "Clauses ", ...a.clauses.flatMap((c, i) => [i ? ", " : "", h("code", null, c)])));
  return out;
}

function clientSummary(text: string): HTMLElement {
  // About 60 characters a line in the narrow column; 4 to 12 rows, then it scrolls.
  const lines = text.split("\n").reduce((n, l) => n + Math.max(1, Math.ceil(l.length / 60)), 0);
  const area = h("textarea", {
    id: "explain-client",
    class: "explain-client",
    readonly: true,
    rows: Math.max(4, Math.min(12, lines)),
    spellcheck: false,
    "aria-labelledby": "explain-client-h",
    "aria-describedby": "explain-client-hint",
  });
  area.value = text;
  const status = h("span", { id: "explain-copy-status", class: "muted small", role: "status", "aria-live": "polite" });
  const copy = h(
    "button",
    {
      id: "explain-copy",
      type: "button",
      class: "button secondary small",
      onclick: async () => {
        status.textContent = "";
        if (await copyText(area.value)) {
          status.textContent = "Copied.";
          announce("Copied the client summary.");
          return;
        }
        // No clipboard for the page: select the text for Ctrl+C.
        area.focus();
        area.select();
        status.textContent = "Selected: press Ctrl+C (⌘C) to copy.";
        announce("The client summary is selected: press Control C to copy.");
      },
    },
    "Copy",
  );
  return h(
    "div",
    { class: "explain-client-wrap" },
    h("h4", { id: "explain-client-h" }, "For the client"),
    h("p", { id: "explain-client-hint", class: "muted small" }, "Plain text to paste into a mail."),
    area,
    h("div", { class: "form-actions explain-copy-row" }, copy, status),
  );
}
