// The workstation's player: the project's media in a <video>, the
// draft's captions drawn over it through a text track of VTTCues that is
// rebuilt whenever the draft changes (no WebVTT file round trip), and a
// time readout at the media's frame rate. The media comes from a signed
// play link (GET /api/v1/media/upload/{uploadId}/link), so the element
// fetches it with ranges and no key.

import type { Cue } from "../captions";
import { h } from "../dom";

/** Rate is a frame rate as a fraction (24000/1001). */
export interface Rate {
  num: number;
  den: number;
}

export interface Player {
  el: HTMLElement;
  video: HTMLVideoElement;
  /** setCues draws these cues over the picture from now on. */
  setCues(cues: readonly Cue[]): void;
  /** timeMs is the playhead, in milliseconds. */
  timeMs(): number;
  seek(ms: number): void;
  toggle(): void;
  /** step moves the playhead by frames (negative: back), paused. */
  step(frames: number): void;
  /** shuttle plays at rate (J/K/L: -2, 0 pauses, 1, 2 ...); backwards is a paused step. */
  shuttle(rate: number): void;
  /** onTime calls f with the playhead on every frame shown or seek. */
  onTime(f: (ms: number) => void): void;
}

/** frameMs is one frame's duration at rate, 40 ms (25 fps) without one. */
export function frameMs(rate: Rate | null): number {
  return rate && rate.num > 0 && rate.den > 0 ? (1000 * rate.den) / rate.num : 40;
}

/** timecodeAt formats ms as HH:MM:SS:FF at rate (frames counted from 0). */
export function timecodeAt(ms: number, rate: Rate | null): string {
  const fps = rate && rate.den > 0 ? rate.num / rate.den : 25;
  const frame = Math.floor((Math.max(0, ms) * fps) / 1000 + 1e-6);
  const perSecond = Math.round(fps);
  const ff = frame % perSecond;
  const totalSeconds = Math.floor(frame / perSecond);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(Math.floor(totalSeconds / 3600))}:${pad(Math.floor(totalSeconds / 60) % 60)}:${pad(totalSeconds % 60)}:${pad(ff)}`;
}

export function player(src: string, rate: Rate | null, label: string): Player {
  const video = h("video", { id: "ws-video", src, preload: "auto", controls: true, playsinline: true, "aria-label": label }) as HTMLVideoElement;
  const readout = h("output", { id: "ws-timecode", class: "timecode", "aria-live": "off" }, timecodeAt(0, rate));
  const el = h("div", { id: "ws-player", class: "ws-player" }, video, h("div", { class: "ws-player-bar" }, readout));
  const track = video.addTextTrack("captions", "Draft", "");
  track.mode = "showing";
  const listeners: ((ms: number) => void)[] = [];
  let rafPending = false;
  const tick = () => {
    const ms = video.currentTime * 1000;
    readout.textContent = timecodeAt(ms, rate);
    for (const f of listeners) f(ms);
  };
  // requestVideoFrameCallback follows the frames shown; timeupdate (4 Hz)
  // is the fallback.
  const rvfc = (video as HTMLVideoElement & { requestVideoFrameCallback?: (cb: () => void) => number }).requestVideoFrameCallback;
  if (rvfc) {
    const loop = () => {
      tick();
      rvfc.call(video, loop);
    };
    rvfc.call(video, loop);
  } else {
    video.addEventListener("timeupdate", tick);
  }
  video.addEventListener("seeked", tick);
  const later = () => {
    if (rafPending) return;
    rafPending = true;
    requestAnimationFrame(() => {
      rafPending = false;
      tick();
    });
  };
  const frame = frameMs(rate);
  const p: Player = {
    el,
    video,
    setCues(cues) {
      for (const c of Array.from(track.cues ?? [])) track.removeCue(c);
      for (const c of cues) {
        if (c.endMs > c.startMs) track.addCue(new VTTCue(c.startMs / 1000, c.endMs / 1000, c.text));
      }
    },
    timeMs: () => video.currentTime * 1000,
    seek(ms) {
      video.currentTime = Math.max(0, ms) / 1000;
      later();
    },
    toggle() {
      if (video.paused) void video.play().catch(() => undefined);
      else video.pause();
    },
    step(frames) {
      video.pause();
      // The middle of the target frame, so rounding never lands on its neighbour.
      const target = Math.floor(p.timeMs() / frame + 1e-6) + frames;
      p.seek(Math.max(0, target) * frame + frame / 2);
    },
    shuttle(rate) {
      if (rate <= 0) {
        video.pause();
        if (rate < 0) p.step(-Math.round(-rate * 5));
        return;
      }
      video.playbackRate = rate;
      void video.play().catch(() => undefined);
    },
    onTime(f) {
      listeners.push(f);
    },
  };
  return p;
}
