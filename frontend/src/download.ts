// Downloads of caption bodies built in the page and of files the server sent, and clipboard copy.

import type { OutputFormat } from "./api/types";

const MIME: Record<OutputFormat, string> = {
  srt: "application/x-subrip;charset=utf-8",
  vtt: "text/vtt;charset=utf-8",
  ttml: "application/ttml+xml;charset=utf-8",
  "ebu-tt-d": "application/ttml+xml;charset=utf-8",
  scc: "text/plain;charset=us-ascii",
  stl: "application/octet-stream",
  json: "application/json;charset=utf-8",
};

// EXT is the file extension of each output format, as the server names
// deliveries (format.Extension): EBU-TT-D is .xml.
const EXT: Record<OutputFormat, string> = {
  srt: "srt",
  vtt: "vtt",
  ttml: "ttml",
  "ebu-tt-d": "xml",
  scc: "scc",
  stl: "stl",
  json: "json",
};

/** mimeOf returns the media type of an output format. */
export function mimeOf(format: OutputFormat): string {
  return MIME[format] ?? "text/plain;charset=utf-8";
}

/** outputName is the input's base name with the output format's extension. */
export function outputName(inputName: string, format: OutputFormat, suffix = ""): string {
  const base = inputName.replace(/^.*[\\/]/, "").replace(/\.[^.]*$/, "") || "captions";
  return `${base}${suffix}.${EXT[format] ?? format}`;
}

/** fromBase64 decodes an output the server sent as base64 (outputEncoding "base64": a binary format such as EBU STL). */
export function fromBase64(s: string): Uint8Array<ArrayBuffer> {
  const bin = atob(s);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** download saves text, bytes, or a file the server sent (a Blob), as a file through a temporary object URL. */
export function download(data: string | Uint8Array<ArrayBuffer> | Blob, filename: string, mime: string): void {
  const blob = data instanceof Blob ? data : new Blob([data], { type: mime });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filename;
  a.hidden = true;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Give the browser time to start the download before the URL goes.
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** copyText copies to the clipboard; without the async API (or permission) it falls back to a selection copy. */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard && window.isSecureContext) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Fall back below.
  }
  const ta = document.createElement("textarea");
  ta.value = text;
  ta.setAttribute("readonly", "");
  ta.style.position = "fixed";
  ta.style.opacity = "0";
  document.body.appendChild(ta);
  const active = document.activeElement as HTMLElement | null;
  ta.select();
  let ok = false;
  try {
    ok = document.execCommand("copy");
  } catch {
    ok = false;
  }
  ta.remove();
  active?.focus();
  return ok;
}
