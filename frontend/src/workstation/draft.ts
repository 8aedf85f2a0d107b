// The draft of a project's caption timeline: the IR v1 document of one
// revision (the IRTrack schema of the contract) with the user's edits on
// top, until it is saved as the next revision. Cues are kept as the raw
// IR objects, so every field an edit does not touch (id, spans, voice,
// style, placement, ext, and fields of later IR versions) goes back as it
// came; so do the document's other top-level fields.
//
// Edits are commands made of a few primitive steps on the cue array (set
// one cue, insert, remove, move), each with its inverse, so undo and redo
// cost what the edit cost: an array splice, never a pass over 30,000
// cues. Cue objects are never changed in place: a step swaps one object
// for another, so undo restores the very object it replaced.
//
// The same steps, logged since the base revision, are the journal kept
// in localStorage under the project's id, so unsaved edits survive a
// reload. A journal longer than the cue list is compacted to one step
// holding every cue.

/** IRCue is one cue as the IR carries it; fields the draft does not know ride along untouched. */
export interface IRCue {
  id: string;
  startMs: number;
  endMs: number;
  text: string;
  spans?: IRSpan[];
  [field: string]: unknown;
}

/** IRSpan styles the code points [start, end) of a cue's text. */
export interface IRSpan {
  start: number;
  end: number;
  [field: string]: unknown;
}

/** OpKind names an edit; the change events carry it. */
export type OpKind = "text" | "times" | "split" | "merge" | "insert" | "remove";

/** ChangeKind is an edit's kind, or "restore" (edits replayed from storage) or "saved" (markSaved). */
export type ChangeKind = OpKind | "restore" | "saved";

/** Via says whether a change is an edit, its undo or its redo. */
export type Via = "do" | "undo" | "redo";

/** ChangeListener hears of every change: index is the cue to show afterwards (-1 when none is left). */
export type ChangeListener = (kind: ChangeKind, index: number, via: Via) => void;

/** DraftError is an edit refused, or a document that is not IR v1; its message is a sentence to show. */
export class DraftError extends Error {
  override name = "DraftError";
}

/** Step is one primitive change of the cue array; "all" (compaction) replaces every cue. */
type Step =
  | { op: "set"; i: number; before: IRCue; after: IRCue }
  | { op: "insert"; i: number; cue: IRCue }
  | { op: "remove"; i: number; cue: IRCue }
  | { op: "move"; from: number; to: number };

/** JournalStep is a step as stored: forward only. */
type JournalStep =
  | { op: "set"; i: number; cue: IRCue }
  | { op: "insert"; i: number; cue: IRCue }
  | { op: "remove"; i: number }
  | { op: "move"; from: number; to: number }
  | { op: "all"; cues: IRCue[] };

interface Command {
  kind: OpKind;
  steps: Step[];
  /** index is the cue to show after the edit, undoIndex after its undo. */
  index: number;
  undoIndex: number;
  /** at is when a text command was last extended, for coalescing typing. */
  at: number;
}

/** StoredDraft is what localStorage holds for a project. */
interface StoredDraft {
  v: 1;
  baseRevision: number;
  savedAt: number;
  journal: JournalStep[];
}

/** StoredDraftInfo describes a project's stored draft without opening it. */
export interface StoredDraftInfo {
  baseRevision: number;
  /** savedAt is when it was last written, in ms since the epoch. */
  savedAt: number;
  steps: number;
}

export interface DraftOptions {
  projectId: string;
  /** baseRevision is the revision the IR text is; the next save is baseRevision + 1 on the server. */
  baseRevision: number;
  /** storage keeps the unsaved edits; null keeps nothing. Default: window.localStorage. */
  storage?: Storage | null;
  /** autosaveMs is how long after a change the journal is written (at most this often while typing). Default 500. */
  autosaveMs?: number;
  /** historyLimit bounds the undo history. Default 500. */
  historyLimit?: number;
  /** coalesceMs: text edits of one cue closer than this undo as one. Default 1000. */
  coalesceMs?: number;
  now?: () => number;
}

/** OpenResult is a draft with what happened to the project's stored edits. */
export interface OpenResult {
  draft: Draft;
  /** restored: stored edits of this base revision were replayed. */
  restored: boolean;
  /**
   * stale: stored edits of another base revision, left in storage: open
   * that revision's IR with its number to get them back, or
   * discardStoredDraft.
   */
  stale: StoredDraftInfo | null;
}

