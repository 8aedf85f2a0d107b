// Projects: stored caption timelines. The list (paginated) with a create
// form, and one project: its cues in the timeline and a table, its
// revisions, a drift check against a dropped candidate file, and exports
// with a download per artifact through its signed link. When the
// project's media was analysed (createAnalyzeJob), the timeline draws the
// programme too, and the timeline can be checked against it and resynced.

import { ApiError, messageOf, type Client } from "../api/client";
import {
  FIX_PROFILES,
  PRESETS,
  PROGRAMME_FIX_PROFILES,
  STANDARDS,
  type Diagnostic,
  type DriftCue,
  type DriftDiff,
  type DriftItem,
  type ExportCreated,
  type FixProfile,
  type IRTrack,
  type Preset,
  type ProcessResult,
  type Project,
  type ProjectDetail,
  type ReportFormat,
  type RevisionList,
  type StandardId,
} from "../api/types";
import { clock, readCues, type Cue } from "../captions";
import { announce, formatDate, h, replace } from "../dom";
import { download, mimeOf } from "../download";
import { diagTable, newTableState, type DiagTable } from "../ui/diagtable";
import { errorBox } from "../ui/notice";
import { FIX_LABELS, PRESET_LABELS, STANDARD_LABELS, statusTag as deliveryTag } from "../ui/labels";
import { analysisSummary, programmeOf, type Programme } from "../ui/programme";
import { timeline, type Timeline } from "../ui/timeline";
import { MediaApi } from "./media_api";
import { findProgramme, type Found } from "./programme_find";
import { workstationPage } from "./workstation";

const PAGE_SIZE = 20;
const MAX_BYTES = 4_456_448;
const ACCEPT = ".srt,.vtt,.sbv,.ass,.ssa,.ttml,.dfxp,.xml,.scc,.stl,.json";

/** projectsPage renders the list, one project when id is set, or its editor when sub is "edit". */
export function projectsPage(client: Client, id: string | null, sub: string | null = null): HTMLElement {
  if (id && sub === "edit") return workstationPage(client, id);
  return id ? projectView(client, id) : listView(client);
}


function statusTag(p: Project): HTMLElement {
  return h("span", { class: `badge project-${p.status}`, "data-status": p.status }, p.status === "ready" ? "Ready" : p.status === "empty" ? "Empty" : p.status);
}

/** fileDrop is a drop zone with a file picker; it hands over one checked file. */
function fileDrop(idBase: string, prompt: string, hint: string, onFile: (f: File) => void, showError: (m: string) => void) {
  const name = h("span", { id: `${idBase}-name`, class: "file-name" }, "No file chosen");
  const input = h("input", {
    id: `${idBase}`,
    type: "file",
    class: "visually-hidden",
    accept: ACCEPT,
    "aria-describedby": `${idBase}-hint`,
    onchange: () => take(input.files?.[0]),
  });
  const take = (f: File | null | undefined) => {
    if (!f) return;
    if (f.size > MAX_BYTES) {
      showError(`“${f.name}” is ${(f.size / 1048576).toFixed(1)} MiB; the limit is about 4.25 MiB.`);
      return;
    }
    replace(name, f.name);
    onFile(f);
  };
  const el = h(
    "div",
    { id: `${idBase}-drop`, class: "drop" },
    input,
    h("label", { for: idBase, class: "drop-label" }, h("span", { class: "button secondary" }, prompt)),
    h("p", { id: `${idBase}-hint`, class: "muted" }, hint),
    name,
  );
  el.addEventListener("dragover", (e) => {
    e.preventDefault();
    el.classList.add("dragging");
  });
  el.addEventListener("dragleave", () => el.classList.remove("dragging"));
  el.addEventListener("drop", (e) => {
    e.preventDefault();
    el.classList.remove("dragging");
    take(e.dataTransfer?.files?.[0]);
  });
  return {
    el,
    reset() {
      input.value = "";
      replace(name, "No file chosen");
    },
  };
}

// ---- list

