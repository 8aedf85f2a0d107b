// The workstation's cue list: every cue of a Draft as an editable row,
// virtualised with @tanstack/virtual-core so only the rows in view (and
// OVERSCAN either side, and the selected row, so focus never leaves the
// DOM) exist: some forty rows for 30,000 cues. Rows are one height (the
// first row's, measured once), so scrolling never jumps and the scroll
// height is exact.
//
// A row: the cue number, in and out timecodes (Enter or leaving the field
// applies them; what is not a time shows an error under the row and
// changes nothing; Escape puts the cue's time back), the text (applied
// TEXT_DEBOUNCE_MS after typing stops, on leaving the field and before any
// other edit, so an undo step is a burst of typing, not a keystroke), the
// cue's problems as badges, and buttons to split, merge, insert and
// delete. CUE_LIST_KEYS lists the keyboard bindings.
//
// The layout is the page's stylesheet's; the list sets inline only what
// virtualisation needs (the rows' position and height, the box's height).

import { Virtualizer, defaultRangeExtractor, elementScroll, observeElementOffset, observeElementRect, type Range } from "@tanstack/virtual-core";
import type { Severity } from "../api/types";
import { announce, h, replace } from "../dom";
import { codeLabel, KIND_LABELS } from "../ui/labels";
import { DraftError, type ChangeKind, type Draft, type Via } from "./draft";
import { formatTimecode, parseTimecode, snapToFrame, type FrameRate } from "./timecode";

/** Problem is one finding on a cue, as the page shows it. */
export interface Problem {
  code: string;
  severity: Severity;
  message: string;
}

/** KeyBinding is a shortcut for the help overlay. */
export interface KeyBinding {
  keys: string;
  action: string;
}

/** CUE_LIST_KEYS are the list's keyboard bindings, for the page's help overlay; read-only. */
export const CUE_LIST_KEYS: readonly KeyBinding[] = [
  { keys: "Ctrl+Enter", action: "Split the cue at the caret (in the text)" },
  { keys: "Alt+M", action: "Merge the cue with the next" },
  { keys: "Alt+Enter", action: "Insert a cue after this one" },
  { keys: "Alt+Shift+Delete", action: "Delete the cue" },
  { keys: "Alt+Down / Alt+Up", action: "Go to the next / previous cue" },
  { keys: "Enter (in a time)", action: "Apply the time" },
  { keys: "Escape (in a time)", action: "Put the cue's time back" },
  { keys: "Ctrl+Z / Ctrl+Shift+Z or Ctrl+Y", action: "Undo / redo an edit" },
];

/** TEXT_DEBOUNCE_MS is how long after the last keystroke a text edit is applied. */
export const TEXT_DEBOUNCE_MS = 400;
const OVERSCAN = 8;
const DEFAULT_ROW_PX = 112;

export interface CueListOptions {
  /** rate shows and reads times as HH:MM:SS:FF and snaps typed times to frames; none: HH:MM:SS.mmm. */
  rate?: FrameRate | null;
  /** height is the list's CSS height (it scrolls inside it). Default "min(70vh, 720px)". */
  height?: string;
}

export interface CueList {
  /** el is #cue-list, the scrolling box. */
  el: HTMLElement;
  /** select scrolls to cue i and focuses its text (or the field last used). */
  select(i: number): void;
  /** selected is the selected cue's index, or -1. */
  readonly selected: number;
  /** onSelect adds a listener of selection changes (by focus, keys or select); it returns its removal. */
  onSelect(fn: (i: number) => void): () => void;
  /** setProblems replaces the problems by cue index; the rows in view update in place. */
  setProblems(problems: ReadonlyMap<number, readonly Problem[]>): void;
  /** setRate changes how times read (a project's frame rate found later). */
  setRate(rate: FrameRate | null): void;
  /** flush applies text typed but not yet applied. */
  flush(): void;
  /** destroy stops observing and unhooks from the draft. */
  destroy(): void;
}

type Field = "in" | "out" | "text";

