package video_test

import (
	"context"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/video"
)

// TestRenderUserPreset: a render naming one of the account's presets is
// accepted and runs with it (its vtt output, not its youtube base's
// srt); a name the account does not hold is refused on preset; a preset
// deleted before the job runs fails the job.
func TestRenderUserPreset(t *testing.T) {
	e := newEnv(t)
	ctx := context.Background()
	if _, _, err := e.presets.Put(ctx, e.who.ID, "studio-vtt", []byte(`{"base":"youtube","output":"vtt"}`)); err != nil {
		t.Fatal(err)
	}
	j := e.render(video.RenderInput{Mode: video.ModeSidecar, OutputDelivery: video.DeliveryInline, Preset: "studio-vtt"})
	if err := e.svc.Work(ctx, video.WorkArgs{JobID: j.ID, Run: 1}); err != nil {
		t.Fatal(err)
	}
	got := e.job(j.ID)
	if got.Status != video.Succeeded || got.Preset != "studio-vtt" || !strings.HasPrefix(got.Output, "WEBVTT") {
		t.Fatalf("job = status %s, preset %s, output %.20q; want a WebVTT sidecar", got.Status, got.Preset, got.Output)
	}

	_, err := e.svc.Render(ctx, e.who, video.RenderInput{ProjectID: e.project, Mode: video.ModeSidecar, Preset: "studio-srt"})
	if ae, ok := apperr.As(err); !ok || ae.Kind != apperr.BadRequest || ae.Details["field"] != "preset" {
		t.Errorf("render with an unknown preset: %v; want bad_request on preset", err)
	}

	j = e.render(video.RenderInput{Mode: video.ModeSidecar, OutputDelivery: video.DeliveryInline, Preset: "studio-vtt"})
	if err := e.presets.Delete(ctx, e.who.ID, "studio-vtt"); err != nil {
		t.Fatal(err)
	}
	_ = e.svc.Work(ctx, video.WorkArgs{JobID: j.ID, Run: 1})
	if got := e.job(j.ID); got.Status != video.Failed {
		t.Errorf("a job whose preset was deleted: status %s; want failed", got.Status)
	}
}
