package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/media"
)

// storageSQL sums what account $1 keeps stored at $2: its artifacts, its
// media (an open upload session counts the bytes it declared, a
// completed one until its retention ends) and the timeline revisions its
// projects keep (projects.ir_bytes, kept up to date by the revision
// writes, so the sum never reads an IR). The casts make PostgreSQL's
// numeric sums bigint.
const storageSQL = `SELECT
	(SELECT CAST(COALESCE(SUM(bytes), 0) AS BIGINT) FROM artifacts WHERE account_id = $1),
	(SELECT CAST(COALESCE(SUM(bytes), 0) AS BIGINT) FROM uploads WHERE account_id = $1
		AND (status = 'pending' OR (status = 'completed' AND (media_expires_at IS NULL OR media_expires_at > $2))))
		+ (SELECT CAST(COALESCE(SUM(bytes), 0) AS BIGINT) FROM media_analyses WHERE account_id = $1),
	(SELECT CAST(COALESCE(SUM(ir_bytes), 0) AS BIGINT) FROM projects WHERE account_id = $1),
	tier, storage_quota FROM accounts WHERE id = $1`

// Storage returns what the account keeps stored against its quota, or
// [apperr.NotFound] for an unknown account.
func (s *AccountStore) Storage(ctx context.Context, accountID string) (account.Storage, error) {
	return s.db.storage(ctx, s.db.read, accountID, s.db.now(), "")
}

// storage reads the account's storage through q, ending the statement
// with lock.
func (db *DB) storage(ctx context.Context, q querier, accountID string, now time.Time, lock string) (account.Storage, error) {
	var st account.Storage
	var tier string
	var override int64
	err := q.queryRow(ctx, storageSQL+" "+lock, accountID, db.ts(now.UTC().Truncate(time.Second))).
		Scan(&st.Artifacts, &st.Media, &st.Revisions, &tier, &override)
	if errors.Is(err, sql.ErrNoRows) {
		return st, apperr.New(apperr.NotFound, "account not found").Wrap(err)
	}
	if err != nil {
		return st, fmt.Errorf("store: storage of account %s: %w", accountID, err)
	}
	st.Quota = account.StorageQuotaOf(tier, override)
	return st, nil
}

// fitStorage takes the account's row lock ([Tx.lockAccount]) and
// returns [account.StorageFull] unless adding bytes keeps the account
// within its quota: every write that adds stored bytes calls it in its
// transaction, so writers on several nodes never pass the quota
// together. [apperr.NotFound] for an unknown account.
func (t *Tx) fitStorage(ctx context.Context, accountID string, adding int64) error {
	st, err := t.db.storage(ctx, t, accountID, t.now, t.db.d.ForNoKeyUpdate)
	if err != nil {
		return err
	}
	if !st.Fits(adding) {
		return account.StorageFull(st, adding)
	}
	return nil
}

// AccountBlobs returns the blob keys of the account's artifacts and of
// its media not yet swept, and the part prefixes of its upload sessions.
func (s *AccountStore) AccountBlobs(ctx context.Context, accountID string) ([]string, []string, error) {
	keys, err := collect(ctx, s.db.read, scanString, `SELECT blob_key FROM artifacts WHERE account_id = $1
		UNION ALL SELECT object_key FROM uploads WHERE account_id = $1 AND status <> 'expired'`, accountID)
	if err != nil {
		return nil, nil, fmt.Errorf("store: blobs of account %s: %w", accountID, err)
	}
	ids, err := collect(ctx, s.db.read, scanString, `SELECT id FROM uploads WHERE account_id = $1 AND status <> 'expired'`, accountID)
	if err != nil {
		return nil, nil, fmt.Errorf("store: uploads of account %s: %w", accountID, err)
	}
	prefixes := make([]string, len(ids))
	for i, id := range ids {
		prefixes[i] = media.PartPrefix + id + "/"
	}
	return keys, prefixes, nil
}

// DeleteAccount deletes the account and, by ON DELETE CASCADE, every row
// it owns, or returns [apperr.NotFound].
func (s *AccountStore) DeleteAccount(ctx context.Context, accountID string) error {
	return changeOne(ctx, s.db.write, "account", `DELETE FROM accounts WHERE id = $1`, accountID)
}
