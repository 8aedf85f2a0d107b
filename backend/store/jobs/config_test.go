package jobs_test

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/store/jobs"
)

// TestConfigQueues: a queue that works jobs works the default queue, the
// delivery and upkeep queues, with their bounds, and the named ones,
// whatever workers it has (deliveries may be in the webhook queue
// whoever inserted them); an insert-only queue works none.
func TestConfigQueues(t *testing.T) {
	t.Parallel()
	task := jobs.Task{Name: "t", Every: time.Hour, Run: func(context.Context) error { return nil }}
	tests := []struct {
		name      string
		opts      jobs.QueueOptions
		wantWorks bool
		want      map[string]int
	}{
		{name: "insert only", opts: jobs.QueueOptions{}},
		{
			name: "workers", opts: jobs.QueueOptions{Workers: jobs.NewWorkers()}, wantWorks: true,
			want: map[string]int{jobs.DefaultQueue: jobs.DefaultMaxWorkers, jobs.WebhookQueue: jobs.WebhookWorkers, jobs.UpkeepQueue: jobs.UpkeepWorkers},
		},
		{
			name: "tasks only", opts: jobs.QueueOptions{Tasks: []jobs.Task{task}}, wantWorks: true,
			want: map[string]int{jobs.DefaultQueue: jobs.DefaultMaxWorkers, jobs.WebhookQueue: jobs.WebhookWorkers, jobs.UpkeepQueue: jobs.UpkeepWorkers},
		},
		{
			name: "named queues and a default bound",
			opts: jobs.QueueOptions{Workers: jobs.NewWorkers(), MaxWorkers: 3, Queues: map[string]int{"video_heavy": 1}}, wantWorks: true,
			want: map[string]int{jobs.DefaultQueue: 3, jobs.WebhookQueue: jobs.WebhookWorkers, jobs.UpkeepQueue: jobs.UpkeepWorkers, "video_heavy": 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg, works, err := jobs.Config(tt.opts, time.Now, slog.New(slog.DiscardHandler))
			if err != nil {
				t.Fatal(err)
			}
			if works != tt.wantWorks {
				t.Fatalf("works %v; want %v", works, tt.wantWorks)
			}
			if len(cfg.Queues) != len(tt.want) {
				t.Errorf("queues %v; want %v", cfg.Queues, tt.want)
			}
			for name, n := range tt.want {
				if q, ok := cfg.Queues[name]; !ok || q.MaxWorkers != n {
					t.Errorf("queue %q: %+v (present %v); want %d workers", name, q, ok, n)
				}
			}
		})
	}
}

// TestWebhookJobQueue: deliveries are inserted into the webhook queue,
// not the default one the other jobs share.
func TestWebhookJobQueue(t *testing.T) {
	t.Parallel()
	if q := jobs.WebhookJobOpts().InsertOpts().Queue; q != jobs.WebhookQueue {
		t.Errorf("delivery jobs go to queue %q; want %q", q, jobs.WebhookQueue)
	}
}