/** INSERT_MS is the length of a cue insertAfter adds; MIN_GAP_MS is the least gap it fills instead of going after. */
const INSERT_MS = 1000;
const MIN_GAP_MS = 500;

/** draftKey is the localStorage key of a project's unsaved edits. */
export function draftKey(projectId: string): string {
  return `captionqa.draft.${projectId}`;
}

function defaultStorage(): Storage | null {
  try {
    return typeof window !== "undefined" ? window.localStorage : null;
  } catch {
    // Storage can be disabled (privacy settings): the draft then keeps nothing.
    return null;
  }
}

function readStored(storage: Storage | null, projectId: string): StoredDraft | null {
  if (!storage) return null;
  try {
    const raw = storage.getItem(draftKey(projectId));
    if (!raw) return null;
    const v = JSON.parse(raw) as StoredDraft;
    if (v?.v !== 1 || typeof v.baseRevision !== "number" || !Array.isArray(v.journal)) return null;
    return v;
  } catch {
    return null;
  }
}

/** storedDraft describes a project's stored unsaved edits, or null. */
export function storedDraft(projectId: string, storage: Storage | null = defaultStorage()): StoredDraftInfo | null {
  const s = readStored(storage, projectId);
  return s ? { baseRevision: s.baseRevision, savedAt: s.savedAt, steps: s.journal.length } : null;
}

/**
 * storeRebased keeps cues as the unsaved edits of revision: Draft.open of
 * that revision's IR replays them (the merge of a draft with a newer
 * revision lands this way, through a reload of the editor). It returns
 * false when storage refused it.
 */
export function storeRebased(projectId: string, revision: number, cues: IRCue[], storage: Storage | null = defaultStorage(), now = Date.now()): boolean {
  if (!storage) return false;
  const v: StoredDraft = { v: 1, baseRevision: revision, savedAt: now, journal: [{ op: "all", cues }] };
  try {
    storage.setItem(draftKey(projectId), JSON.stringify(v));
    return true;
  } catch {
    return false;
  }
}

/** discardStoredDraft forgets a project's stored unsaved edits. */
export function discardStoredDraft(projectId: string, storage: Storage | null = defaultStorage()): void {
  storage?.removeItem(draftKey(projectId));
}

function isCue(c: unknown): c is IRCue {
  const x = c as IRCue;
  return typeof x === "object" && x !== null && Number.isInteger(x.startMs) && Number.isInteger(x.endMs) && typeof x.text === "string";
}

/** codePoints counts the code points of a string (IR spans count code points, a textarea UTF-16 units). */
function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdbff || i + 1 >= s.length) n++;
    else {
      n++;
      i++;
    }
  }
  return n;
}

/** cpOffset converts a UTF-16 offset into s to code points, never inside a surrogate pair. */
function cpOffset(s: string, utf16: number): number {
  return codePoints(s.slice(0, utf16));
}

/** clipSpans keeps the spans' parts within [from, to), shifted to start at from. */
function clipSpans(spans: IRSpan[], from: number, to: number): IRSpan[] {
  const out: IRSpan[] = [];
  for (const sp of spans) {
    const a = Math.max(sp.start, from);
    const b = Math.min(sp.end, to);
    if (b > a) out.push({ ...sp, start: a - from, end: b - from });
  }
  return out;
}

/**
 * remapSpans moves spans over a text edit: the common start and end of
 * the two texts keep their styling, a span over the replaced middle
 * stretches or shrinks with it.
 */
function remapSpans(spans: IRSpan[], before: string, after: string): IRSpan[] {
  let p = 0;
  const max = Math.min(before.length, after.length);
  while (p < max && before.charCodeAt(p) === after.charCodeAt(p)) p++;
  if (p > 0 && p < before.length && /[\udc00-\udfff]/.test(before[p])) p--;
  let q = 0;
  while (q < max - p && before.charCodeAt(before.length - 1 - q) === after.charCodeAt(after.length - 1 - q)) q++;
  if (q > 0 && /[\udc00-\udfff]/.test(before[before.length - q] ?? "")) q--;
  const cpP = cpOffset(before, p);
  const oldEnd = cpOffset(before, before.length - q);
  const newEnd = cpOffset(after, after.length - q);
  const delta = newEnd - oldEnd;
  // Text typed at a span's edge takes the styling of the character before
  // it, as word processors do: after a span's end it joins the span, at
  // its start it does not. A span within the replaced stretch keeps it.
  const move = (x: number, isEnd: boolean) => {
    if (x < cpP || (isEnd && x === cpP && cpP < oldEnd)) return x;
    if (x >= oldEnd) return x + delta;
    return isEnd ? newEnd : cpP;
  };
  const out: IRSpan[] = [];
  for (const sp of spans) {
    const a = move(sp.start, false);
    const b = move(sp.end, true);
    if (b > a) out.push({ ...sp, start: a, end: b });
  }
  return out;
}

