// Media & Jobs (issues 16 and 17): for one project of the account, upload
// a video (signed PUTs, parts in parallel, resumable), see the media with
// what ffprobe found in it and when it expires, start a render (a sidecar
// caption file, soft subtitles muxed into the video, or burned in) or an
// extract (the captions of a subtitle track, of CEA-608 closed captions or
// burned into the picture, as the project's next timeline revision:
// media_extract.ts) or an analysis (shot changes, speech and waveform,
// which the project's checks then use: createAnalyzeJob), and follow the
// jobs live to Play, Download or copy what they made. Rendering needs caption_render, extracting
// caption_extract; uploads either.

import { ApiError, messageOf, type Client } from "../api/client";
import { FIX_PROFILES, PRESETS, type Project } from "../api/types";
import { announce, formatDate, h, replace } from "../dom";
import { errorBox } from "../ui/notice";
import { FIX_LABELS, PRESET_LABELS } from "../ui/labels";
import { askForPro, noticeCard } from "../ui/notice";
import { MediaApi, type MediaSession, type RenderMode, type RenderRequest } from "./media_api";
import { extractCard } from "./media_extract";
import { aboutText, queuedText, bytesText, containerName, durationText, durationWords, probeText, rateText, untilText } from "./media_format";
import { isBusy, jobsCard, needsFeature, setBusy } from "./media_jobs";
import { currentUpload, forgetUpload, pendingUploads, sameFile, setCurrentUpload, Upload, type UploadState } from "./media_upload";

const RENDER = "caption_render";
const EXTRACT = "caption_extract";
const LAST_PROJECT_KEY = "captionqa.mediaProject";
const ACCEPT = "video/*,.mp4,.m4v,.mov,.mkv,.webm,.ts,.mts,.m2ts,.mxf";

/**
 * videoOff tells whether an error is video switched off on this server
 * (no usable ffmpeg, or serve --video off): 503 without the retry hint
 * that a busy server gives.
 */
export function videoOff(e: unknown): boolean {
  return e instanceof ApiError && e.status === 503 && (e.details.reason === "video_off" || e.details.retryAfterSeconds === undefined);
}

function rememberProject(id: string): void {
  try {
    sessionStorage.setItem(LAST_PROJECT_KEY, id);
  } catch {
    // Only a convenience.
  }
}

function lastProject(): string {
  try {
    return sessionStorage.getItem(LAST_PROJECT_KEY) ?? "";
  } catch {
    return "";
  }
}

interface Features {
  render: boolean;
  extract: boolean;
  upload: boolean;
}

