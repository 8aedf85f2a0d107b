package storetest

import (
	"reflect"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/video"
)

// videoRunStates: each move applies only to the run and state it names.
func videoRunStates(e *env) {
	t, s := e.t, e.queue().Videos()
	a := e.account(1)
	j := e.job(e.newJob(1, a.ID, video.ModeMuxSoft))
	start := e.now().Add(time.Second)
	moves := []struct {
		name   string
		move   func() (bool, error)
		wantOK bool
		status video.Status
	}{
		{"start another run", func() (bool, error) { return s.StartRun(e.ctx, j.ID, 2, start) }, false, video.Queued},
		{"start", func() (bool, error) { return s.StartRun(e.ctx, j.ID, 1, start) }, true, video.Running},
		{"start again", func() (bool, error) { return s.StartRun(e.ctx, j.ID, 1, start) }, false, video.Running},
		{"beat", func() (bool, error) { return s.Beat(e.ctx, j.ID, 1, 0.5, start.Add(5*time.Second)) }, true, video.Running},
		{"beat another run", func() (bool, error) { return s.Beat(e.ctx, j.ID, 2, 0.7, start.Add(6*time.Second)) }, false, video.Running},
		{"requeue", func() (bool, error) { return s.Requeue(e.ctx, j.ID, 1) }, true, video.Queued},
		{"requeue again", func() (bool, error) { return s.Requeue(e.ctx, j.ID, 1) }, false, video.Queued},
		{"beat while queued", func() (bool, error) { return s.Beat(e.ctx, j.ID, 1, 0.1, start) }, false, video.Queued},
		{"start once more", func() (bool, error) { return s.StartRun(e.ctx, j.ID, 1, start) }, true, video.Running},
	}
	for _, m := range moves {
		ok, err := m.move()
		if err != nil || ok != m.wantOK {
			t.Fatalf("%s: ok %v, %v; want %v", m.name, ok, err, m.wantOK)
		}
		got := e.get(j.ID)
		if got.Status != m.status {
			t.Fatalf("%s: status %s, want %s", m.name, got.Status, m.status)
		}
		if m.name == "beat" && (got.Progress != 0.5 || !sameTime(got.HeartbeatAt, start.Add(5*time.Second)) ||
			!sameTime(got.StartedAt, start)) {
			t.Errorf("after a beat: progress %v, heartbeat %v, started %v", got.Progress, got.HeartbeatAt, got.StartedAt)
		}
	}

	done := *j
	done.FinishedAt, done.Output, done.OutputType = start.Add(time.Minute), "", ""
	ex := e.newExport(1, a.ID, "youtube")
	ok, err := s.Succeed(e.ctx, &done, ex)
	if err != nil || !ok {
		t.Fatalf("succeed: %v, %v", ok, err)
	}
	got := e.get(j.ID)
	if got.Status != video.Succeeded || got.Progress != 1 || !sameTime(got.FinishedAt, done.FinishedAt) ||
		got.ExportID != ex.ID || len(got.Artifacts) != 1 || !sameArtifact(&got.Artifacts[0], &ex.Artifacts[0]) {
		t.Errorf("succeeded job: %+v", got)
	}
	if ok, err := s.Succeed(e.ctx, &done, nil); ok || err != nil {
		t.Errorf("succeed again: %v, %v; want false", ok, err)
	}
	_, err = s.Cancel(e.ctx, a.ID, j.ID, e.now())
	wantKind(t, err, apperr.Conflict)
	wantDetail(t, err, "reason", "job_finished")
	wantDetail(t, err, "status", string(video.Succeeded))

	// An inline sidecar and an extract end without artifacts.
	side := e.job(e.newJob(2, a.ID, video.ModeSidecar))
	extract := e.newJob(3, a.ID, video.ModeSoftTrack)
	extract.Kind, extract.TrackIndex = video.KindExtract, 0
	e.job(extract)
	for _, jb := range []*video.Job{side, extract} {
		if ok, err := s.StartRun(e.ctx, jb.ID, 1, start); !ok || err != nil {
			t.Fatalf("start %s: %v, %v", jb.Mode, ok, err)
		}
	}
	side.FinishedAt, side.Output, side.OutputType = start.Add(time.Second), "WEBVTT\n\n", "text/vtt"
	extract.FinishedAt, extract.ResultRevision = start.Add(time.Second), 3
	for _, jb := range []*video.Job{side, extract} {
		if ok, err := s.Succeed(e.ctx, jb, nil); !ok || err != nil {
			t.Fatalf("succeed %s: %v, %v", jb.Mode, ok, err)
		}
		got := e.get(jb.ID)
		if got.Status != video.Succeeded || got.Output != jb.Output || got.OutputType != jb.OutputType ||
			got.ResultRevision != jb.ResultRevision || got.ExportID != "" || len(got.Artifacts) != 0 {
			t.Errorf("succeeded %s: %+v", jb.Mode, got)
		}
	}
}

