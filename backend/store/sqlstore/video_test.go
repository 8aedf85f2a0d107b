package sqlstore_test

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/project"
	"github.com/captionqa/captionqa/backend/store/sqlstore"
	"github.com/captionqa/captionqa/backend/video"
)

// createJob inserts j through s, taking a run of a pool capped at 100.
func createJob(t *testing.T, s *sqlstore.VideoStore, j *video.Job) {
	t.Helper()
	if _, err := s.CreateJob(context.Background(), j, project.RunCount{Pool: j.Pool, Day: j.PoolDay, Cap: 100},
		video.WorkArgs{JobID: j.ID, Run: j.Run}); err != nil {
		t.Fatalf("create job %s: %v", j.ID, err)
	}
}

// workRuns returns the runs of the job's queued work, in the order they
// were enqueued, each with its River queue ("queue:run").
func workRuns(t *testing.T, db *sqlstore.DB, jobID string) []string {
	t.Helper()
	return column[string](t, db, `SELECT queue || ':' || (args->>'run') FROM river_job
		WHERE kind = $1 AND args->>'jobId' = $2 ORDER BY id`, video.WorkKind, jobID)
}

// TestVideoJobCreate: a job's work goes to River in the same
// transaction, on its lane's queue (burn-in the heavy one, the rest the
// light one), and nothing is queued for a job the pool or the foreign
// key refuses; an account without jobs lists an empty list, not nil.
func TestVideoJobCreate(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, open func(testing.TB, func() time.Time) *sqlstore.DB) {
		ctx := context.Background()
		db := open(t, nil)
		seedAccountRows(t, db, "a1", "a2")
		s := openQueue(t, db).Videos()
		burn := testJob(2, "a1", storeT0)
		burn.Kind, burn.Mode, burn.MediaSeconds = video.KindRender, video.ModeBurnIn, 12.5
		extract := testJob(3, "a1", storeT0)
		extract.Kind, extract.Mode, extract.IRRevision, extract.TrackIndex = video.KindExtract, video.ModeMuxSoft, 0, 2
		for _, tc := range []struct {
			name     string
			j        *video.Job
			cap      int
			wantWork []string
		}{
			{"sidecar", testJob(1, "a1", storeT0), 2, []string{"video_light:1"}},
			{"burn-in: heavy lane", burn, 2, []string{"video_heavy:1"}},
			{"pool full", extract, 2, nil},
			{"extract", extract, 3, []string{"video_light:1"}},
			{"unknown account", testJob(4, "nobody", storeT0), 3, nil},
		} {
			_, err := s.CreateJob(ctx, tc.j, project.RunCount{Pool: tc.j.Pool, Day: exportDay, Cap: tc.cap},
				video.WorkArgs{JobID: tc.j.ID, Run: 1})
			if (err == nil) != (tc.wantWork != nil) {
				t.Errorf("%s: CreateJob: %v", tc.name, err)
			}
			if got := workRuns(t, db, tc.j.ID); !reflect.DeepEqual(got, tc.wantWork) {
				t.Errorf("%s: work queued %v, want %v", tc.name, got, tc.wantWork)
			}
		}
		if list, err := s.ListJobs(ctx, "a2", "p1", "", 10); err != nil || list == nil || len(list) != 0 {
			t.Errorf("ListJobs(a2) = %#v, %v; want an empty list", list, err)
		}
	})
}

