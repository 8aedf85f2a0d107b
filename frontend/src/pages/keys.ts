// API keys: masked list, create form, one-time secret, revoke dialog.

import { messageOf, type Client } from "../api/client";
import { SCOPES, type APIKey, type APIKeyCreated, type APIKeyRevoked, type Scope } from "../api/types";
import { announce, formatDate, h, replace } from "../dom";
import { copyText } from "../download";
import { openModal, restoreFocus } from "../ui/dialog";

const SCOPE_HELP: Record<Scope, string> = {
  "process:write": "Run QA (POST /process)",
  "account:read": "Read the profile (/me)",
  "usage:read": "Read usage (/usage)",
  "keys:read": "List API keys",
  "keys:write": "Create and revoke keys",
  "webhooks:read": "Read the webhook",
  "webhooks:write": "Change the webhook",
  "exports:read": "Read projects, templates, jobs",
  "exports:write": "Run exports and jobs",
};

export function keysPage(client: Client): HTMLElement {
  const error = h("div", { id: "keys-error", class: "alert", role: "alert", hidden: true });
  const showError = (msg: string) => {
    error.hidden = false;
    replace(error, msg);
  };
  const listArea = h("div", { id: "keys-list", "aria-busy": "true" }, h("p", { class: "muted" }, "Loading keys…"));
  const secretArea = h("div", { id: "key-secret-area" });

  // The keys shown so far, newest first, and the cursor of the older
  // ones (null once the last page is shown).
  let keys: APIKey[] = [];
  let cursor: string | null = null;
  const more = h("button", { id: "keys-more", type: "button", class: "button secondary", hidden: true }, "Show older keys");

  const dialog = revokeDialog(
    client,
    (r) => {
      keys = keys.map((k) => (k.keyId === r.keyId ? { ...k, status: "revoked", revokedAt: r.revokedAt } : k));
      render();
      document.getElementById("keys-h")?.focus();
    },
    showError,
  );

  function render(): void {
    // The owner key is the oldest: only the last page can show it.
    const owner = cursor === null ? ownerKeyId(client, keys) : "";
    replace(listArea, keyTable(keys, (k) => dialog.open(k, k.keyId === owner)));
    more.hidden = cursor === null;
  }

  /** load reads the newest page when reset, else the next older one, and shows every key read so far. */
  async function load(reset: boolean): Promise<void> {
    more.disabled = true;
    try {
      const page = await client.listKeys(reset ? "" : (cursor ?? ""));
      keys = reset ? page.keys : keys.concat(page.keys);
      cursor = page.nextCursor;
      form.offer(page.grantableScopes);
      render();
    } catch (e) {
      if (reset) replace(listArea);
      showError(messageOf(e));
    } finally {
      listArea.setAttribute("aria-busy", "false");
      more.disabled = false;
    }
  }
  more.addEventListener("click", () => void load(false));

  const form = createForm(client, async (created) => {
    error.hidden = true;
    replace(secretArea, secretPanel(created));
    document.getElementById("key-secret")?.focus();
    announce(`Key ${created.name} created. Copy its secret now; it is shown only once.`);
    await load(true);
  }, showError);

  void load(true);
  return h(
    "div",
    { class: "keys-page" },
    error,
    secretArea,
    h("section", { class: "card", "aria-labelledby": "keys-h" }, h("h2", { id: "keys-h", tabindex: -1 }, "Your API keys"), listArea, h("div", { class: "form-actions" }, more)),
    h("section", { class: "card", "aria-labelledby": "key-form-h" }, h("h2", { id: "key-form-h" }, "Create a key"), form.el),
    dialog.el,
  );
}

/** OWNER_KEY_NAME is the name the first start gives the owner's key (account.Service.EnsureOwner). */
const OWNER_KEY_NAME = "owner";

/**
 * ownerKeyId is the id of the key the first start printed, when the signed-in account is the owner
 * and still lists it: its oldest key (the list is newest first, and must hold every page), named as
 * the first start names it.
 */
function ownerKeyId(client: Client, keys: APIKey[]): string {
  const oldest = keys[keys.length - 1];
  return client.owner && oldest && oldest.name === OWNER_KEY_NAME ? oldest.keyId : "";
}

