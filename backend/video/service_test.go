package video_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/video"
)

func TestRenderRefusesBadRequests(t *testing.T) {
	e := newEnv(t)
	for _, c := range []struct {
		name   string
		in     video.RenderInput
		kind   apperr.Kind
		field  string
		reason string
	}{
		{"unknown mode", video.RenderInput{Mode: "karaoke"}, apperr.BadRequest, "mode", ""},
		{"inline video", video.RenderInput{Mode: video.ModeMuxSoft, OutputDelivery: "inline", MediaKey: e.key}, apperr.BadRequest, "outputDelivery", "inline_only_for_sidecar"},
		{"no media", video.RenderInput{Mode: video.ModeBurnIn}, apperr.BadRequest, "mediaObjectKey", "missing"},
		{"unknown media", video.RenderInput{Mode: video.ModeBurnIn, MediaKey: "media/nope"}, apperr.NotFound, "mediaObjectKey", ""},
		{"srt in mp4", video.RenderInput{Mode: video.ModeMuxSoft, MediaKey: e.key, Container: "mp4", SubtitleCodec: "srt"}, apperr.BadRequest, "subtitleCodec", "not_in_container"},
		{"codec for a burn-in", video.RenderInput{Mode: video.ModeBurnIn, MediaKey: e.key, SubtitleCodec: "srt"}, apperr.BadRequest, "subtitleCodec", ""},
		{"webm container", video.RenderInput{Mode: video.ModeMuxSoft, MediaKey: e.key, Container: "webm"}, apperr.BadRequest, "container", ""},
		{"bad language", video.RenderInput{Mode: video.ModeSidecar, Language: "en"}, apperr.BadRequest, "language", ""},
		{"unknown preset", video.RenderInput{Mode: video.ModeSidecar, Preset: "betamax"}, apperr.BadRequest, "preset", ""},
		{"binary sidecar inline", video.RenderInput{Mode: video.ModeSidecar, Preset: "ebu-stl", OutputDelivery: "inline"}, apperr.BadRequest, "outputDelivery", "binary_format"},
		{"project not a uuid", video.RenderInput{Mode: video.ModeSidecar, ProjectID: "p"}, apperr.BadRequest, "projectId", "invalid_uuid"},
		{"unknown project", video.RenderInput{Mode: video.ModeSidecar, ProjectID: "7d444840-9dc0-11d1-b245-5ffdce74fad2"}, apperr.NotFound, "", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := c.in
			if in.ProjectID == "" {
				in.ProjectID = e.project
			}
			if in.Preset == "" {
				in.Preset = "youtube"
			}
			_, err := e.svc.Render(context.Background(), e.who, in)
			ae, ok := apperr.As(err)
			if !ok || ae.Kind != c.kind || (c.field != "" && ae.Details["field"] != c.field) || (c.reason != "" && ae.Details["reason"] != c.reason) {
				t.Fatalf("err = %v (details %v); want %v field %q reason %q", err, ae.Details, c.kind, c.field, c.reason)
			}
		})
	}
	if n := e.used(); n != 0 {
		t.Errorf("refused jobs took %d runs of the pool", n)
	}
}

func TestSidecarInlineSucceeds(t *testing.T) {
	e := newEnv(t)
	j := e.render(video.RenderInput{Mode: video.ModeSidecar, OutputDelivery: video.DeliveryInline})
	if j.Status != video.Queued || j.RemainingRuns != 4 || e.used() != 1 {
		t.Fatalf("accepted job: status %s, remaining %d, used %d", j.Status, j.RemainingRuns, e.used())
	}
	if err := e.svc.Work(context.Background(), video.WorkArgs{JobID: j.ID, Run: 1}); err != nil {
		t.Fatal(err)
	}
	got := e.job(j.ID)
	if got.Status != video.Succeeded || got.Progress != 1 || !strings.Contains(got.Output, "Hello there.") ||
		!strings.HasPrefix(got.OutputType, "application/x-subrip") || len(got.Artifacts) != 0 {
		t.Fatalf("job = %+v", got)
	}
	if e.runner.calls != 0 {
		t.Errorf("a sidecar ran ffmpeg %d times", e.runner.calls)
	}
}

