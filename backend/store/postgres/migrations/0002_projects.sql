-- +goose Up
-- Projects and their revisions, export templates, and media upload
-- sessions with their parts: the final shape of SQLite's 0003, 0006 and
-- 0007 (uploads), same tables and columns. Times are timestamptz in whole
-- seconds, written from the store's clock.
--
-- A project's current revision is ir_revision (0 while it is empty);
-- project_revisions keeps the newest few (the service prunes older ones)
-- with the timeline as compact IR v1 JSON, kept as text: jsonb would
-- reorder keys and drop whitespace, and the IR is served byte for byte.
-- Listings run newest first by (created_at, id), which the
-- *_account_created indexes serve.

CREATE TABLE projects (
	id          text PRIMARY KEY,
	account_id  text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
	name        text NOT NULL,
	ir_revision integer NOT NULL DEFAULT 0 CHECK (ir_revision >= 0),
	cue_count   integer NOT NULL DEFAULT 0 CHECK (cue_count >= 0),
	created_at  timestamptz NOT NULL,
	updated_at  timestamptz NOT NULL
);

CREATE INDEX projects_account_created ON projects(account_id, created_at DESC, id DESC);

CREATE TABLE project_revisions (
	project_id text NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
	number     integer NOT NULL CHECK (number >= 1),
	cue_count  integer NOT NULL CHECK (cue_count >= 0),
	created_at timestamptz NOT NULL,
	ir         text NOT NULL,
	PRIMARY KEY (project_id, number)
);

-- Export templates: an account's scripts, each with the JavaScript the
-- runtime runs (compiled from source when it was saved; text, never
-- bytecode) and its revision for optimistic locking.

CREATE TABLE export_templates (
	id               text PRIMARY KEY,
	account_id       text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
	name             text NOT NULL,
	source           text NOT NULL,
	js               text NOT NULL,
	revision         integer NOT NULL CHECK (revision >= 1),
	filename_pattern text NOT NULL,
	content_type     text NOT NULL,
	created_at       timestamptz NOT NULL,
	updated_at       timestamptz NOT NULL
);

CREATE INDEX export_templates_account_created ON export_templates(account_id, created_at DESC, id DESC);

-- Media uploads. A session's parts are blobs under uploads/<id>/<n>,
-- recorded in upload_parts as they arrive; complete assembles them into
-- media/<id> (object_key) and stores the probe (ffprobe's findings, as
-- JSON). The sweeper deletes the blobs of sessions past retention (or
-- never completed) and marks them expired; the rows stay as a record.
-- project_id is not a foreign key, as in SQLite: deleting a project
-- leaves its sessions, whose blobs the sweeper deletes when they are due.

CREATE TABLE uploads (
	id               text PRIMARY KEY,
	account_id       text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
	project_id       text NOT NULL,
	object_key       text NOT NULL UNIQUE,
	filename         text NOT NULL,
	content_type     text NOT NULL,
	bytes            bigint NOT NULL CHECK (bytes > 0),
	multipart        boolean NOT NULL,
	part_size        bigint NOT NULL CHECK (part_size > 0),
	part_count       integer NOT NULL CHECK (part_count >= 1),
	status           text NOT NULL CHECK (status IN ('pending', 'completed', 'rejected', 'expired')),
	created_at       timestamptz NOT NULL,
	expires_at       timestamptz NOT NULL,
	completed_at     timestamptz,
	media_expires_at timestamptz,
	probe            jsonb,
	reject_reason    text,
	-- seq orders sessions created in the same second, as SQLite's rowid does.
	seq              bigint GENERATED ALWAYS AS IDENTITY
);

CREATE INDEX uploads_account_project ON uploads(account_id, project_id, created_at DESC);
CREATE INDEX uploads_status ON uploads(status);

CREATE TABLE upload_parts (
	upload_id   text NOT NULL REFERENCES uploads(id) ON DELETE CASCADE,
	part_number integer NOT NULL CHECK (part_number >= 1),
	bytes       bigint NOT NULL CHECK (bytes >= 0),
	etag        text NOT NULL,
	PRIMARY KEY (upload_id, part_number)
);
