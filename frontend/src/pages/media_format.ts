// Words for the Media & Jobs page: sizes, rates, durations, times to go,
// and a probe's streams in one line ("H.264 1280×720 30 fps · AAC stereo ·
// 2 subtitle tracks (eng, fra) · closed captions").

import type { JobAccepted, MediaProbe, MediaStream } from "./media_api";

/** bytesText is a size in decimal units, as rates in MB/s are: "27.4 MB". */
export function bytesText(n: number): string {
  if (!Number.isFinite(n) || n < 0) return "—";
  if (n < 1000) return `${n}\u00a0${n === 1 ? "byte" : "bytes"}`;
  if (n < 1e6) return `${(n / 1e3).toFixed(1)}\u00a0kB`;
  if (n < 1e9) return `${(n / 1e6).toFixed(1)}\u00a0MB`;
  return `${(n / 1e9).toFixed(2)}\u00a0GB`;
}

/** sizeText is a stored size in binary units, as quotas are set: "1.2 GiB". */
export function sizeText(n: number): string {
  if (!Number.isFinite(n) || n < 0) return "—";
  if (n < 1024) return `${n}\u00a0${n === 1 ? "byte" : "bytes"}`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let v = n / 1024;
  let i = 0;
  for (; v >= 1024 && i < units.length - 1; i++) v /= 1024;
  return `${v >= 100 || Number.isInteger(v) ? v.toFixed(0) : v.toFixed(1)}\u00a0${units[i]}`;
}

/** rateText is a transfer rate: "8.4 MB/s". */
export function rateText(bytesPerSecond: number): string {
  if (!(bytesPerSecond > 0)) return "";
  if (bytesPerSecond < 1e6) return `${(bytesPerSecond / 1e3).toFixed(0)}\u00a0kB/s`;
  return `${(bytesPerSecond / 1e6).toFixed(1)}\u00a0MB/s`;
}

/** durationText is a media duration: "0:06", "12:05", "1:02:03". */
export function durationText(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) return "—";
  const s = Math.round(seconds);
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return hh ? `${hh}:${String(mm).padStart(2, "0")}:${ss}` : `${mm}:${ss}`;
}

/** durationWords is a duration for screen readers: "6 seconds", "12 minutes 5 seconds". */
export function durationWords(seconds: number | undefined): string {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) return "unknown duration";
  const s = Math.round(seconds);
  const parts: string[] = [];
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = s % 60;
  if (hh) parts.push(`${hh} ${hh === 1 ? "hour" : "hours"}`);
  if (mm) parts.push(`${mm} ${mm === 1 ? "minute" : "minutes"}`);
  if (ss || !parts.length) parts.push(`${ss} ${ss === 1 ? "second" : "seconds"}`);
  return parts.join(" ");
}

/** aboutText is a wait or a time left, rounded as a person would: "about 40 s", "about 3 min". */
export function aboutText(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return "";
  if (seconds < 5) return "a few seconds";
  if (seconds < 60) return `about ${Math.round(seconds / 5) * 5 || 5}\u00a0s`;
  if (seconds < 3600) return `about ${Math.round(seconds / 60)}\u00a0min`;
  const h = Math.floor(seconds / 3600);
  const m = Math.round((seconds % 3600) / 60);
  return m ? `about ${h}\u00a0h ${m}\u00a0min` : `about ${h}\u00a0h`;
}

/** spanText is an elapsed time: "4 s", "1 min 12 s", "2 h 5 min". */
export function spanText(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return "";
  const s = Math.max(1, Math.round(seconds));
  if (s < 60) return `${s}\u00a0s`;
  if (s < 3600) return s % 60 ? `${Math.floor(s / 60)}\u00a0min ${s % 60}\u00a0s` : `${s / 60}\u00a0min`;
  const m = Math.round((s % 3600) / 60);
  return m ? `${Math.floor(s / 3600)}\u00a0h ${m}\u00a0min` : `${Math.floor(s / 3600)}\u00a0h`;
}

