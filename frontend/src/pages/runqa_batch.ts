// Batch QA on the Run QA page (docs/ui.md): a folder (dropped, or chosen
// with the folder picker) or several files, checked with the preset, fix
// profile and standard chosen once in the form above, two at a time
// through POST /api/v1/process (processCaptions), into one table of
// verdicts. A file that fails shows why in its row and the others go on;
// a row opens that file's report in the page's one report view.

import { messageOf } from "../api/client";
import type { ProcessInput, RunResult } from "../api/types";
import { announce, h, replace } from "../dom";
import { download } from "../download";
import { STANDARD_LABELS, statusTag } from "../ui/labels";
import { omittedCount } from "../ui/omitted";
import { MAX_BYTES, type RunFormState } from "../ui/runform";

/** CAPTION_EXTENSIONS are the formats CaptionQA reads; other files in a folder are skipped. */
const CAPTION_EXTENSIONS = ["srt", "vtt", "sbv", "ass", "ssa", "ttml", "dfxp", "xml", "scc", "stl", "json"] as const;
const ACCEPT = CAPTION_EXTENSIONS.map((e) => `.${e}`).join(",");

/** CONCURRENCY is how many files are in flight at once: the burst limit stays clear of a large folder. */
const CONCURRENCY = 2;

export interface BatchOptions {
  run: (input: ProcessInput) => Promise<RunResult>;
  /** form holds the preset, fix profile, standard and language, chosen once for every file. */
  form: RunFormState;
  /** open shows a row's result in the page's report view; name is the file's path in the batch. */
  open: (res: RunResult, file: File, name: string) => Promise<void>;
}

type RowState = "queued" | "running" | "done" | "failed";

interface Row {
  /** index is the row's place in the batch as chosen: its element ids use it. */
  index: number;
  /** path is the file's path within the dropped or chosen folder (its name for a picked file). */
  path: string;
  file: File;
  state: RowState;
  result?: RunResult;
  error?: string;
}

interface Picked {
  file: File;
  path: string;
}

type SortKey = "file" | "verdict";

/** VERDICT_RANK orders rows worst first: failed, needs attention, will adapt, ready, then those not done. */
const VERDICT_RANK: Record<string, number> = { failed: 0, needs_attention: 1, will_adapt: 2, ready: 3, running: 4, queued: 5 };

function verdictOf(r: Row): string {
  if (r.state === "done" && r.result) return r.result.deliveryStatus;
  return r.state;
}

/** errorsOf counts the enforced problems left in the delivery, those the API left out of its list too. */
function errorsOf(res: RunResult): number {
  return res.report.remaining.length + omittedCount(res.report.omitted, "remaining");
}

/** warningsOf counts the suggested targets the delivery misses, those left out of the list too. */
function warningsOf(res: RunResult): number {
  return (res.suggestions?.length ?? 0) + omittedCount(res.omitted, "suggestions");
}

function isCaption(name: string): boolean {
  const ext = /\.([^./]+)$/.exec(name)?.[1]?.toLowerCase() ?? "";
  return (CAPTION_EXTENSIONS as readonly string[]).includes(ext);
}

/**
 * droppedFiles walks what a drop carries: folders through their entries
 * (webkitGetAsEntry), to every file under them, with its path. The
 * entries are taken before the first await, while the drop's data is
 * still readable.
 */
async function droppedFiles(dt: DataTransfer): Promise<Picked[]> {
  const entries = Array.from(dt.items)
    .map((i) => (i.kind === "file" ? i.webkitGetAsEntry() : null))
    .filter((e): e is FileSystemEntry => e !== null);
  if (!entries.length) return Array.from(dt.files).map((file) => ({ file, path: file.name }));
  const out: Picked[] = [];
  for (const e of entries) await walk(e, out);
  return out;
}

