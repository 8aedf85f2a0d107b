// Account: tier, entitlements, today's usage against the cap.

import { messageOf, type Client } from "../api/client";
import type { Profile, Usage } from "../api/types";
import { formatDate, h, replace } from "../dom";

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
    .then(([me, usage]) => replace(body, profileCard(me), usageCard(usage)))
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
