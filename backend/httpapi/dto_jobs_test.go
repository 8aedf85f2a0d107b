package httpapi

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/internal/contract"
	"github.com/captionqa/captionqa/backend/video"
)

// TestJobViewEchoesRequestNames: a job answers under the names its
// request used (an extract job's extractMode, a render job's mode), and
// either view is a Job of the contract.
func TestJobViewEchoesRequestNames(t *testing.T) {
	t.Parallel()
	c := contract.Load(t)
	created := time.Date(2026, 12, 2, 6, 0, 0, 0, time.UTC)
	tests := []struct {
		name            string
		job             video.Job
		wantExtractMode any // nil: absent
	}{
		{name: "extract", job: video.Job{Kind: video.KindExtract, Mode: "soft_track", TrackIndex: 1, MediaKey: "m/k"}, wantExtractMode: "soft_track"},
		{name: "render", job: video.Job{Kind: video.KindRender, Mode: video.ModeMuxSoft, Preset: "youtube", TrackIndex: -1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			j := tt.job
			j.ID, j.ProjectID, j.Status, j.OutputDelivery, j.CreatedAt = "0d8f6a3e-1c2b-4d5e-8f90-a1b2c3d4e5f6", "1d8f6a3e-1c2b-4d5e-8f90-a1b2c3d4e5f6", video.Queued, "url", created
			b, err := json.Marshal(jobResult{Job: newJobView(&j)})
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			if got := m["job"]["extractMode"]; got != tt.wantExtractMode {
				t.Errorf("extractMode = %v, want %v: %s", got, tt.wantExtractMode, b)
			}
			if got := m["job"]["mode"]; got != j.Mode {
				t.Errorf("mode = %v, want %q", got, j.Mode)
			}
			var v any
			_ = json.Unmarshal(b, &v)
			if err := c.Doc().Components.Schemas["JobStatus"].Value.VisitJSON(v); err != nil {
				t.Errorf("not a JobStatus of the contract: %v\n%s", err, b)
			}
		})
	}
}
