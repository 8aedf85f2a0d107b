// Human labels for wire values. Status is always text plus a symbol,
// never colour alone.

import type { DeliveryStatus, Diagnostic, FixProfile, Preset, Severity, StandardId } from "../api/types";
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
  netflix: "Netflix (TTML)",
  bbc: "BBC (EBU-TT-D)",
  "broadcast-scc": "US broadcast (SCC)",
  "ebu-stl": "EBU STL (teletext)",
  amazon: "Amazon Prime Video (TTML)",
};

export const FIX_LABELS: Record<FixProfile, string> = {
  "warn-only": "Warn only (no changes)",
  "layout-preserve-breaks": "Fix timing, keep line breaks",
  "auto-split-sentences": "Re-wrap at sentences",
  "auto-split-cps": "Fix reading speed",
  resync: "Resync to the programme's speech",
  "snap-shot-changes": "Snap cue edges to shot changes",
};

/**
 * CODE_LABELS are short human names of the checks against the programme
 * (docs/media.md, Checking against the programme), read-only; other codes
 * show as their code alone.
 */
export const CODE_LABELS: Readonly<Record<string, string>> = {
  sync_offset: "Captions out of sync",
  sync_drift: "Captions drift out of sync",
  caption_early: "Caption before the speech",
  caption_late: "Caption after the speech",
  uncaptioned_speech: "Speech without a caption",
  caption_without_speech: "Caption without speech",
  shot_change_near: "Cue edge near a shot change",
};

/** codeLabel is a code's human name, or "" when it has none. */
export function codeLabel(code: string): string {
  return CODE_LABELS[code] ?? "";
}

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

/** statusTag renders a delivery status as an inline symbol + text. */
export function statusTag(s: DeliveryStatus): HTMLElement {
  const v = STATUS[s] ?? { icon: "?", text: s };
  return h("span", { class: `badge status-${s}`, "data-status": s }, h("span", { "aria-hidden": "true", class: "badge-icon" }, v.icon), " ", v.text);
}

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

// ---- impact and delivery: two questions about one finding
//
// The API's severity says whether the preset enforces a rule ("error": a
// delivery with the finding is not ready) or only suggests it
// ("warning"); readers' own findings use it for what they left out. It
// says nothing of how much a viewer suffers, so the UI shows two tags:
// "Impact" (impactOf) and "Blocks delivery" (blocksTag).

export type Impact = "high" | "medium" | "low";

export const IMPACTS: readonly Impact[] = ["high", "medium", "low"];

export const IMPACT_LABELS: Record<Impact, string> = { high: "High", medium: "Medium", low: "Low" };

/** IMPACT_RANK sorts high first. */
export const IMPACT_RANK: Record<Impact, number> = { high: 0, medium: 1, low: 2 };

/**
 * DROPPED are the reader codes that, as errors, mean the reader left
 * content out: a viewer never sees it.
 */
const DROPPED = new Set([
  "invalid_timestamp",
  "end_before_start",
  "malformed_block",
  "invalid_document",
  "content_not_displayed",
  "unsupported_feature",
  "invalid_counter",
  "invalid_setting",
]);

/** LOW are findings a viewer barely notices, or that writing the delivery repairs. */
const LOW = new Set([
  "gap_too_small",
  "line_unbalanced",
  "duration_too_long",
  "missing_language_tag",
  "empty_cue",
  "strip_styling",
  "encoding_not_utf8",
  "missing_webvtt_header",
  "non_standard_syntax",
  "control_character",
  "whitespace",
]);

/** ratio is value over limit, or NaN when either is missing or the limit is not positive. */
function ratio(d: Diagnostic): number {
  return d.value !== undefined && d.limit !== undefined && d.limit > 0 ? d.value / d.limit : NaN;
}

/** byRatio: at least 1.5× the limit high, at least 1.2× medium, else low; unmeasured medium. */
function byRatio(r: number): Impact {
  if (Number.isNaN(r)) return "medium";
  return r >= 1.5 ? "high" : r >= 1.2 ? "medium" : "low";
}

