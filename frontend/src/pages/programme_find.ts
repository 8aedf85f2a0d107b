// Finding a project's analysed media: the newest analysis among its
// newest uploads, for the project page and the workstation.

import { ApiError } from "../api/client";
import type { MediaAnalysis } from "../api/types";
import type { MediaApi, MediaSession } from "./media_api";

/** FIND_TRIES bounds how many of the newest uploads are asked for an analysis. */
const FIND_TRIES = 5;

export interface Found {
  media: MediaSession;
  analysis: MediaAnalysis;
}

/**
 * findProgramme returns the analysis of the project's newest analysed
 * upload among its newest few (listMedia, then getMediaAnalysis: 404
 * not_analyzed means none yet), or null. An analysis outlives its media's
 * retention, so expired uploads are asked too. Any other failure (no Pro
 * workspace, video off) means no programme here.
 */
export async function findProgramme(api: MediaApi, projectId: string): Promise<Found | null> {
  let list: MediaSession[];
  try {
    list = await api.listMedia(projectId);
  } catch {
    return null;
  }
  return findProgrammeIn(api, list);
}

/** findProgrammeIn is findProgramme over a listing already read (listMedia). */
export async function findProgrammeIn(api: MediaApi, list: readonly MediaSession[]): Promise<Found | null> {
  const done = list
    .filter((m) => m.status === "completed" || m.status === "expired")
    .sort((a, b) => (b.completedAt ?? b.createdAt).localeCompare(a.completedAt ?? a.createdAt))
    .slice(0, FIND_TRIES);
  for (const m of done) {
    try {
      return { media: m, analysis: await api.analysis(m.uploadId) };
    } catch (e) {
      if (e instanceof ApiError && e.status === 404) continue;
      return null;
    }
  }
  return null;
}

