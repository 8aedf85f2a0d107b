// CaptionQA browser UI: boot, frame and hash routing. State lives in the
// App object; pages are render functions that build DOM.

import { Client, messageOf } from "./api/client";
import type { Session } from "./api/types";
import { announce, byId, h, replace } from "./dom";
import { accountPage } from "./pages/account";
import { keysPage } from "./pages/keys";
import { mediaPage } from "./pages/media";
import { presetsPage } from "./pages/presets";
import { projectsPage } from "./pages/projects";
import { RunPage } from "./pages/runqa";
import { signInForm } from "./pages/signin";
import { templatesPage } from "./pages/templates";
import { webhookPage } from "./pages/webhook";

type Route = "run" | "projects" | "media" | "presets" | "templates" | "keys" | "webhook" | "account";

const ROUTES: { id: Route; label: string; title: string }[] = [
  { id: "run", label: "Run QA", title: "Run QA" },
  { id: "projects", label: "Projects", title: "Projects" },
  { id: "media", label: "Media & Jobs", title: "Media & Jobs" },
  { id: "presets", label: "Presets", title: "Presets" },
  { id: "templates", label: "Export templates", title: "Export templates" },
  { id: "keys", label: "API keys", title: "API keys" },
  { id: "webhook", label: "Webhook", title: "Webhook" },
  { id: "account", label: "Account", title: "Account" },
];

class App {
  private client = new Client();
  private session: Session | null = null;
  private runPage: RunPage | null = null;
  private quickPage: RunPage | null = null;
  private quickLeft: number | null = null;
  /** features are the signed-in account's entitlements (GET /api/v1/me), asked once per session. */
  private features: Promise<string[]> | null = null;

  constructor(private root: HTMLElement) {
    this.client.onSessionLost = () => {
      if (!this.session) return;
      this.session = null;
      this.renderSignedOut("Your session has ended. Sign in again.");
    };
    window.addEventListener("hashchange", () => this.session && this.renderSignedIn());
  }

  async start(): Promise<void> {
    try {
      this.session = await this.client.session();
    } catch (e) {
      this.renderFatal(messageOf(e));
      return;
    }
    if (this.session) this.renderSignedIn();
    else this.renderSignedOut();
  }