/**
 * impactOf says what a finding does to a viewer: high, medium or low. It
 * is the one place the UI decides it, from the code and how far the value
 * is past its limit:
 *
 *   - reading_speed_high, presentation_rate_high, line_too_long: at least
 *     1.5× the limit high, at least 1.2× medium, else low (no figures:
 *     medium);
 *   - too_many_lines: two or more lines over the limit high, else medium;
 *   - duration_too_short: on screen for less than half the minimum high,
 *     less than three quarters medium, else low (no figures: medium);
 *   - overlapping_cues, cues_out_of_order, empty_input, no_cues (nothing
 *     to show): high;
 *   - content the reader left out (a reader's error of invalid_timestamp,
 *     end_before_start, malformed_block, invalid_document,
 *     content_not_displayed, unsupported_feature, invalid_counter,
 *     invalid_setting): high; the same codes as warnings (read past, or
 *     for content_not_displayed cut short) low, content_not_displayed
 *     medium;
 *   - position_out_of_bounds: medium;
 *   - against the programme: sync_offset, sync_drift (every cue off) and
 *     uncaptioned_speech (speech a viewer cannot follow) high;
 *     caption_early and caption_late by how far past the limit, as
 *     reading speed; caption_without_speech medium; shot_change_near
 *     low;
 *   - invalid_markup: medium when enforced (the viewer may read the tag as
 *     text), low as a reader's warning (writing repairs it);
 *   - gap_too_small, line_unbalanced, duration_too_long,
 *     missing_language_tag, empty_cue, strip_styling and the markup and
 *     encoding repairs (encoding_not_utf8, missing_webvtt_header,
 *     non_standard_syntax, control_character): low;
 *   - any other code: medium when enforced (severity error), else low.
 */
export function impactOf(d: Diagnostic): Impact {
  switch (d.code) {
    case "reading_speed_high":
    case "presentation_rate_high":
    case "line_too_long":
      return byRatio(ratio(d));
    case "too_many_lines":
      if (d.value === undefined || d.limit === undefined) return "medium";
      return d.value - d.limit >= 2 ? "high" : "medium";
    case "duration_too_short": {
      const r = ratio(d);
      if (Number.isNaN(r)) return "medium";
      return r < 0.5 ? "high" : r < 0.75 ? "medium" : "low";
    }
    case "overlapping_cues":
    case "cues_out_of_order":
    case "empty_input":
    case "no_cues":
      return "high";
    case "sync_offset":
    case "sync_drift":
    case "uncaptioned_speech":
      return "high";
    case "caption_early":
    case "caption_late":
      return byRatio(ratio(d));
    case "position_out_of_bounds":
    case "caption_without_speech":
      return "medium";
    case "shot_change_near":
      return "low";
    case "invalid_markup":
      return d.severity === "error" ? "medium" : "low";
  }
  if (DROPPED.has(d.code)) {
    if (d.severity === "error") return "high";
    return d.code === "content_not_displayed" ? "medium" : "low";
  }
  if (LOW.has(d.code)) return "low";
  return d.severity === "error" ? "medium" : "low";
}

/** impactTag renders an impact as bars + word, coloured by impact (never colour alone). */
export function impactTag(i: Impact): HTMLElement {
  return h(
    "span",
    { class: `impact impact-${i}`, "data-impact": i, title: `Impact on viewers: ${IMPACT_LABELS[i].toLowerCase()}` },
    h("span", { class: "impact-bars", "aria-hidden": "true" }, h("i"), h("i"), h("i")),
    IMPACT_LABELS[i],
  );
}

/** KIND_LABELS word a severity as what it means for the delivery. */
export const KIND_LABELS: Record<Severity, string> = { error: "Blocks delivery", warning: "Suggestion", info: "Note" };

/**
 * blocksTag says whether a finding stops delivery: "Blocks delivery" for
 * an enforced rule (severity error), else "Suggestion" or "Note".
 */
export function blocksTag(s: Severity): HTMLElement {
  if (s === "error") {
    return h(
      "span",
      { class: "blocks", "data-blocks": "true", title: "The preset enforces this rule: a delivery with it is not ready" },
      h("span", { class: "blocks-icon", "aria-hidden": "true" }, "✕"),
      KIND_LABELS.error,
    );
  }
  return h("span", { class: "kind-tag muted", "data-blocks": "false" }, KIND_LABELS[s] ?? s);
}

export const CLAUSE_LABELS: Record<string, { icon: string; text: string }> = {
  pass: { icon: "✓", text: "Pass" },
  fail: { icon: "✕", text: "Fail" },
  not_evaluated: { icon: "–", text: "Not evaluated" },
};

/** ACTION_LABELS name what a change (report.fixes' action) did, for grouping. */
export const ACTION_LABELS: Record<string, string> = {
  strip: "Styling or placement removed",
  trim_end: "Ends moved earlier",
  extend_end: "Ends moved later",
  move_start: "Starts moved earlier",
  remove: "Cues left out",
  add_break: "Line breaks added",
  rewrap: "Text re-wrapped",
  split: "Cues split",
  whitespace: "Spaces and blank lines tidied",
  repair_range: "Time ranges repaired",
  reorder: "Cues put in order",
  clamp: "Positions brought into the frame",
  repair_markup: "Markup repaired",
  rewrite_time: "Time stamps rewritten",
  keep_delivery: "Kept as in the delivery (a fix made it worse)",
  write_header: "Header written",
  reencode: "Re-encoded as UTF-8",
  set_language: "Language declared",
  rewrite_arrow: "Arrows rewritten",
  rewrite_lookalike: "Markup-like text written with look-alikes",
  strip_control: "Control characters removed",
};
