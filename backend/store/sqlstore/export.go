package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/blob"
	"github.com/captionqa/captionqa/backend/project"
)

// ExportStore keeps exports and their artifacts. Its methods may return
// [apperr.Unavailable] (details.retryAfterSeconds) when the database is
// busy or cannot be reached.
type ExportStore struct {
	db    *DB
	queue *Queue // nil: exports queue no webhook delivery
}

var _ project.ExportStore = (*ExportStore)(nil)

// Exports returns the store of exports and artifacts, for reading: its
// CreateExport cannot queue a webhook delivery ([ErrNoQueue] when one is
// due); use [Queue.Exports] to create exports.
func (db *DB) Exports() *ExportStore { return &ExportStore{db: db} }

// Exports returns the store of exports and artifacts whose CreateExport
// queues the export's webhook delivery on q.
func (q *Queue) Exports() *ExportStore { return &ExportStore{db: q.db, queue: q} }

// CreateExport counts one run in count's pool, inserts e with its
// artifacts and, when notify is set, records and queues the export's
// webhook delivery ([Tx.QueueExportWebhook]), in one transaction. A full
// pool inserts nothing and returns an error wrapping
// [project.ErrPoolFull], artifacts past the storage quota
// [account.StorageFull]; an unknown account is [apperr.NotFound].
func (s *ExportStore) CreateExport(ctx context.Context, e *project.Export, count project.RunCount, notify bool) (int, error) {
	var used int
	write := s.db.WriteTx
	if s.queue != nil {
		write = s.queue.WriteTx
	}
	err := write(ctx, func(tx *Tx) error {
		// The insert first: it takes the account's lock, which comes
		// before the pool's in every transaction that takes both.
		if err := tx.InsertExport(ctx, e); err != nil {
			return err
		}
		n, ok, err := tx.TakeRun(ctx, count)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("store: export %s: %w", e.ID, project.ErrPoolFull)
		}
		used = n
		if notify {
			return tx.QueueExportWebhook(ctx, e)
		}
		return nil
	})
	return used, err
}

// TakeRun adds one to count's pool for its day if below its cap, in this
// transaction: ok false (nothing changed) when the pool is full. The
// count's row stays locked until the transaction ends, so runs taken in
// several processes never pass the cap.
func (t *Tx) TakeRun(ctx context.Context, count project.RunCount) (used int, ok bool, err error) {
	if count.Cap < 1 {
		return 0, false, nil
	}
	return t.take(ctx, count.Pool, count.Day, count.Cap)
}

