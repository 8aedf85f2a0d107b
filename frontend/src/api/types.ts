// Wire types of the CaptionQA v1 API. They come from the contract,
// assets/openapi/openapi.yaml (version 1.0.0, OpenAPI 3.0.3), through
// ./schema.gen.ts, which `make ui` generates with openapi-typescript and
// which is not kept in git: every v1 type below is an alias of a schema
// (or of a part of one), never written by hand; ScriptErrorDetails only
// adds the keys the contract describes in prose to its open ErrorDetails.
// Only `import type` reaches schema.gen.ts, so the bundle never needs it.
//
// The contract may grow without a new version (docs/api.md, "Versions and
// the contract"): new optional fields and new enumeration values may appear
// in any response, so code that shows a wire value falls back to the value
// itself when it does not know it.
//
// The last section holds the routes that are not part of v1 (the dashboard
// session and the homepage converter, docs/api.md) and the UI's own
// process form; those are written here by hand.

import type { components, operations } from "./schema.gen";

type Schemas = components["schemas"];

/**
 * WithDefaults makes the keys K of a request body optional again:
 * openapi-typescript marks a property that has a default as required,
 * which is right for a response but not for a request, where the server
 * applies the default to an absent field.
 */
export type WithDefaults<T, K extends keyof T> = Omit<T, K> & Partial<Pick<T, K>>;

/** ListsAll fails to compile unless T is never: a constant list below leaves out a member of its contract enum. */
type ListsAll<T extends never> = T;

export const CONTRACT_VERSION = "1.0.0";

// ---- errors

export type ErrorCode = Schemas["ErrorCode"];
export type ErrorDetails = Schemas["ErrorDetails"];
/** ErrorEnvelope is the body of every v1 error (docs/api.md, "Errors"). */
export type ErrorEnvelope = Schemas["ErrorEnvelope"];

/**
 * ScriptErrorDetails is the details of an export template script's
 * failure: 400 bad_request (reason syntax_error, missing_export,
 * load_error) or 422 processing_failed (phase load, run, result). The
 * contract's ErrorDetails names only `field` of these and leaves further
 * keys open; createExportTemplate and validateExportTemplate describe the
 * rest in prose, typed here. line and column are 1-based, 0 or absent when
 * unknown.
 */
export type ScriptErrorDetails = ErrorDetails & {
  reason?: string;
  phase?: string;
  kind?: string;
  message?: string;
  line?: number;
  column?: number;
  stack?: string[];
};

// ---- enumerations and their constant lists

export type Preset = Schemas["Preset"];
/** PresetName is a built-in preset id or the name of one of the account's own presets. */
export type PresetName = Schemas["PresetName"];
export type FixProfile = Schemas["FixProfile"];
export type StandardId = Schemas["StandardId"];
export type Scope = Schemas["Scope"];

/** PRESETS in the order the forms offer them. */
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
  "netflix",
  "bbc",
  "broadcast-scc",
  "ebu-stl",
  "amazon",
] as const satisfies readonly Preset[];

/** FIX_PROFILES are the profiles that need only the captions, in the order the forms offer them. */
export const FIX_PROFILES = ["warn-only", "layout-preserve-breaks", "auto-split-sentences", "auto-split-cps"] as const satisfies readonly FixProfile[];

/**
 * PROGRAMME_FIX_PROFILES need the programme's analysis (an analyze job's;
 * FixProfile in the contract): offered only where the request names a
 * project whose media was analysed.
 */
export const PROGRAMME_FIX_PROFILES = ["resync", "snap-shot-changes"] as const satisfies readonly FixProfile[];

export const STANDARDS = ["wcag-2.1-aa", "en-301-549", "fcc-79.1", "dcmp"] as const satisfies readonly StandardId[];

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
] as const satisfies readonly Scope[];

/** ConstantListsComplete proves that each list above names every member of its enum (satisfies proves it names no other). */
export type ConstantListsComplete = ListsAll<
  | Exclude<Preset, (typeof PRESETS)[number]>
  | Exclude<FixProfile, (typeof FIX_PROFILES)[number] | (typeof PROGRAMME_FIX_PROFILES)[number]>
  | Exclude<StandardId, (typeof STANDARDS)[number]>
  | Exclude<Scope, (typeof SCOPES)[number]>
>;

// ---- processing (processCaptions)

export type DeliveryStatus = Schemas["DeliveryStatus"];
export type Diagnostic = Schemas["Diagnostic"];
export type Severity = Diagnostic["severity"];
export type OutputFormat = Schemas["Report"]["outputFormat"];
export type Change = Schemas["Change"];
export type Clause = Schemas["Clause"];
export type StandardReport = Schemas["StandardReport"];
/**
 * Omission counts the entries of one code a list leaves out: each list
 * keeps the first 100 of a code unless the request asked for all.
 */
export type Omission = Schemas["Omission"];
export type Report = Schemas["Report"];
/** ProcessResult is the 200 body of POST /api/v1/process (processCaptions). */
export type ProcessResult = Schemas["ProcessResult"];