/** withText is a copy of the cue with new text, its spans moved over the edit. */
function withText(c: IRCue, text: string): IRCue {
  const next: IRCue = { ...c, text };
  if (Array.isArray(c.spans)) next.spans = remapSpans(c.spans, c.text, text);
  return next;
}

/** textPart is the cue's text [from, to) (UTF-16), trimmed of the white space at the cut, with its spans. */
function textPart(c: IRCue, from: number, to: number): { text: string; spans?: IRSpan[] } {
  let a = from;
  let b = to;
  while (a < b && /\s/.test(c.text[a])) a++;
  while (b > a && /\s/.test(c.text[b - 1])) b--;
  const text = c.text.slice(a, b);
  if (!Array.isArray(c.spans)) return { text };
  return { text, spans: clipSpans(c.spans, cpOffset(c.text, a), cpOffset(c.text, b)) };
}

/** Draft is a project's timeline being edited; build one with Draft.open. */
export class Draft {
  readonly projectId: string;
  private base: number;
  private readonly doc: Record<string, unknown>;
  private cues: IRCue[];
  /** baseCues are the cues of the base revision, for a merge with a newer one. */
  private baseCues: readonly IRCue[];
  private readonly ids = new Set<string>();
  private nextId = 1;
  private undoStack: Command[] = [];
  private redoStack: Command[] = [];
  /** savedTop is the command on top of the undo stack when the draft last matched its base; null: the base itself. */
  private savedTop: Command | null | undefined = null;
  private journal: JournalStep[] = [];
  /** journalCmd is the text command whose set step ends the journal, so coalesced typing replaces it. */
  private journalCmd: Command | null = null;
  private readonly listeners: ChangeListener[] = [];
  private readonly commitHooks: (() => void)[] = [];
  private committing = false;
  private readonly storage: Storage | null;
  private readonly autosaveMs: number;
  private readonly historyLimit: number;
  private readonly coalesceMs: number;
  private readonly now: () => number;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private lastStoreError: string | null = null;
  /** discarded: the draft keeps nothing more in storage (the page is about to reload). */
  private isDiscarded = false;

  private constructor(irText: string, opts: DraftOptions) {
    let v: unknown;
    try {
      v = JSON.parse(irText);
    } catch (e) {
      throw new DraftError(`The timeline is not JSON: ${(e as Error).message}`);
    }
    const doc = v as Record<string, unknown>;
    if (typeof doc !== "object" || doc === null || doc.version !== 1 || !Array.isArray(doc.cues)) {
      throw new DraftError("The timeline is not a caption IR v1 document.");
    }
    const bad = (doc.cues as unknown[]).findIndex((c) => !isCue(c));
    if (bad >= 0) throw new DraftError(`Cue ${bad + 1} of the timeline has no whole-ms times or no text.`);
    this.projectId = opts.projectId;
    this.base = opts.baseRevision;
    this.cues = doc.cues as IRCue[];
    this.baseCues = this.cues.slice();
    const { cues: _cues, ...rest } = doc;
    this.doc = rest;
    for (const c of this.cues) if (typeof c.id === "string" && c.id !== "") this.ids.add(c.id);
    this.storage = opts.storage === undefined ? defaultStorage() : opts.storage;
    this.autosaveMs = opts.autosaveMs ?? 500;
    this.historyLimit = opts.historyLimit ?? 500;
    this.coalesceMs = opts.coalesceMs ?? 1000;
    this.now = opts.now ?? Date.now;
  }