/** mediaPage renders the page; projectId (from #/media/ID) picks the project. */
export function mediaPage(client: Client, projectId: string | null): HTMLElement {
  const api = new MediaApi(client);
  const err = errorBox("media-error");
  const select = h("select", { id: "media-project", "aria-describedby": "media-project-info", disabled: true }, h("option", { value: "" }, "Loading projects…"));
  const info = h("p", { id: "media-project-info", class: "muted small" });
  const chooser = h(
    "section",
    { id: "media-project-card", class: "card media-project", "aria-labelledby": "media-project-h" },
    h("h2", { id: "media-project-h", class: "visually-hidden" }, "Project"),
    h("div", { class: "media-project-row" }, h("div", { class: "field" }, h("label", { for: "media-project" }, "Project"), select), info),
  );
  const work = h("div", { id: "media-work", "aria-busy": "true" }, h("p", { id: "media-loading", class: "muted" }, "Loading your projects…"));
  const page = h("div", { id: "media-page", class: "media-page" }, err.el, chooser, work);

  let view: { destroy(): void } | null = null;
  let projects: Project[] = [];
  let features: Features = { render: true, extract: true, upload: true };

  // The jobs poll and the upload's listener end with the page.
  const cleanup = () => {
    if (page.isConnected) return;
    view?.destroy();
    view = null;
    window.removeEventListener("hashchange", cleanup);
  };
  window.addEventListener("hashchange", cleanup);

  function open(id: string, focus: boolean): void {
    const p = projects.find((x) => x.id === id);
    if (!p) return;
    view?.destroy();
    select.value = p.id;
    rememberProject(p.id);
    history.replaceState(null, "", `#/media/${encodeURIComponent(p.id)}`);
    showInfo(p);
    // With video off here, the project is beside the point: the notice stands alone.
    const v = projectWork(api, client, p, features, () => (chooser.hidden = true), (np) => {
      // An extract made a revision: the header and the chooser say so.
      if (select.value === np.id) showInfo(np);
      const opt = [...select.options].find((o) => o.value === np.id);
      if (opt) opt.textContent = projectLabel(np);
    });
    view = v;
    replace(work, v.el);
    if (focus) announce(`Project ${p.name}: its media and jobs.`);
  }

  function showInfo(p: Project): void {
    replace(
      info,
      h(
        "span",
        { id: "media-project-revision", "data-revision": p.irRevision },
        p.status === "ready" ? `Timeline revision ${p.irRevision}, ${p.cueCount} ${p.cueCount === 1 ? "cue" : "cues"}. ` : "No timeline yet. ",
      ),
      h("a", { id: "media-project-open", href: `#/projects/${encodeURIComponent(p.id)}` }, "Open the project"),
    );
  }

  select.addEventListener("change", () => open(select.value, true));

  void (async () => {
    try {
      const [list, me] = await Promise.all([client.listProjects(100), client.me().catch(() => null)]);
      projects = list.projects;
      if (me) {
        const f = me.features ?? [];
        features = { render: f.includes(RENDER), extract: f.includes(EXTRACT), upload: f.includes(RENDER) || f.includes(EXTRACT) };
      }
      if (!features.render && !features.upload) {
        replace(chooser);
        chooser.hidden = true;
        replace(work, proGate("media-pro", "Video uploads and renders need Pro"));
        announce("Video uploads and renders need the Pro plan, which this account does not have.");
        return;
      }
      if (!projects.length) {
        replace(select, h("option", { value: "" }, "No projects yet"));
        replace(
          work,
          h(
            "section",
            { id: "media-no-projects", class: "card", "aria-labelledby": "media-no-projects-h" },
            h("h2", { id: "media-no-projects-h" }, "Start with a project"),
            h(
              "p",
              null,
              "Media and renders belong to a project: its caption timeline is what gets rendered. Create one from a caption file on the ",
              h("a", { id: "media-to-projects", href: "#/projects" }, "Projects page"),
              ", then come back here to upload its video.",
            ),
          ),
        );
        return;
      }
      replace(select, ...projects.map((p) => h("option", { value: p.id }, projectLabel(p))));
      select.disabled = false;
      const want = [projectId, lastProject()].find((id) => id && projects.some((p) => p.id === id));
      const first = projects.find((p) => p.status === "ready") ?? projects[0];
      if (projectId && want !== projectId) err.show("That project does not exist, or it belongs to another account. Showing another one.");
      open(want ?? first.id, false);
    } catch (e) {
      replace(work);
      replace(select, h("option", { value: "" }, "Projects could not be loaded"));
      err.show(messageOf(e));
    } finally {
      work.setAttribute("aria-busy", "false");
    }
  })();
  return page;
}

function projectLabel(p: Project): string {
  return p.status === "ready" ? p.name : `${p.name} (no timeline)`;
}

function videoOffNote(): HTMLElement {
  return noticeCard(
    "media-off",
    "Video is off on this server",
    [
      "This CaptionQA server runs without video: ffmpeg is not installed or not usable there, or it was started with ",
      h("code", null, "--video off"),
      ". Media cannot be uploaded, and renders and extracts cannot run. Caption files still export as usual on the Projects page.",
    ],
    ["Ask the administrator to install ffmpeg (", h("code", null, "make deps"), " does) and restart the server."],
  );
}

function proGate(id: string, title: string): HTMLElement {
  return noticeCard(
    id,
    title,
    [
      "Uploading a video, rendering captions into it (soft subtitles or burned in) and extracting the captions it carries are video add-ons of the Pro plan (",
      h("code", null, RENDER),
      ", ",
      h("code", null, EXTRACT),
      "); this account does not have them. Caption files still export as usual on the Projects page.",
    ],
    askForPro(`${id}-account`),
  );
}

// ---- one project's work area

function projectWork(api: MediaApi, client: Client, p: Project, features: Features, onVideoOff: () => void, onProject: (p: Project) => void) {
  let media: MediaSession[] = [];
  let gated = false;
  let destroyed = false;
  const mediaOf = (key: string) => media.find((m) => m.objectKey === key);
  /** gate replaces the work area when the error says video is off here. */
  const gate = (e: unknown): boolean => {
    if (!videoOff(e)) return false;
    if (!gated) {
      gated = true;
      destroy();
      replace(el, videoOffNote());
      onVideoOff();
      announce("Video is off on this server.");
    }
    return true;
  };
  const list = mediaCard(api, p.id, (m) => {
    media = m;
    render.setMedia(m);
    extract.setMedia(m);
  }, gate, (jobId) => void jobs.added(jobId));
  const jobs = jobsCard(api, client, p.id, { mediaOf, gate, extracted: () => void refreshProject() });
  const upload = uploadCard(api, p.id, features.upload, () => void list.load(), gate);
  const render = renderCard(api, p, features.render, (jobId) => void jobs.added(jobId), gate);
  const extract = extractCard(api, p, features.extract, (jobId) => void jobs.added(jobId), gate);
  const el = h("div", { class: "media-work" }, upload.el, list.el, render.el, extract.el, jobs.el);
  function destroy(): void {
    destroyed = true;
    upload.destroy();
    jobs.destroy();
  }
  /** refreshProject reads the project's header again after an extract made a revision. */
  async function refreshProject(): Promise<void> {
    try {
      const d = await client.getProject(p.id);
      if (destroyed) return;
      p.status = d.status;
      p.irRevision = d.irRevision;
      p.cueCount = d.cueCount;
      p.updatedAt = d.updatedAt;
      onProject(p);
      render.setProject(p);
      extract.setProject(p);
    } catch {
      // The header stays as it was; reloading the page shows the new revision.
    }
  }
  void list.load().then(() => (gated ? undefined : jobs.load()));
  return { el, destroy };
}