function listView(client: Client): HTMLElement {
  const err = errorBox("projects-error");
  const tbody = h("tbody", { id: "projects-body" });
  const table = h(
    "table",
    { id: "projects-table", class: "data" },
    h("caption", { class: "visually-hidden" }, "Your projects, newest first"),
    h("thead", null, h("tr", null, ...["Name", "Status", "Revision", "Cues", "Updated"].map((t) => h("th", { scope: "col" }, t)))),
    tbody,
  );
  const empty = h("p", { id: "projects-empty", class: "muted", hidden: true }, "No projects yet. Create one above from a caption file.");
  const count = h("p", { id: "projects-count", class: "muted small", role: "status" });
  const more = h("button", { id: "projects-more", type: "button", class: "button secondary", hidden: true }, "Show more");
  let cursor: string | null = null;
  let shown = 0;

  async function load(reset: boolean): Promise<void> {
    more.disabled = true;
    try {
      if (reset) {
        cursor = null;
        shown = 0;
        replace(tbody);
      }
      const page = await client.listProjects(PAGE_SIZE, cursor ?? "");
      for (const p of page.projects) tbody.appendChild(projectRow(p));
      shown += page.projects.length;
      cursor = page.nextCursor;
      more.hidden = !cursor;
      empty.hidden = shown > 0;
      table.hidden = shown === 0;
      count.textContent = shown ? `Showing ${shown} project${shown === 1 ? "" : "s"}${cursor ? "; more are available" : ""}.` : "";
    } catch (e) {
      err.show(messageOf(e));
    } finally {
      more.disabled = false;
    }
  }
  more.addEventListener("click", () => void load(false));

  const nameInput = h("input", { id: "project-name", type: "text", maxlength: 100, autocomplete: "off", required: true });
  let file: File | null = null;
  const drop = fileDrop(
    "project-file",
    "Choose caption file…",
    "or drop it here · SRT, WebVTT, SBV, ASS, TTML or JSON IR · leave it out for an empty project",
    (f) => {
      file = f;
      if (!nameInput.value.trim()) nameInput.value = f.name.replace(/\.[^.]*$/, "");
    },
    (m) => err.show(m),
  );
  const submit = h("button", { id: "project-create", type: "submit", class: "button primary" }, "Create project");
  const form = h(
    "form",
    { id: "project-create-form", novalidate: true },
    drop.el,
    h("div", { class: "field" }, h("label", { for: "project-name" }, "Name"), nameInput, h("p", { class: "muted small" }, "Taken from the file when left blank.")),
    h("div", { class: "form-actions" }, submit),
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    err.hide();
    const name = nameInput.value.trim();
    if (!name) {
      err.show("Give the project a name, or choose a file to name it after.");
      nameInput.focus();
      return;
    }
    submit.disabled = true;
    try {
      const p = await client.createProject(name, file);
      announce(`Project ${p.name} created${p.status === "ready" ? ` with ${p.cueCount} cues` : ", empty"}.`);
      location.hash = `#/projects/${p.id}`;
    } catch (ex) {
      err.show(messageOf(ex));
    } finally {
      submit.disabled = false;
    }
  });

  void load(true);
  return h(
    "div",
    { id: "projects-page", class: "projects-page" },
    err.el,
    h("section", { class: "card", "aria-labelledby": "project-create-h" }, h("h2", { id: "project-create-h" }, "Create a project"), form),
    h(
      "section",
      { class: "card", "aria-labelledby": "projects-h" },
      h("h2", { id: "projects-h", tabindex: -1 }, "Your projects"),
      h("div", { class: "table-wrap" }, table),
      empty,
      h("div", { class: "form-actions" }, more, count),
    ),
  );
}

function projectRow(p: Project): HTMLElement {
  return h(
    "tr",
    { "data-project-id": p.id, "data-status": p.status },
    h("td", null, h("a", { class: "project-open", href: `#/projects/${p.id}` }, p.name)),
    h("td", null, statusTag(p)),
    h("td", { class: "num" }, p.irRevision || "—"),
    h("td", { class: "num" }, p.cueCount),
    h("td", null, formatDate(p.updatedAt)),
  );
}

// ---- one project

function cuesOf(ir: IRTrack | null): Cue[] {
  if (!ir || !Array.isArray(ir.cues)) return [];
  return ir.cues.map((c) => ({ startMs: c.startMs, endMs: c.endMs, text: String(c.text ?? "") }));
}

function projectView(client: Client, id: string): HTMLElement {
  const err = errorBox("project-error");
  const body = h("div", { id: "project-detail", "aria-busy": "true" }, h("p", { class: "muted" }, "Loading the project…"));
  const page = h(
    "div",
    { class: "projects-page" },
    h("p", null, h("a", { id: "projects-back", href: "#/projects" }, "← All projects")),
    err.el,
    body,
  );

  async function load(): Promise<void> {
    try {
      const [d, revs] = await Promise.all([client.getProject(id), client.revisions(id)]);
      replace(body, detailView(client, d, revs, (m) => err.show(m), () => void load()));
    } catch (e) {
      replace(body);
      err.show(e instanceof ApiError && e.status === 404 ? "This project does not exist, or it belongs to another account." : messageOf(e));
    } finally {
      body.setAttribute("aria-busy", "false");
    }
  }
  void load();
  return page;
}

