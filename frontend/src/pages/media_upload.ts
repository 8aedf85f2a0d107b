// The media upload engine of the Media & Jobs page (no DOM): a session
// from POST /api/v1/media/upload, its parts PUT to the signed URLs (up to
// three at a time, with progress through XMLHttpRequest), each part
// retried with backoff when the connection fails, then complete. The
// pending upload is remembered in sessionStorage with the file's name and
// size, so after a reload (or a longer break) choosing the same file
// resumes it: GET /api/v1/media/upload/{id} tells which parts arrived and
// gives fresh URLs, and only the missing parts are sent.
//
// An Upload lives at module level, not in the page, so leaving the page
// and coming back finds it still running.

import { ApiError, errorOf, messageOf } from "../api/client";
import type { MediaApi, MediaSession } from "./media_api";

/** PARALLEL is how many parts are in flight at once. */
const PARALLEL = 3;
/** RETRIES is how many times a failed part is sent again before the upload stops. */
const RETRIES = 3;
/** BACKOFF_MS is the wait before the first retry; it doubles for each next one. */
const BACKOFF_MS = 1000;
const SPEED_WINDOW_MS = 4000;
const STORE_KEY = "captionqa.mediaUploads";

export type UploadPhase = "preparing" | "uploading" | "completing" | "done" | "paused" | "stopped";

export interface UploadState {
  phase: UploadPhase;
  projectId: string;
  filename: string;
  uploadId: string;
  /** total and sent count bytes; sent includes parts stored by an earlier attempt. */
  total: number;
  sent: number;
  /** bytesPerSecond is the recent rate, 0 until there is enough to measure. */
  bytesPerSecond: number;
  partsDone: number;
  partsTotal: number;
  /** resumed is true when parts stored earlier were skipped. */
  resumed: boolean;
  /** retrying says a part is waiting to be sent again (attempt of RETRIES). */
  retrying: { attempt: number; of: number; inSeconds: number } | null;
  /** message explains a stop (the envelope's message or the network). */
  message: string;
  /** canResume is set when a stopped upload can pick up where it ended. */
  canResume: boolean;
  /** error is the API's error behind a stop, if any. */
  error: ApiError | null;
  /** session is the completed session, once done. */
  session: MediaSession | null;
}

// ---- what sessionStorage keeps

/** Pending is an upload begun in this tab and not completed yet. */
export interface Pending {
  uploadId: string;
  projectId: string;
  objectKey: string;
  filename: string;
  bytes: number;
  lastModified: number;
  multipart: boolean;
  savedAt: number;
}

function readStore(): Pending[] {
  try {
    const v = JSON.parse(sessionStorage.getItem(STORE_KEY) ?? "[]");
    return Array.isArray(v) ? (v as Pending[]).filter((p) => p && typeof p.uploadId === "string") : [];
  } catch {
    return [];
  }
}

function writeStore(list: Pending[]): void {
  try {
    if (list.length) sessionStorage.setItem(STORE_KEY, JSON.stringify(list));
    else sessionStorage.removeItem(STORE_KEY);
  } catch {
    // Storage full or off: resuming after a reload is then not offered.
  }
}

/** pendingUploads lists the remembered uploads of a project, newest first. */
export function pendingUploads(projectId: string): Pending[] {
  return readStore()
    .filter((p) => p.projectId === projectId)
    .sort((a, b) => b.savedAt - a.savedAt);
}

function remember(p: Pending): void {
  writeStore([p, ...readStore().filter((x) => x.uploadId !== p.uploadId)]);
}

/** forgetUpload drops a remembered upload (the server lets it expire). */
export function forgetUpload(uploadId: string): void {
  writeStore(readStore().filter((x) => x.uploadId !== uploadId));
}

/** sameFile tells whether a chosen file is the one a pending upload began with. */
export function sameFile(p: Pending, f: File): boolean {
  return p.filename === f.name && p.bytes === f.size && (!p.lastModified || !f.lastModified || p.lastModified === f.lastModified);
}

// ---- one part's PUT

/** PutError is a failed PUT: status 0 for the network, aborted when paused. */
class PutError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly api: ApiError | null,
    readonly aborted = false,
  ) {
    super(message);
  }
}

