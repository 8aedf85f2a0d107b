// Export templates (issue 15): the account's templates (name, revision,
// updated), a JavaScript editor (CodeMirror 6) with the script checked as
// it is typed and problems marked at their line and column, Save with the
// revision (a stale save says so and offers Reload), Delete after a
// confirmation, starters to copy into a new template, and a test run on a
// project's timeline showing the output and its facts, or the script's
// error with its stack. The page needs ADVANCED_EXPORTS (Pro); a server
// started with the template runtime off answers 503.

import { ApiError, messageOf, type Client } from "../api/client";
import type { ExportTemplate, Project, ScriptErrorDetails, TemplateRunResult, TemplateSummary } from "../api/types";
import { announce, formatDate, h, replace } from "../dom";
import { openModal, restoreFocus } from "../ui/dialog";
import { errorBox } from "../ui/notice";
import { createEditor, type CodeEditor, type Problem } from "../editor";
import { askForPro, noticeCard } from "../ui/notice";
import { DEFAULT_CONTENT_TYPE, DEFAULT_FILENAME_PATTERN, STARTERS, type Starter } from "./templates_starters";

const OUTPUT_LIMIT = 64 << 10;
const CONTENT_TYPES = [
  "text/plain; charset=utf-8",
  "text/csv; charset=utf-8",
  "application/json",
  "application/xml",
  "text/html; charset=utf-8",
  "text/vtt; charset=utf-8",
  "application/x-subrip",
];

/** needsPro tells whether an error is the ADVANCED_EXPORTS entitlement missing. */
function needsPro(e: unknown): boolean {
  return e instanceof ApiError && e.status === 403 && e.details.missingFeature === "ADVANCED_EXPORTS";
}

/**
 * runtimeOff tells whether an error is the template runtime switched off
 * (serve --templates off): 503 with reason templates_off, or without the
 * retry hint that a busy database or full upload slots give.
 */
function runtimeOff(e: unknown): boolean {
  return e instanceof ApiError && e.status === 503 && (e.details.reason === "templates_off" || e.details.retryAfterSeconds === undefined);
}

/** scriptDetails returns an error's details when they describe the script, else null. */
function scriptDetails(e: unknown): ScriptErrorDetails | null {
  if (!(e instanceof ApiError)) return null;
  const d = e.details as ScriptErrorDetails;
  if (e.status === 400 && (d.field === "scriptSource" || d.reason === "syntax_error" || d.reason === "missing_export" || d.reason === "load_error")) return d;
  if (e.status === 422 && typeof d.phase === "string") return d;
  return null;
}

function problemOf(e: unknown): Problem | null {
  const d = scriptDetails(e);
  if (!d) return null;
  const msg = d.message || (e as ApiError).message;
  return { line: d.line ?? 0, column: d.column ?? 0, message: d.kind ? `${kindLabel(d.kind)}: ${msg}` : msg };
}

const KIND_LABELS: Record<string, string> = {
  timeout: "Time limit",
  memory_limit: "Memory limit",
  stack_overflow: "Stack overflow",
  missing_export: "No exportTimeline",
  bad_return: "Bad return value",
  output_too_large: "Output too large",
};

function kindLabel(kind: string): string {
  return KIND_LABELS[kind] ?? kind;
}

const PHASE_LABELS: Record<string, string> = {
  compile: "while compiling",
  load: "while loading the script",
  run: "while running exportTimeline",
  result: "in what exportTimeline returned",
};

function where(p: { line: number; column: number }): string {
  return p.column > 0 ? `line ${p.line}, column ${p.column}` : `line ${p.line}`;
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} ${n === 1 ? "byte" : "bytes"}`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB (${n.toLocaleString()} bytes)`;
  return `${(n / 1048576).toFixed(1)} MiB (${n.toLocaleString()} bytes)`;
}

/** shortDate is a compact local date and time for the list. */
function shortDate(iso: string): string {
  const d = new Date(iso);
  if (isNaN(d.getTime())) return iso;
  return d.toLocaleString(undefined, { dateStyle: "short", timeStyle: "short" });
}


/** Draft is what the editor holds; saved is the same for the stored revision. */
interface Fields {
  name: string;
  filenamePattern: string;
  contentType: string;
  scriptSource: string;
}

