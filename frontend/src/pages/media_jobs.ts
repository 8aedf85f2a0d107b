// The Jobs card of the Media & Jobs page: a project's video jobs (renders,
// extracts and analyses), newest first, with live progress. While any job is queued or running the card
// asks for each of those about once a second (GET /api/v1/jobs/{id}) and
// stops when none is left, or when the page is gone. Status changes are
// announced once each; progress is not (it is on screen and in the bar).
// A finished job offers Download (its signed link), Play (the video in a
// <video> element: the link serves ranges) and, for an inline sidecar,
// its text with Copy. A succeeded extract says which timeline revision
// its captions became, links to the project, and offers its IR and SRT;
// a succeeded analysis sums up what it found (getMediaAnalysis).

import { ApiError, messageOf, type Client } from "../api/client";
import type { Preset } from "../api/types";
import { announce, formatDate, h, replace } from "../dom";
import { copyText } from "../download";
import { PRESET_LABELS } from "../ui/labels";
import { analysisSummary } from "../ui/programme";
import type { Job, JobArtifact, MediaApi, MediaSession } from "./media_api";
import { aboutText, bytesText, languageName, spanText, subtitleTracks } from "./media_format";

const POLL_MS = 1000;
/** After a failed poll the next waits longer, up to this. */
const POLL_MAX_MS = 8000;
const HIDDEN_POLL_MS = 5000;

export const MODE_LABELS: Record<string, string> = {
  sidecar: "Sidecar",
  mux_soft: "Soft subtitles",
  burn_in: "Burn-in",
  preview: "Playable preview (WebM)",
};

/** EXTRACT_SOURCES name an extract's source after "Extract · ". */
const EXTRACT_SOURCES: Record<string, string> = {
  soft_track: "subtitle track",
  broadcast_cc: "closed captions (CEA-608)",
  ocr_burned: "burned-in captions (OCR)",
};

const STATUS: Record<string, { icon: string; text: string }> = {
  queued: { icon: "○", text: "Queued" },
  running: { icon: "▶", text: "Running" },
  succeeded: { icon: "✓", text: "Succeeded" },
  failed: { icon: "✕", text: "Failed" },
  canceled: { icon: "–", text: "Canceled" },
};

const ERROR_LABELS: Record<string, string> = {
  ffmpeg_failed: "ffmpeg failed",
  timeout: "Took too long",
  canceled: "Canceled",
  interrupted: "Interrupted",
  media_expired: "Media expired",
  revision_gone: "Timeline revision gone",
  processing_failed: "Captions could not be processed",
  no_video_stream: "No video stream",
  no_captions: "No captions in the track",
  no_closed_captions: "No closed captions found",
  no_captions_detected: "No captions detected",
};

/** needsFeature tells whether an error is a video entitlement missing. */
export function needsFeature(e: unknown, ...features: string[]): boolean {
  return e instanceof ApiError && e.status === 403 && features.includes(String(e.details.missingFeature));
}

/**
 * setBusy marks a button busy while its request runs: aria-disabled, not
 * disabled, so the keyboard focus stays on it. isBusy guards its handler.
 */
export function setBusy(btn: HTMLButtonElement, on: boolean): void {
  if (on) btn.setAttribute("aria-disabled", "true");
  else btn.removeAttribute("aria-disabled");
}

export function isBusy(btn: HTMLButtonElement): boolean {
  return btn.getAttribute("aria-disabled") === "true";
}

export function isActive(j: Job): boolean {
  return j.status === "queued" || j.status === "running";
}

function isExtract(j: Job): boolean {
  return j.kind === "extract";
}

function isAnalyze(j: Job): boolean {
  return j.kind === "analyze";
}

/** extractSource is what an extract reads: "subtitle track 2" (counted from 1). */
function extractSource(j: Job): string {
  const what = EXTRACT_SOURCES[j.mode] ?? j.mode.replace(/_/g, " ");
  return j.mode === "soft_track" ? `${what} ${(j.trackIndex ?? 0) + 1}` : what;
}

/** jobTitle names a job in words: "Soft subtitles, MP4 (mov_text)", "Extract · subtitle track 1". */
export function jobTitle(j: Job): string {
  if (isExtract(j)) return `Extract · ${extractSource(j)}`;
  if (isAnalyze(j)) return "Analysis";
  const mode = MODE_LABELS[j.mode] ?? j.mode;
  if (j.mode === "mux_soft") return `${mode}, ${(j.container ?? "mp4").toUpperCase()}${j.subtitleCodec ? ` (${j.subtitleCodec})` : ""}`;
  if (j.mode === "sidecar") return `${mode}, ${j.outputDelivery === "inline" ? "inline" : "file"}`;
  return mode;
}

