-- +goose Up
-- Export templates: an account's scripts, each with the JavaScript the
-- runtime runs (compiled from source when it was saved; text, never
-- bytecode) and its revision for optimistic locking.

CREATE TABLE export_templates (
	id               TEXT PRIMARY KEY,
	account_id       TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
	name             TEXT NOT NULL,
	source           TEXT NOT NULL,
	js               TEXT NOT NULL,
	revision         INTEGER NOT NULL CHECK (revision >= 1),
	filename_pattern TEXT NOT NULL,
	content_type     TEXT NOT NULL,
	created_at       TEXT NOT NULL,
	updated_at       TEXT NOT NULL
) STRICT;

CREATE INDEX export_templates_account_created ON export_templates(account_id, created_at DESC, id DESC);
