-- +goose Up
-- Analyze jobs and the analyses they make (docs/media.md, Analysis), as
-- SQLite's 0012: a video job may be an analyze job, and media_analyses
-- keeps the newest analysis of each uploaded media as JSON text.
ALTER TABLE video_jobs DROP CONSTRAINT video_jobs_kind_check;
ALTER TABLE video_jobs ADD CONSTRAINT video_jobs_kind_check CHECK (kind IN ('render', 'extract', 'analyze'));

CREATE TABLE media_analyses (
	upload_id  text PRIMARY KEY REFERENCES uploads(id) ON DELETE CASCADE,
	account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
	project_id text NOT NULL,
	job_id     text NOT NULL,
	analysis   text NOT NULL,
	bytes      bigint NOT NULL CHECK (bytes >= 0),
	created_at timestamptz NOT NULL
);

CREATE INDEX media_analyses_account_project ON media_analyses(account_id, project_id, created_at DESC);
