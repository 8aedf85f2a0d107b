// Sign-in (headless mode) and, beside it, the anonymous quick converter.

import { messageOf, type Client } from "../api/client";
import type { Session } from "../api/types";
import { h, replace } from "../dom";

export function signInForm(client: Client, done: (s: Session) => void): HTMLElement {
  const email = h("input", { id: "signin-email", type: "email", name: "email", autocomplete: "username", required: true });
  const password = h("input", { id: "signin-password", type: "password", name: "password", autocomplete: "current-password", required: true });
  const error = h("div", { id: "signin-error", class: "alert", role: "alert", hidden: true });
  const submit = h("button", { id: "signin-submit", type: "submit", class: "button primary" }, "Sign in");
  const form = h(
    "form",
    { id: "signin-form", class: "card signin", "aria-labelledby": "signin-h", novalidate: true },
    h("h2", { id: "signin-h" }, "Sign in"),
    h("p", { class: "muted" }, "Use the e-mail and password of your CaptionQA account."),
    h("div", { class: "field" }, h("label", { for: "signin-email" }, "E-mail"), email),
    h("div", { class: "field" }, h("label", { for: "signin-password" }, "Password"), password),
    error,
    h("div", { class: "form-actions" }, submit),
  );
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