// ---- upload

function uploadCard(api: MediaApi, projectId: string, allowed: boolean, onUploaded: () => void, gate: (e: unknown) => boolean) {
  if (!allowed) return { el: proGate("upload-pro", "Video uploads need Pro"), destroy() {} };
  const err = errorBox("upload-error");
  const fileName = h("span", { id: "media-file-name", class: "file-name" }, "No file chosen");
  const input = h("input", {
    id: "media-file",
    type: "file",
    class: "visually-hidden",
    accept: ACCEPT,
    "aria-describedby": "media-file-hint",
    onchange: () => take(input.files?.[0]),
  });
  const drop = h(
    "div",
    { id: "media-drop", class: "drop media-drop" },
    input,
    h("label", { for: "media-file", class: "drop-label" }, h("span", { class: "button secondary" }, "Choose a video…")),
    h("p", { id: "media-file-hint", class: "muted" }, "or drop it here · MP4, MOV, MKV, WebM or MPEG-TS, up to 8 GiB · kept for 24 hours after the upload"),
    fileName,
  );
  drop.addEventListener("dragover", (e) => {
    e.preventDefault();
    drop.classList.add("dragging");
  });
  drop.addEventListener("dragleave", () => drop.classList.remove("dragging"));
  drop.addEventListener("drop", (e) => {
    e.preventDefault();
    drop.classList.remove("dragging");
    take(e.dataTransfer?.files?.[0]);
  });

  // Uploads begun earlier in this tab and not finished: choosing the same file resumes one.
  const pendingBox = h("div", { id: "upload-pending", class: "upload-pending", hidden: true });
  function showPending(): void {
    // The upload shown in the panel below is not offered twice.
    const list = pendingUploads(projectId).filter((x) => x.uploadId !== mine?.state.uploadId);
    pendingBox.hidden = list.length === 0;
    replace(
      pendingBox,
      ...list.slice(0, 3).map((x) => {
        const forget = h("button", { type: "button", class: "button secondary small upload-forget", "aria-label": `Forget the unfinished upload of ${x.filename}` }, "Forget");
        forget.addEventListener("click", () => {
          forgetUpload(x.uploadId);
          showPending();
          input.focus();
        });
        return h(
          "div",
          { class: "alert warning upload-pending-item", "data-upload-id": x.uploadId },
          h("p", null, h("strong", null, `“${x.filename}” (${bytesText(x.bytes)}) did not finish uploading. `), "Choose the same file again to resume: only the parts the server lacks are sent."),
          forget,
        );
      }),
    );
  }

  // The progress panel.
  const name = h("strong", { id: "upload-name" });
  const bar = h("progress", { id: "upload-bar", max: 1, value: 0, "aria-labelledby": "upload-name-label" });
  const percent = h("span", { id: "upload-percent", class: "upload-percent" });
  const stats = h("span", { id: "upload-stats", class: "muted small" });
  const state = h("p", { id: "upload-state", class: "upload-state" });
  const pauseBtn = h("button", { id: "upload-pause", type: "button", class: "button secondary small" }, "Pause");
  const resumeBtn = h("button", { id: "upload-resume", type: "button", class: "button primary small" }, "Resume");
  const dismissBtn = h("button", { id: "upload-dismiss", type: "button", class: "button secondary small" }, "Dismiss");
  const panel = h(
    "div",
    { id: "upload-panel", class: "upload-panel", hidden: true },
    h("p", { id: "upload-name-label", class: "upload-title" }, h("span", { class: "visually-hidden" }, "Upload of "), name),
    h("div", { class: "upload-bar-row" }, bar, percent),
    h("div", { class: "upload-meta" }, stats),
    state,
    h("div", { class: "form-actions" }, pauseBtn, resumeBtn, dismissBtn),
  );

  let unsubscribe: (() => void) | null = null;
  let mine: Upload | null = null;
  let focusNext: HTMLElement | null = null;

  function attach(u: Upload): void {
    unsubscribe?.();
    mine = u;
    let lastPhase = u.state.phase;
    let lastQuarter = Math.floor((u.state.sent / Math.max(1, u.state.total)) * 4);
    let handledDone = u.state.phase === "done";
    unsubscribe = u.subscribe((s) => {
      show(s);
      const quarter = Math.floor((s.sent / Math.max(1, s.total)) * 4);
      if (s.phase !== lastPhase) {
        lastPhase = s.phase;
        announce(phaseWords(s));
      } else if (s.phase === "uploading" && quarter > lastQuarter && quarter < 4) {
        announce(`Upload ${quarter * 25}% done.`);
      }
      lastQuarter = quarter;
      if (s.phase === "done" && !handledDone) {
        handledDone = true;
        input.value = "";
        fileName.textContent = "No file chosen";
        showPending();
        onUploaded();
      }
      if (s.phase === "stopped" && needsFeature(s.error, RENDER, EXTRACT)) {
        replace(card, proGate("upload-pro", "Video uploads need Pro"));
      } else if (s.phase === "stopped" && s.error && !gate(s.error)) {
        // A rejected file (ffmpeg cannot read it) shows in the list with the reason.
        if (s.error.status === 422) onUploaded();
        showPending();
      }
    });
  }

  function show(s: UploadState): void {
    panel.hidden = false;
    panel.dataset.phase = s.phase;
    panel.dataset.sent = String(s.sent);
    name.textContent = s.filename;
    const frac = s.total ? s.sent / s.total : 0;
    bar.max = Math.max(1, s.total);
    bar.value = s.sent;
    const pct = s.phase === "done" ? 100 : Math.min(99, Math.floor(frac * 100));
    bar.setAttribute("aria-valuetext", `${pct}%`);
    percent.textContent = `${pct}%`;
    const bits = [`${bytesText(s.sent)} of ${bytesText(s.total)}`];
    const rate = s.phase === "uploading" ? rateText(s.bytesPerSecond) : "";
    if (rate) bits.push(rate);
    if (rate && s.bytesPerSecond > 0 && s.total > s.sent) bits.push(`${aboutText((s.total - s.sent) / s.bytesPerSecond)} left`);
    if (s.partsTotal > 1) bits.push(`${s.partsDone} of ${s.partsTotal} parts`);
    stats.textContent = bits.join(" · ");
    state.className = `upload-state${s.phase === "stopped" ? " alert" : s.phase === "done" ? " upload-done" : ""}`;
    replace(state, ...stateLine(s));
    const busy = s.phase === "preparing" || s.phase === "uploading";
    const buttons = [resumeBtn, pauseBtn, dismissBtn];
    const focused = buttons.find((x) => x === document.activeElement);
    pauseBtn.hidden = !busy;
    resumeBtn.hidden = !((s.phase === "paused" || s.phase === "stopped") && s.canResume);
    dismissBtn.hidden = busy || s.phase === "completing" || !resumeBtn.hidden;
    // Pause and Resume trade places: the focus follows once the other
    // shows; a button that hides with the focus hands it to one that shows.
    if (focusNext && !focusNext.hidden) {
      focusNext.focus();
      focusNext = null;
    } else if (focused?.hidden) {
      (buttons.find((x) => !x.hidden) ?? input).focus();
    }
  }

  function stateLine(s: UploadState): (string | HTMLElement)[] {
    switch (s.phase) {
      case "preparing":
        return [s.uploadId ? "Asking the server which parts it has…" : "Opening the upload…"];
      case "uploading":
        if (s.retrying) return [`The connection failed: trying again in ${s.retrying.inSeconds} s (retry ${s.retrying.attempt} of ${s.retrying.of}).`];
        return [s.resumed ? "Resuming: sending only the parts the server lacks…" : "Uploading…"];
      case "completing":
        if (s.retrying) return [`The connection failed while finishing: trying again in ${s.retrying.inSeconds} s (retry ${s.retrying.attempt} of ${s.retrying.of}).`];
        return ["All parts sent. Assembling the file and reading its streams with ffprobe…"];
      case "paused":
        return ["Paused. The parts sent so far are kept: Resume sends the rest."];
      case "stopped":
        return [h("strong", null, "The upload stopped. "), s.message, s.canResume ? " Resume sends only the parts the server lacks; reloading the page keeps them too." : ""];
      case "done": {
        const m = s.session;
        return [
          h("strong", null, "Uploaded. "),
          m?.probe ? `${durationText(m.probe.durationSeconds)} · ${probeText(m.probe)}` : "",
          m?.mediaExpiresAt ? ` · kept until ${formatDate(m.mediaExpiresAt)}` : "",
        ];
      }
    }
  }

  function phaseWords(s: UploadState): string {
    switch (s.phase) {
      case "uploading":
        return s.resumed ? `Resuming the upload of ${s.filename}.` : `Uploading ${s.filename}.`;
      case "completing":
        return "All parts sent; checking the video.";
      case "paused":
        return "Upload paused.";
      case "stopped":
        return `The upload stopped: ${s.message}`;
      case "done":
        return `${s.filename} uploaded${s.session?.probe ? `: ${durationWords(s.session.probe.durationSeconds)}, ${probeText(s.session.probe)}` : ""}.`;
      default:
        return "Starting the upload.";
    }
  }

  function take(f: File | null | undefined): void {
    if (!f) return;
    err.hide();
    const cur = currentUpload();
    if (cur?.active) {
      err.show(
        cur.state.projectId === projectId
          ? `“${cur.state.filename}” is still uploading. Pause it or let it finish first.`
          : `“${cur.state.filename}” is uploading to another project. Let it finish, or pause it there, first.`,
      );
      return;
    }
    if (f.size === 0) {
      err.show(`“${f.name}” is empty.`);
      return;
    }
    fileName.textContent = `${f.name} (${bytesText(f.size)})`;
    const pending = pendingUploads(projectId).find((x) => sameFile(x, f));
    const u = new Upload(api, f, projectId, pending?.uploadId ?? "");
    setCurrentUpload(u);
    attach(u);
    showPending();
    void u.run();
  }

  pauseBtn.addEventListener("click", () => {
    focusNext = resumeBtn;
    mine?.pause();
  });
  resumeBtn.addEventListener("click", () => {
    if (!mine) return;
    focusNext = pauseBtn;
    void mine.run();
  });
  dismissBtn.addEventListener("click", () => {
    if (mine && currentUpload() === mine) setCurrentUpload(null);
    unsubscribe?.();
    unsubscribe = null;
    mine = null;
    panel.hidden = true;
    input.value = "";
    fileName.textContent = "No file chosen";
    showPending();
    input.focus();
  });

  const card = h(
    "section",
    { id: "upload-card", class: "card", "aria-labelledby": "upload-h" },
    h("h2", { id: "upload-h" }, "Upload a video"),
    err.el,
    pendingBox,
    drop,
    panel,
  );

  // An upload of this project still running (or finished) since the page was last here.
  const cur = currentUpload();
  if (cur && cur.state.projectId === projectId) attach(cur);
  showPending();

  return {
    el: card,
    destroy() {
      unsubscribe?.();
      unsubscribe = null;
    },
  };
}

