// Wire types of the CaptionQA v1 API, written by hand from
// assets/openapi/openapi.yaml, contract version 1.0.0 (OpenAPI 3.0.3),
// plus the dashboard-session and homepage-converter routes, which are not
// part of v1. Unknown extra fields may appear on any response (spec part
// 9): every consumer treats fields it does not know as optional.

export const CONTRACT_VERSION = "1.0.0";

export type ErrorCode =
  | "bad_request"
  | "payload_too_large"
  | "unauthorized"
  | "api_key_revoked"
  | "api_key_expired"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "processing_failed"
  | "rate_limited"
  | "quota_exceeded"
  | "internal_error"
  | "not_implemented"
  | "unavailable";

/** ErrorEnvelope is the body of every error (spec 7.1). */
export interface ErrorEnvelope {
  error: {
    code: ErrorCode | string;
    message: string;
    details?: Record<string, unknown>;
  };
}

export const PRESETS = [
  "youtube",
  "tiktok",
  "html5",
  "generic",
  "lms",
  "instagram-reels",
  "linkedin",
  "vimeo",
  "facebook",
  "zoom",
  "developer-json",
] as const;
export type Preset = (typeof PRESETS)[number];

export const FIX_PROFILES = ["warn-only", "layout-preserve-breaks", "auto-split-sentences", "auto-split-cps"] as const;
export type FixProfile = (typeof FIX_PROFILES)[number];

export const STANDARDS = ["wcag-2.1-aa", "en-301-549", "fcc-79.1", "dcmp"] as const;
export type StandardId = (typeof STANDARDS)[number];

export type DeliveryStatus = "ready" | "will_adapt" | "needs_attention";
export type Severity = "error" | "warning" | "info";
export type OutputFormat = "srt" | "vtt" | "ttml" | "json";

export interface Diagnostic {
  code: string;
  severity: Severity;
  line: number;
  cueIndex?: number;
  message: string;
  value?: number;
  limit?: number;
  unit?: string;
}

export interface Change {
  code: string;
  /** Absent for a change to the file as a whole (header, encoding). */
  cueIndex?: number;
  action: string;
  message: string;
}

export interface Clause {
  id: string;
  title: string;
  requirement: string;
  status: "pass" | "fail" | "not_evaluated";
  findings: Diagnostic[];
  reason?: string;
  checks?: string[];
}

export interface StandardReport {
  id: StandardId;
  title: string;
  version?: string;
  summary: { pass: number; fail: number; notEvaluated: number };
  clauses: Clause[];
}

/**
 * Omission counts the entries of one code a list leaves out: each list
 * keeps the first 100 of a code unless the request asked for all.
 */
export interface Omission {
  list: "diagnostics" | "fixes" | "remaining" | "findings" | "suggestions";
  /** clause is the standard clause's id, for list "findings". */
  clause?: string;
  code: string;
  count: number;
}

export interface Report {
  summary: string;
  preset: Preset;
  fixProfile: FixProfile;
  inputFormat: string;
  outputFormat: OutputFormat;
  encoding: string;
  inputCues: number;
  outputCues: number;
  diagnostics: Diagnostic[];
  fixes: Change[];
  remaining: Diagnostic[];
  /** omitted counts what the lists above and the clauses' findings leave out. */
  omitted?: Omission[];
  counting: string;
  platformNotes?: string[];
  standard?: StandardReport;
}

/** ProcessResult is the 200 body of POST /api/v1/process (spec 2.1). */
export interface ProcessResult {
  report: Report;
  output: string;
  aidedOutput?: string;
  aidedReport?: Report;
  suggestions?: Diagnostic[];
  /** omitted counts the suggestions left out (list "suggestions"). */
  omitted?: Omission[];
  aidedSameAsDelivery?: boolean;
  deliveryStatus: DeliveryStatus;
  aidedStatus: DeliveryStatus;
  remainingApiRunsToday?: number;
  /** remainingToday is set by the homepage converter (its own pool). */
  remainingToday?: number;
  /** explainAvailable: the caller is entitled, the explainer is on and today's explain allowance has room. */
  explainAvailable: boolean;
  /** explain is set when the request asked for it (includeExplain) and the caller may have it. */
  explain?: Explanation;
  /** explainSkippedReason says why an asked-for explain is absent. */
  explainSkippedReason?: ExplainSkippedReason | string;
}

