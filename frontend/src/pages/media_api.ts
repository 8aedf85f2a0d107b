// Wire types and calls of the media upload and video job routes (issues
// 16 and 17): POST/GET /api/v1/media/upload, .../complete, GET
// /api/v1/media, POST /api/v1/jobs/render, POST /api/v1/jobs/extract,
// GET/DELETE /api/v1/jobs/{id}, GET /api/v1/jobs. They go through the signed-in session as every page's
// calls do (Client.v1: cookie + X-CSRF-Token, the error envelope as an
// ApiError).

import type { Client } from "../api/client";

// ---- media

export type MediaStatus = "pending" | "completed" | "rejected" | "expired";

/** MediaStream is one stream ffprobe found. */
export interface MediaStream {
  index: number;
  type: "video" | "audio" | "subtitle" | "data" | string;
  codec: string;
  language?: string;
  title?: string;
  width?: number;
  height?: number;
  frameRate?: number;
  channels?: number;
  subtitleIndex?: number;
  text?: boolean;
  default?: boolean;
  forced?: boolean;
}

export interface MediaProbe {
  container: string;
  formatName?: string;
  durationSeconds: number;
  closedCaptions?: boolean;
  streams: MediaStream[];
}

/** UploadPart is one part's signed PUT URL. */
export interface UploadPart {
  partNumber: number;
  url: string;
  bytes: number;
}

/** ReceivedPart is a part the server stored, with its etag (hex SHA-256). */
export interface ReceivedPart {
  partNumber: number;
  etag: string;
  bytes: number;
}

/** MediaSession is an upload session: pending with its URLs, then completed with its probe. */
export interface MediaSession {
  uploadId: string;
  projectId: string;
  objectKey: string;
  filename: string;
  contentType: string;
  bytes: number;
  status: MediaStatus | string;
  createdAt: string;
  /** expiresAt ends the signed URLs. */
  expiresAt: string;
  multipart: boolean;
  url?: string;
  partSize?: number;
  parts?: UploadPart[];
  receivedParts?: ReceivedPart[];
  completedAt?: string;
  mediaExpiresAt?: string;
  rejectReason?: string;
  probe?: MediaProbe;
}

export interface UploadRequest {
  projectId: string;
  filename: string;
  contentType: string;
  bytes: number;
  urlTtlSeconds?: number;
}

export interface CompleteRequest {
  projectId: string;
  objectKey: string;
  multipart: boolean;
  parts?: { partNumber: number; etag: string }[];
}

// ---- jobs

export type JobStatus = "queued" | "running" | "succeeded" | "failed" | "canceled";
export type RenderMode = "sidecar" | "mux_soft" | "burn_in";
export type ExtractMode = "soft_track" | "broadcast_cc" | "ocr_burned";

export interface JobArtifact {
  artifactId: string;
  filename: string;
  contentType: string;
  bytes: number;
}

export interface Job {
  jobId: string;
  kind: "render" | "extract" | string;
  /** mode is a render's mode or an extract's extractMode. */
  mode: RenderMode | ExtractMode | string;
  status: JobStatus | string;
  /** progress runs from 0 to 1. */
  progress: number;
  projectId: string;
  preset: string;
  fixProfile?: string;
  outputDelivery: "inline" | "url" | string;
  mediaObjectKey?: string;
  container?: string;
  subtitleCodec?: string;
  language?: string;
  /** irRevision is the revision a render renders; for an extract, the one current when it was accepted. */
  irRevision: number;
  /** trackIndex is the subtitle stream an extract reads (0-based among the subtitle streams). */
  trackIndex?: number;
  /** resultRevision is the timeline revision a succeeded extract's captions became. */
  resultRevision?: number;
  createdAt: string;
  startedAt?: string;
  finishedAt?: string;
  /** estimatedWaitSeconds is set while queued. */
  estimatedWaitSeconds?: number;
  error?: { code: string; message: string } | null;
  artifacts?: JobArtifact[];
  /** output is an inline sidecar's caption body. */
  output?: string;
  outputContentType?: string;
}

export interface RenderRequest {
  projectId: string;
  mode: RenderMode;
  preset: string;
  outputDelivery: "inline" | "url";
  mediaObjectKey?: string;
  fixProfile?: string;
  container?: "mp4" | "mkv";
  subtitleCodec?: "mov_text" | "srt" | "webvtt" | "ass";
  language?: string;
}

export interface ExtractRequest {
  projectId: string;
  extractMode: ExtractMode;
  mediaObjectKey: string;
  trackIndex?: number;
}

/** JobAccepted is the 202 answer of a render or an extract. */
export interface JobAccepted {
  jobId: string;
  status: JobStatus | string;
  kind: string;
  estimatedWaitSeconds?: number;
  remainingApiRunsToday?: number;
}

// ---- calls

/** MediaApi calls the media and job routes with the client's session. */
export class MediaApi {
  constructor(private client: Client) {}

  private call<T>(method: "GET" | "POST" | "DELETE", path: string, json?: unknown): Promise<T> {
    return this.client.v1<T>(path, { method, json, csrf: method === "GET" ? undefined : this.client.csrf });
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
    const r = await this.call<{ media?: MediaSession[] }>("GET", `/media?projectId=${encodeURIComponent(projectId)}`);
    return r.media ?? [];
  }

  render(req: RenderRequest): Promise<JobAccepted> {
    return this.call<JobAccepted>("POST", "/jobs/render", req);
  }

  extract(req: ExtractRequest): Promise<JobAccepted> {
    return this.call<JobAccepted>("POST", "/jobs/extract", req);
  }

  async getJob(jobId: string): Promise<Job> {
    return (await this.call<{ job: Job }>("GET", `/jobs/${encodeURIComponent(jobId)}`)).job;
  }

  async cancelJob(jobId: string): Promise<Job> {
    return (await this.call<{ job: Job }>("DELETE", `/jobs/${encodeURIComponent(jobId)}`)).job;
  }

  async listJobs(projectId: string): Promise<Job[]> {
    const r = await this.call<{ jobs?: Job[] }>("GET", `/jobs?projectId=${encodeURIComponent(projectId)}`);
    return r.jobs ?? [];
  }
}