export function templatesPage(client: Client, openId: string | null): HTMLElement {
  const err = errorBox("templates-error");
  const body = h("div", { id: "templates", "aria-busy": "true" }, h("p", { class: "muted" }, "Loading your templates…"));
  const page = h("div", { id: "templates-page", class: "templates-page" }, err.el, body);
  let editor: CodeEditor | null = null;
  let gated = false;

  /** gate replaces the page with an explanation when the error says templates are out of reach here. */
  const gate = (e: unknown): boolean => {
    if (gated) return true;
    if (needsPro(e)) {
      gated = true;
      err.hide();
      editor?.destroy();
      editor = null;
      replace(body, proGate());
      announce("Export templates need the Pro plan, which this account does not have.");
      return true;
    }
    if (runtimeOff(e)) {
      gated = true;
      err.hide();
      editor?.destroy();
      editor = null;
      replace(body, runtimeOffNote());
      announce("The template runtime is off on this server.");
      return true;
    }
    return false;
  };
  const fail = (e: unknown, show: (m: string) => void = err.show): void => {
    if (!gate(e)) show(messageOf(e));
  };

  // The editor listens on the window and document: destroy it once the page is gone.
  const cleanup = () => {
    if (page.isConnected) return;
    editor?.destroy();
    editor = null;
    window.removeEventListener("hashchange", cleanup);
  };
  window.addEventListener("hashchange", cleanup);

  void (async () => {
    try {
      const [list, projects] = await Promise.all([client.listTemplates(), client.listProjects(100).catch(() => null)]);
      const v = workspace(client, list.templates, projects?.projects ?? null, err, fail, gate);
      editor = v.editor;
      replace(body, v.el);
      if (!openId || !(await v.open(openId, false))) v.startNew(STARTERS[0], false);
    } catch (e) {
      replace(body);
      fail(e);
    } finally {
      body.setAttribute("aria-busy", "false");
    }
  })();
  return page;
}

function proGate(): HTMLElement {
  return noticeCard(
    "templates-pro",
    "Export templates need Pro",
    [
      "An export template is a small JavaScript program that turns a project's captions into any text file your workflow needs: a cue list for translators, an EDL, a script for review. Templates are part of advanced exports (",
      h("code", null, "ADVANCED_EXPORTS"),
      "), which come with the Pro plan; this account does not have them.",
    ],
    askForPro("templates-pro-account"),
  );
}

function runtimeOffNote(): HTMLElement {
  return noticeCard(
    "templates-off",
    "The template runtime is off on this server",
    [
      "This CaptionQA server was started with export templates switched off (",
      h("code", null, "captionqa serve --templates off"),
      "), so templates cannot be listed, edited or run here. Presets still export as usual on the Projects page.",
    ],
    ["Ask the administrator to start the server with the template runtime on."],
  );
}

type Fail = (e: unknown, show?: (m: string) => void) => void;

