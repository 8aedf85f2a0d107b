-- +goose Up
-- Exports: one row per export of a project's timeline, and one artifact
-- row per delivery file it produced. An artifact's bytes live in the blob
-- store under blob_key (artifacts/<exportId>/<preset>.<ext>), written
-- before the transaction that inserts these rows: a crash in between
-- leaves bytes without a row, which the orphan sweeper deletes, never a
-- row without its bytes. Exports outlive their project (a receipt stays
-- valid), so project_id is not a foreign key; they go with the account.

CREATE TABLE exports (
	id          TEXT PRIMARY KEY,
	account_id  TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
	project_id  TEXT NOT NULL,
	ir_revision INTEGER NOT NULL CHECK (ir_revision >= 1),
	created_at  TEXT NOT NULL
) STRICT;

CREATE INDEX exports_account_created ON exports(account_id, created_at DESC);

CREATE TABLE artifacts (
	id           TEXT PRIMARY KEY,
	export_id    TEXT NOT NULL REFERENCES exports(id) ON DELETE CASCADE,
	account_id   TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
	preset       TEXT NOT NULL,
	blob_key     TEXT NOT NULL UNIQUE,
	filename     TEXT NOT NULL,
	content_type TEXT NOT NULL,
	bytes        INTEGER NOT NULL CHECK (bytes >= 0),
	sha256       TEXT NOT NULL,
	created_at   TEXT NOT NULL,
	UNIQUE (export_id, preset)
) STRICT;
