// The "Extract captions" card of the Media & Jobs page (issue 17): read the
// captions a completed upload already carries — a text subtitle track,
// CEA-608 broadcast closed captions, or captions burned into the picture
// (OCR) — with POST /api/v1/jobs/extract. The job shows in the Jobs card;
// when it succeeds its captions are the project's next timeline revision.
// Needs caption_extract.

import { ApiError, messageOf } from "../api/client";
import type { Project } from "../api/types";
import { announce, h, replace } from "../dom";
import { errorBox } from "../ui/notice";
import { askForPro, noticeCard } from "../ui/notice";
import type { ExtractMode, ExtractRequest, MediaApi, MediaSession, MediaStream } from "./media_api";
import { queuedText, durationText, isClosedCaptionTrack, languageName, subtitleTracks, trackLabel, trackUnreadable } from "./media_format";
import { isBusy, needsFeature, setBusy } from "./media_jobs";

const EXTRACT = "caption_extract";

interface Source {
  id: ExtractMode;
  label: string;
}

const SOURCES: Source[] = [
  { id: "soft_track", label: "Subtitle track" },
  { id: "broadcast_cc", label: "Broadcast closed captions (CEA-608)" },
  { id: "ocr_burned", label: "Burned-in captions (OCR)" },
];

/** REFUSALS say in plain words why the server refused an extract (422 details.reason). */
const REFUSALS: Record<string, string> = {
  no_subtitle_track: "This video has no subtitle tracks. Choose broadcast closed captions or burned-in captions instead.",
  bitmap_subtitle_unsupported: "That subtitle track is a bitmap (pictures of text), which cannot be read as text. Choose a text track, or burned-in captions (OCR) if the captions are in the picture.",
  no_video_stream: "This file has no video stream, so there is no picture to read captions from.",
  upload_pending: "That video has not finished uploading yet.",
  media_expired: "That video has expired (media is kept for 24 hours): upload it again.",
};

function extractGate(): HTMLElement {
  return noticeCard(
    "extract-pro",
    "Extracting captions needs Pro",
    [
      "Reading the captions a video carries (subtitle tracks, broadcast closed captions, burned-in captions) into the project's timeline is a video add-on of the Pro plan (",
      h("code", null, EXTRACT),
      "); this account does not have it.",
    ],
    askForPro("extract-pro-account"),
  );
}

/** nextRevisionText is the sentence about where the captions go. */
function nextRevisionText(p: Project): string {
  const rev = p.status === "ready" ? p.irRevision : 0;
  const where = rev > 0 ? `this project's next timeline revision (${rev + 1}); revision ${rev} stays in its history` : "this project's first timeline revision";
  return `The captions found become ${where}. An extract counts one run of today's pool; a failed or canceled one gives it back.`;
}

