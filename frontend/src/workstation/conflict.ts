// What the editor offers when Save meets the revision lock (409
// stale_revision: another tab, person or integration saved a revision
// since these edits began): merge the edits into the newer revision cue
// by cue, or drop them and reload it. A merge lands as the unsaved edits
// of the newer revision, through a reload, so the person reviews it
// before saving; the cues changed on both sides are named then.

import { messageOf, type Client } from "../api/client";
import { h } from "../dom";
import { storeRebased, type Draft, type IRCue } from "./draft";
import { mergeTimelines } from "./merge";

/** mergedKey is the sessionStorage key of a merge's conflicts, read once after the reload. */
function mergedKey(projectId: string): string {
  return `captionqa.merged.${projectId}`;
}

interface MergedNote {
  revision: number;
  conflicts: string[];
}

/**
 * conflictNotice fetches the project's newest revision and explains the
 * choice; reload leaves the page (location.reload in the editor).
 */
export async function conflictNotice(client: Client, projectId: string, draft: Draft, flush: () => void, reload: () => void): Promise<HTMLElement> {
  const drop = h("button", { id: "ws-reload", type: "button", class: "button secondary small" }, "Discard my edits and reload");
  drop.addEventListener("click", () => {
    draft.discard();
    reload();
  });
  let theirs: IRCue[];
  let revision: number;
  try {
    const p = await client.getProject(projectId);
    theirs = ((p.ir as { cues?: IRCue[] } | undefined)?.cues ?? []) as IRCue[];
    revision = p.irRevision;
  } catch (e) {
    return h("div", { class: "alert warning", role: "alert" }, `The project has a newer revision than the one these edits start from, and it could not be read: ${messageOf(e)}. `, drop);
  }
  flush();
  const r = mergeTimelines(draft.baseList(), draft.list(), theirs);
  const lead = `Revision ${revision} was saved after these edits began on revision ${draft.baseRevision}. `;
  if ("refused" in r) {
    return h("div", { class: "alert warning", role: "alert" }, lead, r.refused, " Export or copy what you need, then reload it. ", drop);
  }
  const merge = h("button", { id: "ws-merge", type: "button", class: "button primary small" }, `Merge my edits into revision ${revision}`);
  const failed = h("span", { class: "small" });
  merge.addEventListener("click", () => {
    // Edits made while the notice was up are merged too.
    flush();
    const now = mergeTimelines(draft.baseList(), draft.list(), theirs);
    if ("refused" in now) {
      failed.textContent = ` ${now.refused}`;
      return;
    }
    if (!storeRebased(projectId, revision, now.cues)) {
      failed.textContent = " This browser refused to keep the merged edits (storage is full or off).";
      return;
    }
    // The draft writes nothing more, so the merged edits are what the reload finds.
    draft.detach();
    try {
      sessionStorage.setItem(mergedKey(projectId), JSON.stringify({ revision, conflicts: now.conflicts } satisfies MergedNote));
    } catch {
      // Without session storage the merge still lands; only its note is lost.
    }
    reload();
  });
  const overlap = r.conflicts.length
    ? `${r.conflicts.length} ${r.conflicts.length === 1 ? "cue was" : "cues were"} changed on both sides: a merge keeps your version and names them.`
    : "No cue was changed on both sides.";
  return h(
    "div",
    { id: "ws-stale", class: "alert warning", role: "alert", "data-mine": r.mine, "data-theirs": r.theirs, "data-conflicts": r.conflicts.length },
    lead,
    `It changed ${r.theirs} ${r.theirs === 1 ? "cue" : "cues"}; your edits change ${r.mine}. ${overlap} `,
    h("div", { class: "form-actions" }, merge, drop, failed),
  );
}

/**
 * mergedNotice is the note of a merge that just landed (read once), with
 * the cue numbers changed on both sides; null when there was none.
 */
export function mergedNotice(projectId: string, draft: Draft, onCue: (index: number) => void): HTMLElement | null {
  let note: MergedNote | null = null;
  try {
    const raw = sessionStorage.getItem(mergedKey(projectId));
    sessionStorage.removeItem(mergedKey(projectId));
    note = raw ? (JSON.parse(raw) as MergedNote) : null;
  } catch {
    return null;
  }
  if (!note || note.revision !== draft.baseRevision) return null;
  const where = new Map(draft.list().map((c, i) => [c.id, i]));
  const cues = note.conflicts.map((id) => where.get(id)).filter((i): i is number => i !== undefined).sort((a, b) => a - b);
  const links = cues.flatMap((i, k) => {
    const a = h("a", { href: "#", class: "ws-merged-cue", "data-index": i }, `cue ${i + 1}`);
    a.addEventListener("click", (e) => {
      e.preventDefault();
      onCue(i);
    });
    return k ? [", ", a] : [a];
  });
  return h(
    "p",
    { id: "ws-merged", class: "alert info", role: "status" },
    `Your edits were merged into revision ${note.revision}; review and save. `,
    cues.length ? h("span", null, "Changed on both sides, your version kept: ", ...links, ".") : "No cue was changed on both sides.",
  );
}
