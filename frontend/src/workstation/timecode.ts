// Timecodes for the caption workstation. With a frame rate, a time is a
// frame of the programme and reads HH:MM:SS:FF the way broadcast
// equipment labels it (SMPTE): a fractional rate such as 24000/1001 keeps
// its nominal 24 labels a second and runs 0.1% slow against the clock
// (non-drop-frame); 30000/1001 and 60000/1001 can count drop-frame
// instead (HH:MM:SS;FF), skipping labels so they stay within a frame of
// the clock. Either way a label names a frame, and a frame starts at
// frame × den × 1000 / num ms, as the SCC reader reads them
// (docs/cli.md, SCC times). Without a frame rate a time reads HH:MM:SS.mmm.

/** FrameRate is a frame rate as a fraction (30000/1001 for 29.97 fps), as getMediaAnalysis reports it. */
export interface FrameRate {
  num: number;
  den: number;
  /** drop counts 29.97 and 59.94 fps drop-frame (labels HH:MM:SS;FF); other rates ignore it. */
  drop?: boolean;
}

/** ParsedTime is what parseTimecode makes of a user's text: the time, or why it is refused. */
export type ParsedTime = { ok: true; ms: number } | { ok: false; error: string };

/** MAX_MS is the latest time accepted: 1000 hours, far past any programme, so a typo is refused. */
export const MAX_MS = 1000 * 3600 * 1000;

function checkRate(rate: FrameRate): void {
  if (!(rate.num > 0 && rate.den > 0 && Number.isFinite(rate.num / rate.den))) {
    throw new RangeError(`frame rate ${rate.num}/${rate.den} is not a positive fraction`);
  }
}

/** nominal is the number of frame labels a timecode second holds: 30 for 29.97 fps. */
function nominal(rate: FrameRate): number {
  return Math.max(1, Math.round(rate.num / rate.den));
}

/** dropPerMinute is how many labels drop-frame skips each minute (not each tenth): 0 when it does not apply. */
function dropPerMinute(rate: FrameRate): number {
  const n = nominal(rate);
  if (!rate.drop || rate.num / rate.den === n || n % 30 !== 0) return 0;
  return (n / 30) * 2;
}

/** msToFrame returns the frame whose start is nearest to ms (frames start at frameToMs). */
export function msToFrame(ms: number, rate: FrameRate): number {
  checkRate(rate);
  if (ms <= 0) return 0;
  return Math.round((ms * rate.num) / (rate.den * 1000));
}

/** frameToMs returns the start of a frame, rounded to the millisecond. */
export function frameToMs(frame: number, rate: FrameRate): number {
  checkRate(rate);
  if (frame <= 0) return 0;
  return Math.round((frame * rate.den * 1000) / rate.num);
}

/** snapToFrame moves a time to the start of its nearest frame. */
export function snapToFrame(ms: number, rate: FrameRate): number {
  return frameToMs(msToFrame(ms, rate), rate);
}

/**
 * rateFromFps turns a decimal rate (the IR's frameRate, a probe's
 * 29.97) into a fraction: the NTSC family to its /1001 fraction, any
 * other to thousandths.
 */
export function rateFromFps(fps: number, drop = false): FrameRate {
  if (!(fps > 0) || !Number.isFinite(fps)) throw new RangeError(`frame rate ${fps} is not positive`);
  for (const n of [24, 30, 48, 60, 120]) {
    if (Math.abs(fps - (n * 1000) / 1001) < 0.005) return { num: n * 1000, den: 1001, drop };
  }
  if (Number.isInteger(fps)) return { num: fps, den: 1, drop };
  return { num: Math.round(fps * 1000), den: 1000, drop };
}

const p2 = (n: number) => String(n).padStart(2, "0");