/** untilText says how far off a time is: "in 23 h", "in 45 min", or "" once past. */
export function untilText(iso: string | undefined, now = Date.now()): string {
  if (!iso) return "";
  const t = new Date(iso).getTime();
  if (isNaN(t)) return "";
  const s = (t - now) / 1000;
  if (s <= 0) return "";
  if (s < 60) return "in less than a minute";
  if (s < 3600) return `in ${Math.round(s / 60)}\u00a0min`;
  const m = Math.round((s - 3600) / 60);
  return s < 2 * 3600 && m > 0 && m < 60 ? `in 1\u00a0h ${m}\u00a0min` : `in ${Math.round(s / 3600)}\u00a0h`;
}

const CODECS: Record<string, string> = {
  h264: "H.264",
  hevc: "HEVC",
  h265: "HEVC",
  av1: "AV1",
  vp8: "VP8",
  vp9: "VP9",
  mpeg2video: "MPEG-2",
  mpeg4: "MPEG-4",
  prores: "ProRes",
  dnxhd: "DNxHD",
  mjpeg: "Motion JPEG",
  aac: "AAC",
  mp3: "MP3",
  mp2: "MP2",
  ac3: "AC-3",
  eac3: "E-AC-3",
  opus: "Opus",
  vorbis: "Vorbis",
  flac: "FLAC",
  alac: "ALAC",
  subrip: "SRT",
  srt: "SRT",
  ass: "ASS",
  ssa: "SSA",
  webvtt: "WebVTT",
  mov_text: "mov_text",
  hdmv_pgs_subtitle: "PGS",
  dvd_subtitle: "VobSub",
  dvb_subtitle: "DVB",
  eia_608: "CEA-608",
};

export function codecName(codec: string): string {
  if (!codec) return "unknown codec";
  if (codec.startsWith("pcm_")) return "PCM";
  return CODECS[codec.toLowerCase()] ?? codec.toUpperCase();
}

function channelsText(n: number | undefined): string {
  switch (n) {
    case undefined:
    case 0:
      return "";
    case 1:
      return "mono";
    case 2:
      return "stereo";
    case 6:
      return "5.1";
    case 8:
      return "7.1";
    default:
      return `${n} ch`;
  }
}

/** fpsText is a frame rate without noise: 30 → "30 fps", 29.97002997 → "29.97 fps". */
export function fpsText(r: number | undefined): string {
  if (!r || !Number.isFinite(r)) return "";
  return `${String(Math.round(r * 100) / 100)} fps`;
}

function lang(s: MediaStream): string {
  const l = (s.language ?? "").trim();
  return l && l !== "und" ? l : "";
}

function videoText(v: MediaStream): string {
  const parts = [codecName(v.codec)];
  if (v.width && v.height) parts.push(`${v.width}×${v.height}`);
  const f = fpsText(v.frameRate);
  if (f) parts.push(f);
  return parts.join(" ");
}

function audioText(a: MediaStream): string {
  const parts = [codecName(a.codec)];
  const ch = channelsText(a.channels);
  if (ch) parts.push(ch);
  const l = lang(a);
  return l ? `${parts.join(" ")} (${l})` : parts.join(" ");
}

/** probeText is the streams of probed media in one line. */
export function probeText(p: MediaProbe | undefined): string {
  if (!p) return "";
  const streams = p.streams ?? [];
  const out: string[] = [];
  const videos = streams.filter((s) => s.type === "video");
  const audios = streams.filter((s) => s.type === "audio");
  const subs = streams.filter((s) => s.type === "subtitle");
  if (videos.length) out.push(videos.map(videoText).join(" + "));
  else out.push("no video");
  if (audios.length) out.push(audios.map(audioText).join(" + "));
  else out.push("no audio");
  if (subs.length) {
    const langs = subs.map(lang).filter(Boolean);
    out.push(`${subs.length} subtitle ${subs.length === 1 ? "track" : "tracks"}${langs.length ? ` (${langs.join(", ")})` : ""}`);
  }
  if (p.closedCaptions) out.push("closed captions");
  return out.join(" · ");
}

/** containerName is a probe's container for people. */
export function containerName(c: string | undefined): string {
  const names: Record<string, string> = { mp4: "MP4/MOV", matroska: "Matroska", webm: "WebM", mpegts: "MPEG-TS" };
  return c ? (names[c] ?? c) : "";
}