// TestVideoRunStates walks runs through what the conformance suite
// leaves out: a start after a requeue begins the heartbeat afresh; a
// success in a run that is gone keeps nothing of its export; neither a
// succeeded nor a queued job can fail; a success keeps its run of the
// pool while a failure gives it back; a job's artifacts come in preset
// order; beats only raise the progress, which stays within 0 and 1.
func TestVideoRunStates(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, open func(testing.TB, func() time.Time) *sqlstore.DB) {
		ctx := context.Background()
		db := open(t, nil)
		seedAccountRows(t, db, "a1")
		s := openQueue(t, db).Videos()
		for n := 1; n <= 3; n++ {
			createJob(t, s, testJob(n, "a1", storeT0))
		}
		used := func() int {
			n, err := db.Quotas().Used(ctx, "account:a1", exportDay)
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
		at := storeT0.Add(time.Minute)
		jerr := video.JobError{Code: video.ErrCodeFFmpeg, Message: "boom"}
		e := testExport(50, "a1", at, "lms", "broadcast")
		done := &video.Job{ID: uuidOf(1), Run: 1, FinishedAt: at.Add(time.Minute), Output: "WEBVTT", OutputType: "text/vtt"}
		for _, tc := range []struct {
			name     string
			move     func() (bool, error)
			wantOK   bool
			wantUsed int
		}{
			{"start", func() (bool, error) { return s.StartRun(ctx, uuidOf(1), 1, at) }, true, 3},
			{"beat", func() (bool, error) { return s.Beat(ctx, uuidOf(1), 1, 0.6, at.Add(time.Second)) }, true, 3},
			{"requeue", func() (bool, error) { return s.Requeue(ctx, uuidOf(1), 1) }, true, 3},
			{"start after the requeue", func() (bool, error) { return s.StartRun(ctx, uuidOf(1), 1, at) }, true, 3},
			{"succeed another run", func() (bool, error) {
				j := *done
				j.Run = 2
				return s.Succeed(ctx, &j, testExport(51, "a1", at, "lms"))
			}, false, 3},
			{"succeed", func() (bool, error) { return s.Succeed(ctx, done, e) }, true, 3},
			{"fail once succeeded", func() (bool, error) { return s.Fail(ctx, uuidOf(1), 1, jerr, at) }, false, 3},
			{"fail queued", func() (bool, error) { return s.Fail(ctx, uuidOf(2), 1, jerr, at) }, false, 3},
			{"start 2", func() (bool, error) { return s.StartRun(ctx, uuidOf(2), 1, at) }, true, 3},
			{"fail", func() (bool, error) { return s.Fail(ctx, uuidOf(2), 1, jerr, at.Add(time.Minute)) }, true, 2},
		} {
			ok, err := tc.move()
			if err != nil || ok != tc.wantOK {
				t.Errorf("%s: ok %v (%v), want %v", tc.name, ok, err, tc.wantOK)
			}
			if got := used(); got != tc.wantUsed {
				t.Errorf("%s: pool at %d, want %d", tc.name, got, tc.wantUsed)
			}
		}
		// The run-2 success kept nothing of its export.
		if _, err := db.Exports().Export(ctx, "a1", uuidOf(51)); apperr.KindOf(err) != apperr.NotFound {
			t.Errorf("export of a gone run: %v", err)
		}
		j1, err := s.Job(ctx, "a1", uuidOf(1))
		if err != nil {
			t.Fatal(err)
		}
		wantArtifacts := []project.Artifact{e.Artifacts[1], e.Artifacts[0]} // by preset
		if j1.Status != video.Succeeded || !reflect.DeepEqual(j1.Artifacts, wantArtifacts) ||
			!j1.StartedAt.Equal(at) || !j1.HeartbeatAt.Equal(at) {
			t.Errorf("succeeded job: %+v", j1)
		}
		createJob(t, s, testJob(4, "a1", storeT0))
		if ok, err := s.StartRun(ctx, uuidOf(4), 1, at); !ok || err != nil {
			t.Fatalf("start 4: %v, %v", ok, err)
		}
		for _, tc := range []struct {
			beat, want float64
		}{{0.6, 0.6}, {0.2, 0.6}, {7, 1}} {
			if ok, err := s.Beat(ctx, uuidOf(4), 1, tc.beat, at); !ok || err != nil {
				t.Fatalf("beat %v: %v, %v", tc.beat, ok, err)
			}
			j, err := s.JobByID(ctx, uuidOf(4))
			if err != nil {
				t.Fatal(err)
			}
			if j.Progress != tc.want {
				t.Errorf("after beat %v: progress %v, want %v", tc.beat, j.Progress, tc.want)
			}
		}
	})
}

