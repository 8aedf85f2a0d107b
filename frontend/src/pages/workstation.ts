// The caption workstation (#/projects/ID/edit, or .../edit/N on cue N):
// the project's media in a
// player with the draft's captions over it, the timeline with the
// programme and the playhead, and the editable cue list. Every edit is
// kept locally (it survives a reload) and re-checked against the preset
// (and the programme, when the media was analysed) through
// POST /api/v1/projects/{id}/check, debounced, which counts no run of the
// daily pool; Save stores the draft as the next
// revision, under the revision lock. Keyboard: see KEYS.

import { ApiError, messageOf, type Client } from "../api/client";
import { PRESETS, type Diagnostic, type ProjectDetail } from "../api/types";
import type { Cue } from "../captions";
import { announce, h, replace } from "../dom";
import { PRESET_LABELS } from "../ui/labels";
import { errorBox } from "../ui/notice";
import { programmeOf, type Programme } from "../ui/programme";
import { timeline, type Timeline } from "../ui/timeline";
import { CUE_LIST_KEYS, cueList, type CueList, type KeyBinding, type Problem } from "../workstation/cuelist";
import { conflictNotice, mergedNotice } from "../workstation/conflict";
import { Draft } from "../workstation/draft";
import type { Player } from "../workstation/player";
import { mediaPlayer } from "../workstation/preview";
import { snapToFrame, type FrameRate } from "../workstation/timecode";
import { MediaApi, type MediaSession } from "./media_api";
import { findProgrammeIn } from "./programme_find";
import { driftView } from "./projects";

/** CHECK_DELAY_MS is how long the draft rests after an edit before it is checked again. */
const CHECK_DELAY_MS = 700;
/** SNAP_MS is how near a shot change a dragged cue edge lands on it. */
const SNAP_MS = 250;
/** MIN_VIEW_MS is the narrowest stretch the timeline zooms to. */
const MIN_VIEW_MS = 2000;
/** LONG_CUES is how many cues make a project long; it opens on its first LONG_VIEW_MS. */
const LONG_CUES = 2000;
const LONG_VIEW_MS = 5 * 60_000;

/** KEYS are the page's shortcuts, for its help overlay (the list's own follow); read-only. */
export const KEYS: readonly KeyBinding[] = [
  { keys: "Space or K", action: "Play or pause (outside a text field)" },
  { keys: "J / L", action: "Shuttle back a little / play, faster on each press" },
  { keys: "← / →", action: "One frame back / forward" },
  { keys: "I / O", action: "Set the selected cue's in / out time to the playhead" },
  { keys: "N / P", action: "Next / previous cue with a problem" },
  { keys: "Ctrl+S", action: "Save as the next revision" },
  { keys: "+ / − / 0", action: "Zoom the timeline in / out / to the whole programme" },
  { keys: "?", action: "Show or hide this help" },
];

export function workstationPage(client: Client, id: string): HTMLElement {
  const err = errorBox("ws-error");
  const body = h("div", { id: "ws-body", "aria-busy": "true" }, h("p", { class: "muted" }, "Opening the editor…"));
  const page = h(
    "div",
    { id: "workstation", class: "workstation" },
    h("p", null, h("a", { id: "ws-back", href: `#/projects/${encodeURIComponent(id)}` }, "← Back to the project")),
    err.el,
    body,
  );
  void open(client, id, body, (m) => err.show(m)).finally(() => body.setAttribute("aria-busy", "false"));
  return page;
}

/** cuesOf is the draft's cues as the timeline and the player read them. */
function cuesOf(d: Draft): Cue[] {
  return d.list().map((c) => ({ startMs: c.startMs, endMs: c.endMs, text: c.text }));
}