func TestMuxKeepsItsArtifact(t *testing.T) {
	e := newEnv(t)
	j := e.render(video.RenderInput{Mode: video.ModeMuxSoft, MediaKey: e.key})
	if err := e.svc.Work(context.Background(), video.WorkArgs{JobID: j.ID, Run: 1}); err != nil {
		t.Fatal(err)
	}
	got := e.job(j.ID)
	if got.Status != video.Succeeded || got.Container != "mp4" || got.SubtitleCodec != "mov_text" || got.Language != "und" ||
		len(got.Artifacts) != 1 || got.Artifacts[0].Filename != "Interview-youtube-subtitled.mp4" {
		t.Fatalf("job = %+v", got)
	}
}

func TestFailureGivesTheRunBack(t *testing.T) {
	e := newEnv(t)
	e.runner.fail = &video.RunError{ExitCode: 1, Stderr: "frame=1\n[mp4 @ 0x1] something broke\nConversion failed!\n"}
	j := e.render(video.RenderInput{Mode: video.ModeBurnIn, MediaKey: e.key})
	if err := e.svc.Work(context.Background(), video.WorkArgs{JobID: j.ID, Run: 1}); err != nil {
		t.Fatal(err)
	}
	got := e.job(j.ID)
	if got.Status != video.Failed || got.Error == nil || got.Error.Code != video.ErrCodeFFmpeg ||
		!strings.Contains(got.Error.Message, "Conversion failed!") || got.FinishedAt.IsZero() {
		t.Fatalf("job = %+v, error %+v", got, got.Error)
	}
	if n := e.used(); n != 0 {
		t.Errorf("a failed job keeps %d runs of the pool", n)
	}
}