  private route(): Route {
    const r = location.hash.replace(/^#\/?/, "").split("/")[0] as Route;
    return ROUTES.some((x) => x.id === r) ? r : "run";
  }

  /** routeParam is the path segment after the route: #/projects/ID gives ID. */
  private routeParam(): string | null {
    const parts = location.hash.replace(/^#\/?/, "").split("/");
    return parts[1] ? decodeURIComponent(parts[1]) : null;
  }

  /** routeSub is the segment after that: #/projects/ID/edit gives edit. */
  private routeSub(): string | null {
    const parts = location.hash.replace(/^#\/?/, "").split("/");
    return parts[2] ? decodeURIComponent(parts[2]) : null;
  }

  private header(signedIn: boolean): HTMLElement {
    return h(
      "header",
      { id: "app-header", class: "app-header" },
      h("a", { class: "brand", href: signedIn ? "#/run" : "#", "aria-label": "CaptionQA home" }, h("span", { class: "brand-mark", "aria-hidden": "true" }, "CC"), h("span", null, "CaptionQA")),
      signedIn && this.session
        ? h(
            "div",
            { class: "user" },
            h("span", { class: "visually-hidden" }, "Signed in as "),
            h("span", { id: "user-email", class: "user-email" }, this.session.email),
            this.session.desktop
              ? h("span", { class: "badge neutral" }, "Desktop")
              : h("button", { id: "sign-out", type: "button", class: "button secondary small", onclick: () => void this.signOut() }, "Sign out"),
          )
        : h("span", { class: "muted header-note" }, "Caption QA for post-production"),
    );
  }

  private nav(current: Route): HTMLElement {
    return h(
      "nav",
      { id: "nav", class: "nav", "aria-label": "Main" },
      h(
        "ul",
        null,
        ...ROUTES.map((r) => h("li", null, h("a", { id: `nav-${r.id}`, href: `#/${r.id}`, "aria-current": r.id === current ? "page" : null }, r.label))),
      ),
    );
  }

  private frame(header: HTMLElement, nav: HTMLElement | null, title: string, page: HTMLElement): void {
    const main = h("main", { id: "main", class: "main", tabindex: -1 }, h("h1", { id: "page-title", tabindex: -1 }, title), page);
    replace(this.root, header, h("div", { class: nav ? "layout" : "layout no-nav" }, nav, main));
  }

  renderSignedIn(): void {
    // A one-time sign-in link opened while signed in: keep its token out of the address and history.
    if (/^#\/?signin\b/.test(location.hash)) history.replaceState(null, "", location.pathname + location.search + "#/run");
    const r = this.route();
    const meta = ROUTES.find((x) => x.id === r)!;
    document.title = `${meta.title} · CaptionQA`;
    let page: HTMLElement;
    if (r === "keys") page = keysPage(this.client);
    else if (r === "projects") page = projectsPage(this.client, this.routeParam(), this.routeSub());
    else if (r === "media") page = mediaPage(this.client, this.routeParam());
    else if (r === "presets") page = presetsPage(this.client, this.routeParam());
    else if (r === "templates") page = templatesPage(this.client, this.routeParam());
    else if (r === "webhook") page = webhookPage(this.client);
    else if (r === "account") page = accountPage(this.client);
    else {
      this.runPage ??= new RunPage({ run: (i) => this.client.process(i), batch: true });
      page = this.runPage.render();
      const run = this.runPage;
      this.features ??= this.client.me().then((p) => p.features, () => []);
      // ExplainAI needs a Pro workspace with the explain_ai entitlement.
      void this.features.then((f) => run.offerExplain(f.includes("PRO_WORKSPACE") && f.includes("explain_ai")));
      void this.client.ownPresets().then((names) => run.offerPresets(names));
    }
    const focused = document.activeElement;
    const hadFocusInNav = focused?.closest?.("#nav") != null;
    this.frame(this.header(true), this.nav(r), meta.title, page);
    // The new page's title takes the focus when the nav had it, and when
    // the focused control went with the old page (a link followed in it):
    // keyboard users then go on from the top of the new page, not from
    // wherever the old one left the browser's starting point.
    if (hadFocusInNav || (focused && focused !== document.body && !focused.isConnected)) byId("page-title").focus();
    announce(`${meta.title} page`);
  }

  renderSignedOut(notice = ""): void {
    document.title = "Sign in · CaptionQA";
    this.quickPage ??= new RunPage({
      run: (i) => this.client.homepageProcess(i),
      onResult: (res) => {
        if (typeof res.remainingToday === "number") {
          this.quickLeft = res.remainingToday;
          const el = document.getElementById("quick-remaining");
          if (el) el.textContent = this.quickText();
        }
      },
    });
    const signin = signInForm(this.client, (s) => {
      this.session = s;
      this.runPage = null;
      this.features = null;
      // POST /api/session answers without the tier: read the full session.
      void this.client.session().then((full) => (this.session = full ?? s)).finally(() => {
        if (!location.hash) location.hash = "#/run";
        this.renderSignedIn();
        byId("page-title").focus();
      });
    });
    const quick = h(
      "section",
      { id: "quick-section", class: "quick", "aria-labelledby": "quick-h" },
      h("h2", { id: "quick-h" }, "Quick converter"),
      h("p", null, "Check and convert a caption file without signing in. ", h("span", { id: "quick-remaining", class: "badge neutral" }, this.quickText())),
      this.quickPage.render(),
    );
    const page = h(
      "div",
      { class: "signed-out" },
      notice ? h("div", { id: "session-notice", class: "alert warning", role: "alert" }, notice) : null,
      h("div", { class: "signed-out-grid" }, signin, quick),
    );
    this.frame(this.header(false), null, "Welcome to CaptionQA", page);
  }

  private quickText(): string {
    if (this.quickLeft === null) return "5 free runs a day";
    return `${this.quickLeft} free ${this.quickLeft === 1 ? "run" : "runs"} left today`;
  }

  private async signOut(): Promise<void> {
    try {
      await this.client.signOut();
    } catch (e) {
      announce(messageOf(e));
    }
    this.session = null;
    this.runPage = null;
    this.features = null;
    history.replaceState(null, "", location.pathname);
    this.renderSignedOut();
    byId("page-title").focus();
  }

  private renderFatal(msg: string): void {
    replace(
      this.root,
      this.header(false),
      h(
        "main",
        { id: "main", class: "main", tabindex: -1 },
        h("h1", { id: "page-title" }, "CaptionQA is not reachable"),
        h("div", { id: "fatal-error", class: "alert", role: "alert" }, msg),
        h("button", { type: "button", class: "button primary", onclick: () => location.reload() }, "Try again"),
      ),
    );
  }
}

function boot(): void {
  const root = byId("app");
  const skip = document.getElementById("skip-link");
  skip?.addEventListener("click", (e) => {
    e.preventDefault();
    document.getElementById("main")?.focus();
  });
  void new App(root).start();
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
else boot();