// ---- media list

const MEDIA_STATUS: Record<string, { icon: string; text: string }> = {
  completed: { icon: "✓", text: "Ready" },
  pending: { icon: "↑", text: "Not finished" },
  rejected: { icon: "✕", text: "Rejected" },
  expired: { icon: "–", text: "Expired" },
};

function mediaCard(api: MediaApi, projectId: string, onList: (m: MediaSession[]) => void, gate: (e: unknown) => boolean, onAnalyze: (jobId: string) => void) {
  const err = errorBox("media-list-error");
  const tbody = h("tbody", { id: "media-body" });
  const heads = ["File", "Status", "Duration", "Streams", "Kept"];
  const table = h(
    "table",
    { id: "media-table", class: "data media-table", hidden: true },
    h("caption", { class: "visually-hidden" }, "Media of this project, newest first"),
    h(
      "thead",
      null,
      h("tr", null, ...heads.map((t) => h("th", { scope: "col" }, t)), h("th", { scope: "col" }, h("span", { class: "visually-hidden" }, "Actions"))),
    ),
    tbody,
  );
  const status = h("span", { id: "media-analyze-status", class: "muted small", role: "status" });

  /** analyze queues an analysis of a completed upload; the job shows in the Jobs card. */
  async function analyze(m: MediaSession, btn: HTMLButtonElement): Promise<void> {
    if (isBusy(btn)) return;
    setBusy(btn, true);
    err.hide();
    status.textContent = `Starting the analysis of ${m.filename}…`;
    try {
      const res = await api.analyze({ projectId, mediaObjectKey: m.objectKey });
      status.textContent = queuedText("Analysis", res);
      onAnalyze(res.jobId);
    } catch (e) {
      status.textContent = "";
      if (!gate(e)) err.show(messageOf(e));
    } finally {
      setBusy(btn, false);
    }
  }
  const loading = h("p", { id: "media-list-loading", class: "muted" }, "Loading media…");
  const empty = h(
    "p",
    { id: "media-empty", class: "muted", hidden: true },
    "No media in this project yet. Upload a video above; once ffprobe has read it, it shows here and can be rendered with the captions.",
  );
  const refresh = h("button", { id: "media-refresh", type: "button", class: "button secondary small" }, "Refresh");
  const area = h("div", { id: "media-area", "aria-busy": "true" }, loading, h("div", { class: "table-wrap" }, table), empty);

  async function load(): Promise<void> {
    area.setAttribute("aria-busy", "true");
    setBusy(refresh, true);
    try {
      const list = await api.listMedia(projectId);
      err.hide();
      replace(tbody, ...list.map((m) => mediaRow(m, analyze)));
      table.hidden = list.length === 0;
      empty.hidden = list.length > 0;
      onList(list);
    } catch (e) {
      if (!gate(e)) err.show(messageOf(e));
      onList([]);
    } finally {
      loading.hidden = true;
      area.setAttribute("aria-busy", "false");
      setBusy(refresh, false);
    }
  }
  refresh.addEventListener("click", () => isBusy(refresh) || void load());

  const el = h(
    "section",
    { id: "media-card", class: "card", "aria-labelledby": "media-h" },
    h("div", { class: "output-head" }, h("h2", { id: "media-h", tabindex: -1 }, "Media"), h("div", { class: "form-actions" }, status, refresh)),
    err.el,
    area,
  );
  return { el, load };
}

