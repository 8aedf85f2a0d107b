package storetest

import (
	"errors"
	"math"
	"reflect"
	"slices"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/project"
	"github.com/captionqa/captionqa/backend/video"
)

func videoScenarios() []scenario {
	return []scenario{
		{"create and read", videoCreate},
		{"jobs of one second list by insertion", videoSameSecond},
		{"run states", videoRunStates},
		{"fail and cancel give the run back", videoFailCancel},
		{"rescue", videoRescue},
		{"ahead and speeds", videoAheadSpeeds},
	}
}

// newJob returns queued render job n of the account in mode, as the
// service accepts it: run 1, the pool of the clock's day.
func (e *env) newJob(n int, accountID, mode string) *video.Job {
	j := &video.Job{ID: uuidN(n), AccountID: accountID, ProjectID: uuidN(500), Kind: video.KindRender, Mode: mode,
		Preset: "youtube", FixProfile: "auto-split-cps", OutputDelivery: video.DeliveryURL, Language: "eng",
		IRRevision: 2, TrackIndex: -1, Status: video.Queued, Run: 1, CreatedAt: e.now(),
		Pool: "account:" + accountID, PoolDay: day(e.now())}
	switch mode {
	case video.ModeSidecar:
		j.OutputDelivery = video.DeliveryInline
	case video.ModeMuxSoft:
		j.Container, j.SubtitleCodec = "mkv", "ass"
		fallthrough
	default:
		j.MediaKey, j.MediaSeconds = "media/"+uuidN(600+n), 12.5
	}
	return j
}

// job creates j under a cap of 100.
func (e *env) job(j *video.Job) *video.Job {
	e.t.Helper()
	if _, err := e.createJob(j, 100); err != nil {
		e.t.Fatalf("create job: %v", err)
	}
	return j
}

func (e *env) createJob(j *video.Job, cap int) (int, error) {
	return e.queue().Videos().CreateJob(e.ctx, j, project.RunCount{Pool: j.Pool, Day: j.PoolDay, Cap: cap},
		video.WorkArgs{JobID: j.ID, Run: j.Run, TimeoutSeconds: 600})
}

// get reads the job back, whoever owns it.
func (e *env) get(id string) *video.Job {
	e.t.Helper()
	j, err := e.queue().Videos().JobByID(e.ctx, id)
	if err != nil {
		e.t.Fatalf("job %s: %v", id, err)
	}
	return j
}

func (e *env) used(accountID string) int {
	e.t.Helper()
	n, err := e.db.Quotas().Used(e.ctx, "account:"+accountID, day(e.now()))
	if err != nil {
		e.t.Fatal(err)
	}
	return n
}

// videoSameSecond: jobs created within one second list newest first in
// the order they were made, whatever their ids (a page's jobs table and
// the API's list agree with what the user started last).
func videoSameSecond(e *env) {
	a := e.account(3)
	var made []string
	for _, n := range []int{30, 10, 20} {
		e.job(e.newJob(n, a.ID, video.ModeSidecar))
		made = append([]string{uuidN(n)}, made...)
	}
	list, err := e.queue().Videos().ListJobs(e.ctx, a.ID, uuidN(500), "", 10)
	must(e.t, err)
	if ids := jobIDs(list); !slices.Equal(ids, made) {
		e.t.Errorf("ListJobs = %v; want %v (the last made first)", ids, made)
	}
}

func videoCreate(e *env) {
	t, s := e.t, e.queue().Videos()
	a, b := e.account(1), e.account(2)
	extract := e.newJob(1, a.ID, video.ModeSoftTrack)
	extract.Kind, extract.TrackIndex, extract.IRRevision, extract.Preset = video.KindExtract, 2, 0, ""
	steps := []struct {
		name     string
		job      *video.Job
		wantUsed int
	}{
		{"extract", extract, 1},
		{"mux", e.newJob(2, a.ID, video.ModeMuxSoft), 2},
		{"sidecar", e.newJob(3, a.ID, video.ModeSidecar), 3},
		{"pool full", e.newJob(4, a.ID, video.ModeBurnIn), 0},
	}
	for _, st := range steps {
		e.clock.Advance(time.Second)
		st.job.CreatedAt = e.now()
		used, err := e.createJob(st.job, 3)
		switch {
		case st.wantUsed == 0:
			if !errors.Is(err, video.ErrPoolFull) {
				t.Errorf("%s: %v; want ErrPoolFull", st.name, err)
			}
		case err != nil || used != st.wantUsed:
			t.Errorf("%s: used %d, %v; want %d", st.name, used, err, st.wantUsed)
		}
	}
	_, err := s.JobByID(e.ctx, uuidN(4))
	wantKind(t, err, apperr.NotFound)
	_, err = e.createJob(e.newJob(5, uuidN(99), video.ModeSidecar), 3)
	wantKind(t, err, apperr.NotFound)

	reads := []struct {
		name string
		get  func() (*video.Job, error)
		want apperr.Kind
	}{
		{"own", func() (*video.Job, error) { return s.Job(e.ctx, a.ID, extract.ID) }, none},
		{"by id", func() (*video.Job, error) { return s.JobByID(e.ctx, extract.ID) }, none},
		{"another account's", func() (*video.Job, error) { return s.Job(e.ctx, b.ID, extract.ID) }, apperr.NotFound},
		{"unknown", func() (*video.Job, error) { return s.JobByID(e.ctx, uuidN(99)) }, apperr.NotFound},
	}
	for _, tt := range reads {
		got, err := tt.get()
		if !kindIs(err, tt.want) {
			t.Errorf("%s: %v; want %s", tt.name, err, tt.want.Code())
			continue
		}
		if err == nil && !sameJob(got, extract) {
			t.Errorf("%s: %+v\nwant %+v", tt.name, got, extract)
		}
	}
	if got := e.get(uuidN(2)); !sameJob(got, steps[1].job) {
		t.Errorf("mux job: %+v\nwant %+v", got, steps[1].job)
	}
	list, err := s.ListJobs(e.ctx, a.ID, uuidN(500), "", 2)
	must(t, err)
	if ids := jobIDs(list); !slices.Equal(ids, []string{uuidN(3), uuidN(2)}) {
		t.Errorf("ListJobs(limit 2) = %v; want jobs 3, 2 (newest first)", ids)
	}
	if list, err := s.ListJobs(e.ctx, a.ID, uuidN(501), "", 10); err != nil || len(list) != 0 {
		t.Errorf("another project's jobs = %v, %v", jobIDs(list), err)
	}
	// A mode picks its jobs alone, past newer jobs of other modes.
	list, err = s.ListJobs(e.ctx, a.ID, uuidN(500), video.ModeMuxSoft, 1)
	must(t, err)
	if ids := jobIDs(list); !slices.Equal(ids, []string{uuidN(2)}) {
		t.Errorf("ListJobs(mux_soft, limit 1) = %v; want job 2", ids)
	}
}

