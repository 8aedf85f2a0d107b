package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/blob"
	"github.com/captionqa/captionqa/backend/project"
)

// ExportStore keeps exports and their artifacts. Its methods return
// [apperr.Unavailable] (details.retryAfterSeconds) when the database
// cannot be reached.
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
// [project.ErrPoolFull]; an unknown account is [apperr.NotFound].
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
			return fmt.Errorf("postgres: export %s: %w", e.ID, project.ErrPoolFull)
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
// transaction: ok false (nothing changed) when the pool is full. The
// count's row stays locked until the transaction ends, so runs taken on
// several nodes never pass the cap.
func (t *Tx) TakeRun(ctx context.Context, count project.RunCount) (used int, ok bool, err error) {
	if count.Cap < 1 {
		return 0, false, nil
	}
	return take(ctx, t.tx, count.Pool, count.Day, count.Cap)
}

// InsertExport inserts e and its artifacts in this transaction; an
// unknown account is [apperr.NotFound].
func (t *Tx) InsertExport(ctx context.Context, e *project.Export) error {
	_, err := t.tx.Exec(ctx, `INSERT INTO exports(id, account_id, project_id, ir_revision, created_at) VALUES($1, $2, $3, $4, $5)`,
		e.ID, e.AccountID, e.ProjectID, e.IRRevision, second(e.CreatedAt))
	switch {
	case isForeignKey(err):
		return apperr.New(apperr.NotFound, "account not found").Wrap(err)
	case err != nil:
		return fmt.Errorf("postgres: insert export %s: %w", e.ID, err)
	}
	for _, a := range e.Artifacts {
		_, err := t.tx.Exec(ctx, `INSERT INTO artifacts(`+artifactColumns+`) VALUES($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
			a.ID, a.ExportID, a.AccountID, a.Preset, a.BlobKey, a.Filename, a.ContentType, a.Bytes, a.SHA256, second(a.CreatedAt))
		if err != nil {
			return fmt.Errorf("postgres: insert artifact %s of export %s: %w", a.ID, e.ID, err)
		}
	}
	return nil
}

const artifactColumns = `id, export_id, account_id, preset, blob_key, filename, content_type, bytes, sha256, created_at`

// Artifact returns the account's artifact, or [apperr.NotFound].
func (s *ExportStore) Artifact(ctx context.Context, accountID, id string) (*project.Artifact, error) {
	return scanArtifact(s.db.pool.QueryRow(ctx, `SELECT `+artifactColumns+` FROM artifacts WHERE id = $1 AND account_id = $2`, id, accountID))
}

// ArtifactByID returns the artifact whoever owns it, or [apperr.NotFound].
func (s *ExportStore) ArtifactByID(ctx context.Context, id string) (*project.Artifact, error) {
	return scanArtifact(s.db.pool.QueryRow(ctx, `SELECT `+artifactColumns+` FROM artifacts WHERE id = $1`, id))
}

// Export returns the account's export with its artifacts in the order
// they were inserted, or [apperr.NotFound].
func (s *ExportStore) Export(ctx context.Context, accountID, id string) (*project.Export, error) {
	var e project.Export
	err := s.db.pool.QueryRow(ctx, `SELECT id, account_id, project_id, ir_revision, created_at FROM exports WHERE id = $1 AND account_id = $2`,
		id, accountID).Scan(&e.ID, &e.AccountID, &e.ProjectID, &e.IRRevision, &e.CreatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "export not found").Wrap(err)
	}
	if err != nil {
		return nil, unavailable(fmt.Errorf("postgres: export %s: %w", id, err))
	}
	e.CreatedAt = e.CreatedAt.UTC()
	e.Artifacts, err = s.db.artifacts(ctx, `WHERE export_id = $1 ORDER BY seq`, id)
	if err != nil {
		return nil, err
	}
	return &e, nil
}

// artifacts returns the artifacts the where clause selects (nil for
// none).
func (db *DB) artifacts(ctx context.Context, where string, args ...any) ([]project.Artifact, error) {
	rows, err := db.pool.Query(ctx, `SELECT `+artifactColumns+` FROM artifacts `+where, args...)
	if err != nil {
		return nil, unavailable(fmt.Errorf("postgres: artifacts: %w", err))
	}
	defer rows.Close()
	var list []project.Artifact
	for rows.Next() {
		a, err := scanArtifact(rows)
		if err != nil {
			return nil, err
		}
		list = append(list, *a)
	}
	if err := rows.Err(); err != nil {
		return nil, unavailable(fmt.Errorf("postgres: artifacts: %w", err))
	}
	return list, nil
}

// ArtifactBlobKeys returns every artifact's blob key in byte order, as
// SQLite sorts them whatever the database's collation (for consistency
// checks and tests).
func (s *ExportStore) ArtifactBlobKeys(ctx context.Context) ([]string, error) {
	return s.blobKeys(ctx, `SELECT blob_key FROM artifacts ORDER BY blob_key COLLATE "C"`)
}

// KnownBlobs is the orphan sweeper's lookup ([blob.Known]): which of
// keys an artifact row names.
func (s *ExportStore) KnownBlobs(ctx context.Context, keys []string) (map[string]bool, error) {
	known := make(map[string]bool, len(keys))
	if len(keys) == 0 {
		return known, nil
	}
	found, err := s.blobKeys(ctx, `SELECT blob_key FROM artifacts WHERE blob_key = ANY($1)`, keys)
	if err != nil {
		return nil, err
	}
	for _, k := range found {
		known[k] = true
	}
	return known, nil
}

var _ blob.Known = (*ExportStore)(nil).KnownBlobs

// blobKeys runs query, which selects blob keys.
func (s *ExportStore) blobKeys(ctx context.Context, query string, args ...any) ([]string, error) {
	rows, err := s.db.pool.Query(ctx, query, args...)
	if err != nil {
		return nil, unavailable(fmt.Errorf("postgres: artifact keys: %w", err))
	}
	keys, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil {
		return nil, unavailable(fmt.Errorf("postgres: artifact keys: %w", err))
	}
	if keys == nil {
		keys = []string{}
	}
	return keys, nil
}

func scanArtifact(row pgx.Row) (*project.Artifact, error) {
	var a project.Artifact
	err := row.Scan(&a.ID, &a.ExportID, &a.AccountID, &a.Preset, &a.BlobKey, &a.Filename, &a.ContentType, &a.Bytes, &a.SHA256, &a.CreatedAt)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, apperr.New(apperr.NotFound, "artifact not found").Wrap(err)
	}
	if err != nil {
		return nil, unavailable(fmt.Errorf("postgres: scan artifact: %w", err))
	}
	a.CreatedAt = a.CreatedAt.UTC()
	return &a, nil
}