function workspace(
  client: Client,
  initial: TemplateSummary[],
  projects: Project[] | null,
  err: ReturnType<typeof errorBox>,
  fail: Fail,
  gate: (e: unknown) => boolean,
) {
  let templates = initial;
  /** id and revision of the open template; id null while it is not saved yet. */
  let current: { id: string | null; revision: number; updatedAt: string | null } = { id: null, revision: 0, updatedAt: null };
  let saved: Fields = { name: "", filenamePattern: DEFAULT_FILENAME_PATTERN, contentType: DEFAULT_CONTENT_TYPE, scriptSource: "" };

  // ---- the list
  const tbody = h("tbody", { id: "templates-body" });
  const table = h(
    "table",
    { id: "templates-table", class: "data templates-table" },
    h("caption", { class: "visually-hidden" }, "Your export templates, newest first"),
    h("thead", null, h("tr", null, h("th", { scope: "col" }, "Name"), h("th", { scope: "col", class: "num" }, h("abbr", { title: "Revision" }, "Rev.")), h("th", { scope: "col" }, "Updated"))),
    tbody,
  );
  const empty = h("p", { id: "templates-empty", class: "muted" }, "No templates yet. Start one from a starter below.");
  const renderList = () => {
    replace(
      tbody,
      ...templates.map((t) => {
        const open = h("button", { type: "button", class: "linklike template-open", "aria-current": t.id === current.id ? "true" : null }, t.name);
        open.addEventListener("click", () => void guard(() => open_(t.id, true)));
        return h(
          "tr",
          { "data-template-id": t.id, class: t.id === current.id ? "selected" : null },
          h("td", { class: "template-name" }, open),
          h("td", { class: "num template-revision" }, t.revision),
          h("td", { class: "template-updated" }, h("time", { datetime: t.updatedAt, title: formatDate(t.updatedAt) }, shortDate(t.updatedAt))),
        );
      }),
    );
    table.hidden = templates.length === 0;
    empty.hidden = templates.length > 0;
  };
  const reloadList = async () => {
    try {
      templates = (await client.listTemplates()).templates;
      renderList();
    } catch (e) {
      fail(e);
    }
  };

  // ---- starters
  const starter = h("select", { id: "template-starter", "aria-describedby": "template-starter-desc" }, ...STARTERS.map((s) => h("option", { value: s.id }, s.label)));
  const starterDesc = h("p", { id: "template-starter-desc", class: "muted small" });
  const showStarter = () => (starterDesc.textContent = (STARTERS.find((s) => s.id === starter.value) ?? STARTERS[0]).description);
  starter.addEventListener("change", showStarter);
  showStarter();
  const newBtn = h("button", { id: "template-new", type: "button", class: "button secondary" }, "New template");
  newBtn.addEventListener("click", () => {
    const s = STARTERS.find((x) => x.id === starter.value) ?? STARTERS[0];
    void guard(async () => startNew(s, true));
  });

  const listCard = h(
    "section",
    { id: "templates-list", class: "card templates-list", "aria-labelledby": "templates-h" },
    h("h2", { id: "templates-h", tabindex: -1 }, "Your templates"),
    h("div", { class: "table-wrap" }, table),
    empty,
    h(
      "div",
      { class: "template-new" },
      h("h3", { id: "template-new-h" }, "Start a new template"),
      h("div", { class: "field" }, h("label", { for: "template-starter" }, "Starter"), starter, starterDesc),
      newBtn,
    ),
  );

  // ---- the editor card: fields, code, problems, Save and Delete
  const heading = h("h2", { id: "template-editor-h", tabindex: -1 }, "New template");
  const meta = h("p", { id: "template-meta", class: "muted small" });
  const dirtyBadge = h("span", { id: "template-dirty", class: "badge unsaved", hidden: true }, "Unsaved changes");
  const name = h("input", { id: "template-name", type: "text", maxlength: 100, required: true, autocomplete: "off", spellcheck: "false" });
  const filename = h("input", { id: "template-filename", type: "text", autocomplete: "off", spellcheck: "false", "aria-describedby": "template-filename-hint" });
  const ctypeList = h("datalist", { id: "template-content-types" }, ...CONTENT_TYPES.map((c) => h("option", { value: c })));
  const ctype = h("input", { id: "template-content-type", type: "text", autocomplete: "off", spellcheck: "false", list: "template-content-types", "aria-describedby": "template-content-type-hint" });
  const sourceLabel = h("span", { id: "template-source-label", class: "label" }, "Script (JavaScript)");
  const sourceHint = h(
    "p",
    { id: "template-source-hint", class: "muted small" },
    "Define ",
    h("code", null, "function exportTimeline(cues, ctx)"),
    " returning the file as a string, or ",
    h("code", null, "{body, filename, contentType}"),
    ". Checked as you type. Keys: Tab leaves the editor; Ctrl+] and Ctrl+[ indent and outdent (⌘ on a Mac); Ctrl+Z undoes; F8 goes to the next problem.",
  );
  const editorWrap = h("div", { id: "template-source-wrap", class: "code-editor" });
  const problemsBox = h("div", { id: "template-problems", class: "problems", hidden: true });
  const problemsStatus = h("p", { id: "template-check-status", class: "visually-hidden", role: "status" });
  const save = h("button", { id: "template-save", type: "submit", class: "button primary" }, "Save");
  const del = h("button", { id: "template-delete", type: "button", class: "button danger" }, "Delete…");
  const saveStatus = h("span", { id: "template-save-status", class: "muted", role: "status" });
  const conflict = h("div", { id: "template-conflict", class: "alert warning conflict", role: "alert", hidden: true });

  const fieldsOf = (): Fields => ({
    name: name.value.trim(),
    filenamePattern: filename.value.trim(),
    contentType: ctype.value.trim(),
    scriptSource: editor.text(),
  });
  const isDirty = (): boolean => {
    const f = fieldsOf();
    return f.name !== saved.name || f.filenamePattern !== saved.filenamePattern || f.contentType !== saved.contentType || f.scriptSource !== saved.scriptSource;
  };
  const sourceDirty = (): boolean => editor.text() !== saved.scriptSource;
  const showDirty = () => {
    const d = isDirty();
    dirtyBadge.hidden = !d;
  };
  [name, filename, ctype].forEach((el) => {
    el.addEventListener("input", showDirty);
    el.addEventListener("input", () => el.removeAttribute("aria-invalid"));
  });

  let checkSeq = 0;
  const editor: CodeEditor = createEditor({
    parent: editorWrap,
    id: "template-source",
    labelledBy: "template-source-label",
    describedBy: "template-source-hint template-problems",
    onChange: showDirty,
    check: async (text) => {
      const seq = ++checkSeq;
      if (!text.trim()) return [{ line: 0, column: 0, message: "The script is empty: define function exportTimeline(cues, ctx)." }];
      try {
        await client.validateTemplate({ scriptSource: text, mode: "validate" });
        return seq === checkSeq ? [] : null;
      } catch (e) {
        if (gate(e)) return null;
        const p = problemOf(e);
        return p && seq === checkSeq ? [p] : null;
      }
    },
    onProblems: (list) => renderProblems(list),
  });
  sourceLabel.addEventListener("click", () => editor.focus());

  function renderProblems(list: Problem[]): void {
    problemsBox.hidden = list.length === 0;
    problemsStatus.textContent = list.length ? `${list.length} ${list.length === 1 ? "problem" : "problems"} in the script: ${list.map((p) => (p.line ? `${where(p)}: ${p.message}` : p.message)).join("; ")}` : "";
    replace(
      problemsBox,
      h("h3", { class: "visually-hidden" }, "Problems in the script"),
      h(
        "ul",
        { id: "template-problem-list" },
        ...list.map((p) =>
          h(
            "li",
            { class: "problem", "data-line": p.line, "data-column": p.column },
            h("span", { class: "sev-icon", "aria-hidden": "true" }, "!"),
            p.line ? h("button", { type: "button", class: "linklike problem-goto", onclick: () => editor.goto(p.line, p.column) }, `Line ${p.line}${p.column ? `:${p.column}` : ""}`) : null,
            h("span", { class: "problem-message" }, p.message),
          ),
        ),
      ),
    );
  }

  const form = h(
    "form",
    { id: "template-form", class: "template-form", novalidate: true },
    h("div", { class: "field" }, h("label", { for: "template-name" }, "Name"), name),
    h(
      "div",
      { class: "form-row" },
      h(
        "div",
        { class: "field" },
        h("label", { for: "template-filename" }, "File name pattern"),
        filename,
        h("p", { id: "template-filename-hint", class: "muted small" }, "Placeholders ", h("code", null, "{project}"), ", ", h("code", null, "{template}"), ", ", h("code", null, "{revision}"), " (the timeline's revision). A script that returns a filename overrides it."),
      ),
      h(
        "div",
        { class: "field" },
        h("label", { for: "template-content-type" }, "Content type"),
        ctype,
        ctypeList,
        h("p", { id: "template-content-type-hint", class: "muted small" }, "The media type of the exported file, for example ", h("code", null, "text/csv; charset=utf-8"), "."),
      ),
    ),
    h("div", { class: "field" }, sourceLabel, sourceHint, editorWrap, problemsBox, problemsStatus),
    conflict,
    h("div", { class: "form-actions" }, save, del, saveStatus),
  );
  const editorCard = h(
    "section",
    { id: "template-editor", class: "card template-editor", "aria-labelledby": "template-editor-h" },
    h("div", { class: "output-head" }, heading, dirtyBadge),
    meta,
    form,
    reference(),
  );

  function showMeta(): void {
    const parts: string[] = [];
    if (current.id) {
      parts.push(`Revision ${current.revision}.`);
      if (current.updatedAt) parts.push(`Saved ${formatDate(current.updatedAt)}.`);
    } else {
      parts.push("Not saved yet: Save creates it.");
    }
    meta.textContent = parts.join(" ");
    del.hidden = !current.id;
  }

  function load(t: ExportTemplate): void {
    // The contract leaves scriptSource optional, since the list leaves it
    // out; a single template comes with it. Without it there is nothing to
    // edit: loading "" would let a save erase the stored script.
    if (t.scriptSource === undefined) {
      throw new ApiError("The service sent the template without its script. Reload the page and open it again.", "unexpected_response", 200);
    }
    const source = t.scriptSource;
    current = { id: t.id, revision: t.revision, updatedAt: t.updatedAt };
    saved = { name: t.name, filenamePattern: t.filenamePattern, contentType: t.contentType, scriptSource: source };
    name.value = t.name;
    filename.value = t.filenamePattern;
    ctype.value = t.contentType;
    editor.setText(source);
    heading.textContent = t.name;
    conflict.hidden = true;
    saveStatus.textContent = "";
    [name, filename, ctype].forEach((el) => el.removeAttribute("aria-invalid"));
    showMeta();
    showDirty();
    renderList();
    history.replaceState(null, "", `#/templates/${encodeURIComponent(t.id)}`);
  }

  function startNew(s: Starter, focus: boolean): void {
    current = { id: null, revision: 0, updatedAt: null };
    // Unchanged, a starter is nothing to lose: only edits count as unsaved.
    saved = { name: s.name, filenamePattern: s.filenamePattern, contentType: s.contentType, scriptSource: s.source };
    name.value = s.name;
    filename.value = s.filenamePattern;
    ctype.value = s.contentType;
    editor.setText(s.source);
    heading.textContent = "New template";
    conflict.hidden = true;
    saveStatus.textContent = "";
    [name, filename, ctype].forEach((el) => el.removeAttribute("aria-invalid"));
    showMeta();
    showDirty();
    renderList();
    replace(testResult);
    history.replaceState(null, "", "#/templates");
    if (focus) {
      name.focus();
      name.select();
      announce(`New template from the starter “${s.label}”. Name it, then Save.`);
    }
  }

  /** open_ loads a template into the editor and answers whether it could. */
  async function open_(id: string, focus: boolean): Promise<boolean> {
    err.hide();
    try {
      const t = await client.getTemplate(id);
      load(t);
      replace(testResult);
      if (focus) heading.focus();
      announce(`Opened template ${t.name}, revision ${t.revision}.`);
      return true;
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) {
        err.show("This template does not exist any more, or it belongs to another account.");
        void reloadList();
        history.replaceState(null, "", "#/templates");
        return false;
      }
      fail(e);
      return false;
    }
  }

  // guard asks before unsaved changes are dropped.
  const discard = confirmDialog({
    id: "template-discard",
    title: "Discard unsaved changes?",
    confirm: "Discard changes",
    cancel: "Keep editing",
    danger: true,
  });
  async function guard(then: () => unknown): Promise<void> {
    if (isDirty()) {
      const ok = await discard.ask(h("span", null, "The template “", saved.name || name.value || "New template", "” has changes that are not saved. They will be lost."));
      if (!ok) return;
    }
    await then();
  }

  // ---- save
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    await doSave(null);
  });

  let saving = false;
  async function doSave(overRevision: number | null): Promise<void> {
    if (saving) return;
    err.hide();
    conflict.hidden = true;
    const f = fieldsOf();
    if (!f.name) {
      name.setAttribute("aria-invalid", "true");
      err.show("Give the template a name (up to 100 characters).");
      name.focus();
      return;
    }
    if (!f.scriptSource.trim()) {
      err.show("The script is empty: define function exportTimeline(cues, ctx).");
      editor.focus();
      return;
    }
    // Busy, not disabled: a disabled button would lose the keyboard focus.
    save.setAttribute("aria-disabled", "true");
    saving = true;
    saveStatus.textContent = "Saving…";
    try {
      const creating = !current.id;
      const t = creating
        ? await client.createTemplate({ name: f.name, scriptSource: f.scriptSource, filenamePattern: f.filenamePattern || undefined, contentType: f.contentType || undefined })
        : await client.updateTemplate(current.id!, {
            name: f.name,
            scriptSource: f.scriptSource,
            filenamePattern: f.filenamePattern || DEFAULT_FILENAME_PATTERN,
            contentType: f.contentType || DEFAULT_CONTENT_TYPE,
            revision: overRevision ?? current.revision,
          });
      // Keep what is typed since the request left; the saved copy is t.
      const typed = editor.text();
      // The answer carries the stored script; were it absent (the contract
      // leaves it optional), the stored script is the one just sent.
      const source = t.scriptSource ?? f.scriptSource;
      current = { id: t.id, revision: t.revision, updatedAt: t.updatedAt };
      saved = { name: t.name, filenamePattern: t.filenamePattern, contentType: t.contentType, scriptSource: source };
      filename.value = t.filenamePattern;
      ctype.value = t.contentType;
      if (typed === source) editor.mark([]);
      heading.textContent = t.name;
      history.replaceState(null, "", `#/templates/${encodeURIComponent(t.id)}`);
      showMeta();
      showDirty();
      saveStatus.textContent = creating ? `Template created: revision ${t.revision}.` : `Saved: revision ${t.revision}.`;
      await reloadList();
    } catch (ex) {
      saveStatus.textContent = "";
      const p = problemOf(ex);
      if (p) {
        editor.mark([p]);
        saveStatus.textContent = `Not saved: ${p.line ? `${where(p)}: ` : ""}${p.message}`;
        return;
      }
      if (ex instanceof ApiError && ex.status === 409 && ex.details.reason === "stale_revision") {
        showConflict(Number(ex.details.currentRevision) || 0);
        return;
      }
      if (ex instanceof ApiError && ex.status === 404 && current.id) {
        err.show("This template was deleted elsewhere. Save again to create it anew from what is in the editor.");
        current = { id: null, revision: 0, updatedAt: null };
        showMeta();
        void reloadList();
        return;
      }
      const bad = ex instanceof ApiError ? { name, filenamePattern: filename, contentType: ctype }[String(ex.details.field)] : undefined;
      if (bad) {
        bad.setAttribute("aria-invalid", "true");
        fail(ex);
        bad.focus();
        return;
      }
      fail(ex);
    } finally {
      save.removeAttribute("aria-disabled");
      saving = false;
    }
  }

  function showConflict(now: number): void {
    const reload = h("button", { id: "template-reload", type: "button", class: "button secondary" }, "Reload");
    const overwrite = h("button", { id: "template-overwrite", type: "button", class: "button secondary" }, "Save mine over it");
    reload.addEventListener("click", async () => {
      const id = current.id;
      if (!id) return;
      await open_(id, true);
      announce(`Reloaded: revision ${current.revision}. Your edits were dropped.`);
    });
    overwrite.addEventListener("click", () => void doSave(now));
    replace(
      conflict,
      h("p", null, h("strong", null, "Not saved: this template was changed elsewhere. "), `It is at revision ${now || "?"} now; your copy started from revision ${current.revision}.`),
      h("p", null, "Reload to get the current revision (your edits here are dropped: copy them first if you need them), or save yours over it."),
      h("div", { class: "form-actions" }, reload, overwrite),
    );
    conflict.hidden = false;
    reload.focus();
  }

  // ---- delete
  const delDialog = confirmDialog({ id: "template-delete", title: "Delete this template?", confirm: "Delete template", cancel: "Cancel", danger: true });
  del.addEventListener("click", async () => {
    const id = current.id;
    if (!id) return;
    const label = saved.name;
    const ok = await delDialog.ask(h("span", null, "The template ", h("strong", null, label), " and all its revisions are deleted. Exports already made keep their files. This cannot be undone."));
    if (!ok) return;
    try {
      await client.deleteTemplate(id);
      announce(`Template ${label} deleted.`);
      await reloadList();
      startNew(STARTERS[0], false);
      saveStatus.textContent = `Deleted “${label}”.`;
      document.getElementById("templates-h")?.focus();
    } catch (e) {
      fail(e);
    }
  });

  // ---- test on a project
  const projectSel = h("select", { id: "template-project", "aria-describedby": "template-project-hint" });
  const projectHint = h("p", { id: "template-project-hint", class: "muted small" });
  const ready = (projects ?? []).filter((p) => p.status === "ready");
  if (projects === null) {
    projectSel.appendChild(h("option", { value: "" }, "Projects could not be loaded"));
    projectHint.textContent = "Reload the page to try again.";
  } else if (!projects.length) {
    projectSel.appendChild(h("option", { value: "" }, "No projects yet"));
    replace(projectHint, "Create a project from a caption file on the ", h("a", { href: "#/projects" }, "Projects page"), " to test on it.");
  } else {
    projectSel.appendChild(h("option", { value: "" }, "Choose a project…"));
    for (const p of projects) {
      projectSel.appendChild(h("option", { value: p.id, disabled: p.status !== "ready" }, p.status === "ready" ? `${p.name} (${p.cueCount} ${p.cueCount === 1 ? "cue" : "cues"}, revision ${p.irRevision})` : `${p.name} (empty)`));
    }
    if (ready[0]) projectSel.value = ready[0].id;
    projectHint.textContent = "Test runs the script in the editor, saved or not, on the project's current timeline. A successful test counts one run of today's pool.";
  }
  const testBtn = h("button", { id: "template-test", type: "button", class: "button primary" }, "Test");
  const testResult = h("div", { id: "template-test-result", class: "test-result", "aria-live": "polite" });
  testBtn.addEventListener("click", () => void runTest());

  let testing = false;
  async function runTest(): Promise<void> {
    if (testing) return;
    err.hide();
    const projectId = projectSel.value;
    if (!projectId) {
      replace(testResult, h("p", { id: "template-test-error", class: "alert" }, "Choose a project with a timeline to test on."));
      projectSel.focus();
      return;
    }
    const source = editor.text();
    const unsaved = !current.id || sourceDirty();
    testBtn.setAttribute("aria-disabled", "true");
    testing = true;
    testResult.setAttribute("aria-busy", "true");
    replace(testResult, h("p", { class: "muted" }, unsaved ? "Running the script in the editor…" : "Running the saved template…"));
    try {
      const res = unsaved ? await client.validateTemplate({ scriptSource: source, mode: "both", projectId }) : await client.testTemplate(current.id!, projectId);
      if (editor.text() === source) editor.mark([]);
      replace(testResult, outputView(res, unsaved, projects?.find((p) => p.id === projectId)?.name ?? "the project"));
    } catch (e) {
      if (gate(e)) return;
      const d = scriptDetails(e);
      if (d) {
        const p = problemOf(e)!;
        if (editor.text() === source) editor.mark([p]);
        replace(testResult, scriptErrorView(d, (e as ApiError).message, (line, col) => editor.goto(line, col)));
        return;
      }
      let msg = messageOf(e);
      if (e instanceof ApiError && e.details.reason === "project_empty") msg = "This project has no timeline yet: give it one from a caption file on the Projects page, or choose another project.";
      else if (e instanceof ApiError && e.status === 404) msg = `${msg} Choose another project, or reload the page.`;
      replace(testResult, h("p", { id: "template-test-error", class: "alert" }, msg));
    } finally {
      testBtn.removeAttribute("aria-disabled");
      testing = false;
      testResult.setAttribute("aria-busy", "false");
    }
  }

  const testCard = h(
    "section",
    { id: "template-test-card", class: "card", "aria-labelledby": "template-test-h" },
    h("h2", { id: "template-test-h" }, "Test on a project"),
    h("div", { class: "test-row" }, h("div", { class: "field" }, h("label", { for: "template-project" }, "Project"), projectSel, projectHint), h("div", { class: "test-go" }, testBtn)),
    testResult,
  );

  renderList();
  const el = h("div", { class: "templates-layout" }, listCard, h("div", { class: "templates-main" }, editorCard, testCard, discard.el, delDialog.el));
  return {
    el,
    editor,
    open: open_,
    startNew,
  };
}

