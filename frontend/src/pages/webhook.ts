// Webhook (issue 14): the endpoint URL with an Enabled switch, the signing
// secret (masked; shown in full once when created or rotated), a test
// event, and the delivery log with redelivery. The whole page needs the
// Pro workspace (PRO_WORKSPACE); without it the page says so.

import { ApiError, messageOf, type Client } from "../api/client";
import type { Webhook, WebhookDelivery, WebhookUpdate } from "../api/types";
import { announce, formatDate, h, replace } from "../dom";
import { errorBox } from "../ui/notice";
import { copyText } from "../download";
import { openModal, restoreFocus } from "../ui/dialog";
import { askForPro, noticeCard } from "../ui/notice";

const LOG_LIMIT = 50;

const EVENT_LABELS: Record<string, string> = {
  export_complete: "Export complete",
  test: "Test",
};

const STATUS_LABELS: Record<string, string> = {
  pending: "Pending",
  delivered: "Delivered",
  failed: "Failed",
  disabled: "Disabled",
};

/** needsPro tells whether an error is the Pro entitlement missing. */
function needsPro(e: unknown): boolean {
  return e instanceof ApiError && e.status === 403 && e.details.missingFeature === "PRO_WORKSPACE";
}


export function webhookPage(client: Client): HTMLElement {
  const err = errorBox("webhook-error");
  const secretArea = h("div", { id: "webhook-secret-area" });
  const body = h("div", { id: "webhook", "aria-busy": "true" }, h("p", { class: "muted" }, "Loading the webhook…"));
  const page = h("div", { id: "webhook-page", class: "webhook-page" }, err.el, secretArea, body);

  /** fail shows an error: the Pro explanation replaces the page, anything else the envelope's message. */
  const fail = (e: unknown, show: (m: string) => void = err.show): void => {
    if (needsPro(e)) {
      err.hide();
      replace(secretArea);
      replace(body, proGate());
      announce("Webhooks need the Pro workspace, which this account does not have.");
      return;
    }
    show(messageOf(e));
  };

  void (async () => {
    try {
      const hook = await client.getWebhook();
      replace(body, ...view(client, hook, err, secretArea, fail));
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
    "webhook-pro",
    "Webhooks need Pro",
    [
      "A webhook lets CaptionQA tell your systems when an export is finished. It is part of the Pro workspace (",
      h("code", null, "PRO_WORKSPACE"),
      "), which this account does not have.",
    ],
    askForPro("webhook-pro-account"),
  );
}

type Fail = (e: unknown, show?: (m: string) => void) => void;

function view(client: Client, initial: Webhook, err: ReturnType<typeof errorBox>, secretArea: HTMLElement, fail: Fail): HTMLElement[] {
  let hook = initial;

  // ---- endpoint: URL, Enabled, Save
  const url = h("input", {
    id: "webhook-url",
    type: "url",
    inputmode: "url",
    autocomplete: "off",
    spellcheck: "false",
    required: true,
    placeholder: "https://hooks.example.com/captionqa",
    "aria-describedby": "webhook-url-hint",
  });
  const enabled = h("input", { id: "webhook-enabled", type: "checkbox", role: "switch", class: "switch", "aria-describedby": "webhook-enabled-hint" });
  // The state in words beside the switch (screen readers hear the switch's own on/off).
  const enabledState = h("span", { id: "webhook-enabled-state", class: "switch-state", "aria-hidden": "true" });
  const showState = () => (enabledState.textContent = enabled.checked ? "On" : "Off");
  enabled.addEventListener("change", showState);
  const save = h("button", { id: "webhook-save", type: "submit", class: "button primary" }, "Save");
  const saveStatus = h("span", { id: "webhook-save-status", class: "muted", role: "status" });
  const meta = h("p", { id: "webhook-meta", class: "muted small" });
  const form = h(
    "form",
    { id: "webhook-form", novalidate: true },
    h(
      "div",
      { class: "field" },
      h("label", { for: "webhook-url" }, "Endpoint URL"),
      url,
      h("p", { id: "webhook-url-hint", class: "muted small" }, "An https:// address. CaptionQA sends it a signed JSON POST when an export is finished."),
    ),
    h(
      "div",
      { class: "switch-field" },
      enabled,
      h("label", { for: "webhook-enabled" }, "Enabled"),
      enabledState,
      h("span", { id: "webhook-enabled-hint", class: "muted small" }, "When off, CaptionQA sends nothing to this URL."),
    ),
    h("div", { class: "form-actions" }, save, saveStatus),
    meta,
  );

  const clearInvalid = () => {
    url.removeAttribute("aria-invalid");
    url.setAttribute("aria-describedby", "webhook-url-hint");
  };
  const markInvalid = () => {
    url.setAttribute("aria-invalid", "true");
    url.setAttribute("aria-describedby", "webhook-url-hint webhook-error");
    url.focus();
  };
  url.addEventListener("input", clearInvalid);

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    err.hide();
    clearInvalid();
    const u = url.value.trim();
    if (!u) {
      err.show("Enter the endpoint URL: the https:// address that should receive the events.");
      markInvalid();
      return;
    }
    const creating = !hook.url;
    const req: WebhookUpdate = { url: u, enabled: enabled.checked };
    save.disabled = true;
    saveStatus.textContent = "Saving…";
    try {
      const w = await client.putWebhook(req);
      saveStatus.textContent = creating ? "Webhook created." : `Saved. The webhook is ${w.enabled ? "on" : "off"}.`;
      apply(w);
      // saveStatus is a status region: it speaks for itself unless the secret takes the focus.
      if (w.secretRevealed && w.secret) reveal(w.secret, creating ? "created" : "rotated");
    } catch (ex) {
      saveStatus.textContent = "";
      fail(ex);
      if (ex instanceof ApiError && ex.details.field === "url") markInvalid();
    } finally {
      save.disabled = false;
    }
  });

  // ---- signing secret: masked, Rotate (confirmed), shown once in full
  const masked = h("code", { id: "webhook-secret-masked", class: "secret-masked" });
  const secretLine = h("p", { id: "webhook-secret-line" }, h("span", { class: "muted" }, "Current secret: "), masked);
  const noSecret = h("p", { id: "webhook-no-secret", class: "muted" }, "No secret yet. Save an endpoint URL and CaptionQA creates the webhook with its signing secret.");
  const rotateBtn = h("button", { id: "webhook-rotate", type: "button", class: "button secondary" }, "Rotate secret");
  const dialog = rotateDialog(async () => {
    err.hide();
    try {
      const w = await client.putWebhook({ rotateSecret: true });
      apply(w);
      if (w.secretRevealed && w.secret) reveal(w.secret, "rotated");
      else announce("Secret rotated.");
      return true;
    } catch (ex) {
      fail(ex);
      return false;
    }
  });
  rotateBtn.addEventListener("click", () => dialog.open());
  const secretCard = h(
    "section",
    { class: "card", "aria-labelledby": "webhook-secret-h" },
    h("h2", { id: "webhook-secret-h", tabindex: -1 }, "Signing secret"),
    h(
      "p",
      { class: "muted small" },
      "Every delivery carries ",
      h("code", null, "X-Service-Signature: sha256=…"),
      ", the HMAC-SHA256 of the raw body keyed with this secret. Check it before you trust a delivery.",
    ),
    secretLine,
    noSecret,
    h("div", { class: "form-actions" }, rotateBtn),
    dialog.el,
  );

  function reveal(secret: string, how: "created" | "rotated"): void {
    replace(secretArea, secretPanel(secret, how, () => document.getElementById("webhook-secret-h")?.focus()));
    document.getElementById("webhook-secret-full")?.focus();
    announce(`${how === "created" ? "Webhook created" : "Secret rotated"}. Copy the signing secret now; it is shown only once.`);
  }

  // ---- test event
  const testBtn = h("button", { id: "webhook-test", type: "button", class: "button secondary" }, "Send test event");
  const testResult = h("div", { id: "webhook-test-result", class: "test-result", "aria-live": "polite", "aria-atomic": "true" });
  testBtn.addEventListener("click", async () => {
    testBtn.disabled = true;
    replace(testResult, h("p", { class: "muted" }, "Sending a test event…"));
    try {
      const { delivery } = await client.testWebhook();
      replace(testResult, testOutcome(delivery));
      hook = { ...hook, lastDelivery: delivery };
      showMeta();
      void log.load();
    } catch (ex) {
      const msg = (m: string) => replace(testResult, h("p", { id: "webhook-test-error", class: "alert" }, `Could not send the test event: ${m}`));
      if (ex instanceof ApiError && ex.details.reason === "no_webhook") msg("there is no webhook yet. Save an endpoint URL first.");
      else fail(ex, msg);
    } finally {
      testBtn.disabled = false;
    }
  });
  const testCard = h(
    "section",
    { class: "card", "aria-labelledby": "webhook-test-h" },
    h("h2", { id: "webhook-test-h" }, "Test the endpoint"),
    h("p", { class: "muted small" }, "Sends one signed ", h("code", null, "test"), " event to the saved URL now and shows what the receiver answered."),
    h("div", { class: "form-actions" }, testBtn),
    testResult,
  );

  const log = deliveryLog(client, fail, (newest) => {
    hook = { ...hook, lastDelivery: newest };
    showMeta();
  });

  function apply(w: Webhook): void {
    hook = w;
    url.value = w.url ?? "";
    // A new webhook is enabled unless the switch says otherwise.
    enabled.checked = w.url ? w.enabled : true;
    showState();
    const hasSecret = !!w.secret && !!w.url;
    masked.textContent = w.secretRevealed ? maskOf(w.secret ?? "") : (w.secret ?? "");
    secretLine.hidden = !hasSecret;
    noSecret.hidden = hasSecret;
    rotateBtn.hidden = !hasSecret;
    showMeta();
  }
  function showMeta(): void {
    const w = hook;
    const parts: string[] = [];
    if (w.url) parts.push(w.enabled ? "The webhook is on." : "The webhook is off: nothing is sent.");
    if (w.createdAt) parts.push(`Created ${formatDate(w.createdAt)}.`);
    if (w.updatedAt && w.updatedAt !== w.createdAt) parts.push(`Changed ${formatDate(w.updatedAt)}.`);
    if (w.lastDelivery) parts.push(`Last delivery: ${STATUS_LABELS[w.lastDelivery.status] ?? w.lastDelivery.status}, ${formatDate(w.lastDelivery.createdAt)}.`);
    meta.textContent = parts.join(" ");
    meta.hidden = parts.length === 0;
  }
  apply(hook);
  void log.load();

  return [
    h("section", { class: "card", "aria-labelledby": "webhook-form-h" }, h("h2", { id: "webhook-form-h" }, "Endpoint"), form),
    secretCard,
    testCard,
    log.el,
  ];
}

