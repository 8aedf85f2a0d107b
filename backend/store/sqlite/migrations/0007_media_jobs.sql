-- +goose Up
-- Media uploads and video jobs. An upload session's parts are blobs under
-- uploads/<id>/<n>, recorded in upload_parts as they arrive; complete
-- assembles them into media/<id> (object_key) and stores the probe. The
-- sweeper deletes the blobs of sessions past retention (or never
-- completed) and marks them expired; the rows stay as a record.
--
-- A video job is inserted with its River job and the run it takes from
-- the daily pool, in one transaction. run counts its runs: the rescuer
-- runs a job again (run + 1, new River job) when its heartbeat stopped (a
-- process died mid-run), and what an older run does afterwards finds its
-- run gone and changes nothing. Its artifacts are an export of the
-- project (export_id), so the artifact routes and the orphan sweeper
-- treat them as every other artifact.

CREATE TABLE uploads (
	id               TEXT PRIMARY KEY,
	account_id       TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
	project_id       TEXT NOT NULL,
	object_key       TEXT NOT NULL UNIQUE,
	filename         TEXT NOT NULL,
	content_type     TEXT NOT NULL,
	bytes            INTEGER NOT NULL CHECK (bytes > 0),
	multipart        INTEGER NOT NULL CHECK (multipart IN (0, 1)),
	part_size        INTEGER NOT NULL CHECK (part_size > 0),
	part_count       INTEGER NOT NULL CHECK (part_count >= 1),
	status           TEXT NOT NULL CHECK (status IN ('pending', 'completed', 'rejected', 'expired')),
	created_at       TEXT NOT NULL,
	expires_at       TEXT NOT NULL,
	completed_at     TEXT,
	media_expires_at TEXT,
	probe            TEXT,
	reject_reason    TEXT
) STRICT;

CREATE INDEX uploads_account_project ON uploads(account_id, project_id, created_at DESC);
CREATE INDEX uploads_status ON uploads(status);

CREATE TABLE upload_parts (
	upload_id   TEXT NOT NULL REFERENCES uploads(id) ON DELETE CASCADE,
	part_number INTEGER NOT NULL CHECK (part_number >= 1),
	bytes       INTEGER NOT NULL CHECK (bytes >= 0),
	etag        TEXT NOT NULL,
	PRIMARY KEY (upload_id, part_number)
) STRICT;

CREATE TABLE video_jobs (
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
	ir_revision     INTEGER NOT NULL CHECK (ir_revision >= 1),
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
	pool_day        TEXT NOT NULL
) STRICT;

CREATE INDEX video_jobs_account_project ON video_jobs(account_id, project_id, created_at DESC);
CREATE INDEX video_jobs_status ON video_jobs(status, created_at);
