-- +goose Up
-- Accounts' own presets (docs/presets.md, Your own presets), as SQLite's
-- 0013: one row per account and name, the preset file as JSON text.

CREATE TABLE user_presets (
	account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
	name       text NOT NULL,
	file       text NOT NULL,
	created_at timestamptz NOT NULL,
	updated_at timestamptz NOT NULL,
	PRIMARY KEY (account_id, name)
);
