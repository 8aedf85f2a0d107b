// Starter export templates a user copies into a new template. Each is a
// complete, valid script: `function exportTimeline(cues, ctx)` returning
// a string or {body, filename, contentType}. The sources are String.raw
// so that their escapes ("\r\n", "\uFEFF") reach the editor as written;
// they must not contain backticks or "${".

export interface Starter {
  id: string;
  label: string;
  description: string;
  name: string;
  filenamePattern: string;
  contentType: string;
  source: string;
}

export const DEFAULT_FILENAME_PATTERN = "{project}-{template}.txt";
export const DEFAULT_CONTENT_TYPE = "text/plain; charset=utf-8";

const blank = String.raw`// exportTimeline gets the cues of a project's current timeline and ctx,
// and returns the file: a string, or {body, filename, contentType}.
function exportTimeline(cues, ctx) {
  const lines = [];
  for (const cue of cues) {
    lines.push(ctx.srtTime(cue.startMs) + "  " + cue.text);
  }
  return lines.join("\n") + "\n";
}
`;

const translatorsCSV = String.raw`// A cue list for translators: one row per cue with its number, times,
// duration, speaker and text, and empty Translation and Notes columns to
// fill in. Excel, Numbers and LibreOffice open it (UTF-8 with a byte
// order mark; fields quoted as RFC 4180 says).

const HEADER = ["#", "Start", "End", "Duration (s)", "Speaker", "Text", "Translation", "Notes"];

function csvField(value) {
  const s = value === null || value === undefined ? "" : String(value);
  return /[",\r\n]/.test(s) ? '"' + s.replace(/"/g, '""') + '"' : s;
}

function exportTimeline(cues, ctx) {
  const rows = [HEADER];
  for (const cue of cues) {
    rows.push([
      cue.index + 1,
      ctx.srtTime(cue.startMs),
      ctx.srtTime(cue.endMs),
      ctx.seconds(cue.endMs - cue.startMs),
      cue.speaker || "",
      cue.lines.join("\n"),
      "",
      "",
    ]);
  }
  return "\uFEFF" + rows.map((row) => row.map(csvField).join(",")).join("\r\n") + "\r\n";
}
`;

const edl = String.raw`// An EDL-style event list (CMX 3600 layout): one event per cue with
// SMPTE timecodes (HH:MM:SS:FF, non-drop) at the timeline's frame rate,
// or at FPS when the timeline has none. The cue text follows each event
// as a comment, so an editor can place the captions by timecode.

const FPS = 25; // used when the timeline does not say its frame rate

function edlTitle(name) {
  const t = name.toUpperCase().replace(/[^A-Z0-9 ._-]/g, "").trim();
  return (t || "CAPTIONS").slice(0, 60);
}

// fileName keeps a name safe on every file system.
function fileName(name) {
  return name.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, "_").trim() || "captions";
}

function exportTimeline(cues, ctx) {
  const fps = ctx.frameRate > 0 ? ctx.frameRate : FPS;
  const out = [];
  out.push("TITLE: " + edlTitle(ctx.projectName));
  out.push("FCM: NON-DROP FRAME");
  out.push("");
  for (const cue of cues) {
    const tcIn = ctx.timecode(cue.startMs, fps);
    const tcOut = ctx.timecode(cue.endMs, fps);
    // event, reel, track, transition, source in/out, record in/out
    out.push(ctx.pad(cue.index + 1, 3) + "  AX       V     C        " + tcIn + " " + tcOut + " " + tcIn + " " + tcOut);
    const who = cue.speaker ? cue.speaker.toUpperCase() + ": " : "";
    out.push("* CAPTION: " + who + cue.lines.join(" / "));
    out.push("");
  }
  return {
    body: out.join("\r\n"),
    filename: fileName(ctx.projectName) + "-" + fps + "fps.edl",
    contentType: "text/plain; charset=utf-8",
  };
}
`;

const reviewScript = String.raw`// A plain script for review: the speaker's name each time it changes,
// then each cue with its start time, the lines of a cue kept together.
// Print it or read it beside the video and note changes by time.

const INDENT = "    ";

function exportTimeline(cues, ctx) {
  const out = [];
  out.push(ctx.projectName);
  const facts = ["revision " + ctx.irRevision, cues.length + (cues.length === 1 ? " cue" : " cues")];
  if (ctx.language) facts.push("language " + ctx.language);
  out.push(facts.join(", "));
  let speaker = null;
  for (const cue of cues) {
    const who = cue.speaker || "";
    if (speaker === null || who !== speaker) {
      out.push("");
      out.push(who ? who.toUpperCase() : "(NO SPEAKER)");
      speaker = who;
    }
    const time = ctx.vttTime(cue.startMs);
    cue.lines.forEach(function (line, i) {
      out.push(INDENT + (i === 0 ? time : " ".repeat(time.length)) + "  " + line);
    });
  }
  return out.join("\n") + "\n";
}
`;

const jsonCues = String.raw`// The cues as JSON for a web player or a CMS: times in seconds, the
// speaker, and the lines. JSON.stringify escapes what JSON needs.

function exportTimeline(cues, ctx) {
  const doc = {
    title: ctx.projectName,
    language: ctx.language || null,
    revision: ctx.irRevision,
    cues: cues.map(function (cue) {
      return {
        id: cue.id,
        start: cue.startMs / 1000,
        end: cue.endMs / 1000,
        speaker: cue.speaker,
        lines: cue.lines,
      };
    }),
  };
  return JSON.stringify(doc, null, 2) + "\n";
}
`;

export const STARTERS: Starter[] = [
  {
    id: "blank",
    label: "Blank",
    description: "A minimal script: one line per cue with its start time.",
    name: "New template",
    filenamePattern: DEFAULT_FILENAME_PATTERN,
    contentType: DEFAULT_CONTENT_TYPE,
    source: blank,
  },
  {
    id: "translators-csv",
    label: "CSV for translators",
    description: "One row per cue: number, start, end, duration, speaker, text, and empty Translation and Notes columns. Opens in Excel and LibreOffice.",
    name: "Cue list for translators",
    filenamePattern: "{project}-translation.csv",
    contentType: "text/csv; charset=utf-8",
    source: translatorsCSV,
  },
  {
    id: "edl",
    label: "EDL, SMPTE timecodes",
    description: "An edit decision list in the CMX 3600 layout: one event per cue, timecodes at the timeline's frame rate (25 fps when it has none), the text as a comment.",
    name: "Caption EDL",
    filenamePattern: "{project}.edl",
    contentType: "text/plain; charset=utf-8",
    source: edl,
  },
  {
    id: "review-script",
    label: "Review script, speakers",
    description: "A plain-text script to read or print: each speaker's name when it changes, each cue with its start time.",
    name: "Review script",
    filenamePattern: "{project}-script-r{revision}.txt",
    contentType: "text/plain; charset=utf-8",
    source: reviewScript,
  },
  {
    id: "json-cues",
    label: "JSON for a web player",
    description: "The cues as a JSON document: times in seconds, speaker and lines.",
    name: "JSON cues",
    filenamePattern: "{project}-cues.json",
    contentType: "application/json",
    source: jsonCues,
  },
];