// ---- ExplainAI v3 (issue 18): the editorial plan of a process result

export type ExplainSkippedReason = "not_entitled" | "not_configured" | "quota_exceeded";

/** ExplainAction is one editorial step of the plan; actions come most urgent first. */
export interface ExplainAction {
  /** id is "a1", "a2", ... in plan order, stable for the same report. */
  id: string;
  /** priority: 1 blocking, 2 a standard's clause fails, 3 suggestion, 4 manual review. */
  priority: 1 | 2 | 3 | 4 | number;
  blocking: boolean;
  kind: string;
  title: string;
  detail: string;
  codes: string[];
  /** cueIndexes are 0-based cues of the delivery (the uploaded file's unless the fixes split, removed or reordered cues), at most 200; count counts them all. */
  cueIndexes: number[];
  count: number;
  /** autoFixable: running again with fixProfile does it. */
  autoFixable: boolean;
  fixProfile?: FixProfile | string;
  /** clauses are ids of the standard's clauses the action settles. */
  clauses: string[];
  effortMinutes: number;
  owner: string;
}

/** DeliveryComparison scores the upload-ready and the enhanced (aided) delivery, 0 to 100. */
export interface DeliveryComparison {
  uploadReadyScore: number;
  enhancedScore: number;
  summary: string;
}

export type ExplainFallback = "timeout" | "unavailable" | "invalid_response" | "invented_cues" | "invented_actions";

/** Explanation is ExplainAI v3 (format captionqa.explain/v3). */
export interface Explanation {
  format: string;
  status: "actions" | "clear" | string;
  actions: ExplainAction[];
  headline: string;
  message: string;
  clientSummary: string;
  platformNotes: string;
  deliveryComparison: DeliveryComparison;
  alreadyFixedSummary: string;
  writtenBy: "builtin" | "model" | string;
  model?: string;
  /** fallback says why a configured model's text was not used. */
  fallback?: ExplainFallback | string;
}

export const SCOPES = [
  "process:write",
  "account:read",
  "usage:read",
  "keys:read",
  "keys:write",
  "webhooks:read",
  "webhooks:write",
  "exports:read",
  "exports:write",
] as const;
export type Scope = (typeof SCOPES)[number];

/** Profile is GET /api/v1/me (spec 2.3). */
export interface Profile {
  userKey: string;
  tier: "free_plus" | "pro" | string;
  email: string;
  features: string[];
  quotas: { v1DailySuccessCap: number; remainingToday: number };
}

/** Usage is GET /api/v1/usage (spec 2.4). */
export interface Usage {
  cap: number;
  usedToday: number;
  remainingToday: number;
  resetsAt: string;
  keys: { keyId: string; prefix: string; name: string }[];
}

export interface APIKey {
  keyId: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  status: "active" | "revoked" | "expired";
}

export interface APIKeyList {
  keys: APIKey[];
}

export interface APIKeyCreateRequest {
  name: string;
  scopes: Scope[];
  expiresAt?: string;
}

export interface APIKeyCreated {
  keyId: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  createdAt: string;
  expiresAt: string;
  /** secret is the full Bearer secret, returned only at creation. */
  secret: string;
}

export interface APIKeyRevoked {
  keyId: string;
  revoked: true;
  revokedAt: string;
}

// ---- dashboard session and homepage converter (not v1)

/** Session is GET /api/session. POST answers without tier. */
export interface Session {
  email: string;
  tier?: string;
  /** csrfToken goes in X-CSRF-Token on POST/DELETE; empty in the desktop window. */
  csrfToken: string;
  /** desktop is true in the desktop window, signed in as the local owner. */
  desktop?: boolean;
  /** owner is true when the account is the local owner, the account the first start created. */
  owner?: boolean;
}

export interface CSRFToken {
  token: string;
}