// videoAheadSpeeds: the queue ahead of a job is its lane's unfinished
// jobs accepted before it, in order, within one second too; speeds are
// medians of media seconds per second worked.
func videoAheadSpeeds(e *env) {
	t, s := e.t, e.queue().Videos()
	a := e.account(1)
	first := e.job(e.newJob(1, a.ID, video.ModeSidecar))
	e.job(e.newJob(2, a.ID, video.ModeBurnIn)) // the heavy lane
	canceled := e.job(e.newJob(3, a.ID, video.ModeSidecar))
	// Accepted in this order within one second: ids against it.
	third := e.job(e.newJob(9, a.ID, video.ModeMuxSoft))
	last := e.job(e.newJob(5, a.ID, video.ModeSidecar))
	_, err := s.Cancel(e.ctx, a.ID, canceled.ID, e.now())
	must(t, err)
	ahead, err := s.Ahead(e.ctx, last)
	must(t, err)
	if ids := jobIDs(ahead); !slices.Equal(ids, []string{first.ID, third.ID}) {
		t.Errorf("Ahead(last) = %v; want %v", ids, []string{first.ID, third.ID})
	}
	if ahead, err := s.Ahead(e.ctx, first); err != nil || len(ahead) != 0 {
		t.Errorf("Ahead(first) = %v, %v; want none", jobIDs(ahead), err)
	}

	for i, secs := range []time.Duration{30, 10} {
		j := e.job(e.newJob(20+i, a.ID, video.ModeMuxSoft))
		start := e.now()
		must(t, errOf(s.StartRun(e.ctx, j.ID, 1, start)))
		j.FinishedAt = start.Add(secs * time.Second)
		must(t, errOf(s.Succeed(e.ctx, j, nil)))
	}
	speeds, err := s.Speeds(e.ctx)
	must(t, err)
	// 12.5 media seconds each (newJob), worked in 30 and 10 seconds.
	want := (12.5/30 + 12.5/10) / 2
	if got, ok := speeds[video.ModeMuxSoft]; len(speeds) != 1 || !ok || math.Abs(got-want) > 1e-9 {
		t.Errorf("Speeds = %v; want %s: %v", speeds, video.ModeMuxSoft, want)
	}
}

// errOf turns a move that must apply into an error.
func errOf(ok bool, err error) error {
	if err == nil && !ok {
		return errors.New("the move did not apply")
	}
	return err
}

// sameJob compares what a store keeps of a job, but its artifacts.
func sameJob(got, want *video.Job) bool {
	g, w := *got, *want
	times := [][2]time.Time{{g.CreatedAt, w.CreatedAt}, {g.StartedAt, w.StartedAt}, {g.FinishedAt, w.FinishedAt},
		{g.HeartbeatAt, w.HeartbeatAt}, {g.PoolDay, w.PoolDay}}
	for _, tt := range times {
		if !sameTime(tt[0], tt[1]) {
			return false
		}
	}
	g.CreatedAt, g.StartedAt, g.FinishedAt, g.HeartbeatAt, g.PoolDay = w.CreatedAt, w.StartedAt, w.FinishedAt, w.HeartbeatAt, w.PoolDay
	g.Artifacts, w.Artifacts = nil, nil
	return reflect.DeepEqual(g, w)
}

func jobIDs(list []video.Job) []string {
	ids := make([]string, len(list))
	for i, j := range list {
		ids[i] = j.ID
	}
	return ids
}