function detailView(client: Client, d: ProjectDetail, revs: RevisionList, showError: (m: string) => void, reload: () => void): HTMLElement {
  const cues = cuesOf(d.ir);
  const item = (k: string, v: string | number, id?: string) => h("div", null, h("dt", null, k), h("dd", id ? { id } : null, String(v)));
  const del = h("button", { id: "project-delete", type: "button", class: "button danger small" }, "Delete project");
  del.addEventListener("click", async () => {
    if (!window.confirm(`Delete the project “${d.name}” and all its revisions? This cannot be undone.`)) return;
    try {
      await client.deleteProject(d.id);
      announce(`Project ${d.name} deleted.`);
      location.hash = "#/projects";
    } catch (e) {
      showError(messageOf(e));
    }
  });
  const exp = d.irRevision ? exportSection(client, d) : null;
  const qc = d.irRevision ? reportSection(client, d) : null;
  return h(
    "div",
    { class: "project" },
    h(
      "div",
      { class: "output-head" },
      h("h2", { id: "project-title", tabindex: -1 }, d.name),
      h("div", { class: "form-actions" }, statusTag(d), h("a", { id: "project-edit", class: "button primary small", href: `#/projects/${encodeURIComponent(d.id)}/edit` }, "Edit captions"), del),
    ),
    h(
      "dl",
      { id: "project-meta", class: "meta" },
      item("Revision", d.irRevision || "none yet", "project-revision"),
      item("Cues", d.cueCount, "project-cues"),
      item("Language", d.ir?.language || "not declared"),
      item("Created", formatDate(d.createdAt)),
      item("Updated", formatDate(d.updatedAt)),
    ),
    cues.length
      ? cuesSection(client, d, cues, reload, () => exp?.offerProgramme())
      : h("section", { class: "card" }, h("h3", null, "Timeline"), h("p", { id: "project-no-timeline", class: "muted" }, "This project has no timeline yet. Add one below from a caption file.")),
    driftSection(client, d, showError, reload),
    exp?.el ?? null,
    qc,
    revisionsSection(revs),
  );
}

function cuesSection(client: Client, d: ProjectDetail, cues: Cue[], reload: () => void, onProgramme: () => void): HTMLElement {
  const rows = cues.map((c, i) =>
    h(
      "tr",
      { "data-cue": i, tabindex: 0, "aria-label": `Cue ${i + 1}, ${clock(c.startMs)} to ${clock(c.endMs)}` },
      h("td", { class: "num" }, `#${i + 1}`),
      h("td", { class: "num mono" }, clock(c.startMs)),
      h("td", { class: "num mono" }, clock(c.endMs)),
      h("td", { class: "num" }, `${((c.endMs - c.startMs) / 1000).toFixed(2)} s`),
      h("td", { class: "cue-cell" }, c.text),
    ),
  );
  let selected: number | null = null;
  let table: DiagTable | null = null;
  const select = (i: number) => {
    selected = i;
    tl.mark(i);
    table?.mark(i);
    rows.forEach((r, j) => r.classList.toggle("selected", j === i));
    rows[i]?.scrollIntoView({ block: "nearest" });
  };
  rows.forEach((r, i) => {
    r.addEventListener("click", () => select(i));
    r.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") {
        e.preventDefault();
        select(i);
      }
    });
  });
  let tl: Timeline = timeline(cues, [], select);
  const tlHolder = h("div", { id: "timeline-holder" }, tl.el);
  /** draw redraws the timeline with these markers and the programme, keeping the selection. */
  const draw = (diags: Diagnostic[], prog: Programme | undefined) => {
    tl = timeline(cues, diags, select, { programme: prog });
    replace(tlHolder, tl.el);
    tl.mark(selected);
  };
  const programme = programmeArea(client, d, (prog, diags, t) => {
    draw(diags, prog);
    if (t !== undefined) table = t;
  }, select, reload);
  void programme.load().then((found) => found && onProgramme());
  return h(
    "section",
    { class: "card", "aria-labelledby": "cues-h" },
    h("h3", { id: "cues-h" }, `Timeline (${cues.length} cues)`),
    tlHolder,
    programme.el,
    h(
      "div",
      { class: "table-wrap cue-table-wrap" },
      h(
        "table",
        { id: "cue-table", class: "data" },
        h("caption", { class: "visually-hidden" }, "Cues of the current revision; select a row to show it on the timeline."),
        h("thead", null, h("tr", null, ...["Cue", "Start", "End", "Duration", "Text"].map((t) => h("th", { scope: "col" }, t)))),
        h("tbody", { id: "cue-body" }, ...rows),
      ),
    ),
  );
}

// ---- the programme: the analysed media, the check against it, resync

/** STRIP is styling a format cannot carry: a change, not a problem (as the Run QA result lists it). */
const STRIP = "strip_styling";
/** SYNC are the findings whose fix is the resync profile. */
const SYNC = ["sync_offset", "sync_drift"];
/** irFile is the project's current timeline as a JSON IR file, for processCaptions. */
function irFile(d: ProjectDetail): File {
  const base = d.name.replace(/[^\w.-]+/g, "_").replace(/^_+|_+$/g, "") || "timeline";
  return new File([JSON.stringify(d.ir)], `${base}.json`, { type: "application/json" });
}

