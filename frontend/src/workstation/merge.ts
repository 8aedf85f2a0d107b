// Three-way merge of an editor's draft with a revision saved meanwhile
// (the revision lock's 409: docs/ui.md, The editor). Cues are matched by
// their IR id across the three timelines: the revision the edits started
// from (base), the draft (mine) and the newer revision (theirs). A cue
// changed on one side only takes that side; a cue changed on both sides
// the same way is one change; a cue changed on both sides differently is a
// conflict, and the draft's version wins, because it is what the person at
// the editor is looking at — the conflicts are listed so they can check
// them before saving. A cue one side deleted and the other left alone is
// deleted; deleted on one side and changed on the other, the change is
// kept. Cues either side added are kept, in time order.

import type { IRCue } from "./draft";

/** MergeResult is the merged cue list and what the merge had to decide. */
export interface MergeResult {
  cues: IRCue[];
  /** mine and theirs count the cues each side added, removed or changed. */
  mine: number;
  theirs: number;
  /** conflicts are the ids of cues both sides changed differently (the draft's version kept), or one side changed and the other deleted (the change kept). */
  conflicts: string[];
}

/** MergeRefusal says why the timelines cannot be merged cue by cue. */
export interface MergeRefusal {
  refused: string;
}

/** sameCue: two cue objects carry the same fields with the same values. */
export function sameCue(a: IRCue, b: IRCue): boolean {
  return a === b || stable(a) === stable(b);
}

/** stable is a JSON text of v with object keys sorted, so field order does not make two cues differ. */
function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(",")}]`;
  if (v !== null && typeof v === "object") {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o)
      .sort()
      .filter((k) => o[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stable(o[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v);
}

/** byId maps each cue's id to it, or returns null when a cue has no id or two share one. */
function byId(cues: readonly IRCue[]): Map<string, IRCue> | null {
  const m = new Map<string, IRCue>();
  for (const c of cues) {
    if (typeof c.id !== "string" || c.id === "" || m.has(c.id)) return null;
    m.set(c.id, c);
  }
  return m;
}

/**
 * mergeTimelines merges the draft's cues (mine, edited from base) with a
 * newer revision's (theirs). It refuses when a timeline's cues lack
 * unique ids, since nothing then says which cue is which.
 */
export function mergeTimelines(base: readonly IRCue[], mine: readonly IRCue[], theirs: readonly IRCue[]): MergeResult | MergeRefusal {
  const b = byId(base);
  const m = byId(mine);
  const t = byId(theirs);
  if (!b || !m || !t) {
    return { refused: "Some cues have no id, or share one, so the edits cannot be matched cue by cue." };
  }
  const out: IRCue[] = [];
  const conflicts: string[] = [];
  let mineChanges = 0;
  let theirChanges = 0;
  for (const [id, bc] of b) {
    const mc = m.get(id);
    const tc = t.get(id);
    const mineChanged = !mc || !sameCue(mc, bc);
    const theirChanged = !tc || !sameCue(tc, bc);
    if (mineChanged) mineChanges++;
    if (theirChanged) theirChanges++;
    if (!mineChanged) {
      if (tc) out.push(tc);
      continue;
    }
    if (!theirChanged) {
      if (mc) out.push(mc);
      continue;
    }
    // Both sides touched it.
    if (mc && tc) {
      if (!sameCue(mc, tc)) conflicts.push(id);
      out.push(mc);
    } else if (mc || tc) {
      conflicts.push(id);
      out.push((mc ?? tc) as IRCue);
    }
  }
  const taken = new Set(out.map((c) => c.id));
  for (const [id, tc] of t) {
    if (b.has(id)) continue;
    theirChanges++;
    out.push(tc);
    taken.add(id);
  }
  for (const [id, mc] of m) {
    if (b.has(id)) continue;
    mineChanges++;
    const twin = t.get(id);
    if (twin && sameCue(twin, mc)) continue;
    // Both sides added a cue under one id (the editor names new cues
    // new-1, new-2 ...): the draft's gets another.
    let fresh = id;
    for (let n = 2; taken.has(fresh); n++) fresh = `${id}-${n}`;
    taken.add(fresh);
    out.push(fresh === id ? mc : { ...mc, id: fresh });
  }
  // Stable by start, then end: cues that kept their place keep their order.
  const order = new Map(out.map((c, i) => [c, i]));
  out.sort((x, y) => x.startMs - y.startMs || x.endMs - y.endMs || (order.get(x) as number) - (order.get(y) as number));
  return { cues: out, mine: mineChanges, theirs: theirChanges, conflicts };
}
