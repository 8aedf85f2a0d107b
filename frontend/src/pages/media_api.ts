// Wire types and calls of the media upload and video job routes (issues
// 16 and 17): POST/GET /api/v1/media/upload, .../complete, GET
// /api/v1/media, POST /api/v1/jobs/render, POST /api/v1/jobs/extract,
// POST /api/v1/jobs/analyze, GET /api/v1/media/upload/{id}/analysis,
// GET/DELETE /api/v1/jobs/{id}, GET /api/v1/jobs. They go through the
// signed-in session as every page's calls do (Client.v1: cookie +
// X-CSRF-Token, the error envelope as an ApiError).
//
// The wire types are aliases of the contract's schemas, generated into
// ../api/schema.gen.ts by make ui (see ../api/types.ts); where a name the
// pages use differs from the schema's, its comment names the schema.

import type { Client } from "../api/client";
import type { components, operations } from "../api/schema.gen";
import type { MediaAnalysis, WithDefaults } from "../api/types";

type Schemas = components["schemas"];

// ---- media

/** MediaSession is an upload session (schema UploadSession): pending with its URLs, then completed with its probe. */
export type MediaSession = Schemas["UploadSession"];
export type MediaStatus = MediaSession["status"];
/** MediaProbe is what ffprobe found in completed media. */
export type MediaProbe = Schemas["MediaProbe"];
/** MediaStream is one stream ffprobe found. */
export type MediaStream = MediaProbe["streams"][number];
/** UploadPart is one part's signed PUT URL (an item of UploadSession.parts; not the schema UploadPart, which is ReceivedPart). */
export type UploadPart = NonNullable<MediaSession["parts"]>[number];
/** ReceivedPart is a part the server stored, with its etag (schema UploadPart). */
export type ReceivedPart = Schemas["UploadPart"];
/** UploadRequest is the body of POST /api/v1/media/upload (schema MediaUploadRequest). */
export type UploadRequest = WithDefaults<Schemas["MediaUploadRequest"], "urlTtlSeconds">;
/** CompleteRequest is the body of POST /api/v1/media/upload/{uploadId}/complete (schema MediaCompleteRequest). */
export type CompleteRequest = WithDefaults<Schemas["MediaCompleteRequest"], "multipart">;

// ---- jobs

export type Job = Schemas["Job"];
/** JobStatus is a job's state (Job.status; not the schema JobStatus, the body of GET /api/v1/jobs/{jobId}). */
export type JobStatus = Job["status"];
/** JobMode is a job's mode, as GET /api/v1/jobs filters by it. */
export type JobMode = NonNullable<NonNullable<operations["listJobs"]["parameters"]["query"]>["mode"]>;
/** JobArtifact is one file a job produced. */
export type JobArtifact = Job["artifacts"][number];
/** RenderRequest is the body of POST /api/v1/jobs/render (schema RenderJobRequest). */
export type RenderRequest = WithDefaults<Schemas["RenderJobRequest"], "outputDelivery">;
export type RenderMode = RenderRequest["mode"];
/** ExtractRequest is the body of POST /api/v1/jobs/extract (schema ExtractJobRequest). */
export type ExtractRequest = Schemas["ExtractJobRequest"];
export type ExtractMode = ExtractRequest["extractMode"];
/** AnalyzeRequest is the body of POST /api/v1/jobs/analyze (schema AnalyzeJobRequest). */
export type AnalyzeRequest = Schemas["AnalyzeJobRequest"];
/** MediaLink is a signed play link of a completed upload (getMediaLink). */
export type MediaLink = Schemas["MediaLink"];
/** JobAccepted is the 202 answer of a render, an extract or an analysis (schema JobCreated). */
export type JobAccepted = Schemas["JobCreated"];

// ---- calls

/** MediaApi calls the media and job routes with the client's session. */
export class MediaApi {
  constructor(private client: Client) {}

  private call<T>(method: "GET" | "POST" | "DELETE", path: string, json?: unknown): Promise<T> {
    return this.client.v1<T>(path, { method, json, csrf: method === "GET" ? undefined : this.client.csrf });
  }

  /** ownPresets names the account's own presets, for the render picker. */
  ownPresets(): Promise<string[]> {
    return this.client.ownPresets();
  }

  createUpload(req: UploadRequest): Promise<MediaSession> {
    return this.call<MediaSession>("POST", "/media/upload", req);
  }

  /** getUpload answers a session; a pending one with fresh URLs and its receivedParts. */
  getUpload(uploadId: string): Promise<MediaSession> {
    return this.call<MediaSession>("GET", `/media/upload/${encodeURIComponent(uploadId)}`);
  }

  completeUpload(uploadId: string, req: CompleteRequest): Promise<MediaSession> {
    return this.call<MediaSession>("POST", `/media/upload/${encodeURIComponent(uploadId)}/complete`, req);
  }

  async listMedia(projectId: string): Promise<MediaSession[]> {
    return (await this.call<Schemas["UploadList"]>("GET", `/media?projectId=${encodeURIComponent(projectId)}`)).media;
  }

  render(req: RenderRequest): Promise<JobAccepted> {
    return this.call<JobAccepted>("POST", "/jobs/render", req);
  }

  extract(req: ExtractRequest): Promise<JobAccepted> {
    return this.call<JobAccepted>("POST", "/jobs/extract", req);
  }

  /** analyze queues an analysis of a completed upload (createAnalyzeJob). */
  analyze(req: AnalyzeRequest): Promise<JobAccepted> {
    return this.call<JobAccepted>("POST", "/jobs/analyze", req);
  }

  /** analysis reads an upload's newest analysis (getMediaAnalysis): 404 with details.reason not_analyzed before one succeeded. */
  analysis(uploadId: string): Promise<MediaAnalysis> {
    return this.call<MediaAnalysis>("GET", `/media/upload/${encodeURIComponent(uploadId)}/analysis`);
  }

  /** playLink signs a keyless link that plays a completed upload (getMediaLink), for a <video>. */
  playLink(uploadId: string): Promise<MediaLink> {
    return this.call<MediaLink>("GET", `/media/upload/${encodeURIComponent(uploadId)}/link`);
  }

  async getJob(jobId: string): Promise<Job> {
    return (await this.call<Schemas["JobStatus"]>("GET", `/jobs/${encodeURIComponent(jobId)}`)).job;
  }

  async cancelJob(jobId: string): Promise<Job> {
    return (await this.call<Schemas["JobStatus"]>("DELETE", `/jobs/${encodeURIComponent(jobId)}`)).job;
  }

  /** listJobs lists a project's newest jobs, of one mode alone when mode is given (listJobs). */
  async listJobs(projectId: string, mode?: JobMode): Promise<Job[]> {
    const q = `projectId=${encodeURIComponent(projectId)}` + (mode ? `&mode=${encodeURIComponent(mode)}` : "");
    return (await this.call<Schemas["JobList"]>("GET", `/jobs?${q}`)).jobs;
  }
}