/** syncFinding is the check's offset finding, else its drift finding. */
function syncFinding(r: ProcessResult): Diagnostic | undefined {
  const all = [...r.report.diagnostics, ...r.report.remaining];
  return all.find((x) => x.code === "sync_offset") ?? all.find((x) => x.code === "sync_drift");
}

/**
 * syncText words the finding: "Captions run 0.480 s late" for
 * sync_offset, whose value is the shift in ms the captions need (negative:
 * they come after the speech and must move earlier); the notice adds
 * the finding's message, which carries the estimate's confidence.
 */
function syncText(f: Diagnostic): string {
  if (f.code === "sync_offset" && typeof f.value === "number") {
    return `Captions run ${(Math.abs(f.value) / 1000).toFixed(3)} s ${f.value < 0 ? "late" : "early"}`;
  }
  return "Captions drift out of sync";
}

type OnDraw = (prog: Programme, diags: Diagnostic[], table?: DiagTable) => void;

/**
 * programmeArea finds the project's analysed media and draws it on the
 * timeline; its Check button runs processCaptions on the current
 * timeline against that analysis (one run of today's pool, so only when
 * asked) and shows the findings on the timeline and in a table; an offset
 * or drift finding offers a resync preview that can be saved as the next
 * revision or downloaded.
 */
function programmeArea(client: Client, d: ProjectDetail, onDraw: OnDraw, select: (cue: number) => void, reload: () => void) {
  const api = new MediaApi(client);
  const el = h("div", { id: "programme-area", class: "programme-area", "aria-live": "polite" });
  const err = errorBox("programme-error");
  let found: Found | null = null;
  let prog: Programme | null = null;

  async function load(): Promise<boolean> {
    found = await findProgramme(api, d.id);
    if (!found) return false;
    prog = programmeOf(found.analysis.analysis);
    onDraw(prog, []);
    const preset = h("select", { id: "programme-preset" }, ...PRESETS.map((p) => h("option", { value: p }, PRESET_LABELS[p])));
    const check = h("button", { id: "programme-check", type: "button", class: "button primary" }, "Check against the programme");
    const status = h("span", { id: "programme-status", class: "muted small", role: "status" });
    const out = h("div", { id: "programme-result" });
    check.addEventListener("click", () => void run(preset.value as Preset, check, status, out));
    replace(
      el,
      h(
        "p",
        { id: "programme-info", "data-upload-id": found.media.uploadId },
        "Drawn with the analysis of ",
        h("strong", null, found.media.filename),
        ` (${formatDate(found.analysis.createdAt)}): ${analysisSummary(found.analysis.analysis)}.`,
      ),
      h(
        "div",
        { class: "form-row" },
        h("div", { class: "field" }, h("label", { for: "programme-preset" }, "Preset"), preset),
        h("div", { class: "form-actions" }, check, status),
      ),
      h("p", { class: "muted small" }, `Checks revision ${d.irRevision} against the programme's speech and shot changes; a check counts one run of today's pool.`),
      err.el,
      out,
    );
    return true;
  }

  /** process runs the current timeline against the found analysis. */
  function process(preset: Preset, fixProfile: FixProfile): Promise<ProcessResult> {
    return client.process({
      file: irFile(d),
      preset,
      fixProfile,
      standard: "",
      language: "",
      includeExplain: false,
      projectId: d.id,
      mediaObjectKey: found?.media.objectKey,
    });
  }

  async function run(preset: Preset, btn: HTMLButtonElement, status: HTMLElement, out: HTMLElement): Promise<void> {
    if (!prog || btn.disabled) return;
    btn.disabled = true;
    err.hide();
    status.textContent = "Checking…";
    try {
      const r = await process(preset, "warn-only");
      const diags = r.report.diagnostics.filter((x) => x.code !== STRIP);
      const table = diagTable(diags, newTableState("impact"), select, {
        id: "programme-diag",
        caption: "Found in the timeline against the programme",
        line: false,
        noun: "findings",
        empty: "No problems found.",
        where: "of the timeline",
        cueHref: (cue) => `#/projects/${encodeURIComponent(d.id)}/edit/${cue + 1}`,
      });
      onDraw(prog, diags, table);
      const sync = syncFinding(r);
      replace(out, sync ? syncNotice(sync, preset) : null, table.el);
      const n = diags.length;
      status.textContent = "";
      announce(`Checked against the programme: ${n} ${n === 1 ? "finding" : "findings"}${sync ? `; ${syncText(sync)}` : ""}.`);
    } catch (e) {
      status.textContent = "";
      err.show(messageOf(e));
    } finally {
      btn.disabled = false;
    }
  }

  /** syncNotice says how far the captions are off and offers the resync profile's result. */
  function syncNotice(f: Diagnostic, preset: Preset): HTMLElement {
    const fix = h("button", { id: "sync-fix", type: "button", class: "button primary small" }, "Preview resync");
    const status = h("span", { id: "sync-status", class: "muted small", role: "status" });
    const preview = h("div", { id: "sync-preview" });
    fix.addEventListener("click", () => void resync(fix, status, preview, preset));
    return h(
      "div",
      { id: "sync-notice", class: "alert warning sync-notice", "data-code": f.code, "data-value": f.value ?? "" },
      h("p", null, h("strong", { id: "sync-text" }, `${syncText(f)}.`), " ", f.message),
      h("div", { class: "form-actions" }, fix, status),
      preview,
    );
  }

  /**
   * resync runs the timeline with the resync profile into the Developer
   * JSON preset, whose output is the fixed timeline as IR v1: it can be
   * stored as the next revision (putIR) or downloaded.
   */
  async function resync(btn: HTMLButtonElement, status: HTMLElement, preview: HTMLElement, preset: Preset): Promise<void> {
    if (btn.disabled) return;
    btn.disabled = true;
    status.textContent = "Resyncing…";
    replace(preview);
    try {
      const r = await process("developer-json", "resync");
      const output = r.output ?? "";
      const fixed = readCues("resync.json", output);
      if (!output || !fixed.length) throw new Error("the resync gave back no timeline");
      const left = r.report.remaining.filter((x) => SYNC.includes(x.code)).length;
      const pairs = cuesOf(d.ir)
        .slice(0, 3)
        .map((c, i) => (fixed[i] ? h("li", null, `Cue ${i + 1}: ${clock(c.startMs)} → `, h("strong", { class: "mono" }, clock(fixed[i].startMs))) : null));
      const save = h("button", { id: "sync-save", type: "button", class: "button primary small" }, `Save as revision ${d.irRevision + 1}`);
      const dl = h("button", { id: "sync-download", type: "button", class: "button secondary small" }, "Download (JSON IR)");
      save.addEventListener("click", async () => {
        if (save.disabled) return;
        save.disabled = true;
        try {
          const p = await client.putIR(d.id, output, d.irRevision);
          announce(`Resynced timeline stored as revision ${p.irRevision}.`);
          reload();
        } catch (e) {
          err.show(messageOf(e));
          save.disabled = false;
        }
      });
      dl.addEventListener("click", () => {
        download(output, `${irFile(d).name.replace(/\.json$/, "")}-resync.json`, mimeOf("json"));
        announce("Downloading the resynced timeline.");
      });
      replace(
        preview,
        h(
          "p",
          { id: "sync-result", "data-changes": r.report.fixes.length, "data-left": left },
          `Resynced: ${r.report.fixes.length} ${r.report.fixes.length === 1 ? "change" : "changes"}; `,
          left ? `${left} sync ${left === 1 ? "finding remains" : "findings remain"}.` : "no sync finding remains.",
          preset === "developer-json" ? "" : ` Check it again with ${PRESET_LABELS[preset]} after saving.`,
        ),
        h("ul", { class: "sync-pairs" }, ...pairs),
        h("div", { class: "form-actions" }, save, dl),
      );
      status.textContent = "";
      announce(`Resync preview ready: ${r.report.fixes.length} changes.`);
    } catch (e) {
      status.textContent = "";
      err.show(messageOf(e));
    } finally {
      btn.disabled = false;
    }
  }

  return { el, load };
}