/** putPart sends one part; the request is in inFlight while it runs (pause aborts them). */
function putPart(url: string, body: Blob, onProgress: (loaded: number) => void, inFlight: Set<XMLHttpRequest>): Promise<string> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const track = (on: boolean) => (on ? inFlight.add(xhr) : inFlight.delete(xhr));
    track(true);
    xhr.open("PUT", url);
    xhr.responseType = "text";
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onload = () => {
      track(false);
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        const fromBody = body && typeof (body as { etag?: unknown }).etag === "string" ? (body as { etag: string }).etag : "";
        const etag = fromBody || (xhr.getResponseHeader("ETag") ?? "").replace(/^W\//, "").replace(/"/g, "");
        if (!etag) {
          reject(new PutError("The service stored a part but did not answer its etag.", xhr.status, null));
          return;
        }
        resolve(etag);
        return;
      }
      const api = errorOf(xhr.status, body);
      reject(new PutError(api.message, xhr.status, api));
    };
    xhr.onerror = () => {
      track(false);
      reject(new PutError("The connection broke while sending a part.", 0, null));
    };
    xhr.ontimeout = xhr.onerror;
    xhr.onabort = () => {
      track(false);
      reject(new PutError("Paused.", 0, null, true));
    };
    xhr.send(body);
  });
}

interface PlannedPart {
  partNumber: number;
  url: string;
  bytes: number;
  offset: number;
}

/** planOf lists every part of a session with its place in the file. */
function planOf(s: MediaSession): PlannedPart[] {
  if (!s.multipart) return [{ partNumber: 1, url: s.url ?? "", bytes: s.bytes, offset: 0 }];
  const parts = [...(s.parts ?? [])].sort((a, b) => a.partNumber - b.partNumber);
  let cum = 0;
  return parts.map((p) => {
    const offset = s.partSize ? (p.partNumber - 1) * s.partSize : cum;
    cum += p.bytes;
    return { partNumber: p.partNumber, url: p.url, bytes: p.bytes, offset };
  });
}

const sleep = (ms: number) => new Promise<void>((r) => window.setTimeout(r, ms));

/** contentTypeOf is the file's media type, or one guessed from its extension. */
export function contentTypeOf(f: File): string {
  if (f.type) return f.type;
  const ext = f.name.toLowerCase().replace(/^.*\./, "");
  const byExt: Record<string, string> = {
    mp4: "video/mp4",
    m4v: "video/mp4",
    mov: "video/quicktime",
    mkv: "video/x-matroska",
    webm: "video/webm",
    ts: "video/mp2t",
    mts: "video/mp2t",
    m2ts: "video/mp2t",
    mxf: "application/mxf",
  };
  return byExt[ext] ?? "application/octet-stream";
}

// ---- the upload

type Listener = (s: UploadState) => void;

export class Upload {
  state: UploadState;
  private listeners = new Set<Listener>();
  private xhrs = new Set<XMLHttpRequest>();
  private pausing = false;
  private running = false;
  private inFlight = new Map<number, number>();
  private doneBytes = 0;
  private samples: [number, number][] = [];
  private movedThisRun = 0;
  private lastEmit = 0;

  constructor(
    private api: MediaApi,
    readonly file: File,
    projectId: string,
    uploadId = "",
  ) {
    this.state = {
      phase: "preparing",
      projectId,
      filename: file.name,
      uploadId,
      total: file.size,
      sent: 0,
      bytesPerSecond: 0,
      partsDone: 0,
      partsTotal: 0,
      resumed: false,
      retrying: null,
      message: "",
      canResume: false,
      error: null,
      session: null,
    };
  }

  /** active tells whether bytes are moving or about to (the page warns before it is closed). */
  get active(): boolean {
    return this.running;
  }

  subscribe(fn: Listener): () => void {
    this.listeners.add(fn);
    fn(this.state);
    return () => this.listeners.delete(fn);
  }

  private set(patch: Partial<UploadState>, force = true): void {
    this.state = { ...this.state, ...patch };
    const now = performance.now();
    if (!force && now - this.lastEmit < 100) return;
    this.lastEmit = now;
    for (const fn of this.listeners) fn(this.state);
  }

