// Presets (docs/presets.md, Your own presets): the built-in presets and
// the account's own, each with what it applies; an editor for a preset
// file (JSON, a built-in base and its overrides) whose refusal lists each
// bad field next to the text; Delete after a second press.

import { ApiError, messageOf, type Client } from "../api/client";
import type { PresetView } from "../api/types";
import { announce, h, replace } from "../dom";
import { errorBox } from "../ui/notice";

/** STARTER is the file a new preset starts from. */
const STARTER = `{
  "base": "youtube",
  "title": "Our studio",
  "rules": {
    "line_too_long": { "level": "enforced", "limit": 37 },
    "reading_speed_high": { "limit": 17 },
    "shot_change_near": "off"
  }
}
`;

/** FieldError is one entry of a refused file's details.errors. */
interface FieldError {
  field: string;
  message: string;
}

/** fieldErrors reads the field errors of a refused save; a refusal without them is one error on its field. */
function fieldErrors(e: unknown): FieldError[] {
  if (!(e instanceof ApiError) || e.status !== 400) return [];
  const list = (e.details as { errors?: unknown }).errors;
  if (Array.isArray(list)) return list.filter((x): x is FieldError => typeof x?.field === "string" && typeof x?.message === "string");
  return typeof e.details.field === "string" ? [{ field: e.details.field, message: e.message }] : [];
}

export function presetsPage(client: Client, openName: string | null): HTMLElement {
  const err = errorBox("presets-error");
  const list = h("div", { id: "presets-list", "aria-busy": "true" }, h("p", { class: "muted" }, "Loading presets…"));

  const name = h("input", { id: "preset-name", type: "text", autocomplete: "off", spellcheck: false, placeholder: "e.g. studio-a", "aria-describedby": "preset-name-hint" });
  const text = h("textarea", { id: "preset-file", rows: 16, spellcheck: false, class: "mono", "aria-describedby": "preset-file-hint preset-errors" }) as HTMLTextAreaElement;
  text.value = STARTER;
  const problems = h("ul", { id: "preset-errors", class: "field-errors", "aria-live": "polite" });
  const save = h("button", { id: "preset-save", type: "submit", class: "button primary" }, "Save preset");
  const status = h("span", { id: "preset-status", class: "muted", role: "status" });
  const showProblems = (errs: FieldError[]) => {
    replace(problems, ...errs.map((fe) => h("li", { "data-field": fe.field }, h("code", null, fe.field || "file"), " ", fe.message)));
    text.setAttribute("aria-invalid", String(errs.length > 0));
  };

  const editor = h(
    "form",
    { id: "preset-form", class: "card", novalidate: true, "aria-labelledby": "preset-form-h" },
    h("h2", { id: "preset-form-h" }, "Your preset"),
    h(
      "div",
      { class: "field" },
      h("label", { for: "preset-name" }, "Name"),
      name,
      h("span", { id: "preset-name-hint", class: "muted small" }, "Used wherever a preset is named: Run QA, exports, renders and the API. Not a built-in's name."),
    ),
    h(
      "div",
      { class: "field" },
      h("label", { for: "preset-file" }, "Preset file (JSON)"),
      text,
      h(
        "span",
        { id: "preset-file-hint", class: "muted small" },
        "A built-in ",
        h("code", null, "base"),
        " and what it changes: ",
        h("code", null, "title"),
        ", ",
        h("code", null, "output"),
        ", ",
        h("code", null, "stripStyling"),
        ", and per rule its ",
        h("code", null, "level"),
        " and ",
        h("code", null, "limit"),
        ", or ",
        h("code", null, '"off"'),
        ". ",
        h("a", { href: "/api/v1/preset-v1.schema.json", target: "_blank", rel: "noopener" }, "JSON Schema"),
      ),
      problems,
    ),
    h("div", { class: "form-actions" }, save, status),
  );

  const edit = (v: PresetView) => {
    name.value = v.name;
    text.value = JSON.stringify(v.file, null, 2) + "\n";
    showProblems([]);
    status.textContent = `Editing ${v.name}.`;
    name.focus();
  };

  const load = async () => {
    list.setAttribute("aria-busy", "true");
    try {
      const res = await client.listPresets();
      replace(list, table(res.presets, edit, remove));
      const open = openName ? res.presets.find((p) => p.name === openName && !p.builtin) : undefined;
      if (open) edit(open);
      openName = null;
    } catch (e) {
      replace(list);
      err.show(messageOf(e));
    } finally {
      list.setAttribute("aria-busy", "false");
    }
  };

  const remove = async (v: PresetView) => {
    err.hide();
    try {
      await client.deletePreset(v.name);
      announce(`Preset ${v.name} deleted.`);
      await load();
    } catch (e) {
      err.show(messageOf(e));
    }
  };

  editor.addEventListener("submit", async (e) => {
    e.preventDefault();
    err.hide();
    let file: unknown;
    try {
      file = JSON.parse(text.value);
    } catch (ex) {
      showProblems([{ field: "", message: `not JSON: ${(ex as Error).message}` }]);
      text.focus();
      return;
    }
    if (!name.value.trim()) {
      showProblems([{ field: "name", message: "give the preset a name" }]);
      name.focus();
      return;
    }
    save.disabled = true;
    try {
      const saved = await client.putPreset(name.value.trim(), file);
      showProblems([]);
      status.textContent = `Saved ${saved.name}.`;
      announce(`Preset ${saved.name} saved.`);
      await load();
    } catch (ex) {
      const errs = fieldErrors(ex);
      if (errs.length) {
        showProblems(errs);
        status.textContent = "Not saved: fix the fields listed.";
        (errs[0].field === "name" ? name : text).focus();
      } else err.show(messageOf(ex));
    } finally {
      save.disabled = false;
    }
  });

  void load();
  return h("div", { id: "presets-page", class: "presets-page" }, err.el, editor, h("section", { class: "card", "aria-labelledby": "presets-h" }, h("h2", { id: "presets-h" }, "All presets"), list));
}

