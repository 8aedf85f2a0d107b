// What a capped result leaves out of its lists: the API keeps the first
// 100 entries of each code and counts the rest (Report.omitted).

import type { Omission } from "../api/types";
import { h } from "../dom";

/**
 * omittedCount adds up what a list (a clause's findings, given its id)
 * leaves out, but for the codes in except.
 */
export function omittedCount(om: Omission[] | undefined, list: Omission["list"], clause?: string, except: string[] = []): number {
  return (om ?? []).filter((o) => o.list === list && o.clause === clause && !except.includes(o.code)).reduce((n, o) => n + o.count, 0);
}

/** omittedNote says, one line a code, what a list leaves out (but for the codes in except); null when nothing. */
export function omittedNote(om: Omission[] | undefined, list: Omission["list"], except: string[] = []): HTMLElement | null {
  const rows = (om ?? []).filter((o) => o.list === list && o.clause === undefined && !except.includes(o.code));
  if (!rows.length) return null;
  return h(
    "ul",
    { class: "omitted muted small", "data-list": list },
    ...rows.map((o) => h("li", { "data-code": o.code }, `${o.count.toLocaleString("en")} more `, h("code", null, o.code), " not shown")),
  );
}
