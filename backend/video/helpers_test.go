package video_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/analysis"
	"github.com/captionqa/captionqa/backend/blob"
	"github.com/captionqa/captionqa/backend/blob/fsblob"
	"github.com/captionqa/captionqa/backend/internal/testkit"
	"github.com/captionqa/captionqa/backend/media"
	"github.com/captionqa/captionqa/backend/project"
	"github.com/captionqa/captionqa/backend/quota"
	"github.com/captionqa/captionqa/backend/server"
	"github.com/captionqa/captionqa/backend/store/jobs"
	"github.com/captionqa/captionqa/backend/userpreset"
	"github.com/captionqa/captionqa/backend/video"
	"github.com/captionqa/captionqa/backend/video/ffmpeg"
	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest"
)

const srt = "1\n00:00:01,000 --> 00:00:02,500\nHello there.\n\n2\n00:00:03,000 --> 00:00:04,000\nGoodbye.\n"

// env is the video service on a real SQLite file with its queue (insert
// only: tests call Work themselves), real blobs, the real media service
// and ffprobe, and a runner the test controls: the job state machine is
// what these tests check (ffmpeg's own runs are video/ffmpeg's tests).
type env struct {
	t        *testing.T
	svc      *video.Service
	media    *media.Service
	quota    *quota.Service
	clock    *testkit.Clock
	runner   *fakeRunner // unused by a newFFmpegEnv
	projects *project.Service
	presets  *userpreset.Service
	blobs    blob.Store
	who      project.Account
	project  string
	key      string // a completed media upload's objectKey
}

func newEnv(t *testing.T) *env {
	t.Helper()
	return openEnv(t, false)
}

// newFFmpegEnv is newEnv with the real ffmpeg runner: for the modes
// whose whole run is the service's (a preview).
func newFFmpegEnv(t *testing.T) *env {
	t.Helper()
	return openEnv(t, true)
}

func openEnv(t *testing.T, realFFmpeg bool) *env {
	t.Helper()
	fftest.Need(t)
	ctx := context.Background()
	db := testkit.MustOpenDB(t)
	clock := testkit.NewClock(time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC))
	accounts := account.NewService(db.Accounts(), account.Options{Now: clock.Now})
	a := testkit.MustCreateAccount(t, accounts, "editor@example.com", account.TierPro)
	projects := project.NewService(db.Projects(), project.Options{Now: clock.Now})
	p, err := projects.Create(ctx, a.ID, project.New{Name: "Interview", File: &project.File{Name: "a.srt", Data: []byte(srt)}})
	if err != nil {
		t.Fatal(err)
	}
	blobs, err := fsblob.Open(t.TempDir(), fsblob.Options{})
	if err != nil {
		t.Fatal(err)
	}
	prober, err := ffmpeg.New(ffmpeg.Options{WorkDir: t.TempDir(), Blobs: blobs})
	if err != nil {
		t.Fatal(err)
	}
	q, err := db.OpenQueue(ctx, jobs.QueueOptions{})
	if err != nil {
		t.Fatal(err)
	}
	eng, err := server.NewEngine(0)
	if err != nil {
		t.Fatal(err)
	}
	qs := quota.NewService(db.Quotas(), quota.Options{Now: clock.Now})
	limiter := quota.NewService(db.Quotas(), quota.Options{Now: clock.Now, Burst: 1000, BurstPerSecond: 1000})
	ms := media.NewService(media.Options{Store: db.Uploads(), Blobs: blobs, Prober: prober, Projects: projects,
		SignKey: bytes.Repeat([]byte{1}, 32), Now: clock.Now})
	runner := &fakeRunner{release: make(chan struct{})}
	presets := userpreset.NewService(db.UserPresets(), eng.Presets(), clock.Now)
	var run video.Runner = runner
	if realFFmpeg {
		run = prober
	}
	svc := video.NewService(video.Options{Store: q.Videos(), Media: ms, Timelines: db.Projects(), Revisions: projects, Engine: eng, Presets: presets,
		Blobs: blobs, Runner: run, Pool: qs, Limiter: limiter, Now: clock.Now})
	e := &env{t: t, svc: svc, media: ms, quota: qs, clock: clock, runner: runner, project: p.ID, projects: projects, presets: presets,
		blobs: blobs, who: project.Account{ID: a.ID, Pool: "account:" + a.ID, Cap: 5}}
	e.key = e.upload(fftest.Clip(t, fftest.ClipOptions{Seconds: 2}))
	return e
}