// ---- ExplainAI v3: the editorial plan of a process result

export type ExplainSkippedReason = NonNullable<ProcessResult["explainSkippedReason"]>;
/** ExplainAction is one editorial step of the plan; actions come most urgent first. */
export type ExplainAction = Schemas["ExplainAction"];
/** Explanation is ExplainAI v3 (format svc.explain/v3). */
export type Explanation = Schemas["ExplainV3"];
/** DeliveryComparison scores the upload-ready and the enhanced (aided) delivery, 0 to 100. */
export type DeliveryComparison = Explanation["deliveryComparison"];
export type ExplainFallback = NonNullable<Explanation["fallback"]>;

// ---- account and API keys

/** Profile is GET /api/v1/me (getProfile). */
export type Profile = Schemas["Profile"];
/** Usage is GET /api/v1/usage (getUsage). */
export type Usage = Schemas["Usage"];
export type APIKey = Schemas["APIKey"];
/** APIKeyList is GET /api/v1/api-keys: a page, newest first; nextCursor null on the last page. */
export type APIKeyList = Schemas["APIKeyList"];
export type APIKeyCreateRequest = Schemas["APIKeyCreateRequest"];
export type APIKeyCreated = Schemas["APIKeyCreated"];
export type APIKeyRevoked = Schemas["APIKeyRevoked"];

// ---- projects (/api/v1/projects)

/** Project is a stored caption timeline's header. */
export type Project = Schemas["Project"];
/** CreateProjectRequest is the JSON body of POST /api/v1/projects (the multipart form is CreateProjectForm). */
export type CreateProjectRequest = Schemas["CreateProjectRequest"];
/** DraftCheckRequest is the JSON body of POST /api/v1/projects/{id}/check (checkProjectDraft). */
export type DraftCheckRequest = Schemas["DraftCheckRequest"];

/** ReportQuery is the query of GET /api/v1/projects/{id}/report (getProjectReport), the revision and the format always named. */
type ReportParams = NonNullable<operations["getProjectReport"]["parameters"]["query"]>;
export type ReportQuery = Required<Pick<ReportParams, "revision" | "format" | "preset" | "fixProfile">> & Pick<ReportParams, "standard">;
/** ReportFormat is a QC report's format: html, pdf or csv. */
export type ReportFormat = ReportQuery["format"];

/** PutIRRequest is the JSON body of PUT /api/v1/projects/{id}/ir. */
export type PutIRRequest = Schemas["PutIRRequest"];
/** DiffRequest is the JSON body of POST /api/v1/projects/{id}/diff. */
export type DiffRequest = Schemas["DiffRequest"];
/** ProjectList is GET /api/v1/projects: newest first; nextCursor null on the last page. */
export type ProjectList = Schemas["ProjectList"];
export type IRCue = Schemas["IRCue"];
/** IRTrack is an IR v1 document. */
export type IRTrack = Schemas["IRTrack"];
/** ProjectDetail is GET /api/v1/projects/{id}: the project and its current IR (null while empty). */
export type ProjectDetail = Schemas["ProjectDetail"];
/** RevisionList is GET /api/v1/projects/{id}/revisions, newest first. */
export type RevisionList = Schemas["RevisionList"];
export type Revision = RevisionList["revisions"][number];
export type ProjectDeleted = Schemas["ProjectDeleted"];

export type DriftCue = Schemas["DiffCue"];
/** DriftItem says what happened to one cue (diffProject). */
export type DriftItem = Schemas["DiffEntry"];
export type DriftKind = DriftItem["kind"];
/** DriftDiff is the 200 body of POST /api/v1/projects/{id}/diff. */
export type DriftDiff = Schemas["DriftDiff"];

/** ExportRequest is the body of POST /api/v1/projects/{id}/exports. */
export type ExportRequest = Schemas["ExportRequest"];
/** ExportCreated is the 201 body of POST /api/v1/projects/{id}/exports (createExport; the receipt: docs/api.md, "Exports and artifact links"). */
export type ExportCreated = Schemas["ExportCreated"];
export type ExportReceipt = Schemas["ExportReceipt"];
export type ReceiptArtifact = ExportReceipt["artifacts"][number];
/** ExportedFile is one artifact of an export; GET /api/v1/artifacts/{artifactId} gives its download link. */
export type ExportedFile = ExportCreated["artifacts"][number];
/** ArtifactLink is GET /api/v1/artifacts/{artifactId} (getArtifactURL): a signed, expiring download URL. */
export type ArtifactLink = Schemas["ArtifactURL"];

// ---- webhook (/api/v1/webhook; Pro: PRO_WORKSPACE)

/** WebhookDelivery is one signed POST to the webhook's URL and its retries. */
export type WebhookDelivery = Schemas["WebhookDelivery"];
export type WebhookEvent = WebhookDelivery["event"];
export type WebhookDeliveryStatus = WebhookDelivery["status"];
/**
 * Webhook is GET and PUT /api/v1/webhook. With no webhook yet url and
 * secret are null. secret is masked unless secretRevealed: a PUT that
 * created the webhook or rotated the secret returns it in full, once.
 */