function revisionsSection(revs: RevisionList): HTMLElement {
  return h(
    "section",
    { class: "card", "aria-labelledby": "revisions-h" },
    h("h3", { id: "revisions-h" }, "Revisions"),
    revs.revisions.length
      ? h(
          "div",
          { class: "table-wrap" },
          h(
            "table",
            { id: "revisions-table", class: "data" },
            h("thead", null, h("tr", null, ...["Revision", "Cues", "Stored"].map((t) => h("th", { scope: "col" }, t)))),
            h(
              "tbody",
              null,
              ...revs.revisions.map((r) =>
                h(
                  "tr",
                  { "data-revision": r.irRevision },
                  h("td", null, `${r.irRevision} `, r.irRevision === revs.currentIrRevision ? h("span", { class: "badge neutral" }, "current") : null),
                  h("td", { class: "num" }, r.cueCount),
                  h("td", null, formatDate(r.createdAt)),
                ),
              ),
            ),
          ),
        )
      : h("p", { id: "revisions-empty", class: "muted" }, "No revisions yet."),
  );
}

// ---- drift

function driftSection(client: Client, d: ProjectDetail, showError: (m: string) => void, reload: () => void): HTMLElement {
  const out = h("div", { id: "drift-area", "aria-live": "polite" });
  const busy = h("span", { id: "drift-busy", class: "muted", role: "status" });
  const empty = d.irRevision === 0;
  const drop = fileDrop(
    "drift-file",
    empty ? "Choose a caption file…" : "Choose a candidate file…",
    empty ? "or drop it here · it becomes revision 1" : "or drop it here · a re-timed or re-edited version of these captions",
    (f) => void run(f),
    showError,
  );
  async function run(f: File): Promise<void> {
    busy.textContent = empty ? "Storing…" : "Comparing…";
    replace(out);
    try {
      if (empty) {
        const p = await client.putFile(d.id, f, 0);
        announce(`Timeline stored as revision 1 with ${p.cueCount} cues.`);
        reload();
        return;
      }
      const diff = await client.diffProject(d.id, f);
      replace(out, driftView(diff, { heading: `${f.name} against revision ${diff.currentIrRevision}:` }, async (save) => {
        save.disabled = true;
        try {
          const p = await client.putFile(d.id, f, diff.currentIrRevision);
          announce(`Candidate stored as revision ${p.irRevision}.`);
          reload();
        } catch (e) {
          showError(messageOf(e));
          save.disabled = false;
        }
      }));
      announce(`Drift: ${diff.summary.added} added, ${diff.summary.removed} removed, ${diff.summary.changed} changed.`);
    } catch (e) {
      showError(messageOf(e));
    } finally {
      busy.textContent = "";
      drop.reset();
    }
  }
  return h(
    "section",
    { class: "card", "aria-labelledby": "drift-h" },
    h("h3", { id: "drift-h" }, empty ? "Add a timeline" : "Compare a candidate"),
    h(
      "p",
      { class: "muted small" },
      empty
        ? "The file is read as projects read files and stored as the first revision."
        : "Drop another version of these captions to see, cue by cue, what was added, removed, retimed or reworded. Nothing is stored unless you save it.",
    ),
    drop.el,
    busy,
    out,
  );
}