/** finishedText says how long a final job ran: "done in 4 s", "canceled after 3 s". */
function finishedText(j: Job): string {
  const start = j.startedAt ? new Date(j.startedAt).getTime() : NaN;
  const end = j.finishedAt ? new Date(j.finishedAt).getTime() : NaN;
  const took = isNaN(start) || isNaN(end) ? "" : spanText((end - start) / 1000);
  if (j.status === "succeeded") return took ? `done in ${took}` : "done";
  if (j.status === "canceled") return took ? `canceled after ${took}` : "canceled before it started";
  if (j.status === "failed") return took ? `failed after ${took}` : "failed";
  return "";
}

/** jobWords name a job in a sentence: "Burn-in render", "Extract of subtitle track 1", "Analysis". */
function jobWords(j: Job): string {
  if (isAnalyze(j)) return "Analysis";
  return isExtract(j) ? `Extract of ${extractSource(j)}` : `${jobTitle(j)} render`;
}

/** clockOf is a time of day, "14:05". */

function clockOf(iso: string): string {
  const d = new Date(iso);
  return isNaN(d.getTime()) ? iso : d.toLocaleTimeString(undefined, { hour: "2-digit", minute: "2-digit" });
}

function isVideo(a: JobArtifact): boolean {
  return a.contentType?.startsWith("video/") || /\.(mp4|m4v|mov|mkv|webm)$/i.test(a.filename);
}

/** runningEta guesses the time left from the progress seen since the job was first seen running. */
class Eta {
  private first = new Map<string, { t: number; p: number }>();
  left(j: Job): number | null {
    if (j.status !== "running") {
      this.first.delete(j.jobId);
      return null;
    }
    const now = performance.now();
    const f = this.first.get(j.jobId);
    if (!f) {
      this.first.set(j.jobId, { t: now, p: j.progress });
      return null;
    }
    const dp = j.progress - f.p;
    const dt = (now - f.t) / 1000;
    if (dp <= 0.01 || dt < 1.5) return null;
    return ((1 - j.progress) * dt) / dp;
  }
}

interface Row {
  job: Job;
  tr: HTMLTableRowElement;
  update(j: Job): void;
}

export interface JobsCard {
  el: HTMLElement;
  /** load reads the project's jobs; watch starts polling when one is active. */
  load(): Promise<void>;
  /** added puts a just-started job at the top and follows it. */
  added(jobId: string): Promise<void>;
  /** destroy stops polling and the player (the page was left). */
  destroy(): void;
}

export interface JobsOptions {
  /** mediaOf is the project's media of an object key, when listed. */
  mediaOf(objectKey: string): MediaSession | undefined;
  /** gate takes an error that replaces the page (video off here). */
  gate(e: unknown): boolean;
  /** extracted is told of an extract seen to succeed: the project has a new revision. */
  extracted(j: Job): void;
}

