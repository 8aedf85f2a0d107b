-- +goose Up
-- Webhooks: at most one per account, and the log of its deliveries. A
-- delivery of an export is inserted in the export's transaction, with
-- the River job that attempts it (the outbox): both commit with the
-- export or not at all. body is the exact JSON every attempt sends. run
-- counts the runs of attempts: a redeliver starts a new run with a new
-- job, and a job of an older run (still waiting, or cut off by a crash)
-- finds its run gone and does nothing.

CREATE TABLE webhooks (
	account_id TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
	url        TEXT NOT NULL,
	enabled    INTEGER NOT NULL CHECK (enabled IN (0, 1)),
	secret     TEXT NOT NULL,
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL
) STRICT;

CREATE TABLE webhook_deliveries (
	id               TEXT PRIMARY KEY,
	account_id       TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
	event            TEXT NOT NULL,
	project_id       TEXT,
	ir_revision      INTEGER,
	export_id        TEXT,
	body             BLOB NOT NULL,
	status           TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed', 'disabled')),
	attempts         INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
	last_status_code INTEGER,
	last_error       TEXT,
	last_attempt_at  TEXT,
	next_attempt_at  TEXT,
	delivered_at     TEXT,
	created_at       TEXT NOT NULL,
	window_start     TEXT NOT NULL,
	run              INTEGER NOT NULL DEFAULT 1 CHECK (run >= 1)
) STRICT;

CREATE INDEX webhook_deliveries_account_created ON webhook_deliveries(account_id, created_at DESC, id DESC);