function table(presets: PresetView[], edit: (v: PresetView) => void, remove: (v: PresetView) => Promise<void>): HTMLElement {
  const rows = presets.map((p) => {
    const r = p.resolved;
    const actions = p.builtin
      ? h("span", { class: "muted small" }, "Built in")
      : h(
          "span",
          { class: "row-actions" },
          h("button", { type: "button", class: "button secondary small", "data-edit": p.name, onclick: () => edit(p) }, "Edit"),
          deleteButton(p, remove),
        );
    return h(
      "tr",
      { "data-preset": p.name },
      h("th", { scope: "row" }, p.name),
      h("td", null, p.builtin ? "built-in" : `yours, on ${p.file?.base ?? "?"}`),
      h("td", null, r ? r.title : h("span", { class: "muted" }, p.problem ?? "")),
      h("td", null, r ? r.output : ""),
      h("td", null, r ? String(Object.keys(r.rules).length) : ""),
      h("td", null, actions),
    );
  });
  return h(
    "table",
    { id: "presets-table", class: "data" },
    h("caption", { class: "visually-hidden" }, "Presets: the built-ins, then your own"),
    h(
      "thead",
      null,
      h("tr", null, ...["Name", "Kind", "Title", "Output", "Rules", ""].map((c) => h("th", { scope: "col" }, c))),
    ),
    h("tbody", null, ...rows),
  );
}

/** deleteButton deletes on its second press: the first asks. */
function deleteButton(p: PresetView, remove: (v: PresetView) => Promise<void>): HTMLElement {
  const b = h("button", { type: "button", class: "button danger small", "data-delete": p.name }, "Delete");
  let armed = false;
  b.addEventListener("click", () => {
    if (!armed) {
      armed = true;
      b.textContent = `Delete ${p.name}?`;
      return;
    }
    void remove(p);
  });
  return b;
}