  /**
   * open builds the draft of one revision's IR text and replays the
   * project's stored edits when they were made on that revision. It
   * throws DraftError when the text is not IR v1.
   */
  static open(irText: string, opts: DraftOptions): OpenResult {
    const d = new Draft(irText, opts);
    const stored = readStored(d.storage, d.projectId);
    if (!stored || stored.journal.length === 0) return { draft: d, restored: false, stale: null };
    if (stored.baseRevision !== d.base) {
      return { draft: d, restored: false, stale: { baseRevision: stored.baseRevision, savedAt: stored.savedAt, steps: stored.journal.length } };
    }
    const cues = d.cues.slice();
    try {
      for (const s of stored.journal) replay(cues, s);
    } catch {
      // A journal that does not fit its base (hand-edited, or from a bug) is
      // worth less than a working page: leave it for the user to discard.
      return { draft: d, restored: false, stale: { baseRevision: stored.baseRevision, savedAt: stored.savedAt, steps: stored.journal.length } };
    }
    d.cues = cues;
    for (const c of cues) if (typeof c.id === "string" && c.id !== "") d.ids.add(c.id);
    d.journal = stored.journal;
    // The replayed edits are not undoable, and the base is no longer reachable.
    d.savedTop = undefined;
    d.emit("restore", cues.length ? 0 : -1, "do");
    return { draft: d, restored: true, stale: null };
  }

  /** baseRevision is the revision the draft's edits are made on. */
  get baseRevision(): number {
    return this.base;
  }

  get count(): number {
    return this.cues.length;
  }

  /** cue returns cue i as the IR holds it; treat it as read-only (edits replace cue objects). */
  cue(i: number): Readonly<IRCue> {
    return this.cues[i];
  }

  /** list is the cue array itself, read-only, for views such as the timeline; it changes with every edit. */
  list(): readonly Readonly<IRCue>[] {
    return this.cues;
  }

  /** base is the cue list of the base revision, read-only (mergeTimelines reads it). */
  baseList(): readonly Readonly<IRCue>[] {
    return this.baseCues;
  }

  /** frameRate is the IR document's frame rate in fps, when it has one. */
  get frameRate(): number | undefined {
    return typeof this.doc.frameRate === "number" ? this.doc.frameRate : undefined;
  }

  /** dirty: the draft differs from its base revision (undoing every edit makes it clean again). */
  get dirty(): boolean {
    return this.savedTop !== this.top();
  }

  get canUndo(): boolean {
    return this.undoStack.length > 0;
  }

  get canRedo(): boolean {
    return this.redoStack.length > 0;
  }

  /** discarded: discard or detach was called; the page is leaving. */
  get discarded(): boolean {
    return this.isDiscarded;
  }

  /** storeError is why the last write to storage failed (a full quota), or null. */
  get storeError(): string | null {
    return this.lastStoreError;
  }

  /** onChange adds a listener of every change; it returns its removal. */
  onChange(fn: ChangeListener): () => void {
    this.listeners.push(fn);
    return () => {
      const k = this.listeners.indexOf(fn);
      if (k >= 0) this.listeners.splice(k, 1);
    };
  }

  /**
   * onCommit adds a hook run before every edit, undo, redo and toIR: an
   * editor holding input it has not applied yet (debounced typing)
   * applies it there, so it lands on the cue it was typed in.
   */
  onCommit(fn: () => void): () => void {
    this.commitHooks.push(fn);
    return () => {
      const k = this.commitHooks.indexOf(fn);
      if (k >= 0) this.commitHooks.splice(k, 1);
    };
  }

  /** setText replaces cue i's text ("\n" between lines); typing in one cue undoes as one edit. */
  setText(i: number, text: string): void {
    this.commit();
    const c = this.at(i);
    if (c.text === text) return;
    const after = withText(c, text);
    const last = this.undoStack[this.undoStack.length - 1];
    const t = this.now();
    if (last && last.kind === "text" && last.index === i && t - last.at < this.coalesceMs && last !== this.savedTop && this.redoStack.length === 0) {
      const step = last.steps[0] as Extract<Step, { op: "set" }>;
      step.after = after;
      last.at = t;
      this.cues[i] = after;
      if (this.journalCmd === last) this.journal[this.journal.length - 1] = { op: "set", i, cue: after };
      else this.log([{ op: "set", i, before: c, after }], last);
      this.changed("text", i, "do");
      return;
    }
    this.run({ kind: "text", steps: [{ op: "set", i, before: c, after }], index: i, undoIndex: i, at: t });
  }

