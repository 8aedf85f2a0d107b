// The workstation's player: the project's media in a <video>, the
// draft's captions drawn over it through a text track of VTTCues that is
// rebuilt whenever the draft changes (no WebVTT file round trip), and a
// time readout at the media's frame rate. The media comes from a signed
// play link (GET /api/v1/media/upload/{uploadId}/link), so the element
// fetches it with ranges and no key. Media the window cannot play is
// swapped for a preview (./preview.ts) through setSource and the notice
// slot above the picture.

import type { Cue } from "../captions";
import { h } from "../dom";
import { formatTimecode, frameToMs, msToFrame, type FrameRate } from "./timecode";

export interface Player {
  el: HTMLElement;
  video: HTMLVideoElement;
  /** notice holds what the player says above the picture (the preview's notice and progress). */
  notice: HTMLElement;
  /** setSource plays another file of the same programme (a preview), keeping the readout's frame rate. */
  setSource(src: string): void;
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

/** player plays src; with src null the element waits for setSource. */
export function player(src: string | null, rate: FrameRate | null, label: string): Player {
  const video = h("video", { id: "ws-video", preload: "auto", controls: true, playsinline: true, "aria-label": label }) as HTMLVideoElement;
  if (src !== null) video.src = src;
  const readout = h("output", { id: "ws-timecode", class: "timecode", "aria-live": "off" }, formatTimecode(0, rate));
  const notice = h("div", { id: "ws-player-notice" });
  const el = h("div", { id: "ws-player", class: "ws-player" }, notice, video, h("div", { class: "ws-player-bar" }, readout));
  const track = video.addTextTrack("captions", "Draft", "");
  track.mode = "showing";
  const listeners: ((ms: number) => void)[] = [];
  let rafPending = false;
  const tick = () => {
    const ms = video.currentTime * 1000;
    readout.textContent = formatTimecode(ms, rate);
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
  // Without a known rate, frames are stepped as at 25 fps.
  const stepRate: FrameRate = rate ?? { num: 25, den: 1 };
  const p: Player = {
    el,
    video,
    notice,
    setSource(next) {
      video.src = next;
      video.load();
    },
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
      const target = Math.max(0, msToFrame(p.timeMs(), stepRate) + frames);
      p.seek((frameToMs(target, stepRate) + frameToMs(target + 1, stepRate)) / 2);
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
