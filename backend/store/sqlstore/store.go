package sqlstore

import (
	"context"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/exporttpl"
	"github.com/captionqa/captionqa/backend/media"
	"github.com/captionqa/captionqa/backend/project"
	"github.com/captionqa/captionqa/backend/quota"
	"github.com/captionqa/captionqa/backend/store"
	"github.com/captionqa/captionqa/backend/store/jobs"
	"github.com/captionqa/captionqa/backend/userpreset"
	"github.com/captionqa/captionqa/backend/video"
	"github.com/captionqa/captionqa/backend/webhook"
)

// Store returns db as the server's [store.DB].
func (db *DB) Store() store.DB { return backend{db} }

type backend struct{ db *DB }

func (b backend) Accounts() account.Store         { return b.db.Accounts() }
func (b backend) Quotas() quota.Store             { return b.db.Quotas() }
func (b backend) Buckets() quota.Buckets          { return b.db.eng.Buckets() }
func (b backend) Admission() quota.Admission      { return b.db.Admission() }
func (b backend) Projects() store.ProjectStore    { return b.db.Projects() }
func (b backend) Templates() exporttpl.Store      { return b.db.Templates() }
func (b backend) Uploads() media.Store            { return b.db.Uploads() }
func (b backend) UserPresets() userpreset.Store   { return b.db.UserPresets() }
func (b backend) Ready(ctx context.Context) error { return b.db.Ready(ctx) }
func (b backend) Close() error                    { return b.db.Close() }

func (b backend) KnownBlobs(ctx context.Context, keys []string) (map[string]bool, error) {
	return b.db.Exports().KnownBlobs(ctx, keys)
}

func (b backend) SharedSecret(ctx context.Context) ([]byte, bool, error) {
	return b.db.eng.SharedSecret(ctx)
}

func (b backend) OpenQueue(ctx context.Context, opts jobs.QueueOptions) (store.Queue, error) {
	q, err := b.db.OpenQueue(ctx, opts)
	if err != nil {
		return nil, err
	}
	return queueBackend{q}, nil
}

type queueBackend struct{ q *Queue }

func (b queueBackend) Start(ctx context.Context) error { return b.q.Start(ctx) }
func (b queueBackend) Stop(ctx context.Context) error  { return b.q.Stop(ctx) }
func (b queueBackend) Exports() project.ExportStore    { return b.q.Exports() }
func (b queueBackend) Videos() video.Store             { return b.q.Videos() }
func (b queueBackend) Webhooks() webhook.Store         { return b.q.Webhooks() }
