package video_test

import (
	"context"
	"testing"

	"github.com/captionqa/captionqa/backend/analysis"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/video"
)

// TestAnalyzeKeepsTheAnalysisWithTheMedia: an analyze job runs in the
// heavy lane, counts a run, and keeps what the runner found with its
// media, where the project's later checks find it; a second analysis
// replaces the first.
func TestAnalyzeKeepsTheAnalysisWithTheMedia(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	if _, err := e.media.ProjectAnalysis(ctx, e.who.ID, e.project); err != nil {
		t.Fatal(err)
	}
	for i, speech := range []int64{1000, 2500} {
		e.runner.analyzed = &analysis.Analysis{Version: analysis.Version, DurationMs: 3000,
			Audio: &analysis.Audio{Speech: []analysis.Segment{{StartMs: 500, EndMs: speech, Confidence: 0.9}}}}
		j, err := e.svc.Analyze(ctx, e.who, video.AnalyzeInput{ProjectID: e.project, MediaKey: e.key})
		if err != nil {
			t.Fatal(err)
		}
		if j.Kind != video.KindAnalyze || video.LaneOf(j) != video.LaneHeavy {
			t.Fatalf("accepted job = %+v", j)
		}
		if err := e.svc.Work(ctx, video.WorkArgs{JobID: j.ID, Run: 1}); err != nil {
			t.Fatal(err)
		}
		if got := e.job(j.ID); got.Status != video.Succeeded {
			t.Fatalf("job = %s %+v", got.Status, got.Error)
		}
		a, err := e.media.Analysis(ctx, e.who.ID, e.key)
		if err != nil || a.JobID != j.ID || len(a.Analysis.Audio.Speech) != 1 || a.Analysis.Audio.Speech[0].EndMs != speech {
			t.Fatalf("analysis %d = %+v, %v", i, a, err)
		}
		p, err := e.media.ProjectMediaAnalysis(ctx, e.who.ID, e.project)
		if err != nil || p == nil || p.Audio.Speech[0].EndMs != speech {
			t.Errorf("the project's analysis %d = %+v, %v", i, p, err)
		}
		if n := e.used(); n != i+1 {
			t.Errorf("runs used = %d; want %d", n, i+1)
		}
	}
}

// TestAnalyzeRefusals: the request names a project and a media key.
func TestAnalyzeRefusals(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	for _, tt := range []struct {
		name  string
		in    video.AnalyzeInput
		kind  apperr.Kind
		field string
	}{
		{"no project", video.AnalyzeInput{MediaKey: e.key}, apperr.BadRequest, "projectId"},
		{"no media", video.AnalyzeInput{ProjectID: e.project}, apperr.BadRequest, "mediaObjectKey"},
		{"unknown media", video.AnalyzeInput{ProjectID: e.project, MediaKey: "media/7d444840-9dc0-11d1-b245-5ffdce74fad2"}, apperr.NotFound, ""},
	} {
		_, err := e.svc.Analyze(ctx, e.who, tt.in)
		ae, ok := apperr.As(err)
		if !ok || ae.Kind != tt.kind || (tt.field != "" && ae.Details["field"] != tt.field) {
			t.Errorf("%s: %v; want %s field %q", tt.name, err, tt.kind.Code(), tt.field)
		}
	}
	if _, err := e.media.Analysis(ctx, e.who.ID, e.key); apperr.KindOf(err) != apperr.NotFound {
		t.Errorf("analysis before any job: %v; want not_found", err)
	}
}
