// The run form shared by Run QA (signed in) and the quick converter
// (signed out): drop zone + file picker, preset, fix profile, standard,
// and the captions' language for files that declare none; for an account
// with ExplainAI, whether to ask for the editorial plan.

import { FIX_PROFILES, PRESETS, STANDARDS, type FixProfile, type Preset, type PresetName, type ProcessInput, type StandardId } from "../api/types";
import { h, replace } from "../dom";
import { FIX_LABELS, PRESET_LABELS, STANDARD_LABELS } from "./labels";

export interface RunFormState {
  file: File | null;
  /** preset is a built-in id or one of the account's own presets (ownPresets). */
  preset: PresetName;
  /** ownPresets are the signed-in account's presets the select offers after the built-ins. */
  ownPresets: string[];
  fixProfile: FixProfile;
  standard: StandardId | "";
  language: string;
  /** explainOffered: the account has PRO_WORKSPACE and explain_ai (never on the signed-out converter). */
  explainOffered: boolean;
  /** includeExplain is the checkbox's state, on until the editor turns it off. */
  includeExplain: boolean;
  busy: boolean;
}

export function newRunFormState(): RunFormState {
  return { file: null, preset: "youtube", ownPresets: [], fixProfile: "warn-only", standard: "", language: "", explainOffered: false, includeExplain: true, busy: false };
}

/** MAX_BYTES is the largest caption file the process routes take (ProcessRequest). */
export const MAX_BYTES = 4_456_448;

/** runForm renders the form; submit receives the checked input. */
export function runForm(state: RunFormState, submit: (input: ProcessInput) => void, showError: (msg: string) => void): HTMLElement {
  const fileName = h("span", { id: "qa-file-name", class: "file-name" }, state.file ? state.file.name : "No file chosen");
  const setFile = (f: File | null | undefined) => {
    if (!f) return;
    if (f.size > MAX_BYTES) {
      showError(`“${f.name}” is ${(f.size / 1048576).toFixed(1)} MiB; the limit is about 4.25 MiB.`);
      return;
    }
    state.file = f;
    replace(fileName, f.name, h("span", { class: "muted" }, ` · ${formatSize(f.size)}`));
  };
  const input = h("input", {
    id: "qa-file",
    type: "file",
    class: "visually-hidden",
    accept: ".srt,.vtt,.sbv,.ass,.ssa,.ttml,.dfxp,.xml,.scc,.stl,.json",
    "aria-describedby": "qa-drop-hint",
    onchange: () => setFile(input.files?.[0]),
  });
  const drop = h(
    "div",
    { id: "qa-drop", class: "drop" },
    input,
    h("label", { for: "qa-file", class: "drop-label" }, h("span", { class: "button secondary" }, "Choose caption file…")),
    h("p", { id: "qa-drop-hint", class: "muted" }, "or drop it here · SRT, WebVTT, SBV, ASS, TTML or JSON IR · up to 4.25 MiB"),
    fileName,
  );
  drop.addEventListener("dragover", (e) => {
    e.preventDefault();
    drop.classList.add("dragging");
  });
  drop.addEventListener("dragleave", () => drop.classList.remove("dragging"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("dragging");
    setFile(e.dataTransfer?.files?.[0]);
  });

  const preset = select("qa-preset", "Platform preset", [...PRESETS, ...state.ownPresets], state.preset, presetLabel, (v) => (state.preset = v));
  const fix = select("qa-fix", "Fix profile", FIX_PROFILES, state.fixProfile, (v) => FIX_LABELS[v as FixProfile] ?? v, (v) => (state.fixProfile = v as FixProfile));
  const std = select(
    "qa-standard",
    "Standard",
    ["", ...STANDARDS],
    state.standard,
    (v) => (v === "" ? "None" : STANDARD_LABELS[v as StandardId] ?? v),
    (v) => (state.standard = v as StandardId | ""),
  );
  const langInput = h("input", {
    id: "qa-language",
    name: "qa-language",
    type: "text",
    value: state.language,
    placeholder: "e.g. en-GB",
    autocomplete: "off",
    spellcheck: false,
    "aria-describedby": "qa-language-hint",
    oninput: () => (state.language = langInput.value.trim()),
  });
  const lang = h(
    "div",
    { class: "field" },
    h("label", { for: "qa-language" }, "Language (optional)"),
    langInput,
    h("span", { id: "qa-language-hint", class: "muted small" }, "For files that declare none, such as SRT; written into WebVTT, TTML and EBU-TT-D deliveries, and as EBU STL's language code (LMS needs one)."),
  );
  const run = h("button", { id: "qa-run", type: "submit", class: "button primary" }, "Run QA");
  const form = h(
    "form",
    { id: "qa-form", class: "run-form", "aria-label": "Run caption QA", novalidate: true },
    drop,
    h("div", { class: "form-row" }, preset, fix, std, lang),
    // Filled by offerExplain once the account's entitlements are known.
    h("div", { id: "qa-explain-slot" }, state.explainOffered ? explainOption(state) : null),
    h("div", { class: "form-actions" }, run, h("span", { id: "qa-busy", class: "muted", role: "status" })),
  );
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    if (state.busy) return;
    if (!state.file) {
      showError("Choose a caption file first.");
      input.focus();
      return;
    }
    submit({ file: state.file, preset: state.preset, fixProfile: state.fixProfile, standard: state.standard, language: state.language, includeExplain: state.explainOffered && state.includeExplain });
  });
  return form;
}

