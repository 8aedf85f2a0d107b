// Typed client for /api/v1 (contract 1.0.0; its wire types, from the
// contract, are in ./types.ts) and the session and homepage routes. Every
// failure becomes an ApiError whose message is the error envelope's
// message (never a bare status), or a clear network message.

import type {
  ArtifactLink,
  DiffRequest,
  DriftDiff,
  ExportCreated,
  ExportRequest,
  ProjectDeleted,
  ProjectDetail,
  ProjectList,
  Project,
  PutIRRequest,
  DraftCheckRequest,
  ReportQuery,
  RevisionList,
  APIKeyCreated,
  APIKeyCreateRequest,
  APIKeyList,
  APIKeyRevoked,
  CreateProjectRequest,
  CSRFToken,
  ErrorDetails,
  ErrorEnvelope,
  ExportTemplate,
  HomepageProcessResult,
  PresetDeleted,
  PresetList,
  PresetView,
  ProcessInput,
  ProcessResult,
  Profile,
  Session,
  TemplateCreate,
  TemplateDeleted,
  TemplateList,
  TemplateRunResult,
  TemplateTestRequest,
  TemplateUpdate,
  TemplateValidateRequest,
  Usage,
  Webhook,
  WebhookDeliveryList,
  WebhookDeliveryResult,
  WebhookUpdate,
} from "./types";

/** ApiError is a failed call: the envelope's code and message, the HTTP status. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
    /** details is the envelope's (the contract's ErrorDetails: the keys it names, and others). */
    readonly details: ErrorDetails = {},
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export const NETWORK_MESSAGE =
  "Could not reach the CaptionQA service. Check that it is running and your connection, then try again.";

function isEnvelope(v: unknown): v is ErrorEnvelope {
  if (typeof v !== "object" || v === null) return false;
  const e = (v as { error?: unknown }).error;
  return typeof e === "object" && e !== null && typeof (e as { message?: unknown }).message === "string";
}

async function toError(res: Response): Promise<ApiError> {
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    // Not JSON: fall through to a generic message below.
  }
  return errorOf(res.status, body);
}

/** errorOf turns a failed answer's status and parsed body into an ApiError: the envelope's message, or a generic one. */
export function errorOf(status: number, body: unknown): ApiError {
  if (isEnvelope(body)) {
    return new ApiError(body.error.message, body.error.code, status, body.error.details ?? {});
  }
  return new ApiError(
    "The service answered with an unexpected response. Try again; if it persists, check the server log.",
    "unexpected_response",
    status,
  );
}

export interface CallOptions {
  method?: "GET" | "POST" | "PUT" | "DELETE";
  json?: unknown;
  form?: FormData;
  csrf?: string;
  /** on401 runs when a signed-in call finds the session gone. */
  on401?: () => void;
  /** raw answers the Response itself (a file to save), once its status is a success. */
  raw?: boolean;
}

/** MAX_RETRY_AFTER_S is the longest Retry-After a call waits out by itself. */
const MAX_RETRY_AFTER_S = 5;

/** rateLimited reports whether a 429 is the burst limit's (rate_limited), reading a clone of its body. */
async function rateLimited(res: Response): Promise<boolean> {
  try {
    const b: unknown = await res.clone().json();
    return isEnvelope(b) && b.error.code === "rate_limited";
  } catch {
    return false;
  }
}

async function call<T>(path: string, opts: CallOptions = {}): Promise<T> {
  const method = opts.method ?? "GET";
  const headers: Record<string, string> = { Accept: "application/json" };
  let body: BodyInit | undefined;
  if (opts.json !== undefined) {
    headers["Content-Type"] = "application/json";
    body = JSON.stringify(opts.json);
  } else if (opts.form) {
    body = opts.form;
  }
  if (opts.csrf) headers["X-CSRF-Token"] = opts.csrf;
  const send = async (): Promise<Response> => {
    try {
      return await fetch(path, { method, headers, body, credentials: "same-origin", cache: "no-store" });
    } catch {
      throw new ApiError(NETWORK_MESSAGE, "network_error", 0);
    }
  };
  let res = await send();
  // The burst limit refused the request before doing anything: after the
  // Retry-After it names (a second or two) it is sent once more, so a
  // page that loads several things at once, or an editor's save after a
  // run of checks, does not fail on it. The daily quota's 429 is final.
  const wait = Number(res.headers.get("Retry-After"));
  if (res.status === 429 && wait > 0 && wait <= MAX_RETRY_AFTER_S && (await rateLimited(res))) {
    await new Promise((r) => setTimeout(r, wait * 1000));
    res = await send();
  }
  if (!res.ok) {
    const err = await toError(res);
    if (res.status === 401 && opts.on401) opts.on401();
    throw err;
  }
  if (opts.raw) return res as T;
  if (res.status === 204) return undefined as T;
  try {
    return (await res.json()) as T;
  } catch {
    throw new ApiError("The service sent a response that is not valid JSON.", "unexpected_response", res.status);
  }
}