func TestCancelQueuedAndRunning(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	queued := e.render(video.RenderInput{Mode: video.ModeBurnIn, MediaKey: e.key})
	got, err := e.svc.Cancel(ctx, e.who.ID, queued.ID)
	if err != nil || got.Status != video.Canceled || got.Error == nil || got.Error.Code != video.ErrCodeCanceled {
		t.Fatalf("cancel queued: %+v, %v", got, err)
	}
	if err := e.svc.Work(ctx, video.WorkArgs{JobID: queued.ID, Run: 1}); err != nil || e.runner.calls != 0 {
		t.Fatalf("a canceled job ran: %v, %d calls", err, e.runner.calls)
	}
	_, err = e.svc.Cancel(ctx, e.who.ID, queued.ID)
	if ae, ok := apperr.As(err); !ok || ae.Kind != apperr.Conflict || ae.Details["reason"] != "job_finished" {
		t.Fatalf("cancel again: %v; want conflict job_finished", err)
	}
	if _, err := e.svc.Cancel(ctx, "someone-else", queued.ID); apperr.KindOf(err) != apperr.NotFound {
		t.Fatalf("another account's cancel: %v; want not_found", err)
	}

	e.runner.block, e.runner.started = true, make(chan struct{})
	running := e.render(video.RenderInput{Mode: video.ModeBurnIn, MediaKey: e.key})
	done := make(chan error, 1)
	go func() { done <- e.svc.Work(ctx, video.WorkArgs{JobID: running.ID, Run: 1}) }()
	<-e.runner.started
	if got, err := e.svc.Cancel(ctx, e.who.ID, running.ID); err != nil || got.Status != video.Canceled {
		t.Fatalf("cancel running: %+v, %v", got, err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("work of a canceled job: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the canceled run did not stop")
	}
	if got := e.job(running.ID); got.Status != video.Canceled || len(got.Artifacts) != 0 {
		t.Fatalf("after the run stopped: %+v", got)
	}
	if n := e.used(); n != 0 {
		t.Errorf("canceled jobs keep %d runs of the pool", n)
	}
}

func TestStopAndTimeout(t *testing.T) {
	e := newEnv(t)
	e.runner.block = true
	j := e.render(video.RenderInput{Mode: video.ModeBurnIn, MediaKey: e.key})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// The process is stopping: the job waits for the next start.
	if err := e.svc.Work(ctx, video.WorkArgs{JobID: j.ID, Run: 1}); !errors.Is(err, context.Canceled) {
		t.Fatalf("work on a stopping process: %v; want canceled", err)
	}
	if got := e.job(j.ID); got.Status != video.Queued {
		t.Fatalf("after a stop: %s; want queued", got.Status)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if err := e.svc.Work(ctx, video.WorkArgs{JobID: j.ID, Run: 1}); err != nil {
		t.Fatal(err)
	}
	if got := e.job(j.ID); got.Status != video.Failed || got.Error.Code != video.ErrCodeTimeout {
		t.Fatalf("after the timeout: %s %+v; want failed timeout", got.Status, got.Error)
	}
}

func TestRescueRunsAgainThenFails(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.runner.block = true
	j := e.render(video.RenderInput{Mode: video.ModeBurnIn, MediaKey: e.key})
	for run := 1; run <= video.MaxRuns; run++ {
		// A run that dies with its process: started, then no heartbeat.
		e.runner.started = make(chan struct{})
		runCtx, kill := context.WithCancel(ctx)
		done := make(chan error, 1)
		go func() { done <- e.svc.Work(runCtx, video.WorkArgs{JobID: j.ID, Run: run}) }()
		<-e.runner.started
		e.clock.Advance(video.StaleAfter + time.Second)
		n, err := e.svc.Rescue(ctx)
		if err != nil || n != 1 {
			t.Fatalf("run %d: rescue moved %d, %v; want 1", run, n, err)
		}
		kill() // the dead process's run ends; what it does now is ignored
		<-done
		got := e.job(j.ID)
		if run < video.MaxRuns && (got.Status != video.Queued || got.Run != run+1) {
			t.Fatalf("after run %d: %s run %d; want queued run %d", run, got.Status, got.Run, run+1)
		}
		if run == video.MaxRuns && (got.Status != video.Failed || got.Error.Code != video.ErrCodeInterrupted) {
			t.Fatalf("after the last run: %s %+v; want failed interrupted", got.Status, got.Error)
		}
	}
	if n := e.used(); n != 0 {
		t.Errorf("an interrupted job keeps %d runs of the pool", n)
	}
}

func TestRescuedRunSucceeds(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	e.runner.block, e.runner.started = true, make(chan struct{})
	j := e.render(video.RenderInput{Mode: video.ModeMuxSoft, MediaKey: e.key})
	runCtx, kill := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- e.svc.Work(runCtx, video.WorkArgs{JobID: j.ID, Run: 1}) }()
	<-e.runner.started
	e.clock.Advance(video.StaleAfter + time.Second)
	if _, err := e.svc.Rescue(ctx); err != nil {
		t.Fatal(err)
	}
	kill()
	<-done
	e.runner.block, e.runner.started = false, nil
	// The first run's work, retried by the queue, finds its run gone.
	if err := e.svc.Work(ctx, video.WorkArgs{JobID: j.ID, Run: 1}); err != nil {
		t.Fatal(err)
	}
	if got := e.job(j.ID); got.Status != video.Queued {
		t.Fatalf("a stale run changed the job: %s", got.Status)
	}
	if err := e.svc.Work(ctx, video.WorkArgs{JobID: j.ID, Run: 2}); err != nil {
		t.Fatal(err)
	}
	if got := e.job(j.ID); got.Status != video.Succeeded || len(got.Artifacts) != 1 {
		t.Fatalf("the rescued run: %+v", got)
	}
}

func TestWaitEstimate(t *testing.T) {
	e := newEnv(t)
	first := e.render(video.RenderInput{Mode: video.ModeBurnIn, MediaKey: e.key})
	second := e.render(video.RenderInput{Mode: video.ModeBurnIn, MediaKey: e.key})
	sidecar := e.render(video.RenderInput{Mode: video.ModeSidecar})
	// The 2 s clip at the default burn-in speed (2x real time): 1 s ahead.
	if first.EstimatedWaitSeconds != 0 || second.EstimatedWaitSeconds != 1 || sidecar.EstimatedWaitSeconds != 0 {
		t.Fatalf("waits: %d, %d, sidecar %d; want 0, 1, 0 (another lane)", first.EstimatedWaitSeconds,
			second.EstimatedWaitSeconds, sidecar.EstimatedWaitSeconds)
	}
}
