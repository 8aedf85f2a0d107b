package server

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/captionqa/captionqa/backend/blob"
	"github.com/captionqa/captionqa/backend/store/jobs"
)

// Run runs the server until ctx is done: it binds the listeners if
// [Server.Listen] has not, opens the blob store and the job queue (River's
// tables migrate on the first start), starts the workers and the periodic
// sweeper, and serves HTTP. When ctx is done it stops accepting requests
// and stops fetching jobs at once, gives in-flight requests and running
// jobs [Config.ShutdownTimeout] to finish (jobs still running then are
// canceled and retried on the next start), and closes the store last
// ([Server.Close]; calling Close again is harmless). Call it after
// [Server.Open]. It returns nil after a clean shutdown, else the first
// failure joined with any of the shutdown.
func (s *Server) Run(ctx context.Context) (err error) {
	defer func() { err = errors.Join(err, s.Close()) }()
	if s.router == nil {
		return errors.New("server: Run before Open")
	}
	if s.ln == nil {
		if err := s.Listen(); err != nil {
			return err
		}
	}
	return runLifecycle(ctx, s.Serve, s.queue, s.shutdownTimeout())
}

// openJobs opens the job queue on the server's store (River's tables
// migrate on the first start). A node that works jobs (role all or
// worker) works webhook deliveries and the video lanes, with the periodic
// upkeep, and the orphan-blob sweeper over the artifacts when there is a
// data folder or a shared blob store (tests that hand in Config.DB keep
// their blobs in a temporary folder and sweep nothing): objects under
// "artifacts/" that no artifact row names are deleted once an hour old,
// and the export retention sweep ([Server.retentionTasks]). An API node's queue only enqueues. The queue works nothing until
// [Server.Run] starts it.
func (s *Server) openJobs(ctx context.Context, hooks *webhookWorker, vids *videoParts) error {
	if !s.cfg.works() {
		q, err := openQueue(ctx, s.db, nil, nil, nil, &s.cfg, nil, nil)
		if err != nil {
			return err
		}
		s.queue = q
		return nil
	}
	var blobs blob.Store
	var known blob.Known
	if (s.cfg.DataDir != "" || s.cfg.Blobs != "") && s.blobs != nil {
		blobs, known = s.blobs, s.db.KnownBlobs
	}
	ws := jobs.NewWorkers()
	hooks.register(ws)
	vids.register(ws)
	q, err := openQueue(ctx, s.db, ws, blobs, known, &s.cfg, vids.lanes(&s.cfg), append(vids.tasks(&s.cfg), s.retentionTasks()...))
	if err != nil {
		return err
	}
	s.queue = q
	return nil
}

func (s *Server) shutdownTimeout() time.Duration {
	if s.cfg.ShutdownTimeout <= 0 {
		return 10 * time.Second
	}
	return s.cfg.ShutdownTimeout
}

// jobRunner is what the lifecycle needs of the job queue
// ([store.Queue]).
type jobRunner interface {
	Start(ctx context.Context) error
	Stop(ctx context.Context) error
}

// runLifecycle starts jobs, then serves until ctx is done or serving
// fails; the jobs' stop begins with the HTTP shutdown (serve's own, on
// ctx done) and has the same bound, timeout, so the whole shutdown takes
// at most about timeout. Jobs that a request enqueued during the
// shutdown stay in the database for the next start.
func runLifecycle(ctx context.Context, serve func(context.Context) error, jobs jobRunner, timeout time.Duration) error {
	if err := jobs.Start(ctx); err != nil {
		return err
	}
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	stopped := make(chan error, 1)
	go func() {
		<-runCtx.Done()
		sctx, done := context.WithTimeout(context.WithoutCancel(ctx), timeout)
		defer done()
		if err := jobs.Stop(sctx); err != nil {
			stopped <- fmt.Errorf("server: stop jobs: %w", err)
			return
		}
		stopped <- nil
	}()
	serveErr := serve(runCtx)
	cancel() // serving failed without ctx done: stop the jobs too
	return errors.Join(serveErr, <-stopped)
}