/** outputView shows a successful test: the facts, then the output (its first 64 KiB). */
function outputView(res: TemplateRunResult, unsaved: boolean, projectName: string): HTMLElement {
  const t = res.test;
  if (!t) return h("p", { id: "template-test-ok", class: "muted" }, "The script is valid.");
  const item = (k: string, v: HTMLElement | string, id: string) => h("div", null, h("dt", null, k), h("dd", { id }, v));
  const ms = t.durationMs + (res.validate?.durationMs ?? 0);
  const shown = t.output.length;
  return h(
    "div",
    { id: "template-test-ok", class: "test-output" },
    h("p", { class: "test-outcome" }, h("span", { class: "badge status-ready" }, "✓ Ran"), ` on ${projectName}${unsaved ? ", from the script in the editor" : ""}.`),
    h(
      "dl",
      { id: "template-output-meta", class: "meta" },
      item("File name", h("code", null, t.filename), "template-output-filename"),
      item("Content type", h("code", null, t.contentType), "template-output-type"),
      item("Size", formatBytes(t.outputBytes), "template-output-size"),
      item("Run time", `${ms} ms`, "template-output-time"),
      typeof res.remainingApiRunsToday === "number" ? item("Runs left today", String(res.remainingApiRunsToday), "template-output-remaining") : null,
    ),
    unsaved ? h("p", { class: "muted small" }, "Until it is saved, the file name follows the default pattern unless the script returns one.") : null,
    t.truncated || t.outputBytes > OUTPUT_LIMIT ? h("p", { id: "template-output-truncated", class: "muted small" }, `Showing the first 64 KiB of ${formatBytes(t.outputBytes)}.`) : null,
    t.outputBytes === 0 && shown === 0
      ? h("p", { id: "template-output-empty", class: "muted" }, "The output is empty.")
      : h("pre", { id: "template-output", class: "output template-output", tabindex: 0, "aria-label": `Output, ${t.filename}` }, t.output),
  );
}