  /**
   * setTimes sets cue i's times and moves it to keep the cues in order of
   * start; it returns the cue's new index. It throws DraftError for times
   * that are negative, not whole ms or end before they start.
   */
  setTimes(i: number, startMs: number, endMs: number): number {
    this.commit();
    const c = this.at(i);
    if (!Number.isSafeInteger(startMs) || !Number.isSafeInteger(endMs) || startMs < 0) {
      throw new DraftError("Times are whole milliseconds from 0.");
    }
    if (endMs < startMs) throw new DraftError("The out time is before the in time.");
    if (c.startMs === startMs && c.endMs === endMs) return i;
    const after: IRCue = { ...c, startMs, endMs };
    const to = this.placeOf(i, startMs);
    const steps: Step[] = [{ op: "set", i, before: c, after }];
    if (to !== i) steps.push({ op: "move", from: i, to });
    this.run({ kind: "times", steps, index: to, undoIndex: i, at: this.now() });
    return to;
  }

  /**
   * split cuts cue i in two at a UTF-16 offset of its text (a textarea's
   * selectionStart), trimming the white space at the cut. The time is cut
   * at atMs, or in proportion to the characters on each side. Both halves
   * keep the cue's other fields; the second gets a fresh id. It returns
   * the second half's index, and throws DraftError when the cut leaves a
   * half without text (unless atMs is given) or without time.
   */
  split(i: number, atTextOffset: number, atMs?: number): number {
    this.commit();
    const c = this.at(i);
    const off = Math.max(0, Math.min(c.text.length, Math.floor(atTextOffset)));
    const first = textPart(c, 0, off);
    const second = textPart(c, off, c.text.length);
    if (atMs === undefined && (first.text === "" || second.text === "")) {
      throw new DraftError("Put the caret between two words of the text to split the cue there.");
    }
    if (c.endMs - c.startMs < 2) throw new DraftError("The cue is too short to split.");
    let at: number;
    if (atMs !== undefined) at = Math.round(atMs);
    else {
      const total = first.text.length + second.text.length;
      at = c.startMs + Math.round(((c.endMs - c.startMs) * first.text.length) / total);
    }
    at = Math.min(Math.max(at, c.startMs + 1), c.endMs - 1);
    const a: IRCue = { ...c, ...first, endMs: at };
    const b: IRCue = { ...c, ...second, id: this.freshId(), startMs: at };
    const k = this.lowerBound(i + 1, this.cues.length, at);
    this.run({
      kind: "split",
      steps: [
        { op: "set", i, before: c, after: a },
        { op: "insert", i: k, cue: b },
      ],
      index: k,
      undoIndex: i,
      at: this.now(),
    });
    return k;
  }

  /**
   * mergeNext joins cue i and the next into cue i: its fields, both texts
   * on separate lines, from the first start to the later end. It returns
   * i, and throws DraftError on the last cue.
   */
  mergeNext(i: number): number {
    this.commit();
    const a = this.at(i);
    if (i + 1 >= this.cues.length) throw new DraftError("The last cue has no next cue to merge with.");
    const b = this.cues[i + 1];
    const sep = a.text !== "" && b.text !== "" ? "\n" : "";
    const merged: IRCue = { ...a, text: a.text + sep + b.text, endMs: Math.max(a.endMs, b.endMs) };
    if (Array.isArray(a.spans) || Array.isArray(b.spans)) {
      const shift = codePoints(a.text + sep);
      merged.spans = [...(a.spans ?? []), ...(b.spans ?? []).map((s) => ({ ...s, start: s.start + shift, end: s.end + shift }))];
    }
    this.run({
      kind: "merge",
      steps: [
        { op: "set", i, before: a, after: merged },
        { op: "remove", i: i + 1, cue: b },
      ],
      index: i,
      undoIndex: i,
      at: this.now(),
    });
    return i;
  }

  /**
   * insertAfter adds an empty cue after cue i (-1: before the first): in
   * the gap to the next cue when it is at least MIN_GAP_MS, up to
   * INSERT_MS of it, else INSERT_MS from cue i's end. It returns the new
   * cue's index.
   */
  insertAfter(i: number): number {
    this.commit();
    if (i !== -1) this.at(i);
    const from = i >= 0 ? this.cues[i].endMs : 0;
    const next = this.cues[i + 1];
    const gap = next ? next.startMs - from : Infinity;
    const startMs = from;
    const endMs = gap >= MIN_GAP_MS ? from + Math.min(INSERT_MS, gap) : from + INSERT_MS;
    const cue: IRCue = { id: this.freshId(), startMs, endMs, text: "" };
    const k = this.lowerBound(i + 1, this.cues.length, startMs);
    this.run({ kind: "insert", steps: [{ op: "insert", i: k, cue }], index: k, undoIndex: Math.max(0, Math.min(i, this.cues.length - 1)), at: this.now() });
    return k;
  }

