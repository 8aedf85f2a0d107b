// A small reader of the uploaded caption file, for display only: the
// report's cueIndex values point into the source track, which the
// response does not carry, so the page reads cue times and text itself.
// Cues come out in presentation order (by start, then source order), as
// the IR v1 orders them. The server's readers stay the authority; when
// this reader cannot follow a file, the timeline says so.

export interface Cue {
  startMs: number;
  endMs: number;
  text: string;
}

const ARROW = /(\d{1,2}:)?(\d{1,2}):(\d{1,2})[,.](\d{1,3})\s*-->\s*(\d{1,2}:)?(\d{1,2}):(\d{1,2})[,.](\d{1,3})/;

function ms(h: string | undefined, m: string, s: string, frac: string): number {
  const hh = h ? parseInt(h, 10) : 0;
  const f = parseInt(frac.padEnd(3, "0").slice(0, 3), 10);
  return ((hh * 60 + parseInt(m, 10)) * 60 + parseInt(s, 10)) * 1000 + f;
}

function stripTags(s: string): string {
  return s
    .replace(/<[^>]*>/g, "")
    .replace(/\{\\[^}]*\}/g, "")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&nbsp;/g, "\u00a0");
}

function arrowCues(text: string): Cue[] {
  const cues: Cue[] = [];
  const blocks = text.replace(/\r\n?/g, "\n").split(/\n\s*\n/);
  for (const b of blocks) {
    const lines = b.split("\n");
    const i = lines.findIndex((l) => ARROW.test(l));
    if (i < 0) continue;
    const m = ARROW.exec(lines[i]);
    if (!m) continue;
    const body = lines.slice(i + 1).map((l) => stripTags(l).trim()).filter((l) => l !== "");
    cues.push({
      startMs: ms(m[1]?.slice(0, -1), m[2], m[3], m[4]),
      endMs: ms(m[5]?.slice(0, -1), m[6], m[7], m[8]),
      text: body.join("\n"),
    });
  }
  return cues;
}

const SBV = /^(\d+):(\d{1,2}):(\d{1,2})\.(\d{1,3}),(\d+):(\d{1,2}):(\d{1,2})\.(\d{1,3})\s*$/;

function sbvCues(text: string): Cue[] {
  const cues: Cue[] = [];
  for (const b of text.replace(/\r\n?/g, "\n").split(/\n\s*\n/)) {
    const lines = b.split("\n").filter((l) => l.trim() !== "");
    const m = lines.length ? SBV.exec(lines[0].trim()) : null;
    if (!m) continue;
    cues.push({ startMs: ms(m[1], m[2], m[3], m[4]), endMs: ms(m[5], m[6], m[7], m[8]), text: lines.slice(1).join("\n") });
  }
  return cues;
}

const ASS_TIME = /^(\d+):(\d{2}):(\d{2})\.(\d{1,2})$/;

function assCues(text: string): Cue[] {
  const cues: Cue[] = [];
  let fields: string[] = [];
  for (const raw of text.replace(/\r\n?/g, "\n").split("\n")) {
    const line = raw.trim();
    if (/^format:/i.test(line)) fields = line.slice(7).split(",").map((f) => f.trim().toLowerCase());
    if (!/^dialogue:/i.test(line)) continue;
    const parts = line.slice(9).split(",");
    const n = fields.length || 10;
    const get = (name: string, def: number) => parts[fields.indexOf(name) >= 0 ? fields.indexOf(name) : def]?.trim() ?? "";
    const s = ASS_TIME.exec(get("start", 1));
    const e = ASS_TIME.exec(get("end", 2));
    if (!s || !e) continue;
    const body = parts.slice(n - 1).join(",");
    cues.push({
      startMs: ms(s[1], s[2], s[3], s[4].padEnd(2, "0") + "0"),
      endMs: ms(e[1], e[2], e[3], e[4].padEnd(2, "0") + "0"),
      text: stripTags(body).replace(/\\N/gi, "\n").trim(),
    });
  }
  return cues;
}