function processForm(input: ProcessInput): FormData {
  const f = new FormData();
  f.append("file", input.file, input.file.name);
  f.append("preset", input.preset);
  f.append("fixProfile", input.fixProfile);
  if (input.standard) f.append("standard", input.standard);
  if (input.language) f.append("language", input.language);
  if (input.includeExplain) f.append("includeExplain", "true");
  if (input.projectId) f.append("projectId", input.projectId);
  if (input.mediaObjectKey) f.append("mediaObjectKey", input.mediaObjectKey);
  return f;
}

/** Client talks to one CaptionQA origin. csrf is the session's token once signed in. */
export class Client {
  csrf = "";
  /** onSessionLost runs when a v1 call answers 401 (the session expired or was revoked). */
  onSessionLost: () => void = () => {};

  /** v1 calls a /api/v1 route with the session; pages with API modules of their own (media_api.ts) use it too. */
  v1<T>(path: string, opts: CallOptions = {}): Promise<T> {
    return call<T>(`/api/v1${path}`, { ...opts, on401: () => this.onSessionLost() });
  }

  // ---- session (dashboard)

  /** owner is true while the signed-in account is the local owner (the account the first start created). */
  owner = false;
  /** ownerEmail is the owner account's e-mail when the last signed-out GET /api/session named it (only to a browser on the server's machine); "" otherwise. */
  ownerEmail = "";

  /** session returns the signed-in session, or null when signed out (401). */
  async session(): Promise<Session | null> {
    try {
      return this.started(await call<Session>("/api/session"));
    } catch (e) {
      if (e instanceof ApiError && e.status === 401) {
        this.ownerEmail = typeof e.details.ownerEmail === "string" ? e.details.ownerEmail : "";
        return null;
      }
      throw e;
    }
  }

  /** ownerHint returns the owner account's e-mail for the sign-in page: known from the last signed-out session check, else asked again; "" when the server does not say. */
  async ownerHint(): Promise<string> {
    if (this.ownerEmail) return this.ownerEmail;
    try {
      await call<Session>("/api/session");
    } catch (e) {
      if (e instanceof ApiError && e.status === 401 && typeof e.details.ownerEmail === "string") this.ownerEmail = e.details.ownerEmail;
    }
    return this.ownerEmail;
  }

  async signIn(email: string, password: string): Promise<Session> {
    // A homepage CSRF token goes along; the session route may ask for it.
    const pre = await this.homepageToken().catch(() => "");
    return this.started(await call<Session>("/api/session", { method: "POST", json: { email, password }, csrf: pre }));
  }

  /** signInWithLink uses a one-time sign-in link (`captionqa owner link`): it sets the account's password and signs in. A dead link is a 401 whose message says how to get a new one. */
  async signInWithLink(token: string, password: string): Promise<Session> {
    return this.started(await call<Session>("/api/session/link", { method: "POST", json: { token, password } }));
  }

  private started(s: Session): Session {
    this.csrf = s.csrfToken;
    this.owner = s.owner === true;
    return s;
  }

  async signOut(): Promise<void> {
    await call<void>("/api/session", { method: "DELETE", csrf: this.csrf });
    this.csrf = "";
    this.owner = false;
  }

  // ---- homepage converter (signed out)

  async homepageToken(): Promise<string> {
    return (await call<CSRFToken>("/api/csrf")).token;
  }

  async homepageProcess(input: ProcessInput): Promise<HomepageProcessResult> {
    const token = await this.homepageToken();
    return call<HomepageProcessResult>("/api/process", { method: "POST", form: processForm(input), csrf: token });
  }

  // ---- v1 with the session cookie

  process(input: ProcessInput): Promise<ProcessResult> {
    return this.v1<ProcessResult>("/process", { method: "POST", form: processForm(input), csrf: this.csrf });
  }

  me(): Promise<Profile> {
    return this.v1<Profile>("/me");
  }

  usage(): Promise<Usage> {
    return this.v1<Usage>("/usage");
  }

  /** listKeys reads a page of keys, newest first; pass the previous page's nextCursor for the next. */
  listKeys(cursor = ""): Promise<APIKeyList> {
    return this.v1<APIKeyList>(cursor ? `/api-keys?${new URLSearchParams({ cursor })}` : "/api-keys");
  }