  /** remove deletes cue i and returns the index of the cue now in its place (-1 when none is left). */
  remove(i: number): number {
    this.commit();
    const c = this.at(i);
    const index = Math.min(i, this.cues.length - 2);
    this.run({ kind: "remove", steps: [{ op: "remove", i, cue: c }], index, undoIndex: i, at: this.now() });
    return index;
  }

  /** undo reverts the last edit; it returns false when there is none. */
  undo(): boolean {
    this.commit();
    const cmd = this.undoStack.pop();
    if (!cmd) return false;
    const inverse = cmd.steps.slice().reverse().map(invert);
    for (const s of inverse) apply(this.cues, s);
    this.log(inverse, null);
    this.redoStack.push(cmd);
    this.changed(cmd.kind, cmd.undoIndex, "undo");
    return true;
  }

  /** redo applies the last undone edit again; it returns false when there is none. */
  redo(): boolean {
    this.commit();
    const cmd = this.redoStack.pop();
    if (!cmd) return false;
    for (const s of cmd.steps) apply(this.cues, s);
    this.log(cmd.steps, null);
    this.undoStack.push(cmd);
    this.changed(cmd.kind, cmd.index, "redo");
    return true;
  }

  /**
   * toIR is the document to PUT as the next revision: the base's fields
   * with the edited cues, ids kept.
   */
  toIR(): string {
    this.commit();
    return JSON.stringify({ ...this.doc, cues: this.cues });
  }

  /**
   * markSaved records that toIR was saved as the given revision: it
   * becomes the base, the draft is clean and the stored edits are
   * cleared. Undo still works, and makes the draft dirty again.
   */
  markSaved(revision: number): void {
    this.base = revision;
    this.baseCues = this.cues.slice();
    this.savedTop = this.top();
    this.journal = [];
    this.journalCmd = null;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.storage?.removeItem(draftKey(this.projectId));
    this.emit("saved", -1, "do");
  }

  /** discard forgets the stored edits without touching the draft, and detaches it (the page reloads the base after). */
  discard(): void {
    this.detach();
    this.storage?.removeItem(draftKey(this.projectId));
  }

  /**
   * detach stops the draft writing to storage, leaving what is there: the
   * page is about to reload, and what it stored meanwhile (a merge) must
   * not be overwritten on the way out.
   */
  detach(): void {
    this.isDiscarded = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.journal = [];
    this.journalCmd = null;
  }

  /**
   * flush writes the journal to storage now rather than after
   * autosaveMs; call it on pagehide. It returns false when storage
   * refused it (see storeError).
   */
  flush(): boolean {
    this.commit();
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (!this.storage || this.isDiscarded) return true;
    if (!this.dirty) {
      this.storage.removeItem(draftKey(this.projectId));
      return true;
    }
    if (this.journal.length > this.cues.length) this.compact();
    const write = () => {
      const v: StoredDraft = { v: 1, baseRevision: this.base, savedAt: this.now(), journal: this.journal };
      this.storage?.setItem(draftKey(this.projectId), JSON.stringify(v));
    };
    try {
      write();
      this.lastStoreError = null;
      return true;
    } catch (e) {
      // Over quota: one step holding every cue may still fit where a long journal does not.
      try {
        this.compact();
        write();
        this.lastStoreError = null;
        return true;
      } catch {
        this.lastStoreError = `Unsaved edits could not be kept in this browser: ${(e as Error).message}`;
        return false;
      }
    }
  }

  private compact(): void {
    this.journal = [{ op: "all", cues: this.cues.slice() }];
    this.journalCmd = null;
  }

  private commit(): void {
    if (this.committing) return;
    this.committing = true;
    try {
      for (const f of this.commitHooks) f();
    } finally {
      this.committing = false;
    }
  }

  private top(): Command | null {
    return this.undoStack[this.undoStack.length - 1] ?? null;
  }

  private at(i: number): IRCue {
    const c = this.cues[i];
    if (!Number.isInteger(i) || !c) throw new DraftError(`There is no cue ${i + 1}.`);
    return c;
  }

