-- +goose Up
-- Projects: named caption timelines of an account, and their revisions.
-- A project's current revision is ir_revision (0 while it is empty);
-- project_revisions keeps the newest few (the service prunes older ones)
-- with the timeline as compact IR v1 JSON text. Listings run newest
-- first by (created_at, id), which projects_account_created serves.

CREATE TABLE projects (
	id          TEXT PRIMARY KEY,
	account_id  TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
	name        TEXT NOT NULL,
	ir_revision INTEGER NOT NULL DEFAULT 0 CHECK (ir_revision >= 0),
	cue_count   INTEGER NOT NULL DEFAULT 0 CHECK (cue_count >= 0),
	created_at  TEXT NOT NULL,
	updated_at  TEXT NOT NULL
) STRICT;

CREATE INDEX projects_account_created ON projects(account_id, created_at DESC, id DESC);

CREATE TABLE project_revisions (
	project_id TEXT NOT NULL REFERENCES projects(id) ON DELETE CASCADE,
	number     INTEGER NOT NULL CHECK (number >= 1),
	cue_count  INTEGER NOT NULL CHECK (cue_count >= 0),
	created_at TEXT NOT NULL,
	ir         TEXT NOT NULL,
	PRIMARY KEY (project_id, number)
) STRICT, WITHOUT ROWID;
