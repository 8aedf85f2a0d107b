-- +goose Up
-- Storage quotas (docs/api.md, Storage). accounts.storage_quota
-- overrides the tier's quota in bytes (0 keeps the tier's);
-- projects.ir_bytes is the size of the revisions a project keeps, kept
-- up to date by the writes that add and prune them, so an account's
-- usage never reads an IR. artifacts_account serves the sum of an
-- account's artifacts, exports_created the retention sweep, oldest first.
ALTER TABLE accounts ADD COLUMN storage_quota INTEGER NOT NULL DEFAULT 0 CHECK (storage_quota >= 0);
ALTER TABLE projects ADD COLUMN ir_bytes INTEGER NOT NULL DEFAULT 0 CHECK (ir_bytes >= 0);
UPDATE projects SET ir_bytes = (SELECT COALESCE(SUM(octet_length(ir)), 0) FROM project_revisions WHERE project_id = projects.id);
CREATE INDEX artifacts_account ON artifacts(account_id);
CREATE INDEX exports_created ON exports(created_at);