// TestVideoRescue: beyond the conformance suite's moves, a rescued run
// goes back to the queue with its start, heartbeat and progress
// cleared and its new run's work queued in River, and a second pass
// finds nothing left to rescue.
func TestVideoRescue(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, open func(testing.TB, func() time.Time) *sqlstore.DB) {
		ctx := context.Background()
		db := open(t, nil)
		seedAccountRows(t, db, "a1")
		s := openQueue(t, db).Videos()
		now := storeT0.Add(time.Hour)
		cutoff := now.Add(-time.Minute)
		jerr := video.JobError{Code: video.ErrCodeInterrupted, Message: "the job's process stopped"}
		const maxRuns = 2
		cases := []struct {
			name       string
			runs       int       // runs started (rescued in between)
			beat       time.Time // the last run's heartbeat; zero: still queued
			wantStatus video.Status
			wantRun    int
		}{
			{"stale", 1, now.Add(-2 * time.Minute), video.Queued, 2},
			{"beating", 1, now.Add(-30 * time.Second), video.Running, 1},
			{"queued", 1, time.Time{}, video.Queued, 1},
			{"stale in the last run", 2, now.Add(-2 * time.Minute), video.Failed, 2},
		}
		for i, tc := range cases {
			j := testJob(i+1, "a1", storeT0)
			createJob(t, s, j)
			for run := 1; run <= tc.runs; run++ {
				if tc.beat.IsZero() {
					break
				}
				if ok, err := s.StartRun(ctx, j.ID, run, tc.beat); !ok || err != nil {
					t.Fatalf("%s: start run %d: %v, %v", tc.name, run, ok, err)
				}
				if run < tc.runs {
					// A crash: the rescuer runs it again.
					if _, err := db.Exec(ctx, `UPDATE video_jobs SET status = 'queued', run = run + 1 WHERE id = $1`, j.ID); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		work := func(j *video.Job) video.WorkArgs { return video.WorkArgs{JobID: j.ID, Run: j.Run, TimeoutSeconds: 60} }
		moved, err := s.Rescue(ctx, cutoff, maxRuns, jerr, now, work)
		if err != nil || moved != 2 {
			t.Errorf("Rescue moved %d (%v), want 2", moved, err)
		}
		for i, tc := range cases {
			j, err := s.JobByID(ctx, uuidOf(i+1))
			if err != nil {
				t.Fatal(err)
			}
			if j.Status != tc.wantStatus || j.Run != tc.wantRun {
				t.Errorf("%s: %s in run %d, want %s in run %d", tc.name, j.Status, j.Run, tc.wantStatus, tc.wantRun)
			}
			if tc.wantStatus == video.Queued && (!j.StartedAt.IsZero() || !j.HeartbeatAt.IsZero() || j.Progress != 0) {
				t.Errorf("%s: %+v", tc.name, j)
			}
		}
		if got := workRuns(t, db, uuidOf(1)); !reflect.DeepEqual(got, []string{"video_light:1", "video_light:2"}) {
			t.Errorf("stale job's work: %v", got)
		}
		if moved, err := s.Rescue(ctx, cutoff, maxRuns, jerr, now, work); err != nil || moved != 0 {
			t.Errorf("second Rescue moved %d (%v)", moved, err)
		}
	})
}

// TestVideoRunsAcrossNodes: two nodes (two handles on one SQLite file,
// two pools on one PostgreSQL database) racing on the same runs move
// each exactly once: a start, then a rescue.
func TestVideoRunsAcrossNodes(t *testing.T) {
	t.Parallel()
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			nodes := e.nodes(t, 2, nil)
			seedAccountRows(t, nodes[0], "a1")
			stores := []*sqlstore.VideoStore{openQueue(t, nodes[0]).Videos(), openQueue(t, nodes[1]).Videos()}
			const jobs = 10
			for n := 1; n <= jobs; n++ {
				createJob(t, stores[n%2], testJob(n, "a1", storeT0))
			}
			race := func(move func(s *sqlstore.VideoStore) (int, error)) []int {
				got := make([]int, len(stores))
				errs := make([]error, len(stores))
				var wg sync.WaitGroup
				for i, s := range stores {
					wg.Go(func() { got[i], errs[i] = move(s) })
				}
				wg.Wait()
				if err := errors.Join(errs...); err != nil {
					t.Fatal(err)
				}
				return got
			}
			started := race(func(s *sqlstore.VideoStore) (int, error) {
				n := 0
				for id := 1; id <= jobs; id++ {
					ok, err := s.StartRun(ctx, uuidOf(id), 1, storeT0)
					if err != nil {
						return n, err
					}
					if ok {
						n++
					}
				}
				return n, nil
			})
			if started[0]+started[1] != jobs {
				t.Errorf("started %v, want %d in all", started, jobs)
			}
			work := func(j *video.Job) video.WorkArgs { return video.WorkArgs{JobID: j.ID, Run: j.Run} }
			rescued := race(func(s *sqlstore.VideoStore) (int, error) {
				return s.Rescue(ctx, storeT0.Add(time.Hour), 5, video.JobError{Code: video.ErrCodeInterrupted}, storeT0.Add(time.Hour), work)
			})
			if rescued[0]+rescued[1] != jobs {
				t.Errorf("rescued %v, want %d in all", rescued, jobs)
			}
			for id := 1; id <= jobs; id++ {
				j, err := stores[0].JobByID(ctx, uuidOf(id))
				if err != nil || j.Run != 2 || j.Status != video.Queued {
					t.Errorf("job %d: %+v, %v", id, j, err)
				}
				if got := workRuns(t, nodes[1], uuidOf(id)); !reflect.DeepEqual(got, []string{"video_light:1", "video_light:2"}) {
					t.Errorf("job %d: work %v", id, got)
				}
			}
		})
	}
}