  createKey(req: APIKeyCreateRequest): Promise<APIKeyCreated> {
    return this.v1<APIKeyCreated>("/api-keys", { method: "POST", json: req, csrf: this.csrf });
  }

  revokeKey(keyId: string): Promise<APIKeyRevoked> {
    return this.v1<APIKeyRevoked>(`/api-keys/${encodeURIComponent(keyId)}`, { method: "DELETE", csrf: this.csrf });
  }

  // ---- projects

  listProjects(limit = 20, cursor = ""): Promise<ProjectList> {
    const q = new URLSearchParams({ limit: String(limit) });
    if (cursor) q.set("cursor", cursor);
    return this.v1<ProjectList>(`/projects?${q}`);
  }

  /** createProject sends a caption file in any readable format, or none for an empty project. */
  createProject(name: string, file: File | null): Promise<Project> {
    if (!file) {
      const req: CreateProjectRequest = { name };
      return this.v1<Project>("/projects", { method: "POST", json: req, csrf: this.csrf });
    }
    const f = new FormData();
    f.append("name", name);
    f.append("file", file, file.name);
    return this.v1<Project>("/projects", { method: "POST", form: f, csrf: this.csrf });
  }

  getProject(id: string): Promise<ProjectDetail> {
    return this.v1<ProjectDetail>(`/projects/${encodeURIComponent(id)}`);
  }

  revisions(id: string): Promise<RevisionList> {
    return this.v1<RevisionList>(`/projects/${encodeURIComponent(id)}/revisions`);
  }

  deleteProject(id: string): Promise<ProjectDeleted> {
    return this.v1<ProjectDeleted>(`/projects/${encodeURIComponent(id)}`, { method: "DELETE", csrf: this.csrf });
  }

  /** putIR stores ir (IR v1 JSON text) as the revision after baseRevision. */
  putIR(id: string, ir: string, baseRevision: number): Promise<Project> {
    const req: PutIRRequest = { ir, baseRevision };
    return this.v1<Project>(`/projects/${encodeURIComponent(id)}/ir`, { method: "PUT", json: req, csrf: this.csrf });
  }

  /** putFile stores a caption file, in any format the server reads, as the revision after baseRevision. */
  putFile(id: string, file: File, baseRevision: number): Promise<Project> {
    const f = new FormData();
    f.append("baseRevision", String(baseRevision));
    f.append("file", file, file.name);
    return this.v1<Project>(`/projects/${encodeURIComponent(id)}/ir`, { method: "PUT", form: f, csrf: this.csrf });
  }

  /** diffProject compares a candidate caption file with the project's current timeline. */
  diffProject(id: string, file: File): Promise<DriftDiff> {
    const f = new FormData();
    f.append("file", file, file.name);
    return this.v1<DriftDiff>(`/projects/${encodeURIComponent(id)}/diff`, { method: "POST", form: f, csrf: this.csrf });
  }

  /**
   * diffProjectIR compares a candidate timeline (IR v1 JSON text) with
   * the project's current one; baseIrRevision makes it 409 stale_revision
   * when the project has moved on.
   */
  diffProjectIR(id: string, ir: string, baseIrRevision: number): Promise<DriftDiff> {
    const req: DiffRequest = { ir, baseIrRevision };
    return this.v1<DriftDiff>(`/projects/${encodeURIComponent(id)}/diff`, { method: "POST", json: req, csrf: this.csrf });
  }

  /** checkDraft checks an editor's draft (IR v1 JSON text) of the project, counting no run (checkProjectDraft). */
  checkDraft(id: string, req: DraftCheckRequest): Promise<ProcessResult> {
    return this.v1<ProcessResult>(`/projects/${encodeURIComponent(id)}/check`, { method: "POST", json: req, csrf: this.csrf });
  }

