// Sign-in (headless mode) and, beside it, the anonymous quick converter.
// A one-time sign-in link (`captionqa owner link`, or the first start's
// output) opens #/signin?link=TOKEN: the page then asks for the owner's
// new password instead of the e-mail and password.

import { ApiError, messageOf, type Client } from "../api/client";
import type { Session } from "../api/types";
import { h, replace } from "../dom";

/** MIN_PASSWORD is the server's shortest password, in characters (account.MinPasswordLen). */
const MIN_PASSWORD = 10;

const LINK_COMMAND = "captionqa owner link";

/** linkToken is the token of a #/signin?link=TOKEN address, or "". */
export function linkToken(hash = location.hash): string {
  const m = /^#\/?signin\?(.*)$/.exec(hash);
  return m ? new URLSearchParams(m[1]).get("link") ?? "" : "";
}

/** forgetLink takes the token out of the address bar and the history entry, leaving hash (or none). */
function forgetLink(hash = ""): void {
  history.replaceState(null, "", location.pathname + location.search + hash);
}

/**
 * signInForm is the signed-out page's sign-in card: the e-mail and password form, or, when the
 * address holds a one-time link, the form that sets the owner's password. It follows the address
 * (a link pasted into an open tab) while it is on the page. done runs once signed in.
 */
export function signInForm(client: Client, done: (s: Session) => void): HTMLElement {
  const area = h("div", { id: "signin-area" });
  let shown: string | null = null;
  const render = () => {
    const token = linkToken();
    if (token === shown) return;
    shown = token;
    const back = () => {
      forgetLink();
      render();
      document.getElementById("signin-email")?.focus();
    };
    replace(area, token ? linkForm(client, token, done, back) : passwordForm(client, done));
  };
  const onHash = () => (area.isConnected ? render() : window.removeEventListener("hashchange", onHash));
  window.addEventListener("hashchange", onHash);
  render();
  return area;
}

function passwordForm(client: Client, done: (s: Session) => void): HTMLElement {
  const email = h("input", { id: "signin-email", type: "email", name: "email", autocomplete: "username", required: true });
  const password = h("input", { id: "signin-password", type: "password", name: "password", autocomplete: "current-password", required: true });
  const error = h("div", { id: "signin-error", class: "alert", role: "alert", hidden: true });
  const submit = h("button", { id: "signin-submit", type: "submit", class: "button primary" }, "Sign in");
  const owner = h("span", { id: "signin-owner", hidden: true });
  const noPassword = h("span", { id: "signin-no-password" }, "No password yet? Whoever runs the server can make a one-time sign-in link with ", h("code", null, LINK_COMMAND), ".");
  const form = h(
    "form",
    { id: "signin-form", class: "card signin", "aria-labelledby": "signin-h", novalidate: true },
    h("h2", { id: "signin-h" }, "Sign in"),
    h("p", { class: "muted" }, "Use the e-mail and password of your CaptionQA account."),
    h("p", { id: "signin-help", class: "small" }, owner, " ", noPassword),
    h("div", { class: "field" }, h("label", { for: "signin-email" }, "E-mail"), email),
    h("div", { class: "field" }, h("label", { for: "signin-password" }, "Password"), password),
    error,
    h("div", { class: "form-actions" }, submit),
  );
  // Only a browser on the server's machine is told who the owner is.
  void client.ownerHint().then((ownerEmail) => {
    if (!ownerEmail) return;
    replace(owner, "The owner account is ", h("strong", null, ownerEmail), ".");
    owner.hidden = false;
    replace(noPassword, "No password yet? Run ", h("code", null, LINK_COMMAND), " on this machine for a one-time sign-in link.");
  });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.hidden = true;
    if (!email.value.trim() || !password.value) {
      error.hidden = false;
      replace(error, "Enter your e-mail and password.");
      (email.value.trim() ? password : email).focus();
      return;
    }
    submit.disabled = true;
    try {
      done(await client.signIn(email.value.trim(), password.value));
    } catch (err) {
      error.hidden = false;
      replace(error, messageOf(err));
      password.select();
      password.focus();
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}

function linkForm(client: Client, token: string, done: (s: Session) => void, back: () => void): HTMLElement {
  // A hidden username lets a password manager file the new password under the owner.
  const username = h("input", { id: "link-username", type: "email", name: "username", autocomplete: "username", hidden: true, tabindex: -1 });
  const password = h("input", { id: "link-password", type: "password", name: "new-password", autocomplete: "new-password", minlength: MIN_PASSWORD, required: true, "aria-describedby": "link-password-help" });
  const confirm = h("input", { id: "link-confirm", type: "password", name: "confirm-password", autocomplete: "new-password", required: true });
  const error = h("div", { id: "link-error", class: "alert", role: "alert", hidden: true });
  const submit = h("button", { id: "link-submit", type: "submit", class: "button primary" }, "Set password and sign in");
  const cancel = h("button", { id: "link-cancel", type: "button", class: "button secondary", onclick: back }, "Sign in with a password");
  const intro = h("p", { id: "link-intro", class: "muted" }, "This one-time link signs you in as the owner once you choose a password. It works once, within 15 minutes of being made.");
  const form = h(
    "form",
    { id: "link-form", class: "card signin", "aria-labelledby": "link-h", novalidate: true },
    h("h2", { id: "link-h" }, "Set a password for the owner account"),
    intro,
    username,
    h("div", { class: "field" }, h("label", { for: "link-password" }, "New password"), password, h("div", { id: "link-password-help", class: "muted small" }, `At least ${MIN_PASSWORD} characters.`)),
    h("div", { class: "field" }, h("label", { for: "link-confirm" }, "Confirm the password"), confirm),
    error,
    h("div", { class: "form-actions" }, submit, cancel),
  );
  void client.ownerHint().then((ownerEmail) => {
    if (!ownerEmail) return;
    username.value = ownerEmail;
    replace(intro, "This one-time link signs you in as the owner, ", h("strong", null, ownerEmail), ", once you choose a password. It works once, within 15 minutes of being made.");
  });
  const fail = (msg: string, field: HTMLInputElement | null) => {
    error.hidden = false;
    replace(error, msg);
    field?.focus();
  };
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    error.hidden = true;
    if ([...password.value].length < MIN_PASSWORD) return fail(`The password must be at least ${MIN_PASSWORD} characters long.`, password);
    if (confirm.value !== password.value) return fail("The two passwords differ. Type the same password in both fields.", confirm);
    submit.disabled = true;
    try {
      const s = await client.signInWithLink(token, password.value);
      // The token is spent: keep it out of the address bar and history.
      forgetLink("#/run");
      done(s);
    } catch (err) {
      submit.disabled = false;
      if (err instanceof ApiError && err.status === 401) {
        // Unknown, used or expired: the message says how to get a new link.
        forgetLink("#/signin");
        password.disabled = confirm.disabled = submit.disabled = true;
        fail(messageOf(err), null);
        cancel.focus();
        return;
      }
      fail(messageOf(err), password);
    }
  });
  requestAnimationFrame(() => password.isConnected && password.focus());
  return form;
}
