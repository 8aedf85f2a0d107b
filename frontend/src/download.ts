// Downloads of caption bodies built in the page and of files the server sent, and clipboard copy.

import type { OutputFormat } from "./api/types";

const MIME: Record<OutputFormat, string> = {
  srt: "application/x-subrip;charset=utf-8",
  vtt: "text/vtt;charset=utf-8",
  ttml: "application/ttml+xml;charset=utf-8",
  json: "application/json;charset=utf-8",
};

/** mimeOf returns the media type of an output format. */
export function mimeOf(format: OutputFormat): string {
  return MIME[format] ?? "text/plain;charset=utf-8";
}

/** outputName is the input's base name with the output format's extension. */
export function outputName(inputName: string, format: OutputFormat, suffix = ""): string {
  const base = inputName.replace(/^.*[\\/]/, "").replace(/\.[^.]*$/, "") || "captions";
  return `${base}${suffix}.${format}`;
}

/** download saves text, or a file the server sent (a Blob), as a file through a temporary object URL. */
export function download(data: string | Blob, filename: string, mime: string): void {
  const blob = typeof data === "string" ? new Blob([data], { type: mime }) : data;
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
