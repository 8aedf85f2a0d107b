-- +goose Up
-- One-time sign-in links: a link lets the holder set the account's
-- dashboard password and opens a session, once. A row keeps the SHA-256
-- of the link's token, never the token. Using a link deletes its row, so
-- a used link and one never made look the same; making a new link
-- deletes the account's earlier ones and every expired row.

CREATE TABLE signin_links (
	token_hash BLOB PRIMARY KEY,
	account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
	created_at TEXT NOT NULL,
	expires_at TEXT NOT NULL
) STRICT;

CREATE INDEX signin_links_account_id ON signin_links(account_id);
CREATE INDEX signin_links_expires_at ON signin_links(expires_at);