async function walk(e: FileSystemEntry, out: Picked[]): Promise<void> {
  if (e.isFile) {
    const file = await new Promise<File>((res, rej) => (e as FileSystemFileEntry).file(res, rej));
    out.push({ file, path: e.fullPath.replace(/^\//, "") });
    return;
  }
  if (!e.isDirectory) return;
  const reader = (e as FileSystemDirectoryEntry).createReader();
  // readEntries answers a folder in parts (a hundred at a time in Chromium) until it answers none.
  for (;;) {
    const part = await new Promise<FileSystemEntry[]>((res, rej) => reader.readEntries(res, rej));
    if (!part.length) return;
    for (const c of part) await walk(c, out);
  }
}

/** pickedFiles are an input's files, with their folder paths when the folder picker chose them. */
function pickedFiles(list: FileList | null): Picked[] {
  return Array.from(list ?? []).map((file) => ({ file, path: file.webkitRelativePath || file.name }));
}

/** csvCell quotes a cell, and keeps a spreadsheet from reading a file name as a formula. */
function csvCell(v: string | number): string {
  let s = String(v);
  if (typeof v === "string" && /^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** BatchQA keeps its files and results across navigation within a session, as RunPage keeps its form. */
export class BatchQA {
  private rows: Row[] = [];
  private skipped: string[] = [];
  private sort: SortKey = "file";
  private asc = true;
  private running = false;
  /** openIndex is the row whose report the page shows. */
  private openIndex: number | null = null;
  /** el is the section of the latest render: a run in flight refreshes whichever is shown. */
  private el: HTMLElement | null = null;
  /**
   * progress is the progress line, one element for the section's every
   * refresh: a live region that stays in place is read out as it changes.
   */
  private progress = h("p", { id: "batch-progress", role: "status", tabindex: -1 });
  /** skippedOpen keeps the skipped list open across refreshes. */
  private skippedOpen = false;

  constructor(private opts: BatchOptions) {}

  render(): HTMLElement {
    const el = h("section", { id: "batch", class: "card batch", "aria-labelledby": "batch-h" });
    this.el = el;
    this.fill();
    return el;
  }

  private fill(): void {
    const el = this.el;
    if (!el) return;
    // A refresh rebuilds the section: the focused control is found again by its id.
    const focused = el.contains(document.activeElement) ? document.activeElement?.id : undefined;
    const files = h("input", { id: "batch-files", type: "file", multiple: true, accept: ACCEPT, class: "visually-hidden", disabled: this.running, "aria-describedby": "batch-hint" });
    files.addEventListener("change", () => this.choose(pickedFiles(files.files)));
    const folder = h("input", { id: "batch-folder", type: "file", webkitdirectory: true, class: "visually-hidden", disabled: this.running, "aria-describedby": "batch-hint" });
    folder.addEventListener("change", () => this.choose(pickedFiles(folder.files)));
    const drop = h(
      "div",
      { id: "batch-drop", class: "drop" },
      files,
      folder,
      h(
        "div",
        { class: "batch-pickers" },
        h("label", { for: "batch-files", class: "drop-label" }, h("span", { class: "button secondary" }, "Choose files…")),
        h("label", { for: "batch-folder", class: "drop-label" }, h("span", { class: "button secondary" }, "Choose folder…")),
      ),
      h("p", { id: "batch-hint", class: "muted" }, "or drop a folder or several files here · files that are not captions are skipped"),
    );
    drop.addEventListener("dragover", (e) => {
      e.preventDefault();
      drop.classList.add("dragging");
    });
    drop.addEventListener("dragleave", () => drop.classList.remove("dragging"));
    drop.addEventListener("drop", (e) => {
      e.preventDefault();
      drop.classList.remove("dragging");
      if (!e.dataTransfer || this.running) return;
      droppedFiles(e.dataTransfer).then(
        (p) => this.choose(p),
        (err) => announce(`Could not read the dropped files: ${messageOf(err)}`),
      );
    });
    const n = this.rows.length;
    const runBtn = h(
      "button",
      { id: "batch-run", type: "button", class: "button primary", disabled: this.running || n === 0, "aria-busy": String(this.running), onclick: () => void this.runAll() },
      n ? `Check ${n} ${n === 1 ? "file" : "files"}` : "Check files",
    );
    const finished = this.rows.some((r) => r.state === "done" || r.state === "failed");
    const csvBtn = h("button", { id: "batch-csv", type: "button", class: "button secondary", disabled: !finished, onclick: () => this.downloadCSV() }, "Download CSV");
    replace(
      el,
      h("h2", { id: "batch-h" }, "Batch QA"),
      h("p", { class: "muted" }, "Checks every file with the preset, fix profile, standard and language chosen above (without ExplainAI), and lists the verdicts. Open a file for its report."),
      drop,
      h("div", { class: "form-actions" }, runBtn, csvBtn),
      this.progress,
      this.skipped.length
        ? h("details", { id: "batch-skipped", open: this.skippedOpen, ontoggle: (e: Event) => (this.skippedOpen = (e.target as HTMLDetailsElement).open) }, h("summary", null, `Skipped ${this.skipped.length} (not caption files)`), h("ul", { class: "small" }, ...this.skipped.map((s) => h("li", null, s))))
        : null,
      n ? this.table() : null,
    );
    this.progress.textContent = this.progressText();
    if (!focused) return;
    document.getElementById(focused)?.focus();
    // The control is gone or disabled (the run button while the files are checked): the progress line takes the focus.
    if (!el.contains(document.activeElement)) this.progress.focus();
  }

  private progressText(): string {
    const n = this.rows.length;
    const skip = this.skipped.length ? ` · ${this.skipped.length} skipped (not caption files)` : "";
    if (!n) return this.skipped.length ? `No caption files chosen${skip}.` : "";
    const checked = this.rows.filter((r) => r.state === "done" || r.state === "failed").length;
    const failed = this.rows.filter((r) => r.state === "failed").length;
    if (checked === 0 && !this.running) return `${n} caption ${n === 1 ? "file" : "files"} chosen${skip}.`;
    return `${checked} of ${n} checked · ${failed} failed${skip}${this.running ? " · checking…" : "."}`;
  }

  private choose(picked: Picked[]): void {
    if (this.running) return;
    const captions = picked.filter((p) => isCaption(p.path));
    this.skipped = picked.filter((p) => !isCaption(p.path)).map((p) => p.path).sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
    captions.sort((a, b) => a.path.localeCompare(b.path, undefined, { numeric: true }));
    this.rows = captions.map((p, index) => ({ index, path: p.path, file: p.file, state: "queued" }));
    this.openIndex = null;
    this.fill();
    announce(this.progressText());
  }

  private async runAll(): Promise<void> {
    if (this.running || !this.rows.length) return;
    this.running = true;
    const f = this.opts.form;
    // The choices as they are now, for every file of this batch.
    const base = { preset: f.preset, fixProfile: f.fixProfile, standard: f.standard, language: f.language, includeExplain: false };
    for (const r of this.rows) {
      r.state = "queued";
      r.result = r.error = undefined;
    }
    this.openIndex = null;
    this.fill();
    announce(`Checking ${this.rows.length} files…`);
    let next = 0;
    const worker = async () => {
      while (next < this.rows.length) {
        const row = this.rows[next++];
        await this.runOne(row, { ...base, file: row.file });
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, this.rows.length) }, worker));
    this.running = false;
    this.fill();
    announce(`Batch finished: ${this.progressText()}`);
  }

  private async runOne(row: Row, input: ProcessInput): Promise<void> {
    if (row.file.size > MAX_BYTES) {
      row.state = "failed";
      row.error = `The file is ${(row.file.size / 1048576).toFixed(1)} MiB; the limit is about 4.25 MiB.`;
      this.fill();
      return;
    }
    row.state = "running";
    this.fill();
    try {
      row.result = await this.opts.run(input);
      row.state = "done";
    } catch (e) {
      row.state = "failed";
      row.error = messageOf(e);
    }
    this.fill();
  }

  private sorted(): Row[] {
    const byPath = (a: Row, b: Row) => a.path.localeCompare(b.path, undefined, { numeric: true });
    const dir = this.asc ? 1 : -1;
    return [...this.rows].sort((a, b) =>
      this.sort === "verdict" ? dir * ((VERDICT_RANK[verdictOf(a)] ?? 9) - (VERDICT_RANK[verdictOf(b)] ?? 9)) || byPath(a, b) : dir * byPath(a, b),
    );
  }

  private sortHeader(key: SortKey, label: string): HTMLElement {
    const on = this.sort === key;
    return h(
      "th",
      { scope: "col", "aria-sort": on ? (this.asc ? "ascending" : "descending") : "none" },
      h(
        "button",
        {
          id: `batch-sort-${key}`,
          type: "button",
          class: "sort",
          onclick: () => {
            this.asc = on ? !this.asc : true;
            this.sort = key;
            this.fill();
          },
        },
        label,
      ),
    );
  }

  private table(): HTMLElement {
    return h(
      "div",
      { class: "table-wrap" },
      h(
        "table",
        { id: "batch-table", class: "data batch-table" },
        h("caption", { class: "visually-hidden" }, "Batch verdicts. Sort by file or verdict (worst first); open a file's report from its name."),
        h(
          "thead",
          null,
          h(
            "tr",
            null,
            this.sortHeader("file", "File"),
            h("th", { scope: "col" }, "Format"),
            h("th", { scope: "col" }, "Cues"),
            this.sortHeader("verdict", "Verdict"),
            h("th", { scope: "col", title: "Enforced problems left in the delivery" }, "Errors"),
            h("th", { scope: "col", title: "Suggested targets the delivery misses" }, "Warnings"),
          ),
        ),
        h("tbody", { id: "batch-body" }, ...this.sorted().map((r) => this.rowEl(r))),
      ),
    );
  }

  private rowEl(r: Row): HTMLElement {
    const res = r.state === "done" ? r.result : undefined;
    const name = res
      ? h("button", { id: `batch-open-${r.index}`, type: "button", class: "linklike", "aria-label": `Open the report of ${r.path}`, onclick: () => void this.open(r) }, r.path)
      : h("span", null, r.path);
    const num = (v: number | undefined) => h("td", { class: "num" }, v === undefined ? "—" : v.toLocaleString("en"));
    let verdict: HTMLElement;
    if (res) {
      const std = res.report.standard;
      verdict = h(
        "td",
        null,
        statusTag(res.deliveryStatus),
        std ? h("span", { class: "muted small block" }, `${STANDARD_LABELS[std.id] ?? std.title}: ${std.summary.pass} pass, ${std.summary.fail} fail`) : null,
      );
    } else if (r.state === "failed") {
      verdict = h("td", null, h("span", { class: "badge status-needs_attention", "data-status": "failed" }, "Failed"), h("span", { class: "batch-error small block" }, r.error ?? ""));
    } else {
      verdict = h("td", { class: "muted" }, r.state === "running" ? "Checking…" : "Waiting");
    }
    return h(
      "tr",
      { "data-path": r.path, "data-state": r.state, "data-verdict": verdictOf(r), class: this.openIndex === r.index ? "selected" : null, "aria-current": this.openIndex === r.index ? "true" : null },
      h("th", { scope: "row", class: "batch-file" }, name),
      h("td", null, res ? res.report.inputFormat.toUpperCase() : "—"),
      num(res?.report.inputCues),
      verdict,
      num(res ? errorsOf(res) : undefined),
      num(res ? warningsOf(res) : undefined),
    );
  }

  private async open(r: Row): Promise<void> {
    if (!r.result) return;
    this.openIndex = r.index;
    this.fill();
    await this.opts.open(r.result, r.file, r.path);
    announce(`Showing the report of ${r.path}.`);
  }

  private downloadCSV(): void {
    const lines = [["file", "format", "cues", "verdict", "errors", "warnings", "standard_pass", "standard_fail", "error"].join(",")];
    for (const r of this.sorted()) {
      const res = r.state === "done" ? r.result : undefined;
      const std = res?.report.standard?.summary;
      lines.push(
        [r.path, res?.report.inputFormat ?? "", res?.report.inputCues ?? "", verdictOf(r), res ? errorsOf(res) : "", res ? warningsOf(res) : "", std?.pass ?? "", std?.fail ?? "", r.error ?? ""]
          .map(csvCell)
          .join(","),
      );
    }
    download(lines.join("\r\n") + "\r\n", "captionqa-batch.csv", "text/csv;charset=utf-8");
    announce("Downloading captionqa-batch.csv.");
  }
}