function keyTable(keys: APIKey[], revoke: (k: APIKey) => void): HTMLElement {
  if (!keys.length) return h("p", { id: "keys-empty", class: "muted" }, "No keys yet. Create one below.");
  return h(
    "div",
    { class: "table-wrap" },
    h(
      "table",
      { id: "keys-table", class: "data" },
      h("caption", { class: "visually-hidden" }, "API keys, masked"),
      h(
        "thead",
        null,
        h("tr", null, ...["Name", "Key", "Scopes", "Status", "Expires", "Last used", ""].map((t) => h("th", { scope: "col" }, t ? t : h("span", { class: "visually-hidden" }, "Actions")))),
      ),
      h(
        "tbody",
        null,
        ...keys.map((k) =>
          h(
            "tr",
            { "data-key-id": k.keyId, "data-status": k.status },
            h("td", { class: "key-name" }, k.name),
            h("td", null, h("code", { class: "key-prefix" }, k.prefix)),
            h("td", { class: "scopes" }, k.scopes.length ? k.scopes.join(", ") : "process:write (legacy)"),
            h("td", null, h("span", { class: `badge key-${k.status}` }, k.status)),
            h("td", null, formatDate(k.expiresAt, false)),
            h("td", null, k.lastUsedAt ? formatDate(k.lastUsedAt) : "Never"),
            h(
              "td",
              null,
              k.status === "revoked"
                ? h("span", { class: "muted" }, `Revoked ${formatDate(k.revokedAt, false)}`)
                : h("button", { type: "button", class: "button danger small revoke", "aria-label": `Revoke key ${k.name}`, onclick: () => revoke(k) }, "Revoke"),
            ),
          ),
        ),
      ),
    ),
  );
}

/**
 * createForm is the create form; offer shows only the scopes the caller may grant (the listing's
 * grantableScopes), since the server refuses the others.
 */
function createForm(client: Client, created: (k: APIKeyCreated) => void, showError: (m: string) => void): { el: HTMLElement; offer(scopes: readonly Scope[]): void } {
  const name = h("input", { id: "key-name", type: "text", maxlength: 100, required: true, autocomplete: "off" });
  const boxes = SCOPES.map((s) => {
    const id = `key-scope-${s.replace(":", "-")}`;
    const cb = h("input", { id, type: "checkbox", value: s, checked: s === "process:write" });
    return { s, cb, el: h("div", { class: "check" }, cb, h("label", { for: id }, h("code", null, s), h("span", { class: "muted small" }, ` ${SCOPE_HELP[s]}`))) };
  });
  const offered = () => boxes.filter((b) => !b.el.hidden);
  const expiry = h(
    "select",
    { id: "key-expiry", onchange: () => (dateField.hidden = expiry.value !== "date") },
    h("option", { value: "30" }, "30 days"),
    h("option", { value: "90", selected: true }, "90 days"),
    h("option", { value: "365" }, "365 days"),
    h("option", { value: "date" }, "On a date…"),
  );
  const tomorrow = new Date(Date.now() + 86400000).toISOString().slice(0, 10);
  const date = h("input", { id: "key-expiry-date", type: "date", min: tomorrow });
  const dateField = h("div", { class: "field", hidden: true }, h("label", { for: "key-expiry-date" }, "Expiry date"), date);
  const submit = h("button", { id: "key-create", type: "submit", class: "button primary" }, "Create key");
  const form = h(
    "form",
    { id: "key-form", novalidate: true },
    h("div", { class: "field" }, h("label", { for: "key-name" }, "Name"), name, h("p", { class: "muted small" }, "For example the integration that will use it.")),
    h("fieldset", { class: "scopes-set" }, h("legend", null, "Scopes"), h("div", { class: "checks" }, ...boxes.map((b) => b.el))),
    h("div", { class: "form-row" }, h("div", { class: "field" }, h("label", { for: "key-expiry" }, "Expires"), expiry), dateField),
    h("div", { class: "form-actions" }, submit),
  );
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const scopes = offered()
      .filter((b) => b.cb.checked)
      .map((b) => b.s);
    if (scopes.length === 0) {
      showError("Choose at least one scope: a key may do only what its scopes allow.");
      offered()[0]?.cb.focus();
      return;
    }
    let expiresAt: string | undefined;
    if (expiry.value === "date") {
      if (!date.value) {
        showError("Choose an expiry date.");
        date.focus();
        return;
      }
      expiresAt = new Date(date.value + "T23:59:59Z").toISOString();
    } else {
      expiresAt = new Date(Date.now() + parseInt(expiry.value, 10) * 86400000).toISOString();
    }
    submit.disabled = true;
    try {
      const k = await client.createKey({ name: name.value.trim(), scopes, expiresAt });
      name.value = "";
      created(k);
    } catch (err) {
      showError(messageOf(err));
    } finally {
      submit.disabled = false;
    }
  });
  return {
    el: form,
    offer(scopes) {
      for (const b of boxes) {
        const ok = scopes.includes(b.s);
        b.el.hidden = !ok;
        b.cb.disabled = !ok;
        if (!ok) b.cb.checked = false;
      }
    },
  };
}

