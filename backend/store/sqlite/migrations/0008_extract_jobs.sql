-- +goose Up
-- Extract jobs: the subtitle track they read (track_index) and the
-- timeline revision their result became (result_revision). An extract
-- may fill an empty project, so ir_revision (the revision current when
-- the job was accepted) may now be 0: SQLite cannot change a CHECK, so
-- the table is rebuilt with its rows.

CREATE TABLE video_jobs_v2 (
	id              TEXT PRIMARY KEY,
	account_id      TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
	project_id      TEXT NOT NULL,
	kind            TEXT NOT NULL CHECK (kind IN ('render', 'extract')),
	mode            TEXT NOT NULL,
	preset          TEXT NOT NULL,
	fix_profile     TEXT NOT NULL,
	output_delivery TEXT NOT NULL,
	media_key       TEXT NOT NULL,
	container       TEXT NOT NULL,
	subtitle_codec  TEXT NOT NULL,
	language        TEXT NOT NULL,
	ir_revision     INTEGER NOT NULL CHECK (ir_revision >= 0),
	media_seconds   REAL NOT NULL CHECK (media_seconds >= 0),
	status          TEXT NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'canceled')),
	progress        REAL NOT NULL DEFAULT 0 CHECK (progress >= 0 AND progress <= 1),
	run             INTEGER NOT NULL DEFAULT 1 CHECK (run >= 1),
	created_at      TEXT NOT NULL,
	started_at      TEXT,
	finished_at     TEXT,
	heartbeat_at    TEXT,
	error_code      TEXT,
	error_message   TEXT,
	output          TEXT,
	output_type     TEXT,
	export_id       TEXT,
	pool            TEXT NOT NULL,
	pool_day        TEXT NOT NULL,
	track_index     INTEGER NOT NULL DEFAULT -1,
	result_revision INTEGER
) STRICT;

-- rowid is kept: it orders the jobs as they were accepted.
INSERT INTO video_jobs_v2(rowid, id, account_id, project_id, kind, mode, preset, fix_profile, output_delivery, media_key,
	container, subtitle_codec, language, ir_revision, media_seconds, status, progress, run, created_at, started_at,
	finished_at, heartbeat_at, error_code, error_message, output, output_type, export_id, pool, pool_day)
SELECT rowid, id, account_id, project_id, kind, mode, preset, fix_profile, output_delivery, media_key,
	container, subtitle_codec, language, ir_revision, media_seconds, status, progress, run, created_at, started_at,
	finished_at, heartbeat_at, error_code, error_message, output, output_type, export_id, pool, pool_day
FROM video_jobs;

DROP TABLE video_jobs;
ALTER TABLE video_jobs_v2 RENAME TO video_jobs;
CREATE INDEX video_jobs_account_project ON video_jobs(account_id, project_id, created_at DESC);
CREATE INDEX video_jobs_status ON video_jobs(status, created_at);