export function jobsCard(api: MediaApi, client: Client, projectId: string, opts: JobsOptions): JobsCard {
  const { mediaOf, gate } = opts;
  const rows = new Map<string, Row>();
  const eta = new Eta();
  let timer: number | null = null;
  let delay = POLL_MS;
  let destroyed = false;

  const err = h("div", { id: "jobs-error", class: "alert", role: "alert", hidden: true });
  const showErr = (m: string) => {
    err.hidden = false;
    replace(err, m);
  };
  const status = h("span", { id: "jobs-status", class: "muted small" });
  const refresh = h("button", { id: "jobs-refresh", type: "button", class: "button secondary small" }, "Refresh");
  const tbody = h("tbody", { id: "jobs-body" });
  const table = h(
    "table",
    { id: "jobs-table", class: "data jobs-table", hidden: true },
    h("caption", { class: "visually-hidden" }, "Jobs of this project, newest first"),
    h(
      "thead",
      null,
      h(
        "tr",
        null,
        h("th", { scope: "col" }, "Job"),
        h("th", { scope: "col" }, "Status"),
        h("th", { scope: "col", class: "job-progress-h" }, "Progress"),
        h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, "Actions")),
      ),
    ),
    tbody,
  );
  const empty = h(
    "p",
    { id: "jobs-empty", class: "muted", hidden: true },
    "No jobs yet. Start a render, extract captions or analyse a video above; the progress shows here, and what a job makes can be played or downloaded.",
  );
  const loading = h("p", { id: "jobs-loading", class: "muted" }, "Loading jobs…");
  const area = h("div", { id: "jobs-area", "aria-busy": "true" }, loading, h("div", { class: "table-wrap" }, table), empty);
  const preview = previewPanel(client, showErr);

  refresh.addEventListener("click", () => isBusy(refresh) || void load());

  function schedule(): void {
    if (!destroyed && timer === null && [...rows.values()].some((r) => isActive(r.job))) {
      // A tab in the background asks less often.
      timer = window.setTimeout(() => void tick(), document.hidden ? Math.max(delay, HIDDEN_POLL_MS) : delay);
    }
    // "off": no poll is due and none is under way (a tick ends here), so no
    // job request follows until a job starts; tests wait for it.
    area.dataset.polling = timer === null ? "off" : "on";
  }

  async function tick(): Promise<void> {
    timer = null;
    if (destroyed || !card.isConnected) {
      destroy();
      return;
    }
    const active = [...rows.values()].filter((r) => isActive(r.job));
    let failed = "";
    await Promise.all(
      active.map(async (r) => {
        try {
          apply(await api.getJob(r.job.jobId));
        } catch (e) {
          failed = messageOf(e);
        }
      }),
    );
    if (failed) {
      delay = Math.min(delay * 2, POLL_MAX_MS);
      status.textContent = `Could not refresh the jobs: ${failed} Trying again.`;
    } else {
      delay = POLL_MS;
      status.textContent = "";
    }
    schedule();
  }

  /** apply shows a job's new state: the row in place, and a status change announced once. */
  function apply(j: Job): void {
    const r = rows.get(j.jobId);
    if (!r) return;
    const was = r.job.status;
    r.update(j);
    if (was !== j.status) changed(j);
  }

  /** changed announces a job's new status; an extract's success also tells the page. */
  function changed(j: Job): void {
    const what = jobWords(j);
    if (j.status === "succeeded" && isExtract(j)) {
      announce(`${what} succeeded: its captions became timeline revision ${j.resultRevision ?? "?"} of the project.`);
      opts.extracted(j);
    } else if (j.status === "succeeded" && isAnalyze(j)) {
      announce(`${what} succeeded: the project's captions are now checked against the programme.`);
    } else if (j.status === "succeeded") announce(`${what} succeeded: ready to ${j.mode === "sidecar" ? "view or download" : "play or download"}.`);
    else if (j.status === "failed") announce(`${what} failed: ${j.error?.message ?? "no reason given"}.`);
    else announce(`${what} is ${STATUS[j.status]?.text.toLowerCase() ?? j.status}.`);
  }

  function render(list: Job[]): void {
    const seen = new Set<string>();
    const ordered = list.map((j) => {
      seen.add(j.jobId);
      const r = rows.get(j.jobId);
      if (r) {
        const was = r.job.status;
        r.update(j);
        if (was !== j.status) changed(j);
        return r;
      }
      const nr = jobRow(j);
      rows.set(j.jobId, nr);
      return nr;
    });
    for (const [id, r] of rows) {
      if (!seen.has(id)) {
        r.tr.remove();
        rows.delete(id);
      }
    }
    // Move only rows out of place, so a focused button keeps its focus.
    let ref: ChildNode | null = tbody.firstChild;
    for (const r of ordered) {
      if (r.tr === ref) ref = ref.nextSibling;
      else tbody.insertBefore(r.tr, ref);
    }
    table.hidden = rows.size === 0;
    empty.hidden = rows.size > 0;
  }

  async function load(): Promise<void> {
    area.setAttribute("aria-busy", "true");
    setBusy(refresh, true);
    try {
      const list = await api.listJobs(projectId);
      err.hidden = true;
      render(list);
    } catch (e) {
      if (gate(e)) return;
      showErr(messageOf(e));
    } finally {
      loading.hidden = true;
      area.setAttribute("aria-busy", "false");
      setBusy(refresh, false);
      schedule();
    }
  }

  async function added(jobId: string): Promise<void> {
    try {
      const j = await api.getJob(jobId);
      const known = rows.has(jobId);
      const list = [j, ...[...rows.values()].map((r) => r.job).filter((x) => x.jobId !== jobId)];
      render(list);
      // A quick job may have ended before it was first seen.
      if (!known && !isActive(j)) changed(j);
    } catch {
      await load();
    }
    schedule();
  }

  function destroy(): void {
    destroyed = true;
    if (timer !== null) window.clearTimeout(timer);
    timer = null;
    area.dataset.polling = "off";
    preview.close(false);
  }

  // ---- one row

  function jobRow(initial: Job): Row {
    const titleCell = h("td", { class: "job-title" });
    const statusCell = h("td", { class: "job-status" });
    const bar = h("progress", { class: "job-bar", max: 100, value: 0 });
    const pct = h("span", { class: "job-pct" });
    const note = h("span", { class: "job-eta muted small" });
    const progressCell = h("td", { class: "job-progress" }, h("div", { class: "job-progress-line" }, bar, pct), note);
    const actions = h("td", { class: "job-actions" });
    const tr = h("tr", { "data-job-id": initial.jobId }, titleCell, statusCell, progressCell, actions) as HTMLTableRowElement;
    const row: Row = { job: initial, tr, update };
    let shownStatus = "";

    function update(j: Job): void {
      row.job = j;
      tr.dataset.status = j.status;
      tr.dataset.mode = j.mode;
      tr.dataset.kind = j.kind;
      const m = j.mediaObjectKey ? mediaOf(j.mediaObjectKey) : undefined;
      const name = m?.filename ?? "";
      // An extract: the file and the track's language; a render: preset, file and the revision it renders.
      const sub = isAnalyze(j)
        ? [name]
        : isExtract(j)
          ? [name, j.mode === "soft_track" ? languageName(subtitleTracks(m?.probe).find((s) => s.subtitleIndex === (j.trackIndex ?? 0))?.language) : ""]
          : [PRESET_LABELS[j.preset as Preset] ?? j.preset, name, `revision ${j.irRevision}`];
      replace(
        titleCell,
        h("span", { class: "job-name" }, jobTitle(j)),
        h(
          "span",
          { class: "job-sub muted small" },
          sub.filter(Boolean).join(" · "),
          " · ",
          h("time", { class: "job-when", datetime: j.createdAt, title: `Started ${formatDate(j.createdAt)}` }, clockOf(j.createdAt)),
        ),
      );
      const p = Math.max(0, Math.min(1, j.progress || 0));
      const percent = j.status === "succeeded" ? 100 : Math.floor(p * 100);
      bar.value = percent;
      bar.setAttribute("aria-label", `Progress of the ${jobWords(j).toLowerCase()}`);
      bar.setAttribute("aria-valuetext", `${percent}%`);
      pct.textContent = `${percent}%`;
      if (j.status === "queued") {
        bar.removeAttribute("value"); // indeterminate while it waits
        note.textContent = typeof j.estimatedWaitSeconds === "number" ? `starts in ${aboutText(j.estimatedWaitSeconds)}` : "waiting for a worker";
        pct.textContent = "";
      } else if (j.status === "running") {
        const left = eta.left(j);
        note.textContent = left === null ? "working…" : `${aboutText(left)} left`;
      } else {
        eta.left(j);
        note.textContent = finishedText(j);
      }
      progressCell.dataset.progress = String(percent);
      if (j.status !== shownStatus) {
        shownStatus = j.status;
        showStatus(j);
        showActions(j);
      }
    }

    function showStatus(j: Job): void {
      const s = STATUS[j.status] ?? { icon: "?", text: j.status };
      replace(
        statusCell,
        h("span", { class: `badge job-${j.status}`, "data-status": j.status }, h("span", { class: "badge-icon", "aria-hidden": "true" }, s.icon), " ", s.text),
        j.status === "succeeded" && isExtract(j) && j.resultRevision
          ? h(
              "div",
              { class: "job-result" },
              h("span", { class: "job-result-text" }, "Became revision ", h("strong", { class: "job-result-revision" }, String(j.resultRevision))),
              h("a", { class: "job-open", href: `#/projects/${encodeURIComponent(j.projectId)}` }, "Open the project"),
            )
          : null,
        j.status === "succeeded" && isAnalyze(j) ? analysisResult(j) : null,
        j.status === "failed" && j.error
          ? h(
              "div",
              { class: "job-error" },
              h("code", { class: "job-error-code" }, j.error.code),
              " ",
              h("span", { class: "job-error-label" }, ERROR_LABELS[j.error.code] ?? ""),
              h("span", { class: "job-error-message" }, j.error.message),
            )
          : null,
      );
    }

    /** analysisResult sums up what a succeeded analysis found, read once it is shown. */
    function analysisResult(j: Job): HTMLElement {
      const key = j.mediaObjectKey ?? "";
      // An upload's objectKey is media/<uploadId> (docs/media.md).
      const uploadId = (key ? mediaOf(key)?.uploadId : undefined) ?? key.replace(/^media\//, "");
      const text = h("span", { class: "job-analysis-text muted small" }, "Reading the analysis…");
      const el = h(
        "div",
        { class: "job-result job-analysis", id: `analysis-summary-${j.jobId}`, "data-upload-id": uploadId },
        text,
        h("a", { class: "job-open", href: `#/projects/${encodeURIComponent(j.projectId)}` }, "See it on the project's timeline"),
      );
      void (async () => {
        try {
          const a = await api.analysis(uploadId);
          replace(text, analysisSummary(a.analysis));
          text.classList.remove("muted");
          el.dataset.shotChanges = String(a.analysis.video?.shotChanges?.length ?? 0);
          el.dataset.speech = String(a.analysis.audio?.speech?.length ?? 0);
        } catch (e) {
          replace(text, `The analysis could not be read: ${messageOf(e)}`);
        }
      })();
      return el;
    }

    function showActions(j: Job): void {
      const hadFocus = actions.contains(document.activeElement);
      const label = `${jobWords(j).toLowerCase()} of ${clockOf(j.createdAt)}`;
      const buttons: HTMLButtonElement[] = [];
      if (isActive(j)) {
        const cancel = h("button", { type: "button", class: "button secondary small job-cancel", "aria-label": `Cancel the ${label}` }, "Cancel");
        cancel.addEventListener("click", () => void doCancel(cancel));
        buttons.push(cancel);
      }
      if (j.status === "succeeded") {
        const arts = j.artifacts ?? [];
        const video = arts.find(isVideo);
        if (video) {
          const play = h("button", { type: "button", class: "button primary small job-play", "aria-label": `Play ${video.filename}`, "data-artifact-id": video.artifactId }, "Play");
          play.addEventListener("click", () => void preview.play(video, play));
          buttons.push(play);
        }
        if (j.output !== undefined && j.output !== null && j.outputDelivery === "inline") {
          const show = h("button", { type: "button", class: "button secondary small job-show", "aria-label": `Show the output of the ${label}` }, "Show output");
          show.addEventListener("click", () => preview.text(j, show));
          buttons.push(show);
        }
        // An extract makes two files (its timeline as SRT and as IR JSON): "Download [SRT] [JSON]".
        const byKind = isExtract(j);
        const ordered = byKind ? [...arts].sort((x, y) => Number(/\.json$/i.test(x.filename)) - Number(/\.json$/i.test(y.filename))) : arts;
        for (const a of ordered) {
          const kind = byKind ? (/\.([a-z0-9]+)$/i.exec(a.filename)?.[1].toUpperCase() ?? "") : "";
          const what = kind === "JSON" ? "JSON (the timeline as CaptionQA IR)" : kind;
          const dl = h(
            "button",
            {
              type: "button",
              class: `button secondary small job-download${kind ? " job-download-typed" : ""}`,
              "data-artifact-id": a.artifactId,
              "data-filename": a.filename,
              "aria-label": kind ? `Download ${what}: ${a.filename}, ${bytesText(a.bytes)}` : `Download ${a.filename}, ${bytesText(a.bytes)}`,
              title: kind ? `${a.filename}, ${bytesText(a.bytes)}` : null,
            },
            kind || "Download",
          );
          dl.addEventListener("click", () => void download(a, dl));
          buttons.push(dl);
        }
      }
      // Typed downloads stay together on one line: "Download [SRT] [JSON]".
      const typed = buttons.filter((x) => x.classList.contains("job-download-typed"));
      const rest = buttons.filter((x) => !typed.includes(x));
      replace(
        actions,
        buttons.length
          ? h(
              "div",
              { class: "job-buttons" },
              ...rest,
              typed.length ? h("span", { class: "job-downloads" }, h("span", { class: "job-download-label muted small", "aria-hidden": "true" }, "Download"), ...typed) : null,
            )
          : null,
      );
      if (hadFocus) (buttons[0] ?? document.getElementById("jobs-h"))?.focus();
    }

    async function doCancel(btn: HTMLButtonElement): Promise<void> {
      if (isBusy(btn)) return;
      setBusy(btn, true);
      err.hidden = true;
      try {
        apply(await api.cancelJob(row.job.jobId));
      } catch (e) {
        if (e instanceof ApiError && e.status === 409) {
          // It finished first: show how.
          try {
            apply(await api.getJob(row.job.jobId));
          } catch {
            // The next refresh shows it.
          }
          announce("The job had already finished.");
        } else {
          showErr(messageOf(e));
        }
        setBusy(btn, false);
      }
      schedule();
    }

    async function download(a: JobArtifact, btn: HTMLButtonElement): Promise<void> {
      if (isBusy(btn)) return;
      setBusy(btn, true);
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
        showErr(messageOf(e));
      } finally {
        setBusy(btn, false);
      }
    }

    update(initial);
    return row;
  }

  const card = h(
    "section",
    { id: "jobs-card", class: "card", "aria-labelledby": "jobs-h" },
    h("div", { class: "output-head" }, h("h2", { id: "jobs-h", tabindex: -1 }, "Jobs"), h("div", { class: "form-actions" }, status, refresh)),
    err,
    area,
    preview.el,
  );
  return { el: card, load, added, destroy };
}

