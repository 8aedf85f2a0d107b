// The player's preview (docs/media.md, Playing the media). Media this
// window cannot play (MPEG-2, ProRes or DNxHD video, AC-3 or MP2 sound)
// is played as a render job's preview instead: a small WebM of VP9 and
// Opus, which every Chromium build plays (H.264 and AAC are missing from
// builds without the proprietary codecs), every frame at the source's
// time, so the timecodes stay the programme's. The editor tells it
// before loading (the probe's codecs through canPlayType) or from the
// element's error (the source or its decoding not supported); it then
// plays the newest succeeded preview of the media, follows one under
// way (a reload makes no second one), or offers to make one and follows
// its job until it ends.

import { messageOf, type Client } from "../api/client";
import { h, replace } from "../dom";
import type { Job, MediaApi, MediaSession } from "../pages/media_api";
import { player, type Player } from "./player";
import type { FrameRate } from "./timecode";

/** POLL_MS is how often a preview's job is read while it is queued or running. */
const POLL_MS = 1000;
/** LINK_TTL_S is how long the preview's signed link lasts: an editing session. */
const LINK_TTL_S = 4 * 3600;

/** CODECS are media types canPlayType judges for ffprobe's codec names; a codec not here is taken as unplayable. Read-only. */
const CODECS: Readonly<Record<string, string>> = {
  h264: 'video/mp4; codecs="avc1.640028"',
  hevc: 'video/mp4; codecs="hvc1.1.6.L93.B0"',
  vp8: 'video/webm; codecs="vp8"',
  vp9: 'video/webm; codecs="vp9"',
  av1: 'video/mp4; codecs="av01.0.05M.08"',
  aac: 'audio/mp4; codecs="mp4a.40.2"',
  mp3: "audio/mpeg",
  opus: 'audio/webm; codecs="opus"',
  vorbis: 'audio/webm; codecs="vorbis"',
  flac: "audio/flac",
  ac3: 'audio/mp4; codecs="ac-3"',
  eac3: 'audio/mp4; codecs="ec-3"',
};

/**
 * canPlay says whether video can play media: its first video and first
 * audio stream's codecs when the probe names them (an H.264 .mov plays
 * though video/quicktime is refused), else its content type.
 */
export function canPlay(video: HTMLVideoElement, media: MediaSession): boolean {
  const streams = media.probe?.streams ?? [];
  const first = (["video", "audio"] as const).flatMap((t) => streams.find((s) => s.type === t) ?? []);
  if (first.length === 0) return video.canPlayType(media.contentType) !== "";
  return first.every((s) => {
    const type = s.codec.startsWith("pcm_") ? 'audio/wav; codecs="1"' : CODECS[s.codec];
    return type !== undefined && video.canPlayType(type) !== "";
  });
}

/**
 * mediaPlayer is the player of media: its play link when this window
 * can play it, else (or once the element says it cannot) its preview.
 */
export async function mediaPlayer(api: MediaApi, client: Client, projectId: string, media: MediaSession, rate: FrameRate | null, label: string): Promise<Player> {
  const preview = (p: Player) => void new Preview(api, client, projectId, media, p).start();
  if (!canPlay(document.createElement("video"), media)) {
    const p = player(null, rate, label);
    preview(p);
    return p;
  }
  const link = await api.playLink(media.uploadId);
  const p = player(link.url, rate, label);
  const onError = () => {
    const code = p.video.error?.code;
    if (code !== MediaError.MEDIA_ERR_SRC_NOT_SUPPORTED && code !== MediaError.MEDIA_ERR_DECODE) return;
    p.video.removeEventListener("error", onError);
    p.video.removeAttribute("src");
    preview(p);
  };
  p.video.addEventListener("error", onError);
  return p;
}

/** Preview finds, makes and plays the preview of one media in a player. */
class Preview {
  private seen = false;

  constructor(
    private api: MediaApi,
    private client: Client,
    private projectId: string,
    private media: MediaSession,
    private p: Player,
  ) {}

