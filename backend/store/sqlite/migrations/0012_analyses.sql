-- +goose Up
-- Analyze jobs and the analyses they make (docs/media.md, Analysis). A
-- video job may now be an analyze job: SQLite cannot change a CHECK, so
-- video_jobs is rebuilt with its rows. media_analyses keeps one analysis
-- per uploaded media, the newest, as its JSON text: it outlives the
-- media's bytes (the checks need the analysis, not the file) and goes
-- with the upload's row, the project's deletion or the account's; bytes
-- is its length, which the account's storage counts.

CREATE TABLE media_analyses (
	upload_id  TEXT PRIMARY KEY REFERENCES uploads(id) ON DELETE CASCADE,
	account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
	project_id TEXT NOT NULL,
	job_id     TEXT NOT NULL,
	analysis   TEXT NOT NULL,
	bytes      INTEGER NOT NULL CHECK (bytes >= 0),
	created_at TEXT NOT NULL
) STRICT;

CREATE INDEX media_analyses_account_project ON media_analyses(account_id, project_id, created_at DESC);

CREATE TABLE video_jobs_v2 (
	id              TEXT PRIMARY KEY,
	account_id      TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
	project_id      TEXT NOT NULL,
	kind            TEXT NOT NULL CHECK (kind IN ('render', 'extract', 'analyze')),
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
	finished_at, heartbeat_at, error_code, error_message, output, output_type, export_id, pool, pool_day, track_index,
	result_revision)
SELECT rowid, id, account_id, project_id, kind, mode, preset, fix_profile, output_delivery, media_key,
	container, subtitle_codec, language, ir_revision, media_seconds, status, progress, run, created_at, started_at,
	finished_at, heartbeat_at, error_code, error_message, output, output_type, export_id, pool, pool_day, track_index,
	result_revision
FROM video_jobs;

DROP TABLE video_jobs;
ALTER TABLE video_jobs_v2 RENAME TO video_jobs;
CREATE INDEX video_jobs_account_project ON video_jobs(account_id, project_id, created_at DESC);
CREATE INDEX video_jobs_status ON video_jobs(status, created_at);