function ttmlTime(v: string | null, rate: number): number | null {
  if (!v) return null;
  let m = /^(\d+):(\d{2}):(\d{2})(?:\.(\d+))?$/.exec(v);
  if (m) return ms(m[1], m[2], m[3], m[4] ?? "0");
  m = /^(\d+):(\d{2}):(\d{2}):(\d+)$/.exec(v);
  if (m) return ms(m[1], m[2], m[3], "0") + Math.round((parseInt(m[4], 10) * 1000) / rate);
  m = /^([\d.]+)(h|m|s|ms|f)$/.exec(v);
  if (m) {
    const n = parseFloat(m[1]);
    const k = { h: 3600000, m: 60000, s: 1000, ms: 1, f: 1000 / rate }[m[2] as "h" | "m" | "s" | "ms" | "f"];
    return Math.round(n * k);
  }
  return null;
}

function ttmlCues(text: string): Cue[] {
  const doc = new DOMParser().parseFromString(text, "application/xml");
  if (doc.getElementsByTagName("parsererror").length) return [];
  const rate = parseFloat(doc.documentElement.getAttribute("ttp:frameRate") ?? "30") || 30;
  const cues: Cue[] = [];
  for (const p of Array.from(doc.getElementsByTagNameNS("*", "p"))) {
    const start = ttmlTime(p.getAttribute("begin"), rate);
    let end = ttmlTime(p.getAttribute("end"), rate);
    const dur = ttmlTime(p.getAttribute("dur"), rate);
    if (start === null) continue;
    if (end === null && dur !== null) end = start + dur;
    const lines: string[] = [];
    let cur = "";
    const walk = (n: Node) => {
      n.childNodes.forEach((c) => {
        if (c.nodeType === Node.TEXT_NODE) cur += c.textContent ?? "";
        else if ((c as Element).localName === "br") {
          lines.push(cur);
          cur = "";
        } else walk(c);
      });
    };
    walk(p);
    lines.push(cur);
    cues.push({ startMs: start, endMs: end ?? start, text: lines.map((l) => l.replace(/\s+/g, " ").trim()).join("\n") });
  }
  return cues;
}

function jsonCues(text: string): Cue[] {
  const v: unknown = JSON.parse(text);
  const list = (v as { cues?: unknown }).cues;
  if (!Array.isArray(list)) return [];
  return list
    .filter((c): c is Cue => typeof c?.startMs === "number" && typeof c?.endMs === "number")
    .map((c) => ({ startMs: c.startMs, endMs: c.endMs, text: String(c.text ?? "") }));
}

/** readCues reads the cues of a caption file, or returns [] when it cannot. */
export function readCues(name: string, text: string): Cue[] {
  const ext = name.toLowerCase().split(".").pop() ?? "";
  const head = text.replace(/^\ufeff/, "").trimStart();
  let cues: Cue[] = [];
  try {
    if (ext === "json" || head.startsWith("{")) cues = jsonCues(head);
    else if (ext === "ttml" || ext === "dfxp" || ext === "xml" || head.startsWith("<")) cues = ttmlCues(head);
    else if (ext === "ass" || ext === "ssa" || /^\[script info\]/i.test(head)) cues = assCues(head);
    else if (ext === "sbv") cues = sbvCues(head);
    else cues = arrowCues(head);
  } catch {
    return [];
  }
  // Stable sort by start, as the IR orders cues.
  return cues.map((c, i) => ({ c, i })).sort((a, b) => a.c.startMs - b.c.startMs || a.i - b.i).map((x) => x.c);
}

/** clock formats milliseconds as H:MM:SS.mmm (hours only when needed). */
export function clock(msTotal: number): string {
  const neg = msTotal < 0;
  let t = Math.abs(Math.round(msTotal));
  const msPart = t % 1000;
  t = Math.floor(t / 1000);
  const s = t % 60;
  t = Math.floor(t / 60);
  const m = t % 60;
  const hh = Math.floor(t / 60);
  const p2 = (n: number) => String(n).padStart(2, "0");
  const base = `${hh > 0 ? hh + ":" + p2(m) : p2(m)}:${p2(s)}.${String(msPart).padStart(3, "0")}`;
  return neg ? "-" + base : base;
}
