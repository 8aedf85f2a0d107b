// Human labels for wire values. Status is always text plus a symbol,
// never colour alone.

import type { DeliveryStatus, FixProfile, Preset, Severity, StandardId } from "../api/types";
import { h } from "../dom";

export const PRESET_LABELS: Record<Preset, string> = {
  youtube: "YouTube (SRT)",
  tiktok: "TikTok (SRT)",
  html5: "HTML5 video (WebVTT)",
  generic: "Generic (SRT)",
  lms: "LMS (TTML)",
  "instagram-reels": "Instagram Reels (SRT)",
  linkedin: "LinkedIn (SRT)",
  vimeo: "Vimeo (WebVTT)",
  facebook: "Facebook (SRT)",
  zoom: "Zoom (WebVTT)",
  "developer-json": "Developer JSON (IR v1)",
};

export const FIX_LABELS: Record<FixProfile, string> = {
  "warn-only": "Warn only (no changes)",
  "layout-preserve-breaks": "Fix timing, keep line breaks",
  "auto-split-sentences": "Re-wrap at sentences",
  "auto-split-cps": "Fix reading speed",
};

export const STANDARD_LABELS: Record<StandardId, string> = {
  "wcag-2.1-aa": "WCAG 2.1 AA",
  "en-301-549": "EN 301 549",
  "fcc-79.1": "FCC 47 CFR 79.1",
  dcmp: "DCMP Captioning Key",
};

const STATUS: Record<DeliveryStatus, { icon: string; text: string }> = {
  ready: { icon: "✓", text: "Ready" },
  will_adapt: { icon: "↻", text: "Will adapt" },
  needs_attention: { icon: "!", text: "Needs attention" },
};

/** statusBadge renders a delivery status as symbol + text. */
export function statusBadge(id: string, label: string, s: DeliveryStatus): HTMLElement {
  const v = STATUS[s] ?? { icon: "?", text: s };
  return h(
    "div",
    { class: "status-card" },
    h("span", { class: "status-label" }, label),
    h(
      "span",
      { id, class: `badge status-${s}`, "data-status": s },
      h("span", { "aria-hidden": "true", class: "badge-icon" }, v.icon),
      " ",
      v.text,
    ),
  );
}

const SEV_ICON: Record<Severity, string> = { error: "✕", warning: "▲", info: "i" };

/** severityTag renders a severity as symbol + word. */
export function severityTag(s: Severity): HTMLElement {
  return h("span", { class: `sev sev-${s}` }, h("span", { "aria-hidden": "true", class: "sev-icon" }, SEV_ICON[s] ?? "•"), " ", s);
}

export const CLAUSE_LABELS: Record<string, { icon: string; text: string }> = {
  pass: { icon: "✓", text: "Pass" },
  fail: { icon: "✕", text: "Fail" },
  not_evaluated: { icon: "–", text: "Not evaluated" },
};