function explainOption(state: RunFormState): HTMLElement {
  const box = h("input", {
    id: "qa-explain",
    name: "qa-explain",
    type: "checkbox",
    checked: state.includeExplain,
    "aria-describedby": "qa-explain-hint",
    onchange: () => (state.includeExplain = box.checked),
  });
  return h(
    "div",
    { class: "check explain-option" },
    box,
    h(
      "div",
      null,
      h("label", { for: "qa-explain" }, "Explain the result (ExplainAI)"),
      h("span", { id: "qa-explain-hint", class: "muted small block" }, "Adds an editorial plan: what to fix first and on which cues, scores, and a summary for the client."),
    ),
  );
}

/**
 * offerExplain shows or hides the ExplainAI checkbox in form (one runForm
 * rendered for state) and remembers it for the next render.
 */
export function offerExplain(state: RunFormState, form: HTMLElement | null, offered: boolean): void {
  state.explainOffered = offered;
  const slot = form?.querySelector<HTMLElement>("#qa-explain-slot");
  if (!slot) return;
  slot.dataset.offered = String(offered);
  replace(slot, offered ? explainOption(state) : null);
}

/** presetLabel names a built-in by its label and marks one of the account's own. */
export function presetLabel(v: string): string {
  return PRESET_LABELS[v as Preset] ?? `${v} (your preset)`;
}

/** offerPresets adds the account's own presets to the form's preset select. */
export function offerPresets(state: RunFormState, form: HTMLElement | null, names: string[]): void {
  state.ownPresets = names;
  const sel = form?.querySelector<HTMLSelectElement>("#qa-preset");
  if (!sel) return;
  for (const o of [...sel.options]) if (!(PRESETS as readonly string[]).includes(o.value)) o.remove();
  for (const n of names) {
    const o = h("option", { value: n }, presetLabel(n));
    if (n === state.preset) o.selected = true;
    sel.appendChild(o);
  }
}

function select(
  id: string,
  label: string,
  values: readonly string[],
  current: string,
  text: (v: string) => string,
  set: (v: string) => void,
): HTMLElement {
  const sel = h("select", { id, name: id, onchange: () => set(sel.value) });
  for (const v of values) {
    const o = h("option", { value: v }, text(v));
    if (v === current) o.selected = true;
    sel.appendChild(o);
  }
  return h("div", { class: "field" }, h("label", { for: id }, label), sel);
}

function formatSize(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1048576) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1048576).toFixed(2)} MiB`;
}

/** setBusy toggles the form's running state. */
export function setBusy(state: RunFormState, busy: boolean): void {
  state.busy = busy;
  const run = document.getElementById("qa-run") as HTMLButtonElement | null;
  const msg = document.getElementById("qa-busy");
  if (run) {
    run.disabled = busy;
    run.setAttribute("aria-busy", String(busy));
  }
  if (msg) msg.textContent = busy ? "Running QA…" : "";
}