function driftCueCell(c: DriftCue | undefined, index: number | undefined, fields: string[]): HTMLElement {
  if (!c) return h("td", { class: "drift-none muted" }, "—");
  const hit = (f: string) => (fields.includes(f) ? " drift-hit" : "");
  return h(
    "td",
    null,
    h(
      "div",
      { class: "drift-times" },
      h("span", { class: "muted" }, index === undefined ? "" : `#${index + 1} `),
      h("span", { class: `mono${hit("start")}` }, clock(c.startMs)),
      " → ",
      h("span", { class: `mono${hit("end")}` }, clock(c.endMs)),
    ),
    h("div", { class: `drift-text${hit("text")}` }, c.voice ? `${c.voice}: ${c.text}` : c.text),
  );
}

const KIND_LABEL: Record<string, string> = { added: "Added", removed: "Removed", changed: "Changed" };

/** DriftLabels name what a drift view compares. */
export interface DriftLabels {
  /** heading leads the counts, e.g. "cues.srt against revision 3:". */
  heading: string;
  /** candidate heads the candidate's column (default "Candidate"). */
  candidate?: string;
}

/**
 * driftView shows a drift diff: the counts, and the changed cues side by
 * side; save, when given, offers to store the candidate.
 */
export function driftView(diff: DriftDiff, labels: DriftLabels, save?: (btn: HTMLButtonElement) => void): HTMLElement {
  const s = diff.summary;
  const total = s.added + s.removed + s.changed;
  const rows = diff.preview.map((it: DriftItem) => {
    const fields = it.fields ?? [];
    return h(
      "tr",
      { class: `drift-row drift-${it.kind}`, "data-kind": it.kind },
      h("td", null, h("span", { class: `badge drift-badge-${it.kind}` }, KIND_LABEL[it.kind] ?? it.kind), fields.length ? h("div", { class: "muted small" }, fields.join(", ")) : null),
      driftCueCell(it.before, it.currentIndex, fields),
      driftCueCell(it.after, it.candidateIndex, fields),
    );
  });
  const saveBtn = h("button", { id: "drift-save", type: "button", class: "button secondary" }, `Save as revision ${diff.currentIrRevision + 1}`);
  saveBtn.addEventListener("click", () => save?.(saveBtn));
  return h(
    "div",
    { id: "drift-result", class: "drift" },
    h(
      "div",
      { id: "drift-summary", class: "status-row", "data-added": s.added, "data-removed": s.removed, "data-changed": s.changed, "data-offset": diff.offsetMs },
      h("strong", null, labels.heading),
      h("span", { class: "badge drift-badge-added" }, `${s.added} added`),
      h("span", { class: "badge drift-badge-removed" }, `${s.removed} removed`),
      h("span", { class: "badge drift-badge-changed" }, `${s.changed} changed`),
      diff.offsetMs ? h("span", { id: "drift-offset", class: "badge neutral" }, `whole timeline shifted ${diff.offsetMs > 0 ? "+" : "−"}${(Math.abs(diff.offsetMs) / 1000).toFixed(3)} s`) : null,
    ),
    total === 0 && !diff.offsetMs
      ? h("p", { id: "drift-same", class: "muted" }, "No drift: the candidate matches the current timeline cue for cue.")
      : null,
    rows.length
      ? h(
          "div",
          { class: "table-wrap" },
          h(
            "table",
            { id: "drift-table", class: "data drift-table" },
            h("caption", { class: "visually-hidden" }, "Drift, side by side: each changed cue in the current timeline and in the candidate"),
            h(
              "thead",
              null,
              h("tr", null, h("th", { scope: "col" }, "Change"), h("th", { scope: "col" }, `Current (revision ${diff.currentIrRevision})`), h("th", { scope: "col" }, labels.candidate ?? "Candidate")),
            ),
            h("tbody", { id: "drift-body" }, ...rows),
          ),
        )
      : null,
    diff.truncated ? h("p", { id: "drift-truncated", class: "muted small" }, `The preview shows the first ${rows.length} of ${total} differences; the counts above cover them all.`) : null,
    save && (total || diff.offsetMs) ? h("div", { class: "form-actions" }, saveBtn) : null,
  );
}