export type Webhook = Schemas["WebhookConfig"];
/** WebhookUpdate is the body of PUT /api/v1/webhook (a partial update; the first names url). */
export type WebhookUpdate = WithDefaults<Schemas["WebhookUpdateRequest"], "rotateSecret">;
/** WebhookDeliveryList is GET /api/v1/webhook/deliveries, newest first. */
export type WebhookDeliveryList = Schemas["WebhookDeliveryList"];
/** WebhookDeliveryResult is the body of POST .../redeliver (202) and POST /webhook/test (200). */
export type WebhookDeliveryResult = Schemas["WebhookDeliveryResult"];

// ---- export templates (/api/v1/export-templates; Pro: ADVANCED_EXPORTS)

/** ExportTemplate is one template; scriptSource is absent in the list. */
export type ExportTemplate = Schemas["ExportTemplate"];
/** TemplateList is GET /api/v1/export-templates, newest first. */
export type TemplateList = Schemas["ExportTemplateList"];
/** TemplateSummary is a template in GET /api/v1/export-templates (no source). */
export type TemplateSummary = TemplateList["templates"][number];
/** TemplateCreate is the body of POST /api/v1/export-templates. */
export type TemplateCreate = WithDefaults<Schemas["ExportTemplateCreateRequest"], "filenamePattern" | "contentType">;
/** TemplateUpdate is the body of PUT /api/v1/export-templates/{id}; revision guards against a stale save (409). */
export type TemplateUpdate = Schemas["ExportTemplateUpdateRequest"];
export type TemplateDeleted = Schemas["ExportTemplateDeleted"];
export type TemplateRunMode = Schemas["TemplateMode"];
/** TemplateValidateRequest is the body of POST /api/v1/export-templates/validate. */
export type TemplateValidateRequest = WithDefaults<Schemas["TemplateValidateRequest"], "mode">;
/** TemplateTestRequest is the body of POST /api/v1/export-templates/{id}/test. */
export type TemplateTestRequest = WithDefaults<Schemas["TemplateTestRequest"], "mode">;
/** TemplateTestOutput is what one test run made: the first 64 KiB of the output and its facts. */
export type TemplateTestOutput = Schemas["TemplateTestOutput"];
/** TemplateRunResult is the 200 body of .../validate and .../{id}/test. */
export type TemplateRunResult = Schemas["TemplateRunResult"];

// ---- not v1: the dashboard session, the homepage converter, the process form

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

/** CSRFToken is GET /api/csrf, the homepage converter's token. */
export interface CSRFToken {
  token: string;
}

/**
 * HomepageProcessResult is the 200 body of POST /api/process, the
 * signed-out converter: v1's process result without remainingApiRunsToday,
 * with remainingToday (its own pool's) when the run was counted.
 */
export type HomepageProcessResult = Omit<ProcessResult, "remainingApiRunsToday"> & { remainingToday?: number };

/** RunResult is a process result of either route, as the run page shows it. */
export type RunResult = Omit<ProcessResult, "remainingApiRunsToday"> & { remainingApiRunsToday?: number; remainingToday?: number };

/** ProcessInput is what the run form gathers for the multipart form of both process routes (ProcessRequest). */
export interface ProcessInput {
  file: File;
  preset: PresetName;
  fixProfile: FixProfile;
  standard: StandardId | "";
  /** language is a BCP 47 tag for a file that declares none; "" sends none. */
  language: string;
  /** includeExplain asks for ExplainAI's plan (Pro workspace with explain_ai). */
  includeExplain: boolean;
  /** projectId checks against the newest analysis of this project's media (processCaptions; v1 only). */
  projectId?: string;
  /** mediaObjectKey checks against the analysis of this media (its upload's objectKey; v1 only). */
  mediaObjectKey?: string;
}

// ---- an account's own presets (listPresets, putPreset, deletePreset)

/** PresetView is a preset, built-in or the account's own, with what it applies. */
export type PresetView = Schemas["PresetView"];
export type PresetList = Schemas["PresetList"];
export type PresetFile = Schemas["PresetFile"];
export type PresetDeleted = Schemas["PresetDeleted"];

// ---- the programme's analysis (createAnalyzeJob, getMediaAnalysis)

/** MediaAnalysis is GET /api/v1/media/upload/{uploadId}/analysis: the newest analysis of an upload. */
export type MediaAnalysis = Schemas["MediaAnalysis"];
/** Analysis is a programme's shot changes, speech and waveform, version 1. */
export type Analysis = Schemas["Analysis"];
export type AnalysisVideo = NonNullable<Analysis["video"]>;
export type AnalysisAudio = NonNullable<Analysis["audio"]>;
export type ShotChange = NonNullable<AnalysisVideo["shotChanges"]>[number];
export type SpeechSegment = NonNullable<AnalysisAudio["speech"]>[number];
export type Waveform = AnalysisAudio["waveform"];