/** maskOf hides all but the last four characters of a secret, as the API masks it. */
function maskOf(secret: string): string {
  const i = secret.indexOf("_");
  const prefix = i > 0 ? secret.slice(0, i + 1) : "";
  return `${prefix}****${secret.slice(-4)}`;
}

function secretPanel(secret: string, how: "created" | "rotated", done: () => void): HTMLElement {
  const status = h("span", { id: "webhook-secret-status", role: "status", class: "muted" });
  const input = h("input", { id: "webhook-secret-full", type: "text", readonly: true, value: secret, "aria-label": "Webhook signing secret", spellcheck: "false" });
  input.value = secret;
  input.addEventListener("focus", () => input.select());
  const panel = h(
    "section",
    { id: "webhook-secret-panel", class: "card secret", "aria-labelledby": "webhook-secret-panel-h" },
    h("h2", { id: "webhook-secret-panel-h" }, how === "created" ? "Webhook created: its signing secret" : "New signing secret"),
    h(
      "p",
      { class: "alert warning" },
      h("strong", null, "Copy this secret now. "),
      "It is shown only once; afterwards this page shows it masked. Give it to your receiver to check each delivery's signature. If you lose it, rotate the secret.",
      how === "rotated" ? " The previous secret no longer signs deliveries." : "",
    ),
    h(
      "div",
      { class: "secret-row" },
      input,
      h(
        "button",
        {
          id: "webhook-secret-copy",
          type: "button",
          class: "button secondary",
          onclick: async () => {
            const ok = await copyText(secret);
            status.textContent = ok ? "Copied to the clipboard." : "Copy failed: select the secret and copy it by hand.";
          },
        },
        "Copy",
      ),
      h(
        "button",
        {
          id: "webhook-secret-done",
          type: "button",
          class: "button secondary",
          onclick: () => {
            panel.remove();
            done();
          },
        },
        "Done",
      ),
    ),
    status,
  );
  return panel;
}