// ---- exports

function exportSection(client: Client, d: ProjectDetail): { el: HTMLElement; offerProgramme(): void } {
  const err = errorBox("export-error");
  const box = (p: string, label: string) => {
    const id = `export-preset-${p}`;
    const cb = h("input", { id, type: "checkbox", value: p, checked: p === "youtube" });
    return { p, cb, el: h("div", { class: "check" }, cb, h("label", { for: id }, label)) };
  };
  const boxes = PRESETS.map((p) => box(p, PRESET_LABELS[p] ?? p));
  const checks = h("div", { class: "checks" }, ...boxes.map((b) => b.el));
  // The account's own presets follow the built-ins once they are known.
  void client.ownPresets().then((names) => {
    for (const n of names) {
      const b = box(n, `${n} (your preset)`);
      boxes.push(b);
      checks.appendChild(b.el);
    }
  });
  const fix = h("select", { id: "export-fix" }, ...FIX_PROFILES.map((f) => h("option", { value: f }, FIX_LABELS[f])));
  const std = h("select", { id: "export-standard" }, h("option", { value: "" }, "None"), ...STANDARDS.map((s) => h("option", { value: s }, STANDARD_LABELS[s])));
  const submit = h("button", { id: "export-run", type: "submit", class: "button primary" }, "Export");
  const out = h("div", { id: "export-area" });
  const form = h(
    "form",
    { id: "export-form", novalidate: true },
    h("fieldset", null, h("legend", null, "Presets"), checks),
    h(
      "div",
      { class: "form-row" },
      h("div", { class: "field" }, h("label", { for: "export-fix" }, "Fix profile"), fix),
      h("div", { class: "field" }, h("label", { for: "export-standard" }, "Standard"), std),
    ),
    h("div", { class: "form-actions" }, submit, h("span", { class: "muted small" }, `Exports revision ${d.irRevision}; one export counts as one run of today's pool.`)),
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    err.hide();
    const presets = boxes.filter((b) => b.cb.checked).map((b) => b.p);
    if (!presets.length) {
      err.show("Choose at least one preset to export to.");
      boxes[0].cb.focus();
      return;
    }
    submit.disabled = true;
    try {
      const res = await client.exportProject(d.id, {
        presets,
        fixProfile: fix.value as FixProfile,
        ...(std.value ? { standard: std.value as StandardId } : {}),
      });
      replace(out, exportResult(client, res, (m) => err.show(m)));
      announce(`Export finished: ${res.artifacts.length} files ready to download.`);
    } catch (ex) {
      err.show(messageOf(ex));
    } finally {
      submit.disabled = false;
    }
  });
  const el = h("section", { class: "card", "aria-labelledby": "export-h" }, h("h3", { id: "export-h" }, "Export"), form, err.el, out);
  /** offerProgramme adds the profiles that need the programme, once the project's media is known to be analysed. */
  const offerProgramme = () => {
    if (fix.querySelector("optgroup")) return;
    fix.appendChild(h("optgroup", { label: "Against the programme" }, ...PROGRAMME_FIX_PROFILES.map((f) => h("option", { value: f }, FIX_LABELS[f]))));
  };
  return { el, offerProgramme };
}

const REPORT_FORMATS: { format: ReportFormat; label: string; mime: string }[] = [
  { format: "html", label: "HTML", mime: "text/html;charset=utf-8" },
  { format: "pdf", label: "PDF", mime: "application/pdf" },
  { format: "csv", label: "CSV", mime: "text/csv;charset=utf-8" },
];

/**
 * reportSection offers the QC report of the shown revision, to hand to a
 * client: HTML, PDF or CSV, checked with the chosen preset, fix profile and
 * standard (and the project's analysed media), fetched with the session
 * as every call is and saved as the file the server names.
 */