// upload stores the file as completed media of the project.
func (e *env) upload(path string) string {
	e.t.Helper()
	ctx := context.Background()
	data, err := os.ReadFile(path)
	if err != nil {
		e.t.Fatal(err)
	}
	s, err := e.media.Create(ctx, e.who.ID, media.NewUpload{ProjectID: e.project, Filename: filepath.Base(path),
		ContentType: "video/mp4", Bytes: int64(len(data))})
	if err != nil {
		e.t.Fatal(err)
	}
	urls, err := e.media.URLs(ctx, s)
	if err != nil {
		e.t.Fatal(err)
	}
	u := urls[0].URL
	q := u[strings.Index(u, "?")+1:]
	part, err := e.media.PutPart(ctx, media.PutInput{UploadID: s.ID, Part: "1", Expires: q[len("expires="):strings.Index(q, "&")],
		Sig: q[strings.Index(q, "sig=")+4:], Body: bytes.NewReader(data), ContentLength: int64(len(data))})
	if err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.media.Complete(ctx, e.who.ID, s.ID, media.CompleteInput{ProjectID: e.project, ObjectKey: s.ObjectKey,
		Parts: []media.Part{*part}}); err != nil {
		e.t.Fatal(err)
	}
	return s.ObjectKey
}

func (e *env) render(in video.RenderInput) *video.Job {
	e.t.Helper()
	if in.ProjectID == "" {
		in.ProjectID = e.project
	}
	if in.Preset == "" {
		in.Preset = "youtube"
	}
	j, err := e.svc.Render(context.Background(), e.who, in)
	if err != nil {
		e.t.Fatalf("render: %v", err)
	}
	return j
}

func (e *env) job(id string) *video.Job {
	e.t.Helper()
	j, err := e.svc.Get(context.Background(), e.who.ID, id)
	if err != nil {
		e.t.Fatal(err)
	}
	return j
}

func (e *env) used() int {
	e.t.Helper()
	u, err := e.quota.Usage(context.Background(), e.who.Pool, e.who.Cap)
	if err != nil {
		e.t.Fatal(err)
	}
	return u.Used
}

// fakeRunner renders by writing its spec's subtitles as the output; with
// block set it waits for release or its ctx; fail makes it fail.
type fakeRunner struct {
	// extracted is what Extract returns, analyzed what Analyze does.
	extracted *video.Extracted
	analyzed  *analysis.Analysis
	mu        sync.Mutex
	block     bool
	fail      error
	release   chan struct{}
	started   chan struct{}
	calls     int
	lastCtx   error
}

func (r *fakeRunner) Render(ctx context.Context, spec video.RenderSpec, progress func(float64)) (video.Output, error) {
	r.mu.Lock()
	r.calls++
	block, fail, started := r.block, r.fail, r.started
	r.mu.Unlock()
	progress(0.5)
	if started != nil {
		close(started)
	}
	if block {
		select {
		case <-r.release:
		case <-ctx.Done():
			r.mu.Lock()
			r.lastCtx = context.Cause(ctx)
			r.mu.Unlock()
			return nil, ctx.Err()
		}
	}
	if fail != nil {
		return nil, fail
	}
	return fakeOutput(spec.Subtitles), nil
}

func (r *fakeRunner) Extract(ctx context.Context, spec video.ExtractSpec, progress func(float64)) (*video.Extracted, error) {
	r.mu.Lock()
	r.calls++
	x := r.extracted
	r.mu.Unlock()
	progress(1)
	return x, nil
}

func (r *fakeRunner) Analyze(ctx context.Context, spec video.AnalyzeSpec, progress func(float64)) (*analysis.Analysis, error) {
	r.mu.Lock()
	r.calls++
	a := r.analyzed
	r.mu.Unlock()
	progress(1)
	return a, nil
}

type fakeOutput []byte

func (o fakeOutput) Open() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(o)), nil }
func (o fakeOutput) Size() int64                  { return int64(len(o)) }
func (o fakeOutput) ContentType() string          { return "video/mp4" }
func (o fakeOutput) Close() error                 { return nil }
