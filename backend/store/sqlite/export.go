package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/blob"
	"github.com/captionqa/captionqa/backend/project"
)

// ExportStore keeps exports and their artifacts. CreateExport returns
// [apperr.Unavailable] (details.retryAfterSeconds) if another process
// holds the write lock past the busy timeout.
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
// webhook delivery ([Tx.QueueExportWebhook]), in one write transaction.
func (s *ExportStore) CreateExport(ctx context.Context, e *project.Export, count project.RunCount, notify bool) (int, error) {
	var used int
	write := s.db.WriteTx
	if s.queue != nil {
		write = s.queue.WriteTx
	}
	err := write(ctx, func(tx *Tx) error {
		n, ok, err := tx.TakeRun(ctx, count)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("sqlite: export %s: %w", e.ID, project.ErrPoolFull)
		}
		used = n
		if err := tx.InsertExport(ctx, e); err != nil {
			return err
		}
		if notify {
			return tx.QueueExportWebhook(ctx, e)
		}
		return nil
	})
	return used, err
}

// TakeRun adds one to count's pool for its day if below its cap, in this
// transaction: ok false (nothing changed) when the pool is full.
func (t *Tx) TakeRun(ctx context.Context, count project.RunCount) (used int, ok bool, err error) {
	if count.Cap < 1 {
		return 0, false, nil
	}
	err = t.tx.QueryRowContext(ctx, sqlTake, count.Pool, formatDay(count.Day), count.Cap).Scan(&used)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, false, nil
	}
	if err != nil {
		return 0, false, fmt.Errorf("sqlite: take %s: %w", count.Pool, err)
	}
	return used, true, nil
}

// InsertExport inserts e and its artifacts in this transaction.
func (t *Tx) InsertExport(ctx context.Context, e *project.Export) error {
	_, err := t.tx.ExecContext(ctx, `INSERT INTO exports(id, account_id, project_id, ir_revision, created_at) VALUES(?, ?, ?, ?, ?)`,
		e.ID, e.AccountID, e.ProjectID, e.IRRevision, formatTime(e.CreatedAt))
	switch {
	case isForeignKey(err):
		return apperr.New(apperr.NotFound, "account not found").Wrap(err)
	case err != nil:
		return fmt.Errorf("sqlite: insert export %s: %w", e.ID, err)
	}
	for _, a := range e.Artifacts {
		_, err := t.tx.ExecContext(ctx, `INSERT INTO artifacts(`+artifactColumns+`) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			a.ID, a.ExportID, a.AccountID, a.Preset, a.BlobKey, a.Filename, a.ContentType, a.Bytes, a.SHA256, formatTime(a.CreatedAt))
		if err != nil {
			return fmt.Errorf("sqlite: insert artifact %s of export %s: %w", a.ID, e.ID, err)
		}
	}
	return nil
}

const artifactColumns = `id, export_id, account_id, preset, blob_key, filename, content_type, bytes, sha256, created_at`

// Artifact returns the account's artifact, or [apperr.NotFound].
func (s *ExportStore) Artifact(ctx context.Context, accountID, id string) (*project.Artifact, error) {
	return scanArtifact(s.db.read.QueryRowContext(ctx, `SELECT `+artifactColumns+` FROM artifacts WHERE id = ? AND account_id = ?`, id, accountID))
}

// ArtifactByID returns the artifact whoever owns it, or [apperr.NotFound].
func (s *ExportStore) ArtifactByID(ctx context.Context, id string) (*project.Artifact, error) {
	return scanArtifact(s.db.read.QueryRowContext(ctx, `SELECT `+artifactColumns+` FROM artifacts WHERE id = ?`, id))
}

// Export returns the account's export with its artifacts in preset
// order as stored, or [apperr.NotFound].
func (s *ExportStore) Export(ctx context.Context, accountID, id string) (*project.Export, error) {
	var e project.Export
	var created string
	err := s.db.read.QueryRowContext(ctx, `SELECT id, account_id, project_id, ir_revision, created_at FROM exports WHERE id = ? AND account_id = ?`,
		id, accountID).Scan(&e.ID, &e.AccountID, &e.ProjectID, &e.IRRevision, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "export not found").Wrap(err)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: export %s: %w", id, err)
	}
	if e.CreatedAt, err = parseTime(created); err != nil {
		return nil, err
	}
	rows, err := s.db.read.QueryContext(ctx, `SELECT `+artifactColumns+` FROM artifacts WHERE export_id = ? ORDER BY rowid`, id)
	if err != nil {
		return nil, fmt.Errorf("sqlite: artifacts of export %s: %w", id, err)
	}
	defer rows.Close()
	for rows.Next() {
		a, err := scanArtifact(rows)
		if err != nil {
			return nil, err
		}
		e.Artifacts = append(e.Artifacts, *a)
	}
	return &e, rows.Err()
}

// ArtifactBlobKeys returns every artifact's blob key (for consistency
// checks and tests).
func (s *ExportStore) ArtifactBlobKeys(ctx context.Context) ([]string, error) {
	rows, err := s.db.read.QueryContext(ctx, `SELECT blob_key FROM artifacts ORDER BY blob_key`)
	if err != nil {
		return nil, fmt.Errorf("sqlite: artifact keys: %w", err)
	}
	defer rows.Close()
	keys := []string{}
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, fmt.Errorf("sqlite: artifact keys: %w", err)
		}
		keys = append(keys, k)
	}
	return keys, rows.Err()
}

// KnownBlobs is the orphan sweeper's lookup ([blob.Known]): which of
// keys an artifact row names.
func (s *ExportStore) KnownBlobs(ctx context.Context, keys []string) (map[string]bool, error) {
	known := make(map[string]bool, len(keys))
	if len(keys) == 0 {
		return known, nil
	}
	args := make([]any, len(keys))
	for i, k := range keys {
		args[i] = k
	}
	q := `SELECT blob_key FROM artifacts WHERE blob_key IN (?` + strings.Repeat(", ?", len(keys)-1) + `)`
	rows, err := s.db.read.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: known blobs: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, fmt.Errorf("sqlite: known blobs: %w", err)
		}
		known[k] = true
	}
	return known, rows.Err()
}

var _ blob.Known = (*ExportStore)(nil).KnownBlobs

func scanArtifact(row scanner) (*project.Artifact, error) {
	var a project.Artifact
	var created string
	err := row.Scan(&a.ID, &a.ExportID, &a.AccountID, &a.Preset, &a.BlobKey, &a.Filename, &a.ContentType, &a.Bytes, &a.SHA256, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "artifact not found").Wrap(err)
	}
	if err != nil {
		return nil, fmt.Errorf("sqlite: scan artifact: %w", err)
	}
	if a.CreatedAt, err = parseTime(created); err != nil {
		return nil, err
	}
	return &a, nil
}