  private freshId(): string {
    let id: string;
    do id = `new-${this.nextId++}`;
    while (this.ids.has(id));
    this.ids.add(id);
    return id;
  }

  /** lowerBound is the first index in [lo, hi) whose cue starts at or after ms (hi when none). */
  private lowerBound(lo: number, hi: number, ms: number): number {
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cues[mid].startMs < ms) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** placeOf is where cue i belongs once it starts at ms, moving it as little as the order needs. */
  private placeOf(i: number, ms: number): number {
    const n = this.cues.length;
    if (i > 0 && this.cues[i - 1].startMs > ms) {
      // Left: after the last earlier cue starting at or before ms.
      let lo = 0;
      let hi = i;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (this.cues[mid].startMs <= ms) lo = mid + 1;
        else hi = mid;
      }
      return lo;
    }
    if (i + 1 < n && this.cues[i + 1].startMs < ms) {
      // Right: before the first later cue starting at or after ms, counted once i is out.
      return this.lowerBound(i + 1, n, ms) - 1;
    }
    return i;
  }

  private run(cmd: Command): void {
    for (const s of cmd.steps) apply(this.cues, s);
    this.undoStack.push(cmd);
    if (this.undoStack.length > this.historyLimit) this.undoStack.shift();
    this.redoStack = [];
    this.log(cmd.steps, cmd.kind === "text" ? cmd : null);
    this.changed(cmd.kind, cmd.index, "do");
  }

  private log(steps: Step[], cmd: Command | null): void {
    for (const s of steps) {
      this.journal.push(
        s.op === "set"
          ? { op: "set", i: s.i, cue: s.after }
          : s.op === "insert"
            ? { op: "insert", i: s.i, cue: s.cue }
            : s.op === "remove"
              ? { op: "remove", i: s.i }
              : { op: "move", from: s.from, to: s.to },
      );
    }
    this.journalCmd = cmd;
  }

  private changed(kind: ChangeKind, index: number, via: Via): void {
    if (this.storage && this.timer === null && !this.isDiscarded) {
      this.timer = setTimeout(() => {
        this.timer = null;
        this.flush();
      }, this.autosaveMs);
    }
    this.emit(kind, index, via);
  }

  private emit(kind: ChangeKind, index: number, via: Via): void {
    for (const f of this.listeners.slice()) f(kind, index, via);
  }
}

function invert(s: Step): Step {
  switch (s.op) {
    case "set":
      return { op: "set", i: s.i, before: s.after, after: s.before };
    case "insert":
      return { op: "remove", i: s.i, cue: s.cue };
    case "remove":
      return { op: "insert", i: s.i, cue: s.cue };
    case "move":
      return { op: "move", from: s.to, to: s.from };
  }
}

function apply(cues: IRCue[], s: Step): void {
  switch (s.op) {
    case "set":
      cues[s.i] = s.after;
      return;
    case "insert":
      cues.splice(s.i, 0, s.cue);
      return;
    case "remove":
      cues.splice(s.i, 1);
      return;
    case "move": {
      const [c] = cues.splice(s.from, 1);
      cues.splice(s.to, 0, c);
    }
  }
}

/** replay applies a stored step, throwing when it does not fit the cues. */
function replay(cues: IRCue[], s: JournalStep): void {
  const ok = (i: number, n: number) => Number.isInteger(i) && i >= 0 && i < n;
  switch (s.op) {
    case "all":
      if (!Array.isArray(s.cues) || !s.cues.every(isCue)) throw new Error("bad cues");
      // A loop, not splice(...cues): 30,000 arguments overflow some engines' stacks.
      cues.length = 0;
      for (const c of s.cues) cues.push(c);
      return;
    case "set":
      if (!ok(s.i, cues.length) || !isCue(s.cue)) throw new Error("bad set");
      cues[s.i] = s.cue;
      return;
    case "insert":
      if (!ok(s.i, cues.length + 1) || !isCue(s.cue)) throw new Error("bad insert");
      cues.splice(s.i, 0, s.cue);
      return;
    case "remove":
      if (!ok(s.i, cues.length)) throw new Error("bad remove");
      cues.splice(s.i, 1);
      return;
    case "move":
      if (!ok(s.from, cues.length) || !ok(s.to, cues.length)) throw new Error("bad move");
      cues.splice(s.to, 0, cues.splice(s.from, 1)[0]);
      return;
    default:
      throw new Error("unknown step");
  }
}