// TestVideoAheadAndSpeeds: a running job is still ahead of the queued
// ones of its lane; speeds are medians (of four runs here: the
// conformance suite's two cannot tell a median from a mean), a run
// under a second counts as one second, and none succeeded is no speed.
func TestVideoAheadAndSpeeds(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, open func(testing.TB, func() time.Time) *sqlstore.DB) {
		ctx := context.Background()
		db := open(t, nil)
		seedAccountRows(t, db, "a1")
		s := openQueue(t, db).Videos()
		// All in one second: the order of acceptance decides.
		var list []*video.Job
		for n := 1; n <= 5; n++ {
			j := testJob(n, "a1", storeT0)
			if n == 3 {
				j.Mode = video.ModeBurnIn // the other lane
			}
			createJob(t, s, j)
			list = append(list, j)
		}
		if ok, err := s.StartRun(ctx, uuidOf(2), 1, storeT0); !ok || err != nil {
			t.Fatal(ok, err)
		}
		if _, err := s.Cancel(ctx, "a1", uuidOf(1), storeT0); err != nil {
			t.Fatal(err)
		}
		ahead, err := s.Ahead(ctx, list[4])
		var ids []string
		for _, a := range ahead {
			ids = append(ids, a.ID)
		}
		if want := []string{uuidOf(2), uuidOf(4)}; err != nil || !reflect.DeepEqual(ids, want) {
			t.Errorf("Ahead(%s) = %v (%v), want %v (the running job included)", list[4].ID, ids, err, want)
		}

		if speeds, err := s.Speeds(ctx); err != nil || len(speeds) != 0 {
			t.Errorf("Speeds with none succeeded: %v, %v", speeds, err)
		}
		// Sidecar runs of 10 s media taking 2, 5 and 10 s (speeds 5, 2, 1),
		// and one under a second (counted as one second: speed 10).
		for i, took := range []time.Duration{2 * time.Second, 5 * time.Second, 10 * time.Second, 300 * time.Millisecond} {
			j := testJob(10+i, "a1", storeT0)
			j.MediaSeconds = 10
			createJob(t, s, j)
			start := storeT0.Add(time.Duration(i) * time.Minute)
			if ok, err := s.StartRun(ctx, j.ID, 1, start); !ok || err != nil {
				t.Fatal(ok, err)
			}
			j.FinishedAt = start.Add(took)
			if ok, err := s.Succeed(ctx, j, nil); !ok || err != nil {
				t.Fatal(ok, err)
			}
		}
		speeds, err := s.Speeds(ctx)
		if want := map[string]float64{video.ModeSidecar: 3.5}; err != nil || !reflect.DeepEqual(speeds, want) {
			t.Errorf("Speeds = %v (%v), want %v", speeds, err, want)
		}
	})
}
