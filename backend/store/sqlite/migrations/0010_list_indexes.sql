-- +goose Up
-- The indexes that list an account's keys and its webhook deliveries now
-- serve the order the store reads them in, as PostgreSQL's do: by
-- created_at, then as inserted (the rowid every SQLite index ends with).
DROP INDEX api_keys_account_id;
CREATE INDEX api_keys_account_id ON api_keys(account_id, created_at);
DROP INDEX webhook_deliveries_account_created;
CREATE INDEX webhook_deliveries_account_created ON webhook_deliveries(account_id, created_at DESC);