  /** start plays the newest succeeded preview, follows one under way, or offers to make one. */
  async start(): Promise<void> {
    const jobs = await this.api.listJobs(this.projectId, "preview").catch(() => [] as Job[]);
    const mine = jobs.filter((j) => j.mediaObjectKey === this.media.objectKey); // newest first
    const done = mine.find((j) => j.status === "succeeded" && j.artifacts.length > 0);
    const pending = mine.find((j) => j.status === "queued" || j.status === "running");
    if (done) return this.play(done);
    this.offer(pending ? undefined : "");
    if (pending) await this.follow(pending.jobId);
  }

  /** gone says whether the player left the page (the editor was left): its polling stops. */
  private gone(): boolean {
    this.seen ||= this.p.el.isConnected;
    return this.seen && !this.p.el.isConnected;
  }

  private button?: HTMLButtonElement;
  private progress?: HTMLProgressElement;
  private status?: HTMLElement;

  /** offer shows the notice with its button; problem, when not "", says why the last try failed. */
  private offer(problem?: string): void {
    const codecs = (this.media.probe?.streams ?? []).filter((s) => s.type === "video" || s.type === "audio").map((s) => s.codec);
    this.button = h("button", { id: "ws-make-preview", type: "button", class: "button primary small" }, "Make a playable preview");
    this.progress = h("progress", { id: "ws-preview-progress", max: 1, value: 0, hidden: true }) as HTMLProgressElement;
    this.status = h("span", { id: "ws-preview-status", class: "small", role: "status" }, problem ?? "A preview of this media is being made…");
    this.button.hidden = problem === undefined;
    this.button.addEventListener("click", () => void this.make());
    replace(
      this.p.notice,
      h(
        "div",
        { id: "ws-cannot-play", class: "alert warning" },
        h("p", null, h("strong", null, "This media cannot play in this window"), codecs.length ? ` (${codecs.join(", ")}).` : "."),
        h("p", { class: "small" }, "A preview is a small copy this window plays (VP9 and Opus, at most 640 px wide), made by a render job; its frames keep the programme's times, so the timecodes stay frame-accurate."),
        h("div", { class: "form-actions" }, this.button, this.progress, this.status),
      ),
    );
  }

  /** make starts the preview's render job and follows it. */
  private async make(): Promise<void> {
    if (!this.button || !this.status) return;
    this.button.disabled = true;
    this.status.textContent = "Starting the preview…";
    try {
      const j = await this.api.render({ projectId: this.projectId, mode: "preview", mediaObjectKey: this.media.objectKey });
      this.button.hidden = true;
      await this.follow(j.jobId);
    } catch (e) {
      this.offer(`The preview could not start: ${messageOf(e)}`);
    }
  }

  /** follow reads the job until it ends, showing its progress, then plays its preview. */
  private async follow(jobId: string): Promise<void> {
    for (;;) {
      if (this.gone()) return;
      let j: Job;
      try {
        j = await this.api.getJob(jobId);
      } catch (e) {
        this.offer(`The preview's job could not be read: ${messageOf(e)}`);
        return;
      }
      if (j.status === "succeeded") return this.play(j);
      if (j.status === "failed" || j.status === "canceled") {
        this.offer(`The preview ${j.status === "failed" ? "failed" : "was canceled"}: ${j.error?.message ?? j.status}. Try again?`);
        return;
      }
      if (this.progress && this.status) {
        this.progress.hidden = false;
        this.progress.value = j.progress;
        this.progress.dataset.status = j.status;
        this.status.textContent =
          j.status === "queued"
            ? `Queued${j.estimatedWaitSeconds ? `, about ${j.estimatedWaitSeconds} s to wait` : ""}…`
            : `Making the preview: ${Math.round(j.progress * 100)}%`;
      }
      await new Promise((r) => window.setTimeout(r, POLL_MS));
    }
  }

  /** play plays a succeeded job's preview in the player. */
  private async play(j: Job): Promise<void> {
    const a = j.artifacts[0];
    try {
      const link = await this.client.artifactLink(a.artifactId, LINK_TTL_S);
      this.p.video.dataset.preview = j.jobId;
      this.p.setSource(link.url);
      replace(
        this.p.notice,
        h("p", { id: "ws-preview-playing", class: "alert info small" }, "Playing a preview of this media (it cannot play in this window as it is); its timecodes are the programme's."),
      );
    } catch (e) {
      this.offer(`The preview could not be opened: ${messageOf(e)}`);
    }
  }
}