// ISO 639-2 codes (terminology and bibliographic) of the languages most
// often tagged on subtitle tracks; others show as their code.
const LANGUAGES: Record<string, string> = {
  eng: "English",
  fra: "French",
  fre: "French",
  deu: "German",
  ger: "German",
  spa: "Spanish",
  ita: "Italian",
  por: "Portuguese",
  nld: "Dutch",
  dut: "Dutch",
  swe: "Swedish",
  nor: "Norwegian",
  nob: "Norwegian Bokmål",
  nno: "Norwegian Nynorsk",
  dan: "Danish",
  fin: "Finnish",
  isl: "Icelandic",
  ice: "Icelandic",
  pol: "Polish",
  ces: "Czech",
  cze: "Czech",
  slk: "Slovak",
  slo: "Slovak",
  hun: "Hungarian",
  ron: "Romanian",
  rum: "Romanian",
  ell: "Greek",
  gre: "Greek",
  tur: "Turkish",
  rus: "Russian",
  ukr: "Ukrainian",
  ara: "Arabic",
  heb: "Hebrew",
  hin: "Hindi",
  jpn: "Japanese",
  kor: "Korean",
  zho: "Chinese",
  chi: "Chinese",
  vie: "Vietnamese",
  tha: "Thai",
  ind: "Indonesian",
  cym: "Welsh",
  wel: "Welsh",
  gle: "Irish",
  gla: "Scottish Gaelic",
  cat: "Catalan",
  eus: "Basque",
  baq: "Basque",
  glg: "Galician",
};

/** languageName is a stream's language tag for people: "eng" → "English"; "" when untagged. */
export function languageName(code: string | undefined): string {
  const c = (code ?? "").trim().toLowerCase();
  if (!c || c === "und") return "";
  return LANGUAGES[c] ?? c;
}

const SUBTITLE_CODECS: Record<string, string> = {
  subrip: "SubRip",
  srt: "SubRip",
  ass: "ASS",
  ssa: "SSA",
  webvtt: "WebVTT",
  mov_text: "mov_text",
  text: "plain text",
};

/** subtitleTracks are the probe's subtitle streams in their order (an extract's trackIndex). */
export function subtitleTracks(p: MediaProbe | undefined): MediaStream[] {
  const subs = (p?.streams ?? []).filter((s) => s.type === "subtitle");
  return subs
    .map((s, i) => ({ s, n: s.subtitleIndex ?? i }))
    .sort((a, b) => a.n - b.n)
    .map(({ s, n }) => ({ ...s, subtitleIndex: n }));
}

/** isClosedCaptionTrack tells a QuickTime c608 (CEA-608) track. */
export function isClosedCaptionTrack(s: MediaStream): boolean {
  return s.codec === "eia_608" || s.codec === "c608";
}

/**
 * trackLabel names a subtitle track in the words of a track menu, counted
 * from 1: "Track 1 · English · SubRip (default)".
 */
export function trackLabel(s: MediaStream): string {
  const parts = [`Track ${(s.subtitleIndex ?? 0) + 1}`];
  const l = languageName(s.language);
  if (l) parts.push(l);
  const title = (s.title ?? "").trim();
  if (title && title.toLowerCase() !== l.toLowerCase()) parts.push(`“${title}”`);
  parts.push(isClosedCaptionTrack(s) ? "CEA-608" : (SUBTITLE_CODECS[s.codec?.toLowerCase()] ?? codecName(s.codec)));
  const flags = [s.default ? "default" : "", s.forced ? "forced" : ""].filter(Boolean);
  return flags.length ? `${parts.join(" · ")} (${flags.join(", ")})` : parts.join(" · ");
}

/** trackUnreadable says why soft_track cannot read a track, "" when it can. */
export function trackUnreadable(s: MediaStream): string {
  if (s.text) return "";
  if (isClosedCaptionTrack(s)) return "closed captions: choose Broadcast closed captions";
  return "a bitmap track, not text: cannot be read";
}

/** queuedText is the status line of a job just queued: "Render queued; it starts in about 40 s. 7 runs left today." */
export function queuedText(what: string, res: JobAccepted): string {
  const wait = typeof res.estimatedWaitSeconds === "number" ? `; it starts in ${aboutText(res.estimatedWaitSeconds)}` : "";
  const n = res.remainingApiRunsToday;
  const left = typeof n === "number" ? ` ${n} ${n === 1 ? "run" : "runs"} left today.` : "";
  return `${what} queued${wait}.${left}`;
}
