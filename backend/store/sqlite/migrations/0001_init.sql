-- +goose Up
-- Accounts, their API keys and the daily run counts.
-- Timestamps are RFC 3339 UTC text; lists are JSON arrays as text.

CREATE TABLE accounts (
	id           TEXT PRIMARY KEY,
	email        TEXT NOT NULL UNIQUE,
	tier         TEXT NOT NULL,
	features     TEXT NOT NULL DEFAULT '[]',
	api_disabled INTEGER NOT NULL DEFAULT 0,
	daily_cap    INTEGER NOT NULL,
	created_at   TEXT NOT NULL
) STRICT;

CREATE TABLE api_keys (
	id           TEXT PRIMARY KEY,
	account_id   TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
	name         TEXT NOT NULL,
	prefix       TEXT NOT NULL UNIQUE,
	hash         BLOB NOT NULL,
	scopes       TEXT NOT NULL DEFAULT '[]',
	created_at   TEXT NOT NULL,
	expires_at   TEXT NOT NULL,
	revoked_at   TEXT,
	last_used_at TEXT
) STRICT;

CREATE INDEX api_keys_account_id ON api_keys(account_id);

CREATE TABLE daily_usage (
	pool TEXT NOT NULL,
	day  TEXT NOT NULL,
	used INTEGER NOT NULL CHECK (used >= 0),
	PRIMARY KEY (pool, day)
) STRICT;
