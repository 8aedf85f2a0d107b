// A page-wide notice that stands in for a page the account cannot use
// (a missing entitlement, a feature switched off on the server).

import { h, replace, type Child } from "../dom";

// noticeCard returns a card with id, a heading (id-h) and one paragraph
// per entry of paragraphs.
export function noticeCard(id: string, title: string, ...paragraphs: Child[][]): HTMLElement {
  return h(
    "section",
    { id, class: "card", "aria-labelledby": `${id}-h` },
    h("h2", { id: `${id}-h` }, title),
    ...paragraphs.map((p) => h("p", null, ...p)),
  );
}

// askForPro is the paragraph the Pro notices end with, its link id
// linkId.
export function askForPro(linkId: string): Child[] {
  return [
    "Ask the administrator of this CaptionQA server to move the account to Pro. ",
    h("a", { id: linkId, href: "#/account" }, "Your plan and entitlements are on the Account page"),
    ".",
  ];
}

// errorBox is a page's alert box, hidden until it shows a message; hide
// empties it, so a screen reader never reads a stale message.
export function errorBox(id: string) {
  const el = h("div", { id, class: "alert", role: "alert", hidden: true });
  return {
    el,
    show(msg: string) {
      el.hidden = false;
      replace(el, msg);
    },
    hide() {
      el.hidden = true;
      replace(el);
    },
  };
}
