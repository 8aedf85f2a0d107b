// The programme's analysis as the timeline draws it (getMediaAnalysis:
// shot changes, speech, waveform; docs/media.md, Checking against the
// programme), and the few words that sum it up.

import type { Analysis } from "../api/types";

/** Programme is what the timeline draws of an analysis. */
export interface Programme {
  durationMs: number;
  /** shotChanges are the times of the cuts, in order (ms). */
  shotChanges: number[];
  speech: { startMs: number; endMs: number; confidence: number }[];
  /** peaks are the waveform's, one byte 0-255 each; null for media without sound. */
  peaks: Uint8Array | null;
  /** peakMs is the time one peak covers. */
  peakMs: number;
}

/** decodePeaks reads the waveform's base64 peaks; null when absent or not base64. */
export function decodePeaks(b64: string | null | undefined): Uint8Array | null {
  if (!b64) return null;
  try {
    const bin = atob(b64);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}

/** programmeOf turns a wire analysis into what the timeline draws. */
export function programmeOf(a: Analysis): Programme {
  const wf = a.audio?.waveform;
  const peakMs = wf && wf.sampleRate > 0 ? (wf.samplesPerPeak * 1000) / wf.sampleRate : 0;
  return {
    durationMs: a.durationMs,
    shotChanges: (a.video?.shotChanges ?? []).map((s) => s.timeMs),
    speech: (a.audio?.speech ?? []).map((s) => ({ startMs: s.startMs, endMs: s.endMs, confidence: s.confidence })),
    peaks: peakMs > 0 ? decodePeaks(wf?.peaks) : null,
    peakMs,
  };
}

/** speechTotalMs is how long someone speaks in all. */
export function speechTotalMs(p: Pick<Programme, "speech">): number {
  return p.speech.reduce((t, s) => t + Math.max(0, s.endMs - s.startMs), 0);
}

/** secondsText is a span in words: "45 s", "3 min 20 s", "1 h 2 min". */
export function secondsText(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return s % 60 ? `${m} min ${s % 60} s` : `${m} min`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

/** analysisSummary sums an analysis up: "12 shot changes · 8 speech segments · 3 min 20 s of speech". */
export function analysisSummary(a: Analysis): string {
  const n = (k: number, one: string, many: string) => `${k.toLocaleString()} ${k === 1 ? one : many}`;
  const parts: string[] = [];
  parts.push(a.video ? n(a.video.shotChanges?.length ?? 0, "shot change", "shot changes") : "no picture");
  if (a.audio) {
    const speech = a.audio.speech ?? [];
    parts.push(n(speech.length, "speech segment", "speech segments"), `${secondsText(speechTotalMs({ speech }))} of speech`);
  } else {
    parts.push("no sound");
  }
  return parts.join(" · ");
}