// InsertExport inserts e and its artifacts in this transaction, or
// returns [account.StorageFull] when their bytes do not fit the account's
// storage quota; an unknown account is [apperr.NotFound].
func (t *Tx) InsertExport(ctx context.Context, e *project.Export) error {
	var bytes int64
	for _, a := range e.Artifacts {
		bytes += a.Bytes
	}
	if err := t.fitStorage(ctx, e.AccountID, bytes); err != nil {
		return err
	}
	_, err := t.exec(ctx, `INSERT INTO exports(id, account_id, project_id, ir_revision, created_at) VALUES($1, $2, $3, $4, $5)`,
		e.ID, e.AccountID, e.ProjectID, e.IRRevision, t.db.ts(e.CreatedAt))
	switch {
	case t.db.d.ForeignKey(err):
		return apperr.New(apperr.NotFound, "account not found").Wrap(err)
	case err != nil:
		return fmt.Errorf("store: insert export %s: %w", e.ID, err)
	}
	for _, a := range e.Artifacts {
		_, err := t.exec(ctx, `INSERT INTO artifacts(`+artifactColumns+`) VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
			a.ID, a.ExportID, a.AccountID, a.Preset, a.BlobKey, a.Filename, a.ContentType, a.Bytes, a.SHA256, t.db.ts(a.CreatedAt))
		if err != nil {
			return fmt.Errorf("store: insert artifact %s of export %s: %w", a.ID, e.ID, err)
		}
	}
	return nil
}

// DeleteExportsBefore deletes up to limit exports created before before,
// oldest first, with their artifacts, and returns the artifacts' blob
// keys and how many exports it deleted.
func (s *ExportStore) DeleteExportsBefore(ctx context.Context, before time.Time, limit int) ([]string, int, error) {
	var keys []string
	var n int64
	err := s.db.WriteTx(ctx, func(tx *Tx) error {
		var err error
		keys, n, err = tx.deleteExports(ctx, `id IN (SELECT id FROM exports WHERE created_at < $1 ORDER BY created_at LIMIT $2)`,
			s.db.ts(before), limit)
		return err
	})
	if err != nil {
		return nil, 0, fmt.Errorf("store: delete exports before %s: %w", before.Format(time.RFC3339), err)
	}
	return keys, int(n), nil
}

// deleteExports deletes the exports where says, with their artifacts (ON
// DELETE CASCADE), and returns the artifacts' blob keys and how many
// exports it deleted.
func (t *Tx) deleteExports(ctx context.Context, where string, args ...any) ([]string, int64, error) {
	keys, err := collect(ctx, t, scanString, `SELECT blob_key FROM artifacts WHERE export_id IN (SELECT id FROM exports WHERE `+where+`)`, args...)
	if err != nil {
		return nil, 0, fmt.Errorf("store: artifacts to delete: %w", err)
	}
	res, err := t.exec(ctx, `DELETE FROM exports WHERE `+where, args...)
	if err != nil {
		return nil, 0, fmt.Errorf("store: delete exports: %w", err)
	}
	n, err := affected(res)
	return keys, n, err
}

const artifactColumns = `id, export_id, account_id, preset, blob_key, filename, content_type, bytes, sha256, created_at`

// Artifact returns the account's artifact, or [apperr.NotFound].
func (s *ExportStore) Artifact(ctx context.Context, accountID, id string) (*project.Artifact, error) {
	return scanArtifact(s.db.read.queryRow(ctx, `SELECT `+artifactColumns+` FROM artifacts WHERE id = $1 AND account_id = $2`, id, accountID))
}

// ArtifactByID returns the artifact whoever owns it, or [apperr.NotFound].
func (s *ExportStore) ArtifactByID(ctx context.Context, id string) (*project.Artifact, error) {
	return scanArtifact(s.db.read.queryRow(ctx, `SELECT `+artifactColumns+` FROM artifacts WHERE id = $1`, id))
}

// Export returns the account's export with its artifacts in the order
// they were inserted, or [apperr.NotFound].
func (s *ExportStore) Export(ctx context.Context, accountID, id string) (*project.Export, error) {
	var e project.Export
	err := s.db.read.queryRow(ctx, `SELECT id, account_id, project_id, ir_revision, created_at FROM exports WHERE id = $1 AND account_id = $2`,
		id, accountID).Scan(&e.ID, &e.AccountID, &e.ProjectID, &e.IRRevision, at(&e.CreatedAt))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "export not found").Wrap(err)
	}
	if err != nil {
		return nil, fmt.Errorf("store: export %s: %w", id, err)
	}
	if e.Artifacts, err = s.db.artifacts(ctx, s.db.d.Seq, id); err != nil {
		return nil, err
	}
	return &e, nil
}

// artifacts returns the export's artifacts sorted by order (nil for
// none).
func (db *DB) artifacts(ctx context.Context, order, exportID string) ([]project.Artifact, error) {
	list, err := collect(ctx, db.read, func(r scanner) (project.Artifact, error) {
		a, err := scanArtifact(r)
		if err != nil {
			return project.Artifact{}, err
		}
		return *a, nil
	}, `SELECT `+artifactColumns+` FROM artifacts WHERE export_id = $1 ORDER BY `+order, exportID)
	if len(list) == 0 {
		return nil, err
	}
	return list, err
}

// ArtifactBlobKeys returns every artifact's blob key (for consistency
// checks and tests).
func (s *ExportStore) ArtifactBlobKeys(ctx context.Context) ([]string, error) {
	return collect(ctx, s.db.read, scanString, `SELECT blob_key FROM artifacts ORDER BY blob_key`)
}

// KnownBlobs is the orphan sweeper's lookup ([blob.Known]): which of
// keys an artifact row names.
func (s *ExportStore) KnownBlobs(ctx context.Context, keys []string) (map[string]bool, error) {
	known := make(map[string]bool, len(keys))
	if len(keys) == 0 {
		return known, nil
	}
	args, marks := make([]any, len(keys)), make([]string, len(keys))
	for i, k := range keys {
		args[i], marks[i] = k, fmt.Sprintf("$%d", i+1)
	}
	found, err := collect(ctx, s.db.read, scanString, `SELECT blob_key FROM artifacts WHERE blob_key IN (`+strings.Join(marks, ", ")+`)`, args...)
	for _, k := range found {
		known[k] = true
	}
	return known, err
}

var _ blob.Known = (*ExportStore)(nil).KnownBlobs

func scanString(r scanner) (string, error) {
	var s string
	if err := r.Scan(&s); err != nil {
		return "", fmt.Errorf("store: scan: %w", err)
	}
	return s, nil
}

func scanArtifact(r scanner) (*project.Artifact, error) {
	var a project.Artifact
	err := r.Scan(&a.ID, &a.ExportID, &a.AccountID, &a.Preset, &a.BlobKey, &a.Filename, &a.ContentType, &a.Bytes, &a.SHA256, at(&a.CreatedAt))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "artifact not found").Wrap(err)
	}
	if err != nil {
		return nil, fmt.Errorf("store: scan artifact: %w", err)
	}
	return &a, nil
}