/** scriptErrorView shows a script's failure: kind, message, where, and the stack. */
function scriptErrorView(d: ScriptErrorDetails, fallback: string, goto: (line: number, col: number) => void): HTMLElement {
  const line = d.line ?? 0;
  const col = d.column ?? 0;
  return h(
    "div",
    { id: "template-script-error", class: "alert script-error", role: "alert", "data-kind": d.kind ?? "", "data-line": line, "data-column": col },
    h("p", null, h("strong", { id: "template-error-kind" }, d.kind ? kindLabel(d.kind) : "Script error"), d.phase && PHASE_LABELS[d.phase] ? ` ${PHASE_LABELS[d.phase]}` : "", ": ", h("span", { id: "template-error-message" }, d.message || fallback)),
    line > 0
      ? h(
          "p",
          null,
          "At ",
          h("span", { id: "template-error-where", class: "mono" }, `${line}:${col}`),
          ` (${where({ line, column: col })}). `,
          h("button", { id: "template-error-goto", type: "button", class: "button secondary small", onclick: () => goto(line, col) }, "Show in the editor"),
        )
      : null,
    d.stack && d.stack.length ? h("pre", { id: "template-error-stack", class: "stack", "aria-label": "Stack" }, d.stack.join("\n")) : null,
  );
}