/** rotateDialog confirms a rotation; confirm answers whether it worked. */
function rotateDialog(confirm: () => Promise<boolean>) {
  const cancel = h("button", { id: "rotate-cancel", type: "button", class: "button secondary", onclick: () => el.close() }, "Cancel");
  const ok = h("button", { id: "rotate-confirm", type: "button", class: "button danger" }, "Rotate secret");
  const el = h(
    "dialog",
    { id: "rotate-dialog", "aria-labelledby": "rotate-h", "aria-describedby": "rotate-text" },
    h("h2", { id: "rotate-h" }, "Rotate the signing secret?"),
    h(
      "p",
      { id: "rotate-text" },
      "CaptionQA signs every delivery from now on with a new secret, shown once. Receivers that check signatures with the current secret will reject deliveries until you give them the new one.",
    ),
    h("div", { class: "form-actions" }, cancel, ok),
  );
  let revealed = false;
  ok.addEventListener("click", async () => {
    ok.disabled = true;
    try {
      const done = await confirm();
      revealed = done && document.getElementById("webhook-secret-full") != null;
      el.close();
      if (revealed) document.getElementById("webhook-secret-full")?.focus();
    } finally {
      ok.disabled = false;
    }
  });
  return {
    el,
    open() {
      const opener = document.activeElement as HTMLElement | null;
      revealed = false;
      void openModal(el, cancel).then(() => {
        // After a rotation the new secret has the focus; otherwise go back.
        if (!revealed) restoreFocus(el, opener);
      });
    },
  };
}

