// Account: tier, entitlements, today's usage against the cap, and the
// storage the account keeps against its quota.

import { messageOf, type Client } from "../api/client";
import type { Profile, Usage } from "../api/types";
import { formatDate, h, replace } from "../dom";
import { sizeText } from "./media_format";

const TIERS: Record<string, string> = { free_plus: "Free+", pro: "Pro" };

const FEATURES: Record<string, string> = {
  API_V1: "v1 API",
  API_KEYS: "API keys",
  PRO_WORKSPACE: "Pro workspace",
  ADVANCED_EXPORTS: "Advanced exports (templates)",
  caption_drift: "Caption drift",
  caption_extract: "Caption extract",
  caption_render: "Caption render",
  explain_ai: "ExplainAI",
};

export function accountPage(client: Client): HTMLElement {
  const body = h("div", { id: "account", "aria-busy": "true" }, h("p", { class: "muted" }, "Loading account…"));
  void Promise.all([client.me(), client.usage()])
    .then(([me, usage]) => replace(body, profileCard(me), usageCard(usage), storageCard(usage.storage)))
    .catch((e) => replace(body, h("div", { id: "account-error", class: "alert", role: "alert" }, messageOf(e))))
    .finally(() => body.setAttribute("aria-busy", "false"));
  return body;
}

function profileCard(me: Profile): HTMLElement {
  return h(
    "section",
    { class: "card", "aria-labelledby": "profile-h" },
    h("h2", { id: "profile-h" }, "Profile"),
    h(
      "dl",
      { class: "meta" },
      h("div", null, h("dt", null, "E-mail"), h("dd", { id: "account-email" }, me.email)),
      h("div", null, h("dt", null, "Tier"), h("dd", null, h("span", { id: "account-tier", class: "badge tier" }, TIERS[me.tier] ?? me.tier))),
      h("div", null, h("dt", null, "Account id"), h("dd", null, h("code", null, me.userKey))),
    ),
    h("h3", null, "Entitlements"),
    me.features.length
      ? h("ul", { id: "account-features", class: "chips" }, ...me.features.map((f) => h("li", { "data-feature": f }, FEATURES[f] ?? f)))
      : h("p", { id: "account-features", class: "muted" }, "No entitlements."),
  );
}

function usageCard(u: Usage): HTMLElement {
  const pct = u.cap > 0 ? Math.min(100, Math.round((u.usedToday / u.cap) * 100)) : 0;
  const text = `${u.usedToday} of ${u.cap} runs used today · ${u.remainingToday} left`;
  return h(
    "section",
    { class: "card", "aria-labelledby": "usage-h" },
    h("h2", { id: "usage-h" }, "Today's usage"),
    h("p", { id: "usage-text" }, text),
    h("progress", { id: "usage-bar", max: u.cap || 1, value: u.usedToday, "aria-label": "Runs used today", "aria-valuetext": text }),
    h("p", { class: "muted", id: "usage-resets" }, `Resets at ${formatDate(u.resetsAt)} (UTC midnight). Only successful runs count. ${pct}% used.`),
  );
}

function storageCard(s: Usage["storage"]): HTMLElement {
  const pct = s.quotaBytes > 0 ? Math.min(100, Math.round((s.usedBytes / s.quotaBytes) * 100)) : 0;
  const text = `${sizeText(s.usedBytes)} of ${sizeText(s.quotaBytes)} stored · ${pct}%`;
  const part = (label: string, id: string, n: number) => h("div", null, h("dt", null, label), h("dd", { id }, sizeText(n)));
  return h(
    "section",
    { class: "card", "aria-labelledby": "storage-h" },
    h("h2", { id: "storage-h" }, "Storage"),
    h("p", { id: "storage-text" }, text),
    h("progress", { id: "storage-bar", max: s.quotaBytes || 1, value: s.usedBytes, "aria-label": "Storage used", "aria-valuetext": text }),
    h(
      "dl",
      { class: "meta" },
      part("Exports", "storage-artifacts", s.artifactsBytes),
      part("Media", "storage-media", s.mediaBytes),
      part("Timeline revisions", "storage-revisions", s.revisionsBytes),
    ),
    h(
      "p",
      { class: "muted", id: "storage-note" },
      "Exports are kept 30 days. Deleting a project frees its exports, media and revisions at once. An export or upload that would pass the quota is refused.",
    ),
  );
}