/** ProcessInput is the multipart form of both process routes. */
export interface ProcessInput {
  file: File;
  preset: Preset;
  fixProfile: FixProfile;
  standard: StandardId | "";
  /** language is a BCP 47 tag for a file that declares none; "" sends none. */
  language: string;
  /** includeExplain asks for ExplainAI's plan (Pro workspace with explain_ai). */
  includeExplain: boolean;
}

// ---- projects (contract 1.0.0, /api/v1/projects)

/** Project is a stored caption timeline's header. */
export interface Project {
  id: string;
  name: string;
  /** ready holds a timeline; empty does not yet. */
  status: "ready" | "empty" | string;
  irRevision: number;
  cueCount: number;
  createdAt: string;
  updatedAt: string;
}

/** ProjectList is GET /api/v1/projects: newest first; nextCursor null on the last page. */
export interface ProjectList {
  projects: Project[];
  nextCursor: string | null;
}

/** IRCue is the part of an IR v1 cue the UI shows. */
export interface IRCue {
  id?: string;
  startMs: number;
  endMs: number;
  text: string;
  voice?: string;
}

/** IRTrack is an IR v1 document; only the fields the UI reads are typed. */
export interface IRTrack {
  version: number;
  language?: string;
  cues: IRCue[];
  [extra: string]: unknown;
}

/** ProjectDetail is GET /api/v1/projects/{id}: the project and its current IR (null while empty). */
export interface ProjectDetail extends Project {
  ir: IRTrack | null;
}

export interface Revision {
  irRevision: number;
  cueCount: number;
  createdAt: string;
}

/** RevisionList is GET /api/v1/projects/{id}/revisions, newest first. */
export interface RevisionList {
  projectId: string;
  currentIrRevision: number;
  revisions: Revision[];
}

export interface ProjectDeleted {
  id: string;
  deleted: true;
}

export type DriftKind = "added" | "removed" | "changed";

export interface DriftCue {
  id: string;
  startMs: number;
  endMs: number;
  text: string;
  voice?: string;
}

/** DriftItem says what happened to one cue (spec 2.8). */
export interface DriftItem {
  kind: DriftKind;
  currentIndex?: number;
  candidateIndex?: number;
  before?: DriftCue;
  after?: DriftCue;
  fields?: string[];
}

/** DriftDiff is the 200 body of POST /api/v1/projects/{id}/diff. */
export interface DriftDiff {
  summary: { added: number; removed: number; changed: number };
  preview: DriftItem[];
  truncated: boolean;
  /** offsetMs is a constant shift of the whole candidate, reported once instead of as N changes. */
  offsetMs: number;
  currentIrRevision: number;
}

/** ExportRequest is the body of POST /api/v1/projects/{id}/exports. */
export interface ExportRequest {
  presets: Preset[];
  fixProfile?: FixProfile;
  standard?: StandardId;
}

export interface ReceiptArtifact {
  preset: Preset | string;
  exportId: string;
  filename: string;
  artifactId?: string;
}

/** ExportCreated is the 201 body of POST /api/v1/projects/{id}/exports (receipt: spec 2.10). */
export interface ExportCreated {
  exportId: string;
  irRevision: number;
  receipt: {
    version?: number | string;
    kind?: string;
    projectId?: string;
    irRevision?: number;
    artifacts: ReceiptArtifact[];
  };
  /** artifacts carries each delivery's artifactId (with its preset and filename). */
  artifacts?: ExportedFile[];
  remainingApiRunsToday?: number;
  [extra: string]: unknown;
}

/** ExportedFile is one artifact of an export; GET /api/v1/artifacts/{artifactId} gives its download link. */
export interface ExportedFile {
  artifactId: string;
  preset: Preset | string;
  filename: string;
  contentType?: string;
  bytes?: number;
  sha256?: string;
}

/** ArtifactLink is GET /api/v1/artifacts/{artifactId} (spec 2.9): a signed, expiring download URL. */
export interface ArtifactLink {
  artifactId: string;
  url: string;
  expiresAt: string;
  filename: string;
  contentType: string;
  bytes: number;
}

// ---- webhook (issue 14, /api/v1/webhook; Pro: PRO_WORKSPACE)

