package server

import (
	"context"
	"fmt"

	"github.com/captionqa/captionqa/backend/blob"
	"github.com/captionqa/captionqa/backend/project"
	"github.com/captionqa/captionqa/backend/store/jobs"
)

// Projects returns the project service over the admin database, for the
// project commands; it is the service the HTTP API uses, so a command
// obeys the same limits (IR size, projects per account, kept revisions).
func (a *Admin) Projects() *project.Service {
	return project.NewService(a.db.Projects(), project.Options{})
}

// Exporter returns the export service over the admin database and the
// blob store of cfg.DataDir, wired as [Server.Open] wires it: the same
// engine, daily pool and export burst limit (the limiter's state is this
// process's own, so a command's exports are limited among themselves).
// Its exports queue their webhook deliveries as the server's do; this
// process works no job, so a running server (now or at its next start)
// sends them.
func (a *Admin) Exporter(ctx context.Context, cfg Config) (*project.Exporter, error) {
	blobs, err := a.Blobs(ctx, cfg)
	if err != nil {
		return nil, err
	}
	q, err := a.db.OpenQueue(ctx, jobs.QueueOptions{Logger: cfg.logger()})
	if err != nil {
		return nil, fmt.Errorf("server: open job queue: %w", err)
	}
	eng, err := NewEngine(cfg.MaxInputBytes)
	if err != nil {
		return nil, err
	}
	return project.NewExporter(project.ExporterOptions{
		Projects: a.db.Projects(), Exports: q.Exports(), Blobs: blobs, Engine: eng, Pool: a.Quota,
		Storage: a.Accounts, Limiter: newExportLimiter(a.db, &cfg), Presets: newUserPresets(a.db, eng, &cfg), Now: cfg.Now,
	}), nil
}

// Blobs opens the blob store cfg names: the S3-compatible store of
// cfg.Blobs, else the data folder's blobs folder.
func (a *Admin) Blobs(ctx context.Context, cfg Config) (blob.Store, error) {
	if cfg.Blobs != "" {
		return openBlobURL(ctx, cfg.Blobs, &cfg)
	}
	return openBlobs(cfg.DataDir, &cfg)
}
