-- +goose Up
-- Exports and their artifacts, webhooks and their deliveries, and video
-- (render and extract) jobs: the final shape of SQLite's 0004, 0005, 0007
-- (video_jobs) and 0008, same tables and columns. Times are timestamptz
-- in whole seconds, written from the store's clock; pool_day is a date,
-- as daily_usage.day is.
--
-- SQLite orders some listings by rowid, the order rows were inserted in;
-- Postgres has none, so those tables have seq, an identity column, in
-- its place. It is the only column SQLite's tables lack.

-- One row per export of a project's timeline, and one artifact row per
-- delivery file it produced. An artifact's bytes live in the blob store
-- under blob_key, written before the transaction that inserts these rows:
-- a crash in between leaves bytes without a row, which the orphan sweeper
-- deletes, never a row without its bytes. Exports outlive their project
-- (a receipt stays valid), so project_id is not a foreign key; they go
-- with the account.

CREATE TABLE exports (
	id          text PRIMARY KEY,
	account_id  text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
	project_id  text NOT NULL,
	ir_revision integer NOT NULL CHECK (ir_revision >= 1),
	created_at  timestamptz NOT NULL
);

CREATE INDEX exports_account_created ON exports(account_id, created_at DESC);

-- sha256 is hex text, as the domain keeps it and receipts show it.
CREATE TABLE artifacts (
	id           text PRIMARY KEY,
	export_id    text NOT NULL REFERENCES exports(id) ON DELETE CASCADE,
	account_id   text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
	preset       text NOT NULL,
	blob_key     text NOT NULL UNIQUE,
	filename     text NOT NULL,
	content_type text NOT NULL,
	bytes        bigint NOT NULL CHECK (bytes >= 0),
	sha256       text NOT NULL,
	created_at   timestamptz NOT NULL,
	seq          bigint GENERATED ALWAYS AS IDENTITY,
	UNIQUE (export_id, preset)
);

-- Webhooks: at most one per account, and the log of its deliveries. A
-- delivery of an export is inserted in the export's transaction, with
-- the River job that attempts it (the outbox): both commit with the
-- export or not at all. body is the exact JSON every attempt sends. run
-- counts the runs of attempts: a redeliver starts a new run with a new
-- job, and a job of an older run (still waiting, or cut off by a crash)
-- finds its run gone and does nothing.

CREATE TABLE webhooks (
	account_id text PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
	url        text NOT NULL,
	enabled    boolean NOT NULL,
	secret     text NOT NULL,
	created_at timestamptz NOT NULL,
	updated_at timestamptz NOT NULL
);

CREATE TABLE webhook_deliveries (
	id               text PRIMARY KEY,
	account_id       text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
	event            text NOT NULL,
	project_id       text,
	ir_revision      integer,
	export_id        text,
	body             bytea NOT NULL,
	status           text NOT NULL CHECK (status IN ('pending', 'delivered', 'failed', 'disabled')),
	attempts         integer NOT NULL DEFAULT 0 CHECK (attempts >= 0),
	last_status_code integer,
	last_error       text,
	last_attempt_at  timestamptz,
	next_attempt_at  timestamptz,
	delivered_at     timestamptz,
	created_at       timestamptz NOT NULL,
	window_start     timestamptz NOT NULL,
	run              integer NOT NULL DEFAULT 1 CHECK (run >= 1),
	seq              bigint GENERATED ALWAYS AS IDENTITY
);

-- The listings run newest first by (created_at, seq).
CREATE INDEX webhook_deliveries_account_created ON webhook_deliveries(account_id, created_at DESC, seq DESC);

-- Video jobs. A job is inserted with its River job and the run it takes
-- from the daily pool, in one transaction. run counts its runs: the
-- rescuer runs a job again (run + 1, new River job) when its heartbeat
-- stopped (a process died mid-run), and what an older run does afterwards
-- finds its run gone and changes nothing; every change of state is an
-- UPDATE conditioned on the run and the status, so of several nodes one
-- moves a run. Its artifacts are an export of the project (export_id), so
-- the artifact routes and the orphan sweeper treat them as every other
-- artifact. An extract may fill an empty project: ir_revision (the
-- revision current when the job was accepted) may be 0; track_index is
-- the subtitle track it reads (-1: none), result_revision the revision
-- its result became. seq orders the jobs as they were accepted.

CREATE TABLE video_jobs (
	id              text PRIMARY KEY,
	account_id      text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
	project_id      text NOT NULL,
	kind            text NOT NULL CHECK (kind IN ('render', 'extract')),
	mode            text NOT NULL,
	preset          text NOT NULL,
	fix_profile     text NOT NULL,
	output_delivery text NOT NULL,
	media_key       text NOT NULL,
	container       text NOT NULL,
	subtitle_codec  text NOT NULL,
	language        text NOT NULL,
	ir_revision     integer NOT NULL CHECK (ir_revision >= 0),
	media_seconds   double precision NOT NULL CHECK (media_seconds >= 0),
	status          text NOT NULL CHECK (status IN ('queued', 'running', 'succeeded', 'failed', 'canceled')),
	progress        double precision NOT NULL DEFAULT 0 CHECK (progress >= 0 AND progress <= 1),
	run             integer NOT NULL DEFAULT 1 CHECK (run >= 1),
	created_at      timestamptz NOT NULL,
	started_at      timestamptz,
	finished_at     timestamptz,
	heartbeat_at    timestamptz,
	error_code      text,
	error_message   text,
	output          text,
	output_type     text,
	export_id       text,
	pool            text NOT NULL,
	pool_day        date NOT NULL,
	track_index     integer NOT NULL DEFAULT -1,
	result_revision integer,
	seq             bigint GENERATED ALWAYS AS IDENTITY
);

CREATE INDEX video_jobs_account_project ON video_jobs(account_id, project_id, created_at DESC);
CREATE INDEX video_jobs_status ON video_jobs(status, created_at);