/** reference lists what a script gets, folded. */
function reference(): HTMLElement {
  const row = (k: string, v: string) => h("tr", null, h("th", { scope: "row" }, h("code", null, k)), h("td", null, v));
  return h(
    "details",
    { id: "template-reference", class: "reference" },
    h("summary", null, "What a script gets: cues and ctx"),
    h("p", { class: "small" }, "Each ", h("code", null, "cue"), " of ", h("code", null, "cues"), " (in presentation order):"),
    h(
      "table",
      { class: "data small" },
      h(
        "tbody",
        null,
        row("index", "0-based position"),
        row("id", "the cue's id"),
        row("startMs, endMs", "times in milliseconds"),
        row("text, lines", "the text, and the text split at its line breaks"),
        row("speaker", "the voice's name, or null"),
        row("spans, placement", "styling spans; position and alignment, or null"),
      ),
    ),
    h("p", { class: "small" }, h("code", null, "ctx"), ":"),
    h(
      "table",
      { class: "data small" },
      h(
        "tbody",
        null,
        row("projectId, projectName, irRevision", "the project and its timeline's revision"),
        row("language, frameRate", "the timeline's language (\"\" if none) and frame rate (0 if none)"),
        row("templateName, preset", "this template's name; the export's preset (\"\" in a test)"),
        row("srtTime(ms), vttTime(ms)", "\"00:01:02,345\" and \"00:01:02.345\""),
        row("timecode(ms, fps?)", "SMPTE \"00:01:02:08\" at fps, or the timeline's frame rate"),
        row("seconds(ms), pad(n, width)", "\"62.345\" and \"007\""),
      ),
    ),
    h("p", { class: "small muted" }, "Scripts run in a sandbox with no file system, network or timers, within time and memory limits."),
  );
}