func videoFailCancel(e *env) {
	t, s := e.t, e.queue().Videos()
	a, b := e.account(1), e.account(2)
	failing := e.job(e.newJob(1, a.ID, video.ModeBurnIn))
	queued := e.job(e.newJob(2, a.ID, video.ModeBurnIn))
	running := e.job(e.newJob(3, a.ID, video.ModeBurnIn))
	if e.used(a.ID) != 3 {
		t.Fatalf("used %d after 3 jobs", e.used(a.ID))
	}
	for _, j := range []*video.Job{failing, running} {
		if ok, err := s.StartRun(e.ctx, j.ID, 1, e.now()); !ok || err != nil {
			t.Fatalf("start: %v, %v", ok, err)
		}
	}
	jerr := video.JobError{Code: video.ErrCodeFFmpeg, Message: "ffmpeg exited with status 1"}
	at := e.now().Add(time.Minute)
	if ok, err := s.Fail(e.ctx, failing.ID, 2, jerr, at); ok || err != nil {
		t.Errorf("fail another run: %v, %v; want false", ok, err)
	}
	if ok, err := s.Fail(e.ctx, failing.ID, 1, jerr, at); !ok || err != nil {
		t.Fatalf("fail: %v, %v", ok, err)
	}
	got := e.get(failing.ID)
	if got.Status != video.Failed || got.Error == nil || *got.Error != jerr || !sameTime(got.FinishedAt, at) {
		t.Errorf("failed job: %+v", got)
	}
	if ok, err := s.Fail(e.ctx, failing.ID, 1, jerr, at); ok || err != nil {
		t.Errorf("fail again: %v, %v; want false and the run not given back twice", ok, err)
	}
	if n := e.used(a.ID); n != 2 {
		t.Errorf("used %d after a failure; want 2", n)
	}

	cancels := []struct {
		name     string
		account  string
		id       string
		want     apperr.Kind
		wantUsed int
	}{
		{"another account's", b.ID, queued.ID, apperr.NotFound, 2},
		{"unknown", a.ID, uuidN(99), apperr.NotFound, 2},
		{"queued", a.ID, queued.ID, none, 1},
		{"running", a.ID, running.ID, none, 0},
		{"canceled", a.ID, queued.ID, apperr.Conflict, 0},
		{"failed", a.ID, failing.ID, apperr.Conflict, 0},
	}
	for _, c := range cancels {
		j, err := s.Cancel(e.ctx, c.account, c.id, at)
		if !kindIs(err, c.want) {
			t.Errorf("cancel %s: %v; want %s", c.name, err, c.want.Code())
		}
		if err == nil && (j.ID != c.id || j.Status != video.Canceled || j.Error == nil ||
			j.Error.Code != video.ErrCodeCanceled || !sameTime(j.FinishedAt, at)) {
			t.Errorf("cancel %s: %+v", c.name, j)
		}
		if n := e.used(a.ID); n != c.wantUsed {
			t.Errorf("cancel %s: used %d; want %d", c.name, n, c.wantUsed)
		}
	}
	if ok, err := s.Beat(e.ctx, running.ID, 1, 0.9, at); ok || err != nil {
		t.Errorf("beat of a canceled run: %v, %v; want false", ok, err)
	}
}

