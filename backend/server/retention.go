package server

import (
	"context"
	"time"

	"github.com/captionqa/captionqa/backend/store/jobs"
)

// exportRetentionEvery is the period of the export retention sweep: an
// export outlives its retention by at most this.
const exportRetentionEvery = time.Hour

// retentionTasks are the export retention sweep, which deletes the
// exports older than [Config.ExportRetention] with their files
// (docs/api.md, Storage). It is registered before the exporter is built
// and first runs when the queue starts, after Open has built it.
func (s *Server) retentionTasks() []jobs.Task {
	return []jobs.Task{{Name: "export_retention", Every: exportRetentionEvery, Run: func(ctx context.Context) error {
		n, err := s.exporter.SweepExpired(ctx)
		if n > 0 {
			s.log.Info("deleted exports past their retention", "exports", n)
		}
		return err
	}}}
}