interface Row {
  el: HTMLDivElement;
  index: number;
  num: HTMLSpanElement;
  inEl: HTMLInputElement;
  outEl: HTMLInputElement;
  text: HTMLTextAreaElement;
  problems: HTMLUListElement;
  error: HTMLParagraphElement;
  /** editing marks a time field typed in and not yet applied, so a redraw leaves it alone. */
  editing: Set<Field>;
  /** gen is the generation the row was last drawn at. */
  gen: number;
}

let listSeq = 0;

/** cueList builds the editable list of a draft's cues. */
export function cueList(draft: Draft, opts: CueListOptions = {}): CueList {
  const uid = `cl${++listSeq}`;
  let rate: FrameRate | null = opts.rate ?? null;
  let problems: ReadonlyMap<number, readonly Problem[]> = new Map();
  let selected = -1;
  let lastField: Field = "text";
  let rowPx = DEFAULT_ROW_PX;
  let measured = false;
  /** gen counts what changes every row (an edit, problems, the rate, the selection): a row drawn at it is current. */
  let gen = 0;
  const selectListeners: ((i: number) => void)[] = [];
  /** pending is the text typed into a cue and not applied yet. */
  let pending: { index: number; text: string; timer: ReturnType<typeof setTimeout> } | null = null;

  const inner = h("div", { class: "cue-list-inner", role: "none" });
  inner.style.position = "relative";
  inner.style.width = "100%";
  const el = h("div", { id: "cue-list", class: "cue-list", role: "list", "aria-label": "Cues" }, inner);
  el.style.overflowY = "auto";
  el.style.height = opts.height ?? "min(70vh, 720px)";
  el.style.position = "relative";

  const rows = new Map<number, Row>();
  const free: Row[] = [];

  const fmt = (ms: number) => formatTimecode(ms, rate);

  const virt = new Virtualizer<HTMLDivElement, HTMLDivElement>({
    count: draft.count,
    getScrollElement: () => el,
    estimateSize: () => rowPx,
    overscan: OVERSCAN,
    scrollToFn: elementScroll,
    observeElementRect,
    observeElementOffset,
    // The selected row stays rendered wherever the view is, so the field
    // with focus is never taken out of the document.
    rangeExtractor: extractor(),
    onChange: () => render(),
  });
  /**
   * extractor is the virtualiser's range with the selected row in it. A
   * new function for each selection, as the virtualiser recomputes its
   * rows only when its inputs change.
   */
  function extractor(): (range: Range) => number[] {
    const pinned = selected;
    return (range: Range) => {
      const list = defaultRangeExtractor(range);
      if (pinned >= 0 && pinned < range.count && !list.includes(pinned)) {
        list.push(pinned);
        list.sort((a, b) => a - b);
      }
      return list;
    };
  }
  const unmount = virt._didMount();
  virt._willUpdate();

  function flush(): void {
    if (!pending) return;
    const p = pending;
    pending = null;
    clearTimeout(p.timer);
    if (p.index < draft.count) draft.setText(p.index, p.text);
  }
  const unCommit = draft.onCommit(flush);

  function showError(row: Row, field: Field | null, message: string): void {
    row.error.textContent = message;
    row.error.hidden = message === "";
    for (const [f, input] of [
      ["in", row.inEl],
      ["out", row.outEl],
      ["text", row.text],
    ] as const) {
      if (f === field && message !== "") input.setAttribute("aria-invalid", "true");
      else input.removeAttribute("aria-invalid");
    }
  }

  /** attempt runs an edit, showing a refusal under the row instead of throwing. */
  function attempt(row: Row, field: Field | null, edit: () => void): void {
    try {
      edit();
      showError(row, null, "");
    } catch (e) {
      if (!(e instanceof DraftError)) throw e;
      showError(row, field, e.message);
    }
  }

  function applyTimes(row: Row, field: "in" | "out"): void {
    const input = field === "in" ? row.inEl : row.outEl;
    const i = row.index;
    const c = draft.cue(i);
    const r = parseTimecode(input.value, rate);
    if (!r.ok) {
      showError(row, field, `${field === "in" ? "In" : "Out"} time: ${r.error}`);
      return;
    }
    const ms = rate ? snapToFrame(r.ms, rate) : r.ms;
    const start = field === "in" ? ms : c.startMs;
    const end = field === "out" ? ms : c.endMs;
    row.editing.delete(field);
    attempt(row, field, () => {
      draft.setTimes(i, start, end);
    });
    if (!row.error.hidden) row.editing.add(field);
    else if (row.index === i) {
      // Unchanged times make no change event: write the typed time out as a timecode here.
      const now = draft.cue(i);
      input.value = fmt(field === "in" ? now.startMs : now.endMs);
    }
  }

  function makeRow(): Row {
    const n = ++listSeq;
    const ids = { in: `${uid}-in-${n}`, out: `${uid}-out-${n}`, text: `${uid}-text-${n}`, err: `${uid}-err-${n}` };
    const num = h("span", { class: "cue-num", "aria-hidden": "true" });
    const inEl = h("input", { type: "text", class: "cue-in", id: ids.in, autocomplete: "off", spellcheck: "false", "aria-describedby": ids.err });
    const outEl = h("input", { type: "text", class: "cue-out", id: ids.out, autocomplete: "off", spellcheck: "false", "aria-describedby": ids.err });
    const text = h("textarea", { class: "cue-text", id: ids.text, rows: 3, "aria-describedby": ids.err });
    const problemsEl = h("ul", { class: "cue-problems", "aria-label": "Problems" });
    const error = h("p", { class: "cue-error", id: ids.err, role: "status", "aria-live": "polite", hidden: true });
    const btn = (cls: string, label: string, key: string, act: (row: Row) => void) =>
      h("button", { type: "button", class: `cue-action ${cls}`, title: `${label} (${key})`, onclick: () => act(row) }, label);
    const el = h(
      "div",
      { class: "cue-row", role: "listitem" },
      num,
      h("div", { class: "cue-times" }, h("label", { for: ids.in }, "In "), inEl, h("label", { for: ids.out }, "Out "), outEl),
      h("label", { for: ids.text, class: "visually-hidden" }, "Text"),
      text,
      problemsEl,
      h(
        "div",
        { class: "cue-actions" },
        btn("cue-split", "Split", "Ctrl+Enter", (r) => split(r)),
        btn("cue-merge", "Merge", "Alt+M", (r) => structural(r, () => draft.mergeNext(r.index))),
        btn("cue-insert", "Insert", "Alt+Enter", (r) => structural(r, () => draft.insertAfter(r.index))),
        btn("cue-delete", "Delete", "Alt+Shift+Delete", (r) => structural(r, () => draft.remove(r.index))),
      ),
      error,
    );
    el.style.position = "absolute";
    el.style.top = "0";
    el.style.left = "0";
    el.style.width = "100%";
    el.style.boxSizing = "border-box";
    el.style.overflow = "hidden";
    const row: Row = { el, index: -1, num, inEl, outEl, text, problems: problemsEl, error, editing: new Set(), gen: -1 };

    for (const [field, input] of [
      ["in", inEl],
      ["out", outEl],
    ] as const) {
      input.addEventListener("input", () => row.editing.add(field));
      input.addEventListener("change", () => applyTimes(row, field));
      input.addEventListener("keydown", (e) => {
        if (e.key === "Enter" && !e.altKey && !e.ctrlKey && !e.metaKey) {
          e.preventDefault();
          applyTimes(row, field);
        } else if (e.key === "Escape") {
          e.preventDefault();
          row.editing.delete(field);
          const c = draft.cue(row.index);
          input.value = fmt(field === "in" ? c.startMs : c.endMs);
          showError(row, null, "");
        }
      });
      input.addEventListener("focus", () => (lastField = field));
    }
    text.addEventListener("focus", () => (lastField = "text"));
    text.addEventListener("input", () => {
      if (pending && pending.index !== row.index) flush();
      if (pending) clearTimeout(pending.timer);
      pending = { index: row.index, text: text.value, timer: setTimeout(flush, TEXT_DEBOUNCE_MS) };
    });
    text.addEventListener("blur", flush);
    el.addEventListener("focusin", () => setSelected(row.index));
    el.addEventListener("keydown", (e) => onKey(row, e));
    return row;
  }

  function onKey(row: Row, e: KeyboardEvent): void {
    const ctrl = e.ctrlKey || e.metaKey;
    const inText = e.target === row.text;
    let handled = true;
    if (ctrl && !e.altKey && e.key === "Enter" && inText) split(row);
    else if (e.altKey && !ctrl && !e.shiftKey && e.key === "Enter") structural(row, () => draft.insertAfter(row.index));
    else if (e.altKey && !ctrl && e.code === "KeyM") structural(row, () => draft.mergeNext(row.index));
    else if (e.altKey && e.shiftKey && !ctrl && (e.key === "Delete" || e.key === "Backspace")) structural(row, () => draft.remove(row.index));
    else if (e.altKey && !ctrl && (e.key === "ArrowDown" || e.key === "ArrowUp")) {
      const to = row.index + (e.key === "ArrowDown" ? 1 : -1);
      if (to >= 0 && to < draft.count) select(to);
    } else if (ctrl && !e.altKey && e.code === "KeyZ") {
      flush();
      if (!(e.shiftKey ? draft.redo() : draft.undo())) announce(e.shiftKey ? "Nothing to redo." : "Nothing to undo.");
    } else if (ctrl && !e.altKey && !e.shiftKey && e.code === "KeyY") {
      flush();
      if (!draft.redo()) announce("Nothing to redo.");
    } else handled = false;
    if (handled) {
      e.preventDefault();
      e.stopPropagation();
    }
  }

  function split(row: Row): void {
    flush();
    attempt(row, "text", () => {
      draft.split(row.index, row.text.selectionStart);
    });
  }

  function structural(row: Row, edit: () => void): void {
    flush();
    attempt(row, null, edit);
  }

  function bind(row: Row, i: number): void {
    const c = draft.cue(i);
    row.gen = gen;
    if (row.index !== i) {
      row.index = i;
      row.editing.clear();
      showError(row, null, "");
      row.el.setAttribute("data-index", String(i));
    }
    const n = String(i + 1);
    if (row.num.textContent !== n) {
      row.num.textContent = n;
      row.el.setAttribute("aria-label", `Cue ${n}`);
      row.inEl.setAttribute("aria-label", `In time of cue ${n}`);
      row.outEl.setAttribute("aria-label", `Out time of cue ${n}`);
      row.text.setAttribute("aria-label", `Text of cue ${n}`);
      for (const b of Array.from(row.el.querySelectorAll<HTMLButtonElement>("button.cue-action"))) {
        b.setAttribute("aria-label", `${b.textContent} cue ${n}`);
      }
    }
    row.el.setAttribute("aria-posinset", n);
    row.el.setAttribute("aria-setsize", String(draft.count));
    row.el.classList.toggle("selected", i === selected);
    if (i === selected) row.el.setAttribute("aria-current", "true");
    else row.el.removeAttribute("aria-current");
    if (!row.editing.has("in")) row.inEl.value = fmt(c.startMs);
    if (!row.editing.has("out")) row.outEl.value = fmt(c.endMs);
    const typing = pending !== null && pending.index === i;
    if (!typing && row.text.value !== c.text) row.text.value = c.text;
    drawProblems(row, problems.get(i) ?? []);
  }

  function drawProblems(row: Row, list: readonly Problem[]): void {
    replace(
      row.problems,
      ...list.map((p) =>
        h(
          "li",
          { class: `cue-problem badge sev-${p.severity}`, "data-code": p.code, "data-severity": p.severity, title: p.message },
          codeLabel(p.code) || p.code,
          h("span", { class: "visually-hidden" }, ` (${KIND_LABELS[p.severity] ?? p.severity}): ${p.message}`),
        ),
      ),
    );
    row.problems.hidden = list.length === 0;
  }

  function render(): void {
    const items = virt.getVirtualItems();
    const want = new Set(items.map((it) => it.index));
    for (const [i, row] of rows) {
      if (!want.has(i) || i >= draft.count) {
        rows.delete(i);
        row.el.remove();
        free.push(row);
      }
    }
    // Rows stay in the document in cue order, so Tab goes from cue to cue;
    // rows already there are in order, and only new ones are inserted.
    let prev: ChildNode | null = null;
    for (const it of items) {
      let row = rows.get(it.index);
      if (!row) {
        row = free.pop() ?? makeRow();
        row.index = -1;
        rows.set(it.index, row);
      }
      if (row.index !== it.index || row.gen !== gen) bind(row, it.index);
      row.el.style.transform = `translateY(${it.start}px)`;
      row.el.style.height = `${rowPx}px`;
      const next: ChildNode | null = prev ? prev.nextSibling : inner.firstChild;
      if (row.el !== next) inner.insertBefore(row.el, next);
      prev = row.el;
    }
    inner.style.height = `${virt.getTotalSize()}px`;
    if (!measured && el.isConnected) measureRow();
  }

  /** measureRow sets the row height to the first row's natural height under the page's stylesheet. */
  function measureRow(): void {
    const first = rows.values().next().value as Row | undefined;
    if (!first) return;
    first.el.style.height = "auto";
    const px = Math.ceil(first.el.getBoundingClientRect().height);
    first.el.style.height = `${rowPx}px`;
    if (px <= 0) return;
    measured = true;
    if (px !== rowPx) {
      rowPx = px;
      virt.setOptions({ ...virt.options, estimateSize: () => px });
      virt.measure();
    }
  }

  function setSelected(i: number): void {
    if (i === selected) return;
    const prev = rows.get(selected);
    selected = i;
    gen++;
    virt.setOptions({ ...virt.options, rangeExtractor: extractor() });
    if (prev) bind(prev, prev.index);
    const cur = rows.get(i);
    if (cur) bind(cur, i);
    for (const f of selectListeners.slice()) f(i);
  }

  function select(i: number): void {
    if (draft.count === 0) return;
    const k = Math.max(0, Math.min(draft.count - 1, i));
    setSelected(k);
    virt.scrollToIndex(k, { align: "auto" });
    render();
    const row = rows.get(k);
    if (!row) return;
    const target = lastField === "in" ? row.inEl : lastField === "out" ? row.outEl : row.text;
    if (document.activeElement !== target) target.focus({ preventScroll: true });
  }

  const unChange = draft.onChange((kind: ChangeKind, index: number, via: Via) => {
    if (kind === "text" && via === "do") {
      // Typing: only the cue typed in changed.
      const row = rows.get(index);
      if (row) bind(row, index);
      return;
    }
    gen++;
    for (const row of rows.values()) row.editing.clear();
    if (virt.options.count !== draft.count) {
      virt.setOptions({ ...virt.options, count: draft.count });
    }
    if (selected >= draft.count) selected = draft.count - 1;
    render();
    if (kind === "saved") return;
    if (index >= 0) {
      if (kind === "split" && via !== "undo") lastField = "text";
      select(index);
    }
    if (via !== "do") announce(`${via === "undo" ? "Undone" : "Redone"}: ${kind === "text" ? "text edit" : kind}.`);
    else if (kind === "remove") announce(index >= 0 ? `Cue deleted; cue ${index + 1} selected.` : "Cue deleted; no cues left.");
    else if (kind !== "text" && kind !== "restore") announce(`${kind === "times" ? "Times set" : kind === "split" ? "Cue split" : kind === "merge" ? "Cues merged" : "Cue inserted"}; cue ${index + 1} selected.`);
  });

  render();

  return {
    el,
    select,
    get selected() {
      return selected;
    },
    onSelect(fn) {
      selectListeners.push(fn);
      return () => {
        const k = selectListeners.indexOf(fn);
        if (k >= 0) selectListeners.splice(k, 1);
      };
    },
    setProblems(map) {
      problems = map;
      gen++;
      for (const [i, row] of rows) drawProblems(row, problems.get(i) ?? []);
    },
    setRate(r) {
      rate = r;
      gen++;
      for (const [i, row] of rows) {
        row.editing.delete("in");
        row.editing.delete("out");
        bind(row, i);
      }
    },
    flush,
    destroy() {
      flush();
      unChange();
      unCommit();
      unmount();
    },
  };
}