function reportSection(client: Client, d: ProjectDetail): HTMLElement {
  const err = errorBox("report-error");
  const preset = h("select", { id: "report-preset" }, ...PRESETS.map((p) => h("option", { value: p }, PRESET_LABELS[p] ?? p)));
  // The account's own presets follow the built-ins once they are known.
  void client.ownPresets().then((names) => {
    for (const n of names) preset.appendChild(h("option", { value: n }, `${n} (your preset)`));
  });
  const fix = h("select", { id: "report-fix" }, ...FIX_PROFILES.map((f) => h("option", { value: f }, FIX_LABELS[f])));
  const std = h("select", { id: "report-standard" }, h("option", { value: "" }, "None"), ...STANDARDS.map((s) => h("option", { value: s }, STANDARD_LABELS[s])));
  const buttons = REPORT_FORMATS.map((f) => {
    const b = h("button", { id: `report-${f.format}`, type: "button", class: "button secondary small", "data-format": f.format }, f.label);
    b.addEventListener("click", async () => {
      err.hide();
      for (const x of buttons) x.disabled = true;
      try {
        const r = await client.projectReport(d.id, {
          revision: d.irRevision,
          format: f.format,
          preset: preset.value as Preset,
          fixProfile: fix.value as FixProfile,
          ...(std.value ? { standard: std.value as StandardId } : {}),
        });
        download(r.blob, r.filename, f.mime);
        announce(`QC report of revision ${d.irRevision} saved as ${r.filename}.`);
      } catch (ex) {
        err.show(messageOf(ex));
      } finally {
        for (const x of buttons) x.disabled = false;
      }
    });
    return b;
  });
  return h(
    "section",
    { id: "report-section", class: "card", "aria-labelledby": "report-h" },
    h("h3", { id: "report-h" }, "QC report"),
    h(
      "div",
      { class: "form-row" },
      h("div", { class: "field" }, h("label", { for: "report-preset" }, "Preset"), preset),
      h("div", { class: "field" }, h("label", { for: "report-fix" }, "Fix profile"), fix),
      h("div", { class: "field" }, h("label", { for: "report-standard" }, "Standard"), std),
    ),
    h(
      "div",
      { class: "form-actions" },
      h("span", null, "Download:"),
      ...buttons,
      h("span", { class: "muted small" }, `Revision ${d.irRevision}: the verdict, the problems by cue, the changes, the standard's clauses and, with analysed media, sync and shot changes. Counts no run.`),
    ),
    err.el,
  );
}

type ExportVerdict = NonNullable<ExportCreated["artifacts"][number]["verdict"]>;

/** exportHeadline says whether the files can go out as they are. */
function exportHeadline(res: ExportCreated): string {
  const attention = res.artifacts.filter((a) => a.verdict?.deliveryStatus === "needs_attention").length;
  if (attention === 0) return "Export ready.";
  return attention === res.artifacts.length && attention === 1
    ? "Exported, but the file needs attention before delivery."
    : `Exported, but ${attention} of ${res.artifacts.length} files need attention before delivery.`;
}

/** verdictText counts a file's problems and, when graded, its clauses. */
function verdictText(v: ExportVerdict): string {
  const n = (k: number, one: string, many: string) => `${k.toLocaleString()} ${k === 1 ? one : many}`;
  const parts = [n(v.problems, "problem", "problems"), n(v.suggestions, "suggestion", "suggestions")];
  if (v.standard) {
    const s = v.standard.summary;
    parts.push(`${STANDARD_LABELS[v.standard.id] ?? v.standard.title}: ${s.pass} pass, ${s.fail} fail, ${s.notEvaluated} to check by hand`);
  }
  return parts.join(" · ");
}

function exportResult(client: Client, res: ExportCreated, showError: (m: string) => void): HTMLElement {
  return h(
    "div",
    { id: "export-result", "data-export-id": res.exportId },
    h("p", { id: "export-verdict" }, h("strong", null, exportHeadline(res)), ` Revision ${res.irRevision}, export `, h("code", null, res.exportId), "."),
    h(
      "ul",
      { id: "export-artifacts", class: "artifacts" },
      // Each artifact carries its artifactId (createExport), in the order asked.
      ...res.artifacts.map((a) => {
        const btn = h("button", { type: "button", class: "button secondary small artifact-download", "data-artifact-id": a.artifactId, "data-filename": a.filename }, "Download");
        btn.addEventListener("click", async () => {
          btn.disabled = true;
          try {
            const link = await client.artifactLink(a.artifactId);
            const el = document.createElement("a");
            el.href = link.url;
            el.download = link.filename;
            el.hidden = true;
            document.body.appendChild(el);
            el.click();
            el.remove();
            announce(`Downloading ${link.filename}.`);
          } catch (e) {
            showError(messageOf(e));
          } finally {
            btn.disabled = false;
          }
        });
        return h(
          "li",
          { "data-preset": a.preset, "data-status": a.verdict?.deliveryStatus ?? "" },
          h("span", { class: "artifact-preset" }, PRESET_LABELS[a.preset as Preset] ?? a.preset),
          ...(a.verdict ? [deliveryTag(a.verdict.deliveryStatus), h("span", { class: "artifact-verdict" }, verdictText(a.verdict))] : []),
          h("code", null, a.filename),
          btn,
        );
      }),
    ),
  );
}