async function open(client: Client, id: string, body: HTMLElement, showError: (m: string) => void): Promise<void> {
  let d: ProjectDetail;
  try {
    d = await client.getProject(id);
  } catch (e) {
    replace(body);
    showError(e instanceof ApiError && e.status === 404 ? "This project does not exist, or it belongs to another account." : messageOf(e));
    return;
  }
  const { draft, restored } = Draft.open(JSON.stringify(d.ir ?? { version: 1, cues: [] }), { projectId: id, baseRevision: d.irRevision });
  const api = new MediaApi(client);
  // One listing serves both: the analysed media and the one to play.
  const uploads = await api.listMedia(id).catch(() => [] as MediaSession[]);
  const found = await findProgrammeIn(api, uploads);
  const media = uploads.filter((m) => m.status === "completed").sort((a, b) => (b.completedAt ?? "").localeCompare(a.completedAt ?? ""))[0] ?? null;
  const prog: Programme | undefined = found ? programmeOf(found.analysis.analysis) : undefined;
  const a = found?.analysis.analysis;
  const rate: FrameRate | null = a?.video ? { num: a.video.frameRate.num, den: a.video.frameRate.den } : null;

  let play: Player | null = null;
  if (media) {
    try {
      play = await mediaPlayer(api, client, id, media, rate, `The programme, ${media.filename}, with the draft's captions`);
    } catch {
      play = null; // expired or not playable: the editor works on timing alone
    }
  }

  // ---- state shared by the parts
  let diags: Diagnostic[] = [];
  let selected = 0;
  const status = h("span", { id: "ws-status", class: "muted small", role: "status" });
  const checkStatus = h("span", { id: "ws-check", class: "muted small", role: "status" });
  const preset = h("select", { id: "ws-preset" }, ...PRESETS.map((p) => h("option", { value: p }, PRESET_LABELS[p])));
  void client.ownPresets().then((names) => names.forEach((n) => preset.appendChild(h("option", { value: n }, `${n} (your preset)`))));
  const tlHolder = h("div", { id: "ws-timeline" });
  let tl: Timeline;
  const list: CueList = cueList(draft, { rate });
  const select = (i: number) => {
    selected = Math.max(0, Math.min(i, draft.count - 1));
    tl.mark(selected);
    list.select(selected);
    const c = draft.count ? draft.cue(selected) : null;
    if (play && c) play.seek(c.startMs);
  };
  list.onSelect((i) => {
    selected = i;
    tl.mark(i);
  });
  // A dragged time lands on a shot change within SNAP_MS, else on a frame.
  const shots = prog?.shotChanges ?? [];
  const snap = (ms: number) => {
    let best = ms;
    let gap = SNAP_MS;
    for (const t of shots) {
      if (Math.abs(t - ms) <= gap) {
        gap = Math.abs(t - ms);
        best = t;
      }
    }
    return best !== ms ? best : rate ? snapToFrame(ms, rate) : Math.round(ms / 10) * 10;
  };
  const edit = { snap, onRetime: (i: number, startMs: number, endMs: number) => select(draft.setTimes(i, startMs, endMs)) };
  // Zoom: the timeline shows view (all of it when undefined), centred on
  // the playhead (or the selected cue) when zooming, following the
  // playhead while it plays.
  // A long project opens on its first minutes: drawing every cue of it
  // on each edit is what would slow the editor down.
  let view: { fromMs: number; toMs: number } | undefined = draft.count > LONG_CUES ? { fromMs: 0, toMs: LONG_VIEW_MS } : undefined;
  const totalMs = () => Math.max(prog?.durationMs ?? 0, ...draft.list().slice(-1).map((c) => c.endMs), 1000);
  const zoom = (factor: number) => {
    const total = totalMs();
    const span = Math.min(total, Math.max(MIN_VIEW_MS, ((view ? view.toMs - view.fromMs : total) * factor)));
    if (span >= total) {
      view = undefined;
    } else {
      const c = draft.count ? draft.cue(selected) : null;
      const at = play ? play.timeMs() : (c?.startMs ?? 0);
      const from = Math.max(0, Math.min(total - span, at - span / 2));
      view = { fromMs: from, toMs: from + span };
    }
    drawTimeline();
  };
  const zoomIn = h("button", { id: "ws-zoom-in", type: "button", class: "button secondary small", "aria-label": "Zoom in on the timeline" }, "+");
  const zoomOut = h("button", { id: "ws-zoom-out", type: "button", class: "button secondary small", "aria-label": "Zoom out" }, "−");
  const zoomAll = h("button", { id: "ws-zoom-all", type: "button", class: "button secondary small" }, "Whole programme");
  zoomIn.addEventListener("click", () => zoom(0.5));
  zoomOut.addEventListener("click", () => zoom(2));
  zoomAll.addEventListener("click", () => zoom(Infinity));
  const drawTimeline = () => {
    tl = timeline(cuesOf(draft), diags, select, { programme: prog, label: "Draft", edit, view });
    replace(tlHolder, tl.el);
    tl.mark(selected);
    if (play) tl.playhead(play.timeMs());
  };
  drawTimeline();
  play?.setCues(cuesOf(draft));
  // #/projects/ID/edit/N opens the editor on cue N (a report's "Go to cue").
  const wanted = /\/edit\/(\d+)/.exec(location.hash);
  play?.onTime((ms) => {
    if (view && (ms < view.fromMs || ms > view.toMs)) {
      const span = view.toMs - view.fromMs;
      const from = Math.max(0, Math.min(totalMs() - span, ms - span / 10));
      view = { fromMs: from, toMs: from + span };
      drawTimeline();
    }
    tl.playhead(ms);
  });

  // ---- live QA
  let timer = 0;
  let seq = 0;
  const check = async () => {
    const mine = ++seq;
    checkStatus.textContent = "Checking…";
    const started = performance.now();
    try {
      const r = await client.checkDraft(id, { ir: draft.toIR(), preset: preset.value });
      if (mine !== seq) return; // a newer edit's check is on its way
      // A finding may be in both lists (a suggestion the report counts too).
      const seen = new Set<string>();
      diags = [...r.report.diagnostics, ...(r.suggestions ?? [])].filter((x) => {
        const k = `${x.code}\u0000${x.cueIndex ?? ""}\u0000${x.message}`;
        if (seen.has(k)) return false;
        seen.add(k);
        return true;
      });
      const byCue = new Map<number, Problem[]>();
      for (const x of diags) {
        if (x.cueIndex === undefined) continue;
        const l = byCue.get(x.cueIndex) ?? [];
        l.push({ code: x.code, severity: x.severity, message: x.message });
        byCue.set(x.cueIndex, l);
      }
      list.setProblems(byCue);
      drawTimeline();
      const n = diags.length;
      checkStatus.textContent = `Checked: ${n} ${n === 1 ? "finding" : "findings"}.`;
      checkStatus.dataset.findings = String(n);
      // The check's round trip (the engine's run and the network), for
      // the browser tests' figures.
      checkStatus.dataset.ms = String(Math.round(performance.now() - started));
    } catch (e) {
      if (mine === seq) checkStatus.textContent = `The check failed: ${messageOf(e)}`;
    }
  };
  const schedule = () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => void check(), CHECK_DELAY_MS);
  };
  preset.addEventListener("change", () => void check());

  // ---- saving
  const save = h("button", { id: "ws-save", type: "button", class: "button primary" }, "Save");
  const undo = h("button", { id: "ws-undo", type: "button", class: "button secondary small" }, "Undo");
  const redo = h("button", { id: "ws-redo", type: "button", class: "button secondary small" }, "Redo");
  const conflict = h("div", { id: "ws-conflict" });
  const refresh = () => {
    save.disabled = !draft.dirty;
    undo.disabled = !draft.canUndo;
    redo.disabled = !draft.canRedo;
    status.textContent = draft.dirty ? `Unsaved changes on revision ${draft.baseRevision}, kept in this browser.` : `Revision ${draft.baseRevision}, saved.`;
  };
  const savedDiff = h("div", { id: "ws-saved-diff", "aria-live": "polite" });
  const doSave = async () => {
    if (!draft.dirty) return;
    save.disabled = true;
    const ir = draft.toIR();
    const from = draft.baseRevision;
    try {
      // What the save changes, as the drift diff of the new revision
      // against its base; asked first, while the base is current. A plan
      // without caption drift, or a base gone stale, saves without it.
      const diff = await client.diffProjectIR(id, ir, from).catch(() => null);
      const p = await client.putIR(id, ir, from);
      draft.markSaved(p.irRevision);
      replace(conflict);
      // What the notices said of the unsaved edits is over.
      notices.remove();
      replace(savedDiff, diff ? driftView(diff, { heading: `Revision ${p.irRevision} against revision ${from}:`, candidate: `Revision ${p.irRevision}` }) : null);
      announce(`Saved as revision ${p.irRevision}.`);
    } catch (e) {
      if (e instanceof ApiError && e.status === 409) {
        replace(conflict, await conflictNotice(client, id, draft, () => list.flush(), () => location.reload()));
      } else {
        showError(messageOf(e));
      }
    } finally {
      refresh();
    }
  };
  save.addEventListener("click", () => void doSave());
  undo.addEventListener("click", () => draft.undo());
  redo.addEventListener("click", () => draft.redo());
  // Leaving keeps every edit: the list's pending text first, then the
  // draft's journal, at once rather than after its autosave delay. A
  // reload or a closed tab asks first while edits are unsaved.
  const keep = () => {
    list.flush();
    draft.flush();
  };
  window.addEventListener("hashchange", keep, { once: true });
  window.addEventListener("pagehide", keep);
  window.addEventListener("beforeunload", (e) => {
    if (!document.body.contains(body)) return;
    keep();
    if (draft.dirty && !draft.discarded) e.preventDefault();
  });

  draft.onChange(() => {
    refresh();
    play?.setCues(cuesOf(draft));
    drawTimeline();
    schedule();
  });

  // ---- keyboard
  const help = h(
    "div",
    { id: "ws-help", class: "ws-help", role: "dialog", "aria-label": "Keyboard shortcuts", hidden: true },
    h("h3", null, "Keyboard"),
    h("dl", null, ...[...KEYS, ...CUE_LIST_KEYS].flatMap((b) => [h("dt", null, h("kbd", null, b.keys)), h("dd", null, b.action)])),
  );
  const problemCues = () => [...new Set(diags.filter((x) => x.cueIndex !== undefined).map((x) => x.cueIndex as number))].sort((x, y) => x - y);
  document.addEventListener("keydown", function onKey(e: KeyboardEvent) {
    // A page left behind (the route changed) lets go of the keys.
    if (!document.body.contains(body)) {
      document.removeEventListener("keydown", onKey);
      return;
    }
    const typing = e.target instanceof HTMLInputElement || e.target instanceof HTMLTextAreaElement || e.target instanceof HTMLSelectElement;
    const mod = e.ctrlKey || e.metaKey;
    if (mod && e.key.toLowerCase() === "z") {
      e.preventDefault();
      if (e.shiftKey) draft.redo();
      else draft.undo();
      return;
    }
    if (mod && e.key.toLowerCase() === "y") {
      e.preventDefault();
      draft.redo();
      return;
    }
    if (mod && e.key.toLowerCase() === "s") {
      e.preventDefault();
      void doSave();
      return;
    }
    if (typing || mod || e.altKey) return;
    const c = draft.count ? draft.cue(selected) : null;
    switch (e.key) {
      case " ":
      case "k":
        play?.toggle();
        break;
      case "j":
        play?.shuttle(-1);
        break;
      case "l":
        play?.shuttle(Math.min(4, (play.video.paused ? 0 : play.video.playbackRate) + 1));
        break;
      case "ArrowLeft":
        play?.step(-1);
        break;
      case "ArrowRight":
        play?.step(1);
        break;
      case "i":
        if (play && c) select(draft.setTimes(selected, Math.round(play.timeMs()), Math.max(c.endMs, Math.round(play.timeMs()) + 1)));
        break;
      case "o":
        if (play && c && play.timeMs() > c.startMs) select(draft.setTimes(selected, c.startMs, Math.round(play.timeMs())));
        break;
      case "n":
      case "p": {
        const l = problemCues();
        const next = e.key === "n" ? l.find((i) => i > selected) : [...l].reverse().find((i) => i < selected);
        if (next !== undefined) select(next);
        break;
      }
      case "?":
        help.hidden = !help.hidden;
        break;
      case "+":
      case "=":
        zoom(0.5);
        break;
      case "-":
        zoom(2);
        break;
      case "0":
        zoom(Infinity);
        break;
      default:
        return;
    }
    e.preventDefault();
  });

  const notices = h("div", { id: "ws-notices" }, mergedNotice(id, draft, select) ?? (restored ? h("p", { id: "ws-restored", class: "alert info" }, "Your unsaved edits of this revision were restored from this browser.") : null));
  replace(
    body,
    h(
      "div",
      { class: "output-head" },
      h("h2", { id: "ws-title", tabindex: -1 }, d.name),
      h("div", { class: "form-actions" }, undo, redo, save, status),
    ),
    notices,
    conflict,
    savedDiff,
    h("div", { class: "ws-top" }, play ? play.el : h("p", { id: "ws-no-media", class: "muted" }, "No playable media: the editor works on timing alone. Upload the programme on Media & Jobs to see the picture."), help),
    h("div", { class: "form-actions ws-zoom", role: "group", "aria-label": "Timeline zoom" }, zoomOut, zoomIn, zoomAll),
    tlHolder,
    h("div", { class: "form-row" }, h("div", { class: "field" }, h("label", { for: "ws-preset" }, "Check against"), preset), checkStatus),
    list.el,
  );
  refresh();
  if (wanted) select(Number(wanted[1]) - 1);
  void check();
}