  /** pause stops the parts in flight; resume sends what is missing. */
  pause(): void {
    if (!this.running) return;
    this.pausing = true;
    for (const x of this.xhrs) x.abort();
  }

  /** run starts the upload, or resumes it: only parts the server lacks are sent. */
  async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.pausing = false;
    this.inFlight.clear();
    this.samples = [];
    this.movedThisRun = 0;
    this.set({ phase: "preparing", message: "", canResume: false, error: null, retrying: null, bytesPerSecond: 0 });
    try {
      await this.work();
    } catch (e) {
      if (e instanceof PutError && e.aborted) {
        this.set({ phase: "paused", canResume: true, message: "", retrying: null, bytesPerSecond: 0 });
      } else {
        const api = e instanceof PutError ? e.api : e instanceof ApiError ? e : null;
        // The network (or a busy server) can come back: the parts stored so far stay.
        const transient = !api || api.status === 0 || api.status >= 500 || api.status === 429 || api.status === 403;
        const gone = api?.status === 409 || api?.status === 404;
        this.set({
          phase: "stopped",
          message: e instanceof PutError ? e.message : messageOf(e),
          error: api,
          canResume: !!this.state.uploadId && transient && !gone,
          retrying: null,
          bytesPerSecond: 0,
        });
        // What cannot be resumed is not offered again after a reload.
        if (!this.state.canResume && this.state.uploadId) forgetUpload(this.state.uploadId);
      }
    } finally {
      this.running = false;
      for (const x of this.xhrs) x.abort();
      this.xhrs.clear();
    }
  }

  private async session(): Promise<MediaSession> {
    const f = this.file;
    if (this.state.uploadId) {
      const s = await this.api.getUpload(this.state.uploadId);
      if (s.status === "pending" || s.status === "completed") return s;
      // Expired or rejected: start over with a new session.
      forgetUpload(this.state.uploadId);
    }
    const s = await this.api.createUpload({ projectId: this.state.projectId, filename: f.name, contentType: contentTypeOf(f), bytes: f.size });
    remember({
      uploadId: s.uploadId,
      projectId: this.state.projectId,
      objectKey: s.objectKey,
      filename: f.name,
      bytes: f.size,
      lastModified: f.lastModified,
      multipart: s.multipart,
      savedAt: Date.now(),
    });
    return s;
  }

  private async work(): Promise<void> {
    let s = await this.session();
    this.set({ uploadId: s.uploadId });
    if (s.status === "completed") {
      forgetUpload(s.uploadId);
      this.set({ phase: "done", sent: s.bytes, session: s, partsDone: this.state.partsTotal });
      return;
    }
    const plan = planOf(s);
    const urls = new Map(plan.map((p) => [p.partNumber, p.url]));
    const etags = new Map<number, string>();
    for (const r of s.receivedParts ?? []) {
      const want = plan.find((p) => p.partNumber === r.partNumber);
      if (want && r.bytes === want.bytes && r.etag) etags.set(r.partNumber, r.etag);
    }
    const todo = plan.filter((p) => !etags.has(p.partNumber));
    this.doneBytes = plan.filter((p) => etags.has(p.partNumber)).reduce((n, p) => n + p.bytes, 0);
    this.set({ phase: "uploading", sent: this.doneBytes, partsTotal: plan.length, partsDone: etags.size, resumed: etags.size > 0 });

    let refreshed: Promise<void> | null = null;
    const refreshUrls = (): Promise<void> => {
      refreshed ??= this.api.getUpload(s.uploadId).then((fresh) => {
        s = fresh;
        for (const p of planOf(fresh)) if (p.url) urls.set(p.partNumber, p.url);
      });
      return refreshed;
    };

    const sendOne = async (p: PlannedPart): Promise<void> => {
      const blob = this.file.slice(p.offset, p.offset + p.bytes);
      for (let attempt = 0; ; attempt++) {
        if (this.pausing) throw new PutError("Paused.", 0, null, true);
        try {
          const etag = await putPart(
            urls.get(p.partNumber) ?? p.url,
            blob,
            (loaded) => this.progress(p.partNumber, loaded),
            this.xhrs,
          );
          this.inFlight.delete(p.partNumber);
          etags.set(p.partNumber, etag);
          this.doneBytes += p.bytes;
          this.set({ partsDone: etags.size, sent: this.sentNow(), retrying: null });
          return;
        } catch (e) {
          this.inFlight.delete(p.partNumber);
          this.set({ sent: this.sentNow() }, false);
          if (!(e instanceof PutError) || e.aborted || this.pausing) throw e;
          // The session is over (completed elsewhere) or the part is the wrong size: no retry helps.
          if (e.status === 409 || e.status === 413 || e.status === 400 || e.status === 404) throw e;
          if (attempt >= RETRIES) throw e;
          // An expired signature gets fresh URLs; the network or a busy server a pause first.
          if (e.status === 403) {
            await refreshUrls();
            continue;
          }
          const hinted = Number(e.api?.details?.retryAfterSeconds);
          const wait = e.status === 429 && hinted > 0 ? hinted * 1000 : BACKOFF_MS * 2 ** attempt;
          this.set({ retrying: { attempt: attempt + 1, of: RETRIES, inSeconds: Math.ceil(wait / 1000) } });
          await sleep(wait);
        }
      }
    };

    // Up to PARALLEL workers take the next part; the first failure stops the rest.
    const queue = [...todo];
    let failure: unknown = null;
    const worker = async () => {
      while (queue.length && failure === null) {
        const p = queue.shift()!;
        try {
          await sendOne(p);
        } catch (e) {
          if (failure === null) failure = e;
          // Stop the others: their parts are sent again on resume.
          if (!(e instanceof PutError && e.aborted)) for (const x of this.xhrs) x.abort();
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(PARALLEL, todo.length) }, worker));
    if (failure !== null) {
      // A failure aborts the others: report the failure, not their aborts.
      throw failure;
    }

    this.set({ phase: "completing", sent: this.state.total, retrying: null, bytesPerSecond: 0 });
    const req = {
      projectId: this.state.projectId,
      objectKey: s.objectKey,
      multipart: s.multipart,
      ...(s.multipart ? { parts: plan.map((p) => ({ partNumber: p.partNumber, etag: etags.get(p.partNumber) ?? "" })) } : {}),
    };
    let done: MediaSession;
    for (let attempt = 0; ; attempt++) {
      try {
        done = await this.api.completeUpload(s.uploadId, req);
        break;
      } catch (e) {
        // The network dropped on the way: the parts are all there, ask again.
        if (!(e instanceof ApiError) || e.status !== 0 || attempt >= RETRIES || this.pausing) throw e;
        const wait = BACKOFF_MS * 2 ** attempt;
        this.set({ retrying: { attempt: attempt + 1, of: RETRIES, inSeconds: Math.ceil(wait / 1000) } });
        await sleep(wait);
        this.set({ retrying: null });
      }
    }
    forgetUpload(s.uploadId);
    this.set({ phase: "done", session: done, sent: this.state.total });
  }

  private sentNow(): number {
    let n = this.doneBytes;
    for (const v of this.inFlight.values()) n += v;
    return Math.min(n, this.state.total);
  }

  private progress(part: number, loaded: number): void {
    const before = this.inFlight.get(part) ?? 0;
    this.inFlight.set(part, loaded);
    if (loaded > before) this.movedThisRun += loaded - before;
    const now = performance.now();
    this.samples.push([now, this.movedThisRun]);
    while (this.samples.length > 2 && now - this.samples[0][0] > SPEED_WINDOW_MS) this.samples.shift();
    const [t0, b0] = this.samples[0];
    const dt = now - t0;
    const bps = dt >= 500 ? ((this.movedThisRun - b0) * 1000) / dt : this.state.bytesPerSecond;
    this.set({ sent: this.sentNow(), bytesPerSecond: bps }, false);
  }
}

/** current is the upload of this tab, kept while the page is away. */
let current: Upload | null = null;

export function currentUpload(): Upload | null {
  return current;
}

export function setCurrentUpload(u: Upload | null): void {
  current = u;
}

window.addEventListener("beforeunload", (e) => {
  if (current?.active) {
    // The browser asks before the tab closes; a reload can still resume.
    e.preventDefault();
    e.returnValue = "";
  }
});