// ---- the preview: a player or an inline output

function previewPanel(client: Client, showErr: (m: string) => void) {
  const heading = h("h3", { id: "job-preview-h", tabindex: -1 });
  const body = h("div", { id: "job-preview-body" });
  const closeBtn = h("button", { id: "job-preview-close", type: "button", class: "button secondary small" }, "Close");
  const el = h(
    "section",
    { id: "job-preview", class: "job-preview", "aria-labelledby": "job-preview-h", hidden: true },
    h("div", { class: "output-head" }, heading, closeBtn),
    body,
  );
  let opener: HTMLElement | null = null;

  /** reveal moves the focus to the panel's heading and scrolls the whole panel into view. */
  function reveal(): void {
    heading.focus({ preventScroll: true });
    el.scrollIntoView({ block: "nearest" });
  }

  function close(focusBack = true): void {
    const v = body.querySelector("video");
    if (v) {
      v.pause();
      v.removeAttribute("src");
      v.load();
    }
    replace(body);
    el.hidden = true;
    if (focusBack && opener?.isConnected) opener.focus();
    opener = null;
  }
  closeBtn.addEventListener("click", () => close());

  async function play(a: JobArtifact, btn: HTMLButtonElement): Promise<void> {
    if (isBusy(btn)) return;
    setBusy(btn, true);
    try {
      const link = await client.artifactLink(a.artifactId, 3600);
      close(false);
      opener = btn;
      heading.textContent = `Playing ${a.filename}`;
      const msg = h("p", { id: "job-video-status", class: "muted small", role: "status" });
      const video = h("video", { id: "job-video", class: "job-video", controls: true, preload: "metadata", playsinline: true, "aria-label": `${a.filename}, video` }) as HTMLVideoElement;
      video.addEventListener("loadedmetadata", () => {
        msg.textContent = `${Math.round(video.duration * 10) / 10} s, ${video.videoWidth}×${video.videoHeight}.`;
        // Its size is known now: show all of it.
        el.scrollIntoView({ block: "nearest" });
      });
      video.addEventListener("error", () => {
        msg.textContent = "This browser cannot play the file. Download it and open it in a player instead.";
      });
      video.src = link.url;
      replace(body, video, msg);
      el.hidden = false;
      reveal();
    } catch (e) {
      showErr(messageOf(e));
    } finally {
      setBusy(btn, false);
    }
  }

  function text(j: Job, btn: HTMLButtonElement): void {
    close(false);
    opener = btn;
    const outStatus = h("span", { id: "job-output-status", class: "muted small", role: "status" });
    const copy = h("button", { id: "job-output-copy", type: "button", class: "button secondary small" }, "Copy");
    const out = j.output ?? "";
    copy.addEventListener("click", async () => {
      const ok = await copyText(out);
      outStatus.textContent = ok ? "Copied to the clipboard." : "Copy failed: select the text and copy it by hand.";
    });
    heading.textContent = `Sidecar output · ${PRESET_LABELS[j.preset as Preset] ?? j.preset}`;
    replace(
      body,
      h("div", { class: "form-actions job-output-actions" }, copy, h("span", { class: "muted small" }, `${out.length.toLocaleString()} characters${j.outputContentType ? ` · ${j.outputContentType}` : ""}`), outStatus),
      h("pre", { id: "job-output", class: "output", tabindex: 0, "aria-label": "Output" }, out),
    );
    el.hidden = false;
    reveal();
  }

  return { el, play, text, close };
}