/** formatTimecode writes ms as HH:MM:SS:FF at a frame rate (";" before the frames drop-frame), or HH:MM:SS.mmm without one. */
export function formatTimecode(ms: number, rate?: FrameRate | null): string {
  const t = Math.max(0, Math.round(ms));
  if (!rate) {
    const s = Math.floor(t / 1000);
    return `${p2(Math.floor(s / 3600))}:${p2(Math.floor(s / 60) % 60)}:${p2(s % 60)}.${String(t % 1000).padStart(3, "0")}`;
  }
  const n = nominal(rate);
  const drop = dropPerMinute(rate);
  let label = msToFrame(t, rate);
  if (drop) {
    // Add back the labels skipped before this frame: 9 minutes in every 10 skip `drop` each.
    const per10 = n * 600 - 9 * drop;
    const perMin = n * 60 - drop;
    const tens = Math.floor(label / per10);
    const rest = label % per10;
    label += 9 * drop * tens + (rest > drop ? drop * Math.floor((rest - drop) / perMin) : 0);
  }
  const ff = label % n;
  const s = Math.floor(label / n);
  return `${p2(Math.floor(s / 3600))}:${p2(Math.floor(s / 60) % 60)}:${p2(s % 60)}${drop ? ";" : ":"}${p2(ff)}`;
}

const CLOCK = /^(?:(\d+):)??(?:(\d+):)?(\d+)(?:[.,](\d+))?$/;
const FRAMES = /^(\d+):(\d{1,2}):(\d{1,2})[:;](\d{1,3})$/;

/**
 * parseTimecode reads a time typed by a user: seconds ("62.5"), M:SS
 * ("1:02.5"), H:MM:SS with a decimal point or comma ("01:02:03,450"), or
 * with a frame rate a timecode HH:MM:SS:FF (";" for drop-frame labels:
 * "00:01:02:12"). A timecode comes back as its frame's start; other times
 * as typed, to the millisecond (the caller may snapToFrame). It refuses
 * what is not a time, with a sentence to show.
 */
export function parseTimecode(text: string, rate?: FrameRate | null): ParsedTime {
  const s = text.trim().replace(/\s+/g, "");
  if (s === "") return { ok: false, error: "Enter a time, such as 1:02.5 or 00:01:02.500." };
  if (s.startsWith("-")) return { ok: false, error: "A time cannot be negative." };
  const f = FRAMES.exec(s);
  if (f) {
    if (!rate) return { ok: false, error: "Frames (HH:MM:SS:FF) need a frame rate; write the seconds with a decimal point instead." };
    const [hh, mm, ss, ff] = f.slice(1).map((x) => parseInt(x, 10));
    const n = nominal(rate);
    if (mm > 59 || ss > 59) return { ok: false, error: "Minutes and seconds go up to 59." };
    if (ff >= n) return { ok: false, error: `At this frame rate frames go from 00 to ${p2(n - 1)}.` };
    const drop = dropPerMinute(rate);
    if (drop && ss === 0 && ff < drop && mm % 10 !== 0) {
      return { ok: false, error: `Drop-frame timecode skips frames 00 to ${p2(drop - 1)} at the start of this minute.` };
    }
    const minutes = hh * 60 + mm;
    const frame = (hh * 3600 + mm * 60 + ss) * n + ff - drop * (minutes - Math.floor(minutes / 10));
    const ms = frameToMs(frame, rate);
    return ms > MAX_MS ? { ok: false, error: "That time is past 1000 hours." } : { ok: true, ms };
  }
  const c = CLOCK.exec(s);
  if (!c) return { ok: false, error: `"${text.trim()}" is not a time: write seconds (62.5), M:SS (1:02.5) or HH:MM:SS.mmm.` };
  const [hh, mm, ss] = [c[1], c[2], c[3]].map((x) => (x === undefined ? undefined : parseInt(x, 10)));
  const lead = hh !== undefined ? "h" : mm !== undefined ? "m" : "s";
  if (lead !== "s" && (ss as number) > 59) return { ok: false, error: "Seconds go up to 59 after a colon." };
  if (lead === "h" && (mm as number) > 59) return { ok: false, error: "Minutes go up to 59 after the hours." };
  const frac = c[4] ?? "";
  const fracMs = frac === "" ? 0 : Math.round(parseFloat("0." + frac) * 1000);
  const ms = (((hh ?? 0) * 60 + (mm ?? 0)) * 60 + (ss as number)) * 1000 + fracMs;
  if (!Number.isSafeInteger(ms) || ms > MAX_MS) return { ok: false, error: "That time is past 1000 hours." };
  return { ok: true, ms };
}
