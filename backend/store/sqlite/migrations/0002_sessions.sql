-- +goose Up
-- Dashboard sign-in: a password hash per account (an argon2id PHC string,
-- NULL until set) and cookie sessions. A session row keeps the SHA-256 of
-- its token, never the token; csrf_token is the value mutating requests
-- of the session must echo in X-CSRF-Token.

ALTER TABLE accounts ADD COLUMN password_hash TEXT;

CREATE TABLE sessions (
	id         TEXT PRIMARY KEY,
	account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
	token_hash BLOB NOT NULL UNIQUE,
	csrf_token TEXT NOT NULL,
	created_at TEXT NOT NULL,
	expires_at TEXT NOT NULL,
	revoked    INTEGER NOT NULL DEFAULT 0
) STRICT;

CREATE INDEX sessions_account_id ON sessions(account_id);
CREATE INDEX sessions_expires_at ON sessions(expires_at);