function secretPanel(k: APIKeyCreated): HTMLElement {
  const status = h("span", { id: "key-secret-status", role: "status", class: "muted" });
  const secret = h("input", { id: "key-secret", type: "text", readonly: true, value: k.secret, "aria-label": `Secret of key ${k.name}`, spellcheck: "false" });
  secret.value = k.secret;
  secret.addEventListener("focus", () => secret.select());
  const panel = h(
    "section",
    { id: "key-secret-panel", class: "card secret", "aria-labelledby": "key-secret-h" },
    h("h2", { id: "key-secret-h" }, `Key “${k.name}” created`),
    h("p", { class: "alert warning" }, h("strong", null, "Copy this secret now. "), "It is shown only once; CaptionQA keeps only a hash. If you lose it, revoke the key and create a new one."),
    h(
      "div",
      { class: "secret-row" },
      secret,
      h(
        "button",
        {
          id: "key-secret-copy",
          type: "button",
          class: "button secondary",
          onclick: async () => {
            const ok = await copyText(k.secret);
            status.textContent = ok ? "Copied to the clipboard." : "Copy failed: select the secret and copy it by hand.";
          },
        },
        "Copy",
      ),
      h("button", { id: "key-secret-done", type: "button", class: "button secondary", onclick: () => panel.remove() }, "Done"),
    ),
    status,
  );
  return panel;
}

function revokeDialog(client: Client, revoked: (r: APIKeyRevoked) => void, showError: (m: string) => void) {
  let current: APIKey | null = null;
  const text = h("p", { id: "revoke-text" });
  const cancel = h("button", { id: "revoke-cancel", type: "button", class: "button secondary", onclick: () => el.close() }, "Cancel");
  const confirm = h("button", { id: "revoke-confirm", type: "button", class: "button danger" }, "Revoke key");
  // The owner's first key asks for a second, explicit confirmation.
  const ack = h("input", { id: "revoke-owner-ack", type: "checkbox", onchange: () => (confirm.disabled = !ack.checked) });
  const ownerWarning = h(
    "div",
    { id: "revoke-owner-warning", class: "alert warning", hidden: true },
    h("p", null, h("strong", null, "This is the owner key printed at the first start; "), "integrations using it stop working, and the desktop window is unaffected."),
    h("div", { class: "check" }, ack, h("label", { for: "revoke-owner-ack" }, "Revoke the owner key anyway")),
  );
  const el = h(
    "dialog",
    { id: "revoke-dialog", "aria-labelledby": "revoke-h", "aria-describedby": "revoke-text" },
    h("h2", { id: "revoke-h" }, "Revoke this key?"),
    text,
    ownerWarning,
    h("div", { class: "form-actions" }, cancel, confirm),
  );
  confirm.addEventListener("click", async () => {
    if (!current || (!ownerWarning.hidden && !ack.checked)) return;
    confirm.disabled = true;
    try {
      const r = await client.revokeKey(current.keyId);
      announce(`Key ${current.name} revoked.`);
      el.close();
      revoked(r);
    } catch (e) {
      el.close();
      showError(messageOf(e));
    } finally {
      confirm.disabled = false;
    }
  });
  return {
    el,
    /** open asks to revoke k; ownerKey adds the owner-key warning, whose box must be ticked first. */
    open(k: APIKey, ownerKey = false) {
      current = k;
      const opener = document.activeElement as HTMLElement | null;
      replace(text, "Integrations using ", h("strong", null, k.name), " (", h("code", null, k.prefix), ") will get 401 api_key_revoked. This cannot be undone.");
      ownerWarning.hidden = !ownerKey;
      ack.checked = false;
      confirm.disabled = ownerKey;
      void openModal(el, cancel).then(() => restoreFocus(el, opener));
    },
  };
}