// videoRescue: running jobs whose heartbeat is older than the cutoff go
// back to the queue as a new run, or fail once they had maxRuns; others
// stay.
func videoRescue(e *env) {
	t, s := e.t, e.queue().Videos()
	a := e.account(1)
	jerr := video.JobError{Code: video.ErrCodeInterrupted, Message: "the job's process stopped"}
	var worked []video.WorkArgs
	work := func(j *video.Job) video.WorkArgs {
		args := video.WorkArgs{JobID: j.ID, Run: j.Run, TimeoutSeconds: 600}
		worked = append(worked, args)
		return args
	}
	rescue := func(maxRuns int, want int, wantWork ...video.WorkArgs) {
		t.Helper()
		worked = nil
		n, err := s.Rescue(e.ctx, e.now().Add(-5*time.Minute), maxRuns, jerr, e.now(), work)
		if err != nil || n != want {
			t.Fatalf("Rescue = %d, %v; want %d", n, err, want)
		}
		if !reflect.DeepEqual(worked, wantWork) {
			t.Errorf("work asked for %+v; want %+v", worked, wantWork)
		}
	}

	// spent reaches its second run through a first rescue.
	spent := e.job(e.newJob(1, a.ID, video.ModeBurnIn))
	must(t, errOf(s.StartRun(e.ctx, spent.ID, 1, e.now())))
	e.clock.Advance(10 * time.Minute)
	rescue(10, 1, video.WorkArgs{JobID: spent.ID, Run: 2, TimeoutSeconds: 600})
	must(t, errOf(s.StartRun(e.ctx, spent.ID, 2, e.now())))

	stale := e.job(e.newJob(2, a.ID, video.ModeBurnIn))
	fresh := e.job(e.newJob(3, a.ID, video.ModeBurnIn))
	queued := e.job(e.newJob(4, a.ID, video.ModeBurnIn))
	must(t, errOf(s.StartRun(e.ctx, stale.ID, 1, e.now())))
	must(t, errOf(s.StartRun(e.ctx, fresh.ID, 1, e.now())))
	e.clock.Advance(10 * time.Minute)
	must(t, errOf(s.Beat(e.ctx, fresh.ID, 1, 0.3, e.now())))
	rescue(2, 2, video.WorkArgs{JobID: stale.ID, Run: 2, TimeoutSeconds: 600})

	checks := []struct {
		name   string
		id     string
		status video.Status
		run    int
	}{
		{"stale", stale.ID, video.Queued, 2},
		{"spent", spent.ID, video.Failed, 2},
		{"fresh", fresh.ID, video.Running, 1},
		{"queued", queued.ID, video.Queued, 1},
	}
	for _, c := range checks {
		if got := e.get(c.id); got.Status != c.status || got.Run != c.run {
			t.Errorf("%s: %s run %d; want %s run %d", c.name, got.Status, got.Run, c.status, c.run)
		}
	}
	if got := e.get(spent.ID); got.Error == nil || *got.Error != jerr || !sameTime(got.FinishedAt, e.now()) {
		t.Errorf("spent job: error %+v, finished %v", got.Error, got.FinishedAt)
	}
	if n := e.used(a.ID); n != 3 {
		t.Errorf("used %d; want 3 (the failed job's run given back)", n)
	}
	if ok, err := s.Beat(e.ctx, stale.ID, 1, 0.9, e.now()); ok || err != nil {
		t.Errorf("beat of the rescued run: %v, %v; want false", ok, err)
	}
	must(t, errOf(s.StartRun(e.ctx, stale.ID, 2, e.now())))
}
