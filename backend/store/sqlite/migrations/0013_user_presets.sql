-- +goose Up
-- Accounts' own presets (docs/presets.md, Your own presets): one row per
-- account and name, the preset file as its canonical JSON text. The
-- primary key serves the lookups and the list by name.

CREATE TABLE user_presets (
	account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
	name       TEXT NOT NULL,
	file       TEXT NOT NULL,
	created_at TEXT NOT NULL,
	updated_at TEXT NOT NULL,
	PRIMARY KEY (account_id, name)
) STRICT;