/** usable tells whether an upload is complete and still kept, so a job can read it. */
function usable(m: MediaSession): boolean {
  return m.status === "completed" && (!m.mediaExpiresAt || new Date(m.mediaExpiresAt).getTime() > Date.now());
}

function mediaRow(m: MediaSession, analyze: (m: MediaSession, btn: HTMLButtonElement) => void): HTMLElement {
  let action: HTMLElement | null = null;
  if (usable(m)) {
    const btn = h(
      "button",
      { id: `analyze-${m.uploadId}`, type: "button", class: "button secondary small media-analyze", "aria-label": `Analyse ${m.filename}: shot changes, speech and waveform` },
      "Analyse",
    );
    btn.addEventListener("click", () => analyze(m, btn));
    action = btn;
  }
  const s = MEDIA_STATUS[m.status] ?? { icon: "?", text: m.status };
  const until = m.status === "completed" ? untilText(m.mediaExpiresAt) : m.status === "pending" ? untilText(m.expiresAt) : "";
  let kept: HTMLElement | string = "—";
  if (m.status === "completed") kept = h("time", { datetime: m.mediaExpiresAt ?? "", title: formatDate(m.mediaExpiresAt) }, until ? `expires ${until}` : "expired");
  else if (m.status === "pending") kept = h("span", { title: formatDate(m.expiresAt) }, until ? `upload closes ${until}` : "upload closed");
  const probe = m.probe;
  return h(
    "tr",
    { "data-upload-id": m.uploadId, "data-status": m.status, "data-object-key": m.objectKey },
    h("td", { class: "media-file" }, h("span", { class: "media-name" }, m.filename), h("span", { class: "muted small" }, bytesText(m.bytes))),
    h(
      "td",
      { class: "media-status" },
      h("span", { class: `badge media-${m.status}`, "data-status": m.status }, h("span", { class: "badge-icon", "aria-hidden": "true" }, s.icon), " ", s.text),
      m.status === "rejected" && m.rejectReason ? h("span", { class: "media-reject small" }, m.rejectReason) : null,
    ),
    h("td", { class: "num media-duration", title: probe ? durationWords(probe.durationSeconds) : null }, probe ? durationText(probe.durationSeconds) : "—"),
    h(
      "td",
      { class: "media-streams" },
      probe ? h("span", { class: "media-probe" }, probeText(probe)) : h("span", { class: "muted" }, m.status === "pending" ? "read once the upload is complete" : "—"),
      probe?.container ? h("span", { class: "muted small" }, containerName(probe.container)) : null,
    ),
    h("td", { class: "media-kept" }, kept),
    h("td", { class: "media-actions" }, action),
  );
}