function testOutcome(d: WebhookDelivery): HTMLElement {
  const delivered = d.status === "delivered";
  const code = d.lastStatusCode != null ? `HTTP ${d.lastStatusCode}` : "";
  let text: string;
  if (delivered) text = code ? `The receiver answered ${code}.` : "The receiver accepted it.";
  else if (code && d.lastError) text = d.lastError.startsWith(code) ? `The receiver answered ${d.lastError}.` : `The receiver answered ${code}: ${d.lastError}`;
  else if (code) text = `The receiver answered ${code}.`;
  else text = d.lastError ?? "No answer from the receiver.";
  return h(
    "p",
    { id: "webhook-test-outcome", class: "test-outcome", "data-status": d.status, "data-delivery-id": d.deliveryId },
    h("span", { class: "visually-hidden" }, "Test event: "),
    statusBadge(d.status),
    " ",
    h("span", { id: "webhook-test-detail" }, text),
  );
}

function statusBadge(status: string): HTMLElement {
  return h("span", { class: `badge delivery-${status}`, "data-status": status }, STATUS_LABELS[status] ?? status);
}

// ---- delivery log

/** deliveryLog is the log's card; onNewest gets the newest delivery after each load. */
function deliveryLog(client: Client, fail: Fail, onNewest: (d: WebhookDelivery) => void) {
  const err = errorBox("deliveries-error");
  const status = h("span", { id: "deliveries-status", class: "muted small", role: "status" });
  const refresh = h("button", { id: "deliveries-refresh", type: "button", class: "button secondary small" }, "Refresh");
  const area = h("div", { id: "deliveries-area", "aria-busy": "true" }, h("p", { class: "muted" }, "Loading deliveries…"));
  const names = new Map<string, string>();
  let namesLoaded = false;

  async function projectNames(list: WebhookDelivery[]): Promise<void> {
    if (namesLoaded || !list.some((d) => d.projectId)) return;
    namesLoaded = true;
    try {
      const { projects } = await client.listProjects(100);
      for (const p of projects) names.set(p.id, p.name);
    } catch {
      // Names are a nicety: the id still links to the project.
    }
  }

  async function load(focusId?: string): Promise<void> {
    area.setAttribute("aria-busy", "true");
    refresh.disabled = true;
    try {
      const { deliveries } = await client.webhookDeliveries(LOG_LIMIT);
      await projectNames(deliveries);
      err.hide();
      replace(area, table(deliveries));
      if (deliveries[0]) onNewest(deliveries[0]);
      const n = deliveries.length;
      status.textContent = n ? `${n} ${n === 1 ? "delivery" : "deliveries"}, newest first${n === LOG_LIMIT ? ` (the latest ${LOG_LIMIT})` : ""}. Updated ${formatDate(new Date().toISOString())}.` : "";
      if (focusId) {
        const btn = area.querySelector<HTMLButtonElement>(`tr[data-delivery-id="${CSS.escape(focusId)}"] button.redeliver`);
        if (btn) btn.focus();
        else document.getElementById("deliveries-h")?.focus();
      }
    } catch (e) {
      fail(e, err.show);
    } finally {
      area.setAttribute("aria-busy", "false");
      refresh.disabled = false;
    }
  }
  refresh.addEventListener("click", () => void load());

  async function redeliver(d: WebhookDelivery, btn: HTMLButtonElement): Promise<void> {
    btn.disabled = true;
    err.hide();
    try {
      const { delivery } = await client.redeliverWebhook(d.deliveryId);
      announce(`Redelivery of the ${eventLabel(d.event)} event queued: ${STATUS_LABELS[delivery.status] ?? delivery.status}.`);
      await load(delivery.deliveryId === d.deliveryId ? d.deliveryId : delivery.deliveryId);
    } catch (e) {
      btn.disabled = false;
      fail(e, err.show);
    }
  }

  function table(list: WebhookDelivery[]): HTMLElement {
    if (!list.length) return h("p", { id: "deliveries-empty", class: "muted" }, "No deliveries yet. Send a test event, or finish an export in a project.");
    const heads = ["Time", "Event", "Project", "Revision", "Status", "Attempts", "Last response", "Next attempt", ""];
    return h(
      "div",
      { class: "table-wrap" },
      h(
        "table",
        // Explicit roles: narrow screens show each row as a block, which
        // would otherwise cost the table its semantics in some browsers.
        { id: "deliveries-table", class: "data deliveries", role: "table" },
        h("caption", { class: "visually-hidden" }, "Webhook deliveries, newest first"),
        h(
          "thead",
          { role: "rowgroup" },
          h("tr", { role: "row" }, ...heads.map((t) => h("th", { scope: "col", role: "columnheader" }, t ? t : h("span", { class: "visually-hidden" }, "Actions")))),
        ),
        h("tbody", { id: "deliveries-body", role: "rowgroup" }, ...list.map((d) => row(d, heads))),
      ),
    );
  }

  function row(d: WebhookDelivery, heads: string[]): HTMLElement {
    const btn = h("button", { type: "button", class: "button secondary small redeliver", "aria-label": `Redeliver the ${eventLabel(d.event)} event of ${formatDate(d.createdAt)}` }, "Redeliver");
    btn.addEventListener("click", () => void redeliver(d, btn));
    const name = d.projectId ? names.get(d.projectId) : undefined;
    const cells: HTMLElement[] = [
      h("td", { class: "delivery-time" }, formatDate(d.createdAt)),
      h("td", { class: "delivery-event" }, eventLabel(d.event)),
      h(
        "td",
        { class: "delivery-project" },
        d.projectId ? h("a", { href: `#/projects/${encodeURIComponent(d.projectId)}`, title: d.projectId }, name ?? h("code", null, d.projectId.slice(0, 8))) : "—",
      ),
      h("td", { class: "num" }, d.irRevision ?? "—"),
      h("td", null, statusBadge(d.status)),
      h("td", { class: "num delivery-attempts" }, d.attempts),
      h("td", { class: "delivery-response" }, responseOf(d)),
      h("td", { class: "delivery-next" }, d.status === "pending" && d.nextAttemptAt ? formatDate(d.nextAttemptAt) : "—"),
      h("td", { class: "delivery-actions" }, btn),
    ];
    // data-label names the cell where narrow screens stack a row.
    cells.forEach((c, i) => heads[i] && c.setAttribute("data-label", heads[i]));
    cells.forEach((c) => c.setAttribute("role", "cell"));
    return h("tr", { role: "row", "data-delivery-id": d.deliveryId, "data-status": d.status, "data-event": d.event }, ...cells);
  }

  const el = h(
    "section",
    { id: "deliveries", class: "card", "aria-labelledby": "deliveries-h" },
    h("div", { class: "output-head" }, h("h2", { id: "deliveries-h", tabindex: -1 }, "Delivery log"), h("div", { class: "form-actions" }, status, refresh)),
    h("p", { class: "muted small" }, "CaptionQA retries a failed delivery by itself; Next attempt says when. Redeliver queues a delivery again now."),
    err.el,
    area,
  );
  return { el, load };
}

/** responseOf is the last attempt's answer: the HTTP status and any error, in one block. */
function responseOf(d: WebhookDelivery): HTMLElement {
  const code = d.lastStatusCode != null ? `HTTP ${d.lastStatusCode}` : "";
  // An error that already starts with the status ("HTTP 500 Internal Server Error") stands alone.
  const err = d.lastError ?? "";
  return h(
    "div",
    null,
    code && !err.startsWith(code) ? h("span", { class: "mono delivery-code" }, code) : null,
    err ? h("span", { class: err.startsWith(code) && code ? "delivery-error mono" : "delivery-error" }, err) : null,
    !code && !err ? "—" : null,
  );
}

function eventLabel(e: string): string {
  return EVENT_LABELS[e] ?? e;
}