export type WebhookEvent = "export_complete" | "test";
export type WebhookDeliveryStatus = "pending" | "delivered" | "failed" | "disabled";

/** WebhookDelivery is one signed POST to the webhook's URL and its retries. */
export interface WebhookDelivery {
  deliveryId: string;
  event: WebhookEvent | string;
  projectId: string | null;
  irRevision: number | null;
  exportId: string | null;
  status: WebhookDeliveryStatus | string;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  deliveredAt: string | null;
  createdAt: string;
}

/**
 * Webhook is GET and PUT /api/v1/webhook. With no webhook yet url and
 * secret are null. secret is masked unless secretRevealed: a PUT that
 * created the webhook or rotated the secret returns it in full, once.
 */
export interface Webhook {
  url: string | null;
  enabled: boolean;
  secret: string | null;
  secretRevealed: boolean;
  createdAt: string | null;
  updatedAt: string | null;
  lastDelivery: WebhookDelivery | null;
}

/** WebhookUpdate is the body of PUT /api/v1/webhook (a partial update; the first names url). */
export interface WebhookUpdate {
  url?: string;
  enabled?: boolean;
  rotateSecret?: boolean;
}

/** WebhookDeliveryList is GET /api/v1/webhook/deliveries, newest first. */
export interface WebhookDeliveryList {
  deliveries: WebhookDelivery[];
}

/** WebhookDeliveryResult is the body of POST .../redeliver (202) and POST /webhook/test (200). */
export interface WebhookDeliveryResult {
  delivery: WebhookDelivery;
}

// ---- export templates (issue 15, /api/v1/export-templates; Pro: ADVANCED_EXPORTS)

/** TemplateSummary is a template in GET /api/v1/export-templates (no source). */
export interface TemplateSummary {
  id: string;
  name: string;
  revision: number;
  filenamePattern: string;
  contentType: string;
  createdAt: string;
  updatedAt: string;
}

/** ExportTemplate is one template with its JavaScript source. */
export interface ExportTemplate extends TemplateSummary {
  scriptSource: string;
}

/** TemplateList is GET /api/v1/export-templates, newest first. */
export interface TemplateList {
  templates: TemplateSummary[];
}

/** TemplateCreate is the body of POST /api/v1/export-templates. */
export interface TemplateCreate {
  name: string;
  scriptSource: string;
  filenamePattern?: string;
  contentType?: string;
}

/** TemplateUpdate is the body of PUT /api/v1/export-templates/{id}; revision guards against a stale save (409). */
export interface TemplateUpdate {
  name?: string;
  scriptSource?: string;
  filenamePattern?: string;
  contentType?: string;
  revision?: number;
}

export interface TemplateDeleted {
  id: string;
  deleted: true;
}

export type TemplateRunMode = "validate" | "test" | "both";

/** TemplateValidateRequest is the body of POST /api/v1/export-templates/validate. */
export interface TemplateValidateRequest {
  scriptSource: string;
  mode?: TemplateRunMode;
  /** Required for mode test and both. */
  projectId?: string;
}

/** TemplateTestOutput is what one test run made: the first 64 KiB of the output and its facts. */
export interface TemplateTestOutput {
  ok: boolean;
  durationMs: number;
  output: string;
  outputBytes: number;
  truncated: boolean;
  filename: string;
  contentType: string;
}

/** TemplateRunResult is the 200 body of .../validate and .../{id}/test. */
export interface TemplateRunResult {
  mode: TemplateRunMode | string;
  validate: { ok: boolean; durationMs: number } | null;
  test: TemplateTestOutput | null;
  remainingApiRunsToday?: number;
  [extra: string]: unknown;
}

/**
 * ScriptErrorDetails is the details of a script failure: 400 bad_request
 * (reason syntax_error, missing_export, load_error) or 422
 * processing_failed (phase compile, load, run, result). line and column
 * are 1-based, 0 or absent when unknown.
 */
export interface ScriptErrorDetails {
  field?: string;
  reason?: string;
  phase?: string;
  kind?: string;
  message?: string;
  line?: number;
  column?: number;
  stack?: string[];
}