// ---- render form

const MODES: { id: RenderMode; label: string; hint: string }[] = [
  { id: "sidecar", label: "Sidecar", hint: "A caption file in the preset's format. No video needed." },
  { id: "mux_soft", label: "Soft subtitles (mux)", hint: "The video with the captions as a subtitle track viewers switch on. Copies the streams: quick." },
  { id: "burn_in", label: "Burn-in", hint: "The captions drawn into the picture, always visible. Re-encodes the video: slowest." },
];

const CODECS: Record<"mp4" | "mkv", { id: "mov_text" | "srt" | "webvtt" | "ass"; label: string }[]> = {
  mp4: [{ id: "mov_text", label: "mov_text" }],
  mkv: [
    { id: "srt", label: "SRT" },
    { id: "webvtt", label: "WebVTT" },
    { id: "ass", label: "ASS (styled)" },
  ],
};

function renderCard(api: MediaApi, p: Project, allowed: boolean, onStarted: (jobId: string) => void, gate: (e: unknown) => boolean) {
  if (!allowed) {
    return { el: proGate("render-pro", "Rendering captions into video needs Pro"), setMedia() {}, setProject() {} };
  }
  const err = errorBox("render-error");
  const modeInputs = MODES.map((m) => {
    const input = h("input", { id: `render-mode-${m.id}`, type: "radio", name: "render-mode", value: m.id, checked: m.id === "mux_soft", "aria-describedby": `render-mode-${m.id}-hint` });
    const el = h(
      "div",
      { class: "render-mode" },
      input,
      h("div", null, h("label", { for: `render-mode-${m.id}` }, m.label), h("span", { id: `render-mode-${m.id}-hint`, class: "muted small" }, m.hint)),
    );
    return { m, input, el };
  });
  const mode = (): RenderMode => (modeInputs.find((x) => x.input.checked)?.m.id ?? "mux_soft") as RenderMode;

  const mediaSel = h("select", { id: "render-media", "aria-describedby": "render-media-hint" });
  const mediaHint = h("p", { id: "render-media-hint", class: "muted small" });
  const preset = h("select", { id: "render-preset" }, ...PRESETS.map((x) => h("option", { value: x }, PRESET_LABELS[x])));
  void api.ownPresets().then((names) => names.forEach((n) => preset.appendChild(h("option", { value: n }, `${n} (your preset)`))));
  const fix = h("select", { id: "render-fix" }, ...FIX_PROFILES.map((f) => h("option", { value: f }, FIX_LABELS[f])));
  const delivery = h(
    "select",
    { id: "render-delivery", "aria-describedby": "render-delivery-hint" },
    h("option", { value: "inline" }, "Show it here (inline)"),
    h("option", { value: "url" }, "As a file to download (url)"),
  );
  const container = h("select", { id: "render-container" }, h("option", { value: "mp4" }, "MP4"), h("option", { value: "mkv" }, "MKV (Matroska)"));
  const codec = h("select", { id: "render-codec", "aria-describedby": "render-codec-hint" });
  const codecHint = h("p", { id: "render-codec-hint", class: "muted small" });
  const language = h("input", {
    id: "render-language",
    type: "text",
    maxlength: 3,
    autocomplete: "off",
    spellcheck: "false",
    "aria-describedby": "render-language-hint",
    class: "render-language",
  });
  const start = h("button", { id: "render-start", type: "submit", class: "button primary" }, "Start render");
  const status = h("span", { id: "render-status", class: "muted small", role: "status" });

  const mediaField = h("div", { class: "field render-media", id: "render-media-field" }, h("label", { for: "render-media" }, "Video"), mediaSel, mediaHint);
  const deliveryField = h(
    "div",
    { class: "field", id: "render-delivery-field" },
    h("label", { for: "render-delivery" }, "Delivery"),
    delivery,
    h("p", { id: "render-delivery-hint", class: "muted small" }, "Inline puts the caption text in the job, to view and copy here."),
  );
  const muxFields = h(
    "div",
    { class: "render-row", id: "render-mux-fields" },
    h("div", { class: "field" }, h("label", { for: "render-container" }, "Container"), container),
    h("div", { class: "field" }, h("label", { for: "render-codec" }, "Subtitle codec"), codec, codecHint),
    h(
      "div",
      { class: "field" },
      h("label", { for: "render-language" }, "Track language"),
      language,
      h("p", { id: "render-language-hint", class: "muted small" }, "ISO 639-2, e.g. eng. Empty: the timeline's."),
    ),
  );
  let noTimeline = p.status !== "ready" || !p.irRevision;
  const form = h(
    "form",
    { id: "render-form", novalidate: true },
    h("fieldset", { class: "render-modes" }, h("legend", null, "Output"), ...modeInputs.map((x) => x.el)),
    mediaField,
    h(
      "div",
      { class: "render-row" },
      h("div", { class: "field" }, h("label", { for: "render-preset" }, "Preset"), preset),
      h("div", { class: "field" }, h("label", { for: "render-fix" }, "Fix profile"), fix),
      deliveryField,
    ),
    muxFields,
    h(
      "div",
      { class: "form-actions" },
      start,
      status,
    ),
  );

  function fillCodecs(): void {
    const keep = codec.value;
    const list = CODECS[container.value as "mp4" | "mkv"] ?? CODECS.mp4;
    replace(codec, ...list.map((c) => h("option", { value: c.id }, c.label)));
    if (list.some((c) => c.id === keep)) codec.value = keep;
    codec.disabled = list.length === 1;
    codecHint.textContent = container.value === "mp4" ? "MP4 carries text subtitles as mov_text (timed text)." : "Matroska carries SRT, WebVTT or styled ASS.";
  }
  container.addEventListener("change", fillCodecs);
  fillCodecs();

  function showMode(): void {
    const m = mode();
    mediaField.hidden = m === "sidecar";
    // A video output is always a file: only a sidecar can come inline.
    deliveryField.hidden = m !== "sidecar";
    muxFields.hidden = m !== "mux_soft";
  }
  modeInputs.forEach((x) => x.input.addEventListener("change", showMode));
  showMode();

  let media: MediaSession[] = [];
  const known = new Set<string>();
  function setMedia(list: MediaSession[]): void {
    const keep = mediaSel.value;
    media = list.filter((m) => m.status === "completed" && (!m.mediaExpiresAt || new Date(m.mediaExpiresAt).getTime() > Date.now()));
    if (!media.length) {
      replace(mediaSel, h("option", { value: "" }, "No video uploaded yet"));
      mediaSel.disabled = true;
      mediaHint.textContent = "Upload a video above first; a sidecar needs none.";
      return;
    }
    mediaSel.disabled = false;
    replace(
      mediaSel,
      ...media.map((m) => {
        const v = m.probe?.streams?.find((s) => s.type === "video");
        const bits = [m.filename, m.probe ? durationText(m.probe.durationSeconds) : "", v?.width ? `${v.width}×${v.height}` : ""].filter(Boolean);
        return h("option", { value: m.objectKey }, bits.join(" · "));
      }),
    );
    // A video new to the list (just uploaded) is chosen; otherwise the choice stays.
    const fresh = media.find((m) => !known.has(m.objectKey));
    mediaSel.value = fresh && known.size ? fresh.objectKey : media.some((m) => m.objectKey === keep) ? keep : media[0].objectKey;
    media.forEach((m) => known.add(m.objectKey));
    mediaHint.textContent = "Media is kept for 24 hours after its upload.";
  }
  setMedia([]);

  // The note under the heading: the revision a render renders, or why there is none.
  const note = h("div", { id: "render-note" });
  function showTimeline(): void {
    start.disabled = noTimeline;
    replace(
      note,
      noTimeline
        ? h(
            "p",
            { id: "render-no-timeline", class: "alert warning" },
            "This project has no caption timeline yet, so there is nothing to render. Add one from a caption file on ",
            h("a", { href: `#/projects/${encodeURIComponent(p.id)}` }, "its Projects page"),
            " or extract the captions of a video below.",
          )
        : h("p", { class: "muted small" }, `Renders timeline revision ${p.irRevision}. A render counts one run of today's pool; a failed or canceled one gives it back.`),
    );
  }
  showTimeline();
  /** setProject takes the project's header again (an extract made a revision). */
  function setProject(np: Project): void {
    p = np;
    noTimeline = p.status !== "ready" || !p.irRevision;
    showTimeline();
  }

  const fields: Record<string, HTMLElement> = { mediaObjectKey: mediaSel, preset, fixProfile: fix, outputDelivery: delivery, container, subtitleCodec: codec, language };
  const clearInvalid = () => Object.values(fields).forEach((f) => f.removeAttribute("aria-invalid"));

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (isBusy(start)) return;
    err.hide();
    clearInvalid();
    const m = mode();
    if (noTimeline) {
      err.show("This project has no caption timeline yet: add one on its Projects page first.");
      return;
    }
    if (m !== "sidecar" && !mediaSel.value) {
      err.show("Choose a video to render into: upload one above first, or render a sidecar caption file.");
      (document.getElementById("media-file") ?? mediaSel).focus();
      return;
    }
    const lang = language.value.trim().toLowerCase();
    if (m === "mux_soft" && lang && !/^[a-z]{3}$/.test(lang)) {
      language.setAttribute("aria-invalid", "true");
      err.show("The track language is a three-letter ISO 639-2 code, such as eng, fra or deu; or leave it empty.");
      language.focus();
      return;
    }
    const req: RenderRequest = {
      projectId: p.id,
      mode: m,
      preset: preset.value, // a built-in or one of the account's own
      fixProfile: fix.value,
      outputDelivery: m === "sidecar" ? (delivery.value as "inline" | "url") : "url",
    };
    if (m !== "sidecar") req.mediaObjectKey = mediaSel.value;
    if (m === "mux_soft") {
      req.container = container.value as "mp4" | "mkv";
      req.subtitleCodec = codec.value as RenderRequest["subtitleCodec"];
      if (lang) req.language = lang;
    }
    setBusy(start, true);
    status.textContent = "Starting…";
    try {
      const res = await api.render(req);
      status.textContent = queuedText("Render", res);
      onStarted(res.jobId);
    } catch (ex) {
      status.textContent = "";
      if (needsFeature(ex, RENDER)) {
        replace(card, proGate("render-pro", "Rendering captions into video needs Pro"));
        announce("Rendering needs the Pro plan, which this account does not have.");
        return;
      }
      if (gate(ex)) return;
      const bad = ex instanceof ApiError ? fields[String(ex.details.field)] : undefined;
      err.show(messageOf(ex));
      if (bad && !bad.closest("[hidden]")) {
        bad.setAttribute("aria-invalid", "true");
        bad.focus();
      }
    } finally {
      setBusy(start, false);
    }
  });

  const card = h(
    "section",
    { id: "render-card", class: "card", "aria-labelledby": "render-h" },
    h("h2", { id: "render-h" }, "Start a render"),
    note,
    form,
    err.el,
  );
  return { el: card, setMedia, setProject };
}