export function extractCard(api: MediaApi, p: Project, allowed: boolean, onStarted: (jobId: string) => void, gate: (e: unknown) => boolean) {
  if (!allowed) return { el: extractGate(), setMedia() {}, setProject() {} };
  const err = errorBox("extract-error");
  const intro = h("p", { id: "extract-intro", class: "muted small" }, nextRevisionText(p));

  const mediaSel = h("select", { id: "extract-media", "aria-describedby": "extract-media-hint" });
  const mediaHint = h("p", { id: "extract-media-hint", class: "muted small" });

  const sources = SOURCES.map((src) => {
    const input = h("input", { id: `extract-source-${src.id}`, type: "radio", name: "extract-source", value: src.id, "aria-describedby": `extract-source-${src.id}-hint` });
    const hint = h("span", { id: `extract-source-${src.id}-hint`, class: "muted small" });
    const el = h("div", { class: "render-mode extract-source", "data-source": src.id }, input, h("div", null, h("label", { for: `extract-source-${src.id}` }, src.label), hint));
    return { src, input, hint, el };
  });
  const byId = (id: ExtractMode) => sources.find((x) => x.src.id === id)!;
  const mode = (): ExtractMode | "" => sources.find((x) => x.input.checked)?.src.id ?? "";

  const trackSel = h("select", { id: "extract-track", "aria-describedby": "extract-track-hint" });
  const trackHint = h("p", { id: "extract-track-hint", class: "muted small" });
  const trackField = h("div", { class: "field extract-track", id: "extract-track-field" }, h("label", { for: "extract-track" }, "Subtitle track"), trackSel, trackHint);

  const start = h("button", { id: "extract-start", type: "submit", class: "button primary" }, "Start extract");
  const status = h("span", { id: "extract-status", class: "muted small", role: "status" });
  const form = h(
    "form",
    { id: "extract-form", novalidate: true },
    h("div", { class: "field render-media", id: "extract-media-field" }, h("label", { for: "extract-media" }, "Video"), mediaSel, mediaHint),
    h("fieldset", { class: "render-modes extract-sources" }, h("legend", null, "Source"), ...sources.map((x) => x.el)),
    trackField,
    h("div", { class: "form-actions" }, start, status),
  );

  let media: MediaSession[] = [];
  const known = new Set<string>();
  /** chosenBy remembers that the person picked the source, so a new video keeps it when it can. */
  let chosenBy = false;

  function current(): MediaSession | undefined {
    return media.find((m) => m.objectKey === mediaSel.value);
  }

  /** showSources fits the sources and the track list to the chosen video. */
  function showSources(): void {
    const m = current();
    const probe = m?.probe;
    const tracks = subtitleTracks(probe);
    const readable = tracks.filter((s) => !trackUnreadable(s));
    const hasVideo = !!probe?.streams?.some((s) => s.type === "video");
    const c608 = tracks.filter(isClosedCaptionTrack);
    const soft = byId("soft_track");
    const cc = byId("broadcast_cc");
    const ocr = byId("ocr_burned");

    // Subtitle track: the text tracks of the probe.
    soft.input.disabled = !m || readable.length === 0;
    if (!m) soft.hint.textContent = "Choose a video first.";
    else if (!tracks.length) soft.hint.textContent = "This video has no subtitle tracks.";
    else if (!readable.length) soft.hint.textContent = `This video's ${tracks.length === 1 ? "subtitle track is" : `${tracks.length} subtitle tracks are`} not text (bitmaps or closed captions), so none can be read.`;
    else soft.hint.textContent = "A text subtitle track of the file (SubRip, ASS, WebVTT or mov_text); its language is kept. Quick.";

    // Broadcast closed captions: a c608 track is read directly; otherwise the video's A/53 user data.
    cc.input.disabled = !m || (!hasVideo && c608.length === 0);
    if (!m) cc.hint.textContent = "Choose a video first.";
    else if (c608.length) cc.hint.textContent = "This video has a CEA-608 caption track: it is read directly (channel CC1). Quick.";
    else if (!hasVideo) cc.hint.textContent = "This file has no video to carry closed captions.";
    else if (probe?.closedCaptions) cc.hint.textContent = "ffprobe found closed captions in this video. The whole video is decoded to read them (channel CC1).";
    else cc.hint.textContent = "None seen at the start of this video: the whole video is decoded to look for them (channel CC1 of H.264 or MPEG-2 video). Slow.";

    // Burned-in captions: OCR on the picture.
    ocr.input.disabled = !m || !hasVideo;
    ocr.hint.textContent = m && !hasVideo ? "This file has no video to read." : "Reads white or yellow captions at the bottom of the picture, in English. Decodes the whole video: the slowest.";

    // The track list: every subtitle track, the unreadable ones disabled with the reason.
    const keep = trackSel.value;
    if (!tracks.length) {
      replace(trackSel, h("option", { value: "" }, m ? "No subtitle tracks" : "No video chosen"));
    } else {
      replace(
        trackSel,
        ...tracks.map((s: MediaStream) => {
          const why = trackUnreadable(s);
          return h("option", { value: String(s.subtitleIndex ?? 0), disabled: !!why }, why ? `${trackLabel(s)} — ${why}` : trackLabel(s));
        }),
      );
      const first = readable.find((s) => s.default) ?? readable[0];
      if (readable.some((s) => String(s.subtitleIndex) === keep)) trackSel.value = keep;
      else if (first) trackSel.value = String(first.subtitleIndex ?? 0);
    }
    trackSel.disabled = readable.length === 0;
    showTrack();

    // The source: a person's choice stays while the video allows it; otherwise the likeliest one.
    const chosen = mode();
    if (!chosen || !chosenBy || byId(chosen).input.disabled) {
      sources.forEach((x) => (x.input.checked = false));
      const pick = !soft.input.disabled ? soft : c608.length || probe?.closedCaptions ? cc : null;
      if (pick && !pick.input.disabled) pick.input.checked = true;
      chosenBy = false;
    }
    showMode();
  }

  /** showTrack says what the chosen track gives the timeline. */
  function showTrack(): void {
    const s = subtitleTracks(current()?.probe).find((x) => String(x.subtitleIndex ?? 0) === trackSel.value);
    const l = languageName(s?.language);
    const lang = !s || trackSel.disabled ? "" : l ? `The timeline's language becomes ${l}.` : "The track has no language tag.";
    const some = subtitleTracks(current()?.probe).some((x) => trackUnreadable(x));
    replace(trackHint, [lang, some ? "Bitmap and closed-caption tracks are listed but cannot be read here." : ""].filter(Boolean).join(" "));
  }
  trackSel.addEventListener("change", () => {
    err.hide();
    trackSel.removeAttribute("aria-invalid");
    showTrack();
  });

  function showMode(): void {
    trackField.hidden = mode() !== "soft_track";
  }
  sources.forEach((x) =>
    x.input.addEventListener("change", () => {
      chosenBy = true;
      err.hide();
      showMode();
    }),
  );
  mediaSel.addEventListener("change", () => {
    err.hide();
    showSources();
  });

  function setMedia(list: MediaSession[]): void {
    const keep = mediaSel.value;
    media = list.filter((m) => m.status === "completed" && (!m.mediaExpiresAt || new Date(m.mediaExpiresAt).getTime() > Date.now()));
    if (!media.length) {
      replace(mediaSel, h("option", { value: "" }, "No video uploaded yet"));
      mediaSel.disabled = true;
      mediaHint.textContent = "Upload a video above first.";
      showSources();
      return;
    }
    mediaSel.disabled = false;
    replace(
      mediaSel,
      ...media.map((m) => {
        const n = subtitleTracks(m.probe).length;
        const bits = [m.filename, m.probe ? durationText(m.probe.durationSeconds) : "", n ? `${n} subtitle ${n === 1 ? "track" : "tracks"}` : "", m.probe?.closedCaptions ? "closed captions" : ""];
        return h("option", { value: m.objectKey }, bits.filter(Boolean).join(" · "));
      }),
    );
    // A video new to the list (just uploaded) is chosen; otherwise the choice stays.
    const fresh = media.find((m) => !known.has(m.objectKey));
    mediaSel.value = fresh && known.size ? fresh.objectKey : media.some((m) => m.objectKey === keep) ? keep : media[0].objectKey;
    media.forEach((m) => known.add(m.objectKey));
    mediaHint.textContent = "A completed upload of this project. Media is kept for 24 hours after its upload.";
    showSources();
  }
  setMedia([]);

  function setProject(np: Project): void {
    p = np;
    intro.textContent = nextRevisionText(p);
  }

  const fields: Record<string, HTMLElement> = { mediaObjectKey: mediaSel, trackIndex: trackSel, extractMode: sources[0].input };
  const clearInvalid = () => Object.values(fields).forEach((f) => f.removeAttribute("aria-invalid"));

  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (isBusy(start)) return;
    err.hide();
    clearInvalid();
    if (!mediaSel.value) {
      err.show("Choose a video to read the captions from: upload one above first.");
      (document.getElementById("media-file") ?? mediaSel).focus();
      return;
    }
    const m = mode();
    if (!m) {
      err.show("Choose where the captions are: a subtitle track, broadcast closed captions, or burned into the picture.");
      sources.find((x) => !x.input.disabled)?.input.focus();
      return;
    }
    const req: ExtractRequest = { projectId: p.id, extractMode: m, mediaObjectKey: mediaSel.value };
    if (m === "soft_track") {
      if (trackSel.value === "" || trackSel.disabled) {
        err.show("This video has no text subtitle track to read.");
        return;
      }
      req.trackIndex = Number(trackSel.value);
    }
    setBusy(start, true);
    status.textContent = "Starting…";
    try {
      const res = await api.extract(req);
      status.textContent = queuedText("Extract", res);
      onStarted(res.jobId);
    } catch (ex) {
      status.textContent = "";
      if (needsFeature(ex, EXTRACT)) {
        replace(card, extractGate());
        announce("Extracting captions needs the Pro plan, which this account does not have.");
        return;
      }
      if (gate(ex)) return;
      let msg = messageOf(ex);
      let bad: HTMLElement | undefined;
      if (ex instanceof ApiError) {
        const reason = String(ex.details.reason ?? "");
        bad = fields[String(ex.details.field)];
        if (ex.details.field === "trackIndex" && reason === "out_of_range" && typeof ex.details.subtitleTracks === "number") {
          const n = ex.details.subtitleTracks;
          msg = `This video has ${n} subtitle ${n === 1 ? "track" : "tracks"}; that track is not one of them. Refresh the media list and choose again.`;
        } else if (REFUSALS[reason]) {
          msg = REFUSALS[reason];
          if (reason === "bitmap_subtitle_unsupported") bad = trackSel;
        }
      }
      err.show(msg);
      if (bad && !bad.closest("[hidden]")) {
        bad.setAttribute("aria-invalid", "true");
        bad.focus();
      }
    } finally {
      setBusy(start, false);
    }
  });

  const card = h("section", { id: "extract-card", class: "card", "aria-labelledby": "extract-h" }, h("h2", { id: "extract-h" }, "Extract captions"), intro, form, err.el);
  return { el: card, setMedia, setProject };
}