  /** projectReport fetches the QC report of a kept revision as a file (getProjectReport), with the session as every call. */
  async projectReport(id: string, q: ReportQuery): Promise<{ blob: Blob; filename: string }> {
    const params = new URLSearchParams({ format: q.format, revision: String(q.revision), preset: q.preset, fixProfile: q.fixProfile });
    if (q.standard) params.set("standard", q.standard);
    const res = await this.v1<Response>(`/projects/${encodeURIComponent(id)}/report?${params}`, { raw: true });
    const m = /filename="?([^";]+)"?/.exec(res.headers.get("Content-Disposition") ?? "");
    return { blob: await res.blob(), filename: m?.[1] ?? `qc-report.${q.format}` };
  }

  exportProject(id: string, req: ExportRequest): Promise<ExportCreated> {
    return this.v1<ExportCreated>(`/projects/${encodeURIComponent(id)}/exports`, { method: "POST", json: req, csrf: this.csrf });
  }

  artifactLink(artifactId: string, ttlSeconds = 600): Promise<ArtifactLink> {
    return this.v1<ArtifactLink>(`/artifacts/${encodeURIComponent(artifactId)}?ttlSeconds=${ttlSeconds}`);
  }

  // ---- webhook

  getWebhook(): Promise<Webhook> {
    return this.v1<Webhook>("/webhook");
  }

  /** putWebhook changes the webhook; creating it or rotateSecret answers the full secret once. */
  putWebhook(req: WebhookUpdate): Promise<Webhook> {
    return this.v1<Webhook>("/webhook", { method: "PUT", json: req, csrf: this.csrf });
  }

  webhookDeliveries(limit = 50): Promise<WebhookDeliveryList> {
    return this.v1<WebhookDeliveryList>(`/webhook/deliveries?limit=${limit}`);
  }

  redeliverWebhook(deliveryId: string): Promise<WebhookDeliveryResult> {
    return this.v1<WebhookDeliveryResult>(`/webhook/deliveries/${encodeURIComponent(deliveryId)}/redeliver`, { method: "POST", csrf: this.csrf });
  }

  /** testWebhook sends one signed test event and answers its outcome. */
  testWebhook(): Promise<WebhookDeliveryResult> {
    return this.v1<WebhookDeliveryResult>("/webhook/test", { method: "POST", csrf: this.csrf });
  }

  // ---- export templates

  /** listPresets reads the built-in presets, then the account's own. */
  listPresets(): Promise<PresetList> {
    return this.v1<PresetList>("/presets");
  }

  /** ownPresets names the account's own presets, for the pickers; none when they cannot be read. */
  async ownPresets(): Promise<string[]> {
    try {
      return (await this.listPresets()).presets.filter((p) => !p.builtin).map((p) => p.name);
    } catch {
      return [];
    }
  }

  /** putPreset saves a preset file (parsed JSON) as the account's preset name: created or replaced. */
  putPreset(name: string, file: unknown): Promise<PresetView> {
    return this.v1<PresetView>(`/presets/${encodeURIComponent(name)}`, { method: "PUT", json: file, csrf: this.csrf });
  }

  deletePreset(name: string): Promise<PresetDeleted> {
    return this.v1<PresetDeleted>(`/presets/${encodeURIComponent(name)}`, { method: "DELETE", csrf: this.csrf });
  }

  listTemplates(): Promise<TemplateList> {
    return this.v1<TemplateList>("/export-templates");
  }

  getTemplate(id: string): Promise<ExportTemplate> {
    return this.v1<ExportTemplate>(`/export-templates/${encodeURIComponent(id)}`);
  }

  /** createTemplate validates the script first: a syntax error is 400 with its line and column. */
  createTemplate(req: TemplateCreate): Promise<ExportTemplate> {
    return this.v1<ExportTemplate>("/export-templates", { method: "POST", json: req, csrf: this.csrf });
  }

  /** updateTemplate saves over revision; 409 stale_revision when it is no longer current. */
  updateTemplate(id: string, req: TemplateUpdate): Promise<ExportTemplate> {
    return this.v1<ExportTemplate>(`/export-templates/${encodeURIComponent(id)}`, { method: "PUT", json: req, csrf: this.csrf });
  }

  deleteTemplate(id: string): Promise<TemplateDeleted> {
    return this.v1<TemplateDeleted>(`/export-templates/${encodeURIComponent(id)}`, { method: "DELETE", csrf: this.csrf });
  }

  /** validateTemplate checks (and with mode test or both, runs) a source that need not be saved. */
  validateTemplate(req: TemplateValidateRequest): Promise<TemplateRunResult> {
    return this.v1<TemplateRunResult>("/export-templates/validate", { method: "POST", json: req, csrf: this.csrf });
  }

  /** testTemplate runs a saved template on a project's current timeline. */
  testTemplate(id: string, projectId: string): Promise<TemplateRunResult> {
    const req: TemplateTestRequest = { projectId, mode: "test" };
    return this.v1<TemplateRunResult>(`/export-templates/${encodeURIComponent(id)}/test`, { method: "POST", json: req, csrf: this.csrf });
  }
}

/** messageOf returns the text to show for any thrown value. */
export function messageOf(e: unknown): string {
  if (e instanceof ApiError) return e.message;
  if (e instanceof Error && e.message) return `Something went wrong in the page: ${e.message}`;
  return "Something went wrong. Try again.";
}