/** confirmDialog is a modal question; ask resolves true when confirmed. Focus returns to the opener. */
function confirmDialog(o: { id: string; title: string; confirm: string; cancel: string; danger?: boolean }) {
  const text = h("p", { id: `${o.id}-text` });
  const cancel = h("button", { id: `${o.id}-cancel`, type: "button", class: "button secondary" }, o.cancel);
  const ok = h("button", { id: `${o.id}-confirm`, type: "button", class: o.danger ? "button danger" : "button primary" }, o.confirm);
  const el = h(
    "dialog",
    { id: `${o.id}-dialog`, "aria-labelledby": `${o.id}-h`, "aria-describedby": `${o.id}-text` },
    h("h2", { id: `${o.id}-h` }, o.title),
    text,
    h("div", { class: "form-actions" }, cancel, ok),
  );
  cancel.addEventListener("click", () => el.close());
  ok.addEventListener("click", () => el.close("confirm"));
  return {
    el,
    async ask(body: HTMLElement): Promise<boolean> {
      const opener = document.activeElement as HTMLElement | null;
      replace(text, body);
      const confirmed = (await openModal(el, cancel)) === "confirm";
      // Back to where the user was unless the action moves the focus itself.
      if (!confirmed) restoreFocus(el, opener);
      return confirmed;
    },
  };
}
